"""A submitit launcher's processes: one task per GPU, ``--ngpus`` on each of ``--nodes`` nodes.

The facebookresearch launcher shape (found in many public projects with the search tools: DINOv2, MAE,
ConvNeXt, DeiT, flow_matching, ...): the launched script parses ``--ngpus`` ("Number of gpus to request on
each node", a default of 8 or the line's) and ``--nodes`` ("Number of nodes to request") and submits the
training callable with a ``submitit`` executor whose parameters give ``gpus_per_node`` and
``tasks_per_node`` the same value: facebookresearch/dinov2 @ b8931f7 ``dinov2/run/submit.py:36-49,97-114``
(``get_slurm_executor_parameters(nodes=args.nodes, num_gpus_per_node=args.ngpus, ...)``) and
``dinov2/utils/cluster.py:74-85`` (``"gpus_per_node": num_gpus_per_node, "tasks_per_node":
num_gpus_per_node, "nodes": nodes``); facebookresearch/mae ``submitit_pretrain.py``
(``executor.update_parameters(gpus_per_node=num_gpus_per_node, tasks_per_node=num_gpus_per_node, ...)``).

Read (never imported): the script and the local modules it imports (two levels) must import ``submitit``
and hold a call or dict literal that gives ``gpus_per_node`` and ``tasks_per_node`` the same name (one task
per GPU). Then the option documented as GPUs per node is ``dist.devices_per_node`` and, with the option
documented as the number of nodes, ``dist.world_size`` = nodes x GPUs per node. Medium when the values are
the line's, low when a default; priority -1 (any other reading wins). Called by :mod:`preflight.adapters.cliargs_flags`.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any, Optional

from preflight.local_trees import parse_project_file
from preflight.plan import Source

GPUS_HELP = re.compile(r"\bgpus?\b[^.]*\b(?:on each|per|each) node\b", re.IGNORECASE)


def _same_name(pairs: list[tuple[Optional[str], ast.expr]]) -> bool:
    given = {k: v for k, v in pairs if k in ("gpus_per_node", "tasks_per_node")}
    if len(given) != 2:
        return False
    a, b = given["gpus_per_node"], given["tasks_per_node"]
    return isinstance(a, ast.Name) and isinstance(b, ast.Name) and a.id == b.id


def _one_task_per_gpu(tree: ast.AST) -> Optional[int]:
    """The line of a call or dict literal that gives gpus_per_node and tasks_per_node the same name."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _same_name([(k.arg, k.value) for k in node.keywords]):
            return node.lineno
        if isinstance(node, ast.Dict) and _same_name(
                [(k.value if isinstance(k, ast.Constant) and isinstance(k.value, str) else None, v)
                 for k, v in zip(node.keys, node.values)]):
            return node.lineno
    return None


def _imports_submitit(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "submitit" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "submitit":
            return True
    return False


def submitit_tasks(project: Any, script: Any) -> Optional[str]:
    """``file:line`` of the one-task-per-GPU executor parameters of a submitit launcher, else None."""
    from preflight.adapters.pytorch_local import _imported_up

    tree = script.tree if isinstance(script.tree, ast.Module) else None
    if tree is None or script.source.path is None:
        return None
    path = Path(str(script.source.path))
    trees: list[tuple[ast.AST, Path]] = [(tree, path)]
    for found in _imported_up(tree, path.parent, Path(str(project.root)), depth=2):
        parsed = parse_project_file(found)
        if parsed is not None:
            trees.append((parsed, found))
    if not any(_imports_submitit(t) for t, _ in trees):
        return None
    for t, p in trees:
        line = _one_task_per_gpu(t)
        if line is not None:
            try:
                shown = p.resolve().relative_to(Path(str(project.root)).resolve()).as_posix()
            except ValueError:
                shown = p.name
            return f"{shown}:{line}"
    return None


def read(flags: Any) -> None:
    """``dist.devices_per_node`` and ``dist.world_size`` of a submitit launcher (see the module doc)."""
    from preflight.adapters.cliargs_flags import _NODES_HELP, _as_int

    def named(pattern: Any) -> list[str]:  # one name per option (``--ngpus``/``--gpus``: one declaration)
        seen: dict[tuple[str, str], str] = {}
        for n, o in flags.decl.options.items():
            if pattern.search(o.help or "") and "." not in n:
                seen.setdefault((str(o.where), str(o.help)), n)
        return list(seen.values())

    gpus, nodes = named(GPUS_HELP), named(_NODES_HELP)
    if len(gpus) != 1 or len(nodes) != 1:
        return
    where = submitit_tasks(flags.project, flags.script)
    if where is None:
        return
    got_g, got_n = flags.value(gpus[0]), flags.value(nodes[0])
    if got_g is None or got_n is None:
        return
    g, n = _as_int(got_g[1]), _as_int(got_n[1])
    if g is None or n is None or g < 1 or n < 1:
        return
    src = got_g[2]
    conf = "medium" if src.kind != "default" else "low"
    help_text = flags.decl.options[gpus[0]].help
    # priority -1: a fallback that any other reading (a launcher, a config) outranks
    flags.adapter.add_checked(flags.plan, "dist.devices_per_node", g, Source(src.kind, src.path, src.line, src.key,
                                                 f"{src.detail}: documented as \"{help_text}\"; a submitit "
                                                 f"executor with one task per GPU ({where})"), conf, -1)
    world_conf = "medium" if src.kind != "default" and got_n[2].kind != "default" else "low"
    flags.adapter.add_checked(flags.plan, "dist.world_size", g * n, Source("derived", src.path, src.line, src.key,
                                               f"--{nodes[0]} {n} x --{gpus[0]} {g}: submitit starts one task per "
                                               f"GPU ({where})"), world_conf, -1)
