"""Draw page: the organizer draws, redraws, overrides a setup and publishes (R1, R3, R6, R9);
judges see removed leaders and pick order; spectators see published draws only (R20)."""

import io
import json
from types import SimpleNamespace

import pandas as pd
import pytest
import streamlit as st
from pypdf import PdfReader

from stsa import draw, store, tournament
from stsa.formats import slips
from stsa.services import draws
from stsa.services.snapshot import Snapshot
from stsa.settings import Settings
from stsa.ui import data_tools
from tests.app.conftest import JUDGE, ORGANIZER, shown

PAGE = "views/draw.py"


def _players(engine, n, checked_in=True):
    names = pd.DataFrame({"name": [f"Player {i:02d}" for i in range(1, n + 1)]})
    ids = store.import_players(engine, names, actor=ORGANIZER)["player_id"].tolist()
    if checked_in:
        store.check_in(engine, ids, actor=ORGANIZER)
    return ids


def _drawn(engine, n=8, publish=False, seed=11):
    ids = _players(engine, n)
    sitting = tournament.draw_qualifier(engine, ids, seed=seed, actor=ORGANIZER)
    if publish:
        store.publish_sitting(engine, sitting["sitting_id"], actor=ORGANIZER)
    return sitting


def _removed(engine, sitting_id):
    tables = store.tables(engine, sitting_id, actor=ORGANIZER)
    return [name for names in tables["removed_leaders"] for name in names]


def _shown(at) -> str:
    """Everything the page shows as text: markdown, captions, alerts and every table cell."""
    parts = [e.value for kind in ("markdown", "caption", "info", "warning", "error", "success")
             for e in getattr(at, kind)]
    for df in at.dataframe:
        parts += [*map(str, df.value.columns), *df.value.astype(str).to_numpy().ravel()]
    return "\n".join(map(str, parts)).replace("\\", "")


# --- organizer ---------------------------------------------------------------------------------

def test_organizer_without_players_is_sent_to_the_roster(open_page):
    at = open_page(PAGE, as_=ORGANIZER)
    assert not at.exception
    assert any("Roster page" in i.value for i in at.info)


def test_organizer_draws_checked_in_players_with_the_seed_shown(open_page, engine):
    _players(engine, 7)
    at = open_page(PAGE, as_=ORGANIZER)
    assert "7 players checked in" in _shown(at)
    assert "7 players: 2 tables (4 + 3)." in _shown(at)
    seed = at.number_input(key="draw_seed").value
    assert 100_000_000 <= seed < 1_000_000_000
    at.button(key="draw_go").click().run()
    assert not at.exception
    sitting = store.sittings(engine, actor=ORGANIZER).iloc[-1]
    assert sitting["status"] == "drawn" and int(sitting["seed"]) == seed
    assert f"drawn from seed {seed}" in at.success[0].value
    text = _shown(at)
    assert f"Seed {seed}" in text and "Not published yet" in text
    assert all(name in text for name in _removed(engine, sitting["sitting_id"]))
    assert at.number_input(key="draw_seed").value != seed, "a fresh seed for a redraw"


def test_organizer_typed_seed_reproduces_a_draw_and_redraw_replaces_the_draft(
        open_page, engine):
    ids = _players(engine, 8)
    at = open_page(PAGE, as_=ORGANIZER)
    at.number_input(key="draw_seed").set_value(4242).run()
    at.button(key="draw_go").click().run()
    first = store.seats(engine, actor=ORGANIZER)
    expected = draw.draw_sitting(ids, tournament.enabled_setups(engine), seed=4242)
    assert first["player_id"].tolist() == expected.seats["player_id"].tolist()

    assert at.button(key="draw_go").label.startswith("Draw again")
    assert at.number_input(key="draw_seed").value != 4242  # a fresh seed for the next draw…
    assert at.number_input(key="draw_seed").label.startswith("Seed for the next draw")
    assert ("The unpublished draw below was drawn from seed 4242; Draw again uses the seed "
            "above.") in [c.value for c in at.caption]  # …said beside the draft's own
    at.button(key="draw_new_seed").click().run()
    new_seed = at.number_input(key="draw_seed").value
    at.button(key="draw_go").click().run()
    sittings = store.sittings(engine, actor=ORGANIZER)
    assert len(sittings) == 1 and int(sittings["seed"].iloc[0]) == new_seed
    assert len(store.events(engine, action="sitting.redraw", actor=ORGANIZER)) == 1


def test_organizer_leaves_out_and_adds_players(open_page, engine):
    ids = _players(engine, 9)
    extra = store.add_player(engine, "Late Comer", actor=ORGANIZER)["player_id"]
    at = open_page(PAGE, as_=ORGANIZER)
    assert at.multiselect(key="draw_add").options == ["Late Comer"]
    at.multiselect(key="draw_leave_out").set_value(ids[:4]).run()
    assert "5 players" in _shown(at) and at.button(key="draw_go").disabled
    at.multiselect(key="draw_add").set_value([extra]).run()
    assert "6 players: 2 tables (3 + 3)." in _shown(at)
    at.button(key="draw_go").click().run()
    seated = store.seats(engine, actor=ORGANIZER)["player_id"]
    assert sorted(seated) == sorted([*ids[4:], extra])


def test_check_ins_changed_elsewhere_do_not_break_the_choices(open_page, engine):
    ids = _players(engine, 8)
    at = open_page(PAGE, as_=ORGANIZER)
    at.multiselect(key="draw_leave_out").set_value(ids[:2]).run()
    store.check_in(engine, ids[:1], checked_in=False, actor=ORGANIZER)
    st.cache_data.clear()  # as after the Roster page's write
    at.run()
    assert not at.exception
    assert at.multiselect(key="draw_leave_out").value == [ids[1]]
    assert "6 players: 2 tables (3 + 3)." in _shown(at)


@pytest.mark.parametrize("n, message", [(2, "check in at least 1 more player"),
                                        (1, "check in at least 2 more players")])
def test_counts_that_cannot_be_seated_say_why(open_page, engine, n, message):
    _players(engine, n)
    at = open_page(PAGE, as_=ORGANIZER)
    assert any(message in e.value for e in at.error)
    assert at.button(key="draw_go").disabled
    assert not store.sittings(engine, actor=ORGANIZER).shape[0]


def test_R1_five_players_offer_a_sit_out(open_page, engine):
    ids = _players(engine, 5)
    at = open_page(PAGE, as_=ORGANIZER)
    assert any("sit this sitting out" in e.value for e in at.error)
    assert at.button(key="draw_go").disabled
    at.checkbox(key="draw_sit_out").check().run()
    assert not at.error and "1 player to sit this sitting out" in _shown(at)
    at.button(key="draw_go").click().run()
    assert not at.exception
    sitting_id = store.sittings(engine, actor=ORGANIZER)["sitting_id"].iloc[0]
    outs = store.sit_outs(engine, sitting_id, actor=ORGANIZER)
    assert len(outs) == 1 and outs["player_id"].iloc[0] in ids
    assert len(store.seats(engine, sitting_id, actor=ORGANIZER)) == 4
    assert f"sitting out: {outs['name'].iloc[0]}" in _shown(at)


def test_R6_override_shows_the_warning_first_then_records_the_reason(open_page, engine):
    store.set_settings(engine, {"enabled_setups": ["legacy-ix", "uprising", "legacy-imm"]},
                       actor=ORGANIZER)
    sitting = _drawn(engine, 8)
    tables = store.tables(engine, sitting["sitting_id"], actor=ORGANIZER)
    first, second = tables.itertuples()
    at = open_page(PAGE, as_=ORGANIZER)
    at.selectbox(key="draw_ovr_table").set_value(first.table_id).run()
    at.selectbox(key="draw_ovr_setup").set_value(second.setup_id).run()
    assert any("Another table of this sitting" in w.value for w in at.warning)
    assert store.tables(engine, table_id=first.table_id, actor=ORGANIZER)[
        "setup_id"].iloc[0] == first.setup_id, "nothing changes before confirming"

    at.button(key="draw_ovr_go").click().run()
    assert any("Give a reason" in e.value for e in at.error)
    at.text_input(key="draw_ovr_reason").input("Second Uprising box missing")
    at.button(key="draw_ovr_go").click().run()
    assert not at.exception
    table = store.tables(engine, table_id=first.table_id, actor=ORGANIZER).iloc[0]
    assert table["setup_id"] == second.setup_id and table["setup_override"]
    logged = store.events(engine, action="table.override_setup", actor=ORGANIZER)
    assert logged["after"].iloc[-1]["reason"] == "Second Uprising box missing"
    assert "now plays" in at.success[0].value


def test_organizer_publishes_and_then_cannot_redraw_that_sitting(open_page, engine):
    sitting = _drawn(engine, 8)
    at = open_page(PAGE, as_=ORGANIZER)
    at.button(key="draw_publish").click().run()
    assert not at.exception
    assert store.sitting(engine, sitting["sitting_id"])["status"] == "published"
    assert "Published" in at.success[0].value
    keys = [b.key for b in at.button]
    assert "draw_publish" not in keys and "draw_discard" not in keys
    assert at.button(key="draw_go").label == "Draw", "the next draw is a new sitting"
    with pytest.raises(store.InvalidState):
        store.save_draw(engine, draw.draw_sitting(
            store.players(engine)["player_id"].tolist(), tournament.enabled_setups(engine),
            seed=1), kind="qualifier", actor=ORGANIZER, sitting_id=sitting["sitting_id"])


def test_the_draw_warns_when_the_check_ins_are_the_last_sittings(open_page, engine):
    """Published qualifier 1 and nobody checked in since: the draw form says so by the Draw
    button (this organizer drew a sitting from the last one's check-ins once)."""
    _drawn(engine, 8, publish=True)
    at = open_page(PAGE, as_=ORGANIZER)
    assert "All 8 players checked in were checked in before Qualifier 1 was drawn" in \
        " ".join(w.value for w in at.warning)
    store.clear_check_ins(engine, actor=ORGANIZER)
    store.check_in(engine, store.players(engine)["player_id"].tolist()[:4], actor=ORGANIZER)
    at.run()
    assert not [w for w in at.warning if "before Qualifier 1" in w.value]


def test_organizer_discards_a_draft(open_page, engine):
    _drawn(engine, 8)
    at = open_page(PAGE, as_=ORGANIZER)
    at.button(key="draw_discard").click().run()
    assert not at.exception
    assert store.sittings(engine, actor=ORGANIZER).empty
    assert len(store.events(engine, action="sitting.discard", actor=ORGANIZER)) == 1


# --- judges and spectators (R20) ---------------------------------------------------------------

def test_judge_sees_the_draft_with_pick_order_and_removed_leaders(open_page, engine):
    sitting = _drawn(engine, 8)
    at = open_page(PAGE, as_=JUDGE)
    assert not at.exception
    text = _shown(at)
    assert "Not published yet" in text
    assert "Pick order" in at.dataframe[0].value.columns
    assert all(name in text for name in _removed(engine, sitting["sitting_id"]))
    keys = [b.key for b in at.button]
    assert not {"draw_go", "draw_publish", "draw_discard", "draw_ovr_go"} & set(keys)


def test_spectator_never_sees_an_unpublished_draw(open_page, engine):
    sitting = _drawn(engine, 8)
    at = open_page(PAGE)
    assert not at.exception
    assert not at.dataframe and not at.selectbox
    assert any("No draw has been published yet" in i.value for i in at.info)
    names = store.seats(engine, sitting["sitting_id"], actor=ORGANIZER)["name"]
    assert not any(name in _shown(at) for name in names)


def test_spectator_sees_published_seats_but_never_removed_leaders(open_page, engine):
    sitting = _drawn(engine, 8, publish=True)
    draft = tournament.draw_qualifier(engine, store.players(engine)["player_id"].tolist(),
                                      seed=99, confirm=True, actor=ORGANIZER)
    at = open_page(PAGE)
    assert not at.exception
    assert list(at.selectbox(key="draw_sitting").options) == ["Qualifier 1 · being played"]
    seats, setups = (df.value for df in at.dataframe)
    assert list(seats.columns) == ["Table", "Seat", "Colour", "Player"]
    assert list(setups.columns) == ["Table", "Setup"]  # no removed leaders
    assert len(seats) == 8 and len(setups) == 2
    text = _shown(at)
    removed = set(_removed(engine, sitting["sitting_id"]))
    removed |= set(_removed(engine, draft["sitting_id"]))
    assert not any(name in text for name in removed)
    assert "Removed leaders" not in text


def test_a_phone_sees_every_seat_and_each_tables_setup_without_a_swipe(open_page, engine,
                                                                      monkeypatch):
    """Table, seat, colour and player fit a phone (about 360 px); the setups follow in their
    own table; every row shows, with no inner scroll (13 players: 13 rows)."""
    sitting = _drawn(engine, 13, publish=True)
    seats = store.seats(engine, sitting["sitting_id"], actor=ORGANIZER)
    tables = store.tables(engine, sitting["sitting_id"], actor=ORGANIZER)
    heights, real = [], st.delta_generator.DeltaGenerator.dataframe

    def spy(self, data, *args, **kwargs):
        heights.append(kwargs.get("height"))
        return real(self, data, *args, **kwargs)
    monkeypatch.setattr(st.delta_generator.DeltaGenerator, "dataframe", spy)
    at = open_page(PAGE)
    shown, setups = at.dataframe
    assert len(shown.value) == 13 and len(setups.value) == len(tables) == 4
    assert sorted(shown.value["Player"]) == sorted(seats["name"])
    assert setups.value["Setup"].tolist() == [tournament.setup_names()[s]
                                              for s in tables["setup_id"]]
    assert heights[-2:] == ["content", "content"]  # all rows, no inner scroll
    widths = json.loads(shown.proto.columns)
    assert sum(widths[c]["width"] for c in ("Table", "Seat", "Colour")) + 110 <= 360


def test_colours_are_tags_of_that_colour_with_the_name_on_them(open_page, engine):
    """Each seat's colour is its name on a tag of that colour, drawn by the table (no emoji,
    which a laptop without a colour emoji font shows as empty boxes)."""
    from stsa.ui import sittings
    _drawn(engine, 8, publish=True)
    at = open_page(PAGE)
    seats = at.dataframe[0]
    column = json.loads(seats.proto.columns)["Colour"]
    assert column["type_config"]["type"] == "multiselect"
    tags = {o["value"]: o["color"] for o in column["type_config"]["options"]}
    assert tags == {c: sittings.COLOUR_TAGS[c] for c in ("red", "green", "blue", "yellow")}
    assert sorted(seats.value["Colour"].map(list).sum()) == sorted(
        ["red", "green", "blue", "yellow"] * 2)
    assert not seats.proto.arrow_data.styler.styles, "no styled cells: one column's settings"


def test_search_finds_a_players_table(open_page, engine):
    sitting = _drawn(engine, 8, publish=True)
    seats = store.seats(engine, sitting["sitting_id"], actor=ORGANIZER)
    target = seats.iloc[5]
    at = open_page(PAGE)
    at.text_input(key="draw_search").input(target["name"].upper()).run()
    shown = at.dataframe[0].value
    assert set(shown["Table"]) == {target["table_no"]} and len(shown) == 4
    at.text_input(key="draw_search").input("nobody like this").run()
    assert any("No player of this sitting" in i.value for i in at.info)


def test_names_full_of_markup_show_as_text(open_page, engine):
    ids = store.import_players(engine, pd.DataFrame({"name": ["**Bold** <b>x</b>", "A", "B"]}),
                               actor=ORGANIZER)["player_id"].tolist()
    store.check_in(engine, ids, actor=ORGANIZER)
    sitting = tournament.draw_qualifier(engine, ids, seed=3, actor=ORGANIZER)
    store.publish_sitting(engine, sitting["sitting_id"], actor=ORGANIZER)
    at = open_page(PAGE)
    assert "**Bold** <b>x</b>" in at.dataframe[0].value["Player"].tolist()


# --- paper: slips and pairings (staff only, R20) ------------------------------------------------

PDFS = ["slips", "slips-judges", "pairings-by-name", "pairings-by-table"]




@pytest.fixture
def qr_urls(monkeypatch):
    """Every address a slip's QR code encodes."""
    seen, real = [], slips._qr_matrix
    monkeypatch.setattr(slips, "_qr_matrix", lambda url: seen.append(url) or real(url))
    return seen


def _pdf_text(data: bytes) -> str:
    assert data.startswith(b"%PDF")
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def _made(downloads, kind) -> bytes:
    return downloads[f"draw_pdf_{kind}"][1]()


def test_organizer_prints_slips_and_pairings_of_a_draft(open_page, engine, downloads, qr_urls):
    sitting = _drawn(engine, 8)
    at = open_page(PAGE, as_=ORGANIZER)
    assert not at.exception
    assert [downloads[f"draw_pdf_{k}"][0] for k in PDFS] == [
        f"stsa-qualifier-1-{k}.pdf" for k in PDFS]
    removed = _removed(engine, sitting["sitting_id"])
    players = _pdf_text(_made(downloads, "slips"))
    judges = _pdf_text(_made(downloads, "slips-judges"))
    assert "Players' copy" in players and "Judges' copy" in judges
    assert not any(name in players for name in removed)  # R20
    assert any(name in judges for name in removed)
    tables = store.tables(engine, sitting["sitting_id"], actor=ORGANIZER)["table_id"].tolist()
    assert qr_urls == [f"http://localhost:8501/results?table={t}" for t in tables] * 2
    seats = store.seats(engine, sitting["sitting_id"], actor=ORGANIZER)
    by_name = _pdf_text(_made(downloads, "pairings-by-name"))
    assert all(name in by_name for name in seats["name"])
    assert "Tables" in _pdf_text(_made(downloads, "pairings-by-table"))
    warning = " ".join(shown(at.warning))
    assert "http://localhost:8501/results?table=…" in warning
    assert "only this laptop opens that address, not the phones" in warning
    assert "App address for the QR codes" in warning, "where to set one"


def test_qr_codes_follow_the_laptops_network_address_not_localhost(
        open_page, engine, downloads, qr_urls, monkeypatch):
    """The organizer's browser on the laptop itself (localhost): the QR codes open the
    laptop's address on the venue's network, as the server found and printed it at start."""
    from stsa.web import server
    monkeypatch.setattr(server, "SERVED", server.venue(
        "0.0.0.0", 8501, names=["venue-laptop", "localhost", "192.0.2.7", "127.0.0.1"]))
    monkeypatch.setattr(st, "context", SimpleNamespace(url="http://localhost:8501/draw"))
    sitting = _drawn(engine, 4)
    at = open_page(PAGE, as_=ORGANIZER)
    assert not at.exception
    assert not any("QR codes" in w for w in shown(at.warning))
    _made(downloads, "slips")
    _made(downloads, "pairings-by-name")
    table = int(store.tables(engine, sitting["sitting_id"], actor=ORGANIZER)["table_id"][0])
    assert qr_urls == [f"http://192.0.2.7:8501/results?table={table}",
                       "http://192.0.2.7:8501/player"]
    assert any("QR codes open http://192.0.2.7:8501/results?table=…" in c
               and "venue's network" in c for c in shown(at.caption))


def test_organizer_sets_the_address_the_qr_codes_open(open_page, engine, downloads, qr_urls):
    sitting = _drawn(engine, 4)
    at = open_page(PAGE, as_=ORGANIZER)
    at.text_input(key="draw_public_url").input(" http://192.168.1.20:8501/ ")
    at.button(key="draw_public_url_save").click().run()
    assert not at.exception
    assert store.settings(engine)["public_url"] == "http://192.168.1.20:8501"
    assert shown(at.success) == ["QR codes now open http://192.168.1.20:8501."]
    assert not any("QR codes" in w for w in shown(at.warning))
    assert any("http://192.168.1.20:8501/player (pairings by name): the address set here" in c
               for c in shown(at.caption))
    _made(downloads, "slips")
    table = int(store.tables(engine, sitting["sitting_id"], actor=ORGANIZER)["table_id"][0])
    assert qr_urls == [f"http://192.168.1.20:8501/results?table={table}"]


def test_a_bad_address_is_refused_and_changes_nothing(open_page, engine):
    _drawn(engine, 4)
    at = open_page(PAGE, as_=ORGANIZER)
    at.text_input(key="draw_public_url").input("192.168.1.20:8501")
    at.button(key="draw_public_url_save").click().run()
    assert "public_url must start with http:// or https://" in shown(at.error)[0]
    assert store.settings(engine)["public_url"] is None


def test_judge_prints_but_does_not_set_the_address(open_page, engine, downloads):
    _drawn(engine, 8)
    at = open_page(PAGE, as_=JUDGE)
    assert not at.exception
    assert set(downloads) == {f"draw_pdf_{k}" for k in PDFS}
    assert "Judges' copy" in _pdf_text(_made(downloads, "slips-judges"))
    assert not any(t.key == "draw_public_url" for t in at.text_input)
    assert "The organizer can set the address phones reach on the Draw page." in _shown(at)


def test_spectator_gets_no_slips_or_lists_even_when_published(open_page, engine, downloads):
    _drawn(engine, 8, publish=True)
    at = open_page(PAGE)
    assert not at.exception and at.dataframe  # the published draw is shown
    assert downloads == {} and not at.get("download_button")
    assert not any(t.key == "draw_public_url" for t in at.text_input)
    assert "QR codes" not in _shown(at)


@pytest.mark.parametrize("seen, base", [
    ("http://10.0.0.5:8501/draw", "http://10.0.0.5:8501"),
    ("https://club.example.org/stsa/draw/", "https://club.example.org/stsa"),
    ("http://10.0.0.5:8501", "http://10.0.0.5:8501"),
    (None, None),
])
def test_the_browsers_address_without_the_page(monkeypatch, seen, base):
    monkeypatch.setattr(st, "context", SimpleNamespace(url=seen))
    assert data_tools.browser_url("draw") == base
    assert data_tools.slip_base(Settings.of({"public_url": None})) == (base or data_tools.LOCAL_URL)
    assert data_tools.slip_base(Settings.of({"public_url": "http://192.168.1.20:8501"})) == \
        "http://192.168.1.20:8501"


def test_file_names_from_sitting_names():
    assert data_tools.slug("Qualifier 12") == "qualifier-12"
    assert data_tools.slug("Final") == "final"


# --- fair draws: the draw mode, pins and the draw report -----------------------------------------

def _again(engine, ids, seed=21):
    """Qualifier 1 published, then a draft of qualifier 2 for the same players."""
    first = tournament.draw_qualifier(engine, ids, seed=seed, actor=ORGANIZER)
    store.publish_sitting(engine, first["sitting_id"], actor=ORGANIZER)
    return tournament.draw_qualifier(engine, ids, seed=seed + 1, confirm=True, actor=ORGANIZER)


def test_balanced_mode_draws_against_the_published_qualifiers(open_page, engine):
    store.set_settings(engine, {"draw_mode": "balanced"}, actor=ORGANIZER)
    ids = _players(engine, 16)
    first = tournament.draw_qualifier(engine, ids, seed=5, actor=ORGANIZER)
    store.publish_sitting(engine, first["sitting_id"], actor=ORGANIZER)
    history = draws.history(Snapshot(engine))
    at = open_page(PAGE, as_=ORGANIZER)
    assert "Draw mode: Balanced" in _shown(at)
    at.checkbox(key="draw_confirm").check()  # qualifier 1 is still being played
    at.number_input(key="draw_seed").set_value(777).run()
    at.button(key="draw_go").click().run()
    assert not at.exception
    draft = store.sittings(engine, actor=ORGANIZER).iloc[-1]
    seats = store.seats(engine, int(draft["sitting_id"]), actor=ORGANIZER)
    expected = draw.draw_sitting(
        ids, tournament.enabled_setups(engine), seed=777, setup_counts=store.setup_counts(engine),
        mode="balanced", history=history)
    assert seats["player_id"].tolist() == expected.seats["player_id"].tolist()
    report = tournament.draw_report(engine, int(draft["sitting_id"]))
    assert report.summary()["repeat_pairs"] == 0  # 16 players: no one need meet again
    assert "0 pairs of players meet again" in _shown(at)


def test_organizer_and_judge_see_the_repeats_of_a_draft(open_page, engine):
    ids = _players(engine, 4)
    _again(engine, ids)  # one table twice: all 6 pairs meet again
    for who in (ORGANIZER, JUDGE):
        at = open_page(PAGE, as_=who)
        assert not at.exception
        text = _shown(at)
        assert "6 pairs of players meet again" in text
        assert "0 players play a setup again" in text  # R6: 16 setups, none repeated
        repeats = next(df.value for df in at.dataframe if "Meets again" in df.value.columns)
        assert len(repeats) == 6 and set(repeats["Met before"]) == {1}
        assert "Player 01" in set(repeats["Player"]) | set(repeats["Meets again"])


def test_spectator_never_sees_the_draw_report(open_page, engine):
    ids = _players(engine, 4)
    draft = _again(engine, ids)
    store.publish_sitting(engine, draft["sitting_id"], actor=ORGANIZER)
    at = open_page(PAGE)
    assert not at.exception
    assert "meet again" not in _shown(at) and "Fairness check" not in _shown(at)


def test_organizer_pins_a_player_to_a_table(open_page, engine):
    ids = _players(engine, 8)
    at = open_page(PAGE, as_=ORGANIZER)
    at.multiselect(key="draw_pins").set_value([ids[0]]).run()
    at.number_input(key=f"draw_pin_{ids[0]}").set_value(2).run()
    at.button(key="draw_go").click().run()
    assert not at.exception
    seats = store.seats(engine, actor=ORGANIZER)
    assert seats.loc[seats["player_id"] == ids[0], "table_no"].tolist() == [2]


def test_a_pin_to_a_table_the_sitting_lacks_is_refused(open_page, engine):
    ids = _players(engine, 8)
    at = open_page(PAGE, as_=ORGANIZER)
    at.multiselect(key="draw_pins").set_value([ids[0]]).run()
    at.number_input(key=f"draw_pin_{ids[0]}").set_value(3).run()
    assert "Player 01 keeps table 3, but this sitting has 2 tables" in _shown(at)
    assert at.button(key="draw_go").disabled


def test_too_many_pins_at_a_table_are_refused_and_nothing_is_drawn(open_page, engine):
    ids = _players(engine, 7)  # 4 + 3
    at = open_page(PAGE, as_=ORGANIZER)
    at.multiselect(key="draw_pins").set_value(ids[:4]).run()
    for pid in ids[:4]:
        at.number_input(key=f"draw_pin_{pid}").set_value(2).run()
    at.button(key="draw_go").click().run()
    assert any("Table 2 has 3 seats" in e.value for e in at.error)
    assert store.sittings(engine, actor=ORGANIZER).empty


# --- corrections after publishing: void, a no-show, a draw while a sitting is played ---------

CORRECTIONS = {"draw_confirm", "draw_void_go", "draw_void_sure", "draw_noshow", "draw_taker",
               "draw_noshow_go"}


def _keys(at) -> set:
    return {w.key for kind in ("button", "checkbox", "selectbox") for w in getattr(at, kind)}


def _report(engine, table_id):
    """A judge saves a valid result for the table (its own leaders)."""
    seats = store.seats(engine, table_id=table_id, actor=ORGANIZER)
    leaders = store.tables(engine, table_id=table_id, actor=ORGANIZER)["available_leaders"][0]
    rows = [{"player_id": int(p), "leader": leader, "vp": 12 - seat, "spice": 0, "solari": 0,
             "troops": 0, "water": 0} for p, seat, leader in
            zip(seats["player_id"], seats["seat"], leaders)]
    store.submit_table_result(engine, table_id, rows, expected_version=0, submission_id=None,
                              actor=JUDGE)


def test_drawing_while_a_sitting_is_played_asks_first(open_page, engine):
    _drawn(engine, 8, publish=True)
    at = open_page(PAGE, as_=ORGANIZER)
    assert "Qualifier 1 is still being played: 2 of 2 tables have no result yet." in _shown(at)
    assert at.button(key="draw_go").disabled
    at.checkbox(key="draw_confirm").check().run()
    at.button(key="draw_go").click().run()
    assert not at.exception
    assert "Qualifier 2 drawn from seed" in at.success[0].value
    assert len(store.sittings(engine, actor=ORGANIZER)) == 2


def test_organizer_voids_a_sitting_published_by_mistake(open_page, engine):
    sitting = _drawn(engine, 8, publish=True, seed=31)
    at = open_page(PAGE, as_=ORGANIZER)
    assert {"Void Qualifier 1", "A player did not come"} <= {e.label for e in
                                                             at.get("expander")}
    assert at.button(key="draw_void_go").disabled, "nothing happens without the tick"
    at.text_input(key="draw_void_reason").input("Published before the late arrivals")
    at.checkbox(key="draw_void_sure").check().run()
    at.button(key="draw_void_go").click().run()
    assert not at.exception
    assert shown(at.success) == ["Qualifier 1 was voided; its seed and seating stay in the log."]
    assert store.sittings(engine, actor=ORGANIZER).empty
    logged = store.events(engine, action="sitting.void", actor=ORGANIZER).iloc[-1]
    assert logged["before"]["seed"] == 31 and len(logged["before"]["seats"]) == 8
    assert logged["after"]["reason"] == "Published before the late arrivals"
    assert at.button(key="draw_go").label == "Draw"
    spectator = open_page(PAGE)
    assert any("No draw has been published yet" in i.value for i in spectator.info)
    again = tournament.draw_qualifier(engine, store.players(engine)["player_id"].tolist(),
                                      seed=32, actor=ORGANIZER)
    assert again["number"] == sitting["number"] == 1, "the next draw takes its number"


def test_a_sitting_with_a_result_cannot_be_voided(open_page, engine):
    sitting = _drawn(engine, 8, publish=True)
    _report(engine, int(store.tables(engine, sitting["sitting_id"],
                                     actor=ORGANIZER)["table_id"][0]))
    at = open_page(PAGE, as_=ORGANIZER)
    assert "Qualifier 1 cannot be voided: 1 table already has a result." in _shown(at)
    assert "draw_void_go" not in _keys(at)


def test_organizer_seats_a_present_player_for_a_no_show(open_page, engine):
    sitting = _drawn(engine, 8, publish=True)
    late = store.add_player(engine, "Late Comer", actor=ORGANIZER)["player_id"]
    store.check_in(engine, [late], actor=ORGANIZER)
    seats = store.seats(engine, sitting["sitting_id"], actor=ORGANIZER)
    gone = seats.iloc[1]
    at = open_page(PAGE, as_=ORGANIZER)
    at.selectbox(key="draw_noshow").set_value(int(gone["player_id"])).run()
    assert at.selectbox(key="draw_taker").options == [
        f"Nobody: table {gone['table_no']} plays with 3", "Late Comer"]
    at.selectbox(key="draw_taker").set_value(late).run()
    at.button(key="draw_noshow_go").click().run()
    assert not at.exception
    assert shown(at.success) == [f"Late Comer takes seat {gone['seat']} at Qualifier 1, table "
                                 f"{gone['table_no']} in place of {gone['name']}."]
    now = store.seats(engine, sitting["sitting_id"], actor=ORGANIZER).iloc[1]
    assert (now["player_id"], now["seat"], now["colour"]) == (late, gone["seat"],
                                                              gone["colour"])
    assert "Late Comer" in at.dataframe[0].value["Player"].tolist()


def test_a_no_show_is_found_by_the_nickname_the_judge_reports(open_page, engine):
    """Judges report players by the nickname the table knows: both choice boxes show it
    beside the name, so typing it finds the player."""
    ids = store.import_players(engine, [{"name": f"Player {i}", "nickname": f"Worm {i}"}
                                        for i in range(1, 9)], actor=ORGANIZER)["player_id"]
    store.check_in(engine, ids.tolist(), actor=ORGANIZER)
    sitting = tournament.draw_qualifier(engine, ids.tolist(), seed=3, actor=ORGANIZER)
    store.publish_sitting(engine, sitting["sitting_id"], actor=ORGANIZER)
    late = store.add_player(engine, "Late Comer", nickname="Sietch Runner",
                            actor=ORGANIZER)["player_id"]
    store.check_in(engine, [late], actor=ORGANIZER)
    seats = store.seats(engine, sitting["sitting_id"], actor=ORGANIZER)
    at = open_page(PAGE, as_=ORGANIZER)
    gone = seats.iloc[0]
    labels = at.selectbox(key="draw_noshow").options
    assert f"{gone['name']} (Worm {gone['name'].split()[-1]}) · table {gone['table_no']}, " \
           f"seat {gone['seat']}" in labels
    at.selectbox(key="draw_noshow").set_value(int(gone["player_id"])).run()
    assert "Late Comer (Sietch Runner)" in at.selectbox(key="draw_taker").options


def test_who_plays_offers_no_select_all(open_page, engine):
    """A tap on "Select all" would leave everyone out (or seat every absent player)."""
    _players(engine, 8)
    at = open_page(PAGE, as_=ORGANIZER)
    for box in ("draw_leave_out", "draw_add", "draw_pins"):
        assert at.multiselect(key=box).proto.select_all == 0, box


def test_organizer_lets_a_table_of_four_play_with_three_but_not_three_with_two(
        open_page, engine):
    sitting = _drawn(engine, 7, publish=True)  # 4 + 3
    seats = store.seats(engine, sitting["sitting_id"], actor=ORGANIZER)
    at = open_page(PAGE, as_=ORGANIZER)
    at_three = int(seats.loc[seats["table_no"] == 2, "player_id"].iloc[0])
    at.selectbox(key="draw_noshow").set_value(at_three).run()
    assert "Table 2 has 3 players, the fewest a table can play with" in _shown(at)
    assert any("No checked-in player is free" in i.value for i in at.info)
    at_four = int(seats.loc[seats["table_no"] == 1, "player_id"].iloc[0])
    at.selectbox(key="draw_noshow").set_value(at_four).run()
    at.selectbox(key="draw_taker").set_value(0).run()
    at.button(key="draw_noshow_go").click().run()
    assert not at.exception
    assert "the table now plays with 3" in at.success[0].value
    tables = store.tables(engine, sitting["sitting_id"], actor=ORGANIZER)
    assert tables["players"].tolist() == [3, 3]


@pytest.mark.parametrize("who", [JUDGE, None], ids=["judge", "spectator"])
def test_judges_and_spectators_get_no_corrections(open_page, engine, who):
    _drawn(engine, 8, publish=True)
    late = store.add_player(engine, "Late Comer", actor=ORGANIZER)["player_id"]
    store.check_in(engine, [late], actor=ORGANIZER)
    at = open_page(PAGE, as_=who)
    assert not at.exception and at.dataframe
    assert not CORRECTIONS & _keys(at)
    assert not [e for e in at.get("expander") if "Void" in e.label or "did not come" in e.label]
    assert "still being played" not in _shown(at)


def test_every_text_box_has_a_length_limit(open_page, engine):
    """The search and every reason the organizer types are cut where the store would refuse
    them."""
    _drawn(engine, 8, publish=True)
    spectator = open_page(PAGE)
    assert spectator.text_input(key="draw_search").proto.max_chars == 60
    at = open_page(PAGE, as_=ORGANIZER)
    limits = {box.key: box.proto.max_chars for box in at.text_input}
    assert limits["draw_search"] == 60
    assert limits["draw_ovr_reason"] == limits["draw_void_reason"] == 500


def test_the_fairness_check_reads_as_a_sentence_for_one_and_for_many():
    """Each line of the draw's fairness check agrees with its count: "1 player gets a seat …",
    "2 players get a seat …"."""
    from stsa import fairness
    from stsa.ui import draw_options

    def report(n: int) -> fairness.DrawReport:
        ids = list(range(1, n + 1))
        return fairness.DrawReport(
            repeats=pd.DataFrame({"table_no": [1] * n, "name_a": ["A"] * n, "name_b": ["B"] * n,
                                  "met_before": [1] * n, "player_a": ids, "player_b": ids}),
            seats=pd.DataFrame({"table_no": [1] * n, "seat": [1] * n, "name": ["A"] * n,
                                "times_before": [2] * n, "games_before": [2] * n,
                                "player_id": ids}),
            setups=pd.DataFrame({"table_no": [1] * n, "name": ["A"] * n,
                                 "setup_id": ["uprising"] * n, "times_before": [1] * n,
                                 "player_id": ids}))

    assert [line for line, _ in draw_options.report_items(report(1))] == [
        "1 pair of players meets again", "1 player gets a seat they had most often or twice",
        "1 player plays a setup again"]
    assert [line for line, _ in draw_options.report_items(report(2))] == [
        "2 pairs of players meet again", "2 players get a seat they had most often or twice",
        "2 players play a setup again"]
