"""The Tournaments page (R27) for every role: the list, opening another tournament, the
organizer's new tournament with its judges' PIN shown once, the demo as a tournament of its own
deleted in one click, archiving, and the sidebar line that names the tournament shown."""

from __future__ import annotations

from stsa import store
from stsa.ui import session
from tests.app.conftest import JUDGE, ORGANIZER, PINS, shown

PAGE = "views/tournaments.py"


def _texts(at) -> str:
    return " ".join(shown(at.markdown) + shown(at.caption) + [e.value for e in at.info]
                    + [e.value for e in at.success])


def tournament_line(at) -> str:
    """The line above every page's title that names the tournament shown."""
    return next(c for c in shown(at.caption) if c.startswith("Tournament: ")).split(" · ")[0]


def _button(at, key: str):
    return next(b for b in at.button if b.key == key)


def test_one_tournament_opens_straight_away_and_every_page_names_it(open_page, engine):
    store.set_settings(engine, {"tournament_name": "Spring Open"}, actor=ORGANIZER)
    at = open_page("views/standings.py")
    assert not at.exception
    assert tournament_line(at) == "Tournament: Spring Open"
    assert "t" not in at.query_params  # one tournament: addresses as before


def test_the_organizer_creates_a_tournament_sees_its_pin_once_and_it_is_shown(open_page,
                                                                               engine):
    at = open_page(PAGE, as_=ORGANIZER)
    assert not at.exception
    at.text_input[0].input("GothCon 2026")
    at.text_input[1].input("Chalmers, Gothenburg")
    at.text_input[2].input("Europe/Stockholm")
    next(b for b in at.button if b.label == "Create tournament").click().run()
    assert not at.exception
    text = _texts(at)
    assert "GothCon 2026 is created and shown now." in text
    pin = next(e.value for e in at.info if "judges' PIN" in e.value).split("PIN of GothCon "
                                                                          "2026 is ")[1][:8]
    assert tournament_line(at) == "Tournament: GothCon 2026"
    assert at.query_params["t"] == ["gothcon-2026"] or at.query_params["t"] == "gothcon-2026"
    made = store.connect(engine.url.render_as_string(), tournament="gothcon-2026")
    try:
        assert store.settings(made)["venue"] == "Chalmers, Gothenburg"
        assert store.sign_in(made, "Ana", pin, client="t").actor.role.value == "judge"
    finally:
        made.dispose()
    at.run()  # shown once
    assert not any("judges' PIN" in e.value for e in at.info)


def test_the_demo_is_a_tournament_of_its_own_deleted_in_one_click(open_page, engine):
    at = open_page(PAGE, as_=ORGANIZER)
    _button(at, "try_demo").click().run()
    assert not at.exception
    assert "The demo tournament is loaded and shown now." in _texts(at)
    assert len(store.tournaments(engine)) == 2 and store.players(engine).empty
    assert tournament_line(at) == "Tournament: Demo: Swordmasters Open"
    _button(at, "delete_demo").click().run()
    assert not at.exception
    assert "“Demo: Swordmasters Open” is deleted. Its backup is kept" in _texts(at)
    assert len(store.tournaments(engine)) == 1
    assert tournament_line(at) == "Tournament: DUNE: Imperium tournament"


def test_an_archived_tournament_refuses_changes_and_reopens(open_page, engine):
    at = open_page(PAGE, as_=ORGANIZER)
    _button(at, "archive_tournament").click().run()
    assert not at.exception and store.archived(engine) is not None
    at.switch_page("views/roster.py").run()
    assert not at.exception
    at.switch_page(PAGE).run()
    _button(at, "reopen_tournament").click().run()
    assert store.archived(engine) is None


def test_spectators_and_judges_see_the_list_and_open_another(open_page, engine, db_url):
    made = store.create_tournament(engine, "LinCon 2026", starts_on="2026-05-01",
                                   actor=ORGANIZER)
    for who in (None, JUDGE):
        at = open_page(PAGE, as_=who)
        assert not at.exception
        assert "LinCon 2026" in " ".join(shown(at.markdown))
        assert not [b for b in at.button if b.key in ("try_demo", "archive_tournament")]
        _button(at, f"open_tournament_{made.tournament_id}").click().run()
        assert not at.exception
        assert tournament_line(at) == "Tournament: LinCon 2026"
        if who is JUDGE:  # signed in to the installation's own tournament, kept signed in
            assert "signed in as a judge of another tournament" in " ".join(shown(at.caption))
    assert PINS  # the judge above signed in with the installation's own judges' PIN


def test_an_address_naming_no_tournament_says_so_and_shows_the_default(open_page, engine):
    store.create_tournament(engine, "LinCon 2026", actor=ORGANIZER)
    at = open_page(query={"t": "no-such-thing"})
    assert not at.exception
    assert any("names no tournament here" in w.value for w in at.warning)
    assert session.TOURNAMENT_PARAM == "t"


# -- issue 33: where the name is edited, whether its links move ---------------------------------
def _links_words(at) -> str:
    return " ".join(c.value for c in at.caption if "links" in c.value.lower())


def test_settings_says_a_rename_moves_the_links_until_the_tournament_is_public(open_page,
                                                                              engine):
    at = open_page("views/settings.py", as_=ORGANIZER)
    assert "A new name moves them" in _links_words(at)
    at.text_input(key="set_name").input("GothCon 2026")
    at.button(key="settings_save").click().run()
    assert not at.exception and not at.error
    assert store.tournaments(engine)["key"].tolist() == ["gothcon-2026"]
    assert "“gothcon-2026”" in _links_words(at)
    store.add_schedule_item(engine, title="Lunch", starts_at=store.db.now(), actor=ORGANIZER)
    at.run()
    assert "Links stay “gothcon-2026” when you rename it" in _links_words(at)
    at.text_input(key="set_name").input("GothCon Autumn").run()
    at.button(key="settings_save").click().run()
    assert store.tournaments(engine)["key"].tolist() == ["gothcon-2026"]
