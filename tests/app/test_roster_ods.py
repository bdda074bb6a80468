"""Roster (organizer): a roster saved by LibreOffice (.ods) is offered, previewed and imported
like an .xlsx one; a hostile one is refused with its reason and adds nobody (R19)."""

from stsa import store
from tests.app.conftest import ORGANIZER
from tests.unit.test_roster_ods import cell, frame_ods, ods, row

ROSTER = "views/roster.py"


def upload(open_page, name, content):
    at = open_page(ROSTER, as_=ORGANIZER)
    assert ".ods" in list(at.file_uploader(key="roster_file_0").proto.type)  # offered
    at.file_uploader(key="roster_file_0").upload(name, content).run()
    assert not at.exception
    return at


def test_an_ods_roster_is_previewed_then_imported(open_page, engine):
    at = upload(open_page, "spring.ods", frame_ods([["Name", "Club"], ["Ann Lee", "Arrakeen"],
                                                    ["Bo Chen", None]]))
    assert "**2 players** in spring.ods; the first rows:" in [m.value for m in at.markdown]
    at.button(key="roster_file_import").click().run()
    assert [s.value for s in at.success] == ["Imported 2 players."]
    assert sorted(store.players(engine)["name"]) == ["Ann Lee", "Bo Chen"]


def test_a_hostile_ods_is_refused_and_adds_nobody(open_page, engine):
    at = upload(open_page, "bomb.ods", ods(row(cell("Name")) + row(cell("x", repeated=10**7))))
    assert "bomb.ods: The spreadsheet has a row of 10,000,000 columns" in at.error[0].value
    assert all(b.key != "roster_file_import" for b in at.button)
    assert store.players(engine).empty
