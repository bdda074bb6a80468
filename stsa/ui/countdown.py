"""The countdown in the browser (R26): a small component that is given the deadline and the
server's "now" (UTC epoch milliseconds) when the page runs, works out how far the browser's
own clock is off, and counts down every second by itself: no Streamlit run per second. It syncs
again whenever the page runs (the data version moved, or the fragment refreshed) and when the
page comes back into view (`visibilitychange`, `pageshow`, `focus`), so a phone that slept
shows the right time at once.

It shows mm:ss (h:mm:ss from an hour up), "Paused" while paused, and the tournament's words at
zero or when time is called; its own words ("Paused", "Not started", "Sound on") come with the
data, in the page's language. Everything it shows is set as plain text (`textContent`), never as
markup. On TV it is large and, when the `clock_sound` setting is on, offers a "Sound on" button
(browsers play sound only after one click on the page) and beeps at time with the Web Audio API.
"""

from __future__ import annotations

import streamlit as st

from stsa.i18n import _
from stsa.services.clock import Countdown

HTML = """<div class="stsa-countdown" role="timer">
<div class="stsa-countdown-label"></div>
<div class="stsa-countdown-time" aria-live="off"></div>
<div class="stsa-countdown-note" aria-live="polite"></div>
<button type="button" class="stsa-countdown-sound" hidden></button>
</div>"""

CSS = """
.stsa-countdown { font-family: inherit; color: inherit; padding: 0.2rem 0; }
.stsa-countdown-label { font-size: 0.95rem; opacity: 0.85; }
.stsa-countdown-time { font-size: 2.4rem; font-weight: 700; font-variant-numeric: tabular-nums;
  line-height: 1.15; }
.stsa-countdown-note { font-size: 1rem; font-weight: 600; min-height: 1.2em; }
.stsa-countdown.large .stsa-countdown-label { font-size: 3vh; }
.stsa-countdown.large .stsa-countdown-time { font-size: 16vh; }
.stsa-countdown.large .stsa-countdown-note { font-size: 4vh; }
.stsa-countdown.up .stsa-countdown-time { font-size: 2rem; }
.stsa-countdown.large.up .stsa-countdown-time { font-size: 9vh; }
.stsa-countdown-sound { margin-top: 0.4rem; font-size: 1rem; padding: 0.3rem 0.8rem;
  border-radius: 0.4rem; border: 1px solid currentColor; background: transparent;
  color: inherit; cursor: pointer; }
"""

# The countdown's logic, shared with the live elements that show a clock (`ui.live_element`):
# `countdownRun(root, data, now, kept)` counts down in `root` (the HTML above) from `data`
# (`Countdown.as_data()` and the words) by the clock `now()` (epoch ms on the server's clock),
# and returns what stops it. Every value comes from the data; text goes in as textContent only.
CLOCK_JS = """
function countdownWords(ms) {
  const whole = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(whole / 3600), m = Math.floor((whole % 3600) / 60), s = whole % 60;
  const two = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
}

function beep(audio) {
  if (!audio) return;
  const start = audio.currentTime;
  for (let i = 0; i < 3; i++) {
    const tone = audio.createOscillator(), gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.setValueAtTime(0.0001, start + i * 0.5);
    gain.gain.exponentialRampToValueAtTime(0.4, start + i * 0.5 + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.5 + 0.35);
    tone.connect(gain).connect(audio.destination);
    tone.start(start + i * 0.5);
    tone.stop(start + i * 0.5 + 0.4);
  }
}

function countdownRun(root, data, now, kept) {
  const shown = {
    label: root.querySelector(".stsa-countdown-label"),
    time: root.querySelector(".stsa-countdown-time"),
    note: root.querySelector(".stsa-countdown-note"),
    sound: root.querySelector(".stsa-countdown-sound"),
  };
  root.classList.toggle("large", !!data.large);
  shown.label.textContent = data.label || "";
  shown.sound.textContent = data.sound_on || "";
  shown.sound.hidden = !data.sound || !!kept.audio;
  shown.sound.onclick = () => {
    const Audio = window.AudioContext || window.webkitAudioContext;
    if (Audio && !kept.audio) kept.audio = new Audio();
    if (kept.audio && kept.audio.resume) kept.audio.resume();
    shown.sound.hidden = true;
  };
  // Running when drawn (an answer kept a while may reach the browser after its deadline:
  // it must not ring again, nor ring for a time already called).
  let wasRunning = data.status === "running" && data.deadline_ms !== null
    && data.deadline_ms > now();

  function show(time, note, up) {
    if (shown.time.textContent !== time) shown.time.textContent = time;
    if (shown.note.textContent !== note) shown.note.textContent = note;
    root.classList.toggle("up", up);
    root.dataset.state = up ? "time called" : data.status;
  }

  function tick() {
    if (data.status === "running" && data.deadline_ms !== null) {
      const left = data.deadline_ms - now();
      if (left > 0) { show(countdownWords(left), "", false); return; }
      if (wasRunning && !kept.rang && data.sound) { kept.rang = true; beep(kept.audio); }
      wasRunning = false;
      show(data.words, "", true);
    } else if (data.status === "paused") {
      show(countdownWords(data.left_ms), data.paused || "", false);
    } else if (data.status === "not started") {
      show(countdownWords(data.left_ms), data.not_started || "", false);
    } else {
      show(data.words, "", true);
    }
  }

  if (wasRunning) kept.rang = false;
  tick();
  const every = setInterval(tick, 250);
  const again = () => tick();
  document.addEventListener("visibilitychange", again);
  window.addEventListener("pageshow", again);
  window.addEventListener("focus", again);
  return () => {
    clearInterval(every);
    document.removeEventListener("visibilitychange", again);
    window.removeEventListener("pageshow", again);
    window.removeEventListener("focus", again);
  };
}
"""

JS = CLOCK_JS + """
export default function (component) {
  const { data, parentElement } = component;
  const root = parentElement.querySelector(".stsa-countdown");
  const kept = root.__stsa || (root.__stsa = { audio: null, rang: false });
  if (kept.stop) kept.stop();
  // How far this browser's clock is off the server's, measured now (each run syncs again).
  const skew = Date.now() - data.now_ms;
  const stop = countdownRun(root, data, () => Date.now() - skew, kept);
  kept.stop = () => { stop(); kept.stop = null; };
  return kept.stop;
}
"""

_COUNTDOWN = st.components.v2.component("stsa_countdown", html=HTML, css=CSS, js=JS)


def words() -> dict[str, str]:
    """The countdown's own words, in this run's language (with its data)."""
    return {"paused": _("Paused"), "not_started": _("Not started"), "sound_on": _("Sound on")}


def countdown(down: Countdown, *, key: str, large: bool = False, sound: bool = False) -> None:
    """R26: show `down` as a countdown that runs in the browser (`large` on TV; `sound`: the
    "Sound on" button and a beep at time)."""
    _COUNTDOWN(key=key, data=down.as_data() | {"large": bool(large), "sound": bool(sound)}
               | words(), height="content")
