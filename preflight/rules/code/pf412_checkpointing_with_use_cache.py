"""PF412 checkpointing-with-use-cache: gradient checkpointing on a model told to keep its KV cache."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, is_from, kwarg, literal
from preflight.rules.base import Rule, examples

_ARGS = ("TrainingArguments", "Seq2SeqTrainingArguments", "SFTConfig", "DPOConfig", "GRPOConfig")


@register
class CheckpointingWithUseCache(Rule):
    code = "PF412"
    needs_text = ('checkpointing',)
    name = "checkpointing-with-use-cache"
    severity = Severity.NOTE
    category = Category.MEMORY
    frameworks = ("transformers",)
    summary = "Gradient checkpointing is enabled on a model loaded or configured with `use_cache=True`"
    explanation = """
## What it finds

A script that turns gradient checkpointing on
(`model.gradient_checkpointing_enable()`, or `gradient_checkpointing=True` /
`activation_checkpointing=True` in `TrainingArguments`/`SFTConfig`) and also asks
the model to keep its key/value cache: `from_pretrained(..., use_cache=True)` or
`model.config.use_cache = True`.

## Why it matters

A KV cache is for generation; during training it only holds memory, and it does
not work with checkpointed layers that re-run their forward. Transformers' own
models detect the combination, log "`use_cache=True` is incompatible with
gradient checkpointing. Setting `use_cache=False`" and switch the cache off, so
the setting does nothing but confuse; models loaded with `trust_remote_code`
may not switch it off and keep the cache in memory for every step.

## How to fix it

Load the model with `use_cache=False` for training (set it back to True before
`generate`).

## When preflight stays silent

* `use_cache=False`, or no explicit `use_cache` (the model's default).
* `model.config.use_cache = True` set after the last training call (`trainer.train()`,
  `.fit(...)`, a backward): the cache is restored for generation.
* Gradient checkpointing not known to be on.
"""
    bad_examples = examples("preflight.rules.code._pf41x_examples", "PF412_BAD")
    good_examples = examples("preflight.rules.code._pf41x_examples", "PF412_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        ckpt = self._checkpointing(ctx)
        if ckpt is None:
            return
        last_training = self._last_training_line(ctx)
        for node in self._use_cache(ctx):
            if last_training is not None and isinstance(node, ast.Assign) and node.lineno > last_training:
                continue  # the cache is switched back on after training (for generation): fine
            message = (
                "`use_cache=True` on a model trained with gradient checkpointing: the KV cache is for "
                "generation and cannot work with re-run (checkpointed) layers; transformers switches it "
                "off with a warning, and remote-code models may keep it in memory. Load with "
                "`use_cache=False` for training")
            yield ctx.finding(self, node, message, evidence=[
                ctx.evidence(ckpt, "gradient checkpointing is enabled here"),
                ctx.evidence(node, "the KV cache is requested here")])

    @staticmethod
    def _last_training_line(ctx: FileContext) -> Optional[int]:
        """The last line that trains: `trainer.train()`, `.fit(...)`, a `.backward()`."""
        lines = []
        for call in ctx.nodes(ast.Call):
            func = call.func
            if not isinstance(func, ast.Attribute):
                continue
            if func.attr in ("fit", "backward") or (
                    func.attr == "train" and "trainer" in ast.unparse(func.value).lower()):
                lines.append(getattr(call, "end_lineno", None) or call.lineno)
        return max(lines) if lines else None

    @staticmethod
    def _checkpointing(ctx: FileContext) -> Optional[ast.AST]:
        for call, qual in calls(ctx):
            func = call.func
            if isinstance(func, ast.Attribute) and func.attr in ("gradient_checkpointing_enable",
                                                                 "activation_checkpointing_enable"):
                return call
            if qual.rsplit(".", 1)[-1] in _ARGS and any(  # the last name first: most calls are not
                    is_from(qual, pkg, name) for pkg in ("transformers", "trl") for name in _ARGS):
                for key in ("gradient_checkpointing", "activation_checkpointing"):
                    if literal(ctx, kwarg(call, key)) is True:
                        return kwarg(call, key)
        return None

    @staticmethod
    def _use_cache(ctx: FileContext) -> list[ast.AST]:
        out: list[ast.AST] = []
        for call in ctx.nodes(ast.Call):
            if isinstance(call.func, ast.Attribute) and call.func.attr == "from_pretrained":
                value = kwarg(call, "use_cache")
                if value is not None and literal(ctx, value) is True:
                    out.append(value)
        for assign in ctx.nodes(ast.Assign):
            if any(isinstance(t, ast.Attribute) and t.attr == "use_cache" and ast.unparse(t).endswith(
                    "config.use_cache") for t in assign.targets) and literal(ctx, assign.value) is True:
                out.append(assign)
        return out
