"""Paper for the tables and the wall (PDF, A4): a slip for each table of a sitting, and the
pairings listed by player name ("where do I sit?") and by table, made from plain frames.

Names print in any script DejaVu Sans covers (Debian package fonts-dejavu-core); without that
font the PDF falls back to the built-in Helvetica and letters outside Latin-1 become "?".
The frames are the judges' view of a sitting (drafts included); the players' copy of a slip and
the pairings lists never carry removed leaders (R20). `stsa.services.exports` reads the store
and calls these.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Literal

import pandas as pd
import qrcode
from fpdf import FPDF
from fpdf.enums import XPos, YPos

from stsa import catalog
from stsa.domain import (
    SITTING_STATUS_WORDS,
    SittingStatus,
    TournamentError,
    rule_change_line,
    sitting_label,
)
from stsa.i18n import N_, _, ngettext, pgettext

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
FONT_FILES = {"": "DejaVuSans.ttf", "B": "DejaVuSans-Bold.ttf"}
COLOUR_RGB = {"red": (204, 41, 41), "green": (46, 139, 67), "blue": (41, 92, 204),
              "yellow": (242, 201, 38), "black": (30, 30, 30), "white": (250, 250, 250),
              "purple": (128, 61, 168), "orange": (240, 128, 32), "grey": (128, 128, 128),
              "gray": (128, 128, 128), "pink": (232, 110, 170), "brown": (128, 82, 45)}
# The headings are English here (the grid's own keys) and translated where drawn.
GRID = [(N_("Seat"), 12), (N_("Player"), 46), (N_("Leader"), 40), (N_("VP"), 13),
        (N_("Spice"), 13), (N_("Solari"), 13), (N_("Troops"), 14), (N_("Water"), 13),
        (N_("Variant"), 16)]  # 180 mm
# Without a rule change nobody earns variant points (R24): no column for them.
PLAIN_GRID = [(h, 62 if h == "Player" else w) for h, w in GRID if h != "Variant"]
_ASCII = {"—": "-", "–": "-", "’": "'", "‘": "'", "“": '"', "”": '"', "…": "...", "•": "·",
          "●": "*", "Ł": "L", "ł": "l", "Đ": "D", "đ": "d", "ı": "i", "Œ": "OE", "œ": "oe"}


def result_link(table_id: int, result_url: Callable[[int], str] | str) -> str:
    """The address a table's QR code opens: `result_url(table_id)`, or for a string, the
    string with "{table_id}" filled in, or else `<base>/results?table=<table_id>`."""
    if callable(result_url):
        url = str(result_url(int(table_id)))
    else:
        base = str(result_url or "").strip()
        if "{table_id}" in base:
            url = base.replace("{table_id}", str(int(table_id)))
        else:
            url = f"{base.rstrip('/')}/results?table={int(table_id)}"
    if "://" not in url or url.startswith("://"):
        raise TournamentError(_("Give the app's web address for the QR codes, as players' "
                                "phones reach it, e.g. http://192.168.1.20:8501."))
    return url


def _qr_matrix(url: str) -> list[list[bool]]:
    """The QR code's modules (True = dark), without the quiet zone."""
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=0)
    code.add_data(url)
    code.make(fit=True)
    return code.get_matrix()


class _Doc(FPDF):
    """A4 portrait with STSA's fonts, a running title and page numbers."""

    def __init__(self, title: str, note: str = ""):
        super().__init__(orientation="P", unit="mm", format="A4")
        self.set_margins(15, 15, 15)
        self.set_auto_page_break(True, margin=16)
        self.page_title, self.note = title, note
        self.columns: list[tuple[str, float]] | None = None
        self.set_title(title)
        self.set_creator("STSA")
        self.family = "helvetica"
        if all((FONT_DIR / f).is_file() for f in FONT_FILES.values()):
            for style, file in FONT_FILES.items():
                self.add_font("DejaVu", style, FONT_DIR / file)
            self.family = "DejaVu"

    @property
    def unicode(self) -> bool:
        return self.family == "DejaVu"

    def clean(self, text) -> str:
        text = "" if text is None or (isinstance(text, float) and text != text) else str(text)
        if self.unicode:
            return text
        out = []
        for ch in unicodedata.normalize("NFC", text):
            ch = _ASCII.get(ch, ch)
            if len(ch) > 1:  # spelled out in Latin-1 already ("œ" → "oe", "…" → "...")
                out.append(ch)
                continue
            if ord(ch) > 255:  # outside Latin-1: its base letter ("ő" → "o"), else "?"
                base = "".join(c for c in unicodedata.normalize("NFKD", ch)
                               if not unicodedata.combining(c))
                ch = base if base and all(ord(c) < 256 for c in base) else "?"
            out.append(ch)
        return "".join(out)

    def font(self, size: float, bold: bool = False) -> None:
        self.set_font(self.family, "B" if bold else "", size)

    def fit(self, w: float, h: float, text, size: float, bold: bool = False, align: str = "L",
            border: Literal[0, 1] | str = 0, fill: bool = False) -> None:
        """One cell, the font shrunk (down to 6 pt, then cut with …) to fit `w`."""
        text = self.clean(text)
        self.font(size, bold)
        while size > 6 and self.get_string_width(text) > w - 2:
            size -= 0.5
            self.font(size, bold)
        while len(text) > 1 and self.get_string_width(text) > w - 2:
            text = text[:-2] + "…" if self.unicode else text[:-4] + "..."
        self.cell(w, h, text, border=border, align=align, fill=fill,
                  new_x=XPos.RIGHT, new_y=YPos.TOP)

    def para(self, text, size: float, bold: bool = False, h: float | None = None,
             w: float = 0, fill: bool = False) -> None:
        self.font(size, bold)
        self.multi_cell(w, h or size * 0.5, self.clean(text), new_x=XPos.LMARGIN,
                        new_y=YPos.NEXT, align="L", fill=fill, padding=1 if fill else 0)

    def para_fit(self, text, size: float, *, lines: int, minimum: float = 7,
                 bold: bool = False, fill: bool = False, w: float = 0) -> None:
        """`para` with the font shrunk (down to `minimum` pt) until the text takes at most
        `lines` lines of width `w` (0: the page's)."""
        text = self.clean(text)
        while size > minimum:
            self.font(size, bold)
            if len(self.multi_cell(w, size * 0.45, text, dry_run=True, output="LINES",  # type: ignore[arg-type]
                                   padding=1 if fill else 0)) <= lines:
                break
            size -= 0.5
        self.para(text, size, bold=bold, h=size * 0.45, w=w, fill=fill)

    def header(self) -> None:
        if not self.page_title:
            return
        self.set_text_color(90, 90, 90)
        self.fit(self.epw, 6, self.page_title, 10)
        self.ln(7)
        self.set_text_color(0, 0, 0)
        if self.columns:
            self.table_header(self.columns)

    def table_header(self, columns: Sequence[tuple[str, float]]) -> None:
        self.set_fill_color(221, 227, 234)
        for heading, width in columns:  # English headings, drawn in the paper's language
            self.fit(width, 8, _(heading), 11, bold=True, border=1, fill=True)
        self.ln(8)

    def footer(self) -> None:
        self.set_y(-13)
        self.set_text_color(110, 110, 110)
        self.fit(self.epw - 30, 6, self.note, 8)
        self.fit(30, 6, f"{self.page_no()} / {{nb}}", 8, align="R")
        self.set_text_color(0, 0, 0)

    def swatch(self, colour: str, x: float, y: float, size: float = 4) -> None:
        rgb = COLOUR_RGB.get(str(colour).strip().lower())
        if rgb is None:
            return
        self.set_fill_color(*rgb)
        self.set_draw_color(60, 60, 60)
        self.rect(x, y, size, size, style="DF")
        self.set_draw_color(0, 0, 0)

    def qr(self, url: str, x: float, y: float, size: float) -> None:
        """The QR code for `url`, drawn as vector squares (sharp at any printer resolution);
        leave 4 modules of white around it."""
        matrix = _qr_matrix(url)
        module = size / len(matrix)
        self.set_fill_color(0, 0, 0)
        for r, line in enumerate(matrix):
            c = 0
            while c < len(line):
                if line[c]:
                    start = c
                    while c < len(line) and line[c]:
                        c += 1
                    self.rect(x + start * module, y + r * module, (c - start) * module,
                              module, style="F")
                else:
                    c += 1

    def finish(self) -> bytes:
        return bytes(self.output())


def _setup_rows() -> dict[str, dict]:
    every = catalog.setups(battle_of_wills=True)
    return {row["setup_id"]: row for row in every.to_dict("records")}


def _steps(setup_id: str, removed: list, rows: dict[str, dict], vote_off: int | None = None,
           wild_card: bool = False) -> tuple[str, list[str]]:
    """The setup's name and its R8 steps, with this table's number of hidden picks, or the
    Vote Off votes and the Wild Card choice (R10)."""
    row = rows.get(setup_id)
    if row is None:
        return setup_id, [_("Set up {setup}.").format(setup=setup_id)]
    row = {**row, "hidden_picks": len(removed) if removed is not None else row["hidden_picks"]}
    return row["name"], catalog.setup_steps(row, vote_off=vote_off, wild_card=wild_card)


def _of_table(frame: pd.DataFrame | None, table_id: int) -> pd.DataFrame:
    if frame is None or frame.empty:
        return pd.DataFrame(columns=["table_id", "player_id", "leader"])
    return frame.loc[frame["table_id"] == table_id]


def _ordinal(n: int) -> str:
    """"1st", "2nd", "3rd", "4th" … in the paper's language ("1:a", "1er")."""
    if n == 1:
        return pgettext("ordinal", "1st")
    if 10 <= n % 100 <= 20:
        return _("{number}th").format(number=n)
    return {1: _("{number}st"), 2: _("{number}nd"), 3: _("{number}rd")}.get(
        n % 10, _("{number}th")).format(number=n)


def _title(sitting: Mapping) -> str:
    title = sitting_label(sitting["kind"], sitting["number"])
    if sitting["status"] != SittingStatus.DRAWN:
        return title
    return _("{sitting} ({status})").format(
        sitting=title, status=_(SITTING_STATUS_WORDS[SittingStatus.DRAWN]))


def _at_table(seats: pd.DataFrame, table_id: int) -> pd.DataFrame:
    return seats.loc[seats["table_id"] == table_id].sort_values("seat")


def table_slips(sitting: Mapping, tables: pd.DataFrame, seats: pd.DataFrame, *,
                tournament_name: str, judges_copy: bool,
                result_url: Callable[[int], str] | str, vote_off_votes: int | None = None,
                votes: pd.DataFrame | None = None,
                wild_cards: pd.DataFrame | None = None, steps_vote_off: int | None = None,
                wild_card: bool = False) -> bytes:
    """A PDF with one A4 page per table of the sitting: sitting, table, setup and its setup
    steps in R8's order, the seats in play order with colour, player and pick order (R3, R9), a
    blank result grid (R13) and a QR code opening the table's result entry
    (`result_link(table_id, result_url)`). The judges' copy also lists the removed and
    available leaders; the players' copy never does (R20).

    `sitting` has `kind, number, status`; `tables` the store's table columns (`table_id,
    table_no, setup_id, removed_leaders, available_leaders`); `seats` the store's seat columns
    (`table_id, seat, player_id, name, colour, pick_order`). A sitting with a rule change
    (`rule_change`, `rule_change_points`, R24) has it on every slip, under the heading, and a
    Variant column in the grid for its extra points; without one the grid has none.

    Leader picks (R10), on the judges' copy only: `vote_off_votes` is X under Vote Off (None
    otherwise): a table without `votes` (`table_id, player_id, leader`) gets a line per player
    to write their X votes, one with votes lists them and the leaders they removed;
    `wild_cards` (`table_id, seat, player_id, picked_leader, swapped, leader`) lists each
    player's Wild Card choice once made. On both copies the setup steps have the votes
    (`steps_vote_off`: X under Vote Off) and, with `wild_card`, the Wild Card choice."""
    note = (_("Judges' copy: lists the removed leaders, keep it from the players.")
            if judges_copy else _("Players' copy."))
    doc = _Doc("", note)
    doc.set_auto_page_break(False)
    slip = _Slip(doc, _title(sitting), tournament_name, _setup_rows(), judges_copy)
    slip.vote_off, slip.votes, slip.wild_cards = vote_off_votes, votes, wild_cards
    slip.steps_vote_off, slip.wild_card = steps_vote_off, wild_card
    slip.rule_change = rule_change_line(sitting)
    for table in tables.itertuples(index=False):
        slip.page(table, _at_table(seats, table.table_id), result_link(table.table_id,
                                                                        result_url))
    return doc.finish()


class _Slip:
    """One table's slip, drawn part by part on its own page."""

    QR_SIZE = 36
    vote_off: int | None = None  # X under Vote Off (R10)
    votes: pd.DataFrame | None = None
    wild_cards: pd.DataFrame | None = None
    steps_vote_off: int | None = None  # the setup steps' Vote Off (X), both copies
    wild_card: bool = False  # the setup steps' Wild Card choice, both copies
    rule_change = ""  # the sitting's rule change in one line (R24), "" for none

    def __init__(self, doc: _Doc, title: str, name: str, setups: dict, judges_copy: bool):
        self.doc, self.title, self.name = doc, title, name
        self.setups, self.judges_copy = setups, judges_copy

    def page(self, table, at_table: pd.DataFrame, url: str) -> None:
        self.doc.add_page()
        setup_name, steps = _steps(table.setup_id, table.removed_leaders, self.setups,
                                   self.steps_vote_off, self.wild_card)
        self.heading(table, setup_name)
        below_heading = self.doc.get_y() + 6.5
        self.qr(url)
        if self.rule_change:
            self.rule(below_heading)
        self.seats(at_table)
        self.steps(steps)
        if self.judges_copy:
            self.leaders(table, at_table)
        self.grid(at_table)

    def heading(self, table, setup_name: str) -> None:
        doc, width = self.doc, self.doc.epw - self.QR_SIZE - 6
        doc.set_text_color(90, 90, 90)
        doc.fit(width, 6, self.name, 10)
        doc.ln(6)
        doc.set_text_color(0, 0, 0)
        doc.fit(width, 13, _("{sitting} · Table {table}").format(sitting=self.title,
                                                                  table=table.table_no),
                24, bold=True)
        doc.ln(13)
        doc.fit(width, 8, setup_name, 15, bold=True)
        doc.ln(9)
        doc.set_text_color(90, 90, 90)
        doc.fit(width, 6, _("Judges' copy") if self.judges_copy else _("Players' copy"), 10,
                bold=self.judges_copy)
        doc.set_text_color(0, 0, 0)

    def qr(self, url: str) -> None:
        doc, size = self.doc, self.QR_SIZE
        qr_x, qr_y = doc.l_margin + doc.epw - size, 13
        doc.qr(url, qr_x, qr_y, size)
        doc.set_xy(qr_x - 12, qr_y + size + 1)
        doc.fit(size + 12, 4, _("Scan to enter the result"), 7.5, align="C")
        doc.set_xy(qr_x - 12, qr_y + size + 5)
        doc.fit(size + 12, 4, url, 6.5, align="C")
        doc.set_xy(doc.l_margin, max(doc.get_y(), qr_y + size + 11))

    def rule(self, top: float) -> None:
        """The sitting's rule change and how its extra points are earned (R24), under the
        heading beside the QR code: two lines, the font shrunk as far as needed (down to 7
        pt), so the slip stays one page."""
        doc = self.doc
        below_qr = doc.get_y()
        doc.set_xy(doc.l_margin, top)
        doc.set_fill_color(222, 235, 247)
        doc.para_fit(_("Rule change this sitting: {rule}").format(rule=self.rule_change), 9.5,
                     lines=2,
                     bold=True, fill=True, w=doc.epw - self.QR_SIZE - 14)
        doc.set_xy(doc.l_margin, max(doc.get_y() + 1.5, below_qr))

    def seats(self, at_table: pd.DataFrame) -> None:
        doc, left = self.doc, self.doc.l_margin
        doc.fit(doc.epw, 8, _("Seats: seat 1 plays first, then clockwise"), 12, bold=True)
        doc.ln(8)
        doc.table_header([(N_("Seat"), 16), (N_("Colour"), 34), (N_("Player"), 100),
                          (N_("Picks leader"), 30)])
        for seat in at_table.itertuples(index=False):
            y = doc.get_y()
            doc.fit(16, 8.5, seat.seat, 13, bold=True, align="C", border=1)
            doc.fit(34, 8.5, f"      {seat.colour}", 12, border=1)
            doc.swatch(seat.colour, left + 18, y + 2.25)
            doc.fit(100, 8.5, seat.name, 13, bold=True, border=1)
            doc.fit(30, 8.5, _ordinal(int(seat.pick_order)), 12, align="C", border=1)
            doc.ln(8.5)
        doc.ln(0.5)
        doc.para(_("The player in the last seat picks first; picks pass counter-clockwise."),
                 8.5)
        doc.ln(1.5)

    def steps(self, steps: list[str]) -> None:
        doc = self.doc
        doc.fit(doc.epw, 7, _("Setup steps, in this order"), 12, bold=True)
        doc.ln(7)
        for number, step in enumerate(steps, start=1):
            doc.set_x(doc.l_margin)
            doc.fit(8, 5, f"{number}.", 10, bold=True)
            doc.para(step, 10, h=5, w=doc.epw - 8)
        doc.ln(1.5)

    def leaders(self, table, at_table: pd.DataFrame) -> None:
        """The judges' copy only (R9, R10, R20): the removed leaders and what is left to pick;
        under Vote Off the lines for the votes or the votes entered; the Wild Card choices."""
        doc = self.doc
        removed = list(table.removed_leaders or [])
        available = list(table.available_leaders or [])
        names = dict(zip(at_table["player_id"], at_table["name"]))
        votes = _of_table(self.votes, table.table_id)
        if self.vote_off and votes.empty:
            self.vote_lines(at_table)
            return
        doc.set_fill_color(253, 236, 206)
        leaders = " · ".join(removed) if removed else _("none")
        doc.para((_("Removed leaders (by the votes): {leaders}") if self.vote_off else
                  _("Removed leaders (for the judges only): {leaders}")).format(leaders=leaders),
                 10, bold=True, h=5.5, fill=True)
        doc.ln(1)
        if not votes.empty:
            doc.para(_("Votes: {votes}").format(votes="; ".join(
                _("{player}: {leaders}").format(player=names.get(p, p),
                                                leaders=", ".join(g["leader"]))
                for p, g in votes.groupby("player_id", sort=False))), 8.5, h=4.3)
        doc.para(_("Leaders left to pick from: {leaders}").format(
            leaders=" · ".join(available) if available else "-"), 8.5, h=4.3)
        cards = _of_table(self.wild_cards, table.table_id)
        if not cards.empty:
            doc.para(_("Wild Card: {choices}").format(choices="; ".join(
                (_("{player}: drew {leader} (gave up {picked})") if c.swapped
                 else _("{player}: kept {leader}")).format(
                    player=names.get(c.player_id, c.player_id), leader=c.leader,
                    picked=c.picked_leader)
                for c in cards.sort_values("seat").itertuples())), 8.5, h=4.3)
        doc.ln(1)

    def vote_lines(self, at_table: pd.DataFrame) -> None:
        """Vote Off before the votes: a line per player for their X secret votes (R10)."""
        assert self.vote_off is not None  # drawn only under Vote Off
        doc = self.doc
        doc.set_fill_color(253, 236, 206)
        doc.para(ngettext("Vote Off: each player secretly votes off {count} leader; the two "
                          "with the most votes are removed (judges only)",
                          "Vote Off: each player secretly votes off {count} leaders; the two "
                          "with the most votes are removed (judges only)",
                          self.vote_off).format(count=self.vote_off),
                 10, bold=True, h=5.5, fill=True)
        blanks = "   ".join(["______________"] * int(self.vote_off))
        for seat in at_table.itertuples(index=False):
            doc.para(_("Seat {seat} {player}: {blanks}").format(seat=seat.seat, player=seat.name,
                                                               blanks=blanks), 9, h=5)
        doc.ln(1)

    def grid(self, at_table: pd.DataFrame) -> None:
        """A blank result grid (R11, R13) and the lines for a settled tie and the judge."""
        doc = self.doc
        doc.fit(doc.epw, 7, _("Result (placing by VP, then spice, solari, troops, water)"), 12,
                bold=True)
        doc.ln(7)
        grid = GRID if self.rule_change else PLAIN_GRID
        doc.table_header(grid)
        for seat in at_table.itertuples(index=False):
            for heading, w in grid:
                value = {"Seat": seat.seat, "Player": seat.name}.get(heading, "")
                doc.fit(w, 10, value, 10, bold=heading == "Seat", border=1,
                        align="C" if heading == "Seat" else "L")
            doc.ln(10)
        doc.ln(2)
        doc.para(_("Equal on all five? Settle the order (e.g. a roll-off) and write it here: "
                   "____________________"), 9.5, h=6)
        doc.para(_("Judge: ______________________   Time: ________"), 9.5, h=6)


def pairings_by_name(sitting: Mapping, seats: pd.DataFrame, sit_outs: list[str], *,
                     tournament_name: str,
                     name_key: Callable[[str], str] = str.casefold,
                     player_url: str | None = None) -> bytes:
    """Where do I sit? Every seated player of the sitting by name (case and accents as
    typed, compared by `name_key`), in large type: table, seat, colour; then who sits out
    (R1), by name. With `player_url` (the address of the players' own page), a QR code to
    it heads the list."""
    order = sorted(seats.itertuples(index=False), key=lambda s: (name_key(s.name), s.name))
    doc = _Doc(_("{tournament} · {sitting} · Where do I sit?").format(
        tournament=tournament_name, sitting=_title(sitting)), _("Sorted by player name."))
    doc.add_page()
    if player_url:
        _player_qr(doc, player_url)
    doc.columns = [(N_("Player"), 100), (N_("Table"), 28), (N_("Seat"), 22), (N_("Colour"), 30)]
    doc.table_header(doc.columns)
    for i, seat in enumerate(order):
        if doc.will_page_break(10):
            doc.add_page()
        fill = i % 2 == 1
        doc.set_fill_color(242, 242, 242)
        y = doc.get_y()
        doc.fit(100, 10, seat.name, 16, bold=True, fill=fill)
        doc.fit(28, 10, seat.table_no, 20, bold=True, align="C", fill=fill)
        doc.fit(22, 10, seat.seat, 16, align="C", fill=fill)
        doc.fit(30, 10, f"      {seat.colour}", 14, fill=fill)
        doc.swatch(seat.colour, doc.l_margin + 151, y + 3)
        doc.ln(10)
    _sit_outs(doc, sit_outs)
    return doc.finish()


def _player_qr(doc: _Doc, url: str, size: float = 30) -> None:
    """A QR code opening the players' own page, with what it shows, above the list."""
    y, width = doc.get_y(), doc.epw - size - 6
    doc.qr(url, doc.l_margin + doc.epw - size, y, size)
    doc.para(_("Your seat on your phone"), 16, bold=True, h=8, w=width)
    doc.para(_("Scan the code, type your nickname and tap it: your table, seat and colour, your "
               "games and your rank. Bookmark the page: it shows your seat at every sitting."),
             11, h=5.5, w=width)
    doc.fit(width, 5, url, 9)
    doc.set_xy(doc.l_margin, y + size + 4)


def pairings_by_table(sitting: Mapping, tables: pd.DataFrame, seats: pd.DataFrame,
                      sit_outs: list[str], *, tournament_name: str) -> bytes:
    """The sitting's tables for the wall: each table's setup, then its seats in play order
    with colour and player, in large type; a table is never split across pages; then who
    sits out (R1)."""
    setups = _setup_rows()
    doc = _Doc(_("{tournament} · {sitting} · Tables").format(tournament=tournament_name,
                                                            sitting=_title(sitting)),
               _("Seat 1 plays first; play goes clockwise."))
    doc.add_page()
    left, width = doc.l_margin, doc.epw
    for table in tables.itertuples(index=False):
        at_table = _at_table(seats, table.table_id)
        if doc.will_page_break(12 + 9 * len(at_table) + 4):
            doc.add_page()
        doc.set_fill_color(221, 227, 234)
        doc.fit(40, 11, _("Table {table}").format(table=table.table_no), 18, bold=True,
                fill=True)
        doc.fit(width - 40, 11, setups.get(table.setup_id, {}).get("name", table.setup_id), 13,
                fill=True)
        doc.ln(12)
        for seat in at_table.itertuples(index=False):
            y = doc.get_y()
            doc.fit(22, 9, _("Seat {seat}").format(seat=seat.seat), 13, align="C")
            doc.fit(34, 9, f"      {seat.colour}", 13)
            doc.swatch(seat.colour, left + 24, y + 2.5)
            doc.fit(width - 56, 9, seat.name, 16, bold=True)
            doc.ln(9)
        doc.ln(4)
    _sit_outs(doc, sit_outs)
    return doc.finish()


def _sit_outs(doc: _Doc, names: list[str]) -> None:
    if not names:
        return
    doc.columns = None
    doc.ln(4)
    doc.para(_("Sitting out this sitting: {players}").format(players=", ".join(names)), 13,
             bold=True, h=7)
