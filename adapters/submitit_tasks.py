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


def imports_submitit(tree: ast.AST) -> bool:
    """Whether the module imports submitit (``import submitit``, ``from submitit... import``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "submitit" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "submitit":
            return True
    return False


def _launcher_trees(project: Any, script: Any) -> list[tuple[ast.AST, Path]]:
    """The script and the local modules it imports (two levels), when one of them imports submitit; else []."""
    from preflight.adapters.pytorch_local import _imported_up

    tree = script.tree if isinstance(script.tree, ast.Module) else None
    if tree is None or script.source.path is None:
        return []
    path = Path(str(script.source.path))
    trees: list[tuple[ast.AST, Path]] = [(tree, path)]
    for found in _imported_up(tree, path.parent, Path(str(project.root)), depth=2):
        parsed = parse_project_file(found)
        if parsed is not None:
            trees.append((parsed, found))
    return trees if any(imports_submitit(t) for t, _ in trees) else []


def _shown(project: Any, p: Path, line: int) -> str:
    try:
        return f"{p.resolve().relative_to(Path(str(project.root)).resolve()).as_posix()}:{line}"
    except ValueError:
        return f"{p.name}:{line}"


def submitit_tasks(project: Any, script: Any) -> Optional[str]:
    """``file:line`` of the one-task-per-GPU executor parameters of a submitit launcher, else None."""
    for t, p in _launcher_trees(project, script):
        line = _one_task_per_gpu(t)
        if line is not None:
            return _shown(project, p, line)
    return None


def _count_names(tree: ast.AST) -> Optional[tuple[str, str, int]]:
    """(nodes name, tasks name, line) of a call giving ``nodes=``, ``tasks_per_node=`` and ``gpus_per_node=``
    plain names, the tasks and GPUs the same one (one task per GPU)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _same_name([(k.arg, k.value) for k in node.keywords]):
            given = {k.arg: k.value for k in node.keywords}
            nodes = given.get("nodes")
            tasks = given["tasks_per_node"]
            if isinstance(nodes, ast.Name) and isinstance(tasks, ast.Name):
                return nodes.id, tasks.id, node.lineno
    return None


def _read_key(value: ast.expr) -> Optional[str]:
    """``K`` of ``x["K"]``, ``x.get("K")`` or either under ``int(...)``."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "int" \
            and len(value.args) == 1:
        value = value.args[0]
    key: Optional[ast.expr] = None
    if isinstance(value, ast.Subscript):
        key = value.slice
    elif isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "get" \
            and value.args:
        key = value.args[0]
    return key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None


def _key_of(trees: list[tuple[ast.AST, Path]], name: str) -> Optional[str]:
    """The one config key a name is assigned from (``nodes = int(params.get("nodes"))``) in the launcher."""
    keys: set[str] = set()
    for tree, _p in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and node.targets[0].id == name:
                key = _read_key(node.value)
                if key is not None:
                    keys.add(key)
    return next(iter(keys)) if len(keys) == 1 else None


def read_config_counts(flags: Any) -> None:
    """``dist.nodes``, ``dist.devices_per_node`` and ``dist.world_size`` of a submitit launcher whose executor
    takes its node and task counts from the job's config (facebookresearch/jepa @ 51c59d5
    ``app/main_distributed.py:124-130`` ``nodes = int(_params.get('nodes'))``, ``tasks_per_node =
    int(_params.get('tasks_per_node'))`` of the ``--fname`` YAML, then ``update_parameters(nodes=nodes,
    tasks_per_node=tasks_per_node, gpus_per_node=tasks_per_node)``, ``:79-89``). Medium, priority -1."""
    from preflight.adapters.named_module import top_level_value

    trees = _launcher_trees(flags.project, flags.script)
    for t, p in trees:
        names = _count_names(t)
        if names is None:
            continue
        keys = [_key_of(trees, n) for n in names[:2]]
        got = [top_level_value(flags.project, k) if k is not None else None for k in keys]
        if got[0] is None or got[1] is None:
            return
        n, g = got[0][0], got[1][0]
        if not (isinstance(n, int) and isinstance(g, int)) or isinstance(n, bool) or isinstance(g, bool) \
                or n < 1 or g < 1:
            return
        where = _shown(flags.project, p, names[2])
        for field, value, (_v, display, line), key in (("dist.nodes", n, got[0], keys[0]),
                                                       ("dist.devices_per_node", g, got[1], keys[1])):
            flags.adapter.add_checked(flags.plan, field, value, Source(
                "config", display, line, key, f"`{key}` read by the submitit launcher into its executor's "
                f"parameters ({where}: one task per GPU)"), "medium", -1)
        flags.adapter.add_checked(flags.plan, "dist.world_size", n * g, Source(
            "derived", got[0][1], got[0][2], keys[0], f"{keys[0]} {n} x {keys[1]} {g}: submitit starts one task "
            f"per GPU ({where})"), "medium", -1)
        return


def _launcher_own(flags: Any, names: list[str]) -> list[str]:
    """``names``, or the one of them the launched script declares itself when several match and the others come
    from the training script's parser it inherits: a submitit launcher built on ``parents=[main.get_args_parser()]``
    whose parent documents ``--world-size`` as "number of nodes for distributed training", a value the launcher's
    task then overwrites (facebookresearch/SLIP @ c6faf5d ``run_with_submitit.py:19-22,76-77`` over ``main.py:77-78``;
    the same inherited help in the pytorch/examples ImageNet-style parsers many such launchers wrap)."""
    if len(names) < 2 or flags.script.source.path is None:
        return names
    own = Path(str(flags.script.source.path)).name
    mine = [n for n in names if str(flags.decl.options[n].where).rsplit(":", 1)[0].replace("\\", "/")
            .rsplit("/", 1)[-1] == own]
    return mine if len(mine) == 1 and submitit_tasks(flags.project, flags.script) is not None else names


def read(flags: Any) -> None:
    """``dist.devices_per_node`` and ``dist.world_size`` of a submitit launcher (see the module doc)."""
    from preflight.adapters.cliargs_flags import _NODES_HELP, _as_int

    def named(pattern: Any) -> list[str]:  # one name per option (``--ngpus``/``--gpus``: one declaration)
        seen: dict[tuple[str, str], str] = {}
        for n, o in flags.decl.options.items():
            if pattern.search(o.help or "") and "." not in n:
                seen.setdefault((str(o.where), str(o.help)), n)
        return list(seen.values())

    gpus, nodes = _launcher_own(flags, named(GPUS_HELP)), _launcher_own(flags, named(_NODES_HELP))
    if len(gpus) != 1 or len(nodes) != 1:
        if not gpus and not nodes:
            read_config_counts(flags)
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
