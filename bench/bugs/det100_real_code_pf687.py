"""det100: PF687's own shell and Python helpers run over every shell script and every Python file naming
``environ``/``putenv`` under a materialized real-jobs folder (the figures of bench/bugs/det100_real_code.txt).

    python bench/bugs/det100_real_code_pf687.py /work/wt/jobswork/all
"""

from __future__ import annotations

import ast
import os
import sys
from pathlib import Path

from preflight.rules.plan.pf687_misspelled_visible_devices import (
    _environ_key,
    _shell_hits,
    misspelled,
)


def main() -> None:
    root = Path(sys.argv[1])
    n_sh = n_py = 0
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in files:
            path = Path(dirpath) / name
            try:
                text = path.read_text(errors="replace") if name.endswith((".sh", ".slurm", ".sbatch", ".bash", ".py")) \
                    else None
            except OSError:
                continue
            if text is None:
                continue
            if not name.endswith(".py"):
                n_sh += 1
                for line, var in _shell_hits(text):
                    print("SH", path.relative_to(root), line, var)
                continue
            if "environ" not in text and "putenv" not in text:
                continue
            n_py += 1
            try:
                tree = ast.parse(text)
            except (SyntaxError, ValueError):
                continue
            for node in ast.walk(tree):
                hit = _environ_key(node)
                if hit is not None and misspelled(hit[1]):
                    print("PY", path.relative_to(root), hit[0], hit[1])
    print("shell files", n_sh, "py files with environ", n_py)


if __name__ == "__main__":
    main()
