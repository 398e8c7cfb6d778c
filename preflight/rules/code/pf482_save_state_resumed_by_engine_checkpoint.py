"""PF482 save-state-resumed-by-engine-checkpoint: a run that saves with ``accelerator.save_state`` but
resumes with the DeepSpeed engine's ``load_checkpoint``: the client scheduler (and the RNG states) saved
by ``save_state`` are never restored."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import accelerator_calls, calls, target_text
from preflight.rules.base import Rule, examples
from preflight.rules.code._scheduler_steps import is_scheduler


@register
class SaveStateResumedByEngineCheckpoint(Rule):
    code = "PF482"
    needs_text = ("save_state",)
    name = "save-state-resumed-by-engine-checkpoint"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate", "deepspeed")
    summary = ("Checkpoints written by `accelerator.save_state` are resumed with the engine's `load_checkpoint`: "
               "the prepared LR scheduler's state is never restored")
    explanation = """
## What it finds

In one file: `accelerator.save_state(...)`, no `accelerator.load_state(...)`, and a
`load_checkpoint(...)` call on a model returned by `accelerator.prepare(...)` (the
DeepSpeed engine under an Accelerate DeepSpeed config), where a torch or transformers
LR scheduler was also passed to `prepare`.

## Why it matters

Under DeepSpeed, `accelerator.save_state` writes the engine checkpoint and, beside it,
the prepared client scheduler (`scheduler.bin`), the sampler and the RNG states. The
engine's `load_checkpoint` restores only what the engine owns (model, optimizer, and a
scheduler given to DeepSpeed itself): the scheduler Accelerate wrapped is not its, so the
resumed run restarts the warm-up and decay (accelerate issue 1673: "I was actually using
save_state but not load_state"; maintainer: "You can directly use accelerator.save_state
and accelerator.load_state now with DeepSpeed").

## How to fix it

Resume with `accelerator.load_state(path)`, the counterpart of `save_state`.

## When preflight stays silent

* The file calls `accelerator.load_state`, or loads the scheduler's state itself
  (`lr_scheduler.load_state_dict`).
* No scheduler is passed to `prepare` (the engine checkpoint then holds everything that
  is stepped), or the checkpoint is loaded on something `prepare` did not return.
"""
    bad_examples = examples("preflight.rules.code._pf482_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf482_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        saves = accelerator_calls(ctx, "save_state")
        if not saves or accelerator_calls(ctx, "load_state"):
            return
        schedulers = {target_text(ctx.parent(c).targets[0]) for c, q in calls(ctx)  # type: ignore[union-attr]
                      if is_scheduler(q) and isinstance(ctx.parent(c), ast.Assign)}
        schedulers.discard(None)
        prepared: set[str] = set()
        prepared_scheduler = None
        for call in accelerator_calls(ctx, "prepare"):
            parent = ctx.parent(call)
            if not isinstance(parent, ast.Assign) or len(parent.targets) != 1:
                continue
            target = parent.targets[0]
            elts = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
            for tgt, arg in zip(elts, call.args):
                text = target_text(tgt)
                if text and text == target_text(arg):
                    prepared.add(text)
                    if text in schedulers:
                        prepared_scheduler = text
        if prepared_scheduler is None:
            return
        for call in ctx.nodes(ast.Call):
            func = call.func
            if not isinstance(func, ast.Attribute):
                continue
            if func.attr == "load_state_dict" and target_text(func.value) == prepared_scheduler:
                return
        for call in ctx.nodes(ast.Call):
            func = call.func
            if isinstance(func, ast.Attribute) and func.attr == "load_checkpoint" \
                    and target_text(func.value) in prepared and target_text(func.value) != prepared_scheduler:
                yield ctx.finding(
                    self, call,
                    f"the run saves with `accelerator.save_state` but resumes with the engine's "
                    f"`{ast.unparse(func)}`: DeepSpeed restores only what the engine owns, not the scheduler "
                    f"`{prepared_scheduler}` that Accelerate saved beside it, so the resumed run restarts the "
                    "learning-rate schedule. Resume with `accelerator.load_state(path)`",
                    evidence=[ctx.evidence(saves[0], "the checkpoint is written by save_state here")])
