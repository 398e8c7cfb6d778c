"""The processes a script started with plain ``python`` spawns itself (read by
:mod:`preflight.adapters.cliargs`).

``torch.multiprocessing.spawn(main, nprocs=E)`` in the entry script, under ``if`` tests the job's
options decide as taken, with ``E`` read statically: that many processes, on this one machine
(McGill-NLP/nano-aha-moment @ 6cd0306 ``nano_r1_script.py:1158-1161`` ``if args.nproc == 1: main(rank=0)
else: torch.multiprocessing.spawn(main, nprocs=args.nproc)``, README.md:64 ``--nproc 4``). A count not
read (facebookresearch/moco-v3 ``nprocs=ngpus_per_node`` from ``torch.cuda.device_count()``) says
nothing. Also ``for rank in range(E): multiprocessing.Process(target=...).start()`` in the entry
script: E processes (facebookresearch/ijepa @ 52c1ae9 ``main.py:58-65``: ``num_gpus =
len(args.devices)`` of ``--devices cuda:0 cuda:1 cuda:2``, one ``mp.Process`` per device). Nothing is
imported or run.

``detectron2.engine.launch(main, E, num_machines=M)`` (or ``launch`` of a module of the project
whose ``def launch(main_func, num_gpus_per_machine, num_machines=1, ...)`` has that signature)
reached from the entry point: E processes on each of M machines (facebookresearch/detectron2 @
02b5c4e ``tools/lazyconfig_train_net.py:130-136`` ``launch(main, args.num_gpus,
num_machines=args.num_machines, ...)`` with ``--num-gpus 8``; ``detectron2/engine/launch.py:27-60``
spawns ``num_gpus_per_machine`` workers when the world is larger than one); also a project's
``def launch(fn, n_gpu_per_machine, n_machine=1, ...)`` around ``mp.spawn`` (rosinality/vq-vae-2-pytorch
@ ef5f67c ``distributed/launch.py:22-46``, ``dist.launch(main, args.n_gpu, 1, 0, ...)`` at train_vqvae.py:152).
"""

from __future__ import annotations

import ast
from typing import Any, Callable, Optional

from preflight.adapters_api import Project
from preflight.plan import Source
from preflight.sources import ParsedPython


def spawned_processes(project: Project, script: ParsedPython, line: str,
                      add: Callable[[str, Any, Source, str], None]) -> bool:
    """Add ``dist.world_size`` (the spawned count) and ``dist.nodes`` 1 when the script spawns a
    known number of processes; True when it did."""
    idx = project.index(script)
    spawns = [s for s in idx.calls if (s.qualified or "") == "torch.multiprocessing.spawn"]
    for site in spawns:
        runs = idx.runs(site)
        expr = site.kwarg("nprocs") or (site.call.args[1] if len(site.call.args) > 1 else None)
        got = idx.resolve(expr) if expr is not None and runs is not None else None
        count = got.value if got is not None else None
        if runs is not False and len(spawns) == 1 and _returned_before(idx, site):
            detail = (f"torch.multiprocessing.spawn at {script.source.display}:{site.call.lineno} is never reached: "
                      f"an earlier `if` that the options decide as taken returns first; one process "
                      f"(launch line: {line})")
            _one_process(add, detail)
            return True
        if expr is None or not isinstance(count, int) or isinstance(count, bool) or count < 1:
            continue
        if runs is False and count == 1 and len(spawns) == 1:
            # ``if world_size > 1: mp.spawn(run, nprocs=world_size) else: run(rank=0, ...)`` with
            # ``--world-size`` 1 (lifeiteng/vall-e @ 9c69096 valle/bin/trainer.py:88-93,1149-1154, the
            # icefall idiom): the spawn is skipped and its count is one; one process either way
            detail = (f"torch.multiprocessing.spawn(nprocs={ast.unparse(expr)}) is skipped with "
                      f"{ast.unparse(expr)} = 1 ({script.source.display}:{site.call.lineno}): one process "
                      f"(launch line: {line})")
            _one_process(add, detail)
            return True
        if runs is not True:
            continue
        detail = (f"torch.multiprocessing.spawn(nprocs={ast.unparse(expr)}) = {count} processes on one machine "
                  f"({script.source.display}:{site.call.lineno}; launch line: {line})")
        add("dist.world_size", count, Source("derived", None, None, "nprocs", detail), "medium")
        add("dist.nodes", 1, Source("derived", None, None, "nprocs", detail), "medium")
        add("dist.devices_per_node", count, Source("derived", None, None, "nprocs", detail), "medium")
        return True
    return _process_loop(project, script, line, add)


def _one_process(add: Any, detail: str) -> None:
    """The spawn is never reached or spawns one: world size and nodes 1, at medium."""
    add("dist.world_size", 1, Source("derived", None, None, "nprocs", detail), "medium")
    add("dist.nodes", 1, Source("derived", None, None, "nprocs", detail), "medium")


def _returned_before(idx: Any, site: Any) -> bool:
    """The spawn sits after ``if T: ...; return`` in its function, T decided true by the launch line's options
    (or their declared defaults, not a value capped below high): the processes are never started
    (lucidrains/lightweight-gan @ efbec45 ``lightweight_gan/cli.py:183-192`` ``if world_size == 1 or not
    multi_gpus: run_training(0, 1, ...); return`` before ``mp.spawn(..., nprocs=world_size)``, ``multi_gpus``
    a ``fire.Fire`` parameter defaulting to False; the same idiom in lucidrains/stylegan2-pytorch
    ``stylegan2_pytorch/cli.py``). A test not decided (``if world_size < 2: return`` on the GPU count) keeps
    the spawn unknown."""
    from preflight.adapters.ddp_world_guard import skipped_in

    def truth(test: ast.expr) -> Optional[bool]:
        value, capped = idx._truth(test)
        return None if capped else value

    defs = idx.functions.get(site.function or "", [])
    return len(defs) == 1 and skipped_in(defs[0], site.call.lineno, truth)


def detectron2_launch(project: Project, script: ParsedPython, line: str,
                      add: Callable[[str, Any, Source, str], None]) -> bool:
    """``launch(main, E, num_machines=M)`` of detectron2 (its count per machine and machines both
    given): add world size, nodes, devices per node; True when such a call runs (also when its
    counts are not read: the script is not one process)."""
    idx = project.index(script)
    for site in idx.calls:
        qualified = site.qualified or ""
        if not qualified.endswith(".launch") or idx.runs(site) is False:
            continue
        per_name, nodes_name = "num_gpus_per_machine", "num_machines"
        if "detectron2" not in qualified:
            from preflight.adapters.launch_signature import launch_parameters

            names = launch_parameters(qualified, script.source.path)
            if names is None:
                continue
            per_name, nodes_name = names
        expr = site.kwarg(per_name) or (site.call.args[1] if len(site.call.args) > 1 else None)
        got = _option(idx, expr)
        count = got.value if got is not None else None
        nodes_expr = site.kwarg(nodes_name) or (site.call.args[2] if len(site.call.args) > 2 else None)
        nodes_got = _option(idx, nodes_expr)
        nodes = nodes_got.value if nodes_got is not None else (1 if nodes_expr is None else None)
        if not (isinstance(count, int) and isinstance(nodes, int)) or isinstance(count, bool) \
                or isinstance(nodes, bool) or count < 1 or nodes < 1:
            return True  # processes started, their count not known: not one process either
        detail = (f"{site.label}({per_name}={ast.unparse(expr) if expr is not None else '?'}) = "
                  f"{count} processes on each of {nodes} machine(s) ({script.source.display}:{site.call.lineno}; "
                  f"launch line: {line})")
        add("dist.world_size", count * nodes, Source("derived", None, None, "num_gpus_per_machine", detail), "medium")
        add("dist.devices_per_node", count, Source("derived", None, None, "num_gpus_per_machine", detail), "medium")
        add("dist.nodes", nodes, Source("derived", None, None, "num_machines", detail), "medium")
        return True
    return False


_PROCESS = ("multiprocessing.Process", "torch.multiprocessing.Process")


def _process_loop(project: Project, script: ParsedPython, line: str,
                  add: Callable[[str, Any, Source, str], None]) -> bool:
    """``for r in range(E): mp.Process(...)`` that runs: E processes on this machine. True when
    such a loop runs (with E unknown nothing is added, and the script is not one process)."""
    idx = project.index(script)
    sites = [s for s in idx.calls if (s.qualified or "") in _PROCESS and idx.runs(s) is True]
    if not sites:
        return False
    for loop in ast.walk(script.tree):
        if not isinstance(loop, ast.For) or not isinstance(loop.iter, ast.Call) \
                or not isinstance(loop.iter.func, ast.Name) or loop.iter.func.id != "range" \
                or len(loop.iter.args) != 1 or loop.iter.keywords:
            continue
        inside = {id(n) for stmt in loop.body for n in ast.walk(stmt)}
        site = next((s for s in sites if id(s.call) in inside), None)
        if site is None:
            continue
        got = idx.resolve(loop.iter.args[0])
        count = got.value if got is not None else _len_of_list_option(project, script, loop.iter.args[0])
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            return True  # processes started, their count not known: not one process either
        detail = (f"one {site.label}(...) per iteration of range({ast.unparse(loop.iter.args[0])}) = {count} "
                  f"processes on one machine ({script.source.display}:{loop.lineno}; launch line: {line})")
        for field in ("dist.world_size", "dist.devices_per_node"):
            add(field, count, Source("derived", None, None, "range", detail), "medium")
        add("dist.nodes", 1, Source("derived", None, None, "range", detail), "medium")
        return True
    return False


def _option(idx: Any, expr: Any) -> Any:
    """The value of ``expr``; for ``args.X`` where ``args`` holds only ``<parser>.parse_args()``
    results or parameters (detectron2 ``args = default_argument_parser().parse_args()`` in a
    function, the parser in a local module), the launch line's or the declared default of ``X``; where
    ``args`` is ``<library parser>().parse_args()`` (:func:`_library_argument`), that parser's ``X``."""
    if expr is None:
        return None
    got = idx.resolve(expr)
    if got is not None or not isinstance(expr, ast.Attribute) or not isinstance(expr.value, ast.Name):
        return got
    bound = idx.assigns.get(expr.value.id) or []
    if idx.options is not None and bound and all(
            b is None or (isinstance(b, ast.Call) and isinstance(b.func, ast.Attribute)
                          and b.func.attr in ("parse_args", "parse_known_args")) for b in bound):
        got = idx.options(expr.attr)
    return got if got is not None else _library_argument(idx, expr)


def _library_argument(idx: Any, expr: ast.Attribute) -> Any:
    """``args.X`` where ``args`` is bound once, to ``<library parser>().parse_args()`` (detectron2's own
    ``default_argument_parser``: facebookresearch/MaskFormer @ da3e60d ``train_net.py:262-271``, or a project
    copy of it): ``X`` as :func:`preflight.library_parsers.library_parser` declares it (its type and default;
    detectron2 ``--num-gpus``/``--num-machines`` ``type=int, default=1``), the index having added those
    declarations to the script's options, with the launch line's value; None for anything else."""
    from preflight.library_parsers import library_parser

    if not isinstance(expr.value, ast.Name):
        return None
    bound = [b for b in idx.assigns.get(expr.value.id) or [] if b is not None]  # None: a parameter
    if len(bound) != 1 or not isinstance(bound[0], ast.Call) or not isinstance(bound[0].func, ast.Attribute) \
            or bound[0].func.attr != "parse_args" or not isinstance(bound[0].func.value, ast.Call):
        return None
    made = next((s for s in idx.calls if s.call is bound[0].func.value), None)
    if made is None or library_parser(made.qualified, idx.script.source.path) is None:
        return None
    return idx.argument(expr.attr, expr.lineno)


def _len_of_list_option(project: Project, script: ParsedPython, expr: ast.AST) -> Any:
    """``len(args.devices)`` (directly or through one module-level name assigned it) of an option
    given a list on the launch line (``--devices cuda:0 cuda:1 cuda:2``, argparse ``nargs='+'``):
    the number of values after the flag; None when the flag is not on the line."""
    if isinstance(expr, ast.Name):
        values = [n.value for n in ast.walk(script.tree) if isinstance(n, ast.Assign) and len(n.targets) == 1
                  and isinstance(n.targets[0], ast.Name) and n.targets[0].id == expr.id]
        if len(values) != 1:
            return None
        expr = values[0]
    if not (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "len"
            and len(expr.args) == 1 and isinstance(expr.args[0], ast.Attribute)):
        return None
    dest = expr.args[0].attr
    if "nargs" not in script.source.text:
        return None
    args = project.script_args(script)
    flags = {f"--{dest}", f"--{dest.replace('_', '-')}"}
    for k, tok in enumerate(args):
        if tok in flags:
            count = 0
            for more in args[k + 1:]:
                if more.startswith("-"):
                    break
                count += 1
            return count or None
    return None
