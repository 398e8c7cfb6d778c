"""PF310 deepspeed-kernel-dropout-in-eval: ``DeepSpeedTransformerLayer`` evaluated after ``eval()`` on a
pinned DeepSpeed before 0.8.0, where the kernel's dropout follows ``config.training``, not the module's
mode."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import examples
from preflight.sources import ParsedPython


def _positive(node: Optional[ast.AST]) -> bool:
    """A dropout ratio that may be above 0: anything but a literal 0."""
    return node is not None and not (isinstance(node, ast.Constant) and not node.value)


def _evaluates(tree: ast.AST) -> Optional[ast.Call]:
    """A ``x.eval()`` call (nn.Module.eval takes no argument)."""
    for call in ast.walk(tree):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "eval" \
                and not call.args and not call.keywords:
            return call
    return None


def _sets_training(tree: ast.AST) -> bool:
    """``config.training = ...`` (or ``layer.config.training = mode``) anywhere: the documented workaround."""
    return any(isinstance(node, ast.Attribute) and node.attr == "training" and isinstance(node.ctx, ast.Store)
               and not (isinstance(node.value, ast.Name) and node.value.id == "self")
               for node in ast.walk(tree))


@register
class DeepSpeedKernelDropoutInEval(PlanRule):
    code = "PF310"
    name = "deepspeed-kernel-dropout-in-eval"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = ("`DeepSpeedTransformerLayer` with dropout evaluated after `eval()` on DeepSpeed < 0.8: the "
               "kernel keeps applying dropout (it follows `config.training`)")
    explanation = """
## What it finds

A `DeepSpeedTransformerConfig(...)` with a dropout ratio that is not 0 (`attn_dropout_ratio`,
`hidden_dropout_ratio`) and `training` not set to False, used to build `DeepSpeedTransformerLayer`
modules, in a project that calls `.eval()` on a model and pins `deepspeed` to a release before
0.8.0, while nothing in the project assigns `config.training` (the workaround).

## Why it matters

Before DeepSpeed 0.8.0 the fused transformer kernel decided whether to apply its attention and
hidden dropout from `config.training`, fixed when the layer is built, and not from the module's
`self.training` flag that `train()`/`eval()` switch (DeepSpeed issue 1781, "nn.Module.train()
and eval() have NO effect on TransformerLayer's dropout"; fixed by PR 2604, "Pass training flag
to forward call from Eval", in 0.8.0: `forward` now sets `self.config.training =
self.training`). A validation pass after `model.eval()` still drops 10% of the attention
probabilities and hidden units: the metric that selects the checkpoint is computed on a noisy
model, and inference with the trained weights is wrong as well.

## How to fix it

Upgrade DeepSpeed to 0.8.0 or later, or keep the config in step with the mode:

```python
class Encoder(nn.Module):
    def train(self, mode=True):
        ds_config.training = mode
        return super().train(mode)
```

## When preflight stays silent

* DeepSpeed is not pinned, or pinned to 0.8.0 or later.
* The dropout ratios are literal 0, `training=False` is given, or the code assigns
  `<config>.training` anywhere.
* No `.eval()` call is seen.
"""
    bad_examples = examples("preflight.rules.plan._pf310_examples", "PF310_BAD")
    good_examples = examples("preflight.rules.plan._pf310_examples", "PF310_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        configs: list[tuple[ParsedPython, ast.Call]] = []
        for script in pctx.scripts:
            for call in ast.walk(script.tree):
                if not (isinstance(call, ast.Call) and call_last(call) == "DeepSpeedTransformerConfig"):
                    continue
                training = kwarg(call, "training")
                if isinstance(training, ast.Constant) and training.value is False:
                    continue
                if any(kw.arg is None for kw in call.keywords):
                    continue
                if _positive(kwarg(call, "attn_dropout_ratio")) or _positive(kwarg(call, "hidden_dropout_ratio")):
                    configs.append((script, call))
        if not configs:
            return
        if not any(call_last(c) == "DeepSpeedTransformerLayer" for s in pctx.scripts for c in ast.walk(s.tree)
                   if isinstance(c, ast.Call)):
            return
        if any(_sets_training(s.tree) for s in pctx.scripts):
            return
        evaluation = next(((s, e) for s in pctx.scripts for e in [_evaluates(s.tree)] if e is not None), None)
        if evaluation is None:
            return
        for script, call in configs:
            version = pctx.version("deepspeed", script)
            if version is None or version.how != "pinned" or version.at_least(0, 8):
                continue
            where, node = evaluation
            yield pctx.code_finding(self, script, call, (
                f"`DeepSpeedTransformerLayer`s built from this config apply their dropout whenever "
                f"`config.training` is True, and on {version.describe()} (before 0.8.0) `eval()` does not change "
                "it: the evaluation after `.eval()` still drops attention probabilities and hidden units, so "
                "validation metrics and checkpoint selection come from a noisy model (DeepSpeed issue 1781, "
                "fixed in 0.8.0). Upgrade, or set `config.training` from `train()`/`eval()`"),
                evidence=[pctx.code_evidence(where, node, "the model is switched to eval() here",
                                             same_file=where is script)])
