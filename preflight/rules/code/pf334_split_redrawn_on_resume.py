"""PF334 split-redrawn-on-resume: an unseeded ``random_split`` in a script that resumes training from a
checkpoint: every restart draws a new train/validation split."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

# calls that fix the global torch generator a generator-less random_split draws from
_SEEDERS = frozenset({"manual_seed", "seed_everything", "set_seed", "seed_all", "manual_seed_all",
                      "enable_full_determinism", "set_random_seed", "setup_seed", "seed_torch", "fix_seed"})


def _resume(ctx: FileContext) -> Optional[ast.Call]:
    """A restore of training state: ``<optimizer>.load_state_dict(...)``, ``fit(..., ckpt_path=...)``,
    ``train(resume_from_checkpoint=...)`` or ``accelerator.load_state(...)``."""
    for call in ctx.nodes(ast.Call):
        func = call.func
        if not isinstance(func, ast.Attribute):
            continue
        owner = ast.unparse(func.value).lower()
        if func.attr == "load_state_dict" and "optim" in owner:
            return call
        if func.attr == "load_state" and "accelerat" in owner:
            return call
        if func.attr in ("fit", "train") and any(
                kw.arg in ("ckpt_path", "resume_from_checkpoint") and not (
                    isinstance(kw.value, ast.Constant) and kw.value.value in (None, False)) for kw in call.keywords):
            return call
    return None


def _seeded(ctx: FileContext) -> bool:
    """A seeding call anywhere in the file (its own or a helper named for it)."""
    for call in ctx.nodes(ast.Call):
        name = call_last(call)
        if name in _SEEDERS or ("seed" in name.lower() and not name.lower().startswith("get")):
            return True
    return False


def _generator(call: ast.Call) -> Optional[ast.expr]:
    gen = next((kw.value for kw in call.keywords if kw.arg == "generator"), None)
    return gen if gen is not None or len(call.args) < 3 else call.args[2]


@register
class SplitRedrawnOnResume(Rule):
    code = "PF334"
    needs_text = ("random_split",)
    name = "split-redrawn-on-resume"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "lightning", "accelerate", "fabric")
    summary = ("`random_split` without a seeded generator in a script that resumes training from a "
               "checkpoint: each restart draws a different train/validation split")
    explanation = """
## What it finds

`random_split(dataset, lengths)` with no `generator=` in a file that seeds nothing
(`torch.manual_seed`, `seed_everything`, `set_seed`, a project `seed_*` helper) and that
resumes training from a checkpoint (it loads an optimizer's state, passes `ckpt_path=` to
`fit`, `resume_from_checkpoint=` to `train`, or calls `accelerator.load_state`).

## Why it matters

Without a generator, `random_split` draws from the global torch generator, which starts from a
fresh random seed in every process. A resumed run restores the weights and carries on training,
but on a different split: samples it already trained on are now in the validation set, so the
validation loss, early stopping and the best checkpoint are measured on training data (TorchANI
issue 443: "Split of dataset is not stored in the example training script", "data pollution"
after a restart; the fix stored the split).

## How to fix it

Draw the split from a fixed generator, `random_split(ds, lengths,
generator=torch.Generator().manual_seed(42))`, or save the indices with the checkpoint and reuse
them on resume.

## When preflight stays silent

* The split is given a `generator` (or the file seeds the global generator anywhere).
* The file never resumes training state (loading weights only, for fine-tuning or evaluation).
"""
    bad_examples = examples("preflight.rules.code._pf334_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf334_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        splits = [c for c in ctx.nodes(ast.Call) if call_last(c) == "random_split" and _generator(c) is None]
        if not splits:
            return
        resume = _resume(ctx)
        if resume is None or _seeded(ctx):
            return
        for call in splits:
            yield ctx.finding(
                self, call,
                "`random_split` draws from the unseeded global generator, and this script resumes training "
                f"(line {resume.lineno}): every restart draws a different train/validation split, so after a "
                "resume the validation set holds samples the model already trained on and the validation "
                "metrics (early stopping, the best checkpoint) are measured on training data. Pass "
                "`generator=torch.Generator().manual_seed(<seed>)` or save the split with the checkpoint",
                evidence=[ctx.evidence(resume, "the run resumes its training state here")])
