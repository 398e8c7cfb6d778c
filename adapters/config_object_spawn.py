"""``torch.multiprocessing.spawn(fn, nprocs=E)`` in a project function the configuration object reaches,
with ``E`` a key of that object (read by :mod:`preflight.adapters.config_object_reads`; nothing is imported
or executed).

facebookresearch/SlowFast @ 287ec00 ``tools/run_net.py:26`` ``launch_job(cfg=cfg, init_method=...,
func=train)`` into ``slowfast/utils/misc.py:390-418`` ``if cfg.NUM_GPUS > 1: torch.multiprocessing.spawn(
mpu.run, nprocs=cfg.NUM_GPUS, ...) else: func(cfg=cfg)``, ``NUM_GPUS: 8`` in the launch line's YAML. The
launch line is plain ``python``: one process, which spawns ``E`` on the machine it runs on (the reading
:mod:`preflight.adapters.spawned_processes` makes of a spawn in the entry script). Under another launcher
(torchrun, srun, deepspeed) the count per machine is still ``E`` but the machines are the launcher's: only
the devices per node are written then.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.analysis.syntax import dotted_name

_SPAWN = "torch.multiprocessing.spawn"


def _qualified(call: ast.Call, module: Optional[ast.Module]) -> str:
    name = dotted_name(call.func) or ""
    head, _, rest = name.partition(".")
    if module is None or not rest:
        return name
    for node in module.body:  # ``import torch.multiprocessing as mp``
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname == head:
                    return f"{a.name}.{rest}"
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                if (a.asname or a.name) == head:
                    return f"{node.module}.{a.name}.{rest}"
    return name


def spawn_counts(call: ast.Call, reader: Any, shown: str, module: Optional[ast.Module], plain_python: bool
                 ) -> list[tuple[str, Any, tuple, str]]:
    """(field, value, the key's path, detail) for a spawn whose count is a key of the configuration (the
    call is known to run: the caller checks its guards)."""
    if _qualified(call, module) != _SPAWN:
        return []
    expr = next((k.value for k in call.keywords if k.arg == "nprocs"), None)
    if expr is None and len(call.args) > 1 and not any(isinstance(a, ast.Starred) for a in call.args[:2]):
        expr = call.args[1]
    got = reader.ev(expr) if expr is not None else None
    count = got.value if got is not None else None
    if expr is None or got is None or got.path is None or not isinstance(count, int) or isinstance(count, bool) or count < 1:
        return []
    key = ".".join(got.path)
    detail = f"{key} = {count}: torch.multiprocessing.spawn(nprocs={ast.unparse(expr)}) ({shown}:{call.lineno})"
    out = [("dist.devices_per_node", count, got.path, f"{detail}, processes on each machine")]
    if plain_python:
        one = f"{detail}: the launch line starts one python process, which spawns {count} on its machine"
        out += [("dist.world_size", count, got.path, one), ("dist.nodes", 1, got.path, one)]
    return out


def spawned_call(call: ast.Call) -> Optional[ast.Call]:
    """``mp.spawn(run, nprocs=n, args=(a, b))`` as the call each spawned process makes: ``run(<rank>, a, b)``
    (torch.multiprocessing.spawn passes the process index first, then ``args``), so a configuration object in
    ``args`` flows into ``run``'s parameters (jaywalnut310/vits @ 2e561ba ``train.py:50,53`` ``mp.spawn(run,
    nprocs=n_gpus, args=(n_gpus, hps,))`` into ``def run(rank, n_gpus, hps)``). None for any other call, or
    when the function or the argument tuple is not written out."""
    name = dotted_name(call.func) or ""
    if name.rsplit(".", 1)[-1] != "spawn":
        return None
    fn = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "fn"), None)
    given = next((k.value for k in call.keywords if k.arg == "args"), call.args[1] if len(call.args) > 1 else None)
    if not isinstance(fn, ast.Name) or not isinstance(given, ast.Tuple) \
            or any(isinstance(e, ast.Starred) for e in given.elts):
        return None
    rank = ast.copy_location(ast.Constant(value=0), call)
    return ast.copy_location(ast.Call(func=ast.Name(id=fn.id, ctx=ast.Load()), args=[rank, *given.elts],
                                      keywords=[]), call)
