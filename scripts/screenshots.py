"""Screenshots of the pages for the README, taken in a real browser.

Starts the app twice on free ports with throwaway databases (as the browser tests do); in each,
the organizer signs in and loads the demo tournament from the Home page (24 players, three
completed qualifiers). Then it photographs, into docs/:

- the demo as loaded: standings-desktop.png and standings-phone.png (a spectator, 1280 and
  390 px wide), finals-desktop.png (a spectator), roster.png, settings.png (the organizer),
  finals-organizer.png (the organizer, with the semifinal drawn and not yet published), then,
  once a judge has entered the semifinals and the final, finals-standings.png (a spectator);
- a fourth qualifier in progress (the second app): draw-waiting.png (the organizer's Draw page
  with the seat limit set to 20: four players wait, before a fifth table is opened),
  draw-organizer.png (the organizer's view of the draft), draw-phone.png (a spectator's phone
  once it is published), results-phone.png (a judge entering a table on a phone, with the
  preview), player-phone.png and
  player-desktop.png (a player's own page, found by nickname, then its bookmarked address),
  home-organizer.png (the organizer's Home page while results come in) and log.png;
- a convention morning (a third app): schedule.png, bookings-check-in.png, clock-tv.png and
  clock-results-phone.png (`a_convention_morning`).

Run from the repository: `.venv/bin/python scripts/screenshots.py [--out docs] [--only
morning]`. Player colours
are shown with emoji: install an emoji font (Debian: fonts-noto-color-emoji) for them to show.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.conftest import (  # noqa: E402
    DESKTOP,
    JUDGE_PIN,
    ORGANIZER_PIN,
    PHONE,
    click,
    enter_result,
    fill_seat,
    go_to,
    launch_browser,
    leaders,
    load,
    new_page,
    number,
    open_table,
    run_app,
    seat,
    sign_in,
    type_text,
    wait_ready,
)

MAIN = '[data-testid="stMainBlockContainer"]'


def settle(page) -> None:
    """Wait until every visible table has painted (tables draw on a canvas after the text
    loads; one inside a folded section, or with a heading and no rows, has no cell to paint)
    and every live element has drawn."""
    wait_ready(page)
    page.wait_for_function(
        """() => [...document.querySelectorAll('[data-testid="stDataFrame"]')]
                 .filter(t => t.checkVisibility() && !t.closest('details:not([open])')
                              && t.getBoundingClientRect().height > 80)
                 .every(t => t.querySelector('[data-testid^="glide-cell-"]'))""")
    for element in page.locator(".stsa-live").all():  # a live element has drawn its answer
        element.and_(page.locator("[data-state]")).wait_for()
    page.mouse.move(0, 0)  # no table toolbar shown for a hovering mouse
    page.evaluate("document.activeElement && document.activeElement.blur()")  # no focus ring
    page.wait_for_timeout(500)  # the canvas paints on the next frames


def shoot(page, path: Path, height: int, *, main: bool = False, top=None) -> None:
    """Photograph the page `height` px tall. `main`: only the main column (no sidebar), from
    its title or from the element `top` (a locator), at most `height` px of it."""
    cut = main or top is not None
    width = page.viewport_size["width"]
    page.set_viewport_size({"width": width, "height": 6000 if cut else height})
    settle(page)
    if cut:  # the whole page fits the tall window: cut the part wanted
        box = page.locator(MAIN).bounding_box()
        start = (top if top is not None else page.locator(f"{MAIN} h1").first
                 ).bounding_box()["y"] - 16
        bottom = min(box["y"] + box["height"], start + height)
        page.screenshot(path=str(path), clip={"x": box["x"], "y": start, "width": box["width"],
                                              "height": bottom - start})
    else:
        page.screenshot(path=str(path))
    page.set_viewport_size({"width": width, "height": DESKTOP["height"]})
    print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


def person(browser, app, viewport, who: tuple[str, str] | None = None, path: str = ""):
    page = new_page(browser, viewport)
    load(page, f"{app.url}/{path}")
    if who:
        sign_in(page, *who)
    return page


def organizer_with_demo(browser, app):
    organizer = person(browser, app, DESKTOP, ("Olivia", ORGANIZER_PIN))
    go_to(organizer, "Home")
    click(organizer, "Load demo tournament", expect="Demo tournament loaded")
    return organizer


# (vp, spice, solari, troops, water) by seat: every VP differs, so nobody ties.
SEMIFINALS = [[(4, 2, 1, 0, 1), (12, 1, 3, 2, 0), (3, 0, 2, 1, 2), (2, 3, 0, 1, 1)],
              [(7, 1, 1, 2, 0), (5, 2, 0, 1, 1), (10, 0, 2, 3, 1), (3, 1, 3, 0, 2)]]
FINAL = [(9, 1, 2, 1, 0), (6, 2, 1, 0, 1), (11, 0, 3, 2, 1), (8, 3, 0, 1, 2)]


def the_demo(browser, app, out: Path) -> None:
    organizer = organizer_with_demo(browser, app)
    for name, viewport, height in (("desktop", DESKTOP, 1100), ("phone", PHONE, 1400)):
        spectator = person(browser, app, viewport, path="standings")
        spectator.get_by_text("go straight to the final").first.wait_for()
        shoot(spectator, out / f"standings-{name}.png", height)
        spectator.context.close()

    spectator = person(browser, app, DESKTOP, path="finals")
    spectator.get_by_text("go straight to the final").first.wait_for()
    shoot(spectator, out / "finals-desktop.png", 1000)
    spectator.context.close()

    go_to(organizer, "Roster")
    click(organizer, "Check in all active", expect="Checked in 24 more players.")
    shoot(organizer, out / "roster.png", 1050, main=True)
    go_to(organizer, "Settings")
    shoot(organizer, out / "settings.png", 1300, main=True)

    go_to(organizer, "Finals")
    click(organizer, "Draw the semifinal", expect="The semifinal is drawn")
    shoot(organizer, out / "finals-organizer.png", 1700, main=True)

    # The finals played out: both semifinals, then the final; a spectator's final standings.
    click(organizer, "Publish the semifinal", expect="The semifinal is published")
    judge = person(browser, app, DESKTOP, ("Jamal", JUDGE_PIN))
    go_to(judge, "Results")
    enter_result(judge, SEMIFINALS[0], table=1, sitting="Semifinal")
    enter_result(judge, SEMIFINALS[1], table=2)
    go_to(organizer, "Finals")
    click(organizer, "Draw the final", expect="The final is drawn")
    click(organizer, "Publish the final", expect="The final is published")
    go_to(judge, "Results")
    enter_result(judge, FINAL, table=1, sitting="Final")
    spectator = person(browser, app, DESKTOP, path="finals")
    shoot(spectator, out / "finals-standings.png", 1050,
          top=spectator.get_by_role("heading", name="Final standings"))


# Qualifier 4, table 1.
TABLE_1 = [(8, 2, 3, 1, 0), (11, 1, 4, 2, 1), (6, 4, 1, 0, 2), (9, 0, 2, 3, 1)]


def a_qualifier_in_progress(browser, app, out: Path) -> None:
    organizer = organizer_with_demo(browser, app)
    go_to(organizer, "Roster")
    click(organizer, "Check in all active", expect="Checked in 24 more players.")
    go_to(organizer, "Settings")  # 20 seats: four wait, then the organizer opens a fifth table
    seats = organizer.locator('input[aria-label="Seats per qualifier sitting"]').first
    seats.fill("20")
    seats.press("Tab")
    click(organizer, "Save settings", expect="Settings saved.")
    go_to(organizer, "Draw")
    shoot(organizer, out / "draw-waiting.png", 1100, main=True)
    number(organizer, "Extra tables of four, from the front of the waiting list", 1)
    click(organizer, "Draw", expect="Qualifier 4 drawn from seed")
    shoot(organizer, out / "draw-organizer.png", 1300,
          top=organizer.locator(".st-key-draw_sitting"))
    click(organizer, "Publish", expect="Published: everyone now sees this draw.")

    spectator = person(browser, app, PHONE, path="draw")
    spectator.locator('input[aria-label="Sitting"][value^="Qualifier 4"]').wait_for()
    shoot(spectator, out / "draw-phone.png", 820)
    spectator.context.close()

    # A player's own page: found by nickname on a phone, then the same address on a desktop.
    phone = person(browser, app, PHONE, path="player")
    type_text(phone, "Your nickname", "Chiara")
    click(phone, "Chiara Lindqvist")
    phone.get_by_text("Qualifier 4 · ").first.wait_for()
    shoot(phone, out / "player-phone.png", 1100)
    desktop = person(browser, app, DESKTOP, path=phone.url.split("/", 3)[3])
    desktop.get_by_text("Qualifier 4 · ").first.wait_for()
    shoot(desktop, out / "player-desktop.png", 900)
    for page in (phone, desktop):
        page.context.close()

    judge = person(browser, app, PHONE, ("Jamal", JUDGE_PIN))
    go_to(judge, "Results")
    enter_result(judge, TABLE_1, table=1, sitting="Qualifier 4")
    open_table(judge, 2)
    offered = leaders(judge)
    for n, values in enumerate([(7, 1, 2, 0, 1), (10, 3, 1, 2, 0), (5, 2, 2, 1, 1),
                                (9, 1, 0, 4, 2)], start=1):
        fill_seat(judge, n, values, offered[n - 1])
    judge.get_by_role("button", name="Save result", exact=True).wait_for()
    shoot(judge, out / "results-phone.png", 1000, top=seat(judge, 4))

    go_to(organizer, "Home")
    shoot(organizer, out / "home-organizer.png", 900)
    go_to(organizer, "Log")
    shoot(organizer, out / "log.png", 1000, main=True)


ROOM_ZONE = "Europe/Stockholm"
MORNING = [("Alia Brandt", "Sandrider"), ("Duncan Moss", "Swordmaster"),
           ("Gurney Hale", "Baliset"), ("Irulan Reyes", "Historian"), ("Jessica Lund", "Bene"),
           ("Leto Marsh", "Duke"), ("Liet Kynes", "Planetologist"), ("Paul Weir", "Usul")]


def a_convention_morning(browser, app, out: Path) -> None:
    """The day's timeline: the schedule (schedule.png, a spectator's phone), Qualifier 1's
    bookings at check-in (bookings-check-in.png, the organizer's Roster page, one player
    checked in on My seat), the TV's countdown once a judge started the clock
    (clock-tv.png) and the judges' clock box on a phone (clock-results-phone.png)."""
    import datetime as dt

    import pandas as pd

    from stsa import store
    from stsa.auth import Actor, Role

    olivia = Actor("Olivia", Role.ORGANIZER)
    engine = store.connect(app.database_url)
    try:
        store.import_players(engine, pd.DataFrame(MORNING, columns=["name", "nickname"]),
                             actor=olivia)
        store.set_settings(engine, {"time_zone": ROOM_ZONE, "time_words": "Pens down, please."},
                           actor=olivia)
        now = dt.datetime.now(dt.UTC).replace(second=0, microsecond=0)
        q1 = now + dt.timedelta(minutes=20)
        lunch = q1 + dt.timedelta(minutes=165)
        for title, kind, number, starts, minutes in (
                ("Player meeting", None, None, now - dt.timedelta(minutes=30), 15),
                ("", "qualifier", 1, q1, 150), ("Lunch", None, None, lunch, 45),
                ("", "qualifier", 2, lunch + dt.timedelta(minutes=60), 150),
                ("Prize giving", None, None, lunch + dt.timedelta(minutes=225), 30)):
            store.add_schedule_item(engine, title=title, sitting_kind=kind,
                                    sitting_number=number, starts_at=starts, minutes=minutes,
                                    actor=olivia)
        ids = store.players(engine).set_index("nickname")["player_id"].astype(int).to_dict()
    finally:
        engine.dispose()
    spectator = person(browser, app, PHONE, path="schedule")
    spectator.get_by_text("Times are in the tournament").first.wait_for()
    shoot(spectator, out / "schedule.png", 1300)
    spectator.context.close()

    organizer = person(browser, app, DESKTOP, ("Olivia", ORGANIZER_PIN))
    go_to(organizer, "Roster")
    part = organizer.locator('[data-testid="stExpander"]', has_text="Import a booking list")
    part.get_by_text("Import a booking list").click()
    rows = "Nickname,Booked at\n" + "\n".join(
        f"{nick},2026-03-01 10:{i:02d}" for i, (_, nick) in enumerate(MORNING))
    part.locator('input[type="file"]').set_input_files(
        {"name": "qualifier-1.csv", "mimeType": "text/csv", "buffer": rows.encode()})
    organizer.get_by_text("8 bookings").first.wait_for()
    wait_ready(organizer)
    click(organizer, "Import booking list", expect="Qualifier 1: 8 booked")
    tv = person(browser, app, DESKTOP, path="tv")
    shown = tv.get_by_text(re.compile(r"Check in on My seat with the code \d{5}"))
    shown.wait_for()
    code = re.search(r"code (\d{5})", shown.inner_text()).group(1)
    phone = person(browser, app, PHONE, path=f"player?player={ids['Bene']}")
    type_text(phone, "Code on the TV", code)
    click(phone, "Check me in", expect="You are checked in for Qualifier 1.")
    phone.context.close()
    organizer.get_by_text("Check in a list").first.wait_for()
    load(organizer, f"{app.url}/roster")
    wait_ready(organizer)
    shoot(organizer, out / "bookings-check-in.png", 900,
          top=organizer.get_by_text("Check-in for the next sitting").first)

    engine = store.connect(app.database_url)
    try:
        store.check_in(engine, [ids[nick] for _, nick in MORNING if nick != "Usul"],
                       actor=olivia)
    finally:
        engine.dispose()
    go_to(organizer, "Draw")
    click(organizer, "Draw", expect="Qualifier 1 drawn from seed")
    click(organizer, "Publish", expect="Published: everyone now sees this draw.")
    judge = person(browser, app, PHONE, ("Ana", JUDGE_PIN))
    go_to(judge, "Results")
    click(judge, "Start the clock")
    tv.locator('.stsa-countdown[data-state="running"]').first.wait_for()
    shoot(tv, out / "clock-tv.png", 1080)
    judge.locator(".stsa-countdown-time").first.wait_for()
    shoot(judge, out / "clock-results-phone.png", 1000)
    for page in (organizer, judge, tv):
        page.context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    parser.add_argument("--only", choices=["demo", "qualifier", "morning"],
                        help="photograph one part only")
    args = parser.parse_args()
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        browser = stack.enter_context(launch_browser())
        for part, shoot_part in (("demo", the_demo), ("qualifier", a_qualifier_in_progress),
                                 ("morning", a_convention_morning)):
            if args.only in (None, part):
                with run_app(tmp / part) as app:
                    shoot_part(browser, app, out)


if __name__ == "__main__":
    main()
