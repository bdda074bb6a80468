"""The result entry's preview runs the server's rules in the browser (R11, R12): its JavaScript
(`ui.result_entry_web.RULES_JS`, the very text the entry runs) gives the same placings,
qualifier scores and tie flags as `stsa.rules.score_games`, the same full ties as
`services.results.full_ties` and the same unusual numbers as `services.results
.unusual_numbers`, on many generated tables (three and four players, ties on all five, settled
orders given, missing, repeated or given to players in no tie, variant points either way, the
tournament's own base points), run in Chromium."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stsa import rules
from stsa.services import results
from stsa.store import checks
from stsa.ui.result_entry_web import RULES_JS

pytestmark = pytest.mark.e2e

STATS = ["vp", "spice", "solari", "troops", "water"]
EXAMPLES = settings(max_examples=250, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def rules_page(browser):
    """A blank page that has run the entry's rules."""
    context = browser.new_context()
    page = context.new_page()
    page.add_script_tag(content=RULES_JS)
    yield page
    context.close()


def row(small: bool):
    numbers = st.integers(0, 3 if small else 12)
    return st.fixed_dictionaries({
        "vp": st.integers(0, 4 if small else 14), "spice": numbers, "solari": numbers,
        "troops": numbers, "water": numbers,
        "variant_points": st.one_of(st.just(0), st.integers(-3, 4)),
        "tiebreak": st.one_of(st.none(), st.integers(1, 4))})


@st.composite
def tables(draw):
    small = draw(st.booleans())  # small numbers: many ties on all five
    rows = draw(st.lists(row(small), min_size=3, max_size=4))
    base = sorted(draw(st.lists(st.integers(0, 30), min_size=4, max_size=4)), reverse=True)
    return rows, base


@EXAMPLES
@given(tables())
def test_the_browsers_scores_are_the_servers(rules_page, table):
    rows, base = table
    frame = pd.DataFrame(rows).assign(game_id=1, player_id=range(1, len(rows) + 1))
    frame["tiebreak"] = frame["tiebreak"].astype("Int64")
    server = rules.score_games(frame, base_points=tuple(base))
    browser = rules_page.evaluate("([rows, base]) => scoreTable(rows, base)", [rows, base])
    assert [(b["placing"], b["qualifier_score"], b["tied"]) for b in browser] == list(
        zip(server["placing"].tolist(), server["qualifier_score"].tolist(),
            server["tied"].tolist())), (rows, base)


@st.composite
def entries(draw):
    """A table's entry as typed: numbers or blanks, some above a usual game's."""
    number = st.one_of(st.none(), st.integers(0, 3), st.integers(0, 60))
    rows = draw(st.lists(st.fixed_dictionaries(
        {f: number for f in STATS} | {"variant_points": st.one_of(st.none(), st.integers(-5, 30))}),
        min_size=3, max_size=4))
    return [dict(r, seat=n) for n, r in enumerate(rows, start=1)]


@EXAMPLES
@given(entries())
def test_the_browsers_ties_and_unusual_numbers_are_the_servers(rules_page, rows):
    frame = pd.DataFrame(rows).astype({f: "Int64" for f in [*STATS, "variant_points"]})
    ties = rules_page.evaluate("(rows) => fullTies(rows)", rows)
    assert [rows[i]["seat"] for i in ties] == results.full_ties(frame), rows
    unusual = rules_page.evaluate("([rows, most]) => unusualNumbers(rows, most)",
                                  [rows, results.USUAL_MAX])
    said = [f"seat {rows[u['index']]['seat']}: {checks.NUMBER_WORDS[u['field']]} {u['number']}"
            for u in unusual]
    assert said == results.unusual_numbers(frame), rows
