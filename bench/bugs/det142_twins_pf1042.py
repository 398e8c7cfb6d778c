"""det142: an in-process sweep for PF1042 (script-overrides-launch-visible-devices, new) over every
bug/fix/tricky-correct variant of every bug set named (default: all sets score.py knows): a variant counts when its
launch line or one of its shell files sets a literal CUDA_VISIBLE_DEVICES (`CUDA_VISIBLE_DEVICES=1 cmd`, `export
CUDA_VISIBLE_DEVICES=1`) and one of its Python files has an assignment the rule reports (`_overrides`, with a value
other than the launch's). A row on a fix/correct variant would be a flagged twin or tricky-correct program.

    python bench/bugs/det142_twins_pf1042.py [SET ...]
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from score import SETS
from twins_sweep import variants

from preflight.rules.plan._visible_devices import visible_device_count
from preflight.rules.plan.pf1042_script_overrides_launch_visible_devices import _overrides

SET_CVD = re.compile(r"(?:^|\s|export\s+)CUDA_VISIBLE_DEVICES=([^\s;#]+)", re.M)


def main() -> None:
    chosen = sys.argv[1:] or [s for s in SETS if s != "all"]
    n = launching = 0
    rows = []
    for which, case_id, label, files in variants(chosen, lambda text, _f: "CUDA_VISIBLE_DEVICES" in text):
        n += 1
        shell = "\n".join(b for name, b in files.items() if not name.endswith(".py"))
        values = {v.strip("\"'") for v in SET_CVD.findall(shell)}
        values = {v for v in values if visible_device_count(v) is not None}
        if len(values) != 1:
            continue
        launching += 1
        value = values.pop()
        for name, body in files.items():
            if not name.endswith(".py"):
                continue
            try:
                tree = ast.parse(body)
            except SyntaxError:
                continue
            for node, expr in _overrides(tree):
                if isinstance(expr, ast.Constant) and str(expr.value).replace(" ", "") == value.replace(" ", ""):
                    continue
                rows.append((which, case_id, label, "PF1042", name, node.lineno))
    print(f"PF1042 over {len(chosen)} sets: variants naming CUDA_VISIBLE_DEVICES {n}, with one literal launch value "
          f"{launching}, bug-variant findings {len([r for r in rows if r[2] == 'bug'])}, "
          f"fix/correct findings {len([r for r in rows if r[2] != 'bug'])}")
    for r in rows:
        print("  ", *r)


if __name__ == "__main__":
    main()
