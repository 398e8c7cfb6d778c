"""PF112 activation-before-logits-loss: softmax/sigmoid output fed to a loss that expects logits."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.analysis.losses import (
    BCE_LOGITS,
    CE,
    NLL,
    SIGMOID,
    SOFTMAX,
    eval_mode_sites,
    loss_sites,
    site_evidence,
)
from preflight.analysis.scopes import scope_index
from preflight.analysis.value_resolver import text
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_WHY = {
    (SOFTMAX, CE): ("it applies log_softmax itself, so it computes log(softmax(softmax(z))): the "
                    "probabilities it sees are squeezed into a narrow band, the loss cannot get "
                    "near zero and gradients shrink, so training stalls or converges worse"),
    (SIGMOID, CE): ("it applies log_softmax itself to values that all lie in (0, 1), so no "
                    "class can ever get a confident probability and gradients are squashed"),
    (SIGMOID, BCE_LOGITS): ("it applies a sigmoid itself, so it sees sigmoid(sigmoid(z)), which "
                            "always lies in (0.5, 0.73): the loss cannot approach zero and the "
                            "gradients are tiny and biased"),
    (SOFTMAX, NLL): ("it expects log-probabilities (log_softmax output) and returns -input[y], so "
                     "on probabilities the loss is -p(y), bounded in (-1, 0): it never measures how "
                     "wrong a confident prediction is, and the gradient (-1 per sample) is blind to "
                     "the predicted probability, so training converges slowly or not at all"),
    (SOFTMAX, BCE_LOGITS): ("it applies a sigmoid itself, so it sees sigmoid(softmax(z)), which "
                            "always lies in (0.5, 0.73): the loss cannot approach zero"),
}


def _gathers_probabilities(ctx: FileContext, call: ast.Call) -> bool:
    """``-F.nll_loss(F.softmax(z), y, reduction="none")``: nll_loss used as a gather of the
    target's probability (negated, or per element), not as a training loss."""
    if any(k.arg == "reduction" and isinstance(k.value, ast.Constant) and k.value.value == "none"
           for k in call.keywords):
        return True
    parent = ctx.parent(call)
    if isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.USub):
        return True
    return isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Mult) and any(
        isinstance(side, ast.UnaryOp) and isinstance(side.op, ast.USub) for side in (parent.left, parent.right))


@register
class ActivationBeforeLogitsLoss(Rule):
    code = "PF112"
    name = "activation-before-logits-loss"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    summary = "A softmax or sigmoid output is passed to a loss that expects raw logits"
    frameworks = ("pytorch", "lightning", "accelerate", "transformers")
    explanation = """
## What it finds

A value that already went through `softmax` or `sigmoid` is passed to a loss that
applies that activation itself, or `softmax` probabilities are passed to
`F.nll_loss` / `nn.NLLLoss`, which expects log-probabilities (`log_softmax`): `F.cross_entropy` / `nn.CrossEntropyLoss` (which
applies `log_softmax`) or `F.binary_cross_entropy_with_logits` /
`nn.BCEWithLogitsLoss` (which applies `sigmoid`). The activation is found inline
(`F.softmax(x)`, `x.sigmoid()`), through names, as an `nn.Softmax` /
`nn.Sigmoid` layer, as the last layer of an `nn.Sequential`, and in the value a
model's `forward` (or a helper or method it calls) returns. A model built as
`Net(...).cuda()` / `.to(device)` / `.train()` is still `Net`: `nn.Module.cuda`, `to`,
`float`, `train` and their kin return the module itself (`return self` in
torch/nn/modules/module.py). The model may live in another file of the
project: a class imported with `from models import Net` (one level, bounded), or, for a
training function whose `model` parameter the file never fills, the one top-level
`nn.Module` class (used as a layer by no other class) of the `.py` files beside it.

## Why it matters

The activation runs twice. Cross-entropy on softmax probabilities computes
`log(softmax(p))` with every `p` in (0, 1): the loss cannot approach zero,
gradients shrink and training stalls or ends at a worse model. With
`BCEWithLogitsLoss`, `sigmoid(sigmoid(z))` always lies in (0.5, 0.73). Nothing
crashes; the numbers are just wrong. Where the loss runs with gradients off
(`torch.no_grad()`, Lightning `validation_step`), only the reported loss is wrong,
so the finding is a warning there.

A model whose `forward` applies softmax only in eval mode gives a correct training loss
but a validation loss computed on probabilities: the reported validation loss is squashed
and stops tracking the training loss, and a best checkpoint chosen on it is chosen on a
meaningless number.

## How to fix it

Pass the logits (the value before the activation) to the loss, and apply
`softmax` / `sigmoid` only where probabilities are needed (metrics, inference).
If `forward` returns probabilities, return logits from it and apply the
activation at prediction time.

## When preflight stays silent

* The value is a softmax only on some paths (a softmax under an `if`): every
  path must agree. The one exception is a `forward` that applies its activation
  only when `self.training` is False (`if not self.training: x = self.final_activation(x)`,
  or `if self.training: return logits`): its output counts as probabilities where
  the model is called after `model.eval()` in the same function (no `model.train()`
  between; the model's class may be imported from a module of the project, as above), or as
  `self(x)` in a Lightning `validation_step`/`test_step`
  (wolny/pytorch-3dunet issue 45: "the sigmoid (or softmax) was being applied twice when
  computing the loss in the validation phase"). Everywhere else (the training loss, a
  model put in eval mode by a caller) it stays silent.
* The name was re-bound to logits before the loss call (per value, not per name).
* The model or value comes from code it cannot see, or the folder beside a training
  function holds more than one top-level model class (or more than 17 `.py` files).
* `log_softmax` into cross-entropy is numerically harmless (see PF114), and
  `sigmoid` into `BCELoss` is that loss's intended input.
* `nll_loss` used to pick the target's probability rather than as a loss:
  negated (`-F.nll_loss(F.softmax(z), y)`) or with `reduction="none"`.
"""
    bad_examples = examples("preflight.rules.code._pf112_examples", "PF112_BAD")
    good_examples = examples("preflight.rules.code._pf112_examples", "PF112_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        eval_mode = {id(site.call) for site in eval_mode_sites(ctx)}
        for site in [*loss_sites(ctx), *eval_mode_sites(ctx)]:
            act = site.act
            if act is None or (act.kind, site.kind) not in _WHY:
                continue
            if site.kind == NLL and _gathers_probabilities(ctx, site.call):
                continue
            if site.kind == NLL:
                message = (f"`{text(site.input)}` holds softmax output, but {site.loss} is a "
                           f"negative log-likelihood loss: {_WHY[(act.kind, site.kind)]}. Fix: "
                           f"use `log_softmax` instead of `softmax` (or pass the logits to "
                           f"`cross_entropy`)")
            else:
                loss_name = "cross-entropy" if site.kind == CE else "BCE-with-logits"
                fix_hint = ("pass the logits and use softmax only for predictions" if site.kind == CE
                            else "pass the logits and use sigmoid only for predictions")
                held = f"holds {act.kind} output"
                if id(site.call) in eval_mode:  # only eval-mode sites reach here for these calls
                    held = (f"is the output of a model in eval mode, whose `forward` applies {act.kind} only "
                            f"when `self.training` is False")
                message = (f"`{text(site.input)}` {held}, but {site.loss} is a "
                           f"{loss_name} loss that expects raw logits: "
                           f"{_WHY[(act.kind, site.kind)]}. Fix: {fix_hint}")
            severity = None
            scopes = scope_index(ctx)
            if not scopes.grad_enabled(site.call):
                severity = Severity.WARNING
                message += (". Here gradients are off (evaluation), so only the reported loss is "
                            "wrong, not the training")
            yield ctx.finding(self, site.call, message, evidence=site_evidence(ctx, site),
                              severity=severity)
