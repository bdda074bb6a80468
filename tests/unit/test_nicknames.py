"""R22 nicknames: every player has one (their name by default), unique like names, set by
add, import and edit with clear messages, logged; what spectators and paper get carries
nicknames only.

Every test that takes `engine` runs on SQLite and on PostgreSQL.
"""

import io

import openpyxl
import pytest
from pypdf import PdfReader

from stsa import excel, store
from stsa.services import exports, results
from stsa.services import roster as roster_service
from tests.support.store_helpers import ORGANIZER, make_draw, published_sitting, rows_for


def test_a_new_player_s_nickname_is_their_name_unless_given(engine):
    ann = store.add_player(engine, "Ann Lee", actor=ORGANIZER)
    bob = store.add_player(engine, "Bob Stone", nickname="  Sand   Worm ", actor=ORGANIZER)
    assert (ann["nickname"], bob["nickname"]) == ("Ann Lee", "Sand Worm")
    roster = store.players(engine, actor=ORGANIZER)
    assert roster[["name", "nickname"]].values.tolist() == [["Ann Lee", "Ann Lee"],
                                                            ["Bob Stone", "Sand Worm"]]


@pytest.mark.parametrize("other", ["sand worm", "SAND  WORM", "Ｓａｎｄ Worm"])
def test_nicknames_are_unique_ignoring_case_and_spaces(engine, other):
    store.add_player(engine, "Bob Stone", nickname="Sand Worm", actor=ORGANIZER)
    with pytest.raises(store.DuplicateName, match=r"nickname .* is already Bob Stone's"):
        store.add_player(engine, "Cid Vale", nickname=other, actor=ORGANIZER)
    with pytest.raises(store.DuplicateName, match="Bob Stone"):
        store.add_player(engine, other, actor=ORGANIZER)  # a name is its own nickname
    assert len(store.players(engine)) == 1


def test_import_names_every_repeated_nickname_and_adds_nobody(engine):
    store.add_player(engine, "Ann Lee", nickname="Fremen", actor=ORGANIZER)
    roster = [{"name": "Bob", "nickname": "fremen"}, {"name": "Cid", "nickname": "Ghola"},
              {"name": "Dee", "nickname": "GHOLA"}, {"name": "Eve"}]
    with pytest.raises(store.TournamentError) as err:
        store.import_players(engine, roster, actor=ORGANIZER)
    assert "Entry 3 (Dee): the same nickname (GHOLA) as entry 2" in str(err.value)
    assert len(store.players(engine)) == 1
    with pytest.raises(store.DuplicateName, match=r"entry 1 \(Bob\): the nickname 'fremen' "
                                                   r"is already Ann Lee's"):
        store.import_players(engine, [roster[0], roster[1]], actor=ORGANIZER)
    assert len(store.players(engine)) == 1


def test_edit_nickname_checks_duplicates_defaults_blank_and_is_logged(engine):
    ann = store.add_player(engine, "Ann Lee", actor=ORGANIZER)
    store.add_player(engine, "Bob Stone", nickname="Sand Worm", actor=ORGANIZER)
    with pytest.raises(store.DuplicateName, match="nickname 'sand worm' is already Bob Stone's"):
        store.edit_player(engine, ann["player_id"], nickname="sand worm", actor=ORGANIZER)
    edited = store.edit_player(engine, ann["player_id"], nickname="Kwisatz", actor=ORGANIZER)
    assert (edited["name"], edited["nickname"]) == ("Ann Lee", "Kwisatz")
    logged = store.events(engine, actor=ORGANIZER, action="player.edit").iloc[-1]
    assert logged["before"] == {"nickname": "Ann Lee"}
    assert logged["after"] == {"nickname": "Kwisatz"}
    renamed = store.edit_player(engine, ann["player_id"], name="Ann Leigh", nickname="",
                                actor=ORGANIZER)
    assert renamed["nickname"] == "Ann Leigh"  # blank: the name
    with pytest.raises(store.TournamentError, match="nickname is longer than 100"):
        store.edit_player(engine, ann["player_id"], nickname="x" * 101, actor=ORGANIZER)
    added = store.events(engine, actor=ORGANIZER, action="players.add")["after"]
    assert [p["nickname"] for batch in added for p in batch] == ["Ann Lee", "Sand Worm"]


def test_spectators_see_nicknames_only(engine):
    ann = store.add_player(engine, "Ann Lee", nickname="Fremen", club="Arrakeen",
                           email="ann@example.org", actor=ORGANIZER)
    public = store.players(engine)
    assert public[["name", "nickname", "club", "email"]].values.tolist() == [
        ["Fremen", "Fremen", "", ""]]
    assert store.player(engine, ann["player_id"])["name"] == "Fremen"
    assert store.player(engine, ann["player_id"], actor=ORGANIZER)["name"] == "Ann Lee"


@pytest.mark.slow
def test_public_frames_and_paper_carry_nicknames(engine):
    ids = [store.add_player(engine, f"Real Person {i}", nickname=f"Handle{i}",
                            actor=ORGANIZER)["player_id"] for i in range(12)]
    sitting, tables = published_sitting(engine, ids=ids)
    sid, first = sitting["sitting_id"], int(tables["table_id"].iloc[0])
    store.submit_table_result(engine, first, rows_for(engine, first), expected_version=0,
                              submission_id="first", actor=ORGANIZER)
    public_seats = store.seats(engine, sid)
    assert public_seats["name"].str.startswith("Handle").all()
    staff_seats = store.seats(engine, sid, actor=ORGANIZER)
    assert staff_seats["name"].str.startswith("Real Person").all()
    assert staff_seats["nickname"].str.startswith("Handle").all()
    standings = results.standings_table(engine)  # the scripting API: `name` is the nickname
    assert len(standings) == 12 and standings["name"].str.startswith("Handle").all()
    assert results.scored_results(engine)["name"].str.startswith("Handle").all()
    for pdf in (exports.pairings_by_name(engine, sid), exports.pairings_by_table(engine, sid),
                exports.table_slips(engine, sid, judges_copy=False, result_url="http://x/"),
                exports.table_slips(engine, sid, judges_copy=True, result_url="http://x/")):
        text = _pdf_text(pdf)
        assert "Handle3" in text and "Real Person" not in text


def _pdf_text(data: bytes) -> str:
    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_sit_outs_by_nickname_in_public(engine):
    ids = [store.add_player(engine, f"Real Person {i}", nickname=f"Handle{i}",
                            actor=ORGANIZER)["player_id"] for i in range(5)]
    draw = make_draw(ids[:4], seed=3, sit_outs=[ids[4]])
    sid = store.save_draw(engine, draw, kind="qualifier", actor=ORGANIZER)["sitting_id"]
    store.publish_sitting(engine, sid, actor=ORGANIZER)
    assert store.sit_outs(engine, sid)["name"].tolist() == ["Handle4"]
    assert store.sit_outs(engine, sid, actor=ORGANIZER)["name"].tolist() == ["Real Person 4"]


def test_roster_file_reads_a_nickname_or_handle_column():
    for heading in ("Nickname", "Handle", "nick"):
        frame = excel.read_roster(f"Name,{heading},Club\nAnn Lee,Fremen,A\nBob,,B\n".encode())
        assert frame["nickname"].tolist() == ["Fremen", ""]


def test_roster_file_refuses_a_repeated_nickname_by_row():
    data = b"Name,Handle\nAnn Lee,Fremen\nBob,fremen\nCid,Ann  LEE\n"
    with pytest.raises(excel.RosterError) as err:
        excel.read_roster(data)
    assert "row 3: the same nickname as row 2 (fremen)" in str(err.value)
    assert "row 4" not in str(err.value)  # Ann Lee's nickname is Fremen: "Ann LEE" is free


def test_roster_import_names_the_row_whose_nickname_is_taken(engine):
    store.add_player(engine, "Ann Lee", nickname="Fremen", actor=ORGANIZER)
    wb = openpyxl.Workbook()
    wb.active.append(["Name", "Nickname"])
    wb.active.append(["Bob", "Ghola"])
    wb.active.append(["Cid", "FREMEN"])
    out = io.BytesIO()
    wb.save(out)
    with pytest.raises(excel.RosterError, match="row 3: the nickname 'FREMEN' is already "
                                                "Ann Lee's"):
        excel.import_roster(engine, out.getvalue(), actor=ORGANIZER)
    assert len(store.players(engine)) == 1


def test_roster_search_finds_a_player_by_nickname(engine):
    store.add_player(engine, "Ann Lee", nickname="Fremen", actor=ORGANIZER)
    store.add_player(engine, "Bob Stone", actor=ORGANIZER)
    found, total = roster_service.find_players(store.players(engine, actor=ORGANIZER), "frem")
    assert total == 1 and found["name"].tolist() == ["Ann Lee"]


def test_a_nickname_still_the_name_follows_a_corrected_name(engine):
    ann = store.add_player(engine, "Ann Le", actor=ORGANIZER)
    bob = store.add_player(engine, "Bob Stone", nickname="Sand Worm", actor=ORGANIZER)
    fixed = store.edit_player(engine, ann["player_id"], name="Ann Lee", nickname="Ann Le",
                              actor=ORGANIZER)  # the nickname field left as it was
    assert fixed["nickname"] == "Ann Lee"
    renamed = store.edit_player(engine, bob["player_id"], name="Bob Stones", actor=ORGANIZER)
    assert renamed["nickname"] == "Sand Worm"  # a nickname of its own stays
