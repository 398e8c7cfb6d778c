# `python -m preflight` puts the current directory first on sys.path: a job's directory
# (the Slurm gate runs there), a checkout under review in CI. Nothing preflight imports may
# come from there (an `argparse.py` or `typing.py` beside the job would run as preflight), so
# the entry is dropped before anything else is imported. `python -I -m preflight` (what
# `preflight gate --write-lua` generates) never adds it; the console script adds its own
# bin directory instead.
from __future__ import annotations

import os
import sys

_here: str | None
try:
    _here = os.getcwd()
except OSError:  # the current directory was removed
    _here = None
if sys.path and (sys.path[0] in ("", os.curdir) or os.path.realpath(sys.path[0]) == _here):
    del sys.path[0]

from preflight.cli import entry  # noqa: E402 (after the sys.path clean-up above)

entry()
