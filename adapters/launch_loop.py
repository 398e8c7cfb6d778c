"""A launch line that runs several times (read by :mod:`preflight.adapters.launchers`), and
``srun`` over a script that spawns its own processes.

The launch line alone gives one run's figures. Where the shell loop around it
(:class:`preflight.adapters.shell_loops.ShellLoop`) runs it more than once:

- in the background (``&``), with the loop variable handed to a rank option of the run
  (``--node_rank ${i}``, ``NODE_RANK=$i``): the runs are the steps of ONE job. bowang-lab/MedSAM @
  d71e8a1 ``train_multi_gpus.sh:65-79``: ``for (( i=0; i < $SLURM_NTASKS; ++i ))`` (``#SBATCH
  --ntasks=5``) starts ``srun -N 1 -n 1 -r $i --gres=gpu:4 ... python train_multi_gpus.py --node_rank
  ${i} &``, and the script ``mp.spawn``s one process per visible GPU (``train_multi_gpus.py:261-263``):
  5 steps x 1 node, 5 x 1 task x 4 processes = 20. Read when ``srun`` gives each step's nodes and
  tasks, the loop's count is known and each task's processes are known (one, or a spawn count);
  else world size and nodes are left open. A launcher that states the job's node count itself
  (``torchrun --nnodes 4 --node_rank $i``) describes the whole job already (its figures stand,
  at medium);
- otherwise (one run after another, or side by side without a shared rank: a sweep over seeds or
  datasets): each run is a job of its own and the line's figures are each run's; they are kept
  at medium, never high (the runs are not one launch).

``srun ... python script.py`` where the script calls ``torch.multiprocessing.spawn`` itself: each
task is not one process. ``nprocs`` read statically, or ``torch.cuda.device_count()`` with the
GPUs each task sees known (``--gres=gpu:K`` with one task per node, ``--gpus-per-task K``), gives
the processes per task; an unknown count leaves the world size open.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters.launch_line import _int

from preflight.analysis.syntax import own_nodes
from preflight.plan import Source

LOOP_FIELDS = ("dist.world_size", "dist.nodes", "dist.devices_per_node")


def joined(loop: Any) -> bool:
    """Whether the loop's runs are steps of one job: started in the background, each handed a rank
    of its own (:func:`preflight.adapters.shell_loops.ranked`)."""
    return loop is not None and loop.background and loop.ranked


def _launcher_states_nodes(info: Any) -> bool:
    opts = info.options
    return any(flag in opts for flag in ("__nnodes", "__num_nodes", "__num_machines"))


def loop_kept(loop: Any, info: Any) -> bool:
    """Whether the launch line's own dist figures stand (capped at medium) under ``loop``."""
    return not joined(loop) or (info.launcher not in (None, "python") and _launcher_states_nodes(info))


def capped(source: Source, loop: Any) -> Source:
    """``source`` with the loop named in its detail."""
    extra = f"each run's figure: {loop.describe()}"
    detail = f"{source.detail}; {extra}" if source.detail else extra
    return Source(source.kind, source.path, source.line, source.key, detail)


def _gpus_per_task(info: Any) -> Optional[tuple[int, str]]:
    w = info.wrapper_options
    per_task = _int(w.get("__gpus_per_task"))
    if per_task:
        return per_task, f"--gpus-per-task {per_task}"
    gres = w.get("__gres") or w.get("__gpus_per_node")
    tasks = _int(w.get("-n") or w.get("__ntasks"))
    nodes = _int(w.get("-N") or w.get("__nodes"))
    per_node = _int(w.get("__ntasks_per_node"))
    one_per_node = per_node == 1 or (tasks is not None and nodes is not None and tasks == nodes)
    if gres and one_per_node:
        count = _int(str(gres).rsplit(":", 1)[-1])
        if count:
            return count, f"--gres {gres} with one task per node"
    return None


def _device_count(idx: Any, tree: ast.AST, call: ast.Call, expr: ast.expr) -> bool:
    """``torch.cuda.device_count()``, directly or through a name that every assignment of the
    function around ``call`` (or of the module, at the top level) binds to it (MedSAM
    ``train_multi_gpus.py:261-263``: ``ngpus_per_node = torch.cuda.device_count()`` then
    ``mp.spawn(main_worker, nprocs=ngpus_per_node, ...)``)."""
    if isinstance(expr, ast.Call):
        name = _dotted(expr.func)
        return not expr.args and not expr.keywords and name is not None \
            and (idx.qualify(name) or name).endswith("cuda.device_count")
    if not isinstance(expr, ast.Name):
        return False
    scope: ast.AST = tree
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(n is call for n in ast.walk(node)):
            scope = node  # the innermost: ast.walk goes outer to inner
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        params = scope.args.posonlyargs + scope.args.args + scope.args.kwonlyargs
        if any(a.arg == expr.id for a in params):
            return False
    values = []
    for node in own_nodes(scope):
        if isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Name) \
                and node.target.id == expr.id:
            return False
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == expr.id for t in node.targets):
            if len(node.targets) != 1:
                return False
            values.append(node.value)
    return bool(values) and all(_device_count(idx, tree, call, v) for v in values if not isinstance(v, ast.Name))\
        and not any(isinstance(v, ast.Name) for v in values)


def _dotted(node: ast.expr) -> Optional[str]:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


_SPAWNS = ("torch.multiprocessing.spawn", "torch.multiprocessing.start_processes")


def spawned_per_task(project: Any, info: Any) -> Optional[tuple[Optional[int], str]]:
    """None when no audited script spawns processes; else (processes each task runs, or None
    when not known; how that was read)."""
    for script in project.scripts:
        idx = project.index(script)
        for site in idx.calls:
            if (site.qualified or "") not in _SPAWNS or idx.runs(site) is False:
                continue
            expr = site.kwarg("nprocs") or (site.call.args[1] if len(site.call.args) > 1 else None)
            where = f"{script.source.display}:{site.call.lineno}"
            if expr is None:
                return 1, f"{site.label}(...) without nprocs ({where})"
            got = idx.resolve(expr)
            value = got.value if got is not None else None
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                return value, f"{site.label}(nprocs={ast.unparse(expr)}) = {value} ({where})"
            if _device_count(idx, script.tree, site.call, expr):
                gpus = _gpus_per_task(info)
                if gpus is not None:
                    return gpus[0], (f"{site.label}(nprocs={ast.unparse(expr)}): torch.cuda.device_count() = "
                                     f"{gpus[0]} GPUs each task sees ({gpus[1]}; {where})")
            return None, f"{site.label}(nprocs={ast.unparse(expr)}) not read statically ({where})"
    return None


def srun_steps(adapter: Any, project: Any, plan: Any, info: Any, line: str, loop: Any) -> None:
    """The facts of ``srun ... python`` steps a background loop starts as one job (see above)."""
    w = info.wrapper_options
    steps = loop.count
    nodes = _int(w.get("-N") or w.get("__nodes"))
    tasks = _int(w.get("-n") or w.get("__ntasks"))
    per_node = _int(w.get("__ntasks_per_node"))
    if tasks is None and nodes is not None and per_node is not None:
        tasks = nodes * per_node
    spawned = spawned_per_task(project, info) if info.launcher in (None, "python") else None
    per_task: Optional[int] = 1 if spawned is None else spawned[0]
    if info.wrapper != "srun" or info.launcher not in (None, "python") or not steps or nodes is None \
            or tasks is None or per_task is None:
        adapter.note(plan, f"{loop.describe()}, each run handed a rank of its own: the runs are steps of one job "
                           "whose world size and nodes are not read from one line")
        return
    how = f"{loop.describe()}, each run handed a rank of its own: {steps} steps of one job"
    spawn = f"; each task spawns {per_task}: {spawned[1]}" if spawned is not None else ""
    total_nodes = steps * nodes
    world = steps * tasks * per_task
    detail = (f"{how}; srun -N {nodes} -n {tasks} each: {steps} x {nodes} = {total_nodes} node(s), "
              f"{steps} x {tasks} task(s) x {per_task} = {world} processes{spawn} (launch line: {line})")
    src = Source("derived", None, None, "-N", detail)
    adapter.add_checked(plan, "dist.nodes", total_nodes, src, "medium")
    adapter.add_checked(plan, "dist.world_size", world, Source("derived", None, None, "-n", detail), "medium")
    if world % total_nodes == 0:
        adapter.add_checked(plan, "dist.devices_per_node", world // total_nodes,
                            Source("derived", None, None, "-n", detail), "medium")


def srun_spawn(adapter: Any, project: Any, plan: Any, info: Any, line: str) -> Optional[bool]:
    """``srun -n T python script.py`` whose script spawns processes itself: add world size
    and devices per node from the spawn count (medium); True when added, False when the script
    spawns an unknown number (the srun task count is not the world size), None when it spawns
    nothing (srun's tasks are the processes)."""
    spawned = spawned_per_task(project, info)
    if spawned is None:
        return None
    per_task, how = spawned
    w = info.wrapper_options
    tasks = _int(w.get("-n") or w.get("__ntasks"))
    nodes = _int(w.get("-N") or w.get("__nodes"))
    per_node = _int(w.get("__ntasks_per_node"))
    if tasks is None and nodes is not None and per_node is not None:
        tasks = nodes * per_node
    if per_task is None or tasks is None:
        adapter.note(plan, f"srun's tasks each run a script that spawns processes itself ({how}): the world size "
                           "is not srun's task count")
        return False
    detail = f"srun: {tasks} task(s) x {per_task} spawned processes each ({how}) (launch line: {line})"
    adapter._put(plan, "dist.world_size", tasks * per_task, Source("derived", None, None, "-n", detail), "medium")
    if nodes and tasks % nodes == 0:
        adapter._put(plan, "dist.devices_per_node", tasks // nodes * per_task,
                     Source("derived", None, None, "-n", detail), "medium")
    return True
