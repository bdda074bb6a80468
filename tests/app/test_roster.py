"""Roster (organizer): import (pasted list, spreadsheet upload), add, edit, withdraw and
reinstate, remove, and check-in for the next sitting (R1, R2, R19, R20)."""

import io

import openpyxl
import pytest
import streamlit as st

from stsa import excel, store, tournament
from stsa.errors import TournamentError
from stsa.services import draws, roster
from tests.app.conftest import ORGANIZER, shown

ROSTER = "views/roster.py"


def names(engine):
    return sorted(store.players(engine)["name"])


def errors(at):
    return " ".join(shown(at.error))


def add(engine, *people):
    return store.import_players(engine, [{"name": n} for n in people], actor=ORGANIZER)


def checked_in(engine):
    roster = store.players(engine)
    return sorted(roster.loc[roster["checked_in"], "name"])


def tick(at, rows):
    """Edit the check-in list as a click in the browser would: {row position: ticked}."""
    editor = at.data_editor[0]
    at.session_state[editor.key] = {
        "edited_rows": {pos: {"checked_in": value} for pos, value in rows.items()},
        "added_rows": [], "deleted_rows": []}
    return at.run()


# --- import -------------------------------------------------------------------------------------

def test_empty_roster_says_what_to_do(open_page):
    at = open_page(ROSTER, as_=ORGANIZER)
    assert not at.exception
    assert "No players yet: import a list or add players above." in [i.value for i in at.info]
    assert at.expander[0].proto.expanded  # the import opens first on an empty roster
    assert at.file_uploader(key="roster_file_0") is not None
    assert at.get("download_button")[0].proto.label == "Roster template (.xlsx)"
    assert not at.data_editor


def test_pasted_list_imports_names_and_clubs(open_page, engine):
    at = open_page(ROSTER, as_=ORGANIZER)
    at.text_area(key="roster_text").input("Ann Lee, Arrakeen Gamers\n\n  Bo Chen  \nCy\tCaladan\n")
    at.button(key="roster_import").click().run()
    assert not at.exception
    assert [s.value for s in at.success] == ["Imported 3 players."]
    roster = store.players(engine, actor=ORGANIZER).set_index("name")
    assert roster.loc["Ann Lee", "club"] == "Arrakeen Gamers"
    assert roster.loc["Bo Chen", "club"] == ""
    assert roster.loc["Cy", "club"] == "Caladan"
    assert at.data_editor[0].value["name"].tolist() == ["Ann Lee", "Bo Chen", "Cy"]


def test_empty_paste_is_refused(open_page, engine):
    at = open_page(ROSTER, as_=ORGANIZER)
    at.text_area(key="roster_text").input(" \n\n")
    at.button(key="roster_import").click().run()
    assert "Paste at least one name" in errors(at)
    assert names(engine) == []


def test_bad_lines_are_named_and_nothing_is_added(open_page, engine):
    at = open_page(ROSTER, as_=ORGANIZER)
    at.text_area(key="roster_text").input("Ann\n\n" + "x" * 101 + "\nann\n, Lonely Club\n")
    at.button(key="roster_import").click().run()
    message = errors(at)
    assert "Nothing was added." in message
    assert "Line 3: the name is longer than 100 characters." in message
    assert "Line 4 (ann): the same name as line 1." in message
    assert "Line 5: the name is empty." in message
    assert names(engine) == []


def test_names_already_on_the_roster_are_refused(open_page, engine):
    add(engine, "Ann Lee")
    at = open_page(ROSTER, as_=ORGANIZER)
    at.text_area(key="roster_text").input("Bo\n\nANN  lee\n")
    at.button(key="roster_import").click().run()
    assert "line 3 (ANN lee) is already on the roster as 'Ann Lee'" in errors(at)
    assert names(engine) == ["Ann Lee"]


@pytest.fixture
def downloads(monkeypatch):
    """What the page offers for download: {key: data} (data may be a function, called on
    click); the real button is still drawn."""
    offered, real = {}, st.download_button

    def spy(label, data, *args, **kwargs):
        offered[kwargs.get("key")] = data
        return real(label, data, *args, **kwargs)
    monkeypatch.setattr(st, "download_button", spy)
    return offered


def upload(at, name, content, version=0):
    at.file_uploader(key=f"roster_file_{version}").upload(name, content).run()
    assert not at.exception
    return at


def xlsx(rows):
    wb = openpyxl.Workbook()
    for row in rows:
        wb.active.append(row)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def cells(xlsx: bytes) -> dict[str, list[tuple]]:
    wb = openpyxl.load_workbook(io.BytesIO(xlsx))
    return {ws.title: list(ws.iter_rows(values_only=True)) for ws in wb.worksheets}


def test_the_untouched_template_is_taken_back_and_adds_nobody(open_page, engine, downloads):
    at = open_page(ROSTER, as_=ORGANIZER)
    template = downloads["roster_template"]
    template = template() if callable(template) else template
    assert cells(template) == cells(excel.roster_template())  # (bytes differ by save time)
    upload(at, "stsa-roster-template.xlsx", template)
    assert not at.error
    assert shown(at.info)[0].startswith("stsa-roster-template.xlsx holds no players yet")
    assert "Nothing was added" in at.info[0].value
    assert all(b.key != "roster_file_import" for b in at.button)
    assert names(engine) == []


def test_filled_template_previews_then_imports_all_columns(open_page, engine):
    wb = openpyxl.load_workbook(io.BytesIO(excel.roster_template()))
    wb["Players"].append(["Ann Lee", "Sandrider", "Arrakeen Gamers", "Umeå", "ann@example.org"])
    wb["Players"].append(["  Bo   Chen ", "", "", "", ""])
    out = io.BytesIO()
    wb.save(out)
    at = upload(open_page(ROSTER, as_=ORGANIZER), "spring.xlsx", out.getvalue())
    assert "**2 players** in spring.xlsx; the first rows:" in [m.value for m in at.markdown]
    preview = at.dataframe[0].value
    assert preview["Name"].tolist() == ["Ann Lee", "Bo Chen"]
    assert preview["Row"].tolist() == [3, 4] and "City" in preview
    assert names(engine) == []  # nothing is added before the organizer confirms
    at.button(key="roster_file_import").click().run()
    assert [s.value for s in at.success] == ["Imported 2 players."]
    ann = store.players(engine, actor=ORGANIZER).set_index("name").loc["Ann Lee"]
    assert (ann["club"], ann["email"], ann["extra"]) == (
        "Arrakeen Gamers", "ann@example.org", {"city": "Umeå"})
    assert at.file_uploader(key="roster_file_1") is not None  # an empty uploader again
    assert all(b.key != "roster_file_import" for b in at.button)


def test_semicolon_windows_1252_csv_imports(open_page, engine):
    content = "Namn;Klubb;Player ID\r\nÅsa Öberg;Göteborgs Spelförening;S-17\r\n" \
              "José Núñez;;\r\n".encode("cp1252")
    at = upload(open_page(ROSTER, as_=ORGANIZER), "anmälda.csv", content)
    assert at.dataframe[0].value["Name"].tolist() == ["Åsa Öberg", "José Núñez"]
    at.button(key="roster_file_import").click().run()
    roster = store.players(engine, actor=ORGANIZER).set_index("name")
    assert names(engine) == ["José Núñez", "Åsa Öberg"]
    assert roster.loc["Åsa Öberg", "club"] == "Göteborgs Spelförening"
    assert roster.loc["Åsa Öberg", "extra"] == {"roster_id": "S-17"}


def test_bad_rows_are_named_and_nothing_changes(open_page, engine):
    add(engine, "Cy")
    content = xlsx([["Name", "Club"], ["Ann", "A"], [None, "Lonely Club"], ["ANN ", "B"],
                    ["Bo", "x" * 101]])
    at = upload(open_page(ROSTER, as_=ORGANIZER), "bad.xlsx", content)
    message = errors(at).replace("\\", "")
    assert message.startswith("bad.xlsx: Nothing was imported: 3 rows need fixing")
    assert "row 3:" in message and "row 4:" in message and "row 5:" in message
    problems = at.dataframe[0].value
    assert problems["Row"].tolist() == [3, 4, 5]
    assert "row 2" in problems["Problem"].iloc[1]  # the repeated name names the first
    assert all(b.key != "roster_file_import" for b in at.button)
    assert names(engine) == ["Cy"]


@pytest.mark.parametrize("name, content, message", [
    ("players.csv", b"Who,Club\nAnn,A\n", "No name column found"),
    ("players.xlsx", b"%PDF-1.4 not a roster", "PDF"),
    ("players.xlsx", b"PK\x03\x04 broken zip", ""),
])
def test_a_file_that_is_not_a_roster_is_refused_plainly(open_page, engine, name, content,
                                                         message):
    at = upload(open_page(ROSTER, as_=ORGANIZER), name, content)
    assert message in errors(at).replace("\\", "") and errors(at)
    assert all(b.key != "roster_file_import" for b in at.button)
    assert names(engine) == []


def test_a_clash_with_the_roster_names_the_spreadsheet_row(open_page, engine):
    add(engine, "Ann Lee")
    at = upload(open_page(ROSTER, as_=ORGANIZER), "more.csv", b"Name\nBo\nann  LEE\n")
    at.button(key="roster_file_import").click().run()
    assert "row 3" in errors(at).lower() and "Ann Lee" in errors(at)
    assert names(engine) == ["Ann Lee"]

# --- add, edit, withdraw, remove --------------------------------------------------------------

def test_add_a_player(open_page, engine):
    at = open_page(ROSTER, as_=ORGANIZER)
    at.text_input(key="add_name").input("Dana Cruz")
    at.text_input(key="add_club").input("Giedi Prime")
    at.text_input(key="add_email").input("dana@example.org")
    at.button(key="add_submit").click().run()
    assert [s.value for s in at.success] == ["Added Dana Cruz."]
    player = store.players(engine, actor=ORGANIZER).iloc[0]
    assert (player["name"], player["club"], player["email"]) == \
        ("Dana Cruz", "Giedi Prime", "dana@example.org")
    assert at.text_input(key="add_name").value == ""  # ready for the next player
    assert adding(at).proto.expanded, "and still open for it"


@pytest.mark.parametrize("typed, message", [
    ("", "The new player: the name is empty."),
    ("ann LEE", "Nothing was added: the new player (ann LEE) is already on the roster as "
                "'Ann Lee'."),
])
def test_adding_a_bad_name_is_refused(open_page, engine, typed, message):
    add(engine, "Ann Lee")
    at = open_page(ROSTER, as_=ORGANIZER)
    at.text_input(key="add_name").input(typed)
    at.button(key="add_submit").click().run()
    assert message in errors(at)
    assert names(engine) == ["Ann Lee"]
    assert at.text_input(key="add_name").value == typed  # kept, to correct
    assert adding(at).proto.expanded, "the refusal and the form stay in view"
    at.run()  # the next run (another widget, a refresh of the page) keeps it open too
    assert adding(at).proto.expanded


def adding(at):
    """The Roster page's "Add a player" expander."""
    return next(e for e in at.expander if e.label == "Add a player")


def test_a_nickname_already_taken_is_refused_in_view(open_page, engine):
    add(engine, "Ann Lee")
    store.edit_player(engine, int(store.players(engine, actor=ORGANIZER)["player_id"].iloc[0]),
                      nickname="Sietch", actor=ORGANIZER)
    at = open_page(ROSTER, as_=ORGANIZER)
    assert not adding(at).proto.expanded  # closed until it is used
    at.text_input(key="add_name").input("Bo Chen")
    at.text_input(key="add_nickname").input("sietch")
    at.button(key="add_submit").click().run()
    assert "the nickname 'sietch' is already Ann Lee's" in errors(at)
    assert adding(at).proto.expanded
    assert len(store.players(engine, actor=ORGANIZER)) == 1, "nobody was added"


def test_edit_a_player(open_page, engine):
    pid = int(add(engine, "Ann Lee", "Bo Chen")["player_id"].iloc[0])
    at = open_page(ROSTER, as_=ORGANIZER)
    at.selectbox(key="edit_player").select(pid).run()
    at.text_input(key=f"edit_name_{pid}").input("Ann Lee-Smith")
    at.text_input(key=f"edit_club_{pid}").input("Caladan Club")
    at.text_input(key=f"edit_email_{pid}").input("ann@example.org")
    at.button(key=f"edit_save_{pid}").click().run()
    assert [s.value for s in at.success] == ["Saved Ann Lee-Smith."]
    player = store.player(engine, pid, actor=ORGANIZER)
    assert (player["name"], player["club"], player["email"]) == \
        ("Ann Lee-Smith", "Caladan Club", "ann@example.org")
    assert store.events(engine, actor=ORGANIZER, action="player.edit")["before"].iloc[0] == \
        {"name": "Ann Lee", "nickname": "Ann Lee", "club": "", "email": ""}
    assert player["nickname"] == "Ann Lee-Smith"  # still the name (R22): it follows


def test_editing_to_a_taken_name_is_refused(open_page, engine):
    pid = int(add(engine, "Ann Lee", "Bo Chen")["player_id"].iloc[0])
    at = open_page(ROSTER, as_=ORGANIZER)
    at.selectbox(key="edit_player").select(pid).run()
    at.text_input(key=f"edit_name_{pid}").input("bo chen")
    at.button(key=f"edit_save_{pid}").click().run()
    assert "'bo chen' is already on the roster" in errors(at)
    at.text_input(key=f"edit_name_{pid}").input("   ")
    at.button(key=f"edit_save_{pid}").click().run()
    assert "the name is empty" in errors(at)
    assert names(engine) == ["Ann Lee", "Bo Chen"]


def test_withdraw_and_reinstate(open_page, engine):
    pid = int(add(engine, "Ann Lee", "Bo Chen")["player_id"].iloc[0])
    store.check_in(engine, [pid], actor=ORGANIZER)
    at = open_page(ROSTER, as_=ORGANIZER)
    at.selectbox(key="edit_player").select(pid).run()
    at.button(key="withdraw_player").click().run()
    assert [s.value for s in at.success] == ["Ann Lee is withdrawn."]
    player = store.player(engine, pid)
    assert (player["status"], player["checked_in"]) == ("withdrawn", False)
    assert at.data_editor[0].value["name"].tolist() == ["Bo Chen"]  # not in the check-in list
    assert at.button(key="withdraw_player").label == "Reinstate"
    at.button(key="withdraw_player").click().run()
    assert store.player(engine, pid)["status"] == "active"


def test_remove_a_player_never_drawn(open_page, engine):
    pid = int(add(engine, "Ann Lee", "Bo Chen")["player_id"].iloc[0])
    at = open_page(ROSTER, as_=ORGANIZER)
    at.selectbox(key="edit_player").select(pid).run()
    at.button(key="remove_player").click().run()
    assert [s.value for s in at.success] == ["Removed Ann Lee."]
    assert names(engine) == ["Bo Chen"]
    assert at.selectbox(key="edit_player").value is None


def test_a_drawn_player_cannot_be_removed(open_page, engine):
    ids = add(engine, "Ann", "Bo", "Cy")["player_id"].tolist()
    tournament.draw_qualifier(engine, ids, seed=1, actor=ORGANIZER)
    at = open_page(ROSTER, as_=ORGANIZER)
    at.selectbox(key="edit_player").select(ids[0]).run()
    at.button(key="remove_player").click().run()
    assert "Ann has a seat in a draw and cannot be deleted" in errors(at)
    assert "withdraw the player instead" in errors(at)
    assert names(engine) == ["Ann", "Bo", "Cy"]


# --- check-in -----------------------------------------------------------------------------------

def test_check_in_everyone_then_clear(open_page, engine):
    add(engine, *[f"Player {i}" for i in range(1, 8)])
    at = open_page(ROSTER, as_=ORGANIZER)
    assert "**0** of 7 active players checked in." in [m.value for m in at.markdown]
    assert [w.value for w in at.warning] == ["No players to seat: check in at least 3 players."]
    at.button(key="checkin_all").click().run()
    assert [s.value for s in at.success] == ["Checked in 7 more players."]
    assert len(checked_in(engine)) == 7
    assert "**7** of 7 active players checked in. Table plan: 2 tables (4 + 3)." in \
        [m.value for m in at.markdown]
    assert at.data_editor[0].value["checked_in"].all()
    at.button(key="checkin_clear").click().run()
    assert [s.value for s in at.success] == ["Checked out 7 players."]
    assert checked_in(engine) == []
    assert not at.data_editor[0].value["checked_in"].any()


def test_clearing_check_ins_asks_first(open_page, engine):
    """The clear sits behind a question naming how many are checked out; with nobody checked
    in there is nothing to clear."""
    add(engine, "Ann", "Bo", "Cy")
    at = open_page(ROSTER, as_=ORGANIZER)
    assert at.get("popover")[0].proto.popover.disabled  # nobody checked in yet
    at.button(key="checkin_all").click().run()
    assert "Check out all 3 players? The list to tick starts empty." in \
        [m.value for m in at.markdown]
    assert not at.get("popover")[0].proto.popover.disabled
    assert checked_in(engine) == ["Ann", "Bo", "Cy"]  # opening the question changes nothing


def test_a_pasted_list_checks_in_exactly_its_players_by_nickname(open_page, engine):
    """The organizer pastes the booked players of a sitting, some by nickname; the others
    checked in are checked out."""
    store.import_players(engine, [{"name": "Ann Lee", "nickname": "Sandrider"},
                                  {"name": "Bo Chen", "nickname": "Bo"},
                                  {"name": "Cy Diaz", "nickname": "Cyborg"}], actor=ORGANIZER)
    store.check_in(engine, store.players(engine)["player_id"].tolist(), actor=ORGANIZER)
    at = open_page(ROSTER, as_=ORGANIZER)
    at.text_area(key="checkin_list").input("sandrider\nCy Diaz").run()
    at.button(key="checkin_list_go").click().run()
    assert not at.exception
    assert [s.value for s in at.success] == ["All 2 were already checked in; checked out 1."]
    assert checked_in(engine) == ["Cyborg", "Sandrider"]  # the public names of Cy and Ann
    assert at.data_editor[0].value["checked_in"].tolist() == [True, False, True]


def test_a_pasted_list_with_an_unknown_name_checks_in_nobody_and_stays_open(open_page, engine):
    add(engine, "Ann Lee", "Bo Chen")
    at = open_page(ROSTER, as_=ORGANIZER)
    at.text_area(key="checkin_list").input("Ann Lee\nBo Chn").run()
    at.button(key="checkin_list_go").click().run()
    assert errors(at) == ('Nobody was checked in. line 2, "Bo Chn": no player has that name '
                          'or nickname (did you mean "Bo Chen"?).')
    assert checked_in(engine) == []
    at.run()  # the next run (any click) keeps the list in view to correct
    assert next(e for e in at.expander if e.label == "Check in a list").proto.expanded
    assert at.text_area(key="checkin_list").value == "Ann Lee\nBo Chn"


def test_the_next_sitting_starts_from_the_last_ones_players_or_newcomers(open_page, engine):
    """After a qualifier, the check-ins are pointed out as the last sitting's, and the
    organizer checks in that sitting's players again or the players who have not played."""
    ids = add(engine, *[f"Player {i}" for i in range(1, 10)])["player_id"].tolist()
    store.check_in(engine, ids[:8], actor=ORGANIZER)
    sitting = tournament.draw_qualifier(engine, ids[:8], seed=1, actor=ORGANIZER)
    store.publish_sitting(engine, sitting["sitting_id"], actor=ORGANIZER)
    store.check_in(engine, ids[8:], actor=ORGANIZER)  # a drop-in arrives
    at = open_page(ROSTER, as_=ORGANIZER)
    assert [w.value for w in at.warning] == [
        "8 of the 9 players checked in were checked in before Qualifier 1 was drawn: they may "
        "be Qualifier 1's players. Check in this sitting's players, or keep them if they play "
        "again."]
    assert at.selectbox(key="checkin_ready").options == [
        "Same as Qualifier 1 (8 players)", "Everyone who has not played yet (1 player)"]
    at.selectbox(key="checkin_ready").set_value(1).run()
    at.button(key="checkin_ready_go").click().run()
    assert [s.value for s in at.success] == ["1 player was already checked in; checked out 8."]
    assert checked_in(engine) == ["Player 9"]
    assert not [w for w in at.warning if "before Qualifier 1" in w.value]  # fresh check-ins
    at.selectbox(key="checkin_ready").set_value(0).run()
    at.button(key="checkin_ready_go").click().run()
    assert len(checked_in(engine)) == 8
    assert "Player 9" not in checked_in(engine)


def test_this_sittings_exact_list_is_not_pointed_out_as_the_last_ones(open_page, engine):
    """Issue 33: after Qualifier 1, the organizer pastes Qualifier 2's exact list (four who
    played Qualifier 1 again, four new): no hint that they are Qualifier 1's; pasting the same
    list again says all were already checked in, a list with newcomers says how many of each."""
    ids = add(engine, *[f"Player {i}" for i in range(1, 13)])["player_id"].tolist()
    store.check_in(engine, ids[:8], actor=ORGANIZER)
    sitting = tournament.draw_qualifier(engine, ids[:8], seed=1, actor=ORGANIZER)
    store.publish_sitting(engine, sitting["sitting_id"], actor=ORGANIZER)
    at = open_page(ROSTER, as_=ORGANIZER)
    assert [w.value for w in at.warning if "before Qualifier 1" in w.value]
    second = "\n".join(f"Player {i}" for i in range(5, 13))  # 5–8 played Qualifier 1
    at.text_area(key="checkin_list").input(second).run()
    at.button(key="checkin_list_go").click().run()
    assert not at.exception
    assert [s.value for s in at.success] == [
        "Checked in 4 players; 4 were already checked in; checked out 4."]
    assert not [w for w in at.warning if "before Qualifier 1" in w.value]
    at.button(key="checkin_list_go").click().run()
    assert [s.value for s in at.success] == ["All 8 were already checked in."]
    at.text_area(key="checkin_list").input(second + "\nPlayer 1").run()
    at.button(key="checkin_list_go").click().run()
    assert [s.value for s in at.success] == ["Checked in 1 player; 8 were already checked in."]
    assert not [w for w in at.warning if "before Qualifier 1" in w.value]


def test_ticking_and_unticking_saves_at_once(open_page, engine):
    add(engine, "Cy", "Ann", "Bo")
    store.check_in(engine, store.players(engine)["player_id"].tolist()[:1], actor=ORGANIZER)  # Cy
    at = open_page(ROSTER, as_=ORGANIZER)
    assert at.data_editor[0].value["name"].tolist() == ["Ann", "Bo", "Cy"]  # by name
    tick(at, {0: True, 1: True, 2: False})
    assert not at.exception
    assert [s.value for s in at.success] == ["Checked in 2, checked out 1."]
    assert checked_in(engine) == ["Ann", "Bo"]
    assert at.data_editor[0].value["checked_in"].tolist() == [True, True, False]
    assert at.session_state["checkin_version"] == 1  # a fresh list shows what is stored


def test_five_checked_in_needs_a_sit_out(open_page, engine):
    ids = add(engine, *"ABCDEF")["player_id"].tolist()
    store.check_in(engine, ids[:5], actor=ORGANIZER)
    at = open_page(ROSTER, as_=ORGANIZER)
    assert "let the draw pick one checked-in player to sit this sitting out" in \
        at.warning[0].value


def test_search_filters_the_check_in_list_and_the_player_choice(open_page, engine):
    add(engine, "Ann Lee", "Joanna Nowak", "Bo Chen")
    at = open_page(ROSTER, as_=ORGANIZER)
    at.text_input(key="roster_search").input("ANN").run()
    assert at.data_editor[0].value["name"].tolist() == ["Ann Lee", "Joanna Nowak"]
    assert at.selectbox(key="edit_player").options == ["Ann Lee", "Joanna Nowak"]
    tick(at, {1: True})
    assert checked_in(engine) == ["Joanna Nowak"]
    at.text_input(key="roster_search").input("zz").run()
    assert "No active player matches the search." in [i.value for i in at.info]


def test_ticks_on_a_list_changed_meanwhile_are_not_applied_to_other_players(open_page, engine):
    """The organizer ticks Ann and Bo while another tab withdraws Ann: the click's run reads
    the list as it is now (the write moved the data version), the rows changed, so the ticks
    are dropped (they were for rows that no longer line up) and the list shows who is left."""
    ids = add(engine, "Ann", "Bo")["player_id"].tolist()
    at = open_page(ROSTER, as_=ORGANIZER)
    store.withdraw_player(engine, ids[0], actor=ORGANIZER)  # from another tab
    tick(at, {0: True, 1: True})
    assert not at.exception and not errors(at)
    assert checked_in(engine) == []
    assert at.data_editor[0].value["name"].tolist() == ["Bo"]


def test_check_in_of_a_withdrawn_player_is_refused(engine):
    """The service refuses it whatever the page showed."""
    ids = add(engine, "Ann", "Bo")["player_id"].tolist()
    store.withdraw_player(engine, ids[0], actor=ORGANIZER)
    with pytest.raises(TournamentError, match="Withdrawn players cannot be checked in: Ann."):
        roster.change_check_ins(engine, ids, [], actor=ORGANIZER)
    assert checked_in(engine) == []


def test_two_thousand_players_are_listed_by_the_first_200_and_found_by_search(open_page, engine):
    """The search's time is a figure of `make bench` (roster_search_seconds)."""
    add(engine, *[f"Player {i:04d}" for i in range(2000)])
    store.set_settings(engine, {"capacity": 2000}, actor=ORGANIZER)  # a room for everyone
    at = open_page(ROSTER, as_=ORGANIZER)
    assert len(at.data_editor[0].value) == roster.SHOWN_LIMIT
    assert "Showing the first 200 of 2000 matches: search to narrow." in \
        [c.value for c in at.caption]
    at.text_input(key="roster_search").input("player 19").run()
    assert len(at.data_editor[0].value) == 100
    at.button(key="checkin_all").click().run()
    assert len(checked_in(engine)) == 2000
    assert "500 tables, 500 of 4 players and 0 of 3" in " ".join(m.value for m in at.markdown)


def test_names_with_markup_are_data(open_page, engine):
    add(engine, "<b>Bold</b> **Ann**")
    at = open_page(ROSTER, as_=ORGANIZER)
    assert at.data_editor[0].value["name"].tolist() == ["<b>Bold</b> **Ann**"]
    assert not any("<b>" in m.value for m in at.markdown)


# --- helpers --------------------------------------------------------------------------------------

def test_parse_name_list_keeps_line_numbers():
    records, lines = roster.parse_name_list("Ann, Club A, B\n\n\tSolo\nBo\n")
    assert records == [{"name": "Ann", "club": "Club A, B"}, {"name": "", "club": "Solo"},
                       {"name": "Bo", "club": ""}]
    assert lines == [1, 3, 4]


@pytest.mark.parametrize("n, ok, text", [
    (0, False, "No players to seat"), (2, False, "check in at least 1 more player"),
    (3, True, "3 players: 1 table (3)."), (5, False, "sit this sitting out"),
    (9, True, "3 tables (3 + 3 + 3)"), (11, True, "3 tables (4 + 4 + 3)"),
    (60, True, "60 players: 15 tables, 15 of 4 players and 0 of 3."),
])
def test_table_plan(n, ok, text):
    """R1 in one wording for the Roster and Draw pages."""
    plan = draws.table_plan(n)
    assert plan.ok == ok and text in plan.text
    assert draws.table_plan(5, sit_out=True).sizes == (4,)
