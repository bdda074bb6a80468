"""The Season page (R27) for every role, the organizer's season controls on the Tournaments
page, the CSV, the TV's season slide, the workbook's Season sheet (and its restore), and the
season table computed once per data version for every session."""

from __future__ import annotations

import io

import openpyxl
import pandas as pd
import pytest

from stsa import directory, store
from stsa.domain import TournamentError
from stsa.services import exports, restore
from stsa.services import season as service
from tests.app.conftest import JUDGE, ORGANIZER, count_calls, shown
from tests.app.test_tv import element as tv_element
from tests.support.store_helpers import published_sitting, rows_for

PAGE = "views/season.py"
REAL = ["Alice Realname", "Bob Realname", "Cora Realname", "Dan Realname"]
NICKS = ["Ace", "Bolt", "Cobra", "Dune"]


def _play(engine, seats):
    _, tables = published_sitting(engine, ids=seats)
    for table_id in tables["table_id"]:
        store.submit_table_result(engine, int(table_id), rows_for(engine, int(table_id)),
                                  expected_version=0, submission_id=None, actor=ORGANIZER)


@pytest.fixture
def season(engine, db_url):
    """Alpha and Beta, each four players (real names unlike their nicknames) at one played
    qualifier table, linked in the directory, both in "Season 2026"."""
    made, opened = [], []
    for name, order in (("Alpha Con", [0, 1, 2, 3]), ("Beta Con", [3, 2, 1, 0])):
        t = store.create_tournament(engine, name, actor=ORGANIZER)
        eng = store.connect(db_url, tournament=t.key)
        store.set_settings(eng, {"auto_backup": False}, actor=ORGANIZER)
        ids = store.import_players(eng, [{"name": REAL[i], "nickname": NICKS[i]}
                                         for i in range(4)], actor=ORGANIZER)["player_id"]
        _play(eng, [int(ids.iloc[i]) for i in order])
        made.append(t)
        opened.append(eng)
    for t, eng in zip(made, opened):
        entries = store.players(eng, actor=ORGANIZER).assign(tournament_id=t.tournament_id)
        links = store.directory(engine)
        if links.empty:
            store.link_players(engine, directory.assign_people(
                entries, pd.DataFrame(columns=directory.LINK_COLUMNS), accepted=()),
                actor=ORGANIZER)
            continue
        known = links.merge(store.players(opened[0], actor=ORGANIZER)
                            .assign(tournament_id=made[0].tournament_id)
                            [["tournament_id", "player_id", "nickname", "email"]],
                            on=["tournament_id", "player_id"])
        proposals = directory.match_players(entries, known)
        store.link_players(engine, directory.assign_people(
            entries, known, list(proposals[["tournament_id", "player_id"]]
                                 .itertuples(index=False, name=None))), actor=ORGANIZER)
    season_id = store.create_season(engine, "Season 2026", actor=ORGANIZER)
    for t in made:
        store.set_season(engine, t.tournament_id, season_id, actor=ORGANIZER)
    yield {"season": season_id, "alpha": made[0], "beta": made[1], "engines": opened}
    for eng in opened:
        eng.dispose()


def _text(at) -> str:
    return " ".join(shown(at.markdown) + shown(at.caption) + [e.value for e in at.info]
                    + [str(f.value.to_csv()) for f in at.dataframe])


@pytest.mark.parametrize("who", [None, JUDGE, ORGANIZER])
def test_the_season_page_shows_the_standing_by_nickname_only(open_page, season, who):
    at = open_page(PAGE, as_=who, query={"t": season["beta"].key})
    assert not at.exception
    frame = at.dataframe[0].value
    assert frame["Player"].tolist()[:1] and set(frame["Player"]) == set(NICKS)
    assert frame["Tournaments"].tolist() == [2, 2, 2, 2]
    text = _text(at)
    assert "best qualifier score" in text
    assert not any(real in text for real in REAL)
    assert "R27" not in text


def test_the_csv_is_the_season_standing(open_page, season, downloads, engine):
    at = open_page(PAGE)
    assert not at.exception
    name, data = downloads["season_csv"]
    assert name.endswith(".csv")
    body = (data() if callable(data) else data).decode("utf-8-sig")
    assert body.splitlines()[0].startswith("Rank,Player,Best score")
    assert not any(real in body for real in REAL)
    assert body == service.season_csv(engine, season["season"]).decode("utf-8-sig")


def test_no_season_is_a_plain_message(open_page, engine):
    at = open_page(PAGE)
    assert not at.exception
    assert any("no season yet" in e.value for e in at.info)


def test_the_season_table_is_computed_once_per_data_version(open_page, season, monkeypatch):
    calls = count_calls(monkeypatch, service, "season_table")
    first = open_page(PAGE)
    second = open_page(PAGE, as_=JUDGE)
    assert not first.exception and not second.exception
    assert len(calls) == 1
    beta = season["engines"][1]
    player = int(store.players(beta, actor=ORGANIZER)["player_id"].iloc[0])
    store.edit_player(beta, player, nickname="Acer", actor=ORGANIZER)  # a save in Beta
    open_page(PAGE)
    assert len(calls) == 2


def test_the_organizer_creates_a_season_with_points_and_puts_the_tournament_in_it(
        open_page, engine):
    at = open_page("views/tournaments.py", as_=ORGANIZER)
    assert not at.exception
    name = next(t for t in at.text_input if t.label == "Season name")
    points = next(t for t in at.text_input if t.label.startswith("Points per final rank ("))
    name.input("Winter")
    points.input("25, 18, x")
    next(b for b in at.button if b.label == "Create season").click().run()
    assert any("“x” is not one" in e.value for e in at.error)
    assert store.seasons(engine).empty
    next(t for t in at.text_input if t.label.startswith("Points per final rank (")) \
        .input("25, 18, 15")
    next(b for b in at.button if b.label == "Create season").click().run()
    assert not at.exception
    found = store.seasons(engine)
    assert found["name"].tolist() == ["Winter"] and found["points"].iloc[0] == {
        1: 25, 2: 18, 3: 15}
    at.selectbox(key="season_of_tournament").select(int(found["season_id"].iloc[0])).run()
    assert not at.exception
    assert service.season_of(engine, store.db.tournament_id(engine)) == int(
        found["season_id"].iloc[0])
    [t for t in at.text_input if t.label == "Name"][-1].input("Winter 2026")  # the season's
    next(b for b in at.button if b.label == "Save season").click().run()
    assert not at.exception
    assert store.seasons(engine)["name"].tolist() == ["Winter 2026"]


def test_parse_points_reads_the_ranks_in_order():
    assert service.parse_points("25, 18; 15 12") == {1: 25, 2: 18, 3: 15, 4: 12}
    assert service.parse_points("  ") is None
    with pytest.raises(TournamentError, match="“-1” is not one"):
        service.parse_points("25, -1")


def test_the_tv_shows_a_season_slide_in_a_season(open_page, season):
    at = open_page("views/tv.py", query={"t": season["beta"].key})
    assert not at.exception
    answer = tv_element(at)["answer"]  # the slides cycle in the browser; the season's last
    assert answer["slides"][-1] == {"kind": "season", "heading": "Season"}
    player = answer["season"]["columns"].index("Player")
    assert {row[player] for row in answer["season"]["rows"]} == set(NICKS)


def test_the_workbook_has_a_season_sheet_and_restores(season, tmp_path):
    alpha = season["engines"][0]
    data = exports.tournament_workbook(alpha)
    book = openpyxl.load_workbook(io.BytesIO(data))
    assert "Season" in book.sheetnames
    values = [c.value for row in book["Season"].iter_rows() for c in row]
    assert "Ace" in values and not any(real in values for real in REAL)
    fresh = store.connect(f"sqlite:///{tmp_path / 'fresh.db'}")
    try:
        done = restore.restore_workbook(fresh, io.BytesIO(data), actor=ORGANIZER)
        assert done.rows["players"] == 4
    finally:
        fresh.dispose()
