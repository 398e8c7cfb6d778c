"""det134: the in-process twins check for PF276 (extended: a `datasets` `save_to_disk` in a Lightning `setup()`,
and the multi-process Trainer read from a script beside the class's file). Every bug/fix/tricky-correct variant of
every bug set whose text holds `setup` is written to a temporary folder (so the rule can read the files beside
each one) and PF276 runs in-process on each of its Python files.

Prints the findings on fix/correct variants (a finding there is a flagged twin or tricky-correct program) and the
bug variants hit.

    python bench/bugs/det134_twins_inprocess.py [SET ...]
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from score import SETS
from twins_sweep import variants

from preflight.diagnostics import FileError
from preflight.engine import Selection, analyse_parsed
from preflight.sources import SourceText, parse_python


def main() -> None:
    sets = sys.argv[1:] or [s for s in SETS if s != "all"]
    n = 0
    rows = []
    for which, case_id, label, files in variants(sets, lambda text, _f: "setup" in text):
        n += 1
        with tempfile.TemporaryDirectory(prefix="det134-") as tmp:
            for name, body in files.items():
                path = Path(tmp) / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(body)
            for name, body in files.items():
                if not name.endswith(".py"):
                    continue
                src = SourceText(path=Path(tmp) / name, display=name, kind="python", raw=body.encode(), text=body)
                tree = parse_python(src)
                if isinstance(tree, FileError):
                    continue
                for f in analyse_parsed(tree, Selection(codes=("PF276",))):
                    rows.append((which, case_id, label, f.code, name, f.span.line))
    print(f"PF276: variants read {n}, bug-variant findings {len([r for r in rows if r[2] == 'bug'])}, "
          f"fix/correct findings {len([r for r in rows if r[2] != 'bug'])}")
    for r in rows:
        print("  ", *r)


if __name__ == "__main__":
    main()
