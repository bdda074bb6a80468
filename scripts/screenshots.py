"""Screenshots of the Standings and Finals pages for the README, taken in a real browser.

Starts the app on a free port with a throwaway database (as the browser tests do), signs in as
the organizer, loads the demo tournament from the Home page, then photographs:

- docs/standings-desktop.png and docs/standings-phone.png (a spectator, 1280 and 390 px wide),
- docs/finals-desktop.png (a spectator) and docs/finals-organizer.png (the organizer, with the
  semifinal drawn and not yet published).

Run from the repository: `.venv/bin/python scripts/screenshots.py [--out docs]`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.conftest import (DESKTOP, ORGANIZER_PIN, PHONE, go_to,  # noqa: E402
                                launch_browser, new_page, run_app, sign_in, wait_ready)


def settle(page) -> None:
    """Wait until every table has painted (tables draw on a canvas after the text loads)."""
    wait_ready(page)
    page.wait_for_function(
        """() => [...document.querySelectorAll('[data-testid="stDataFrame"]')]
                 .every(t => t.querySelector('[data-testid^="glide-cell-"]'))""")
    page.wait_for_timeout(500)  # the canvas paints on the next frames


def shoot(page, path: Path, height: int) -> None:
    page.set_viewport_size({"width": page.viewport_size["width"], "height": height})
    settle(page)
    page.screenshot(path=str(path))
    print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    out = parser.parse_args().out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, run_app(Path(tmp)) as app, \
            launch_browser() as browser:
        organizer = new_page(browser, DESKTOP)
        organizer.goto(app.url)
        wait_ready(organizer)
        sign_in(organizer, "Olivia", ORGANIZER_PIN)
        go_to(organizer, "Home")
        organizer.get_by_role("button", name="Load demo tournament").click()
        organizer.get_by_text("Demo tournament loaded").wait_for()

        for name, viewport, height in (("desktop", DESKTOP, 1100), ("phone", PHONE, 1400)):
            spectator = new_page(browser, viewport)
            spectator.goto(f"{app.url}/standings")
            spectator.get_by_text("go straight to the final").wait_for()
            shoot(spectator, out / f"standings-{name}.png", height)
            spectator.context.close()

        spectator = new_page(browser, DESKTOP)
        spectator.goto(f"{app.url}/finals")
        spectator.get_by_text("go straight to the final").first.wait_for()
        shoot(spectator, out / "finals-desktop.png", 1000)

        go_to(organizer, "Finals")
        organizer.get_by_role("button", name="Draw the semifinal").click()
        organizer.get_by_text("The semifinal is drawn").wait_for()
        shoot(organizer, out / "finals-organizer.png", 1750)


if __name__ == "__main__":
    main()
