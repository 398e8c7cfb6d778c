"""est78: ``calibration/public/est78_largest_errors.py`` lists the rows with the largest absolute error, as
``bench/public_accuracy.py`` scores them, with the gap in GiB and the terms of the estimate's peak phase."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

import public_accuracy as pa  # noqa: E402


def _script():
    spec = importlib.util.spec_from_file_location("est78_largest_errors",
                                                  REPO / "calibration/public/est78_largest_errors.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_largest_error_of_a_split_is_public_accuracys_worst_row():
    mod = _script()
    lines = mod.report(["held-out-30"], 1)
    assert len(lines) == 2
    doc = pa.load(pa.SPLIT_FILES["held-out-30"])
    results = [pa.evaluate(r) for r in doc["rows"] if r["split"] == "held-out-30"]
    worst = max((r for r in results if r.error is not None), key=lambda r: abs(r.error or 0))
    assert lines[0].startswith(f" 1. {worst.row['id']} [held-out-30]")
    assert f"({worst.error:+.1%}, gap " in lines[0]
    gap = float(re.search(r"gap ([-+\d.]+) GiB", lines[0]).group(1))  # type: ignore[union-attr]
    assert abs(gap - (worst.estimate - worst.row["peak_bytes"]) / 2 ** 30) < 0.006
    assert lines[1].strip().startswith("phase ")


def test_rows_come_in_order_of_absolute_error():
    mod = _script()
    lines = [ln for ln in mod.report(["held-out-24"], 5) if not ln.startswith("    ")]
    errs = [abs(float(re.search(r"\(([-+\d.]+)%, gap", ln).group(1))) for ln in lines]  # type: ignore[union-attr]
    assert len(errs) == 5 and errs == sorted(errs, reverse=True)
