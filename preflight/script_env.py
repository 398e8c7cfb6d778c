"""What a launcher tells each process it starts, read by the script through the environment or
``torch.distributed``.

torchrun, ``python -m torch.distributed.launch`` and the ``deepspeed`` launcher set ``RANK``,
``LOCAL_RANK`` and ``WORLD_SIZE`` in every process they start (torch/distributed/run.py,
deepspeed/launcher/launch.py); ``accelerate launch`` does the same when it starts several processes.
karpathy/build-nanogpt @ 6104ab1 ``train_gpt2.py:273-281,324-328``: ``ddp = int(os.environ.get('RANK', -1))
!= -1``, ``ddp_world_size = int(os.environ['WORLD_SIZE'])`` and ``grad_accum_steps = total_batch_size // (B
* T * ddp_world_size)``; willisma/SiT @ 947f95b ``train.py:125``: ``args.global_batch_size //
dist.get_world_size()``.

So, for the script of a job launched that way: ``os.environ["WORLD_SIZE"]`` / ``os.environ.get(...)`` /
``os.getenv(...)`` / ``dist.get_world_size()`` are the launch line's process count when it gives one;
``RANK`` and ``LOCAL_RANK`` are set (rank 0 is read: the plan is the first process's view); a variable
written on the launch line (``OMP_NUM_THREADS=1 torchrun ...``) is that value. Values found this way are
capped at medium. Nothing is read from the machine's environment.
"""

from __future__ import annotations

from typing import Any, Optional

_SETS_RANK = ("torchrun", "torch.distributed.launch", "deepspeed", "colossalai")  # colossalai run runs torchrun
_LAUNCHER_VARS = ("RANK", "LOCAL_RANK", "WORLD_SIZE")
UNSET = "\0unset"  # a variable the launch is known not to set
_WORLD_CALLS = ("torch.distributed.get_world_size", "torch.distributed.distributed_c10d.get_world_size")


def launch_env(info: Any) -> dict[str, tuple[str, str]]:
    """Variable -> (value, how it is known) for the processes a parsed launch command starts."""
    out: dict[str, tuple[str, str]] = {}
    if info is None or info.launcher is None:
        return out  # the script's own arguments only: nothing is known of the environment
    for name, value in (info.env or {}).items():
        out[str(name)] = (str(value), f"{name}={value} on the launch line")
    launcher = info.launcher
    if launcher == "python" and getattr(info, "wrapper", None) is None:
        # plain `python script.py` (no srun/mpirun around it) starts one process and sets none of the
        # variables a distributed launcher sets (project-baize/baize-chatbot finetune.py:55
        # `int(os.environ.get("WORLD_SIZE", 1))`): their defaults in the code hold
        for name in _LAUNCHER_VARS:
            out.setdefault(name, (UNSET, "plain python sets no RANK/LOCAL_RANK/WORLD_SIZE"))
        return out
    procs = info.total_procs
    if launcher in _SETS_RANK or (launcher == "accelerate" and procs is not None and procs > 1):
        if procs is not None and procs > 0:
            out["WORLD_SIZE"] = (str(procs), f"{launcher} starts {procs} processes (WORLD_SIZE)")
        for name in ("RANK", "LOCAL_RANK"):
            out.setdefault(name, ("0", f"{launcher} sets {name} in every process (rank 0's view)"))
    return out


def env_key(dotted: Optional[str], args: list[Any]) -> Optional[str]:
    """The variable ``os.environ.get("X", ...)`` / ``os.getenv("X")`` names, else None."""
    import ast

    if dotted not in ("os.environ.get", "os.getenv", "environ.get", "getenv") or not args:
        return None
    first = args[0]
    return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None


def is_world_call(qualified: Optional[str]) -> bool:
    return qualified in _WORLD_CALLS


def launched_value(idx: Any, expr: Any, line: Optional[int]) -> Any:
    """``os.environ["X"]``, ``os.environ.get("X", d)``, ``os.getenv("X")`` or ``dist.get_world_size()`` as the
    launcher sets it for this job (a :class:`~preflight.script_index.Resolved`, medium at most), else None."""
    import ast

    from preflight.analysis.syntax import dotted_name
    from preflight.script_index import Resolved

    name: Optional[str] = None
    if isinstance(expr, ast.Subscript) and dotted_name(expr.value) in ("os.environ", "environ") \
            and isinstance(expr.slice, ast.Constant) and isinstance(expr.slice.value, str):
        name = expr.slice.value
    elif isinstance(expr, ast.Call):
        dotted = dotted_name(expr.func)
        name = env_key(dotted, list(expr.args))
        if name is None and dotted and not expr.args and not expr.keywords and is_world_call(idx.qualify(dotted)):
            got = idx.launch_env.get("WORLD_SIZE")
            if got is None or not got[0].isdigit():
                return None
            return Resolved(int(got[0]), "code", line, None, got[1], cap="medium")
    if name is None:
        return None
    found = idx.launch_env.get(name)
    if found is None:
        return None
    if found[0] == UNSET:
        # not set: ``.get(X, d)`` / ``getenv(X, d)`` is ``d``, ``.get(X)`` is None, ``os.environ[X]`` raises
        if not isinstance(expr, ast.Call) or len(expr.args) > 2 or expr.keywords:
            return None
        if len(expr.args) < 2:
            return Resolved(None, "code", line, None, found[1], cap="medium")
        got = idx.resolve(expr.args[1])
        if got is None:
            return None
        return Resolved(got.value, "code", line, None, f"{found[1]}; the default {got.value!r} holds", cap="medium")
    return Resolved(found[0], "code", line, None, found[1], cap="medium")
