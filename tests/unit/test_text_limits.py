"""Every text box has a length limit: each `text_input`, `text_area` and `chat_input` in the
pages (views/) and their pieces (stsa/ui/) passes `max_chars`, so the browser stops typing and
pasting there, and the server never receives a megabyte of "name". The service layer checks the
lengths it stores again (a page limit is a courtesy, not a guard)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOXES = {"text_input", "text_area", "chat_input"}
MOST = 500_000  # the pasted roster (2,000 lines of name, club and email fit many times)


def sources() -> list[Path]:
    return [*sorted((ROOT / "views").glob("*.py")), *sorted((ROOT / "stsa" / "ui").glob("*.py"))]


def boxes(path: Path) -> list[tuple[int, str, ast.Call]]:
    """(line, label, call) of every text box call in `path`, whatever holds the widget
    (`st.`, a column, `st.sidebar.`)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in BOXES:
            label = node.args[0] if node.args else next(
                (k.value for k in node.keywords if k.arg == "label"), None)
            if isinstance(label, ast.Call) and getattr(label.func, "id", "") == "_" \
                    and label.args and isinstance(label.args[0], ast.Constant):
                label = label.args[0]  # a translated label: its English words
            text = label.value if isinstance(label, ast.Constant) else ast.unparse(label) \
                if label is not None else "?"
            found.append((node.lineno, text, node))
    return found


def has_limit(call: ast.Call) -> bool:
    """True when the call passes `max_chars`: a whole number from 1 to `MOST`, or a name for
    one (a constant such as `RULE_CHANGE_LIMITS["rule_change"]`)."""
    limit = next((k.value for k in call.keywords if k.arg == "max_chars"), None)
    if isinstance(limit, ast.Constant):
        return isinstance(limit.value, int) and 0 < limit.value <= MOST
    return limit is not None




def test_the_scan_finds_the_text_boxes():
    every = [(p.name, label) for p in sources() for _, label, _ in boxes(p)]
    assert ("roster.py", "Players") in every and ("sign_in.py", "PIN") in every
    assert len(every) >= 25


def test_every_text_box_has_a_length_limit():
    missing = [f"{path.relative_to(ROOT)}:{line} ({label!r})" for path in sources()
               for line, label, call in boxes(path) if not has_limit(call)]
    assert not missing, "give these text boxes max_chars: " + ", ".join(missing)


def test_the_scan_catches_a_box_without_a_limit(tmp_path):
    page = tmp_path / "page.py"
    page.write_text('import streamlit as st\ncol = st.columns(2)[0]\n'
                    'a = st.text_input("A", max_chars=100)\nb = col.text_area("B")\n'
                    'c = st.sidebar.chat_input("C", max_chars=None)\n'
                    'd = st.text_input(label="D", max_chars=LIMITS["d"])\n'
                    'e = st.text_area("E", max_chars=10_000_000)\n')
    assert {label: has_limit(call) for _, label, call in boxes(page)} == {
        "A": True, "B": False, "C": False, "D": True, "E": False}
