"""The Data page's stream overlays for the organizer: make one (its address shown once, as a
token the store keeps only as a hash), see it listed, withdraw it; a wrong table number is
refused in words. Nobody else reaches the Data page (tests/app/test_data.py)."""

from __future__ import annotations

import re

from stsa import store
from tests.app.conftest import ORGANIZER, shown

PAGE = "views/data.py"


def _make(at, kind: str, table: int = 1, label: str = ""):
    at.selectbox(key="overlay_kind").set_value(kind)
    at.number_input(key="overlay_table").set_value(table)
    at.text_input(key="overlay_label").input(label)
    next(b for b in at.button if b.label == "Make an overlay").click()
    return at.run()


def test_the_organizer_makes_an_overlay_sees_its_address_once_and_withdraws_it(open_page,
                                                                                engine):
    at = open_page(PAGE, as_=ORGANIZER)
    assert not at.exception
    at = _make(at, "table", 3, "Cam <b>1</b>")
    assert not at.exception
    assert "The overlay is made: copy its address now" in at.success[0].value
    address = at.code[0].value
    token = re.fullmatch(r"https?://[^/]+/overlay/([\w-]{40,})", address)[1]
    found = store.overlay_of_token(engine, token)
    assert (found["kind"], found["table_no"], found["label"]) == ("table", 3, "Cam <b>1</b>")
    listed = at.dataframe[0].value
    assert listed[["Shows", "Table", "Label", "Withdrawn"]].values.tolist() == [
        ["A filmed table", 3, "Cam <b>1</b>", "No"]]
    at.run()  # shown once
    assert not at.code
    at.selectbox(key="overlay_withdraw_choice").set_value(found["id"]).run()
    at.button(key="overlay_withdraw").click().run()
    assert not at.exception
    assert "Withdrawn: its address shows nothing any more." in " ".join(
        s.value for s in at.success)
    assert store.overlay_of_token(engine, token) is None
    assert at.dataframe[0].value["Withdrawn"].tolist() == ["Yes"]


def test_the_standings_and_next_overlays_need_no_table(open_page, engine):
    at = _make(open_page(PAGE, as_=ORGANIZER), "standings", 5)
    assert not at.exception and at.code
    assert store.overlays(engine, actor=ORGANIZER)["table_no"].isna().all()
    at = _make(at, "next", 1, "x" * 100)
    assert not at.exception
    assert len(store.overlays(engine, actor=ORGANIZER)) == 2
    assert "Stream overlays" in shown(at.subheader)


def test_an_archived_tournament_offers_no_new_overlay_but_lists_the_old_ones(open_page, engine):
    """Issue 33: the store refuses a new overlay in an archived tournament; the page does not
    offer one, and still lists (and withdraws) the ones made before."""
    store.create_overlay(engine, "standings", actor=ORGANIZER)
    store.archive_tournament(engine, actor=ORGANIZER)
    at = open_page(PAGE, as_=ORGANIZER)
    assert not at.exception
    assert not [b for b in at.button if b.label == "Make an overlay"]
    assert any("takes no new stream overlays" in i for i in shown(at.info))
    assert at.selectbox(key="overlay_withdraw_choice") is not None
