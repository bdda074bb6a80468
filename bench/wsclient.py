"""A Streamlit client without a browser: it speaks the app's own websocket protocol.

Why: the security tests and the load generator need many real sessions against a real server
(its own threads, caches, rate limits and database), faster and lighter than a browser, and
able to send what a browser would never send (a `clear_cache` message, a form submit from 15
connections at once).

The protocol, as Streamlit 1.67's server (Starlette) and frontend use it:

- The browser opens `ws://host/_stcore/stream` offering the subprotocol list
  `streamlit, <xsrf token>, <old session id>`: the first entry is the protocol the server
  selects, the others only carry tokens (an auth cookie's XSRF check, a reconnect). This
  client offers `streamlit` alone; nothing else is needed without Streamlit's own auth.
- Every frame is binary protobuf: the client sends `BackMsg`, the server `ForwardMsg`. The
  server sends nothing until the client asks for a run.
- A run is asked for with `BackMsg.rerun_script`, a `ClientState`: the address's query
  string (no `?`), `page_script_hash` (the current page, once the client knows it), or on a
  fresh load `page_name` (the address path, e.g. `sign_in`, which `st.navigation` matches
  against each page's url path), the `widget_states` and a `context_info` (locale, time zone,
  address).
- Each script run starts with a `new_session` message (its `page_script_hash`; the first one
  also carries the `session_id`) and ends with `script_finished`. `st.rerun()` ends a run with
  `FINISHED_EARLY_FOR_RERUN`, and the next run of the same chain follows at once: what a person
  sees is the last run, after a `script_finished` of any other status.
- In between, `delta` messages carry the page: `new_element` / `add_block` at a position
  (`metadata.delta_path`, e.g. `[0, 3, 1]` = main area, 4th block, 2nd element); a later delta
  at the same position replaces the earlier one. `navigation` lists the pages this run offers
  (title, `url_pathname`, `page_script_hash`); `page_info_changed` carries the query string
  the app set (`st.query_params`), which the browser puts in its address and sends back with
  every later run.
- Widgets: every widget element has an `id` (for a widget with a `key`, the id ends with
  `-<key>`). Values travel in `WidgetStates` by id: `string_value` for text inputs, radios and
  select boxes (the option's label), `bool_value`, `int_value` / `double_value`,
  `string_array_value`; a button press is `trigger_value=True` for one run only. The
  browser sends the values of all the widgets it shows with every run. A form's widgets keep
  their edits in the browser until its submit button is pressed: then the values and the
  button's trigger go in one run.
- Components (`st.components.v2.component`) are elements of kind `bidi_component`: the
  component's name, its `data` (JSON in `proto.json`) and an `id`, which is the widget id of
  its state (a keyed component's id ends with `-<key>` like a widget's). What its script sets
  with `setStateValue(name, value)` travels as `json_value`: the JSON of the whole state
  object (every name set so far), sent with every later run as a widget value is. What it
  sends with `setTriggerValue(event, value)` travels for one run only, under a second widget
  id, the component's trigger aggregator `$$STREAMLIT_INTERNAL_KEY_<id>__events`, as
  `json_trigger_value`: a JSON list of `{"event": …, "value": …}`. The app reads it as
  `result.<event>` (or in its `on_<event>_change` callback, which runs before the script).
- A widget whose value the app set (through `st.session_state[key]`) comes with
  `set_value=True` and the value (`value`, or `raw_value` for select boxes and radios, the
  option's label): the browser shows that value and sends it from then on, instead of what it
  had before.
- `BackMsg.clear_cache` makes the server clear `st.cache_data`, `st.cache_resource` (for every
  user of the app) and this session's `st.session_state`. It answers nothing.
- Page changes: the browser sends the new page's `page_script_hash` and drops the query string
  (except parameters bound to widgets).
- Fragments (`st.fragment`): every delta of a fragment's elements carries the fragment's id
  (`delta.fragment_id`); a fragment with `run_every` also sends an `auto_rerun` message (its id
  and the interval in seconds) on each full run. The browser then reruns it on a timer
  (`setInterval`) by sending `rerun_script` as for any run, with the widget values, plus the
  ClientState's `fragment_id` and `is_auto_rerun=True`. The server answers with a
  `new_session` whose `metadata.run.fragment_ids` names the fragment, the fragment's deltas
  (at the same positions as before) and `script_finished` =
  `FINISHED_FRAGMENT_RUN_SUCCESSFULLY`; the rest of the page stays as it was, and elements of
  the fragment that were not sent again disappear. `stop_auto_rerun` cancels timers. A rerun
  asked for a fragment the session no longer holds is dropped by the server without an answer.
- Over https:// the websocket is `wss://`, and the client's reads and writes take turns
  (`TurnTakingTLS`): websockets reads in a thread of its own, and a TLS connection entered by
  two threads at once now and then loses what is being written.

Use (each `Session` is one person: its own connection, its own Streamlit session; use one
Session from one thread at a time, and as many Sessions in parallel as you like):

    with Session("http://127.0.0.1:8501", path="sign_in") as s:
        first = s.run()                                   # the page as a fresh load shows it
        done = s.submit_form("Sign in", {"Your name": "Ann", "PIN": "123456"})
        assert "Signed in as" in done.text(), done.texts()
        print(done.query, done.seconds)                   # session=…, seconds for the run
        s.clear_cache()

    with Session("http://127.0.0.1:8501", path="results") as s:  # a component's trigger
        page = s.run()
        entry = page.component(key="res_entry_12")        # or by its name
        done = s.trigger(entry, "save", {"rows": [...]})  # setTriggerValue("save", …): one run

    with Session("http://127.0.0.1:8501", path="standings") as s:
        page = s.run()
        print(page.fragments)                   # {fragment id: seconds between auto-reruns}
        again = s.rerun_fragment()              # what the browser's timer sends
        assert again.status == "fragment_finished" and again.fragment_ids

After a `RunTimeout` or `ProtocolError`, close the session: messages of the unfinished run may
still arrive. Not done: fragments' automatic reruns (`run_every`), file uploads, dialogs, the
data of charts and tables beyond their element protos, Streamlit's own auth cookies, what a
component's script draws or fetches in the browser (send what it would send: `trigger`,
`set_state`). Fragment timers are not run by themselves: call `rerun_fragment()` when the
browser's timer would fire.
"""

from __future__ import annotations

import functools
import json
import re
import select
import socket
import ssl as ssl_module
import threading
import time
import urllib.parse
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.Element_pb2 import Element as ElementProto
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect

__all__ = ["Session", "Run", "Element", "ProtocolError", "RunTimeout"]

STREAM_PATH = "_stcore/stream"
SUBPROTOCOL = "streamlit"
DEFAULT_TIMEOUT = 60.0  # seconds a run may take before `run` gives up

_EARLY = ForwardMsg.FINISHED_EARLY_FOR_RERUN
_STATUS = {ForwardMsg.FINISHED_SUCCESSFULLY: "finished",
           ForwardMsg.FINISHED_WITH_COMPILE_ERROR: "compile_error",
           ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY: "fragment_finished"}

# Widgets whose value is a string (text, or the label of the chosen option).
_STRING_WIDGETS = {"text_input", "text_area", "radio", "selectbox", "color_picker"}
_TRIGGER_WIDGETS = {"button"}
_WIDGET_KINDS = (_STRING_WIDGETS | _TRIGGER_WIDGETS
                 | {"checkbox", "number_input", "multiselect", "slider", "date_input",
                    "time_input", "date_time_input", "button_group", "download_button",
                    "file_uploader", "camera_input", "chat_input", "audio_input",
                    "data_editor", "menu_button", "bidi_component"})
# A component's trigger aggregator is "<prefix><component id>__events".
_TRIGGER_PREFIX = "$$STREAMLIT_INTERNAL_KEY_"
# An unescaped Markdown link: `[text](target)` whose `[` is not escaped by a backslash.
MARKDOWN_LINK = re.compile(r"(?<!\\)\[[^\]\n]*\]\([^)\n]*\)")


class TurnTakingTLS:
    """A TLS socket whose reads and writes take turns.

    websockets' client reads in a thread of its own while others write (the opening request,
    pings, messages), and one TLS connection must not be entered by two threads at once: over
    TLS 1.3 the reader meets the server's session tickets while the opening request is being
    written, and now and then that request never leaves (the server then closes the
    connection for headers that never came). A browser keeps each connection to one thread;
    so does this: every call into TLS holds a lock, never across a wait for the network.
    """

    def __init__(self, sock: ssl_module.SSLSocket):
        self._sock = sock
        self._lock = threading.Lock()
        self._timeout: float | None = sock.gettimeout()
        # Closing a socket does not wake a thread waiting on it; closing this pair's one end does.
        self._woken, self._wake = socket.socketpair()
        sock.setblocking(False)

    def __getattr__(self, name: str) -> Any:  # fileno, getpeername, … of the socket
        return getattr(self._sock, name)

    def settimeout(self, value: float | None) -> None:
        self._timeout = value

    def gettimeout(self) -> float | None:
        return self._timeout

    def recv(self, size: int) -> bytes:
        return self._take_turn(lambda: self._sock.recv(size))

    def sendall(self, data: bytes) -> None:
        view = memoryview(data).cast("B")
        deadline = self._deadline()
        while view:
            view = view[self._take_turn(functools.partial(self._sock.send, view), deadline):]

    def shutdown(self, how: int) -> None:
        with self._lock:
            self._sock.shutdown(how)

    def close(self) -> None:
        with self._lock:
            self._sock.close()
            self._wake.close()  # wakes a reader waiting on the pair
            self._woken.close()

    def _deadline(self) -> float | None:
        return None if self._timeout is None else time.monotonic() + self._timeout

    def _take_turn(self, call, deadline: float | None = None):
        deadline = self._deadline() if deadline is None else deadline
        while True:
            with self._lock:
                try:
                    return call()
                except ssl_module.SSLWantReadError:
                    readable = True
                except ssl_module.SSLWantWriteError:
                    readable = False
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise TimeoutError("timed out")
            # poll, not select: a room's client holds thousands of descriptors, and select
            # refuses any numbered 1024 or more
            waiting = select.poll()
            try:
                waiting.register(self._woken, select.POLLIN)
                waiting.register(self._sock.fileno(), select.POLLIN if readable
                                 else select.POLLOUT)
            except ValueError:  # closed meanwhile: no descriptor to wait on
                raise OSError("the connection was closed") from None
            waiting.poll(None if left is None else left * 1000)


class TurnTakingConnection(ClientConnection):
    """websockets' client connection over a `TurnTakingTLS` socket when it speaks TLS."""

    def __init__(self, sock, *args, **kwargs):
        if isinstance(sock, ssl_module.SSLSocket):
            sock = TurnTakingTLS(sock)
        super().__init__(sock, *args, **kwargs)


class ProtocolError(RuntimeError):
    """The server closed the connection or sent something this client cannot follow."""


class RunTimeout(TimeoutError):
    """A run did not finish in time; `.messages` holds what had arrived."""

    def __init__(self, message: str, messages: list[ForwardMsg]):
        super().__init__(message)
        self.messages = messages


# --- what a run shows -------------------------------------------------------------------------

@dataclass
class Element:
    """One element of the page: `kind` is the Element proto's field (`markdown`, `alert`,
    `text_input`, `button`, …), `path` its position, `proto` the element's own message."""

    kind: str
    path: tuple[int, ...]
    proto: Any
    fragment_id: str = ""  # the st.fragment this element belongs to ("" = none)

    @property
    def widget_id(self) -> str | None:
        return (getattr(self.proto, "id", "") or None) if self.is_widget else None

    @property
    def is_widget(self) -> bool:
        return self.kind in _WIDGET_KINDS

    @property
    def label(self) -> str:
        return getattr(self.proto, "label", "")

    @property
    def data(self) -> Any:
        """A component's data (the JSON it was given), None for anything else."""
        if self.kind != "bidi_component" or not self.proto.json:
            return None
        return json.loads(self.proto.json)

    @property
    def trigger_id(self) -> str:
        """A component's trigger aggregator: the widget id its `setTriggerValue` sends under."""
        return f"{_TRIGGER_PREFIX}{self.proto.id}__events"

    @property
    def form_id(self) -> str:
        return getattr(self.proto, "form_id", "")

    @property
    def key(self) -> str | None:
        """The widget's `key=` (the part of its id after the hash), when it was given one."""
        wid = self.widget_id or ""
        parts = wid.split("-", 2) if wid.startswith("$$ID-") else []
        return parts[2] if len(parts) == 3 and parts[2] != "None" else None

    @property
    def text(self) -> str:
        """What a person reads in it: the body of text elements, "Type: message" of an
        exception, the label of a widget."""
        p = self.proto
        if self.kind == "exception":
            return f"{p.type}: {p.message}".strip(": ")
        if self.kind in ("markdown", "alert", "heading", "text", "toast", "code"):
            return p.body if self.kind != "code" else p.code_text
        return self.label

    @property
    def markdown(self) -> list[str]:
        """The strings of this element that the browser renders as Markdown (bodies of text
        elements, alerts, headings, toasts; widget labels and help)."""
        p, found = self.proto, []
        if self.kind in ("markdown", "alert", "heading", "toast"):
            found.append(p.body)
        if self.kind == "exception" and p.message_is_markdown:
            found.append(p.message)
        if self.is_widget:
            found.append(self.label)
        if getattr(p, "help", ""):
            found.append(p.help)
        return found

    def __repr__(self) -> str:
        extra = f" id={self.widget_id!r}" if self.is_widget else ""
        return f"<{self.kind} {self.text[:60]!r}{extra}>"


@dataclass
class Run:
    """What one request to run the app produced: the page as the browser would show it after
    the last script run of the chain (`st.rerun()` makes a chain of runs)."""

    elements: list[Element]
    blocks: dict[tuple[int, ...], Any]
    status: str  # "finished", "compile_error" or "fragment_finished"
    seconds: float  # from sending the request to the final script_finished
    runs: int  # script runs in the chain (1 + how many times the app called st.rerun())
    query: str  # the address's query string after the run (no "?")
    page_script_hash: str
    page: str  # the url path of the page that ran ("" for the default page)
    pages: list[str]  # the titles the navigation offers, in order
    page_not_found: bool
    session_id: str
    messages: list[ForwardMsg] = field(repr=False)
    # The page's fragments that rerun by themselves: fragment id -> seconds between reruns.
    fragments: dict[str, float] = field(default_factory=dict)
    # The fragments this run reran (empty for a run of the whole page).
    fragment_ids: tuple[str, ...] = ()

    # -- reading --------------------------------------------------------------------------
    def texts(self) -> list[str]:
        """All visible text: Markdown (st.write, st.markdown, captions), alerts (error, warning,
        info, success), headings, st.text, toasts and exceptions, in page order. Markdown is
        given as its source (`**Ann**`, `\\[`), as the server sends it."""
        return [e.text for e in self.elements
                if e.kind in ("markdown", "alert", "heading", "text", "toast", "exception")]

    def text(self) -> str:
        """`texts()` as one string, one element a line (for `in` checks and messages)."""
        return "\n".join(self.texts())

    def find(self, kind: str) -> list[Element]:
        return [e for e in self.elements if e.kind == kind]

    @property
    def exceptions(self) -> list[str]:
        """Every exception the page shows, as "Type: message" (with the stack trace)."""
        return [f"{e.text}\n" + "\n".join(e.proto.stack_trace) for e in self.find("exception")]

    @property
    def alerts(self) -> dict[str, list[str]]:
        """Alert bodies by kind: {"error": [...], "warning": [...], "info": [...],
        "success": [...]}."""
        names = {1: "error", 2: "warning", 3: "info", 4: "success"}
        found: dict[str, list[str]] = {n: [] for n in names.values()}
        for e in self.find("alert"):
            found.setdefault(names.get(e.proto.format, "alert"), []).append(e.proto.body)
        return found

    def markdown(self) -> list[str]:
        """Every string on the page the browser renders as Markdown."""
        return [s for e in self.elements for s in e.markdown]

    def markdown_links(self) -> list[str]:
        """Unescaped Markdown links (`[text](target)`) in anything rendered as Markdown."""
        return [m.group(0) for s in self.markdown() for m in MARKDOWN_LINK.finditer(s)]

    @property
    def widgets(self) -> list[Element]:
        return [e for e in self.elements if e.is_widget]

    def widget(self, label: str | None = None, *, key: str | None = None,
               kind: str | None = None, form_id: str | None = None) -> Element:
        """The one widget with this label (or `key=`), optionally of `kind` / in `form_id`;
        raises LookupError naming the widgets there are."""
        found = [w for w in self.widgets
                 if (label is None or w.label == label) and (key is None or w.key == key)
                 and (kind is None or w.kind == kind)
                 and (form_id is None or w.form_id == form_id)]
        if len(found) != 1:
            what = "No" if not found else f"{len(found)} widgets, not one,"
            shown = ", ".join(f"{w.kind} {w.label!r}" + (f" (key {w.key})" if w.key else "")
                              for w in self.widgets) or "none"
            raise LookupError(f"{what} widget {label or key!r}"
                              + (f" of kind {kind}" if kind else "")
                              + (" in that form" if form_id else "")
                              + f" on page {self.page!r}. Widgets: {shown}.")
        return found[0]

    def widget_id(self, label: str | None = None, *, key: str | None = None) -> str:
        return self.widget(label, key=key).widget_id  # type: ignore[return-value]

    def component(self, name: str | None = None, *, key: str | None = None) -> Element:
        """The one component (`st.components.v2`) of this name (its registered name, or its
        end) and/or `key`; raises LookupError naming the components there are."""
        found = [e for e in self.find("bidi_component")
                 if (name is None or e.proto.component_name.split(".")[-1] == name
                     or e.proto.component_name == name) and (key is None or e.key == key)]
        if len(found) != 1:
            shown = ", ".join(f"{e.proto.component_name} (key {e.key})"
                              for e in self.find("bidi_component")) or "none"
            raise LookupError(f"{len(found)} components {name or key!r}, not one, on page "
                              f"{self.page!r}. Components: {shown}.")
        return found[0]

    @property
    def query_params(self) -> dict[str, str]:
        return dict(urllib.parse.parse_qsl(self.query, keep_blank_values=True))

    def __repr__(self) -> str:
        return (f"<Run page={self.page!r} {self.status} runs={self.runs} "
                f"{self.seconds:.2f}s texts={self.texts()!r}>")

    def form_clears_on_submit(self, form_id: str) -> bool:
        return any(b.WhichOneof("type") == "form" and b.form.form_id == form_id
                   and b.form.clear_on_submit for b in self.blocks.values())


# --- widget values ---------------------------------------------------------------------------

def widget_state(element: Element, value: Any) -> WidgetState:
    """The WidgetState the browser sends for `value` in this widget (a WidgetState passes
    through, with the widget's id)."""
    state = WidgetState(id=element.widget_id)
    kind = element.kind
    if isinstance(value, WidgetState):
        state.CopyFrom(value)
        state.id = element.widget_id
    elif kind in _TRIGGER_WIDGETS:
        state.trigger_value = bool(value)
    elif kind in _STRING_WIDGETS:
        state.string_value = str(value)
    elif kind == "checkbox":
        state.bool_value = bool(value)
    elif kind == "number_input":
        if element.proto.data_type == element.proto.INT:
            state.int_value = int(value)
        else:
            state.double_value = float(value)
    elif kind == "multiselect":
        state.string_array_value.data.extend(str(v) for v in value)
    elif kind == "bidi_component":  # the component's whole state object (setStateValue)
        state.json_value = json.dumps(value)
    elif kind == "slider":
        values = value if isinstance(value, (list, tuple)) else [value]
        state.double_array_value.data.extend(float(v) for v in values)
    else:
        raise TypeError(f"{kind} {element.label!r}: pass a WidgetState for this kind of widget")
    return state


def shown_state(element: Element) -> WidgetState | None:
    """The value the browser takes from a widget the app set (`set_value`), as the
    WidgetState it sends from then on; None when the widget shows no value (or the kind is not
    covered here), so the browser sends none and the server keeps its own."""
    p, kind = element.proto, element.kind
    state = WidgetState(id=element.widget_id)
    if kind in ("text_input", "text_area") and p.HasField("value"):
        state.string_value = p.value
    elif kind in ("selectbox", "radio") and p.HasField("raw_value"):
        state.string_value = p.raw_value
    elif kind == "number_input" and p.HasField("value"):
        if p.data_type == p.INT:
            state.int_value = int(p.value)
        else:
            state.double_value = p.value
    elif kind == "checkbox":
        state.bool_value = p.value
    elif kind == "multiselect":
        state.string_array_value.data.extend(p.raw_values)
    else:
        return None
    return state


# --- the session -----------------------------------------------------------------------------

class Session:
    """One browser tab's worth of Streamlit: a websocket and the state a browser keeps (the
    address's path and query string, the current page, the values of the widgets shown).

    `url` is the app's address (`http://host:port`, with a base path if any); `path` the page
    the address opens (`"sign_in"`, `"/"` for the default page); `query` its query string
    (`"session=…"`, with or without `?`); `source` the local address to connect from (each
    simulated phone its own, 127.x.y.z). Connects on `connect()` or `with`.
    """

    def __init__(self, url: str, path: str = "/", query: str = "", *,
                 timeout: float = DEFAULT_TIMEOUT, locale: str = "en-GB",
                 timezone: str = "UTC", headers: Mapping[str, str] | None = None,
                 cookies: Mapping[str, str] | None = None, ssl: Any = None,
                 source: str | None = None):
        parts = urllib.parse.urlsplit(url)
        self.source = source  # the local address to connect from (a phone of its own)
        self.headers = dict(headers or {})  # extra HTTP headers of the websocket handshake
        if cookies:  # what a browser sends with the handshake (STSA's session cookie)
            self.headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
        self.ssl = ssl  # an ssl.SSLContext for https:// (a self-signed certificate)
        self.base = parts.path.rstrip("/")
        self.http_url = f"{parts.scheme}://{parts.netloc}{self.base}"
        scheme = "wss" if parts.scheme == "https" else "ws"
        self.ws_url = f"{scheme}://{parts.netloc}{self.base}/{STREAM_PATH}"
        self.path = path.strip("/")
        self.query = query.lstrip("?")
        self.timeout = timeout
        self.locale, self.timezone = locale, timezone
        self.page_script_hash = ""  # set by the first run; "" means "resolve self.path"
        self.pages: dict[str, Any] = {}  # url path -> AppPage, from the last navigation
        self.session_id = ""
        self.last: Run | None = None
        # Fragments that rerun by themselves (the browser's timers): fragment id -> seconds.
        self.auto_reruns: dict[str, float] = {}
        self._values: dict[str, WidgetState] = {}  # widget id -> value the browser would send
        self._block_fragments: dict[tuple[int, ...], str] = {}  # block path -> its fragment
        self._ws: ClientConnection | None = None

    # -- connection -------------------------------------------------------------------------
    def connect(self) -> Session:
        if self._ws is None:
            # entered as a context manager: the websockets API for a long-lived connection
            try:
                self._ws = self._open()
            except (ConnectionClosed, InvalidHandshake) as exc:  # refused or dropped: counted
                raise ProtocolError(f"opening the page's websocket: {exc}") from exc
        return self

    def _open(self) -> ClientConnection:
        return connect(self.ws_url, subprotocols=[SUBPROTOCOL], max_size=None,
                       open_timeout=self.timeout, compression=None,
                       additional_headers=self.headers or None,
                       create_connection=TurnTakingConnection,
                       **({"ssl": self.ssl} if self.ssl is not None else {}),
                       **({"source_address": (self.source, 0)} if self.source else {})
                       ).__enter__()

    def close(self) -> None:
        if self._ws is not None:
            ws, self._ws = self._ws, None
            ws.__exit__(None, None, None)

    def __enter__(self) -> Session:
        return self.connect()

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def address(self) -> str:
        """The address the browser would show now."""
        return (f"{self.http_url}/{self.path}" + (f"?{self.query}" if self.query else ""))

    def send(self, message: BackMsg) -> None:
        if self._ws is None:
            raise ProtocolError("Not connected: call connect() or use `with Session(...)`.")
        try:
            self._ws.send(message.SerializeToString())
        except ConnectionClosed as exc:
            raise ProtocolError(f"The server closed the connection: {exc}") from exc

    def deferred_download(self, file_id: str, *, timeout: float | None = None
                          ) -> tuple[str, str]:
        """Ask for a deferred download (a download button's `deferred_file_id`), as the
        browser does when the button is clicked: (url, error message), one of them empty."""
        request_id = f"dl-{time.monotonic_ns()}"
        message = BackMsg()
        message.backend_operation_request.request_id = request_id
        message.backend_operation_request.session_id = self.session_id  # its own, as a browser
        message.backend_operation_request.deferred_file.file_id = file_id
        self.send(message)
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            answer = self._receive(deadline)
            if answer.WhichOneof("type") == "backend_operation_response":
                reply = answer.backend_operation_response
                if reply.request_id == request_id:
                    return reply.deferred_file.url, reply.error_msg

    def _receive(self, deadline: float) -> ForwardMsg:
        assert self._ws is not None
        try:
            data = self._ws.recv(timeout=max(0.0, deadline - time.monotonic()))
        except ConnectionClosed as exc:
            raise ProtocolError(f"The server closed the connection: {exc}") from exc
        if isinstance(data, str):
            raise ProtocolError(f"Expected a binary ForwardMsg, got text: {data[:200]!r}")
        message = ForwardMsg()
        message.ParseFromString(data)
        if message.WhichOneof("type") == "ref_hash":  # only if we had reported cached hashes
            raise ProtocolError("The server sent a cached-message reference; this client "
                                "reports no cache, so it cannot resolve it.")
        return message

    # -- running ----------------------------------------------------------------------------
    def _page_hash(self, page: str) -> tuple[str, str]:
        """(page_script_hash, page_name) for `page`: a url path, a title or a hash."""
        key = page.strip("/")
        for path, info in self.pages.items():
            if key in (path, info.page_name, info.page_script_hash):
                return info.page_script_hash, path
        return "", key  # not offered (yet): ask by name, as a typed-in address does

    def run(self, page: str | None = None, widgets: Mapping[str, Any] | None = None,
            query: str | None = None, *, triggers: Iterable[str] = (),
            timeout: float | None = None) -> Run:
        """Ask the server to run the app and wait until the last run of the chain finished.

        `page`: go to this page (url path like `"settings"`, or its title); as a browser
        does, the query string is then dropped unless `query` is given. `widgets`: values by
        label, key or widget id, for widgets of the last run (as a person changing them);
        `triggers`: labels / keys / ids of buttons pressed in this run. `query`: the address's
        query string to send (default: the current one, including what the app set).
        """
        # A page change sends none of the old page's widget values (the browser keeps only
        # widgets outside the page's own area, and this app has none there).
        moving = page is not None and (self._page_hash(page)[0] or "?") != self.page_script_hash
        states = self._states({} if moving else self._values, widgets, triggers)
        return self._run(states, page=page, query=query, timeout=timeout)

    def rerun_fragment(self, fragment_id: str | None = None,
                       widgets: Mapping[str, Any] | None = None, *,
                       triggers: Iterable[str] = (), auto: bool = True,
                       timeout: float | None = None) -> Run:
        """Rerun one fragment of the page, as the browser's timer for a `run_every`
        fragment does (`auto=True`) or a widget inside a fragment does (`auto=False`, with
        `widgets` / `triggers` as in `run`). `fragment_id`: one of `Run.fragments` (default:
        the page's only auto-rerunning fragment). The returned Run is the whole page as the
        browser then shows it: the fragment's new elements, the rest as it was; its `status`
        is "fragment_finished" and `fragment_ids` names the fragment.

        A fragment the server no longer holds (the page changed) gets no answer: this then
        raises RunTimeout after `timeout`."""
        self._require_last()
        if fragment_id is None:
            if len(self.auto_reruns) != 1:
                raise LookupError(f"The page has {len(self.auto_reruns)} auto-rerunning "
                                  f"fragments, not one: name one of {list(self.auto_reruns)}.")
            fragment_id = next(iter(self.auto_reruns))
        states = self._states(self._values, widgets, triggers)
        return self._run(states, fragment_id=fragment_id, auto=auto, timeout=timeout)

    def _states(self, kept: Mapping[str, WidgetState], widgets: Mapping[str, Any] | None,
                triggers: Iterable[str]) -> dict[str, WidgetState]:
        """The widget values the browser sends: those it kept, changed by `widgets`, with a
        trigger for each of `triggers`."""
        states = dict(kept)
        for name, value in (widgets or {}).items():
            element = self._lookup(name)
            states[element.widget_id] = widget_state(element, value)
        for name in triggers:
            element = self._lookup(name)
            states[element.widget_id] = WidgetState(id=element.widget_id, trigger_value=True)
        return states

    def click(self, label: str, **kwargs) -> Run:
        """Press the button labelled `label` (or with that key) of the last run."""
        return self.run(triggers=[label], **kwargs)

    def trigger(self, component: Element | str, event: str, value: Any = None, *,
                timeout: float | None = None) -> Run:
        """What a component's `setTriggerValue(event, value)` sends: one run with the
        widget values the browser keeps and `value` under the component's trigger
        aggregator (`component`: an Element of the last run, or its key or id). A component
        inside a fragment reruns that fragment alone, as in the browser."""
        element = component if isinstance(component, Element) else self._lookup(component)
        if element.kind != "bidi_component":
            raise LookupError(f"{element!r} is no component.")
        states = self._states(self._values, None, ())
        states[element.trigger_id] = WidgetState(
            id=element.trigger_id,
            json_trigger_value=json.dumps([{"event": event, "value": value}]))
        return self._run(states, timeout=timeout, fragment_id=element.fragment_id or None)

    def set_state(self, component: Element | str, name: str, value: Any, *,
                  timeout: float | None = None) -> Run:
        """What a component's `setStateValue(name, value)` sends: its whole state object with
        `name` set, kept and sent with every later run (one run now)."""
        element = component if isinstance(component, Element) else self._lookup(component)
        kept = self._values.get(element.widget_id or "")
        state = json.loads(kept.json_value) if kept is not None and kept.json_value else {}
        return self.run(widgets={element.widget_id: {**state, name: value}}, timeout=timeout)

    def submit_form(self, button: str, values: Mapping[str, Any] | None = None, *,
                    timeout: float | None = None) -> Run:
        """Fill a form and press its submit button, in one run, as the browser sends it:
        `values` by label (or key) of widgets in the same form as the submit button
        labelled `button`."""
        last = self._require_last()
        try:
            submit = last.widget(button, kind="button")
        except LookupError:
            submit = last.widget(key=button, kind="button")
        if not submit.proto.is_form_submitter:
            raise LookupError(f"{button!r} is a button outside any form: use click().")
        form_id = submit.form_id
        states = dict(self._values)
        for name, value in (values or {}).items():
            try:
                element = last.widget(name, form_id=form_id)
            except LookupError:
                element = last.widget(key=name, form_id=form_id)
            states[element.widget_id] = widget_state(element, value)
        states[submit.widget_id] = WidgetState(id=submit.widget_id, trigger_value=True)
        before = last
        done = self._run(states, timeout=timeout)
        if before.form_clears_on_submit(form_id):
            # The browser resets a clear_on_submit form's fields and sends their defaults.
            for element in before.widgets:
                if element.form_id == form_id and element.kind in ("text_input", "text_area"):
                    self._values[element.widget_id] = WidgetState(
                        id=element.widget_id, string_value=element.proto.default)
                elif element.form_id == form_id:
                    self._values.pop(element.widget_id, None)
        return done

    def clear_cache(self) -> None:
        """Send the `clear_cache` message (the "Clear cache" menu item / the `c` key)."""
        self.send(BackMsg(clear_cache=True))

    def _require_last(self) -> Run:
        if self.last is None:
            raise ProtocolError("Run the app first (session.run()): widgets are known only "
                                "from a run.")
        return self.last

    def _lookup(self, name: str) -> Element:
        last = self._require_last()
        if name.startswith("$$ID-"):
            found = [w for w in last.widgets if w.widget_id == name]
            if not found:
                raise LookupError(f"No widget with id {name!r} on page {last.page!r}.")
            return found[0]
        try:
            return last.widget(name)
        except LookupError:
            return last.widget(key=name)

    def _client_state(self, states: Mapping[str, WidgetState], page: str | None,
                      query: str | None, fragment_id: str | None = None,
                      auto: bool = False) -> ClientState:
        state = ClientState()
        if fragment_id:
            state.fragment_id = fragment_id
            state.is_auto_rerun = auto
        if page is not None:
            page_hash, path = self._page_hash(page)
            if page_hash != self.page_script_hash or not page_hash:
                self.query = ""  # the browser drops the query string on a page change
            self.page_script_hash, self.path = page_hash, path
        if query is not None:
            self.query = query.lstrip("?")
        state.query_string = self.query
        if self.page_script_hash:
            state.page_script_hash = self.page_script_hash
        else:
            state.page_name = self.path
        state.widget_states.widgets.extend(states.values())
        state.context_info.timezone = self.timezone
        state.context_info.timezone_offset = 0
        state.context_info.locale = self.locale
        state.context_info.url = self.address
        state.context_info.is_embedded = False
        state.context_info.color_scheme = "light"
        return state

    def _run(self, states: Mapping[str, WidgetState], *, page: str | None = None,
             query: str | None = None, timeout: float | None = None,
             fragment_id: str | None = None, auto: bool = False) -> Run:
        self.connect()
        client_state = self._client_state(states, page, query, fragment_id, auto)
        start = time.monotonic()
        deadline = start + (timeout or self.timeout)
        self.send(BackMsg(rerun_script=client_state))
        messages: list[ForwardMsg] = []
        elements: dict[tuple[int, ...], Element] = {}
        blocks: dict[tuple[int, ...], Any] = {}
        if fragment_id and self.last is not None:  # a fragment run changes only its part
            elements = {e.path: e for e in self.last.elements}
            blocks = dict(self.last.blocks)
        block_fragments = dict(self._block_fragments)
        auto_reruns = dict(self.auto_reruns)
        pages: list[str] = list(self.last.pages) if fragment_id and self.last else []
        runs, not_found = 0, False
        reran: tuple[str, ...] = ()  # the fragments the current run reruns
        fresh: set[tuple[int, ...]] = set()  # positions the current run has sent
        while True:
            try:
                message = self._receive(deadline)
            except TimeoutError:
                kinds = [m.WhichOneof("type") for m in messages]
                raise RunTimeout(f"No script_finished within {deadline - start:.0f} s; "
                                 f"received {kinds}", messages) from None
            messages.append(message)
            kind = message.WhichOneof("type")
            if kind == "new_session":
                runs += 1
                reran, fresh = tuple(message.metadata.run.fragment_ids), set()
                if not reran:  # a run of the whole page starts from an empty page
                    elements.clear()
                    blocks.clear()
                    block_fragments.clear()
                    auto_reruns.clear()
                not_found = False
                new = message.new_session
                if new.initialize.session_id:
                    self.session_id = new.initialize.session_id
                if new.page_script_hash:
                    self.page_script_hash = new.page_script_hash
            elif kind == "delta":
                path = tuple(message.metadata.delta_path)
                delta = message.delta
                which = delta.WhichOneof("type")
                fresh.add(path)
                if which == "new_element":
                    element: ElementProto = delta.new_element
                    el_kind = element.WhichOneof("type")
                    if el_kind is not None:
                        elements[path] = Element(el_kind, path, getattr(element, el_kind),
                                                 delta.fragment_id)
                elif which == "add_block":
                    blocks[path] = delta.add_block
                    block_fragments[path] = delta.fragment_id
                    # a block replaces whatever was at and under its position
                    for old in [p for p in elements if p[:len(path)] == path]:
                        del elements[old]
            elif kind == "navigation":
                self.pages = {p.url_pathname: p for p in message.navigation.app_pages}
                pages = [p.page_name for p in message.navigation.app_pages if not p.is_hidden]
                if message.navigation.page_script_hash:
                    self.page_script_hash = message.navigation.page_script_hash
            elif kind == "page_info_changed":
                self.query = message.page_info_changed.query_string
            elif kind == "page_not_found":
                not_found = True
            elif kind == "auto_rerun":
                auto_reruns[message.auto_rerun.fragment_id] = message.auto_rerun.interval
            elif kind == "stop_auto_rerun":
                for stopped in message.stop_auto_rerun.fragment_ids:
                    auto_reruns.pop(stopped, None)
            elif kind == "script_finished" and message.script_finished != _EARLY:
                break
        seconds = time.monotonic() - start
        if reran:  # what the fragment did not send again is gone from the page
            for path in [p for p, e in elements.items()
                         if e.fragment_id in reran and p not in fresh]:
                del elements[path]
            for path in [p for p, f in block_fragments.items() if f in reran and p not in fresh]:
                blocks.pop(path, None)
                del block_fragments[path]
        self._block_fragments = block_fragments
        self.auto_reruns = auto_reruns
        current = next((p for p, info in self.pages.items()
                        if info.page_script_hash == self.page_script_hash), self.path)
        self.path = current
        ordered = [elements[p] for p in sorted(elements)]
        run = Run(elements=ordered, blocks=dict(blocks),
                  status=_STATUS.get(message.script_finished, "finished"), seconds=seconds,
                  runs=runs, query=self.query, page_script_hash=self.page_script_hash,
                  page=current, pages=pages, page_not_found=not_found,
                  session_id=self.session_id, messages=messages,
                  fragments=dict(auto_reruns), fragment_ids=reran)
        # Keep what the browser keeps: values of the widgets still shown, never a trigger; a
        # value the app set replaces the one the browser had.
        shown = {e.widget_id for e in run.widgets}
        self._values = {wid: s for wid, s in states.items()
                        if wid in shown and s.WhichOneof("value") != "trigger_value"}
        for element in run.widgets:
            if getattr(element.proto, "set_value", False):
                taken = shown_state(element)
                if taken is None:
                    self._values.pop(element.widget_id, None)
                else:
                    self._values[element.widget_id] = taken
        self.last = run
        return run

