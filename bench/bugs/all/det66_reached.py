"""Score the cases of held-out sets that the det66 changes can reach (a @hydra.main / compose app,
guided-diffusion's convert_to_fp16, Lightning's load_from_checkpoint) with score.py's own ``score()``:

    python bench/bugs/all/det66_reached.py OUT SET... [--base] [--extra]

``--base`` runs the preflight package found under $DET66_BASE_PKG (the base commit's code laid out as one
``preflight`` package: ``git archive`` of preflight/ with adapters/, hardware/, architectures/ copied under it);
``--extra`` keeps only the cases reached by load_from_checkpoint (added to the list after the first run)."""
import contextlib
import io
import os
import shlex
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import score

out, args = sys.argv[1], sys.argv[2:]
base = '--base' in args
extra = '--extra' in args
sets = [a for a in args if not a.startswith('--')]
OLD = ('hydra.main', 'convert_to_fp16', 'hydra.initialize')
NEW = (*OLD, 'load_from_checkpoint')


def reached(c, keys):
    return any(k in t for v in c.files.values() for t in v.values() for k in keys)
exe = (shlex.split(f"env PYTHONPATH={os.environ['DET66_BASE_PKG']} {sys.executable} -m preflight") if base
       else [sys.executable, '-m', 'preflight'])
with open(out, 'w') as fh:
    for n in sets:
        cases = [c for c in score.load_cases(None, f'held-out-{n}')
                 if ((reached(c, NEW) and not reached(c, OLD)) if extra else reached(c, NEW))]
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            score.score(cases, exe, True, False, 1)
        for line in buf.getvalue().splitlines():
            if line.startswith(('hit', 'MISS', 'ok', 'FLAG', 'flag')) or 'h2' in line[:40]:
                fh.write(f'[{n}] {line}\n')
        fh.flush()
