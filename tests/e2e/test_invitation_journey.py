"""A judge signs in with no typing (README, "On the venue's network"): the organizer makes an
invitation on the Settings page, the judge's phone scans the QR code off the organizer's
screen, and opens the Results page signed in as that judge. The token never reaches the
server in an address (it stays after `#`), the session ends up in an HttpOnly cookie, and
withdrawing the invitation signs the judge out."""

import io

import pytest
import zxingcpp
from PIL import Image

from tests.e2e.conftest import ORGANIZER_PIN, PHONE, click, field, go_to, load, new_page, wait_ready

pytestmark = pytest.mark.e2e


def scan(page) -> str:
    """What a phone's camera reads off the QR code on `page`."""
    shot = page.locator('[data-testid="stImage"] img').first.screenshot()
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(shot)))
    assert found, "no QR code on the organizer's screen"
    return found[0].text


def test_a_judge_scans_the_organizers_qr_code_and_is_signed_in(open_app, browser, server):
    organizer = open_app(as_=("Olivia", ORGANIZER_PIN))
    go_to(organizer, "Settings")
    field(organizer, "Judge's name").fill("Kim")  # a form: nothing runs until its button
    click(organizer, "Make a QR code", expect="Scan to sign in as a judge")
    address = scan(organizer)
    assert "/join#" in address

    judge = new_page(browser, PHONE)
    asked = []
    judge.on("request", lambda r: asked.append(r.url))
    judge.goto(address)
    judge.wait_for_url("**/results")
    wait_ready(judge)
    token = address.split("#", 1)[1]
    assert not any(token in url for url in asked), "the token was sent in an address"
    assert token not in judge.url
    session = {c["name"]: c for c in judge.context.cookies()}["stsa_session"]
    assert session["httpOnly"] and session["sameSite"] == "Strict"
    go_to(judge, "Sign in")
    judge.get_by_text("Signed in as").first.wait_for()
    assert "Kim" in judge.get_by_text("Signed in as").first.inner_text()

    go_to(organizer, "Settings")
    click(organizer, "Withdraw", expect="Invitation withdrawn")
    load(judge)
    go_to(judge, "Sign in")
    judge.get_by_role("button", name="Sign in").wait_for()
    assert not judge.get_by_text("Signed in as").count(), "still a judge after the withdrawal"
