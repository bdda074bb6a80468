"""`make run` as a new organizer sees it: once the server listens, one block comes last in the
console with the addresses to open and the PINs made at this start; a server that cannot start
still shows the PINs it made, or they would be lost (only their hashes are stored)."""

from __future__ import annotations

import os
import re
import socket
import subprocess

import pytest

from stsa import store
from tests.support.appserver import ROOT, server_command, started

pytestmark = pytest.mark.server
NEW_PINS = {"STSA_ORGANIZER_PIN": "", "STSA_JUDGE_PIN": ""}  # none set: STSA makes them


def ready_block(output: str) -> list[str]:
    """The lines from "STSA is ready." (and the rule above it) to the end of the output."""
    lines = output.rstrip().splitlines()
    assert "STSA is ready." in lines, output
    return lines[lines.index("STSA is ready.") - 1:]


def pins_in(lines: list[str]) -> dict[str, str]:
    found = (re.match(r"\s*(Organizer|Judge) PIN:\s+(\d{8})$", line) for line in lines)
    return {m[1].lower(): m[2] for m in found if m}


def test_the_ready_block_comes_last_with_the_addresses_and_the_new_pins(tmp_path, connect):
    with started(tmp_path, env=NEW_PINS) as app:
        connect(app, path="sign_in").run(page="sign_in")  # a first page: nothing prints after
        output = app.output()
        block = ready_block(output)
        assert block[0] == block[-1] == "-" * 88, "the block ends the output"
        assert f"  Open on this laptop:      {app.url}" in block
        assert any("STSA listens on 127.0.0.1 only" in line for line in block)
        assert any("Plain HTTP" in line for line in block)
        pins = pins_in(block)
        assert set(pins) == {"organizer", "judge"}
        before = output[:output.index("STSA is ready.")]
        assert not any(pin in before for pin in pins.values()), "printed once, in the block"
        assert "STSA: tournament database" in before and "STSA: serving at" in before
        engine = store.connect(app.database_url)
        try:
            assert store.check_pin(engine, pins["organizer"]).value == "organizer"
            assert store.check_pin(engine, pins["judge"]).value == "judge"
        finally:
            engine.dispose()
    with started(tmp_path, env=NEW_PINS) as again:  # the same database, started again
        block = ready_block(again.output())
        assert not pins_in(block) and any("`make pins`" in line for line in block)


def test_pins_made_for_a_server_that_cannot_start_are_still_shown(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        url = f"sqlite:///{tmp_path / 'stsa.db'}"
        env = {**os.environ, **NEW_PINS, "STSA_DATABASE_URL": url, "PYTHONUNBUFFERED": "1",
               "STSA_BACKUP_DIR": str(tmp_path / "backups"),
               "STSA_TLS_DIR": str(tmp_path / "no-tls")}
        failed = subprocess.run(server_command(port), cwd=ROOT, env=env, text=True,
                                capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
    assert failed.returncode != 0 and "STSA is ready." not in failed.stdout
    pins = {m[1]: m[2] for m in re.finditer(r"the (organizer|judge) PIN is (\d{8})\. Write it "
                                            r"down: it is shown only now \(STSA did not "
                                            r"start\)", failed.stdout)}
    assert set(pins) == {"organizer", "judge"}, failed.stdout + failed.stderr
    engine = store.connect(url)
    try:
        assert store.check_pin(engine, pins["organizer"]).value == "organizer"
    finally:
        engine.dispose()

