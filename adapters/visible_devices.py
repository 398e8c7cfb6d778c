"""``CUDA_VISIBLE_DEVICES=...`` set on the launch line, as the number of processes where the launcher
counts the visible devices (read by the launchers adapter, :mod:`preflight.adapters.launchers`):

* ``deepspeed`` with none of ``--include``/``--exclude``/``--num_gpus``/``--num_nodes`` and no
  ``--hostfile``: the runner turns the variable into ``--include=localhost:<ids>`` when it finds no
  hostfile (deepspeed/launcher/runner.py ``main``: "respect CUDA_VISIBLE_DEVICES for a single node and no
  explicit resource filters"), so one process per listed device on this machine
  (BeyonderXX/InstructUIE scripts/train_flan-t5.sh:16 @ the benchmark's commit,
  ``CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 deepspeed --master_port $port src/run_uie.py ...``). Whether
  ``/job/hostfile`` exists where the job runs is not seen statically: ``low``, as for ``--num_gpus``
  without ``--num_nodes``.
* plain ``python`` with exactly one visible device and a script that starts no processes itself: one
  process on one device (michael-wzhu/PromptCBLUE src/ft_chatglm_lora/train.sh:12,
  ``CUDA_VISIBLE_DEVICES=1 python src/ft_chatglm_lora/main.py ...``; an HF Trainer then has ``n_gpu`` 1 and
  wraps nothing in DataParallel).

* ``torchrun``/``torch.distributed.launch`` with ``--nproc_per_node gpu`` (or ``auto``): torch/distributed/run.py
  ``determine_local_world_size`` takes ``torch.cuda.device_count()``, which counts the devices the variable
  leaves visible (VentusAislant/MyDemos my_demos/DDP_demos/train4.sh: ``export CUDA_VISIBLE_DEVICES=1,4`` then
  ``torchrun --standalone --nproc_per_node=gpu ...``: two processes). ``auto`` takes the CPU count when CUDA
  is unavailable: ``low`` there (assumed: a CUDA machine), ``medium`` for ``gpu``.

A value that names its devices through a variable (``$gpu``) is not known, and nothing is said."""

from __future__ import annotations

from typing import Any, Optional

from preflight.plan import Source

_STARTS_PROCESSES = ("spawn(", "start_processes", "Process(", "submitit", "notebook_launcher", "ray.init",
                     "launch(")


def _ids(value: Optional[str]) -> Optional[list[str]]:
    if value is None or "$" in value or "`" in value:
        return None
    ids = [x.strip() for x in value.strip("'\"").split(",") if x.strip()]
    if not ids or not all(x.isdigit() or x.startswith(("GPU-", "MIG-")) for x in ids):
        return None
    return ids


def visible_device_facts(adapter: Any, project: Any, plan: Any, info: Any, line: str) -> None:
    """The facts above, through ``adapter._put`` (the launchers adapter)."""
    value = info.env.get("CUDA_VISIBLE_DEVICES")
    ids = _ids(value)
    if ids is None or info.wrapper is not None:
        return
    n = len(ids)
    if info.launcher == "deepspeed":
        opts = info.options
        if opts.get("__include") or opts.get("__exclude") or opts.get("__hostfile") \
                or "__num_gpus" in opts or "__num_accelerators" in opts or "__num_nodes" in opts:
            return  # the runner ignores the variable when one of these is given
        detail = (f"CUDA_VISIBLE_DEVICES={value} and no --include/--exclude/--num_gpus/--num_nodes: the deepspeed "
                  f"runner sets --include=localhost:{value} when it finds no hostfile, one process per device "
                  f"({n}; assumed: no /job/hostfile where the job runs)")
        adapter._put(plan, "dist.devices_per_node", n,
                     Source("derived", None, None, "CUDA_VISIBLE_DEVICES", f"{detail} (launch line: {line})"), "low")
        adapter._put(plan, "dist.world_size", n,
                     Source("derived", None, None, "CUDA_VISIBLE_DEVICES", f"{detail} (launch line: {line})"), "low")
    elif info.launcher in ("torchrun", "torch.distributed.launch") \
            and str(info.options.get("__nproc_per_node", "")).strip("'\"") in ("gpu", "auto"):
        nproc = str(info.options["__nproc_per_node"]).strip("'\"")
        confidence = "medium" if nproc == "gpu" else "low"
        detail = (f"CUDA_VISIBLE_DEVICES={value} and --nproc_per_node {nproc}: torchrun starts one process per "
                  f"visible CUDA device, {n}" + ("" if nproc == "gpu" else " (assumed: CUDA is available; "
                                                  "'auto' takes the CPU count otherwise)") + f" (launch line: {line})")
        adapter._put(plan, "dist.devices_per_node", n,
                     Source("derived", None, None, "CUDA_VISIBLE_DEVICES", detail), confidence)
        if info.nodes is not None:
            adapter._put(plan, "dist.world_size", n * info.nodes,
                         Source("derived", None, None, "CUDA_VISIBLE_DEVICES",
                                f"{info.nodes} node(s) x {n} processes; {detail}"), confidence)
    elif info.launcher == "python" and n == 1:
        texts = [s.source.text for s in project.scripts]
        if any(word in t for t in texts for word in _STARTS_PROCESSES):
            return
        detail = (f"CUDA_VISIBLE_DEVICES={value} python: one process and one visible device; the script starts no "
                  f"others (launch line: {line})")
        for field in ("dist.world_size", "dist.devices_per_node", "dist.nodes"):
            adapter._put(plan, field, 1, Source("derived", None, None, "CUDA_VISIBLE_DEVICES", detail), "medium")


def set_in_script(idx: Any, site: Any) -> Optional[tuple[int, str, int, Any, bool]]:
    """``os.environ["CUDA_VISIBLE_DEVICES"] = E`` in the function of ``site`` (a call that takes every
    visible device), before it and under the same ``if`` tests, with ``E`` known: (how many devices,
    the value, the line, E resolved, whether the assignment is the arm of a test on the variable's own
    value). huyvnphan/PyTorch_CIFAR10 @ 641cac2 ``train.py:19,31``:
    ``os.environ["CUDA_VISIBLE_DEVICES"] = args.gpu_id`` (``--gpu_id`` default ``"3"``) then
    ``Trainer(gpus=-1)``: one device. Only one such assignment, and ids that are all digits.

    Also an assignment whose one extra ``if`` test reads the variable as the launch environment holds it
    (threestudio @ 28d9d80 ``launch.py:106-121``: ``env_gpus_str = os.environ.get("CUDA_VISIBLE_DEVICES")``,
    ``env_gpus = ... if env_gpus_str else []``, ``if len(env_gpus) > 0: ... else:
    os.environ["CUDA_VISIBLE_DEVICES"] = args.gpu``): the script sets it when the launch does not, which
    the launch line (it sets no such variable) is read as; the caller caps what it gives at medium."""
    import ast

    found = []
    for node in ast.walk(idx.script.tree):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript)):
            continue
        target = node.targets[0]
        key = target.slice
        if not (isinstance(key, ast.Constant) and key.value == "CUDA_VISIBLE_DEVICES"
                and ast.unparse(target.value) in ("os.environ", "environ")):
            continue
        found.append(node)
    if len(found) != 1:
        return None
    node = found[0]
    tree = idx.script.tree
    owner = _owner(tree, node)
    # in the call's function before it under the same tests, or at module level (under no test but
    # ``if __name__ == "__main__":``), where it runs before the entry function is called
    call = site.call.func  # a node of the tree also when the call was rebuilt from a ``**mapping``
    here = owner is _owner(tree, call) and node.lineno < site.line and _same_guards(tree, node, call)
    unless_set = not here and owner is _owner(tree, call) and node.lineno < site.line \
        and _tests(tree, node)[:-1] == _tests(tree, call) and _reads_variable(owner, _tests(tree, node)[-1:])
    here = here or unless_set
    top = owner is tree and owner is not _owner(tree, call) and all(
        ast.unparse(t).replace("'", '"') == '__name__ == "__main__"' for t in _tests(tree, node))
    if not (here or top):
        return None
    env = idx.resolve(node.value)
    ids = _ids(env.value) if env is not None and isinstance(env.value, str) else None
    if not ids or not all(i.isdigit() for i in ids):
        return None
    return len(ids), env.value, node.lineno, env, unless_set


def _reads_variable(fn: Any, tests: list, hops: int = 3) -> bool:
    """Whether the one test reads ``CUDA_VISIBLE_DEVICES`` from the environment, itself or through the
    names it reads, each bound once in ``fn`` (at most ``hops`` bindings deep)."""
    import ast

    todo = list(tests)
    for _ in range(hops + 1):
        if any("CUDA_VISIBLE_DEVICES" in ast.unparse(t) and "environ" in ast.unparse(t) for t in todo):
            return True
        names = {n.id for t in todo for n in ast.walk(t) if isinstance(n, ast.Name)}
        todo = [a.value for a in ast.walk(fn) if isinstance(a, ast.Assign) and len(a.targets) == 1
                and isinstance(a.targets[0], ast.Name) and a.targets[0].id in names]
        if not todo:
            return False
    return False


def _owner(tree: Any, target: Any) -> Any:
    import ast

    around = [fn for fn in ast.walk(tree) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
              and any(n is target for n in ast.walk(fn))]
    return max(around, key=lambda fn: fn.lineno) if around else tree  # the innermost starts last


def _same_guards(tree: Any, a: Any, b: Any) -> bool:
    """The innermost ``if`` arms around ``a`` and ``b`` are the same."""
    import ast

    def arms(target: Any) -> list[tuple[int, bool]]:
        out = []
        for node in ast.walk(tree):
            if isinstance(node, ast.If):
                for arm, stmts in ((True, node.body), (False, node.orelse)):
                    if any(n is target for s in stmts for n in ast.walk(s)):
                        out.append((id(node), arm))
        return out

    return arms(a) == arms(b)


def _tests(tree: Any, target: Any) -> list:
    import ast

    return [node.test for node in ast.walk(tree) if isinstance(node, ast.If)
            and any(n is target for s in (*node.body, *node.orelse) for n in ast.walk(s))]
