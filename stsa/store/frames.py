"""How rows leave the store and values enter its text columns: frames with exactly the columns
and dtypes a read promises (`frame`, `query_frame`), and JSON text for the columns that keep
structured values (settings, the log's before and after)."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
from sqlalchemy.engine import Connection

UTC_TIME = "datetime64[us, UTC]"


def _build(columns: dict[str, list], spec: dict[str, str]) -> pd.DataFrame:
    data = {}
    for col, dtype in spec.items():
        values = columns[col]
        if dtype == "object":
            arr = np.empty(len(values), dtype=object)
            arr[:] = values
            data[col] = arr
        elif dtype in ("int64", "bool"):
            try:
                data[col] = np.array(values, dtype=dtype)
            except OverflowError:  # e.g. a seed beyond 64 bits stays a Python int
                data[col] = np.array(values, dtype=object)
        else:
            data[col] = pd.array(values, dtype=dtype)
    return pd.DataFrame(data, columns=list(spec))


def frame(rows: list, spec: dict[str, str]) -> pd.DataFrame:
    """A DataFrame with exactly the columns and dtypes of `spec` ({column: dtype}; "object"
    keeps Python values such as lists and dicts), built from mappings."""
    return _build({col: [r[col] for r in rows] for col in spec}, spec)


def query_frame(conn: Connection, query, spec: dict[str, str]) -> pd.DataFrame:
    """Run `query` and return its rows as a frame shaped by `spec` (see `frame`)."""
    result = conn.execute(query)
    keys = list(result.keys())
    rows = result.fetchall()
    columns = dict(zip(keys, (list(c) for c in zip(*rows)))) if rows else {k: [] for k in keys}
    return _build(columns, spec)


def _json_default(value: Any):
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    if hasattr(value, "tolist"):  # numpy arrays
        return value.tolist()
    if isinstance(value, (dt.datetime, dt.date)):
        return value.isoformat()
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    if isinstance(value, Mapping):  # a record (stsa.domain.Record, stsa.settings.Settings)
        return dict(value)
    raise TypeError(f"cannot store {type(value).__name__} as JSON")


def dumps(value: Any) -> str:
    return json.dumps(value, default=_json_default, ensure_ascii=False, sort_keys=True)


def loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)
