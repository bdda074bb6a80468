"""R27: the installation's seasons and the player directory's storage: every write checked,
refused with a message a person can act on, one transaction, logged in the installation's
log (`Action.SEASON_SET`, `DIRECTORY_LINK`, `DIRECTORY_MERGE`, `DIRECTORY_SPLIT`)."""

from __future__ import annotations

import pandas as pd
import pytest

from stsa import store
from stsa.domain import Action
from stsa.store import schema
from tests.support.store_helpers import JUDGE, ORGANIZER


@pytest.fixture
def installation(tmp_path):
    """An installation with the own tournament (id 1) and one more (id 2)."""
    url = f"sqlite:///{tmp_path / 'stsa.db'}"
    inst = store.connect(url, backup_dir=tmp_path / "backups")
    store.set_settings(inst, {"auto_backup": False}, actor=ORGANIZER)
    made = store.create_tournament(inst, "LinCon 2026", actor=ORGANIZER)
    assert made.tournament_id == 2
    other = store.connect(url, tournament=made.key, backup_dir=tmp_path / "backups")
    yield inst, other
    other.dispose()
    inst.dispose()


def logged(engine, action):
    return store.events(engine, actor=ORGANIZER, action=action)


# -- seasons -----------------------------------------------------------------------------------
def test_a_season_is_created_listed_and_logged(installation):
    inst, _ = installation
    first = store.create_season(inst, "  Season   2026 ", actor=ORGANIZER)
    second = store.create_season(inst, "Season 2027", points={1: 25, 2: 18, 3: 15},
                                 actor=ORGANIZER)
    table = store.seasons(inst)
    assert table.columns.tolist() == ["season_id", "name", "points"]
    assert table["season_id"].tolist() == [first, second]
    assert table["name"].tolist() == ["Season 2026", "Season 2027"]
    assert table["points"].tolist() == [None, {1: 25, 2: 18, 3: 15}]
    events = logged(inst, Action.SEASON_SET)
    assert events["subject"].tolist() == [f"season {first}", f"season {second}"]
    assert events["after"].iloc[1] == {"name": "Season 2027",
                                       "points": {"1": 25, "2": 18, "3": 15}}


def test_any_tournaments_engine_reaches_the_installations_seasons(installation):
    inst, other = installation
    made = store.create_season(other, "Nordic cup", actor=ORGANIZER)
    assert store.seasons(inst)["season_id"].tolist() == [made]
    assert store.season(other, made)["name"] == "Nordic cup"
    assert logged(inst, Action.SEASON_SET)["subject"].tolist() == [f"season {made}"]
    assert logged(other, Action.SEASON_SET).empty  # the tournament's own log is not the place


@pytest.mark.parametrize(("name", "message"), [
    ("", "A season needs a name."),
    ("   ", "A season needs a name."),
    (None, "A season needs a name."),
    ("x" * 201, "A season's name has at most 200 characters (this one has 201)."),
])
def test_a_season_name_must_be_given_and_short(installation, name, message):
    inst, _ = installation
    with pytest.raises(store.TournamentError) as caught:
        store.create_season(inst, name, actor=ORGANIZER)
    assert str(caught.value) == message
    assert store.seasons(inst).empty and logged(inst, Action.SEASON_SET).empty


def test_a_season_name_is_unique_case_aside(installation):
    inst, _ = installation
    store.create_season(inst, "Season 2026", actor=ORGANIZER)
    with pytest.raises(store.DuplicateName, match="There is a season named “Season 2026” "
                                                  "already: choose another name."):
        store.create_season(inst, "season  2026", actor=ORGANIZER)
    assert len(store.seasons(inst)) == 1


def test_two_hundred_characters_are_enough(installation):
    inst, _ = installation
    made = store.create_season(inst, "x" * 200, actor=ORGANIZER)
    assert store.season(inst, made)["name"] == "x" * 200


def test_only_the_organizer_creates_or_changes_seasons(installation):
    inst, _ = installation
    with pytest.raises(store.PermissionDenied):
        store.create_season(inst, "Season", actor=JUDGE)
    made = store.create_season(inst, "Season", actor=ORGANIZER)
    with pytest.raises(store.PermissionDenied):
        store.set_season_points(inst, made, {1: 3}, actor=JUDGE)
    with pytest.raises(store.PermissionDenied):
        store.rename_season(inst, made, "Other", actor=JUDGE)
    assert store.season(inst, made) == {"season_id": made, "name": "Season", "points": None}


def test_points_are_set_changed_and_cleared(installation):
    inst, _ = installation
    made = store.create_season(inst, "Season", actor=ORGANIZER)
    assert store.set_season_points(inst, made, {"2": 6, 1: 10.0, 3: 0}, actor=ORGANIZER)
    assert store.season(inst, made)["points"] == {1: 10, 2: 6, 3: 0}
    assert not store.set_season_points(inst, made, {1: 10, 2: 6, 3: 0}, actor=ORGANIZER)
    assert store.set_season_points(inst, made, None, actor=ORGANIZER)
    assert store.season(inst, made)["points"] is None
    events = logged(inst, Action.SEASON_SET)
    assert len(events) == 3  # created, points set, points cleared; the no-change not logged
    assert events["before"].iloc[1] == {"points": None}
    assert events["after"].iloc[1] == {"points": {"1": 10, "2": 6, "3": 0}}
    assert events["after"].iloc[2] == {"points": None}


@pytest.mark.parametrize(("points", "message"), [
    ({}, "A points table needs the points of final rank 1 at least; for the format's own "
         "standing choose no table."),
    ([25, 18], "A points table gives the points of each final rank ({1: 25, 2: 18, …})."),
    ({0: 5}, "A final rank in a points table is a whole number from 1 ('0' is not)."),
    ({1.5: 5}, "A final rank in a points table is a whole number from 1 ('1.5' is not)."),
    ({"first": 5}, "A final rank in a points table is a whole number from 1 ('first' is not)."),
    ({1: -1}, "Final rank 1: points are a whole number, 0 or more ('-1' is not)."),
    ({1: 2.5}, "Final rank 1: points are a whole number, 0 or more ('2.5' is not)."),
    ({1: True}, "Final rank 1: points are a whole number, 0 or more ('True' is not)."),
    ({1: 10, "1": 8}, "Final rank 1 is given twice in the points table."),
    ({1: 10, 3: 4, 5: 1}, "The points table skips final rank 2, 4: give ranks 1 to 5, each "
                          "once."),
])
def test_a_points_table_is_checked(installation, points, message):
    inst, _ = installation
    made = store.create_season(inst, "Season", actor=ORGANIZER)
    with pytest.raises(store.TournamentError) as caught:
        store.set_season_points(inst, made, points, actor=ORGANIZER)
    assert str(caught.value) == message
    with pytest.raises(store.TournamentError):
        store.create_season(inst, "Another", points=points, actor=ORGANIZER)
    assert store.seasons(inst)["name"].tolist() == ["Season"]
    assert len(logged(inst, Action.SEASON_SET)) == 1


def test_a_season_is_renamed(installation):
    inst, _ = installation
    made = store.create_season(inst, "Season", actor=ORGANIZER)
    taken = store.create_season(inst, "Taken", actor=ORGANIZER)
    assert store.rename_season(inst, made, " Spring  season ", actor=ORGANIZER)
    assert not store.rename_season(inst, made, "Spring season", actor=ORGANIZER)
    assert store.rename_season(inst, made, "SPRING season", actor=ORGANIZER)  # its own name
    with pytest.raises(store.DuplicateName, match="“Taken”"):
        store.rename_season(inst, made, "taken", actor=ORGANIZER)
    with pytest.raises(store.TournamentError, match="needs a name"):
        store.rename_season(inst, made, "", actor=ORGANIZER)
    assert store.season(inst, made)["name"] == "SPRING season"
    assert store.season(inst, taken)["name"] == "Taken"
    last = logged(inst, Action.SEASON_SET).iloc[-1]
    assert (last["before"], last["after"]) == ({"name": "Spring season"},
                                               {"name": "SPRING season"})


def test_an_unknown_season_is_not_found(installation):
    inst, _ = installation
    with pytest.raises(store.NotFound, match="There is no season with id 9."):
        store.set_season_points(inst, 9, {1: 1}, actor=ORGANIZER)
    with pytest.raises(store.NotFound, match="There is no season with id 9."):
        store.rename_season(inst, 9, "Name", actor=ORGANIZER)
    with pytest.raises(store.NotFound, match="There is no season with id 9."):
        store.season(inst, 9)


def test_a_season_can_be_created_while_the_own_tournament_is_archived(installation):
    inst, _ = installation
    store.archive_tournament(inst, actor=ORGANIZER)
    made = store.create_season(inst, "Season", actor=ORGANIZER)
    store.set_season(inst, 2, made, actor=ORGANIZER)
    assert store.tournaments(inst).set_index("tournament_id").at[2, "season_id"] == made


# -- the directory -----------------------------------------------------------------------------
def test_players_are_linked_to_given_and_new_people(installation):
    inst, other = installation
    added = store.link_players(inst, [
        {"tournament_id": 1, "player_id": 1, "person_id": 1},
        {"tournament_id": 2, "player_id": 7, "person_id": 1},
        {"tournament_id": 1, "player_id": 2, "person_id": None},
        {"tournament_id": 2, "player_id": 8},
    ], actor=ORGANIZER)
    assert added.to_dict("list") == {"person_id": [1, 1, 2, 3], "tournament_id": [1, 2, 1, 2],
                                     "player_id": [1, 7, 2, 8]}
    table = store.directory(other)
    assert table.columns.tolist() == ["person_id", "tournament_id", "player_id"]
    assert table.values.tolist() == [[1, 1, 1], [1, 2, 7], [2, 1, 2], [3, 2, 8]]
    event = logged(inst, Action.DIRECTORY_LINK).iloc[-1]
    assert event["subject"] == "directory"
    assert event["after"]["links"] == [[1, 1, 1], [1, 2, 7], [2, 1, 2], [3, 2, 8]]
    # New people are numbered above every person id, taken or given.
    more = store.link_players(inst, [{"tournament_id": 1, "player_id": 3, "person_id": 10},
                                     {"tournament_id": 2, "player_id": 9}], actor=ORGANIZER)
    assert more["person_id"].tolist() == [10, 11]


def test_linking_refuses_what_the_directory_cannot_hold(installation):
    inst, _ = installation
    store.link_players(inst, [{"tournament_id": 1, "player_id": 1, "person_id": 1}],
                       actor=ORGANIZER)
    cases = [
        ([{"tournament_id": 1, "player_id": 1, "person_id": 2}],
         "Player 1 of tournament 1 is already in the player directory. Nothing was linked."),
        ([{"tournament_id": 2, "player_id": 4}, {"tournament_id": 2, "player_id": 4}],
         "Player 4 of tournament 2 is listed twice. Nothing was linked."),
        ([{"tournament_id": 1, "player_id": 2, "person_id": 1}],
         "Person 1 would have two players in tournament 1: a person plays a tournament once. "
         "Nothing was linked."),
        ([{"tournament_id": 3, "player_id": 2}], "There is no tournament 3 on the list."),
        ([{"tournament_id": 2, "player_id": 0}],
         "Row 1 of the players to link: tournament, player and person are whole numbers "
         "from 1."),
        ([{"tournament_id": 2}], "The players to link lack player_id."),
    ]
    for rows, message in cases:
        with pytest.raises(store.TournamentError) as caught:
            store.link_players(inst, rows, actor=ORGANIZER)
        assert str(caught.value) == message
    assert store.directory(inst).values.tolist() == [[1, 1, 1]]
    assert len(logged(inst, Action.DIRECTORY_LINK)) == 1
    with pytest.raises(store.PermissionDenied):
        store.link_players(inst, [{"tournament_id": 2, "player_id": 3}], actor=JUDGE)


def test_linking_nothing_writes_and_logs_nothing(installation):
    inst, _ = installation
    assert store.link_players(inst, [], actor=ORGANIZER).empty
    assert logged(inst, Action.DIRECTORY_LINK).empty


def test_people_are_merged_in_one_logged_change(installation):
    inst, _ = installation
    store.link_players(inst, [{"tournament_id": 1, "player_id": 1, "person_id": 1},
                              {"tournament_id": 2, "player_id": 5, "person_id": 2}],
                       actor=ORGANIZER)
    assert store.merge_people(inst, 1, 2, actor=ORGANIZER) == 1
    assert store.directory(inst).values.tolist() == [[1, 1, 1], [1, 2, 5]]
    event = logged(inst, Action.DIRECTORY_MERGE).iloc[-1]
    assert event["subject"] == "person 1"
    assert (event["before"], event["after"]) == ({"person_id": 2, "players": [[2, 5]]},
                                                 {"person_id": 1})


@pytest.mark.slow
def test_a_merge_is_refused_with_the_reason(installation):
    inst, _ = installation
    store.link_players(inst, [{"tournament_id": 1, "player_id": 1, "person_id": 1},
                              {"tournament_id": 1, "player_id": 2, "person_id": 2}],
                       actor=ORGANIZER)
    with pytest.raises(store.TournamentError, match="cannot be merged: player 1 and player 2 "
                                                    "both played in tournament 1"):
        store.merge_people(inst, 1, 2, actor=ORGANIZER)
    nicknames = pd.DataFrame({"tournament_id": [1, 1], "player_id": [1, 2],
                              "nickname": ["Paul", "Alia"]})
    with pytest.raises(store.TournamentError, match="cannot be merged: Paul and Alia both"):
        store.merge_people(inst, 1, 2, actor=ORGANIZER, nicknames=nicknames)
    with pytest.raises(store.TournamentError, match="Person 1 cannot be merged with itself."):
        store.merge_people(inst, 1, 1, actor=ORGANIZER)
    with pytest.raises(store.TournamentError, match="There is no person 9 in the player "
                                                    "directory."):
        store.merge_people(inst, 1, 9, actor=ORGANIZER)
    with pytest.raises(store.PermissionDenied):
        store.merge_people(inst, 1, 2, actor=JUDGE)
    assert store.directory(inst)["person_id"].tolist() == [1, 2]
    assert logged(inst, Action.DIRECTORY_MERGE).empty


def test_a_player_is_split_into_a_person_of_their_own(installation):
    inst, _ = installation
    store.link_players(inst, [{"tournament_id": 1, "player_id": 1, "person_id": 4},
                              {"tournament_id": 2, "player_id": 5, "person_id": 4},
                              {"tournament_id": 2, "player_id": 6, "person_id": 7}],
                       actor=ORGANIZER)
    assert store.split_player(inst, 2, 5, actor=ORGANIZER) == 8
    assert store.directory(inst).values.tolist() == [[4, 1, 1], [7, 2, 6], [8, 2, 5]]
    event = logged(inst, Action.DIRECTORY_SPLIT).iloc[-1]
    assert event["subject"] == "tournament 2 player 5"
    assert (event["before"], event["after"]) == ({"person_id": 4}, {"person_id": 8})
    # Alone already: nothing changes, nothing is logged.
    assert store.split_player(inst, 2, 5, actor=ORGANIZER) == 8
    assert len(logged(inst, Action.DIRECTORY_SPLIT)) == 1
    with pytest.raises(store.TournamentError, match="Player 3 of tournament 2 is not in the "
                                                    "player directory."):
        store.split_player(inst, 2, 3, actor=ORGANIZER)
    with pytest.raises(store.PermissionDenied):
        store.split_player(inst, 1, 1, actor=JUDGE)


def test_the_directory_lives_in_the_installations_database(installation):
    inst, other = installation
    store.link_players(other, [{"tournament_id": 2, "player_id": 1}], actor=ORGANIZER)
    with inst.connect() as conn:
        assert conn.execute(schema.directory.select()).all() == [(2, 1, 1)]
    with other.connect() as conn:
        assert conn.execute(schema.directory.select()).all() == []
