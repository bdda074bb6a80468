"""The project's own conventions (DESIGN.md), checked so they stay true: pages are thin and
touch no database, only stsa/ui imports Streamlit, rules and draws never loop over rows."""

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
    for path in (ROOT / "stsa").rglob("*.py"):
        if "ui" in path.relative_to(ROOT / "stsa").parts:
            continue
        assert not re.search(r"^\s*(import streamlit|from streamlit)", path.read_text(), re.M), \
            path


@pytest.mark.parametrize("module", ["rules.py", "draw.py"])
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


def test_readme_lists_every_page():
    from stsa.ui import navigation
    readme = (ROOT / "README.md").read_text()
    for page in navigation.PAGES:
        assert f"| {page.title} |" in readme, f"README's page table lacks {page.title}"


def test_people_see_no_tracebacks_and_tables_offer_no_raw_csv():
    """A bug shows a plain message (the traceback stays in the server log), and data tables
    offer no built-in CSV download that would keep formula-like cells live."""
    import tomllib

    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["client"]["showErrorDetails"] == "none"
    assert config["client"]["disableDataExport"] is True


def test_nothing_that_guards_access_is_cached():
    """Any client can clear Streamlit's caches: sign-in, sessions and PINs never live there."""
    source = (ROOT / "stsa" / "ui" / "session.py").read_text()
    cached = re.findall(r"@st\.cache_\w+[^\n]*\n(?:@[^\n]*\n)*def (\w+)", source)
    assert cached == ["_engine"], cached
