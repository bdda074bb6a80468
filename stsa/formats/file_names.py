"""Names for the files people download: the tournament's name first, then what the file holds
and when it was made ("gothcon-qualifiers-2027-standings-2027-03-06-1405.csv"), so a folder
of downloads from several tournaments sorts by tournament and each file says what it is.

The tournament's name is typed by a person: anything in it that a file system, a browser or a
shell could read as more than a name (slashes, quotes, dots, colons, control and direction
characters) becomes a hyphen, and a very long name is cut, so every name is safe as it is.
"""

from __future__ import annotations

import datetime as dt
import unicodedata

NAME_MAX = 60  # characters of the tournament's name kept; the whole name stays far under 255
FALLBACK = "stsa"  # a tournament whose name leaves nothing usable


def _kept(char: str) -> bool:
    """Letters and digits of any script, with their accents (combining marks)."""
    return char.isalnum() or unicodedata.category(char).startswith("M")


def slug(text: str, limit: int = NAME_MAX) -> str:
    """`text` as a file-name part: in lower case, letters and digits (accents kept), every
    other run of characters one hyphen, none at either end; at most `limit` characters, cut
    after a whole word where there is one. "" when nothing is left."""
    folded = unicodedata.normalize("NFKC", str(text or "")).casefold()
    words = "".join(c if _kept(c) else " " for c in folded).split()
    out = "-".join(words)
    if len(out) <= limit:
        return out
    cut = out[:limit + 1]
    return (cut.rsplit("-", 1)[0] if "-" in cut else cut[:limit]).strip("-")


def download_name(tournament: str, what: str, extension: str,
                  at: dt.datetime | None = None) -> str:
    """A download's file name: the tournament's name (`slug`; "stsa" when none is left),
    what the file holds, the date and time it was made (this laptop's clock, to the minute)
    and the extension: "gothcon-qualifiers-2027-standings-2027-03-06-1405.csv"."""
    stamp = (at or dt.datetime.now()).strftime("%Y-%m-%d-%H%M")
    return f"{slug(tournament) or FALLBACK}-{slug(what)}-{stamp}.{slug(extension)}"
