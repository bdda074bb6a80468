"""Checks on the network settings STSA starts with, before anything is served.

`STSA_TRUSTED_PROXY` names the reverse proxy whose `X-Forwarded-For` header STSA believes: the
address in that header is the one wrong PINs are counted under. Trusting every sender (`*`, or
a network as wide as the whole internet) would let anyone write their own header and guess PINs
under a new address each time, so only plain addresses and networks are accepted.
"""

from __future__ import annotations

import ipaddress

from stsa.domain import TournamentError

VARIABLE = "STSA_TRUSTED_PROXY"
EVERYONE = (f"{VARIABLE} must name the proxy's address, like 127.0.0.1; '*' would let anyone "
            f"choose the address wrong PINs are counted under.")


def _entry(part: str) -> str:
    """One entry as an address or network in its normal spelling, or a `TournamentError`
    saying what is wrong with it."""
    if part == "*":
        raise TournamentError(EVERYONE)
    if "/" not in part:
        try:
            return str(ipaddress.ip_address(part))
        except ValueError:
            raise TournamentError(f"{VARIABLE}: {part!r} is not an IP address; name the "
                                  f"proxy's address, like 127.0.0.1 or ::1.") from None
    try:
        network = ipaddress.ip_network(part, strict=False)
    except ValueError:
        raise TournamentError(f"{VARIABLE}: {part!r} is not an IP address or network; name "
                              f"the proxy's address, like 127.0.0.1, or its network, like "
                              f"10.0.0.0/24.") from None
    if network.prefixlen == 0:
        raise TournamentError(f"{EVERYONE} {part!r} is every address, the same as '*'.")
    address = part.split("/")[0]
    if ipaddress.ip_address(address) != network.network_address:
        raise TournamentError(f"{VARIABLE}: {part!r} is an address with a network size; "
                              f"write {network} for the network, or {address} for the proxy "
                              f"alone.")
    return str(network)


def trusted_proxies(value: str | None) -> list[str]:
    """The addresses and networks in `STSA_TRUSTED_PROXY` (comma-separated), each in its
    normal spelling, duplicates once; [] when it is unset or blank (no forwarded address is
    believed). `*`, a network of every address, an empty entry between commas or anything
    that is not an IP address or network is a `TournamentError` with a plain message."""
    if value is None or not value.strip():
        return []
    parts = [part.strip() for part in value.split(",")]
    if "" in parts:
        raise TournamentError(f"{VARIABLE} has an empty entry between its commas "
                              f"({value.strip()!r}); list the proxies' addresses, like "
                              f"127.0.0.1,::1.")
    return list(dict.fromkeys(_entry(part) for part in parts))
