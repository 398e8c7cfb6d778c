"""PF242 device-map-model-under-multi-process: a model loaded with ``device_map="auto"`` (spread
over every GPU the process sees) is trained by Accelerate or a Trainer in a job launched on several
processes: ``accelerator.prepare`` refuses it."""

from __future__ import annotations

import ast
from typing import Any, Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._device_map import trained_names
from preflight.rules.plan._schedule_support import processes

# device_map strategies that dispatch the layers over all visible GPUs (accelerate infer_auto_device_map)
_SPREADING = ("auto", "balanced", "balanced_low_0", "sequential")


def _single_binding(idx: Any, expr: ast.expr) -> bool:
    """``expr`` is a literal, or a name bound once in the script (``device_map = "auto"`` that an
    ``if ddp: device_map = {"": local_rank}`` rebinds is not a single binding)."""
    if isinstance(expr, ast.Constant):
        return True
    if isinstance(expr, ast.Name):
        return len(idx.assigns.get(expr.id, [])) == 1 and not idx.param_count.get(expr.id)
    return False


@register
class DeviceMapModelUnderMultiProcess(PlanRule):
    code = "PF242"
    name = "device-map-model-under-multi-process"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("accelerate", "transformers")
    summary = ("A model loaded with `device_map=\"auto\"` is trained through `accelerator.prepare` or a "
               "Trainer in a job launched on several processes: Accelerate refuses it (\"You can't train a "
               "model that has been loaded with `device_map='auto'` in any distributed mode\")")
    explanation = """
## What it finds

A job launched on more than one process (`accelerate launch --num_processes 4`, `torchrun
--nproc_per_node 4`, a config with `num_processes: 8`) whose script loads a model with
`from_pretrained(..., device_map="auto")` (or `"balanced"`, `"balanced_low_0"`, `"sequential"`)
and then, in the same function, hands that model to `accelerator.prepare(...)` or to a
Transformers/TRL Trainer (`Trainer(model=model, ...)`, `SFTTrainer`, ...).

## Why it matters

Every launched process sees all GPUs of the node, and `device_map="auto"` dispatches the layers of
its copy over all of them (naive model parallelism). Data-parallel training needs one whole copy
per process. Accelerate checks this in `prepare` (the Trainer calls it too) and stops: "You can't
train a model that has been loaded with `device_map='auto'` in any distributed mode. Please rerun
your script specifying `--num_processes=1` or by launching with `python {{myscript.py}}`"
(`Accelerator.verify_device_map`; transformers issue 31557, trl issue 921).

## How to fix it

Load one full copy per process on its own GPU: `device_map={"": accelerator.process_index}`
(or `{"": int(os.environ["LOCAL_RANK"])}`, or no device_map and let prepare move it), or run one
process (`python train.py`) if the model must be split over the GPUs.

## When preflight stays silent

* The job runs one process, or the process count is not known.
* `device_map` is a per-process mapping (`{"": local_rank}`), None, not a literal, or a name
  bound more than once (`device_map = "auto"` then `if ddp: device_map = {"": local_rank}`).
* The model is not handed to `prepare` or a Trainer in the function that loads it (a frozen
  teacher or a reward model used for inference only).
* A ZeRO-3 DeepSpeed config is part of the job (transformers refuses the device map earlier;
  PF630), or the script sets `ACCELERATE_BYPASS_DEVICE_MAP`.
"""
    bad_examples = examples("preflight.rules.plan._pf242_examples", "PF242_BAD")
    good_examples = examples("preflight.rules.plan._pf242_examples", "PF242_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        world = processes(pctx)
        if world is None:
            return
        if any(f.value == "zero3" for f in pctx.plan.facts("dist.sharding")):
            return
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if not text or "device_map" not in text or "ACCELERATE_BYPASS_DEVICE_MAP" in text:
                continue
            idx = pctx.index(script)
            for site in idx.calls:
                if not isinstance(site.call.func, ast.Attribute) or site.call.func.attr != "from_pretrained":
                    continue
                expr = next((kw.value for kw in site.call.keywords if kw.arg == "device_map"), None)
                if expr is None or not _single_binding(idx, expr):
                    continue
                found = idx.resolve(expr)
                value = found.value if found is not None else None
                if not isinstance(value, str) or value not in _SPREADING or site.target is None:
                    continue
                trained = trained_names(idx, site.function)
                line = trained.get(site.target)
                if line is None or line < site.line:
                    continue
                evidence = [pctx.code_evidence(script, site.call, "loaded here", same_file=True)]
                ev = pctx.fact_evidence(world, f"{world.value} processes")
                if ev is not None:
                    evidence.append(ev)
                yield pctx.code_finding(
                    self, script, expr,
                    f"`device_map={value!r}` spreads this model over every GPU the process sees, but the job "
                    f"runs {world.value} processes and the model is trained data-parallel (line {line}): "
                    "`accelerator.prepare` stops with \"You can't train a model that has been loaded with "
                    "`device_map='auto'` in any distributed mode\". Load one whole copy per process "
                    "(`device_map={\"\": accelerator.process_index}` or the LOCAL_RANK) or run one process",
                    evidence=evidence)
