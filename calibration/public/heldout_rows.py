"""The row book shared by the builders of the held-out sets (build_heldout7.py onwards).

A builder names its split, adds one row per published measurement (`add` for a peak, `add_oom`
for an out-of-memory verdict) and writes ``calibration/public/<name>.json`` with `write_split`.
Every row keeps its source key, what was measured, the GPU, the setup the estimator reads, and
what the source leaves open (``unknown``) or how it was read (``notes``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

UNITS = {"MB": 10**6, "GB": 10**9, "MiB": 2**20, "GiB": 2**30}


class RowBook:
    """The rows of one held-out split, in the order they were added."""

    def __init__(self, split: str) -> None:
        self.split = split
        self.rows: list[dict[str, Any]] = []

    def _row(self, src: str, rid: str, measured: str, gpu: str, outcome: str,
             setup: dict[str, Any]) -> dict[str, Any]:
        return {"id": f"{src}/{rid}", "source": src, "split": self.split, "measured": measured,
                "gpu": gpu, "outcome": outcome, "setup": setup}

    def _finish(self, row: dict[str, Any], unknown: Any, notes: str) -> None:
        if unknown:
            row["unknown"] = list(unknown)
        if notes:
            row["notes"] = notes
        self.rows.append(row)

    def add(self, src: str, rid: str, value: float, unit: str, measured: str, gpu: str,
            setup: dict[str, Any], *, unknown: Any = (), notes: str = "", not_scored: str = "") -> None:
        """A measured peak of `value` `unit` (one of UNITS). ``not_scored`` (est51): why the setup the
        source states cannot have produced the figure; the bench then scores neither the row's error
        nor its verdict."""
        row = self._row(src, rid, measured, gpu, "ran", setup)
        row.update(value=value, unit=unit, peak_bytes=round(value * UNITS[unit]))
        if not_scored:
            row["not_scored"] = not_scored
        self._finish(row, unknown, notes)

    def add_oom(self, src: str, rid: str, measured: str, gpu: str, setup: dict[str, Any], *,
                unknown: Any = (), notes: str = "") -> None:
        """A setup the source reports running out of memory (no peak)."""
        self._finish(self._row(src, rid, measured, gpu, "oom", setup), unknown, notes)


def document(doc: str, split: str, sources: dict[str, Any],
             rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The JSON document of a split: its builder's first docstring paragraph, the split rule,
    the sources and the rows."""
    return {
        "version": 1,
        "about": doc.split("\n\n")[0],
        "split_rule": f"every row is held out (split '{split}'); none was used to fit or tune the "
                      "estimator; committed before the first scoring",
        "sources": sources,
        "rows": rows,
    }


def write_split(name: str, doc: str, split: str, sources: dict[str, Any],
                rows: list[dict[str, Any]]) -> Path:
    """Writes calibration/public/<name>.json and says how many rows and peaks it holds."""
    path = Path(__file__).resolve().parent / f"{name}.json"
    path.write_text(json.dumps(document(doc, split, sources, rows), indent=1) + "\n",
                    encoding="utf-8")
    measured = sum(1 for r in rows if r.get("peak_bytes"))
    print(f"{len(rows)} rows ({measured} measured peaks) from {len(sources)} sources -> {path}")
    return path
