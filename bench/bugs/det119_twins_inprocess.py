"""det119: the in-process twins check: PF166, PF167 and PF676 run file by file over every gated bug/fix/tricky-correct
variant of every bug set, with det119's PF676 factory reading and with it undone (PF166 and PF167 are new: every finding of
it is new); prints findings on fix/correct variants and the new/gone ones (bench/bugs/det119_twins_inprocess.txt).

    python bench/bugs/det119_twins_inprocess.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from twins_sweep import report_change, sweep

import preflight.rules.code.pf676_eval_loader_drop_last as pf676

GATES = {
    "PF166": lambda t: "init_inference" in t,
    "PF676": lambda t: "drop_last" in t,
    "PF167": lambda t: "num_labels" in t,
}


def _gate(codes: tuple[str, ...]):
    return lambda text, files: any(GATES[c](text) for c in codes)


if __name__ == "__main__":
    n, after = sweep(("PF166", "PF167", "PF676"), _gate(("PF166", "PF167", "PF676")))
    pf676.EvalLoaderDropsLastBatch._shared_factory = lambda *a, **k: None  # type: ignore[method-assign]
    _, before = sweep(("PF676",), _gate(("PF676",)))
    report_change(n, after, before)
