"""Stream overlays in the store: made by the organizer only, the token kept as its hash, listed
per tournament, withdrawn (after which the token finds nothing), refused in words when what to
show is wrong, and logged in words without the token."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from stsa import store
from stsa.auth import Actor, Role
from stsa.domain import Action, TournamentError
from stsa.services import log as log_service
from stsa.store import schema
from tests.support.store_helpers import JUDGE, ORGANIZER


@pytest.fixture
def inst(tmp_path):
    engine = store.connect(f"sqlite:///{tmp_path / 'stsa.db'}", backup_dir=tmp_path / "b")
    yield engine
    engine.dispose()


def test_an_overlay_is_made_by_the_organizer_and_found_by_its_token_until_withdrawn(inst):
    made, token = store.create_overlay(inst, "table", table_no=3, label=" Cam  1 ",
                                       actor=ORGANIZER)
    with inst.connect() as conn:
        stored = conn.execute(sa.select(schema.overlays)).one()
    assert stored.token_hash != token and token not in str(tuple(stored))
    found = store.overlay_of_token(inst, token)
    assert found == {"id": made, "tournament_id": store.db.tournament_id(inst),
                     "kind": "table", "table_no": 3, "label": "Cam 1"}
    listed = store.overlays(inst, actor=ORGANIZER)
    assert listed[["id", "kind", "table_no", "label", "revoked"]].values.tolist() == [
        [made, "table", 3, "Cam 1", False]]
    assert store.revoke_overlay(inst, made, actor=ORGANIZER) is True
    assert store.overlay_of_token(inst, token) is None
    assert store.revoke_overlay(inst, made, actor=ORGANIZER) is False  # once is enough
    assert store.overlays(inst, actor=ORGANIZER)["revoked"].tolist() == [True]
    assert store.overlay_of_token(inst, "not-a-token") is None


def test_only_the_organizer_makes_lists_or_withdraws_overlays(inst):
    made, _ = store.create_overlay(inst, "standings", actor=ORGANIZER)
    for who in (JUDGE, Actor("spectator", Role.SPECTATOR)):
        with pytest.raises(TournamentError):
            store.create_overlay(inst, "standings", actor=who)
        with pytest.raises(TournamentError):
            store.overlays(inst, actor=who)
        with pytest.raises(TournamentError):
            store.revoke_overlay(inst, made, actor=who)


@pytest.mark.parametrize(("kind", "table_no", "words"), [
    ("scoreboard", None, "a table, the standings or what comes next"),
    ("table", None, "needs the table's number"), ("table", 0, "needs the table's number"),
    ("table", 2.5, "needs the table's number"), ("table", True, "needs the table's number")])
def test_what_an_overlay_shows_is_checked_in_words(inst, kind, table_no, words):
    with pytest.raises(TournamentError, match=words):
        store.create_overlay(inst, kind, table_no=table_no, actor=ORGANIZER)
    with pytest.raises(TournamentError, match="at most 100 characters"):
        store.create_overlay(inst, "standings", label="x" * 101, actor=ORGANIZER)
    assert store.overlays(inst, actor=ORGANIZER).empty


def test_each_tournament_lists_its_own_overlays(inst):
    other = store.create_tournament(inst, "LinCon 2026", actor=ORGANIZER)
    there = store.open_tournament(inst, other.key)
    try:
        _, token = store.create_overlay(there, "next", actor=ORGANIZER)
        store.create_overlay(inst, "standings", actor=ORGANIZER)
        assert store.overlays(there, actor=ORGANIZER)["kind"].tolist() == ["next"]
        assert store.overlays(inst, actor=ORGANIZER)["kind"].tolist() == ["standings"]
        assert store.overlay_of_token(inst, token)["tournament_id"] == other.tournament_id
        mine = int(store.overlays(inst, actor=ORGANIZER)["id"].iloc[0])
        with pytest.raises(TournamentError, match="another tournament"):
            store.revoke_overlay(there, mine, actor=ORGANIZER)
    finally:
        there.dispose()


def test_the_log_says_which_overlay_in_words_and_never_holds_the_token(inst):
    made, token = store.create_overlay(inst, "table", table_no=4, actor=ORGANIZER)
    store.revoke_overlay(inst, made, actor=ORGANIZER)
    events = store.events(inst, actor=ORGANIZER)
    mine = events.loc[events["action"].isin([Action.OVERLAY_CREATE, Action.OVERLAY_REVOKE])]
    assert len(mine) == 2 and token not in mine.to_string()
    sentences = log_service.readable(mine, log_service.places_of(
        store.players(inst), store.sittings(inst), store.tables(inst, actor=ORGANIZER), mine))
    assert set(sentences["details"]) == {
        "Made a stream overlay of the filmed table number 4.",
        "Withdrew the stream overlay of the filmed table number 4: its address shows "
        "nothing any more."}


def test_an_archived_tournament_takes_no_new_overlay(inst):
    """Issue 33: the store refused nothing; an archived tournament is kept as it was."""
    other = store.create_tournament(inst, "LinCon 2026", actor=ORGANIZER)
    there = store.open_tournament(inst, other.key)
    try:
        for engine in (inst, there):
            store.archive_tournament(engine, actor=ORGANIZER)
            with pytest.raises(TournamentError, match="archived"):
                store.create_overlay(engine, "standings", actor=ORGANIZER)
            assert store.overlays(engine, actor=ORGANIZER).empty
        store.reopen_tournament(there, actor=ORGANIZER)
        assert store.create_overlay(there, "next", actor=ORGANIZER)[0] >= 1
    finally:
        there.dispose()
