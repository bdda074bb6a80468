"""The venue's addresses: which addresses phones can open (found on the laptop itself at start),
where the QR codes on slips, pairing lists and judges' invitations point, and the block
`make run` prints last, once the server listens."""

from types import SimpleNamespace

import pytest

from stsa.__main__ import ready_lines
from stsa.domain import Role
from stsa.ui.data_tools import LOCAL_URL, QrSource, is_loopback, qr_address
from stsa.web import server

HERE = ["venue-laptop", "venue-laptop.local", "localhost", "192.0.2.7", "2001:db8::7",
        "127.0.0.1", "::1"]
FINGERPRINT = ":".join(["AB"] * 32)


def certificate(*names):
    return SimpleNamespace(names=names, fingerprint=FINGERPRINT)


def test_phones_get_the_laptops_network_addresses_first_never_loopback():
    served = server.venue("0.0.0.0", 8501, names=HERE)
    assert served.phones == ("http://192.0.2.7:8501", "http://venue-laptop.local:8501",
                             "http://venue-laptop:8501")
    assert served.laptop == "http://localhost:8501" and served.uncovered == ()
    on_ipv6 = server.venue("::", 8501, names=HERE)
    assert on_ipv6.phones[:2] == ("http://192.0.2.7:8501", "http://[2001:db8::7]:8501")


def test_with_a_certificate_only_the_names_it_holds_and_the_others_said():
    """A certificate made at home holds another address than the venue's: phones would refuse
    that one, so it is not offered, and the block says to make a new certificate."""
    served = server.venue("0.0.0.0", 8501, certificate("venue-laptop.local", "localhost",
                                                       "198.51.100.3", "127.0.0.1"), HERE)
    assert served.phones == ("https://venue-laptop.local:8501",)
    assert served.uncovered == ("192.0.2.7",)


@pytest.mark.parametrize("address, phones", [
    ("127.0.0.1", ()), ("::1", ()), ("192.0.2.7", ("http://192.0.2.7:8501",))])
def test_a_server_on_one_address_offers_that_one_unless_it_is_loopback(address, phones):
    served = server.venue(address, 8501, names=HERE)
    assert served.phones == phones
    assert served.laptop == server.Served(address, 8501).url(address)


@pytest.mark.parametrize("url, loopback", [
    ("http://localhost:8501", True), ("http://127.0.0.1:8501/draw", True),
    ("https://127.1.2.3", True), ("http://[::1]:8501", True),
    ("http://[::ffff:127.0.0.1]:8501", True), ("http://app.localhost", True),
    ("http://192.168.1.20:8501", False), ("https://venue-laptop.local:8501", False),
    ("http://[2001:db8::7]:8501", False)])
def test_loopback_addresses_open_this_laptop_only(url, loopback):
    assert is_loopback(url) is loopback


PHONES = ("http://192.0.2.7:8501", "http://venue-laptop.local:8501")


@pytest.mark.parametrize("public_url, browser, phones, url, source", [
    # the organizer's own address wins over everything
    ("http://10.0.0.5:8501", "http://192.0.2.7:8501", PHONES, "http://10.0.0.5:8501",
     QrSource.SETTING),
    # a browser phones could reach too: its address, as before
    (None, "http://venue-laptop.local:8501", PHONES, "http://venue-laptop.local:8501",
     QrSource.BROWSER),
    # the browser on the laptop itself: the network address found at start, never loopback
    (None, "http://127.0.0.1:8501", PHONES, "http://192.0.2.7:8501", QrSource.NETWORK),
    (None, "http://localhost:8501", PHONES, "http://192.0.2.7:8501", QrSource.NETWORK),
    (None, None, PHONES, "http://192.0.2.7:8501", QrSource.NETWORK),
    # only loopback known: that address, and the page says phones cannot open it
    (None, "http://127.0.0.1:8501", (), "http://127.0.0.1:8501", QrSource.LOOPBACK),
    (None, None, (), LOCAL_URL, QrSource.LOOPBACK),
])
def test_the_qr_codes_address(public_url, browser, phones, url, source):
    chosen = qr_address(public_url, browser, phones)
    assert (chosen.url, chosen.source) == (url, source)
    assert chosen.reachable is (source is not QrSource.LOOPBACK)


def test_the_ready_block_names_the_addresses_and_the_pins_made_now():
    served = server.venue("0.0.0.0", 8501, certificate(*HERE), HERE)
    lines = ready_lines(served, {Role.ORGANIZER: "48091573", Role.JUDGE: "73620419"})
    text = "\n".join(lines)
    assert lines[1] == "STSA is ready." and lines[0] == lines[-1] == "-" * 88
    assert "  Open on this laptop:      https://localhost:8501" in lines
    assert "On phones (same network): https://192.0.2.7:8501" in text
    assert "  Organizer PIN:            48091573" in lines
    assert "  Judge PIN:                73620419" in lines
    assert "`make pins`" in text and FINGERPRINT in text and "Plain HTTP" not in text
    assert "127.0.0.1" not in text


def test_the_ready_block_without_new_pins_or_a_network():
    lines = ready_lines(server.venue("127.0.0.1", 8501, names=HERE), {})
    text = " ".join(lines)
    assert "  Open on this laptop:      http://127.0.0.1:8501" in lines
    assert "STSA listens on 127.0.0.1 only (STSA_ADDRESS)" in text
    assert "PIN:" not in text and "set before, so not shown" in text and "`make pins`" in text
    assert "Plain HTTP: anyone on this network can read PINs and sessions" in text
    alone = " ".join(ready_lines(server.venue("0.0.0.0", 8501, names=["localhost"]), {}))
    assert "This laptop has no address on a network" in alone
