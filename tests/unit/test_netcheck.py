"""`STSA_TRUSTED_PROXY` names proxies by address; trusting everyone is refused at start-up
(`stsa.netcheck.trusted_proxies`)."""

from __future__ import annotations

import pytest

from stsa import netcheck
from stsa.errors import TournamentError


@pytest.mark.parametrize("value", [None, "", "   ", "\t"])
def test_unset_or_blank_trusts_no_proxy(value):
    assert netcheck.trusted_proxies(value) == []


def test_addresses_and_networks_in_their_normal_spelling():
    value = " 127.0.0.1, ::1 ,10.0.0.0/24, 2001:DB8::/32,192.0.2.7/32, 127.0.0.1"
    assert netcheck.trusted_proxies(value) == ["127.0.0.1", "::1", "10.0.0.0/24",
                                               "2001:db8::/32", "192.0.2.7/32"]


@pytest.mark.parametrize("value", ["*", " * ", "127.0.0.1,*", "*,::1"])
def test_everyone_is_refused_in_plain_words(value):
    with pytest.raises(TournamentError) as caught:
        netcheck.trusted_proxies(value)
    assert str(caught.value) == (
        "STSA_TRUSTED_PROXY must name the proxy's address, like 127.0.0.1; '*' would let "
        "anyone choose the address wrong PINs are counted under.")


@pytest.mark.parametrize("value", ["0.0.0.0/0", "::/0", "127.0.0.1,0.0.0.0/0"])
def test_a_network_of_every_address_is_refused_like_everyone(value):
    with pytest.raises(TournamentError, match=r"'\*' would let anyone.*same as '\*'"):
        netcheck.trusted_proxies(value)


@pytest.mark.parametrize("value, words", [
    ("127.0.0.1,,::1", "empty entry between its commas"),
    ("127.0.0.1,", "empty entry between its commas"),
    ("proxy.local", "'proxy.local' is not an IP address"),
    ("localhost", "'localhost' is not an IP address"),
    ("127.0.0.256", "is not an IP address"),
    ("10.0.0.0/33", "'10.0.0.0/33' is not an IP address or network"),
    ("10.0.0.0/x", "is not an IP address or network"),
    ("192.168.1.5/24", "write 192.168.1.0/24 for the network, or 192.168.1.5 for the proxy"),
])
def test_anything_else_is_refused_saying_what_is_wrong(value, words):
    with pytest.raises(TournamentError, match=words.replace(".", r"\.").replace("*", r"\*")):
        netcheck.trusted_proxies(value)


def test_every_message_names_the_variable():
    for value in ("*", "a,,b", "nope", "1.2.3.4/40", "::/0", "10.0.0.1/8"):
        with pytest.raises(TournamentError, match="STSA_TRUSTED_PROXY"):
            netcheck.trusted_proxies(value)
