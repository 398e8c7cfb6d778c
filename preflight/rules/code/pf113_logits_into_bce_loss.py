"""PF113 logits-into-bce-loss: raw logits passed to BCELoss, which expects probabilities."""

from __future__ import annotations

from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.analysis.losses import BCE, LOGITS, loss_sites, site_evidence
from preflight.analysis.value_resolver import text
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples


@register
class LogitsIntoBceLoss(Rule):
    code = "PF113"
    name = "logits-into-bce-loss"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    summary = "Raw logits are passed to BCELoss, which expects probabilities in [0, 1]"
    frameworks = ("pytorch", "lightning", "accelerate", "transformers")
    explanation = """
## What it finds

`nn.BCELoss` / `F.binary_cross_entropy` receives a value preflight can show to be
raw, unbounded logits: the output of an `nn.Linear` / `nn.Conv*` layer, of an
`nn.Sequential` or a local model whose `forward` returns one with no sigmoid on
that value's path, or the `.logits` of a pretrained Hugging Face model.

## Why it matters

`BCELoss` takes probabilities. Any input outside [0, 1] makes it raise
`RuntimeError: all elements of input should be between 0 and 1` (a device-side
assert on CUDA), usually in the first step after the job has queued and loaded;
values that happen to stay inside the range give a meaningless loss.

## How to fix it

Use `nn.BCEWithLogitsLoss` / `F.binary_cross_entropy_with_logits` on the logits
(it fuses the sigmoid and is numerically stable, and safe under autocast), or
apply `torch.sigmoid` before `BCELoss`.

## When preflight stays silent

* Any sigmoid (or clamp) on the value's own path, however it is reached. A
  sigmoid elsewhere in the file (a gate in another module) does not count either
  way: the check follows the value, not the file.
* The model comes from code preflight cannot see, or its `forward` returns
  different things on different paths.
* `sigmoid` followed by `BCELoss` is correct and stays silent. `BCEWithLogitsLoss`
  is more stable, but `BCELoss` clamps its log terms at -100, so the pairing
  trains fine in fp32; it is not reported.
"""
    bad_examples = examples("preflight.rules.code._pf112_examples", "PF113_BAD")
    good_examples = examples("preflight.rules.code._pf112_examples", "PF113_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for site in loss_sites(ctx):
            act = site.act
            if act is None or act.kind != LOGITS or site.kind != BCE:
                continue
            message = (f"`{text(site.input)}` holds raw, unbounded logits, but {site.loss} "
                       "expects probabilities in [0, 1]: it raises `RuntimeError: all elements "
                       "of input should be between 0 and 1` (a device-side assert on CUDA) as "
                       "soon as a logit leaves that range. Use `BCEWithLogitsLoss` / "
                       "`binary_cross_entropy_with_logits` on the logits, or apply "
                       "`torch.sigmoid` first")
            yield ctx.finding(self, site.call, message, evidence=site_evidence(ctx, site))
