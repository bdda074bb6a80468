"""Helpers for the booking tests (R25): booking files in each format and a planned start."""

from __future__ import annotations

import csv
import datetime as dt
import io

import openpyxl

from stsa import store
from stsa.auth import Actor, Role


def xlsx(rows: list[list]) -> bytes:
    wb = openpyxl.Workbook()
    for row in rows:
        wb.active.append(row)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def csv_bytes(rows: list[list], delimiter: str = ",") -> bytes:
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter).writerows(rows)
    return out.getvalue().encode()


def plan_qualifier(engine, number: int, starts_at: dt.datetime, minutes: int = 150) -> None:
    """Qualifier `number` on the schedule, starting at `starts_at`, through the store as the
    Schedule page saves it (logged: the pages' shared reads see the new plan)."""
    olga = Actor("Olga", Role.ORGANIZER)
    items = store.schedule_items(engine)
    same = items.loc[(items["sitting_kind"] == "qualifier") & (items["sitting_number"] == number)]
    for item_id in same["item_id"].astype(int):
        store.delete_schedule_item(engine, item_id, actor=olga)
    store.add_schedule_item(engine, sitting_kind="qualifier", sitting_number=number,
                            starts_at=starts_at, minutes=minutes, actor=olga)
