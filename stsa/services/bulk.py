"""Work over a whole tournament's rows at once (the workbook written or restored, R19).

Such work makes hundreds of thousands of rows, dicts and lists in a few seconds; Python's
cycle collector, counting each one made, walks every one of them again and again meanwhile,
for about a tenth of the time. None of them form cycles that must go before the work ends,
so the collector waits until it has (`collector_paused`).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector held back for the work inside, and back on after it (unless
    it was off already: then it stays off). Another thread's work in between finds it off
    and leaves it to whoever turned it off."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
