"""The store's own layers (DESIGN.md): `db` is engines and transactions and imports nothing above
it but its schema upgrades (which import only the schema), and only the package reaches for the
maintenance steps (no circle anywhere:
test_conventions.py)."""

from __future__ import annotations

import ast
from pathlib import Path

STORE = Path(__file__).resolve().parents[2] / "stsa" / "store"


def _imports(path: Path) -> set[str]:
    """Every stsa module `path` imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return {name for name in found if name.startswith("stsa.")}


def _store_graph() -> dict[str, set[str]]:
    modules = {f"stsa.store.{p.stem}": p for p in STORE.glob("*.py") if p.stem != "__init__"}
    return {name: _imports(path) & set(modules) for name, path in modules.items()}


def test_db_imports_nothing_above_it():
    below = ("stsa.auth", "stsa.domain", "stsa.errors", "stsa.i18n", "stsa.store.schema",
             "stsa.store.errors")
    for module, allowed in (("db.py", (*below, "stsa.store.migrations")),
                            ("migrations.py", below), ("frames.py", below)):
        imported = _imports(STORE / module) - {"stsa.store"}  # the package: `from stsa.store …`
        assert {name for name in imported if not name.startswith(allowed)} == set(), module


def test_only_the_package_reaches_for_maintenance():
    graph = _store_graph()
    assert [name for name, deps in graph.items() if "stsa.store.maintenance" in deps] == []
    assert "stsa.store.archive" not in graph["stsa.store.draws"]


def test_the_access_modules_build_on_one_another_in_one_order():
    """Who may get in (R20), lowest first: the stored PINs and a token's shape, trusted
    devices, the counted PIN check and its pause, sessions, the PINs' own steps, invitations.
    Each imports only those before it."""
    order = ["credentials", "devices", "pause", "sessions", "pins", "invites"]
    graph = _store_graph()
    for i, name in enumerate(order):
        later = {f"stsa.store.{m}" for m in order[i:]}
        assert graph[f"stsa.store.{name}"] & later == set(), name
