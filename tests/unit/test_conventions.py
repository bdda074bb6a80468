"""The project's own conventions (DESIGN.md), checked so they stay true: pages are thin and
touch no database, only stsa/ui imports Streamlit, rules and draws never loop over rows."""

import ast
import functools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VIEWS = sorted((ROOT / "views").glob("*.py"))


def test_there_are_pages():
    assert len(VIEWS) >= 9


@pytest.mark.parametrize("view", VIEWS, ids=lambda p: p.name)
def test_pages_are_thin_and_touch_no_database(view):
    text = view.read_text()
    assert len(text.splitlines()) <= 160, f"{view.name}: logic that is not layout belongs in stsa/"
    assert not re.search(r"sqlalchemy|\btext\(|\.execute\(", text), f"{view.name} touches SQL"
    assert "unsafe_allow_html" not in text, f"{view.name}: names are shown as text, never HTML"


def test_only_stsa_ui_imports_streamlit():
    """stsa.ui draws the pages; stsa.web (the server around `st.App` and its guard) is the
    only other place that knows Streamlit."""
    for path in (ROOT / "stsa").rglob("*.py"):
        if path.relative_to(ROOT / "stsa").parts[0] in {"ui", "web"}:
            continue
        assert not re.search(r"^\s*(import streamlit|from streamlit)", path.read_text(), re.M), \
            path


@pytest.mark.parametrize("module", ["rules/qualifiers.py", "rules/finals.py", "rules/checks.py",
                                    "draw.py", "picks.py", "balance.py",
                                    "season.py", "rating.py", "directory.py",
                                    "services/season.py", "store/seasons.py",
                                    "store/people.py"])
def test_rules_and_draws_are_vectorized(module):
    text = (ROOT / "stsa" / module).read_text()
    assert not re.search(r"iterrows|itertuples|apply\([^)]*axis *= *1", text)


def test_no_pages_folder_beside_app():
    """A folder named pages/ beside app.py makes Streamlit serve its files as pages on the first
    request after a start, before app.py's navigation and role check (R20)."""
    assert not (ROOT / "pages").exists()


def test_readme_shows_the_two_commands_and_its_images_exist():
    readme = (ROOT / "README.md").read_text()
    assert "make run" in readme and "make test" in readme
    images = re.findall(r"\((docs/[^)\s]+\.png)\)", readme)
    assert images, "the walkthrough shows screenshots"
    missing = [i for i in images if not (ROOT / i).exists()]
    assert not missing, missing


def test_the_organizers_guide_lists_every_page():
    from stsa.ui import navigation
    guide = (ROOT / "docs" / "organizers.md").read_text()
    for page in navigation.PAGES:
        assert f"| {page.title} |" in guide, f"docs/organizers.md's page table lacks {page.title}"


def test_people_see_no_tracebacks_and_tables_offer_no_raw_csv():
    """A bug shows a plain message (the traceback stays in the server log), and data tables
    offer no built-in CSV download that would keep formula-like cells live."""
    import tomllib

    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["client"]["showErrorDetails"] == "none"
    assert config["client"]["disableDataExport"] is True


def test_nothing_that_guards_access_is_cached():
    """Any client can clear Streamlit's caches: sign-in, sessions, PINs and the engine that
    reaches them never live there."""
    source = (ROOT / "stsa" / "ui" / "session.py").read_text()
    assert "cache_resource" not in source and "cache_data" not in source


# --- the layers point one way (DESIGN.md) ------------------------------------------------------
# views → stsa.ui → stsa.services → stsa.{formats, store} → the pure core → stsa.domain.
LAYERS = {
    "stsa.domain": 0, "stsa.errors": 0, "stsa.settings": 0, "stsa.local_time": 0,
    "stsa.i18n": 0,
    "stsa.auth": 1, "stsa.rules": 1, "stsa.draw": 1, "stsa.picks": 1, "stsa.balance": 1,
    "stsa.catalog": 1, "stsa.fairness": 1, "stsa.directory": 1,
    "stsa.stats": 1, "stsa.charts": 1, "stsa.netcheck": 1, "stsa.clock": 1, "stsa.schedule": 1,
    "stsa.season": 1, "stsa.rating": 1,
    "stsa.formats": 2, "stsa.store": 2, "stsa.tls": 2,
    "stsa.services": 3, "stsa.tournament": 3, "stsa.demo": 3, "stsa.excel": 3,
    "stsa.printing": 3,
    "stsa.ui": 4, "stsa.web": 4, "stsa.__main__": 4,
    "views": 5, "app": 5,
}


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text())


@functools.cache
def _sources() -> dict[str, Path]:
    files = [*(ROOT / "stsa").rglob("*.py"), *(ROOT / "views").glob("*.py"), ROOT / "app.py"]
    return {_module(p): p for p in files}


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The STSA modules `path` imports, at the top or inside a function; `from pkg import sub`
    counts as importing `pkg.sub` when that is a module, else `pkg`."""
    found = set()
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found |= {f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in modules
                      else node.module for a in node.names}
    return {name for name in found if name.split(".")[0] == "stsa"}


@functools.cache  # the files do not change during a run: every layer test reads one parse
def _graph() -> dict[str, set[str]]:
    sources = _sources()
    return {name: _imports(path, set(sources)) for name, path in sources.items()}


def _layer(module: str) -> tuple[str, int]:
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in LAYERS:
            return ".".join(parts[:end]), LAYERS[".".join(parts[:end])]
    raise AssertionError(f"{module} belongs to no layer: add it to LAYERS")


def test_no_module_imports_from_a_layer_above_it():
    upward = [f"{name} → {used}" for name, used_all in _graph().items() for used in used_all
              if _layer(used)[1] > _layer(name)[1]
              or {_layer(used)[0], _layer(name)[0]} == {"stsa.formats", "stsa.store"}]
    assert upward == []


# Pages reach the tournament only through these (DESIGN.md, "Layout"), and say their words
# through the translation function (README, "Languages").
PAGE_IMPORTS = ("stsa.ui", "stsa.services", "stsa.domain", "stsa.i18n")
# The names outside scripts import (DESIGN.md, "Scripting API"): never used inside STSA.
FOR_SCRIPTS = ("stsa.excel", "stsa.printing", "stsa.tournament")


def test_pages_import_only_the_ui_the_services_and_the_words():
    graph = _graph()
    found = [f"{name} → {used}" for name, used_all in graph.items() for used in used_all
             if name.startswith("views.") and not used.startswith(PAGE_IMPORTS)]
    assert found == []


def test_ui_and_web_reach_the_store_only_through_services():
    """DESIGN.md, "Layout": stsa/ui's helpers and stsa/web's routes ask the services, which
    check every rule and write through the store; no module under stsa/ui or stsa/web imports
    stsa.store (at the top or inside a function)."""
    found = [f"{name} → {used}" for name, used_all in _graph().items() for used in used_all
             if name.startswith(("stsa.ui.", "stsa.web.")) or name in {"stsa.ui", "stsa.web"}
             if used == "stsa.store" or used.startswith("stsa.store.")]
    assert found == []


def test_the_names_kept_for_scripts_are_not_used_inside_stsa():
    graph = _graph()
    found = [f"{name} → {used}" for name, used_all in graph.items() for used in used_all
             if used.startswith(FOR_SCRIPTS) and not name.startswith(FOR_SCRIPTS)]
    assert found == []


def test_role_and_the_tournament_error_come_from_one_home():
    """`Role` and `TournamentError` live in stsa.domain; stsa.auth, stsa.errors and
    stsa.store.errors keep the names for scripts, and nothing in STSA imports them there."""
    homes = {"stsa/auth.py", "stsa/errors.py", "stsa/store/errors.py", "stsa/store/__init__.py"}
    found = []
    for name, path in _sources().items():
        if str(path.relative_to(ROOT)) in homes:
            continue
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.ImportFrom) and node.module != "stsa.domain":
                taken = {a.name for a in node.names} & {"Role", "TournamentError"}
                if taken and (node.module or "").startswith("stsa"):
                    found.append(f"{name}: {sorted(taken)} from {node.module}")
    assert found == []


def test_no_import_circle():
    graph = _graph()

    def reach(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for nxt in graph.get(todo.pop(), set()) - seen:
                seen.add(nxt)
                todo.append(nxt)
        return seen

    assert sorted(name for name in graph if name in reach(name)) == []
