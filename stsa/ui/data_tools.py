"""Files in and out, as pieces of pages: the roster upload (Roster page), the printed slips
and pairings (Draw page) and the published results (Data page). Everything here is for the
organizer or judges only (R20): the slips and lists read unpublished draws, and the judges'
copy lists removed leaders; the published results hold only what the public sees.

Downloads hand Streamlit a function, so a PDF or workbook is made when someone clicks, not on
every rerun."""

from __future__ import annotations

import enum
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass

import streamlit as st

from stsa import i18n
from stsa.auth import Actor
from stsa.domain import Role
from stsa.formats import guards, roster_file
from stsa.i18n import _, ngettext, pgettext
from stsa.services import archive, exports, roster_import
from stsa.services import settings as settings_service
from stsa.settings import Settings
from stsa.ui import organizer, people, session, widgets

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PDF = "application/pdf"
ZIP = "application/zip"
LOCAL_URL = "http://localhost:8501"
#: Uploaders' own limits (MB) under the server's 50 MB ceiling: a roster or booking list is small;
#: a tournament workbook of 2,000 players and 12 sittings is about 6.5 MB (50 MB allowed).
ROSTER_MB = guards.MAX_UPLOAD_BYTES // 2**20
WORKBOOK_MB = guards.MAX_WORKBOOK_BYTES // 2**20


# --- Roster: the spreadsheet upload ----------------------------------------------------------

def roster_upload(engine, me: Actor) -> None:
    """The template download, then upload → preview → import, all or nothing (R19). A file
    with bad rows shows the message and a table of the rows to fix, and changes nothing."""
    st.caption(_("Or upload a spreadsheet (.xlsx, .ods from LibreOffice, or .csv from any "
                 "spreadsheet) with a Name column; Club, City, Email and Player ID are kept "
                 "too. Start from the template:"))
    st.download_button(_("Roster template (.xlsx)"), data=roster_file.roster_template, mime=XLSX,
                       file_name="stsa-roster-template.xlsx", key="roster_template",
                       icon=":material/download:", on_click="ignore")
    version = st.session_state.get("roster_files", 0)
    upload = st.file_uploader(_("Roster spreadsheet"), type=["xlsx", "ods", "csv"],
                              key=f"roster_file_{version}", max_upload_size=ROSTER_MB)
    if upload is None:
        return
    try:
        sheet = roster_import.read_roster(upload)
    except roster_file.RosterError as exc:
        st.error(widgets.plain(_("{file}: {problem}").format(file=upload.name, problem=exc)),
                 icon=":material/error:")
        if exc.problems:
            st.dataframe(organizer.problems_frame(exc.problems), hide_index=True)
        return
    if sheet.empty:
        st.info(widgets.plain(_("{file} holds no players yet (the template's example row is "
                                "skipped): add one player a row under the headings and upload "
                                "it again. Nothing was added.").format(file=upload.name)))
        return
    count = len(sheet)
    st.markdown(ngettext("**{count} player** in {file}; the first rows:",
                         "**{count} players** in {file}; the first rows:", count).format(
        count=count, file=widgets.plain(upload.name)))
    st.dataframe(organizer.roster_preview(sheet), hide_index=True)
    if st.button(ngettext("Import {count} player", "Import {count} players", count).format(
            count=count), key="roster_file_import", type="primary"):
        if widgets.act(lambda: people.after_import(
                roster_import.import_roster(engine, sheet, actor=me)),
                       done=lambda added: ngettext("Imported {count} player.",
                                                   "Imported {count} players.",
                                                   len(added)).format(count=len(added))
                       ) is not None:
            st.session_state["roster_files"] = version + 1  # the uploader starts empty again
            st.rerun()


# --- Draw: slips and pairings ---------------------------------------------------------------

def browser_url(page: str = "") -> str | None:
    """The app's address as this browser reached it, without the page's own path (`page`,
    e.g. "draw"); None outside a browser session."""
    try:
        url = st.context.url
    except Exception:  # noqa: BLE001 - no browser session (scripts, some tests)
        url = None
    if not isinstance(url, str) or "://" not in url:
        return None
    url = url.split("?")[0].split("#")[0].rstrip("/")
    if page and url.endswith("/" + page):
        url = url[: -len(page) - 1]
    return url


class QrSource(enum.Enum):
    """Where the QR codes' address came from (`qr_address`)."""

    SETTING = "setting"  # the organizer typed it on the Draw page
    BROWSER = "browser"  # this browser's address, one phones can reach too
    NETWORK = "network"  # this laptop's address on the venue's network, as printed at start
    LOOPBACK = "loopback"  # only this laptop's own address is known: phones cannot open it


@dataclass(frozen=True)
class QrAddress:
    """The address the QR codes open, and where it came from."""

    url: str
    source: QrSource

    @property
    def reachable(self) -> bool:
        return self.source is not QrSource.LOOPBACK


def is_loopback(url: str) -> bool:
    """Whether `url` opens this laptop only (localhost, 127.0.0.1, ::1)."""
    from stsa.web import server
    return server.is_loopback(urllib.parse.urlsplit(url).hostname or "localhost")


def qr_address(public_url: str | None, browser: str | None,
               phones: Sequence[str] = ()) -> QrAddress:
    """Where the QR codes on slips, pairing lists and judges' invitations point, for phones on
    the venue's network: the address the organizer set, else this browser's unless it is this
    laptop's own (localhost), else the first address phones can open that the server found
    on this laptop at start (`phones`), else that loopback address, which only this laptop
    opens (the page says so)."""
    if public_url:
        return QrAddress(public_url, QrSource.SETTING)
    if browser and not is_loopback(browser):
        return QrAddress(browser, QrSource.BROWSER)
    if phones:
        return QrAddress(phones[0], QrSource.NETWORK)
    return QrAddress(browser or LOCAL_URL, QrSource.LOOPBACK)


def served_phones() -> tuple[str, ...]:
    """The addresses phones can open that this process's server found at start; none where
    no server runs (a script, the app tests)."""
    from stsa.web import server  # the addresses live with the server that printed them
    return server.SERVED.phones if server.SERVED is not None else ()


def qr_base(settings: Settings, page: str = "draw") -> QrAddress:
    """`qr_address` for this browser on `page` and this process's server."""
    return qr_address(settings.public_url, browser_url(page), served_phones())


def slip_base(settings: Settings, page: str = "draw") -> str:
    """Where the QR codes point (`qr_base`)."""
    return qr_base(settings, page).url


def qr_words(chosen: QrAddress, opens: str, *, organizer: bool) -> str:
    """The caption beside QR codes: what they open (`opens`, with `{url}` for the address)
    and why that address, in plain words; when only this laptop's own address is known, that
    phones cannot open it and what to do."""
    where = opens.format(url=chosen.url.rstrip("/"))
    if chosen.source is QrSource.SETTING:
        return (_("QR codes open {where}: the address set here.") if organizer else
                _("QR codes open {where}: the address the organizer set.")).format(where=where)
    if chosen.source is QrSource.BROWSER:
        return _("QR codes open {where}: the address of this browser.").format(where=where)
    if chosen.source is QrSource.NETWORK:
        return _("QR codes open {where}: this laptop's address on the venue's network, found "
                 "at start.").format(where=where)
    hint = (_("Type the address phones use in “App address for the QR codes” on the Draw page "
              "(STSA prints it at start, under “On phones”), or open STSA in this browser by "
              "that address.") if organizer else
            _("The organizer can set the address phones reach on the Draw page."))
    return _("QR codes open {where}: only this laptop opens that address, not the phones. "
             "{hint}").format(where=where, hint=hint)


def slug(text: str) -> str:
    """A file-name part: "Qualifier 2" → "qualifier-2"."""
    return "-".join("".join(c if c.isalnum() else " " for c in text.lower()).split()) or "sitting"


def paper(engine, settings: Settings, sitting_id: int, label: str, *, me: Actor) -> None:
    """The selected sitting's table slips (players' and judges' copies, with QR codes that
    open the table's result entry) and its pairings by name and by table, as PDFs. Judges
    and the organizer only (R20). The organizer sets the address the QR codes open;
    `settings` are the tournament's settings as this run read them."""
    with st.expander(_("Print: table slips and pairings"), icon=":material/print:"):
        if me.role is Role.ORGANIZER:
            typed = st.text_input(
                _("App address for the QR codes"), value=settings.public_url or "",
                max_chars=200, key="draw_public_url",
                placeholder="http://192.168.1.20:8501",  # i18n: as is (an address)
                help=_("The address judges' phones use to reach this app on the venue's "
                       "network, e.g. http://192.168.1.20:8501. Leave empty to use this "
                       "browser's address, or this laptop's on the venue's network when this "
                       "browser opened STSA as localhost."))
            if st.button(_("Save the address"), key="draw_public_url_save"):
                if widgets.act(lambda: settings_service.set_public_url(engine, typed, actor=me),
                               done=lambda s: _("QR codes now open {url}.").format(
                                   url=s["public_url"])
                               if s["public_url"] else _("QR codes now open this browser's "
                                                         "address, or this laptop's on the "
                                                         "venue's network.")) is not None:
                    st.rerun()
        chosen = qr_base(settings)
        base = chosen.url
        words = qr_words(chosen, _("{url}/results?table=… (slips) and {url}/player (pairings "
                                   "by name)"), organizer=me.role is Role.ORGANIZER)
        if chosen.reachable:
            st.caption(widgets.plain(words))
        else:
            st.warning(widgets.plain(words), icon=":material/wifi_off:")
        name = slug(label)
        # R27: with several tournaments the codes also name this one
        where = urllib.parse.urlencode(session.tournament_query())
        results_at = f"{base.rstrip('/')}/results?table={{table_id}}" + (
            f"&{where}" if where else "")
        player_at = f"{base.rstrip('/')}/player" + (f"?{where}" if where else "")
        files = [
            (_("Table slips · players' copy"), "slips", lambda: exports.table_slips(
                engine, sitting_id, judges_copy=False, result_url=results_at)),
            (_("Table slips · judges' copy (removed leaders)"), "slips-judges",
             lambda: exports.table_slips(engine, sitting_id, judges_copy=True,
                                          result_url=results_at)),
            (_("Pairings by player name"), "pairings-by-name",
             lambda: exports.pairings_by_name(engine, sitting_id, player_url=player_at)),
            (_("Pairings by table"), "pairings-by-table",
             lambda: exports.pairings_by_table(engine, sitting_id)),
        ]
        for text, kind, make in files:
            st.download_button(text, data=make, file_name=f"stsa-{name}-{kind}.pdf", mime=PDF,
                               key=f"draw_pdf_{kind}", icon=":material/picture_as_pdf:",
                               on_click="ignore", width="stretch")


# --- Data: the tournament workbook, made with progress shown ---------------------------------

def workbook_download(engine, tournament: str) -> None:
    """R19, R20 (organizer only): "Make the workbook" builds it with a progress bar (a large
    tournament takes seconds; `exports.tournament_workbook` reports each sheet), then offers
    it for download. The file is kept for this session and this tournament until made again;
    it holds the tournament as it stood when it was made, which the caption says."""
    key = ("data_workbook_file", session.tournament_id())
    made = st.session_state.get("data_workbook_file")
    made = made if made and made[0] == key else None
    if st.button(_("Make the workbook") if made is None else _("Make the workbook again"),
                 key="data_workbook_make", icon=":material/table_view:"):
        with st.status(_("Making the workbook…")) as status:
            bar = st.progress(0.0, text=_("Reading the tournament…"))
            def shown(fraction: float, words: str) -> None:
                bar.progress(fraction, text=words)

            content = widgets.act(lambda: exports.tournament_workbook(engine, progress=shown))
            status.update(label=_("The workbook is ready.") if content is not None
                          else _("The workbook could not be made."),
                          state="complete" if content is not None else "error")
        if content is not None:
            name = widgets.file_name(tournament, pgettext("file name", "workbook"), "xlsx")
            made = (key, name, content)
            st.session_state["data_workbook_file"] = made
    if made is not None:
        _key, name, content = made
        st.download_button(_("Tournament workbook (.xlsx, {size} MB)").format(
            size=i18n.number(len(content) / 2**20, 1)),
                           data=content, file_name=name, mime=XLSX, key="data_workbook",
                           icon=":material/download:", on_click="ignore")
        st.caption(_("Made as the tournament stood then ({file}); make it again for what "
                     "changed since.").format(file=name))


# --- Data: the published results -------------------------------------------------------------

def publish_results(tournament: str, reads) -> None:
    """Publish results (the Data page, organizer only): once the final is in, a button builds
    the results archive (`services.archive.publish`, showing how far it has got) and offers
    it as a zip named by the tournament; before that, why it cannot be published yet. The
    zip is offered while the tournament's data is as it was built from (a later save asks for
    a new one). `reads`: the tournament as the public sees it (`ui.data.now` as a
    spectator, R20), off the pages' shared shelf."""
    st.subheader(_("Publish results"), anchor=False)
    st.caption(_("One zip of the finished tournament for your own website: pages with the "
                 "final and qualifier standings, the finals, every sitting's tables and "
                 "results, the charts as images, and the same data as JSON and CSV. Players "
                 "are named by nickname only. Unzip it and open index.html, or upload the "
                 "folder to any web host."))
    sittings = reads.sittings()
    if not archive.finished(sittings):
        st.info(archive.not_finished_words(sittings), icon=":material/hourglass_top:")
        return
    kept = st.session_state.get("data_archive")
    if st.button(_("Publish results"), key="data_publish", icon=":material/publish:"):
        key = session.tournament_key() or "tournament"
        with st.status(_("Publishing the results…")) as status:
            bar = st.progress(0.0, text=_("Starting…"))
            made = widgets.act(lambda: archive.publish(
                reads, key, progress=lambda f, words: bar.progress(f, text=words)))
            status.update(label=_("The results are ready.") if made is not None
                          else _("The results could not be published."),
                          state="complete" if made is not None else "error")
        if made is not None:
            kept = (reads.url, reads.version, made)
            st.session_state["data_archive"] = kept
    if kept is None or kept[:2] != (reads.url, reads.version):
        return
    made = kept[2]
    files = len(made.files)
    st.download_button(ngettext("Download the results (.zip, {count} file)",
                                "Download the results (.zip, {count} files)", files).format(
        count=files),
                       data=made.content, file_name=widgets.file_name(
                           tournament, pgettext("file name", "results"), "zip"),
                       mime=ZIP, key="data_archive_zip", icon=":material/download:",
                       on_click="ignore")
