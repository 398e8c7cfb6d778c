"""PF332 fixed-device-map-in-every-process: a model loaded with ``device_map={"": 0}`` (one fixed GPU) by
every process of a multi-process launch and then trained data-parallel: every rank puts its copy on
that one GPU."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._device_map import fixed_gpu, trained_names
from preflight.rules.plan._schedule_support import processes

_QUANTIZED = ("load_in_4bit", "load_in_8bit", "quantization_config")
_HALF = ("bfloat16", "float16", "half", "bf16", "fp16")
# the copies of one GPU's share that make an out-of-memory likely before prepare moves them (bytes)
_CROWDED = 40e9


def _fixed_map(expr: ast.expr, tree: ast.Module) -> Optional[str]:
    """``{"": 0}`` (or a fixed device) as written, following a name bound once."""
    if isinstance(expr, ast.Name):
        bound = [n.value for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1
                 and isinstance(n.targets[0], ast.Name) and n.targets[0].id == expr.id]
        if len(bound) != 1:
            return None
        expr = bound[0]
    if isinstance(expr, ast.Dict) and len(expr.keys) == 1 and isinstance(expr.keys[0], ast.Constant) \
            and expr.keys[0].value == "":
        return ast.unparse(expr) if fixed_gpu(expr.values[0]) else None
    return ast.unparse(expr) if fixed_gpu(expr) else None


def _bytes_per_param(call: ast.Call) -> int:
    dtype = next((kw.value for kw in call.keywords if kw.arg in ("torch_dtype", "dtype")), None)
    return 2 if dtype is not None and any(w in ast.unparse(dtype) for w in _HALF) else 4


@register
class FixedDeviceMapInEveryProcess(PlanRule):
    code = "PF332"
    name = "fixed-device-map-in-every-process"
    severity = Severity.WARNING
    category = Category.MEMORY
    frameworks = ("accelerate", "transformers")
    summary = ("A model loaded with `device_map={\"\": 0}` (one fixed GPU) is trained data-parallel by several "
               "processes: every process loads its copy onto that GPU")
    explanation = """
## What it finds

A job launched on more than one process (`accelerate launch --num_processes 8`, `torchrun
--nproc_per_node 4`) whose script loads a model with `from_pretrained(..., device_map={"": 0})`
(or `{"": "cuda:0"}`, `{"": torch.device("cuda:0")}`, `device_map=0`: one GPU written as a
constant) and hands it, in the same function, to `accelerator.prepare(...)` or a
Transformers/TRL Trainer, when the model is quantized (4/8-bit) or its copies are large (the
plan knows the model's parameter count: together above 40 GB).

## Why it matters

Every launched process runs the same line, so every rank materialises its copy of the model on
GPU 0 while the other GPUs stay empty (accelerate issue 3655: "Why does cuda:0 cause memory
explosion when creating model and loading weights?", 8 ranks, the maintainer pointed at
`device_map={"": "cuda:0"}`). With a large model GPU 0 runs out of memory before `prepare` can
move the copies to their own devices; a 4/8-bit model cannot be moved at all, and `prepare` stops
with "You can't train a model that has been loaded in 8-bit or 4-bit precision on a different
device than the one you're training on".

## How to fix it

Give each process its own GPU: `device_map={"": accelerator.process_index}` (or
`{"": int(os.environ["LOCAL_RANK"])}`, `{"": torch.cuda.current_device()}` after the launcher set
it), or load without a `device_map` and let `prepare`/the Trainer place the model.

## When preflight stays silent

* The job runs one process, or the process count is not known.
* The map is computed per process (`accelerator.process_index`, `LOCAL_RANK`,
  `torch.cuda.current_device()`, `"cuda"`), or a name bound more than once.
* The script sets `CUDA_VISIBLE_DEVICES` itself (each process may see a different GPU as 0).
* The model is not trained through `prepare` or a Trainer in that function (a frozen helper model).
* An unquantized model whose size is unknown, or whose copies together stay under 40 GB (they fit
  on GPU 0 for a moment and `prepare` moves them); a ZeRO-3 config (PF630).
"""
    bad_examples = examples("preflight.rules.plan._pf332_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf332_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        world = processes(pctx)
        if world is None or any(f.value == "zero3" for f in pctx.plan.facts("dist.sharding")):
            return
        params = getattr(pctx.plan.resolve("model.num_parameters"), "value", None)
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if not text or "device_map" not in text or "CUDA_VISIBLE_DEVICES" in text:
                continue
            idx = pctx.index(script)
            for site in idx.calls:
                call = site.call
                if not isinstance(call.func, ast.Attribute) or call.func.attr != "from_pretrained":
                    continue
                expr = next((kw.value for kw in call.keywords if kw.arg == "device_map"), None)
                shown = _fixed_map(expr, script.tree) if expr is not None else None
                if shown is None or expr is None or site.target is None:
                    continue
                line = trained_names(idx, site.function).get(site.target)
                if line is None or line < site.line:
                    continue
                why = self._why(call, params, world.value)
                if why is None:
                    continue
                evidence = [pctx.code_evidence(script, call, "loaded here by every process", same_file=True)]
                ev = pctx.fact_evidence(world, f"{world.value} processes")
                if ev is not None:
                    evidence.append(ev)
                yield pctx.code_finding(
                    self, script, expr,
                    f"`device_map={shown}` names one fixed GPU, but the job runs {world.value} processes and each "
                    f"of them runs this line, then trains the model data-parallel (line {line}): all "
                    f"{world.value} copies are loaded onto that one GPU while the others stay empty; {why}. Give "
                    "each process its own GPU (`device_map={\"\": accelerator.process_index}` or the LOCAL_RANK) "
                    "or load without a device_map and let prepare/the Trainer place the model",
                    evidence=evidence)

    @staticmethod
    def _why(call: ast.Call, params: Any, world: int) -> Optional[str]:
        if any(kw.arg in _QUANTIZED for kw in call.keywords):
            return ("a 4/8-bit model cannot be moved afterwards, so `prepare` stops every rank but the one that "
                    "owns that GPU (\"You can't train a model that has been loaded in 8-bit or 4-bit precision on "
                    "a different device\")")
        if not isinstance(params, int) or isinstance(params, bool):
            return None
        total = params * _bytes_per_param(call) * world
        if total < _CROWDED:
            return None
        return (f"{world} copies of {params / 1e9:.1f}B parameters are about {total / 1e9:.0f} GB on one GPU, "
                "which runs out of memory before `prepare` can move them")
