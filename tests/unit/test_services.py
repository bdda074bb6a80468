"""The services check every rule a page relies on, below the page (DESIGN.md): an unsettled
full tie (R11), a finals draw that no longer seats who plays (R16, R17), absences once the
finals are under way (R17), colours equal but for case (R4); the finals read one snapshot and
name the finalist a semifinal winner contests (R16)."""

import pandas as pd
import pytest

from stsa import rules, store
from stsa.auth import Actor, Role
from stsa.domain import PLAYED, Kind, Stage
from stsa.errors import TournamentError
from stsa.services import admin, draws, finals, home, results, shared, sittings
from stsa.services.snapshot import Snapshot
from stsa.ui import finals as finals_view

ORGANIZER = Actor("Olivia", Role.ORGANIZER)
JUDGE = Actor("Jamal", Role.JUDGE)


@pytest.fixture
def store_writes(monkeypatch):
    """Which store writes a service reached: {name: number of calls}. The writes still run."""
    calls = {}

    def spy(name):
        real = getattr(store, name)

        def wrapper(*args, **kwargs):
            calls[name] = calls.get(name, 0) + 1
            return real(*args, **kwargs)
        monkeypatch.setattr(store, name, wrapper)

    for name in ("submit_table_result", "set_settings", "publish_sitting", "mark_absent"):
        spy(name)
    return calls


def _players(engine, n):
    names = pd.DataFrame({"name": [f"P{i}" for i in range(n)]})
    return store.import_players(engine, names, actor=ORGANIZER)["player_id"].tolist()


def _enter(engine, sitting_id, vps, spice=None):
    """Every table of a sitting: the players by seat get `vps` (and `spice[player]`)."""
    tables = store.tables(engine, sitting_id, actor=ORGANIZER)
    seats = store.seats(engine, sitting_id, actor=ORGANIZER)
    for table in tables.itertuples():
        at = seats.loc[seats["table_id"] == table.table_id]
        ids = at["player_id"].tolist()
        rows = pd.DataFrame({"player_id": ids, "leader": table.available_leaders[:len(ids)],
                             "vp": vps[:len(ids)],
                             "spice": [(spice or {}).get(p, 0) for p in ids],
                             "solari": 0, "troops": 0, "water": 0})
        store.submit_table_result(engine, table.table_id, rows, expected_version=0,
                                  submission_id=None, actor=JUDGE)


def _qualifier(engine, n, *, seed=3):
    """One published, complete qualifier for n players; ranks without shared places."""
    ids = _players(engine, n)
    sitting = draws.draw_qualifier(engine, ids, seed=seed, actor=ORGANIZER)
    draws.publish(engine, sitting["sitting_id"], actor=ORGANIZER)
    _enter(engine, sitting["sitting_id"], [30, 20, 10, 0], spice={p: p for p in ids})
    return ids


# --- R11: a full tie is settled before the result is saved -------------------------------------

def _tied_table(engine):
    ids = _players(engine, 4)
    sitting = draws.draw_qualifier(engine, ids, seed=1, actor=ORGANIZER)
    draws.publish(engine, sitting["sitting_id"], actor=ORGANIZER)
    table = store.tables(engine, sitting["sitting_id"], actor=ORGANIZER).iloc[0]
    seats = store.seats(engine, sitting["sitting_id"], actor=ORGANIZER)
    rows = pd.DataFrame({"player_id": seats["player_id"].to_numpy(), "seat": seats["seat"],
                         "leader": table["available_leaders"][:4], "vp": [9, 9, 5, 3],
                         "spice": 1, "solari": 2, "troops": 3, "water": 4})
    return int(table["table_id"]), rows, seats


def test_R11_the_service_refuses_an_unsettled_full_tie_before_the_store(engine, store_writes):
    table_id, rows, seats = _tied_table(engine)
    with pytest.raises(TournamentError) as refused:
        results.submit_result(engine, table_id, rows, expected_version=0, submission_id=None,
                              actor=JUDGE)
    first, second = seats["name"].iloc[0], seats["name"].iloc[1]
    assert str(refused.value) == (
        f"Qualifier 1, table 1: seat 1 ({first}) and seat 2 ({second}) are equal on VP, "
        f"spice, solari, troops and water: enter their settled order (1, 2, …) before saving. "
        f"Nothing was saved.")
    assert "submit_table_result" not in store_writes, "refused before it reaches the store"
    assert store.table_result(engine, table_id).version == 0


@pytest.mark.parametrize("order", [[1, 1, None, None], [2, None, None, None]])
def test_R11_an_order_that_does_not_settle_the_tie_is_refused(engine, store_writes, order):
    table_id, rows, _ = _tied_table(engine)
    with pytest.raises(TournamentError, match="enter their settled order"):
        results.submit_result(engine, table_id, rows.assign(tiebreak=order),
                              expected_version=0, submission_id=None, actor=JUDGE)
    assert "submit_table_result" not in store_writes


def test_R11_a_settled_tie_is_saved_and_ranks_by_the_order(engine, store_writes):
    table_id, rows, seats = _tied_table(engine)
    saved = results.submit_result(engine, table_id, rows.assign(tiebreak=[2, 1, None, None]),
                                  expected_version=0, submission_id=None, actor=JUDGE)
    assert saved.version == 1 and store_writes["submit_table_result"] == 1
    placing = results.scored_results(engine).set_index("seat")["placing"]
    assert (placing[1], placing[2]) == (2, 1)


def test_a_spectator_is_refused_before_any_rule(engine):
    table_id, rows, _ = _tied_table(engine)
    with pytest.raises(store.PermissionDenied):
        results.submit_result(engine, table_id, rows, expected_version=0, submission_id=None,
                              actor=Actor("Sam", Role.SPECTATOR))


# --- R16, R17: a finals draw is published only while it seats who plays ------------------------

@pytest.mark.slow
def test_R17_publishing_a_semifinal_that_no_longer_seats_who_plays_is_refused(engine,
                                                                              store_writes):
    _qualifier(engine, 8)
    semi = finals.draw_semifinal(engine, seed=4, actor=ORGANIZER)
    standings = results.standings_table(engine)
    store.mark_absent(engine, int(standings["player_id"].iloc[4]), actor=ORGANIZER)
    assert "no longer matches who plays" in finals.finals(engine).stale[Kind.SEMIFINAL]

    published = store_writes["publish_sitting"]  # the qualifier's
    with pytest.raises(store.InvalidState, match="no longer matches who plays"):
        draws.publish(engine, semi["sitting_id"], actor=ORGANIZER)
    assert store_writes["publish_sitting"] == published, "refused before it reaches the store"
    assert store.sitting(engine, semi["sitting_id"])["status"] == "drawn"

    again = finals.draw_semifinal(engine, seed=5, actor=ORGANIZER)
    assert finals.finals(engine).stale == {}
    assert draws.publish(engine, again["sitting_id"], actor=ORGANIZER)["status"] == \
        "published"


@pytest.mark.slow
def test_R16_publishing_a_final_that_no_longer_seats_the_final_table_is_refused(engine):
    _qualifier(engine, 6)  # no semifinal: the top 4 play the final
    final = finals.draw_final(engine, seed=4, actor=ORGANIZER)
    seated = finals.finals(engine).final_players
    store.mark_absent(engine, int(seated[0]), actor=ORGANIZER)
    with pytest.raises(store.InvalidState, match="draw the final again"):
        draws.publish(engine, final["sitting_id"], actor=ORGANIZER)
    assert store.sitting(engine, final["sitting_id"])["status"] == "drawn"


# --- R17: absences are fixed once a finals sitting is published ----------------------------------

@pytest.mark.slow
def test_R17_absences_are_refused_once_a_finals_sitting_is_published(engine, store_writes):
    _qualifier(engine, 8)
    first = int(results.standings_table(engine)["player_id"].iloc[0])
    assert finals.save_absences(engine, [first], actor=ORGANIZER) == [(first, False)]
    assert finals.save_absences(engine, [first], actor=ORGANIZER) == [], "nothing changed"
    semi = finals.draw_semifinal(engine, seed=4, actor=ORGANIZER)
    draws.publish(engine, semi["sitting_id"], actor=ORGANIZER)
    calls = store_writes["mark_absent"]
    with pytest.raises(store.InvalidState, match="fixed once a finals sitting is published"):
        finals.save_absences(engine, [], actor=ORGANIZER)
    assert store_writes["mark_absent"] == calls
    assert store.absences(engine)["player_id"].tolist() == [first]


# --- R4: colours differ ignoring case -----------------------------------------------------------

@pytest.mark.parametrize("colours, message", [
    (["red", "green", "RED", "yellow"], "Colours must all differ: colour 1 and colour 3 are both "
                                        "“RED”; choose 4 different colours. Nothing was saved."),
    (["red", "green", " Blue ", "blue"], "Colours must all differ: colour 3 and colour 4 are "
                                         "both “blue”"),
    (["red", "green", "  ", "yellow"], "Colours must all be filled in. Nothing was saved."),
])
def test_R4_colours_equal_ignoring_case_are_refused(engine, store_writes, colours, message):
    with pytest.raises(TournamentError) as refused:
        admin.save_settings(engine, {"tournament_name": "Changed", "colours": colours},
                            actor=ORGANIZER)
    assert message in str(refused.value)
    assert "set_settings" not in store_writes, "refused before it reaches the store"
    assert store.settings(engine) == store.DEFAULT_SETTINGS


def test_settings_save_only_what_changed(engine, store_writes):
    current = store.settings(engine)
    assert admin.save_settings(engine, dict(current), actor=ORGANIZER) == {}
    assert "set_settings" not in store_writes
    changed = admin.save_settings(engine, {**current, "colours": ["red", "green", "blue",
                                                                  "purple"]}, actor=ORGANIZER)
    assert changed == {"colours": ["red", "green", "blue", "purple"]}
    assert store.settings(engine)["colours"][3] == "purple"


# --- R16: the finals from one snapshot; the contested seat ---------------------------------------

@pytest.mark.slow
def test_the_finals_view_reads_each_frame_once(engine, monkeypatch):
    _qualifier(engine, 8)
    finals.draw_semifinal(engine, seed=4, actor=ORGANIZER)
    reads = {}
    for name in ("settings", "players", "absences", "sittings", "results", "seats", "tables"):
        real = getattr(store, name)
        monkeypatch.setattr(store, name, lambda *a, _real=real, _name=name, **k: (
            reads.__setitem__(_name, reads.get(_name, 0) + 1), _real(*a, **k))[1])
    view = finals.finals(engine)
    assert view.semifinal["status"] == "drawn" and not view.stale
    assert max(reads.values()) == 1, reads
    order = list(reads)
    assert order.index("sittings") < order.index("results"), "a complete sitting's results"


@pytest.mark.slow
def test_R16_R17_the_winner_contests_the_wildcard_in_the_final_not_the_last_direct_seat(engine):
    """10 players: the best is absent and a wildcard from below the cut takes the first final
    seat with the lowest best score of the final. The semifinal winner (21 points) beats that
    score, not the fourth finalist's (25): the notes name the wildcard."""
    _qualifier(engine, 10)
    standings = results.standings_table(engine)
    finals.save_absences(engine, [int(standings["player_id"].iloc[0])], actor=ORGANIZER)
    semi = finals.draw_semifinal(engine, seed=4, actor=ORGANIZER)
    draws.publish(engine, semi["sitting_id"], actor=ORGANIZER)
    _enter(engine, semi["sitting_id"], [12, 11, 5, 3])

    view = finals.finals(engine)
    names = dict(zip(standings["player_id"], standings["name"]))
    best = dict(zip(standings["player_id"], standings["best_score"]))
    direct = finals.stage_players(view, Stage.FINAL)
    wildcard = direct[0]
    assert wildcard in view.wildcards and best[wildcard] < best[direct[-1]]
    assert view.contested == wildcard == rules.weakest_finalist(view.standings, view.entrants)
    winner = int(view.semifinal_results.loc[view.semifinal_results["placing"] == 1,
                                            "player_id"].iloc[0])
    assert wildcard not in view.final_players and winner in view.final_players
    assert finals_view.advance_notes(view) == [
        f"{names[winner]} won the semifinal with 21 points, more than {names[wildcard]}'s best "
        f"qualifier score of {best[wildcard]}: {names[winner]} takes {names[wildcard]}'s final "
        f"seat."]
    assert "weakest finalist seated in the final" in finals_view.format_lines(view.format)[1]


def test_the_reads_of_one_action_see_one_snapshot(engine, monkeypatch):
    """A write that lands between two reads of one action is seen by neither: every read of
    `with Snapshot(...)` runs in one read transaction."""
    from stsa.services.snapshot import Snapshot

    _players(engine, 4)
    real = store.typed_settings  # the snapshot's first read

    def settings_then_a_write(source):
        read = real(source)
        store.add_player(engine, "Late Arrival", actor=ORGANIZER)  # another connection commits
        return read

    monkeypatch.setattr(store, "typed_settings", settings_then_a_write)
    with Snapshot(engine) as snap:
        snap.settings  # noqa: B018
        assert "Late Arrival" not in snap.players["name"].tolist()
    assert "Late Arrival" in store.players(engine)["name"].tolist()


# --- the earlier seats a draw is checked against (R3, R6) ---------------------------------------

def _seat_by_seat_history(engine, before=None):
    """The earlier seats as the seats and tables read them, one published sitting at a time."""
    done = store.sittings(engine, actor=ORGANIZER)
    done = done.loc[(done["kind"] == Kind.QUALIFIER) & done["status"].isin(PLAYED)]
    if before is not None:
        done = done.loc[done["sitting_id"] < before]
    parts = [store.seats(engine, int(s), actor=ORGANIZER).merge(
        store.tables(engine, int(s), actor=ORGANIZER)[["table_id", "setup_id"]], on="table_id")
        for s in done["sitting_id"]]
    rows = pd.concat(parts, ignore_index=True)[["sitting_id", "table_no", "seat", "player_id",
                                                "setup_id"]]
    return rows.sort_values(["sitting_id", "table_no", "seat"]).reset_index(drop=True)


def test_R3_R6_history_of_complete_and_open_sittings_is_every_earlier_seat(demo_copy):
    """Complete sittings' seats come from their results, a sitting still being played seat by
    seat: the same seats and setups either way."""
    engine = demo_copy(3)
    players = store.players(engine)["player_id"].tolist()
    open_ = draws.draw_qualifier(engine, players, seed=9, actor=ORGANIZER)
    draws.publish(engine, open_["sitting_id"], actor=ORGANIZER)  # published, no result yet
    draft = draws.draw_qualifier(engine, players, seed=10, confirm=True,
                                    actor=ORGANIZER)
    with Snapshot(engine) as snap:
        found = draws.history(snap)
        before = draws.history(snap, before=int(open_["sitting_id"]))
    expected = _seat_by_seat_history(engine)
    assert len(found) == 4 * 24 and found["sitting_id"].nunique() == 4
    pd.testing.assert_frame_equal(found.astype(expected.dtypes.to_dict()), expected)
    assert set(before["sitting_id"]) == set(expected["sitting_id"]) - {open_["sitting_id"]}
    assert int(draft["sitting_id"]) not in set(found["sitting_id"])


@pytest.mark.slow
def test_a_shared_snapshot_reads_each_frame_once_for_every_view(demo_copy, monkeypatch):
    """The pages keep a spectator's and the system's snapshot per data version: the results
    are the same in both views and read once."""
    engine = demo_copy(3)
    reads = []
    real = store.results
    monkeypatch.setattr(store, "results", lambda *a, **k: reads.append(1) or real(*a, **k))
    public = Snapshot(engine, actor=None)
    system = Snapshot(engine, like=public)
    scored = results.scored(public, None)
    view = finals.view_of(system)
    assert len(reads) == 1
    assert len(scored) == 3 * 24 and len(view.standings) == 24
    assert home.status_of(public)["players"] == home.status_of(system)["players"] == 24
    overview = sittings.overview_of(public, int(scored["sitting_id"].iloc[0]))
    assert overview["setup"].notna().all() and overview["reported"].all()


# --- where each player stands in the finals, stage by stage (R16–R18) --------------------------

def _status(engine) -> dict:
    """{player_id: (status, wildcard, final_rank or None, note)} in the order given."""
    frame = finals.finals_status(finals.finals(engine))
    return {p: (s, bool(w), None if pd.isna(r) else int(r), n) for p, s, w, r, n in
            frame[["player_id", "status", "wildcard", "final_rank", "note"]].itertuples(
                index=False)}


@pytest.mark.slow
def test_R16_n_counts_every_player_seated_at_a_published_qualifier(engine):
    """13 players seated, one table of four reported: N is 13, not 4. Players with no result
    yet are listed last with no score and no place at the cut; the four with a result take
    the places the cut gives their rank now."""
    ids = _players(engine, 13)
    sitting = draws.draw_qualifier(engine, ids, seed=3, actor=ORGANIZER)
    assert finals.finals(engine).format is None  # a draft seats no one yet (R20)
    draws.publish(engine, sitting["sitting_id"], actor=ORGANIZER)
    before = finals.finals(engine)
    assert before.format.n_players == 13 and before.format.semifinal == 4
    assert set(_status(engine).values()) == {("", False, None, "")}

    table = store.tables(engine, sitting["sitting_id"], actor=ORGANIZER).iloc[0]
    seats = store.seats(engine, sitting["sitting_id"], actor=ORGANIZER)
    at = seats.loc[seats["table_id"] == table["table_id"], "player_id"].tolist()
    rows = pd.DataFrame({"player_id": at, "leader": table["available_leaders"][:len(at)],
                         "vp": [10, 8, 6, 4][:len(at)], "spice": 0, "solari": 0, "troops": 0,
                         "water": 0})
    store.submit_table_result(engine, int(table["table_id"]), rows, expected_version=0,
                              submission_id=None, actor=JUDGE)
    standings = results.standings_table(engine)
    assert len(standings) == 13 and standings["player_id"].head(len(at)).tolist() == at
    waiting = standings.iloc[len(at):]
    assert waiting["best_score"].isna().all() and (waiting["zone"] == "").all()
    assert (waiting["rank"] == len(at) + 1).all() and not standings["tie_at_cut"].any()
    status = _status(engine)
    assert [status[p][0] for p in at] == ["final"] * len(at)
    assert {status[p][0] for p in waiting["player_id"]} == {""}


@pytest.mark.slow
def test_finals_status_through_the_finals_with_a_wildcard_seated(engine):
    """10 players: the best is absent, a wildcard takes the first final seat; the semifinal
    winner takes the wildcard's seat; once the final is in, the champion and podium lead."""
    _qualifier(engine, 10)
    standings = results.standings_table(engine)
    order = standings["player_id"].tolist()
    status = _status(engine)
    assert [status[p][0] for p in order] == ["final"] * 4 + ["semifinal"] * 4 + ["out"] * 2

    finals.save_absences(engine, [order[0]], actor=ORGANIZER)
    view = finals.finals(engine)
    (wildcard,) = view.wildcards
    status = _status(engine)
    assert status[order[0]] == ("absent", False, None, "")
    assert status[wildcard] == ("final", True, None, "")

    semi = finals.draw_semifinal(engine, seed=4, actor=ORGANIZER)
    draws.publish(engine, semi["sitting_id"], actor=ORGANIZER)
    status = _status(engine)
    semifinalists = finals.stage_players(finals.finals(engine), Stage.SEMIFINAL)
    assert {status[p][0] for p in semifinalists} == {"semifinal"}

    _enter(engine, semi["sitting_id"], [12, 11, 5, 3])
    view = finals.finals(engine)
    winner = int(view.semifinal_results.loc[view.semifinal_results["placing"] == 1,
                                            "player_id"].iloc[0])
    names = dict(zip(standings["player_id"], standings["name"]))
    status = _status(engine)
    assert status[wildcard] == ("lost_seat", True, None,
                                f"Lost the final seat to {names[winner]}")
    assert status[winner] == ("final", False, None,
                              f"Won the semifinal: took {names[wildcard]}'s seat")
    assert {status[p][0] for p in semifinalists if p != winner} == {"semifinal"}

    final = finals.draw_final(engine, seed=5, actor=ORGANIZER)
    draws.publish(engine, final["sitting_id"], actor=ORGANIZER)
    _enter(engine, final["sitting_id"], [12, 11, 5, 3])
    frame = finals.finals_status(finals.finals(engine))
    assert frame["status"].head(4).tolist() == ["champion", "runner_up", "third", "finalist"]
    assert frame["final_rank"].head(4).tolist() == [1, 2, 3, 4]
    assert set(frame["player_id"].head(4)) == set(finals.finals(engine).final_players)
    ranked = dict(zip(frame["player_id"], frame["status"]))
    assert ranked[wildcard] == "lost_seat" and ranked[order[0]] == "absent"
    assert frame.set_index("player_id").at[wildcard, "wildcard"]


# --- every result, kept across data versions (the pages' shared reads) ---------------------------

@pytest.fixture
def sitting_reads(monkeypatch):
    """The sittings `store.results` was asked for, one entry per read (None: every result)."""
    asked, real = [], store.results

    def spy(engine, kind=Kind.QUALIFIER, *, sitting_id=None):
        asked.append(sitting_id)
        return real(engine, kind, sitting_id=sitting_id)
    monkeypatch.setattr(store, "results", spy)
    return asked


def _correct(engine, game_id, vps):
    """A judge's correction of one table: new VPs by seat."""
    stored = store.table_result(engine, game_id)
    rows = stored.rows[["player_id", "leader", "vp", "spice", "solari", "troops", "water"]]
    store.submit_table_result(engine, game_id, rows.assign(vp=vps[:len(rows)]),
                              expected_version=stored.version, submission_id=None,
                              actor=JUDGE)


def test_kept_results_reread_only_the_sittings_saved_in(demo_copy, sitting_reads):
    engine = demo_copy(3)
    log = shared.ResultsLog()
    first = log.read(engine)
    assert sitting_reads == [None]
    assert log.read(engine) is first and sitting_reads == [None]  # nothing logged since
    games = first.groupby("sitting_id")["game_id"].first()
    _correct(engine, int(games.iloc[1]), [40, 30, 20, 10])
    _correct(engine, int(games.iloc[1]) + 1, [41, 31, 21, 11])
    after = log.read(engine)
    assert sitting_reads[1:] == [int(games.index[1])]
    pd.testing.assert_frame_equal(after, store.results(engine, None))
    assert 41 in after["vp"].tolist() and 40 in after["vp"].tolist()


def test_a_tables_first_result_rereads_its_sitting(demo_copy, sitting_reads):
    engine = demo_copy(3)
    log = shared.ResultsLog()
    log.read(engine)
    players = store.players(engine)["player_id"].tolist()
    drawn = draws.draw_qualifier(engine, players, seed=5, actor=ORGANIZER)
    draws.publish(engine, drawn["sitting_id"], actor=ORGANIZER)
    log.read(engine)  # a draw and a publish: every result read again
    assert sitting_reads == [None, None]
    table = store.tables(engine, drawn["sitting_id"], actor=ORGANIZER).iloc[0]
    seated = store.seats(engine, table_id=int(table["table_id"]), actor=ORGANIZER)
    store.submit_table_result(  # one table of the new sitting (the last would complete it)
        engine, int(table["table_id"]),
        pd.DataFrame({"player_id": seated["player_id"].to_numpy(),
                      "leader": table["available_leaders"][:len(seated)], "vp": [9, 7, 5, 3],
                      "spice": 0, "solari": 0, "troops": 0, "water": 0}),
        expected_version=0, submission_id=None, actor=JUDGE)
    after = log.read(engine)
    assert sitting_reads[2:] == [int(drawn["sitting_id"])]
    pd.testing.assert_frame_equal(after, store.results(engine, None))
    assert len(after) == 3 * 24 + 4


@pytest.mark.parametrize("change", ["player", "settings", "restore"])
def test_anything_but_result_saves_reads_every_result_again(demo_copy, tmp_path, sitting_reads,
                                                            change):
    engine = demo_copy(3)
    backup = store.backup(engine, tmp_path / "kept")
    log = shared.ResultsLog()
    first = log.read(engine)
    game = int(first["game_id"].iloc[0])
    _correct(engine, game, [40, 30, 20, 10])
    if change == "player":
        store.edit_player(engine, int(first["player_id"].iloc[0]), name="Renamed", actor=ORGANIZER)
    elif change == "settings":
        _correct(engine, game, [44, 33, 22, 11])
        store.set_settings(engine, {"tournament_name": "Elsewhere"}, actor=ORGANIZER)
    else:
        store.restore(engine, backup, actor=ORGANIZER)
    after = log.read(engine)
    assert sitting_reads == [None, None]
    pd.testing.assert_frame_equal(after, store.results(engine, None))
