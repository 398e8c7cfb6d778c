"""PF142 inference-only-model-wrapped-in-ddp: a script that never trains passes its model through
``accelerator.prepare`` in a multi-process DDP job, which wraps it in DistributedDataParallel."""

from __future__ import annotations

import textwrap
from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf484_support import assigned_to, model_loads
from preflight.rules.base import examples
from preflight.rules.plan._pf537_support import (
    ddp_world,
    frozen_or_eval_mode,
    names_another_wrapper,
    prepared,
)

_TRAINS = ("backward", "optim", "Trainer", ".step(", "train(")
_INFERS = ("no_grad", "inference_mode", ".eval()", "generate")


@register
class InferenceOnlyModelWrappedInDdp(PlanRule):
    code = "PF142"
    name = "inference-only-model-wrapped-in-ddp"
    severity = Severity.WARNING
    category = Category.MEMORY
    frameworks = ("accelerate",)
    summary = ("An evaluation-only model goes through `accelerator.prepare` in a multi-process job: it is wrapped "
               "in DistributedDataParallel, whose gradient buckets double its memory for nothing")
    explanation = textwrap.dedent("""
    ## What it finds

    `model, loader = accelerator.prepare(model, loader)` in a script that never trains (no backward,
    no optimizer, no Trainer, no `.train()`/`.step()`) and runs the model for inference (`no_grad`,
    `inference_mode`, `.eval()`, `generate`), in a job whose launch runs several processes with plain
    DDP (not DeepSpeed or FSDP).

    ## Why it matters

    With more than one process `accelerator.prepare` wraps a model with trainable parameters in
    `torch.nn.parallel.DistributedDataParallel`. DDP broadcasts the weights from rank 0 and its reducer
    allocates gradient buckets shaped like every trainable parameter, although no backward ever runs:
    a 15B model's memory per GPU roughly doubles (bigcode-evaluation-harness moved its model to the
    device instead of preparing it), and the wrapper also hides `generate`.

    ## How to fix it

    Prepare only the dataloader and move the model: `model = model.to(accelerator.device)`
    (or `accelerator.prepare(model, evaluation_mode=True)` on accelerate releases that have it, or
    `model.requires_grad_(False)` first: accelerate wraps only models with trainable parameters).

    ## When preflight stays silent

    * The launch runs one process, its world size is unknown, or the job shards with DeepSpeed or FSDP.
    * The script trains (backward, an optimizer, a Trainer, `.step()`/`.train()` appear in it).
    * `evaluation_mode=True` or `model.requires_grad_(False)`.
    * The prepared name is not a model loaded in the script (`X.from_pretrained`) nor named like one.
    """)
    bad_examples = examples("preflight.rules.plan._pf142_examples", "PF142_BAD")
    good_examples = examples("preflight.rules.plan._pf142_examples", "PF142_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        world = ddp_world(pctx.plan)
        if world is None:
            return
        for script in pctx.scripts:
            text = script.source.text
            if "prepare" not in text or names_another_wrapper(text) or any(t in text for t in _TRAINS):
                continue
            if not any(t in text for t in _INFERS):
                continue
            ctx = pctx.file_context(script)
            loaded = {assigned_to(ctx, c) for c in model_loads(ctx)}
            for name, binding, _scope in prepared(ctx):
                if name not in loaded and "model" not in name.lower():
                    continue
                if frozen_or_eval_mode(ctx, name, binding):
                    continue
                evidence = []
                ev = pctx.fact_evidence(world, f"{world.value} processes")
                if ev is not None:
                    evidence.append(ev)
                yield pctx.code_finding(
                    self, script, binding,
                    f"`{name}` goes through `accelerator.prepare` but this script never trains it: with "
                    f"{world.value} processes it is wrapped in DistributedDataParallel, which broadcasts the weights "
                    "and allocates gradient buckets the size of its trainable parameters although no backward "
                    "runs (about twice the model's memory per GPU). Prepare only the dataloader and move the "
                    f"model with `{name}.to(accelerator.device)`",
                    evidence=evidence)
                break
