"""R25: reading a booking file (header variants, booking order or time, every bad row named,
hostile files refused by the roster's guards) and matching its rows to players."""

from __future__ import annotations

import io
import zipfile

import pandas as pd
import pytest

from stsa.formats import booking_file
from stsa.formats.booking_file import BookingError, match_bookings, read_bookings
from tests.support.bookings_helpers import csv_bytes, xlsx


def refused(data: bytes, pattern: str) -> None:
    with pytest.raises(BookingError, match=pattern):
        read_bookings(data)


def test_a_venue_export_with_title_rows_and_booking_times_in_booking_order():
    data = xlsx([["DUNE Qualifier 3 bookings"], [],
                 ["Booked at", "Participant", "E-mail"],
                 ["2026-03-01 10:42", "Ann Lee", "ann@example.com"],
                 ["2026-02-28 09:00", "Bo Ek", ""],
                 [None, None, None],
                 ["2026-03-02 08:00", "", "cy@example.com"]])
    rows = read_bookings(data)
    assert rows["row"].tolist() == [5, 4, 7]  # by booking time
    assert rows["name"].tolist() == ["Bo Ek", "Ann Lee", ""]
    assert rows["email"].tolist() == ["", "ann@example.com", "cy@example.com"]


def test_a_booking_order_column_orders_the_rows():
    rows = read_bookings(csv_bytes([["Nick", "#"], ["Zed", "2"], ["Amy", "1"]], ";"))
    assert rows["nickname"].tolist() == ["Amy", "Zed"]
    assert rows["position"].tolist() == [1, 2]


def test_without_order_or_time_the_rows_are_the_booking_order():
    rows = read_bookings(csv_bytes([["Name"], ["Zed"], ["Amy"]]))
    assert rows["name"].tolist() == ["Zed", "Amy"]


def test_every_bad_row_is_named_and_nothing_is_read():
    data = csv_bytes([["Name", "Booking time", "Order"], ["Ann", "yesterday", "1"],
                      ["", "", "2"], ["Bo", "2026-03-01 10:00", "1"], ["Cy", "", "x"]])
    with pytest.raises(BookingError) as info:
        read_bookings(data)
    text = str(info.value)
    assert "row 2" in text and "booking time “yesterday”" in text
    assert "row 3" in text and "no name, nickname or e-mail" in text
    assert "row 4" in text and "the same booking order (1) as row 2" in text
    assert "row 5" in text and "not a whole number" in text


def test_a_file_without_a_who_column_is_refused():
    refused(csv_bytes([["Seat", "Time"], ["1", "10:00"]]), "No name, nickname or e-mail")


def test_hostile_and_broken_files_are_refused_by_the_roster_guards():
    refused(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 4000, "password-protected|old .xls")
    refused(b"PK\x03\x04 not really a zip", "damaged|not")
    refused(b"x" * (6 * 2**20), "larger than 5 MB")
    refused(("Name\n" + "x\n" * 20_001).encode(), "more than 20,000 rows")
    base = xlsx([["Name"], ["Ann"]])
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(base)) as src, zipfile.ZipFile(
            out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            dst.writestr(info.filename, src.read(info))
        dst.writestr("xl/media/padding.xml", b" " * (20 * 2**20))
    refused(out.getvalue(), "zip bomb")


def test_a_formula_cell_gives_its_value_and_formula_text_stays_text():
    rows = read_bookings(csv_bytes([["Name"], ["=HYPERLINK(\"x\")"]]))
    assert rows["name"].tolist() == ['=HYPERLINK("x")']  # matched as text, never run


def test_an_ods_file_is_read():
    from tests.unit.test_roster_ods import frame_ods
    rows = read_bookings(frame_ods([["Nickname"], ["Amy"]]))
    assert rows["nickname"].tolist() == ["Amy"]


# -- matching ---------------------------------------------------------------------------------
PLAYERS = pd.DataFrame({"player_id": [1, 2, 3, 4],
                        "name": ["Ann Lee", "Bo Ek", "Cy Berg", "Sam"],
                        "nickname": ["Annie", "Bo Ek", "Spice Lord", "Sammy"],
                        "email": ["ann@example.com", "", "cy@example.com", ""]})


def booking_rows(*rows: tuple) -> pd.DataFrame:
    """(name, nickname, email) per row, rows numbered from 2."""
    return pd.DataFrame({"row": range(2, 2 + len(rows)), "name": [r[0] for r in rows],
                         "nickname": [r[1] for r in rows], "email": [r[2] for r in rows],
                         "position": pd.array([None] * len(rows), dtype="Int64"),
                         "booked_at": pd.to_datetime([None] * len(rows))})


def test_rows_match_by_email_then_nickname_then_name_ignoring_case_and_spaces():
    matched, problems = match_bookings(booking_rows(
        ("Someone Else", "", "ANN@example.com "), ("", "spicelord", ""), ("bo  ek", "", ""),
        ("Nobody", "", "")), PLAYERS)
    assert problems == []
    assert matched["player_id"].tolist() == [1, 3, 2, pd.NA]
    assert matched["matched_by"].tolist() == ["e-mail", "nickname", "nickname", ""]


def test_an_ambiguous_row_and_a_player_booked_twice_are_named_by_row():
    players = pd.concat([PLAYERS, pd.DataFrame({"player_id": [5], "name": ["Sammy"],
                                                "nickname": ["Kid"], "email": [""]})])
    matched, problems = match_bookings(booking_rows(
        ("Sammy", "", ""), ("Ann Lee", "", ""), ("", "Annie", "")), players)
    text = "; ".join(map(str, problems))
    assert "row 2" in text and "more than one player (Kid, Sammy)" in text
    assert "row 4" in text and "Annie is booked twice (also in row 3)" in text


def test_booking_order_sorts_by_position_then_time_then_row():
    frame = booking_rows(("a", "", ""), ("b", "", ""), ("c", "", "")).assign(
        position=pd.array([None, 1, None], dtype="Int64"))
    assert booking_file.booking_order(frame)["name"].tolist() == ["b", "a", "c"]
