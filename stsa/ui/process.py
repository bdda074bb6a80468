"""Once per app process: after start-up, the garbage collector stops re-scanning what start-up
made (gc.freeze).

Streamlit with `runner.postScriptGC false` (`python -m stsa serve`) leaves collection to
Python's thresholds. A full collection then walks every tracked object, and most of them are
the modules start-up imported (pandas, pyarrow, SQLAlchemy, Streamlit): hundreds of thousands
of objects that live as long as the process. Freezing them once moves them out of the
collector's sight, so a full collection walks only what the runs made since."""

from __future__ import annotations

import gc
import sys
import threading

_lock = threading.Lock()
_modules = 0  # how many modules were imported when the heap was last frozen


def settle() -> None:
    """Freeze the heap whenever a run finds modules imported since the last freeze (at the
    first run, then after the first visit of a page that imports more, like the charts):
    after a few runs this is one comparison per run."""
    global _modules
    if len(sys.modules) == _modules:
        return
    with _lock:
        if len(sys.modules) != _modules:
            gc.collect()  # what start-up left as garbage goes first
            gc.freeze()
            _modules = len(sys.modules)
