"""PF539 prepared-model-into-trainer: the model ``accelerator.prepare`` wrapped is handed to the HF Trainer."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import calls, kwarg, target_text
from preflight.rules._pf414_support import call_last
from preflight.rules.base import examples
from preflight.rules.plan._pf537_support import (
    Scope,
    ddp_world,
    names_another_wrapper,
    prepared,
    rebound,
)


def _hf_trainers(ctx: FileContext) -> set[int]:
    """The calls of the file that build a transformers/trl trainer: a ``...Trainer`` imported from
    transformers or trl, or a class of the file derived from one (not an accelerate-based trainer of the
    project's own, which takes a prepared model on purpose)."""
    hf = {call_last(c) for c, q in calls(ctx) if q.startswith(("transformers.", "trl.")) and q.endswith("Trainer")}
    local: set[str] = set()
    imported = {local for local, q in scope_index(ctx).imports.aliases.items()
                if q.startswith(("transformers.", "trl.")) and q.endswith("Trainer")}
    for cls in ctx.nodes(ast.ClassDef):
        bases = {b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", "") for b in cls.bases}
        if bases & (hf | imported | {"Trainer", "Seq2SeqTrainer"}):
            local.add(cls.name)
    return {id(c) for c, q in calls(ctx)
            if (q.startswith(("transformers.", "trl.")) and q.endswith("Trainer")) or call_last(c) in local}


def _trainer_given(ctx: FileContext, name: str, scope: Scope, after: int) -> Optional[ast.Call]:
    """The first transformers/trl ``...Trainer(model=name)`` (or ``name`` first) in ``scope`` after
    line ``after``."""
    trainers = _hf_trainers(ctx)
    for call in ctx.nodes(ast.Call):
        if id(call) not in trainers or ctx.enclosing_function(call) is not scope or call.lineno <= after:
            continue
        model = kwarg(call, "model")
        if model is None and call.args:
            model = call.args[0]
        if model is not None and target_text(model) == name and not rebound(ctx, name, scope, after, call.lineno):
            return call
    return None


@register
class PreparedModelIntoTrainer(PlanRule):
    code = "PF539"
    name = "prepared-model-into-trainer"
    severity = Severity.WARNING
    category = Category.DISTRIBUTED
    frameworks = ("accelerate", "transformers")
    summary = "The model `accelerator.prepare` wrapped in DDP is handed to the HF Trainer, which prepares its own"
    explanation = """
## What it finds

`model = accelerator.prepare(model)` (or the model among other prepared objects) and then
`Trainer(model=model, ...)` (any `...Trainer`) in the same function, in a job whose launch runs several
processes with plain DDP.

## Why it matters

The Hugging Face `Trainer` builds its own `Accelerator` and prepares the model itself. Under a
multi-process launch `accelerator.prepare` has already wrapped the model in `DistributedDataParallel`,
so the Trainer holds the wrapper, not the `PreTrainedModel`: `Trainer._save` finds no
`PreTrainedModel`, takes `self.model.state_dict()` of the wrapper and writes every key with a
`module.` prefix, which `from_pretrained` then cannot load ("Some weights of the model checkpoint were
not used" and a freshly initialized model; transformers issue 29792). The first `Accelerator` also
holds a second process group setup and state the Trainer does not know about.

## How to fix it

Do not prepare the model yourself: give the Trainer the plain model (it handles DDP, mixed precision
and device placement), and drop the extra `Accelerator`.

## When preflight stays silent

* One process, or the world size is unknown, or DeepSpeed/FSDP shards the job.
* The name is bound again (`model = accelerator.unwrap_model(model)`) before the Trainer gets it.
* The trainer is not one of transformers or trl (nor a class of the file derived from `Trainer`): a
  project's own accelerate-based `...Trainer` takes the prepared model on purpose.
"""
    bad_examples = examples("preflight.rules.plan._pf539_examples", "PF539_BAD")
    good_examples = examples("preflight.rules.plan._pf539_examples", "PF539_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        world = ddp_world(pctx.plan)
        if world is None:
            return
        for script in pctx.scripts:
            text = script.source.text
            if "Trainer" not in text or names_another_wrapper(text):
                continue
            ctx = pctx.file_context(script)
            for name, binding, scope in prepared(ctx):
                trainer = _trainer_given(ctx, name, scope, binding.lineno)
                if trainer is None:
                    continue
                evidence = [pctx.code_evidence(script, binding, "the model is wrapped here")]
                ev = pctx.fact_evidence(world, f"{world.value} processes")
                if ev is not None:
                    evidence.append(ev)
                yield pctx.code_finding(
                    self, script, trainer,
                    f"`{call_last(trainer)}` gets `{name}`, which `accelerator.prepare` wrapped in "
                    f"DistributedDataParallel ({world.value} processes): the Trainer prepares the model itself, and "
                    "saving from the wrapper writes every weight under a `module.` prefix that `from_pretrained` "
                    "cannot load. Give the Trainer the plain model and drop the extra `accelerator.prepare`",
                    evidence=evidence)
