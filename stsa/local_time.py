"""The tournament's own time (R26): every time STSA shows, logs in words or prints is in the
tournament's time zone (the `time_zone` setting; none set = this laptop's), never UTC. The
database keeps UTC; this module turns it into the room's clock. Plain Python: every layer may
use it. Days are named in the run's language (`day_words`); a value kept for the log is worded
in English (`stsa.i18n.language`).
"""

from __future__ import annotations

import datetime as dt
import functools
import os
import time
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

import pandas as pd

from stsa import i18n
from stsa.domain import TournamentError
from stsa.i18n import _

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


@functools.cache
def zone_names() -> tuple[str, ...]:
    """Every IANA time zone name this machine knows ("Europe/Stockholm" …), sorted."""
    return tuple(sorted(n for n in available_timezones() if "/" in n or n == "UTC"))


_LAPTOP_ZONE_SECONDS = 60.0  # the laptop's zone is looked up again after this long
_laptop_zone: dict[str, tuple[float, str]] = {}  # by `TZ`: (when looked up, the name)


def laptop_zone_name() -> str:
    """The IANA name of this laptop's time zone: `TZ`, else where /etc/localtime points, else
    /etc/timezone, else "UTC" (a machine that says nothing runs on UTC). Looked up at most
    once a minute (every page run asks, and it is a few file system calls)."""
    told = os.environ.get("TZ", "")
    kept = _laptop_zone.get(told)
    if kept is None or time.monotonic() - kept[0] > _LAPTOP_ZONE_SECONDS:
        kept = _laptop_zone[told] = (time.monotonic(), _look_up_laptop_zone())
    return kept[1]


def _look_up_laptop_zone() -> str:
    candidates = [os.environ.get("TZ", "").lstrip(":")]
    localtime = Path("/etc/localtime")
    if localtime.is_symlink():
        target = str(localtime.resolve())
        if "zoneinfo/" in target:
            candidates.append(target.split("zoneinfo/", 1)[1])
    try:
        candidates.append(Path("/etc/timezone").read_text(encoding="utf-8").strip())
    except OSError:
        pass
    return next((c for c in candidates if c in zone_names()), "UTC")


def check_zone(value) -> str | None:
    """A `time_zone` setting as stored: an IANA name, or None for this laptop's zone."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str) or value.strip() not in zone_names():
        raise TournamentError(_("must be a time zone name such as Europe/Stockholm, not "
                                "{value}").format(value=repr(str(value)[:60])))
    return value.strip()


def zone(name: str | None) -> ZoneInfo:
    """The time zone of a `time_zone` setting (None = this laptop's)."""
    try:
        return ZoneInfo(name or laptop_zone_name())
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def local(at: dt.datetime, tz: dt.tzinfo) -> dt.datetime:
    """`at` (aware; a naive one is taken as UTC, as the store keeps it) in zone `tz`."""
    if at.tzinfo is None:
        at = at.replace(tzinfo=dt.UTC)
    return at.astimezone(tz)


def clock_words(at: dt.datetime, tz: dt.tzinfo, *, seconds: bool = False) -> str:
    """"14:00" (or "14:00:05"): the time of day in the tournament's zone (24-hour in every
    language)."""
    here = local(at, tz)
    return here.strftime("%H:%M:%S") if seconds else i18n.clock(here.time())


def day_words(at: dt.datetime, tz: dt.tzinfo) -> str:
    """"Saturday 14:00" ("lördag 14:00", "samedi 14:00"): the day of the week and the time,
    in the tournament's zone and the run's language."""
    here = local(at, tz)
    if i18n.current() == i18n.ENGLISH:
        return f"{WEEKDAYS[here.weekday()]} {here:%H:%M}"
    return f"{i18n.day(here.date(), 'EEEE')} {i18n.clock(here.time())}"


def date_words(at: dt.datetime, tz: dt.tzinfo) -> str:
    """"2026-03-07 14:00": date and time in the tournament's zone (the log, files)."""
    return local(at, tz).strftime("%Y-%m-%d %H:%M")


def column(times: pd.Series, tz: dt.tzinfo) -> pd.Series:
    """A column of UTC times in the tournament's zone (still datetimes, for tables to format)."""
    times = pd.to_datetime(times, utc=True)
    return times.dt.tz_convert(tz)

