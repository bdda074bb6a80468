"""Check-in for a sitting (R2, R22): a pasted list by name or nickname, all or nothing; exactly
a list checked in; the ready-made lists (the last qualifier's players, who has not played);
the hint that the check-ins are the last sitting's."""

from __future__ import annotations

import pandas as pd
import pytest

from stsa import store
from stsa.domain import TournamentError
from stsa.services import draws
from stsa.services import roster as service
from stsa.services.snapshot import Snapshot
from tests.support.store_helpers import ORGANIZER

NAMES = ["Anna Berg", "Bertil Ek", "Cecilia Holm", "David Lind", "Eva Nord", "Filip Ros",
         "Greta Sand", "Hugo Tall", "Ida Ulf", "Jon Vik"]


@pytest.fixture
def roster(sqlite_engine):
    """Ten players, each with a nickname unlike their name (as the filmed events have)."""
    store.import_players(sqlite_engine, pd.DataFrame({
        "name": NAMES, "nickname": [f"{n.split()[0][:3]}Fan" for n in NAMES]}),
        actor=ORGANIZER)
    return sqlite_engine


def players(engine) -> pd.DataFrame:
    return store.players(engine, actor=ORGANIZER)


def ids_of(engine, names) -> list[int]:
    frame = players(engine).set_index("name")
    return [int(frame.at[n, "player_id"]) for n in names]


def checked_in(engine) -> list[str]:
    frame = players(engine)
    return sorted(frame.loc[frame["checked_in"], "name"])


def test_a_pasted_list_finds_players_by_name_or_nickname_in_any_case(roster):
    text = "anna berg\n\n  BerFan \nCecilia   Holm\tcecilia@example.org\nDavid Lind, Uppsala\n"
    assert service.names_in_list(players(roster), text) == ids_of(
        roster, ["Anna Berg", "Bertil Ek", "Cecilia Holm", "David Lind"])


def test_a_name_twice_is_one_player(roster):
    assert service.names_in_list(players(roster), "Anna Berg\nAnnFan\nanna berg") == ids_of(
        roster, ["Anna Berg"])


def test_unknown_lines_are_named_with_a_hint_and_nothing_is_checked_in(roster):
    text = "Anna Berg\nBertl Ek\nNobody Here"
    with pytest.raises(TournamentError) as refused:
        service.check_in_list(roster, players(roster), text, only=True, actor=ORGANIZER)
    message = str(refused.value)
    assert message.startswith("Nobody was checked in.")
    assert 'line 2, "Bertl Ek": no player has that name or nickname (did you mean "Bertil Ek"?)' \
        in message
    assert 'line 3, "Nobody Here": no player has that name or nickname' in message
    assert "did you mean" not in message.split("line 3")[1]
    assert checked_in(roster) == []


def test_a_nickname_that_is_another_players_name_is_refused(roster):
    store.add_player(roster, "Eva Nord Jr", nickname="Anna Berg", actor=ORGANIZER)
    with pytest.raises(TournamentError, match='line 1, "Anna Berg": two players go by that '
                                              'name'):
        service.names_in_list(players(roster), "Anna Berg")


def test_a_withdrawn_player_on_the_list_is_refused(roster):
    store.withdraw_player(roster, ids_of(roster, ["Eva Nord"])[0], actor=ORGANIZER)
    with pytest.raises(TournamentError, match='line 2, "EvaFan": Eva Nord is withdrawn'):
        service.names_in_list(players(roster), "Anna Berg\nEvaFan")


def test_an_empty_list_is_refused(roster):
    with pytest.raises(TournamentError, match="Paste at least one name"):
        service.names_in_list(players(roster), " \n\n")


def test_many_problems_are_counted_after_the_first_ones(roster):
    text = "\n".join(f"Stranger {i}" for i in range(12))
    with pytest.raises(TournamentError, match=r"line 8, .*; and 4 more lines\.$"):
        service.names_in_list(players(roster), text)


def test_only_this_list_checks_everyone_else_out(roster):
    store.check_in(roster, ids_of(roster, ["Ida Ulf", "Jon Vik", "Anna Berg"]), actor=ORGANIZER)
    assert service.check_in_list(roster, players(roster), "AnnFan\nBertil Ek\nCecilia Holm",
                                 only=True, actor=ORGANIZER) == (2, 2, 1)
    assert checked_in(roster) == ["Anna Berg", "Bertil Ek", "Cecilia Holm"]
    logged = store.events(roster, action="players.check_out", actor=ORGANIZER)
    assert sorted(logged.iloc[-1]["after"]["player_ids"]) == ids_of(roster, ["Ida Ulf", "Jon Vik"])


def test_adding_a_list_keeps_who_is_checked_in(roster):
    store.check_in(roster, ids_of(roster, ["Jon Vik"]), actor=ORGANIZER)
    assert service.check_in_list(roster, players(roster), "Anna Berg", only=False,
                                 actor=ORGANIZER) == (1, 0, 0)
    assert checked_in(roster) == ["Anna Berg", "Jon Vik"]


def test_set_check_ins_refused_whole_for_a_withdrawn_player(roster):
    keep = ids_of(roster, ["Jon Vik"])
    store.check_in(roster, keep, actor=ORGANIZER)
    gone = ids_of(roster, ["Eva Nord"])[0]
    store.withdraw_player(roster, gone, actor=ORGANIZER)
    with pytest.raises(store.InvalidState, match="Withdrawn players cannot be checked in"):
        store.set_check_ins(roster, [gone, *ids_of(roster, ["Anna Berg"])], actor=ORGANIZER)
    assert checked_in(roster) == ["Jon Vik"]  # nobody checked out by the refused list


def played_one_sitting(engine, names) -> dict:
    """Qualifier 1 drawn for `names` (checked in for it) and published."""
    service.check_in_list(engine, players(engine), "\n".join(names), only=True,
                          actor=ORGANIZER)
    sitting = draws.draw_qualifier(engine, ids_of(engine, names), seed=5, actor=ORGANIZER)
    store.publish_sitting(engine, sitting["sitting_id"], actor=ORGANIZER)
    return sitting


def test_ready_lists_before_and_after_a_qualifier(roster):
    first = service.ready_lists(players(roster), store.sittings(roster, actor=ORGANIZER),
                                draws.history(Snapshot(roster)))
    assert first == []
    played_one_sitting(roster, NAMES[:7])
    store.withdraw_player(roster, ids_of(roster, ["Anna Berg"])[0], actor=ORGANIZER)
    lists = service.ready_lists(players(roster), store.sittings(roster, actor=ORGANIZER),
                                draws.history(Snapshot(roster)))
    assert [c.label for c in lists] == ["Same as Qualifier 1", "Everyone who has not played yet"]
    same, fresh = (sorted(c.player_ids) for c in lists)
    assert same == sorted(ids_of(roster, NAMES[1:7]))  # the withdrawn player is left off
    assert fresh == sorted(ids_of(roster, NAMES[7:]))


def test_check_ins_from_before_the_last_draw_are_pointed_out(roster):
    sittings = lambda: store.sittings(roster, actor=ORGANIZER)  # noqa: E731
    store.check_in(roster, ids_of(roster, NAMES[:7]), actor=ORGANIZER)
    assert service.stale_check_ins(players(roster), sittings()) is None  # nothing drawn yet
    sitting = draws.draw_qualifier(roster, ids_of(roster, NAMES[:7]), seed=5, actor=ORGANIZER)
    assert service.stale_check_ins(players(roster), sittings()) is None  # a draft is not played
    store.publish_sitting(roster, sitting["sitting_id"], actor=ORGANIZER)
    assert service.stale_check_ins(players(roster), sittings()) == (
        "All 7 players checked in were checked in before Qualifier 1 was drawn: they may be "
        "Qualifier 1's players. Check in this sitting's players, or keep them if they play "
        "again.")
    store.check_in(roster, ids_of(roster, NAMES[7:]), actor=ORGANIZER)
    assert service.stale_check_ins(players(roster), sittings()).startswith(
        "7 of the 10 players checked in were checked in before Qualifier 1 was drawn")
    # Issue 33: a list checked in now is this sitting's, those who play again included
    assert service.check_in_list(roster, players(roster), "\n".join(NAMES[3:]), only=True,
                                 actor=ORGANIZER) == (0, 3, 7)
    assert service.stale_check_ins(players(roster), sittings()) is None
    store.clear_check_ins(roster, actor=ORGANIZER)
    store.check_in(roster, ids_of(roster, NAMES[3:]), actor=ORGANIZER)
    assert service.stale_check_ins(players(roster), sittings()) is None


def test_a_list_checked_in_again_after_a_draw_is_this_sittings(roster):
    """Issue 33: players kept checked in since before Qualifier 1 was drawn and named again by
    a list (pasted, added, ready-made) are checked in for this sitting: the hint goes, the log
    says so, and the answer tells who was already checked in from who was checked in now."""
    sittings = lambda: store.sittings(roster, actor=ORGANIZER)  # noqa: E731
    played_one_sitting(roster, NAMES[:7])
    assert service.stale_check_ins(players(roster), sittings()).startswith("All 7")
    done = service.check_in_list(roster, players(roster), "Anna Berg\nJon Vik", only=False,
                                 actor=ORGANIZER)
    assert done == (1, 0, 1) and (done.checked_in, done.already) == (1, 1)
    assert service.stale_check_ins(players(roster), sittings()).startswith(
        "6 of the 8 players")  # Anna again and Jon new; the six others not named
    assert ids_of(roster, ["Anna Berg"])[0] in store.events(
        roster, action="players.check_in", actor=ORGANIZER).iloc[-1]["after"]["player_ids"]
    again = service.set_check_ins(roster, ids_of(roster, NAMES[:7]), actor=ORGANIZER)
    assert again == (0, 1, 7)
    assert service.stale_check_ins(players(roster), sittings()) is None
    assert service.check_in_list(roster, players(roster), "\n".join(NAMES[:7]), only=True,
                                 actor=ORGANIZER) == (0, 0, 7)  # the same list again
