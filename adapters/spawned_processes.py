"""The processes a script started with plain ``python`` spawns itself (read by
:mod:`preflight.adapters.cliargs`).

``torch.multiprocessing.spawn(main, nprocs=E)`` in the entry script, under ``if`` tests the job's
options decide as taken, with ``E`` read statically: that many processes, on this one machine
(McGill-NLP/nano-aha-moment @ 6cd0306 ``nano_r1_script.py:1158-1161`` ``if args.nproc == 1: main(rank=0)
else: torch.multiprocessing.spawn(main, nprocs=args.nproc)``, README.md:64 ``--nproc 4``). A count not
read (facebookresearch/moco-v3 ``nprocs=ngpus_per_node`` from ``torch.cuda.device_count()``) says
nothing. Nothing is imported or run.
"""

from __future__ import annotations

import ast
from typing import Any, Callable

from preflight.adapters_api import Project
from preflight.plan import Source
from preflight.sources import ParsedPython


def spawned_processes(project: Project, script: ParsedPython, line: str,
                      add: Callable[[str, Any, Source, str], None]) -> bool:
    """Add ``dist.world_size`` (the spawned count) and ``dist.nodes`` 1 when the script spawns a
    known number of processes; True when it did."""
    idx = project.index(script)
    for site in idx.calls:
        if (site.qualified or "") != "torch.multiprocessing.spawn" or idx.runs(site) is not True:
            continue
        expr = site.kwarg("nprocs") or (site.call.args[1] if len(site.call.args) > 1 else None)
        got = idx.resolve(expr) if expr is not None else None
        count = got.value if got is not None else None
        if expr is None or not isinstance(count, int) or isinstance(count, bool) or count < 1:
            continue
        detail = (f"torch.multiprocessing.spawn(nprocs={ast.unparse(expr)}) = {count} processes on one machine "
                  f"({script.source.display}:{site.call.lineno}; launch line: {line})")
        add("dist.world_size", count, Source("derived", None, None, "nprocs", detail), "medium")
        add("dist.nodes", 1, Source("derived", None, None, "nprocs", detail), "medium")
        return True
    return False
