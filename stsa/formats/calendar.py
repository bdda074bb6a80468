"""The schedule as a calendar file (.ics, RFC 5545) for phones and calendar apps (R26): one
event per item, its times in the tournament's time zone (each start and end carries the zone's
TZID, and the file its VTIMEZONE), a UID that stays the same for an item however often the
file is made, so a calendar app updates the event instead of adding a second one. Players
appear by nickname only (R22). Plain rows in, bytes out: no database.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

import icalendar
import pandas as pd

from stsa.formats import file_names

PRODUCT = "-//STSA//Tournament schedule//EN"
MEDIA_TYPE = "text/calendar"


def item_uid(item_id: int, tournament: str) -> str:
    """The UID of an item's event: the same for the same item of the same tournament."""
    return f"item-{int(item_id)}.{file_names.slug(tournament, 40) or 'tournament'}@stsa"


def _when(value, tz: dt.tzinfo) -> dt.datetime:
    return pd.Timestamp(value).to_pydatetime().astimezone(tz)


def calendar_ics(items: pd.DataFrame, *, tournament: str, calendar_name: str, tz: dt.tzinfo,
                 descriptions: Mapping[int, str] | None = None) -> bytes:
    """R26: the .ics of `items` (a schedule frame with `item_id, label, starts_at, ends_at`
    and `updated_at`, the time an item last changed, as each event's stamp): one VEVENT per
    item, summary its label, in zone `tz` (VTIMEZONE included); `calendar_name` names the
    calendar (the tournament, or a player's nickname with it, R22); each event's description
    is its line in `descriptions` (by item id), else the tournament's name."""
    cal = icalendar.Calendar()
    cal.add("prodid", PRODUCT)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", calendar_name)
    cal.add("x-wr-timezone", str(tz))
    notes = descriptions or {}
    for item in items[["item_id", "label", "starts_at", "ends_at", "updated_at"]].to_dict(
            "records"):
        event = icalendar.Event()
        event.add("uid", item_uid(item["item_id"], tournament))
        event.add("summary", str(item["label"]))
        event.add("dtstart", _when(item["starts_at"], tz))
        event.add("dtend", _when(item["ends_at"], tz))
        event.add("dtstamp", _when(item["updated_at"], dt.UTC))
        event.add("description", notes.get(int(item["item_id"])) or tournament)
        cal.add_component(event)
    if len(items):
        cal.add_missing_timezones()
    return cal.to_ical()
