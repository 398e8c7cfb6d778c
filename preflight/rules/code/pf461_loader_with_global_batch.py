"""PF461 loader-with-global-batch: a per-rank DataLoader sized by DeepSpeed's global ``train_batch_size``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg, target_text
from preflight.rules._pf414_support import assigned_names, call_last
from preflight.rules.base import Rule, examples

_KEY = "train_batch_size"
_EVAL_WORDS = ("val", "eval", "test", "dev", "infer", "predict")


def _config_names(ctx: FileContext) -> tuple[set[str], set[str]]:
    """The DeepSpeed engines of the file and the dicts given to ``deepspeed.initialize`` as its config."""
    engines: set[str] = set()
    configs: set[str] = set()
    for call in ctx.nodes(ast.Call):
        if not (call_last(call) == "initialize" and isinstance(call.func, ast.Attribute)
                and target_text(call.func.value) == "deepspeed"):
            continue
        names = assigned_names(ctx, call)
        if names:
            engines.add(names[0])
        for arg in ("config", "config_params"):
            given = kwarg(call, arg)
            text = target_text(given) if given is not None else None
            if text:
                configs.add(text)
    return engines, configs


def _looks_deepspeed(text: str) -> bool:
    last = text.rsplit(".", 1)[-1].lower()
    return last.startswith("ds_") or (last.startswith("ds") and "config" in last) or "deepspeed" in last


def _global_batch(expr: Optional[ast.AST], engines: set[str], configs: set[str]) -> Optional[str]:
    """``ds_config["train_batch_size"]``, ``ds_config.get("train_batch_size")`` or
    ``engine.train_batch_size()``: the spelling, or None."""
    if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant) and expr.slice.value == _KEY:
        owner = target_text(expr.value)
    elif isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "get" \
            and expr.args and isinstance(expr.args[0], ast.Constant) and expr.args[0].value == _KEY:
        owner = target_text(expr.func.value)
    elif isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == _KEY \
            and not expr.args:
        owner = target_text(expr.func.value)
        return ast.unparse(expr) if owner in engines else None
    else:
        return None
    if owner and (owner in configs or _looks_deepspeed(owner)):
        return ast.unparse(expr)
    return None


@register
class LoaderWithGlobalBatch(Rule):
    code = "PF461"
    needs_text = ("train_batch_size",)
    name = "loader-with-global-batch"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = "A DataLoader is given DeepSpeed's global `train_batch_size` as its per-rank batch size"
    explanation = """
## What it finds

In a file that uses DeepSpeed, a training `DataLoader(..., batch_size=X)` where `X`
is the DeepSpeed config's `train_batch_size` (`ds_config["train_batch_size"]`,
`.get("train_batch_size")` of a dict named like a DeepSpeed config or given to
`deepspeed.initialize(config=...)`) or `engine.train_batch_size()`.

## Why it matters

DeepSpeed's `train_batch_size` is the *global* batch: micro-batch x accumulation
steps x ranks. Each iteration of the loop, on each rank, must carry
`train_micro_batch_size_per_gpu` samples. A loader built with the global batch
feeds every rank world-size x accumulation times the samples the config declares:
activation memory and the real batch grow by that factor, epochs take fewer steps,
and the learning-rate schedule no longer matches (DeepSpeed issue 131: "The answer
to your question is train_micro_batch_size_per_gpu, i.e. number of data samples
in each GPU for each loop iteration").

## How to fix it

`batch_size=ds_config["train_micro_batch_size_per_gpu"]` or
`engine.train_micro_batch_size_per_gpu()`; or let DeepSpeed build the loader
(`deepspeed.initialize(..., training_data=dataset)`).

## When preflight stays silent

* The value is computed (`ds_config["train_batch_size"] // world_size`).
* The loader is an evaluation loader (its name says val/eval/test/dev): a larger
  evaluation batch changes memory, not training.
* The dict is not a DeepSpeed config (its name does not say so and it is not given to
  `deepspeed.initialize`), or the file does not use DeepSpeed.
"""
    bad_examples = examples("preflight.rules.code._pf461_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf461_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if not ctx.mentions("deepspeed"):
            return
        engines, configs = _config_names(ctx)
        for call in ctx.nodes(ast.Call):
            if call_last(call) != "DataLoader":
                continue
            value = kwarg(call, "batch_size")
            if value is None and len(call.args) > 1:
                value = call.args[1]
            spelled = _global_batch(value, engines, configs)
            if spelled is None or value is None:
                continue
            names = assigned_names(ctx, call)
            if any(w in n.lower() for n in names for w in _EVAL_WORDS):
                continue
            yield ctx.finding(
                self, value,
                f"`{spelled}` is DeepSpeed's global batch (micro-batch x accumulation steps x ranks), but a "
                "DataLoader's batch_size is what one rank draws per iteration: every rank gets the whole "
                "global batch each micro-step, multiplying the real batch and activation memory by the world "
                "size times the accumulation steps. Use `train_micro_batch_size_per_gpu` "
                "(`engine.train_micro_batch_size_per_gpu()`)")
