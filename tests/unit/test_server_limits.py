"""The app server's limits as pure pieces (stsa.web.limits, stsa.web.server, stsa.web.guard):
connections per address, identical log lines, uploads only from an organizer's page, the
descriptor limit.
The same limits against a running server: tests/server/test_venue_network.py."""

import logging
import resource

from stsa.auth import Role
from stsa.web import guard, language, limits, server


def test_a_room_closes_the_connection_over_the_cap_and_reopens_when_one_leaves():
    room = limits.Room(cap=2)
    assert room.enter("10.0.0.5", 1) and room.enter("10.0.0.5", 2)
    assert not room.enter("10.0.0.5", 3), "a third connection from one address"
    assert room.enter("10.0.0.6", 4), "another address is not affected"
    assert room.enter("10.0.0.5", 2), "a connection already in is not counted twice"
    room.leave("10.0.0.5", 1)
    assert room.enter("10.0.0.5", 3) and room.count("10.0.0.5") == 2


def test_a_trusted_proxy_and_a_cap_of_zero_are_not_capped():
    proxied = limits.Room(cap=1, exempt=frozenset({"127.0.0.1"}))
    assert all(proxied.enter("127.0.0.1", n) for n in range(50))
    assert all(limits.Room(cap=0).enter("10.0.0.1", n) for n in range(50))


def _record(message: str, *args) -> logging.LogRecord:
    return logging.LogRecord("asyncio", logging.ERROR, __file__, 1, message, args, None)


def test_identical_log_lines_are_counted_after_five_a_minute():
    clock = [0.0]
    repeat = limits.RepeatFilter(repeats=5, window=60, clock=lambda: clock[0])
    kept = [repeat.filter(_record("socket.accept() out of system resource")) for _ in range(1000)]
    assert kept.count(True) == 5
    assert repeat.filter(_record("another line")), "other lines still pass"
    clock[0] = 61.0
    summary = _record("socket.accept() out of system resource")
    assert repeat.filter(summary)
    assert "995 more like it" in summary.getMessage()


def test_only_an_organizer_page_may_upload_and_only_within_the_caps(monkeypatch):
    monkeypatch.setattr(guard, "_upload_count", lambda session: {"full": 8}.get(session, 0))
    guard.remember_role("spectator-tab", Role.SPECTATOR)
    guard.remember_role("judge-tab", Role.JUDGE)
    guard.remember_role("organizer-tab", Role.ORGANIZER)
    guard.remember_role("full", Role.ORGANIZER)
    prefix = "/_stcore/upload_file/"
    assert guard.upload_refusal("PUT", prefix + "spectator-tab/f", 10)[0] == 403
    assert guard.upload_refusal("PUT", prefix + "judge-tab/f", 10)[0] == 403
    assert guard.upload_refusal("PUT", prefix + "unknown/f", 10)[0] == 403
    assert guard.upload_refusal("PUT", prefix + "organizer-tab/f", 10) is None
    assert guard.upload_refusal("PUT", prefix + "organizer-tab/f", None)[0] == 411
    assert guard.upload_refusal("PUT", prefix + "organizer-tab/f",
                                guard.UPLOAD_BYTES + 1)[0] == 413
    assert guard.upload_refusal("PUT", prefix + "full/f", 10)[0] == 429
    assert guard.upload_refusal("DELETE", prefix + "full/f", None) is None
    guard.remember_role("organizer-tab", Role.SPECTATOR)  # signed out: the next run says so
    assert guard.upload_refusal("PUT", prefix + "organizer-tab/f", 10)[0] == 403


def test_the_descriptor_limit_is_raised_to_what_the_system_allows():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        if soft == hard and hard > 64:
            resource.setrlimit(resource.RLIMIT_NOFILE, (64, hard))
        assert limits.raise_descriptor_limit() == resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == hard
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_uvicorn_gets_the_limits(tmp_path):
    config = server.uvicorn_config(object(), server.Served("127.0.0.1", 8501), trusted=[])
    assert config.ws_max_size == server.MESSAGE_BYTES == 1024 * 1024
    # the fast parser and event loop where the platform has them (pinned: they are here)
    assert config.http is limits.GuardedHttpTools and config.ws is limits.GuardedWebSocket
    assert config.loop == "uvloop"
    assert config.timeout_keep_alive == server.KEEP_ALIVE_SECONDS
    assert not config.server_header and not config.proxy_headers
    proxied = server.uvicorn_config(object(), server.Served("127.0.0.1", 8501),
                                    trusted=["127.0.0.1"])
    assert proxied.proxy_headers and proxied.forwarded_allow_ips == "127.0.0.1"


def test_the_browser_language_is_the_first_of_stsas_it_asks_for():
    assert language.browser_language("sv-SE,sv;q=0.9,en;q=0.8") == "sv"
    assert language.browser_language("de-DE, fr;q=0.5, sv;q=0.7") == "sv"  # by weight
    assert language.browser_language("en-US,en;q=0.9,fr;q=0.8") == "en"
    assert language.browser_language("fr;q=0, de") == "en"  # refused, then none of STSA's
    assert language.browser_language(None) == language.browser_language("x;q=?") == "en"
