"""det118: the in-process twins check for PF329 (a file rule): run file by file over every bug/fix/tricky-correct
variant of every bug set whose text holds ``gather_for_metrics``, with det118's PF329 and with main's (the rule
module of a ``git archive main`` copy, loaded from BASE); prints findings on every variant and the new/gone ones.
PF148 and PF385 (plan rules) are checked through the CLI (det118_only_rules.py --codes PF148,PF385).

    python bench/bugs/det118_twins_inprocess.py BASE SET...
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from score import SETS, parse_cases

from preflight.analysis.context import FileContext
from preflight.diagnostics import FileError
from preflight.rules.code.pf329_scalar_metric_to_gather_for_metrics import (
    ScalarMetricToGatherForMetrics,
)
from preflight.sources import SourceText, parse_python

Row = tuple[str, str, str, str, int]


def _base_rule(base: str) -> type:
    path = Path(base) / "preflight/rules/code/pf329_scalar_metric_to_gather_for_metrics.py"
    spec = importlib.util.spec_from_file_location("det118_base_pf329", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    import preflight.registry as registry

    saved = registry.register
    registry.register = lambda cls: cls  # type: ignore[assignment]  # do not register main's copy again
    try:
        spec.loader.exec_module(module)
    finally:
        registry.register = saved
    return module.ScalarMetricToGatherForMetrics  # type: ignore[no-any-return]


def sweep(rule: type, sets: list[str]) -> tuple[int, list[Row]]:
    out: list[Row] = []
    n = 0
    for which in sets:
        for folder in SETS[which]:
            for cases in sorted(folder.glob("*.cases")):
                for case in parse_cases(cases):
                    for variant, files in case.files.items():
                        if not files or "gather_for_metrics" not in "\n".join(files.values()):
                            continue
                        n += 1
                        label = "correct" if case.kind == "correct" else variant
                        for name, body in files.items():
                            if not name.endswith(".py"):
                                continue
                            src = SourceText(path=Path(name), display=name, kind="python", raw=body.encode(),
                                             text=body)
                            parsed = parse_python(src)
                            if isinstance(parsed, FileError):
                                continue
                            out += [(which, case.id, label, name, f.span.line)
                                    for f in rule().check(FileContext(parsed))]
    return n, out


if __name__ == "__main__":
    base, sets = sys.argv[1], sys.argv[2:]
    n, after = sweep(ScalarMetricToGatherForMetrics, sets)
    _, before = sweep(_base_rule(base), sets)
    print(f"variants read: {n}")
    for row in after:
        print("PF329", *row, "(new)" if row not in before else "")
    for row in before:
        if row not in after:
            print("PF329", *row, "(gone)")
