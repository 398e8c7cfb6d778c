"""PF636 frozen-pretrained-batchnorm-in-train-mode: every parameter of a pretrained BatchNorm
network is frozen with ``requires_grad``, and ``model.train()`` still updates its running statistics."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

# torchvision/timm families built with BatchNorm layers (ViT, Swin and ConvNeXt use LayerNorm)
_BN_FAMILIES = re.compile(r"^(resnet|resnext|wide_resnet|mobilenet|mnasnet|efficientnet|densenet|regnet|shufflenet|"
                          r"inception|googlenet|vgg\d+_bn|seresnet|senet|resnest|ecaresnet)", re.IGNORECASE)


def _false(node: Optional[ast.AST]) -> bool:
    return isinstance(node, ast.Constant) and node.value is False


def _backbone(ctx: FileContext, imports) -> dict[str, ast.Call]:
    """Names bound to a pretrained BatchNorm network: ``model = resnet50(weights=...)``,
    ``timm.create_model("resnet50", pretrained=True)``."""
    out: dict[str, ast.Call] = {}
    for assign in ctx.nodes(ast.Assign):
        call = assign.value
        if not (isinstance(call, ast.Call) and len(assign.targets) == 1 and isinstance(assign.targets[0], ast.Name)):
            continue
        qual = imports.qualify(call.func) or ""
        last = qual.rsplit(".", 1)[-1]
        if (qual.startswith("torchvision.models.") and _BN_FAMILIES.match(last)) or (qual == "timm.create_model" and call.args and isinstance(call.args[0], ast.Constant) \
                and isinstance(call.args[0].value, str) and _BN_FAMILIES.match(call.args[0].value)):
            out[assign.targets[0].id] = call
    return out


def _frozen_whole(ctx: FileContext, name: str) -> Optional[ast.AST]:
    """``for p in name.parameters(): p.requires_grad = False`` or ``name.requires_grad_(False)``."""
    for node in ctx.nodes(ast.For, ast.Expr):
        if isinstance(node, ast.For):
            it = node.iter
            if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "parameters" \
                    and isinstance(it.func.value, ast.Name) and it.func.value.id == name and any(
                        isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Attribute)
                        and s.targets[0].attr == "requires_grad" and _false(s.value) for s in node.body):
                return node
        elif isinstance(node.value, ast.Call):
            call = node.value
            if isinstance(call.func, ast.Attribute) and call.func.attr == "requires_grad_" \
                    and isinstance(call.func.value, ast.Name) and call.func.value.id == name \
                    and call.args and _false(call.args[0]):
                return node
    return None


@register
class FrozenPretrainedBatchNormInTrainMode(Rule):
    code = "PF636"
    needs_text = ("requires_grad", ".train(")
    name = "frozen-pretrained-batchnorm-in-train-mode"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "accelerate", "fabric")
    summary = ("A pretrained BatchNorm network is frozen with `requires_grad=False` and trained in `model.train()`: "
               "its BatchNorm running statistics still change")
    explanation = """
## What it finds

A pretrained torchvision/timm network built with BatchNorm layers (ResNet, MobileNet,
EfficientNet, DenseNet, ...) whose parameters are all frozen
(`for p in model.parameters(): p.requires_grad = False`, `model.requires_grad_(False)`),
a new part trained on top (a head), and `model.train()` called on the whole network
before the training forward, with nothing putting the frozen layers back in eval mode.

## Why it matters

`requires_grad=False` stops the optimizer, but BatchNorm's `running_mean`/`running_var`
are buffers that every forward in training mode overwrites with the current batch's
statistics. The "frozen" backbone drifts to the new data and batch size, so the head is
trained on shifting features and the saved backbone is not the pretrained one (pytorch
issue 86590: "after training, I end up with a model where all batchnorm params have
changed").

## How to fix it

Keep the frozen part in eval mode: `model.eval()` then `model.fc.train()` (only the head in
training mode), or `model.apply(set_bn_eval)` after `model.train()`.

## When preflight stays silent

* The file puts modules back in eval mode after `train()` (`model.apply(...)`,
  `model.backbone.eval()`, a loop over `model.modules()` that calls `eval()`).
* The network has no BatchNorm (ViT, Swin, ConvNeXt) or is not a known pretrained family.
* Only part of the network is frozen (fine-tuning the rest updates its statistics on purpose).
"""
    bad_examples = examples("preflight.rules.code._pf636_examples", "PF636_BAD")
    good_examples = examples("preflight.rules.code._pf636_examples", "PF636_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        imports = scope_index(ctx).imports
        nets = _backbone(ctx, imports)
        if not nets:
            return
        calls = ctx.nodes(ast.Call)
        if not any(isinstance(c.func, ast.Attribute) and c.func.attr == "backward" for c in calls):
            return
        for name, built in nets.items():
            frozen = _frozen_whole(ctx, name)
            if frozen is None:
                continue
            trains = [c for c in calls if isinstance(c.func, ast.Attribute) and c.func.attr == "train"
                      and isinstance(c.func.value, ast.Name) and c.func.value.id == name
                      and not (c.args and _false(c.args[0]))]
            if not trains:
                continue
            if any(isinstance(c.func, ast.Attribute) and (
                    (c.func.attr == "apply" and isinstance(c.func.value, ast.Name) and c.func.value.id == name)
                    or (c.func.attr == "eval" and not (isinstance(c.func.value, ast.Name)
                                                       and c.func.value.id == name))
                    or (c.func.attr == "train" and isinstance(c.func.value, ast.Attribute))) for c in calls):
                continue  # modes set per part, or the BatchNorm layers put back in eval
            yield ctx.finding(
                self, trains[0],
                f"`{ast.unparse(trains[0])}` puts the pretrained `{name}`, whose parameters are all frozen with "
                "`requires_grad`, in training mode: its BatchNorm layers still overwrite their running "
                "mean/variance with every batch's statistics, so the \"frozen\" backbone drifts to the new data. "
                f"Keep the frozen part in eval mode (`{name}.eval()` and only the trained head in `train()`)",
                evidence=[ctx.evidence(built, f"`{name}` is a pretrained network with BatchNorm layers"),
                          ctx.evidence(frozen, "every parameter is frozen here, the running statistics are not")])
