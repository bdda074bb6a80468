"""The one whole-number check (`stsa.domain.whole_number`) that the store's checks, the
workbook's reader, seasons, overlays and invitations read typed and stored numbers with."""

from __future__ import annotations

import math

import numpy as np
import pytest

from stsa.domain import whole_number


@pytest.mark.parametrize(("value", "whole"), [
    (3, 3), (0, 0), (-4, -4), (np.int64(7), 7), (3.0, 3), (np.float64(-2.0), -2),
    (" 12 ", 12), ("-5", -5), ("+5", 5),
])
def test_whole_numbers_are_read_as_ints(value, whole):
    found = whole_number(value)
    assert found == whole and type(found) is int


@pytest.mark.parametrize("value", [
    True, False, 3.5, math.inf, math.nan, "3.5", "+-5", "", "five", None, [3],
])
def test_what_is_not_a_whole_number_is_none(value):
    assert whole_number(value) is None


def test_without_text_digits_are_not_a_number():
    """A count a script passes (an overlay's table, an invitation's hours) is a number, not
    the text of one."""
    assert whole_number("3", text=False) is None and whole_number(3, text=False) == 3
