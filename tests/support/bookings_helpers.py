"""Helpers for the booking tests (R25): booking files in each format and a planned start."""

from __future__ import annotations

import csv
import datetime as dt
import io

import openpyxl
import sqlalchemy as sa

from stsa.store import schema


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
    """Qualifier `number` on the schedule, starting at `starts_at` (as the schedule page
    would save it)."""
    with engine.begin() as conn:
        conn.execute(sa.delete(schema.schedule_items).where(
            schema.schedule_items.c.sitting_kind == "qualifier",
            schema.schedule_items.c.sitting_number == number))
        conn.execute(sa.insert(schema.schedule_items).values(
            title=f"Qualifier {number}", sitting_kind="qualifier", sitting_number=number,
            starts_at=starts_at, minutes=minutes, updated_by="Olga",
            updated_at=dt.datetime.now(dt.UTC)))
