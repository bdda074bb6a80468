"""`python -m stsa` (run by `make run`): prepares the database and prints new PINs once."""

import subprocess
import sys
from pathlib import Path

import pytest

from stsa import store
from stsa.auth import Actor, Role

pytestmark = pytest.mark.slow  # each test starts `python -m stsa` in a new process

ROOT = Path(__file__).resolve().parents[2]


def run_main(env):
    return subprocess.run([sys.executable, "-m", "stsa"], cwd=ROOT, env=env, text=True,
                          capture_output=True, timeout=120)


def test_first_start_prints_pins_once_and_they_work(tmp_path):
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    env = {"PATH": "/usr/bin:/bin", "STSA_DATABASE_URL": url,
           "STSA_BACKUP_DIR": str(tmp_path / "backups"), "PYTHONPATH": str(ROOT)}
    first = run_main(env)
    assert first.returncode == 0, first.stderr
    pins = {line.split(" PIN is ")[0].split()[-1]: line.split(" PIN is ")[1].split(".")[0]
            for line in first.stdout.splitlines() if " PIN is " in line}
    assert set(pins) == {"organizer", "judge"}
    engine = store.connect(url)
    assert store.check_pin(engine, pins["organizer"]).value == "organizer"
    assert store.check_pin(engine, pins["judge"]).value == "judge"
    engine.dispose()
    again = run_main(env)
    assert again.returncode == 0 and " PIN is " not in again.stdout
    assert "Lost one? On this machine run `make pins`" in again.stdout, "how to get new PINs"


def test_a_broken_database_file_is_refused_with_a_message(tmp_path):
    broken = tmp_path / "broken.db"
    broken.write_bytes(b"this is not a database" * 100)
    env = {"PATH": "/usr/bin:/bin", "STSA_DATABASE_URL": f"sqlite:///{broken}",
           "PYTHONPATH": str(ROOT)}
    result = run_main(env)
    assert result.returncode != 0
    assert "STSA cannot start" in result.stderr and "backup" in result.stderr


def test_pins_reset_from_the_console_makes_new_pins_and_signs_everyone_out(tmp_path):
    """A lost PIN: `python -m stsa pins --reset` (README, Security)."""
    url = f"sqlite:///{tmp_path / 'event.db'}"
    env = {"PATH": "/usr/bin:/bin", "STSA_DATABASE_URL": url,
           "STSA_BACKUP_DIR": str(tmp_path / "backups"), "PYTHONPATH": str(ROOT)}
    assert run_main(env).returncode == 0
    engine = store.connect(url)
    try:
        reset = subprocess.run([sys.executable, "-m", "stsa", "pins", "--reset"], cwd=ROOT,
                               env=env, text=True, capture_output=True, timeout=120)
        assert reset.returncode == 0, reset.stderr
        pins = {line.split(" PIN is ")[0].split()[-1]: line.split(" PIN is ")[1].split(".")[0]
                for line in reset.stdout.splitlines() if " PIN is " in line}
        assert store.check_pin(engine, pins["organizer"]).value == "organizer"
        judge_session = store.sign_in(engine, "Jamal", pins["judge"]).session_id
        again = subprocess.run([sys.executable, "-m", "stsa", "pins", "--reset"], cwd=ROOT,
                               env=env, text=True, capture_output=True, timeout=120)
        assert again.returncode == 0 and "signed out" in again.stdout
        assert store.session_actor(engine, judge_session) is None
        assert store.check_pin(engine, pins["judge"]) is None
    finally:
        engine.dispose()


def test_unlock_from_the_console_lifts_a_pause_and_keeps_the_pins(tmp_path):
    """`make unlock` (python -m stsa pins --unlock): wrong PINs forgotten, PINs unchanged."""
    url = f"sqlite:///{tmp_path / 'event.db'}"
    env = {"PATH": "/usr/bin:/bin", "STSA_DATABASE_URL": url, "PYTHONPATH": str(ROOT),
           "STSA_BACKUP_DIR": str(tmp_path / "backups"),
           "STSA_ORGANIZER_PIN": "48091573", "STSA_JUDGE_PIN": "73620419"}
    assert run_main(env).returncode == 0
    engine = store.connect(url)
    try:
        for n in range(60):  # a tournament-wide pause, from many addresses
            try:
                store.sign_in(engine, "Mallory", f"9{n:05d}17", client=f"10.0.{n}.1")
            except Exception:  # noqa: BLE001 - wrong PINs and pauses are what is wanted here
                pass
        assert store.sign_in_pause(engine) > 0
        done = subprocess.run([sys.executable, "-m", "stsa", "pins", "--unlock"], cwd=ROOT,
                              env=env, text=True, capture_output=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert "the PINs did not change" in done.stdout and " PIN is " not in done.stdout
        assert store.sign_in_pause(engine) == 0
        assert store.check_pin(engine, "48091573").value == "organizer"
    finally:
        engine.dispose()


def test_a_trusted_proxy_of_anyone_stops_the_start_with_a_message(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "STSA_DATABASE_URL": f"sqlite:///{tmp_path / 'e.db'}",
           "PYTHONPATH": str(ROOT), "STSA_TRUSTED_PROXY": "*"}
    started = subprocess.run([sys.executable, "-m", "stsa", "serve", "--port", "1"],
                             cwd=ROOT, env=env, text=True, capture_output=True, timeout=120)
    assert started.returncode == 1
    assert "STSA cannot start: STSA_TRUSTED_PROXY" in started.stderr and "'*'" in started.stderr


def test_pins_reset_signs_out_every_tournament_and_says_what_it_ended(tmp_path):
    """Issue 33: `make pins` said "everyone was signed out" while another tournament's judges
    and every invitation stayed; now it ends them, makes new PINs there too and counts."""
    url = f"sqlite:///{tmp_path / 'event.db'}"
    env = {"PATH": "/usr/bin:/bin", "STSA_DATABASE_URL": url,
           "STSA_BACKUP_DIR": str(tmp_path / "backups"), "PYTHONPATH": str(ROOT),
           "STSA_ORGANIZER_PIN": "48091573", "STSA_JUDGE_PIN": "73620419"}
    assert run_main(env).returncode == 0
    engine = store.connect(url)
    organizer = Actor("Olivia", Role.ORGANIZER)
    elsewhere = store.create_tournament(engine, "LinCon 2026", actor=organizer)
    there = store.open_tournament(engine, elsewhere.key)
    try:
        far = store.sign_in(there, "Kim", elsewhere.judge_pin).session_id
        _, token = store.create_invitation(there, "Jo", actor=organizer)
        reset = subprocess.run([sys.executable, "-m", "stsa", "pins", "--reset"], cwd=ROOT,
                               env=env, text=True, capture_output=True, timeout=120)
        assert reset.returncode == 0, reset.stderr
        assert store.session_actor(there, far) is None
        with pytest.raises(store.TournamentError, match="not valid"):
            store.join(engine, token)
        new = [line for line in reset.stdout.splitlines()
               if f"judge PIN of {elsewhere.key} is " in line]
        assert len(new) == 1, reset.stdout
        pin = new[0].split(" PIN of ")[1].split(" is ")[1].split(".")[0]
        assert store.check_pin(there, pin) is Role.JUDGE
        assert "Signed out 1 judge." in reset.stdout
        assert "Withdrew 1 open invitation." in reset.stdout
    finally:
        there.dispose()
        engine.dispose()


def test_a_console_code_lets_the_organizer_in_through_a_pause_once(tmp_path):
    """Issue 33: `make code` (python -m stsa pins --code) prints a one-time code; with it the
    organizer signs in while everyone is paused, once; the pause stays for everyone else. The
    ready block tells where to get one."""
    import sqlalchemy as sa

    from stsa.__main__ import ready_lines
    from stsa.store import schema
    from stsa.web import server

    url = f"sqlite:///{tmp_path / 'event.db'}"
    env = {"PATH": "/usr/bin:/bin", "STSA_DATABASE_URL": url, "PYTHONPATH": str(ROOT),
           "STSA_BACKUP_DIR": str(tmp_path / "backups"),
           "STSA_ORGANIZER_PIN": "48091573", "STSA_JUDGE_PIN": "73620419"}
    assert run_main(env).returncode == 0
    engine = store.connect(url)
    try:
        with engine.begin() as conn:  # a day of wrong PINs from many addresses: an hour's pause
            at = store.db.now()
            conn.execute(sa.insert(schema.sign_in_failures), [
                {"client": f"10.0.{n}.1", "at": at} for n in range(80)])
        with pytest.raises(store.SignInPaused):
            store.sign_in(engine, "Olivia", "48091573", client="10.9.9.9")
        made = subprocess.run([sys.executable, "-m", "stsa", "pins", "--code"], cwd=ROOT,
                              env=env, text=True, capture_output=True, timeout=120)
        assert made.returncode == 0, made.stderr
        code = made.stdout.split("one-time code ")[1].split(".")[0]
        signed = store.sign_in(engine, "Olivia", "48091573", client="10.9.9.9",
                               console_code=code)
        assert signed.actor.role is Role.ORGANIZER
        with pytest.raises(store.TournamentError, match="used already"):
            store.sign_in(engine, "Olivia", "48091573", client="10.9.9.9", console_code=code)
        assert store.sign_in_pause(engine) > 0, "the pause stays for everyone else"
    finally:
        engine.dispose()
    ready = "\n".join(ready_lines(server.venue("127.0.0.1", 8501, names=["localhost"]), {}))
    assert "`make code`" in ready
