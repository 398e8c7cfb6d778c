"""PF495 run-checkpoint-loaded-as-weights: a Trainer checkpoint of this run's output_dir is loaded with
``from_pretrained`` and training restarts without ``resume_from_checkpoint``."""

from __future__ import annotations

import ast
import posixpath
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import has_unpacking, kwarg
from preflight.rules._pf414_support import call_last, const_str
from preflight.rules._pf484_support import model_loads
from preflight.rules.base import Rule, examples
from preflight.rules.code._trainer_columns import TRAINING_ARGUMENTS, value_of

_CHECKPOINT = re.compile(r"^(?P<parent>.*?)/?checkpoint-\d+/?$")


def _norm(path: str) -> str:
    return posixpath.normpath(path or ".")


def _run_checkpoint(call: ast.Call) -> Optional[str]:
    """The output directory of a literal ``.../checkpoint-<step>`` path loaded by the call."""
    path = const_str(call.args[0]) if call.args else const_str(kwarg(call, "pretrained_model_name_or_path"))
    match = _CHECKPOINT.match(path or "")
    return _norm(match.group("parent")) if match else None


@register
class RunCheckpointLoadedAsWeights(Rule):
    code = "PF495"
    name = "run-checkpoint-loaded-as-weights"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    needs_text = ("checkpoint-",)
    summary = "a checkpoint of this run is loaded as weights and trainer.train() starts over without resume_from_checkpoint"
    explanation = """
## What it finds

A script that loads its model from a Trainer checkpoint directory of its own output
directory (`X.from_pretrained("results/checkpoint-9500")` with
`TrainingArguments(output_dir="./results")`) and calls `trainer.train()` without
`resume_from_checkpoint`.

## Why it matters

`from_pretrained` restores the weights only. `Trainer.train()` without
`resume_from_checkpoint` starts a new run at global step 0: a fresh optimizer (no Adam
moments), the learning-rate schedule from its warmup again, the epoch count from zero,
and the data order from the start (transformers `trainer.py`: the optimizer, scheduler,
`trainer_state.json` and RNG states are loaded only by `_load_from_checkpoint` /
`_load_optimizer_and_scheduler` when `resume_from_checkpoint` is given;
transformers#7198). The "continued" run trains the full schedule again on top of
partly trained weights, and its checkpoints overwrite the numbering of the first.

## How to fix it

Load the base model and call `trainer.train(resume_from_checkpoint="results/checkpoint-9500")`
(or `resume_from_checkpoint=True` for the last checkpoint of `output_dir`).

## When preflight stays silent

* `train()` is given `resume_from_checkpoint` or `**kwargs`.
* The checkpoint lies outside the run's `output_dir` (a new stage that starts from an
  earlier run's weights on purpose), or either path is not a literal.
"""
    bad_examples = examples("preflight.rules.code._pf495_examples", "PF495_BAD")
    good_examples = examples("preflight.rules.code._pf495_examples", "PF495_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        loads = [(c, d) for c in model_loads(ctx) if (d := _run_checkpoint(c)) is not None]
        if not loads:
            return
        outputs: set[str] = set()
        for call in ctx.nodes(ast.Call):
            if call_last(call) in TRAINING_ARGUMENTS:
                out = kwarg(call, "output_dir")
                if out is None and call.args:
                    out = call.args[0]
                if const_str(out) is not None:
                    outputs.add(_norm(const_str(out) or ""))
        matching = [(c, d) for c, d in loads if d in outputs]
        if not matching:
            return
        load = matching[0][0]
        for call in ctx.nodes(ast.Call):
            if not (isinstance(call.func, ast.Attribute) and call.func.attr == "train") or has_unpacking(call):
                continue
            owner = value_of(ctx, call.func.value)
            if not (isinstance(owner, ast.Call) and call_last(owner).endswith("Trainer")):
                continue
            if call.args or kwarg(call, "resume_from_checkpoint") is not None:
                continue
            yield ctx.finding(
                self, call,
                "the model's weights come from a checkpoint of this run's own output_dir, but `train()` is called "
                "without `resume_from_checkpoint`: the Trainer starts over at step 0 with a fresh optimizer, the "
                "warmup and schedule from the start and the epochs counted again. Load the base model and pass "
                "`resume_from_checkpoint=` the checkpoint",
                evidence=[ctx.evidence(load, "weights only, from a Trainer checkpoint of this run")])
            return
