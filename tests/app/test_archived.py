"""An archived tournament (R27) on every page for every role: shown as it was, no page breaks,
signed-in people are told in words why nothing changes, and the Results page offers no entry
form, while an entry left open from before saves nothing."""

from __future__ import annotations

import pytest

from stsa import store
from stsa.ui import navigation, tournaments
from tests.app.conftest import JUDGE, ORGANIZER, entry, fill_entry, save_entry
from tests.app.test_results import VALUES, _open_table, _saved, _table

ROLES = {"spectator": None, "judge": JUDGE, "organizer": ORGANIZER}


@pytest.mark.parametrize("who", list(ROLES))
def test_every_page_shows_an_archived_tournament_and_says_it_is_archived(open_page, engine,
                                                                        sitting, who):
    table, _ = _table(engine, sitting)
    _saved(engine, table)
    store.archive_tournament(engine, actor=ORGANIZER)
    as_ = ROLES[who]
    role = as_.role if as_ else navigation.Role.SPECTATOR
    for page in navigation.pages(role):
        at = open_page(page.path, as_=as_)
        assert not at.exception, (page.path, at.exception)
        told = tournaments.ARCHIVED_NOTE in [e.value for e in at.info]
        assert told is (as_ is not None), page.path  # spectators just read the pages
        if page.path == "views/results.py":
            assert entry(at) is None and not [b for b in at.button if b.key == "res_save_mine"]
            shown_results = " ".join(" ".join(map(str, d.value.to_numpy().ravel()))
                                     for d in at.dataframe)
            assert "Player 1" in shown_results  # the saved result is still there to read


def test_a_form_open_when_the_tournament_is_archived_says_so_and_saves_nothing(open_page,
                                                                              engine, sitting):
    table, _ = _table(engine, sitting)
    at = _open_table(open_page, JUDGE, table)
    store.archive_tournament(engine, actor=ORGANIZER)  # by the organizer, on another device
    at = save_entry(at, fill_entry(engine, table, VALUES))  # the judge's entry still sends
    assert not at.exception
    assert tournaments.ARCHIVED_NOTE in [e.value for e in at.info]
    assert entry(at) is None
    assert store.table_result(engine, int(table["table_id"])).version == 0
