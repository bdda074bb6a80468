"""R22: everything a spectator sees, on every public page and in every public download, names
players by nickname only: no real name, club or email. The organizer still sees both on the
Roster page.

The roster's real names all start with "Realname" and its nicknames with "Nick", so one look
for "Realname" in everything a page sends the browser (text, tables, charts, widget options)
finds any leak."""

import io

import pandas as pd
import pytest
from pypdf import PdfReader

from stsa import store, tournament
from stsa.services import exports
from tests.app.conftest import JUDGE, ORGANIZER, shown
from tests.support import feed_routes

SECRETS = ("Realname", "Secretclub", "hidden.example")
LETTERS = "ABCDEFGHIJKL"
PUBLIC_PAGES = ["views/home.py", "views/player.py", "views/standings.py", "views/statistics.py",
                "views/tv.py", "views/draw.py", "views/results.py", "views/finals.py",
                "views/sign_in.py", "views/schedule.py"]


def _vps(table_no: int, n: int, offset: int) -> list[int]:
    """VP distinct at every seat of every table (with a different `offset` per sitting), so no
    two players share a rank."""
    return [30 + 7 * table_no + offset, 20 + 3 * table_no + offset, 10 + table_no + offset,
            table_no + offset][:n]


def _play(engine, sitting: dict, offset: int = 0, tables: int | None = None) -> None:
    """Publish a drawn sitting and enter its first `tables` tables (all for None)."""
    sid = sitting["sitting_id"]
    store.publish_sitting(engine, sid, actor=ORGANIZER)
    seats = store.seats(engine, sid, actor=ORGANIZER)
    for t, table in enumerate(store.tables(engine, sid, actor=ORGANIZER)
                              .head(tables).itertuples()):
        at = seats.loc[seats["table_id"] == table.table_id]
        rows = pd.DataFrame({"player_id": at["player_id"].to_numpy(),
                             "leader": table.available_leaders[:len(at)],
                             "vp": _vps(t, len(at), offset), "spice": 0, "solari": 0,
                             "troops": 0, "water": 0})
        store.submit_table_result(engine, table.table_id, rows, expected_version=0,
                                  submission_id=None, actor=JUDGE)


def _roster(engine) -> list[int]:
    roster = pd.DataFrame({"name": [f"Realname {c}{c.lower()}" for c in LETTERS],
                           "nickname": [f"Nick {c}" for c in LETTERS],
                           "club": "Secretclub", "email": [f"{c}@hidden.example"
                                                           for c in LETTERS]})
    ids = store.import_players(engine, roster, actor=ORGANIZER)["player_id"].tolist()
    store.check_in(engine, ids, actor=ORGANIZER)
    return ids


@pytest.fixture
def qualifiers_being_played(engine):
    """Qualifier 1 complete, qualifier 2 published with one table reported."""
    ids = _roster(engine)
    _play(engine, tournament.draw_qualifier(engine, ids, seed=5, actor=ORGANIZER))
    _play(engine, tournament.draw_qualifier(engine, ids, seed=6, actor=ORGANIZER), offset=50,
          tables=1)
    return engine


@pytest.fixture
def finals_played(engine):
    """Two complete qualifiers, the semifinal and the final: the final standings are in."""
    ids = _roster(engine)
    _play(engine, tournament.draw_qualifier(engine, ids, seed=5, actor=ORGANIZER))
    _play(engine, tournament.draw_qualifier(engine, ids, seed=6, actor=ORGANIZER), offset=50)
    _play(engine, tournament.draw_semifinal(engine, seed=7, actor=ORGANIZER))
    _play(engine, tournament.draw_final(engine, seed=8, actor=ORGANIZER))
    return engine


def sent(at) -> str:
    """Everything the page sent the browser: every element's message (text, table data,
    chart specs and data, widget labels and options)."""
    def walk(node):
        proto = getattr(node, "proto", None)
        yield "" if proto is None else str(proto)
        for child in getattr(node, "children", {}).values():
            yield from walk(child)
    return "\n".join(walk(at._tree))


def no_secret(text: str, where: str) -> None:
    for secret in SECRETS:
        assert secret not in text, f"{where} shows {secret!r}"


def _views(open_page, page: str, sitting_ids: list[int]):
    """The page, and the same page after each choice a spectator can make on it (a live
    element holds everything it can show in its data: TV's slides, My seat's player)."""
    at = open_page(page)
    yield page, at
    if page == "views/statistics.py":
        for chart in ["Sittings", "Players", "Leaders", "Seats", "Setups"]:
            at.segmented_control(key="stats_chart").set_value(chart).run()  # Players: 3 shown
            yield f"{page}, {chart}", at
    if page == "views/player.py":  # a search, then one player's page
        at.text_input(key="player_search").input("Nick").run()
        yield f"{page}, search", at
        next(b for b in at.button if b.key and b.key.startswith("player_pick_")).click().run()
        yield f"{page}, a player's page", at
    for key in ("draw_sitting", "res_sitting"):
        if any(box.key == key for box in at.selectbox):
            for sitting_id in sitting_ids:
                at.selectbox(key=key).set_value(sitting_id).run()
                yield f"{page}, {key}={sitting_id}", at
    if page == "views/draw.py" and any(t.key == "draw_search" for t in at.text_input):
        at.text_input(key="draw_search").input("Nick B").run()
        yield f"{page}, search", at


@pytest.mark.parametrize("stage", ["qualifiers_being_played", "finals_played"])
def test_spectators_see_no_real_name_on_any_page(open_page, request, stage):
    engine = request.getfixturevalue(stage)
    published = store.sittings(engine)["sitting_id"].tolist()  # what spectators may choose
    seen_nicknames = set()
    for page in PUBLIC_PAGES:
        for where, at in _views(open_page, page, published):
            assert not at.exception, f"{where}: {at.exception}"
            text = sent(at)
            no_secret(text, where)
            seen_nicknames |= {c for c in LETTERS if f"Nick {c}" in text}
    assert seen_nicknames == set(LETTERS)  # the pages did show the players, by nickname
    # the Standings search draws its cards in the browser, from this answer
    key = store.tournaments(engine)["key"].iloc[0]
    cards = feed_routes.answer("/api/v1/tournaments/{key}/live/cards", key=key)
    assert cards.status_code == 200 and "Nick A" in bytes(cards.body).decode()
    no_secret(bytes(cards.body).decode(), "the Standings search's cards")


def test_public_downloads_carry_nicknames_only(open_page, finals_played, downloads):
    at = open_page("views/finals.py")
    assert not at.exception
    name, data = downloads["finals_download"]
    text = data.decode("utf-8-sig") if isinstance(data, bytes) else str(data)
    assert "Nick A" in text
    no_secret(text, name)
    standings = exports.standings_csv(finals_played).decode("utf-8-sig")
    assert "Nick A" in standings
    no_secret(standings, "the standings CSV")
    final = store.sittings(finals_played, actor=ORGANIZER)["sitting_id"].iloc[-1]
    for pdf in (exports.pairings_by_name(finals_played, final),
                exports.pairings_by_table(finals_played, final),
                exports.table_slips(finals_played, final, judges_copy=False,
                                    result_url="http://stsa.example/")):
        text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
        assert "Nick " in text
        no_secret(text, "a slip or pairing list")


def test_the_organizer_sees_names_and_nicknames_on_the_roster(open_page, finals_played):
    at = open_page("views/roster.py", as_=ORGANIZER)
    assert not at.exception
    listed = at.data_editor[0].value
    assert listed.loc[listed["name"] == "Realname Aa", "nickname"].tolist() == ["Nick A"]


def test_the_organizer_adds_and_edits_a_nickname(open_page, engine):
    at = open_page("views/roster.py", as_=ORGANIZER)
    at.text_input(key="add_name").input("Dana Cruz")
    at.text_input(key="add_nickname").input("Spice Queen")
    at.button(key="add_submit").click().run()
    assert [s.value for s in at.success] == ["Added Dana Cruz."]
    at.text_input(key="add_name").input("Eli Ward")
    at.text_input(key="add_nickname").input("spice  QUEEN")
    at.button(key="add_submit").click().run()
    assert any("the nickname 'spice QUEEN' is already Dana Cruz's" in e
               for e in shown(at.error))
    at.text_input(key="add_nickname").input("")
    at.button(key="add_submit").click().run()  # blank: the name
    roster = store.players(engine, actor=ORGANIZER)
    assert roster[["name", "nickname"]].values.tolist() == [["Dana Cruz", "Spice Queen"],
                                                            ["Eli Ward", "Eli Ward"]]
    eli = int(roster["player_id"].iloc[1])
    at.selectbox(key="edit_player").select(eli).run()
    at.text_input(key=f"edit_nickname_{eli}").input("Spice Queen")
    at.button(key=f"edit_save_{eli}").click().run()
    assert any("The nickname 'Spice Queen' is already Dana Cruz's" in e
               for e in shown(at.error))
    at.text_input(key=f"edit_nickname_{eli}").input("Water Seller")
    at.button(key=f"edit_save_{eli}").click().run()
    assert store.player(engine, eli)["name"] == "Water Seller"  # what spectators see
    assert store.events(engine, actor=ORGANIZER, action="player.edit")["after"].iloc[-1] == \
        {"nickname": "Water Seller"}
