"""R27 across tournaments: the season standing, its CSV, the rating and the player page, read
from two small tournaments of one installation whose players are linked through the player
directory (e-mail and nickname proposals, `stsa.directory`), against hand-computed tables.

Alpha Con (2026-03-01): Ace, Bolt, Cobra, Dune play one qualifier table (seats 1–4: VP 9, 8,
7, 6: scores 21, 16, 11, 0), then the final (seats Dune, Cobra, Bolt, Ace: final ranks Dune 1,
Cobra 2, Bolt 3, Ace 4). Beta Con (2026-06-01): Echo, Ace (now "Ace of Spades", known by the
same e-mail), Fox, Dune play one qualifier table in that seat order (21, 16, 11, 0); no finals.
Fox is never linked: a person of their own. Nobody's real name may appear anywhere public.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from stsa import directory, rating, rules, store
from stsa.services import season as service
from tests.support.store_helpers import JUDGE, ORGANIZER, published_sitting, rows_for

REAL = {"Ace": "Alice Realname", "Bolt": "Bob Realname", "Cobra": "Cora Realname",
        "Dune": "Dan Realname", "Echo": "Eve Realname", "Fox": "Fay Realname"}


def _play(engine, ids, kind="qualifier"):
    """One table of `ids` in that seat order (seat s: VP 10 − s), published and played."""
    _, tables = published_sitting(engine, ids=ids, kind=kind)
    for table_id in tables["table_id"]:
        store.submit_table_result(engine, int(table_id), rows_for(engine, int(table_id)),
                                  expected_version=0, submission_id=None, actor=JUDGE)


def _roster(engine, entries):
    frame = store.import_players(engine, [{"name": REAL[nick.split()[0]] if nick != "=Fox"
                                           else REAL["Fox"], "nickname": nick, "email": email}
                                          for nick, email in entries], actor=ORGANIZER)
    return dict(zip(frame["nickname"], frame["player_id"]))


@pytest.fixture
def two_tournaments(tmp_path):
    url = f"sqlite:///{tmp_path / 'stsa.db'}"
    backups = tmp_path / "backups"
    inst = store.connect(url, backup_dir=backups)
    alpha = store.create_tournament(inst, "Alpha Con", starts_on="2026-03-01", actor=ORGANIZER)
    beta = store.create_tournament(inst, "Beta Con", starts_on="2026-06-01", actor=ORGANIZER)
    a = store.connect(url, tournament=alpha.key, backup_dir=backups)
    b = store.connect(url, tournament=beta.key, backup_dir=backups)
    for engine in (a, b):
        store.set_settings(engine, {"auto_backup": False}, actor=ORGANIZER)

    in_a = _roster(a, [("Ace", "ace@example.org"), ("Bolt", ""), ("Cobra", ""), ("Dune", "")])
    _play(a, [in_a[n] for n in ("Ace", "Bolt", "Cobra", "Dune")])
    _play(a, [in_a[n] for n in ("Dune", "Cobra", "Bolt", "Ace")], kind="final")
    in_b = _roster(b, [("Echo", ""), ("Ace of Spades", "ACE@example.org "), ("=Fox", ""),
                       ("Dune", "")])
    _play(b, [in_b[n] for n in ("Echo", "Ace of Spades", "=Fox", "Dune")])

    # The directory: Alpha's players are new people; Beta's proposals (Ace by e-mail, Dune by
    # nickname) are confirmed, Echo is new, Fox is left out.
    a_entries = store.players(a, actor=ORGANIZER).assign(tournament_id=alpha.tournament_id)
    store.link_players(inst, directory.assign_people(a_entries, pd.DataFrame(
        columns=directory.LINK_COLUMNS), accepted=()), actor=ORGANIZER)
    links = store.directory(inst).merge(a_entries[["tournament_id", "player_id", "nickname",
                                                   "email"]], on=["tournament_id", "player_id"])
    b_entries = (store.players(b, actor=ORGANIZER).assign(tournament_id=beta.tournament_id)
                 .loc[lambda d: d["nickname"] != "=Fox"])
    proposals = directory.match_players(b_entries, links)
    assert proposals.set_index("nickname")["matched_by"].to_dict() == {
        "Echo": "", "Ace of Spades": "e-mail", "Dune": "nickname"}
    accepted = proposals.loc[proposals["person_id"].notna(), ["tournament_id", "player_id"]]
    store.link_players(inst, directory.assign_people(
        b_entries, links, list(accepted.itertuples(index=False, name=None))), actor=ORGANIZER)
    season_id = store.create_season(inst, "Season 2026", actor=ORGANIZER)
    for made in (alpha, beta):
        store.set_season(inst, made.tournament_id, season_id, actor=ORGANIZER)
    people = store.directory(inst)
    person = {nick: int(people.loc[(people["tournament_id"] == alpha.tournament_id)
                                   & (people["player_id"] == pid), "person_id"].iloc[0])
              for nick, pid in in_a.items()}
    person["Echo"] = int(people.loc[(people["tournament_id"] == beta.tournament_id)
                                    & (people["player_id"] == in_b["Echo"]), "person_id"].iloc[0])
    person["Fox"] = int(service.synthetic_person(beta.tournament_id, in_b["=Fox"]))
    yield {"inst": inst, "season": season_id, "person": person, "alpha": alpha.tournament_id,
           "beta": beta.tournament_id, "in_a": in_a, "in_b": in_b}
    for engine in (a, b, inst):
        engine.dispose()


def _no_real_name(frame_or_text) -> None:
    text = frame_or_text if isinstance(frame_or_text, str) else frame_or_text.to_csv()
    assert not any(real in text for real in REAL.values()), text
    assert "Realname" not in text and "example.org" not in text


@pytest.mark.slow
def test_the_season_table_matches_the_hand_computed_standing(two_tournaments):
    t = two_tournaments
    table = service.season_table(t["inst"], t["season"])
    assert table.columns.tolist() == ["rank", "person_id", "nickname", "best_score",
                                      "best_tournament_id", "best_tournament", "events",
                                      "best_final_rank", "games", "wins"]
    p = t["person"]
    expected = pd.DataFrame([
        # Ace and Echo: 21 from a first place, equal on that game; Ace's second-best (16) wins.
        (1, p["Ace"], "Ace of Spades", 21, t["alpha"], "Alpha Con", 2, 4, 2, 1),
        (2, p["Echo"], "Echo", 21, t["beta"], "Beta Con", 1, pd.NA, 1, 1),
        (3, p["Bolt"], "Bolt", 16, t["alpha"], "Alpha Con", 1, 3, 1, 0),
        # Cobra and Fox: 11 from a third place, nothing else; Cobra's final rank settles it.
        (4, p["Cobra"], "Cobra", 11, t["alpha"], "Alpha Con", 1, 2, 1, 0),
        (5, p["Fox"], "=Fox", 11, t["beta"], "Beta Con", 1, pd.NA, 1, 0),
        # Dune: 0 twice, equal games: the lower tournament id is the best tournament.
        (6, p["Dune"], "Dune", 0, t["alpha"], "Alpha Con", 2, 1, 2, 0),
    ], columns=table.columns)
    assert table.astype(object).where(table.notna(), None).values.tolist() == \
        expected.astype(object).where(expected.notna(), None).values.tolist()
    _no_real_name(table)


@pytest.mark.slow
def test_a_points_table_ranks_by_the_points_of_each_final_rank(two_tournaments):
    t = two_tournaments
    store.set_season_points(t["inst"], t["season"], {1: 10, 2: 6, 3: 4, 4: 2}, actor=ORGANIZER)
    table = service.season_table(t["inst"], t["season"])
    assert "points" in table.columns
    p = t["person"]
    assert table[["rank", "person_id", "points"]].values.tolist() == [
        [1, p["Dune"], 10], [2, p["Cobra"], 6], [3, p["Bolt"], 4], [4, p["Ace"], 2],
        [5, p["Echo"], 0], [6, p["Fox"], 0]]  # no points: the default order (Echo before Fox)


@pytest.mark.slow
def test_a_season_reads_only_its_own_tournaments(two_tournaments):
    t = two_tournaments
    store.set_season(t["inst"], t["beta"], None, actor=ORGANIZER)
    table = service.season_table(t["inst"], t["season"])
    assert table["nickname"].tolist() == ["Ace", "Bolt", "Cobra", "Dune"]  # Alpha's nickname
    assert set(table["events"]) == {1}
    empty = store.create_season(t["inst"], "Empty", actor=ORGANIZER)
    assert service.season_table(t["inst"], empty).empty
    with pytest.raises(store.NotFound, match="There is no season with id 99."):
        service.season_table(t["inst"], 99)


@pytest.mark.slow
def test_the_season_csv_is_nicknames_only_with_formulas_neutralised(two_tournaments):
    t = two_tournaments
    text = service.season_csv(t["inst"], t["season"]).decode("utf-8-sig")
    lines = text.splitlines()
    assert lines[0] == "Rank,Player,Best score,Best tournament,Tournaments,Best final rank," \
                       "Games,Wins"
    assert lines[1] == "1,Ace of Spades,21,Alpha Con,2,4,2,1"
    assert lines[2] == "2,Echo,21,Beta Con,1,,1,1"
    assert lines[5] == "5,'=Fox,11,Beta Con,1,,1,0"
    assert len(lines) == 7
    _no_real_name(text)
    store.set_season_points(t["inst"], t["season"], {1: 10}, actor=ORGANIZER)
    with_points = service.season_csv(t["inst"], t["season"]).decode("utf-8-sig").splitlines()
    assert with_points[0].endswith("Best final rank,Points,Games,Wins")
    assert with_points[1] == "1,Dune,0,Alpha Con,2,1,10,2,0"


@pytest.mark.slow
def test_tournament_games_carry_people_order_and_final_ranks(two_tournaments):
    t = two_tournaments
    games = service.tournament_games(t["inst"])
    assert games.columns.tolist() == service.GAME_COLUMNS
    assert len(games) == 12 and games["game_id"].nunique() == 3
    assert games.groupby("kind")["order"].unique().map(list).to_dict() == {
        "final": [1], "qualifier": [0, 2]}  # Alpha's qualifier, Alpha's final, Beta's
    fox = games.loc[games["person_id"] == t["person"]["Fox"]]
    assert fox[["tournament_id", "player_id"]].values.tolist() == [[t["beta"],
                                                                    t["in_b"]["=Fox"]]]
    assert t["person"]["Fox"] < 0
    alpha = games.loc[games["tournament_id"] == t["alpha"]].drop_duplicates("person_id")
    assert alpha.set_index("player_id")["final_rank"].to_dict() == {
        t["in_a"]["Ace"]: 4, t["in_a"]["Bolt"]: 3, t["in_a"]["Cobra"]: 2, t["in_a"]["Dune"]: 1}
    assert games.loc[games["tournament_id"] == t["beta"], "final_rank"].isna().all()
    assert games["at"].notna().all()  # every sitting is complete


@pytest.mark.slow
def test_the_rating_is_openskills_over_every_game_in_order(two_tournaments):
    t = two_tournaments
    found = service.rating_table(t["inst"])
    games = service.tournament_games(t["inst"])
    direct = rating.ratings(games.drop(columns="player_id").rename(
        columns={"person_id": "player_id"})[["order", "game_id", "player_id", "placing"]])
    assert found.current.columns.tolist() == service.CURRENT_COLUMNS
    assert found.history.columns.tolist() == service.HISTORY_COLUMNS
    mine = found.current.set_index("person_id").sort_index()
    theirs = direct.current.set_index("player_id").sort_index()
    np.testing.assert_allclose(mine["ordinal"], theirs["ordinal"])
    assert mine["games"].to_dict() == {**dict.fromkeys(t["person"].values(), 1),
                                       t["person"]["Ace"]: 3, t["person"]["Dune"]: 3,
                                       t["person"]["Bolt"]: 2, t["person"]["Cobra"]: 2}
    _no_real_name(found.current)


@pytest.mark.slow
def test_the_player_page_is_the_public_record_and_the_rating(two_tournaments):
    t = two_tournaments
    page = service.player_page(t["inst"], t["person"]["Ace"])
    assert page.nickname == "Ace of Spades"
    assert page.record.columns.tolist() == directory.RECORD_COLUMNS
    assert page.record[["tournament", "starts_on", "nickname", "best_score", "rank"]] \
        .values.tolist() == [["Beta Con", "2026-06-01", "Ace of Spades", 16, 2],
                             ["Alpha Con", "2026-03-01", "Ace", 21, 1]]
    assert page.record["final_rank"].tolist()[1] == 4 and pd.isna(page.record["final_rank"][0])
    assert page.rating is not None and page.rating["games"] == 3
    assert page.history["tournament"].tolist() == ["Alpha Con", "Alpha Con", "Beta Con"]
    assert page.history["order"].is_monotonic_increasing
    _no_real_name(page.record)
    fox = service.player_page(t["inst"], t["person"]["Fox"])  # not in the directory
    assert fox.record[["tournament", "nickname", "best_score"]].values.tolist() == [
        ["Beta Con", "=Fox", 11]]
    with pytest.raises(store.NotFound, match="There is no person 999"):
        service.player_page(t["inst"], 999)


@pytest.mark.slow
def test_the_engines_opened_are_disposed_and_the_installations_is_not(two_tournaments,
                                                                        monkeypatch):
    t = two_tournaments
    opened, disposed = [], []
    real_open = store.open_tournament

    def spying(installation, which=None):
        engine = real_open(installation, which)
        if engine is not installation:
            opened.append(engine)
            real_dispose = engine.dispose
            monkeypatch.setattr(engine, "dispose", lambda *a, **k: (disposed.append(engine),
                                                                     real_dispose(*a, **k)))
        return engine

    monkeypatch.setattr(store, "open_tournament", spying)
    service.season_table(t["inst"], t["season"])
    assert len(opened) == 2 and disposed == opened
    assert not store.tournaments(t["inst"]).empty  # the installation's engine still works


@pytest.mark.slow
def test_a_player_page_can_take_the_shared_reads_and_ratings(two_tournaments, monkeypatch):
    t = two_tournaments
    alone = service.player_page(t["inst"], t["person"]["Ace"])
    data = service.played(t["inst"])
    ratings = service.rating_table(t["inst"], data=data)
    monkeypatch.setattr(service, "played", lambda *a, **k: pytest.fail("read again"))
    monkeypatch.setattr(service, "_ratings", lambda *a, **k: pytest.fail("rated again"))
    shared = service.player_page(t["inst"], t["person"]["Ace"], data=data, ratings=ratings)
    assert shared.nickname == alone.nickname and shared.rating == alone.rating
    pd.testing.assert_frame_equal(shared.record, alone.record)
    pd.testing.assert_frame_equal(shared.history, alone.history)


@pytest.mark.slow
def test_engines_given_are_used_and_left_open(two_tournaments, monkeypatch):
    t = two_tournaments
    engines = {tid: store.open_tournament(t["inst"], tid) for tid in (t["alpha"], t["beta"])}
    asked = []
    monkeypatch.setattr(store, "open_tournament", lambda *a, **k: pytest.fail("opened"))
    table = service.season_table(t["inst"], t["season"],
                                 engine_of=lambda tid: asked.append(tid) or engines[tid])
    assert sorted(asked) == sorted(engines) and len(table) == 6
    for engine in engines.values():
        assert not store.tournament_is_empty(engine)  # still open
        engine.dispose()


@pytest.mark.slow
def test_players_seated_without_a_result_yet_rank_as_the_tournament_shows_them(
        two_tournaments):
    from stsa.domain import Kind
    from stsa.services import results as results_service
    from stsa.services.snapshot import Snapshot
    from tests.support.store_helpers import add_players

    t = two_tournaments
    beta = store.open_tournament(t["inst"], t["beta"])
    try:
        published_sitting(beta, ids=[*t["in_b"].values(), *add_players(beta, 4)])
        with Snapshot(beta, actor=None) as snap:
            shown = results_service.standings(
                rules.score_games(store.results(beta, Kind.QUALIFIER)), snap.names,
                results_service.qualifier_players(snap))
    finally:
        beta.dispose()
    found = service.played(t["inst"]).standings.loc[lambda d: d["tournament_id"] == t["beta"]]
    assert len(found) == 8 and found["best_score"].isna().sum() == 4
    pd.testing.assert_frame_equal(
        found[["player_id", "rank", "best_score"]].sort_values("player_id", ignore_index=True),
        shown[["player_id", "rank", "best_score"]].astype({"best_score": "float64"})
        .sort_values("player_id", ignore_index=True))
