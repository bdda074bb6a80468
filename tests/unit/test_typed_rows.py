"""mypy checks STSA's typed rows: a wrong key read from one is a type error, not a KeyError
on the day (`store.SittingRow`, what a draw, a publish and `store.sitting` return)."""

from __future__ import annotations

from pathlib import Path

import pytest
from mypy import api

ROOT = Path(__file__).resolve().parents[2]

READS = """
from stsa import store
from stsa.services import draws

def shown(engine) -> str:
    row = store.sitting(engine, 1)
    published = draws.publish(engine, 1, actor=None)  # type: ignore[arg-type]
    return f"{row['kind']} {row['number']} {published['status']} {row[%r]}"
"""


def _mypy(key: str, tmp_path: Path, monkeypatch) -> tuple[str, int]:
    """mypy, as `make check` runs it (the project's settings), over code that reads `key`."""
    reads = tmp_path / "reads.py"
    reads.write_text(READS % key)
    monkeypatch.chdir(ROOT)  # where `stsa` is found
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), str(reads)])
    return out + err, status


@pytest.mark.slow
def test_a_wrong_key_on_a_sitting_row_is_a_type_error(tmp_path, monkeypatch):
    found, status = _mypy("stats", tmp_path, monkeypatch)
    assert status == 1 and 'TypedDict "SittingRow" has no key "stats"' in found, found


@pytest.mark.slow
def test_the_keys_it_has_pass(tmp_path, monkeypatch):
    found, status = _mypy("seed", tmp_path, monkeypatch)
    assert status == 0, found
