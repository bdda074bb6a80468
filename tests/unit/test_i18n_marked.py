"""Every text STSA shows goes through the translation function (issue 25, README "Languages").

An AST sweep over `views/`, `stsa/ui`, `stsa/services` and `stsa/formats`: a string literal (or an
f-string, or a `+` of them) with words in it, given to a Streamlit call, a chart's title, an
error a person reads or a slip's text, must be `_("…")`, `ngettext(…)` or `pgettext(…)`, possibly
with `.format(…)`. A line may say `# i18n: as is` (with why) for a text that is the same in every
language (a product's name, "STSA").
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCOPE = ["views", "stsa/ui", "stsa/services", "stsa/formats"]

# Calls whose texts a person reads: Streamlit's elements, widgets and column settings, Altair's
# titles, a PDF's text, and the errors whose words reach a page.
SHOWN = {
    "title", "header", "subheader", "markdown", "caption", "write", "text", "info", "warning",
    "error", "success", "toast", "button", "download_button", "link_button", "page_link",
    "checkbox", "toggle", "radio", "selectbox", "multiselect", "slider", "select_slider",
    "text_input", "text_area", "number_input", "date_input", "time_input", "file_uploader",
    "form_submit_button", "expander", "popover", "tabs", "metric", "spinner", "status",
    "segmented_control", "pills", "dialog", "Page", "Column", "TextColumn", "NumberColumn",
    "CheckboxColumn", "SelectboxColumn", "LinkColumn", "DatetimeColumn", "DateColumn",
    "TimeColumn", "ProgressColumn", "ListColumn", "ImageColumn", "LineChartColumn",
    "BarChartColumn", "MultiselectColumn", "Title", "X", "Y", "Color", "Legend", "Axis",
    "Tooltip", "properties", "cell", "multi_cell", "TournamentError", "Refused", "Conflict",
}
# Keyword arguments that hold words (other keywords: keys, values, formats).
WORDS = {"label", "help", "placeholder", "caption", "title", "text", "body", "value_label",
         "txt", "message", "subtitle", "legend_title"}
TRANSLATED = {"_", "ngettext", "pgettext", "N_"}
AS_IS = "i18n: as is"
LETTERS = re.compile(r"[A-Za-zÀ-ÿ]{2,}")
NOT_WORDS = re.compile(r"^(:material/[a-z_]+:|[\W\d_]*|[a-z_]+:[QNOT]|\w+\.\w+|[\w./-]+\.py)$")


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def _is_translated(node: ast.expr) -> bool:
    if isinstance(node, ast.Call):
        name = _name(node.func)
        if name in TRANSLATED:
            return True
        if name == "format" and isinstance(node.func, ast.Attribute):
            return _is_translated(node.func.value)
    return False


def _words(node: ast.expr) -> str | None:
    """The English words `node` spells out literally, or None (a variable, a translation)."""
    if _is_translated(node):
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value.strip()
        return text if LETTERS.search(text) and not NOT_WORDS.match(text) else None
    if isinstance(node, ast.JoinedStr):
        literal = "".join(v.value for v in node.values
                          if isinstance(v, ast.Constant) and isinstance(v.value, str))
        return literal if LETTERS.search(literal) and not NOT_WORDS.match(literal.strip()) \
            else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        return _words(node.left) or _words(node.right)
    if isinstance(node, (ast.List, ast.Tuple)):
        return next((w for w in map(_words, node.elts) if w), None)
    return None


def unmarked(path: Path) -> list[tuple[int, str]]:
    """(line, text) of each shown literal in `path` that is not translated."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or _name(node.func) not in SHOWN:
            continue
        args = [*node.args[:1], *(k.value for k in node.keywords if k.arg in WORDS)]
        if _name(node.func) in {"tabs", "Tooltip"}:
            args = [*node.args, *args]
        for arg in args:
            text = _words(arg)
            end = getattr(arg, "end_lineno", arg.lineno) or arg.lineno
            if text and not any(AS_IS in lines[n - 1] for n in range(node.lineno, end + 1)):
                found.append((arg.lineno, text[:60]))
    return found


def files() -> list[Path]:
    return sorted(p for d in SCOPE for p in (ROOT / d).rglob("*.py"))


@pytest.mark.parametrize("path", files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shown_text_goes_through_the_translation_function(path):
    assert unmarked(path) == []


def test_the_sweep_catches_an_untranslated_text(tmp_path):
    page = tmp_path / "page.py"
    page.write_text(
        "import streamlit as st\nfrom stsa.i18n import _\n"
        "st.button('Save result')\n"                       # caught
        "st.caption(f'Seat {n} is empty')\n"               # caught
        "st.warning(_('Saved.'))\n"                         # translated
        "st.info(_('{n} left').format(n=2))\n"              # translated
        "st.page_link('views/home.py', label='Home')\n"    # caught (a keyword)
        "st.caption('STSA')  # i18n: as is (the name)\n"    # marked as is
        "st.markdown(':material/home:')\n",                 # an icon, no words
        encoding="utf-8")
    assert [line for line, _text in unmarked(page)] == [3, 4, 7]
