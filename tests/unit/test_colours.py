"""Player colours on the pages (R4): the colour's name on a tag of that colour, or after a square
of that colour, drawn by the page, never an emoji (a laptop without a colour emoji font shows
those as empty boxes), and readable at 4.5:1 whichever text colour the table draws on a tag."""

import pandas as pd
import pytest

from stsa import catalog
from stsa.domain import Role
from stsa.ui import sittings


def luminance(hex_colour: str) -> float:
    """WCAG's relative luminance, as the table's tags compute it to choose their text."""
    def channel(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def no_emoji(text: str) -> bool:
    """No character from the symbol and emoji blocks (U+2600 on: ⚫ ⚪ 🔴 …), which need an
    emoji font; the geometric shapes before them (■) are in every common font."""
    return all(ord(c) < 0x2600 for c in text)


@pytest.mark.parametrize("tag", [*sittings.COLOUR_TAGS.values(), sittings.OTHER_TAG])
def test_each_tag_reads_at_4_5_to_1_with_the_text_the_table_draws_on_it(tag):
    light = luminance(tag) > 0.5  # the table then writes black on it, else white
    contrast = (luminance(tag) + 0.05) / 0.05 if light else 1.05 / (luminance(tag) + 0.05)
    assert contrast >= 4.5, tag


def test_every_catalog_colour_has_its_own_tag_and_square():
    colours = catalog.colours()
    assert colours == ["red", "green", "blue", "yellow"]
    assert len({sittings.COLOUR_TAGS[c] for c in colours}) == 4
    assert [sittings.colour(c) for c in colours] == [
        ":red[■] red", ":green[■] green", ":blue[■] blue", ":yellow[■] yellow"]
    assert sittings.colour("Purple") == ":violet[■] Purple"


def test_a_colour_reads_as_its_name_without_emoji():
    frame = sittings.seat_frame(pd.DataFrame({
        "table_no": [1, 1], "seat": [1, 2], "colour": ["Red", "Teal"], "name": ["A", "B"],
        "nickname": ["a", "b"], "pick_order": [2, 1]}), Role.SPECTATOR)
    assert frame["Colour"].tolist() == [["Red"], ["Teal"]]
    column = sittings.colour_column(["Red", "Teal", "Red"])
    assert column["type_config"]["options"] == [
        {"value": "Red", "color": sittings.COLOUR_TAGS["red"]},
        {"value": "Teal", "color": sittings.OTHER_TAG}]
    assert sittings.colour("Teal") == "Teal" and sittings.colour("white") == "white", \
        "no square in a colour no theme colour matches"
    assert all(no_emoji(sittings.colour(c)) for c in [*sittings.COLOUR_TAGS, "Teal"])


def test_a_colour_typed_with_markup_shows_as_typed():
    assert sittings.colour("re]d*") == r"re\]d\*"
    assert sittings.colour("[red](x)") == r"\[red\](x)"
