"""PF667 collective-before-set-device: a NCCL process group used for a collective before the process selects
its own GPU (no ``torch.cuda.set_device(local_rank)`` anywhere in the file)."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.syntax import dotted_name
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules.base import Rule, examples

_COLLECTIVES = frozenset({"barrier", "all_reduce", "broadcast", "all_gather", "reduce", "all_gather_object",
                          "broadcast_object_list", "all_to_all", "reduce_scatter"})
_DIST_OWNERS = ("dist", "torch.distributed", "deepspeed.comm", "deepspeed", "comm")
# ways a process picks (or is given) its GPU without set_device
_PICKS = ("set_device", "CUDA_VISIBLE_DEVICES", "torch.cuda.device(", "device_ids=", "device_id=",
          "get_accelerator().set_device", "LOCAL_RANK\"] = ", "init_device_mesh")


def _init(call: ast.Call) -> bool:
    """``deepspeed.init_distributed(...)`` or ``init_process_group`` with the NCCL backend."""
    name = dotted_name(call.func) or ""
    last = name.rsplit(".", 1)[-1]
    if last == "init_distributed" and name.startswith("deepspeed"):
        backend = kwarg(call, "dist_backend") or (call.args[0] if call.args else None)
        return backend is None or (isinstance(backend, ast.Constant) and backend.value == "nccl")
    if last == "init_process_group":
        backend = kwarg(call, "backend") or (call.args[0] if call.args else None)
        return isinstance(backend, ast.Constant) and backend.value == "nccl"
    return False


def _collective(call: ast.Call) -> bool:
    if not isinstance(call.func, ast.Attribute) or call.func.attr not in _COLLECTIVES:
        return False
    return (dotted_name(call.func.value) or "") in _DIST_OWNERS


def _first_collective(fn: ast.AST, after: int) -> Optional[ast.Call]:
    found = [n for n in ast.walk(fn) if isinstance(n, ast.Call) and n.lineno > after and _collective(n)]
    return min(found, key=lambda n: (n.lineno, n.col_offset)) if found else None


def _engine_between(fn: ast.AST, start: int, end: int) -> bool:
    """``deepspeed.initialize(...)`` between the two lines: the engine selects the local rank's GPU
    (DeepSpeed v0.15.2 runtime/engine.py:1019, ``get_accelerator().set_device(device_rank)``)."""
    return any(isinstance(n, ast.Call) and start < n.lineno < end
               and (dotted_name(n.func) or "").endswith("deepspeed.initialize") for n in ast.walk(fn))


@register
class CollectiveBeforeSetDevice(Rule):
    code = "PF667"
    needs_text = ("init_distributed", "init_process_group")
    name = "collective-before-set-device"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "deepspeed")
    summary = ("A NCCL process group runs a collective before the process selects its GPU (no "
               "`torch.cuda.set_device(local_rank)` in the file): every rank's current device is cuda:0")
    explanation = """
## What it finds

A script that initialises NCCL (`deepspeed.init_distributed()`, or
`init_process_group("nccl")` without `device_id=`) and then, in the same function, runs a
collective (`dist.barrier()`, `all_reduce`, `broadcast`, ...) while nothing in the file selects
the process's GPU: no `torch.cuda.set_device(...)`, no `CUDA_VISIBLE_DEVICES` of its own, no
`device_ids=` on the barrier.

## Why it matters

Neither call picks a device: every process's current CUDA device stays `cuda:0`. For a barrier
NCCL has to guess the GPU from the rank ("using GPU N to perform barrier as devices used by this
process are currently unknown. This can potentially cause a hang if this rank to GPU mapping is
incorrect"), and any CUDA work before `deepspeed.initialize` moves the model (tensors, the
first `.cuda()`, a collective on a tensor) creates a context on GPU 0 for every rank: extra
memory on GPU 0 and, on multi-node or sharded device maps, hangs (DeepSpeedExamples PR 931
added `set_device` to the CIFAR example for this).

## How to fix it

`torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))` (or
`get_accelerator().set_device(local_rank)`) before the first collective, or pass
`device_id=torch.device("cuda", local_rank)` to `init_process_group`.

## When preflight stays silent

* The file selects a device anywhere (`set_device`, `torch.cuda.device(...)`, its own
  `CUDA_VISIBLE_DEVICES`, `device_ids=`/`device_id=`), or builds a device mesh.
* The initialisation is a fallback under `if not dist.is_initialized():` (Megatron-LM's unit
  tests): the caller normally sets the group and the device up.
* `deepspeed.initialize(...)` runs before the collective: the engine selects the local rank's GPU.
* The backend is not NCCL (gloo), or no collective follows the initialisation in the function.
"""
    bad_examples = examples("preflight.rules.code._pf667_examples", "PF667_BAD")
    good_examples = examples("preflight.rules.code._pf667_examples", "PF667_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        text = (ctx.parsed.text if ctx.parsed.text is not None else ctx.parsed.source.text) or ""
        if any(p in text for p in _PICKS):
            return
        for fn in ctx.nodes(ast.FunctionDef):
            for call in ast.walk(fn):
                if not (isinstance(call, ast.Call) and _init(call)):
                    continue
                stmt = ctx.parent(call)
                guard = ctx.parent(stmt) if stmt is not None else None
                if isinstance(guard, ast.If) and "is_initialized" in ast.unparse(guard.test):
                    continue  # a fallback: the group (and the device) is normally set up by the caller
                collective = _first_collective(fn, call.lineno)
                if collective is None or _engine_between(fn, call.lineno, collective.lineno):
                    continue
                yield ctx.finding(
                    self, call,
                    f"`{ast.unparse(call.func)}(...)` starts NCCL but the process never selects its GPU before "
                    f"`{ast.unparse(collective.func)}()` (line {collective.lineno}): nothing in the file calls "
                    "`torch.cuda.set_device`, so every rank's current device is cuda:0; NCCL guesses the barrier's "
                    "GPU from the rank (and warns it can hang), and CUDA work before the engine moves the model "
                    "lands on GPU 0 for every rank. Call `torch.cuda.set_device(int(os.environ[\"LOCAL_RANK\"]))` "
                    "before the first collective",
                    evidence=[ctx.evidence(collective, "the first collective")])
                break
