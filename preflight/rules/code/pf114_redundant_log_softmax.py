"""PF114 redundant-log-softmax: log_softmax before cross-entropy (harmless, redundant work)."""

from __future__ import annotations

from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.analysis.losses import CE, LOG_SOFTMAX, loss_sites, site_evidence
from preflight.analysis.value_resolver import text
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples


@register
class RedundantLogSoftmax(Rule):
    code = "PF114"
    name = "redundant-log-softmax"
    severity = Severity.NOTE
    category = Category.PERFORMANCE
    summary = "log_softmax output is passed to cross-entropy, which applies log_softmax again"
    frameworks = ("pytorch", "lightning", "accelerate", "transformers")
    explanation = """
## What it finds

`F.log_softmax(...)` output (inline, through names, an `nn.LogSoftmax` layer,
the last layer of an `nn.Sequential`, or what a `forward` returns) passed to
`F.cross_entropy` / `nn.CrossEntropyLoss`.

## Why it matters

Not much, and that is why this is a note. `log_softmax` is idempotent over the
same dimension: `log_softmax(log_softmax(z)) == log_softmax(z)`, so the loss and
its gradients are the same (our study of another linter's false positives measured
this with torch 2.13: loss difference 0.0, largest gradient difference 7e-9). The
second `log_softmax` is
redundant work over the whole logits tensor, which for a large vocabulary is a
measurable share of the step. (Another linter reports this as an error with a
fix; it is not a convergence bug.)

## How to fix it

Either pass the logits to `cross_entropy`, or keep `log_softmax` and use
`F.nll_loss` / `nn.NLLLoss`, which is what `cross_entropy` computes after its own
`log_softmax`. If the `log_softmax` runs over a different dimension than the
class dimension (1), the two are not equivalent; check which one you meant.

## When preflight stays silent

* `log_softmax` into `nll_loss` / `kl_div` (the intended pairings).
* A value that is `log_softmax` output only on some paths.
"""
    bad_examples = examples("preflight.rules.code._pf112_examples", "PF114_BAD")
    good_examples = examples("preflight.rules.code._pf112_examples", "PF114_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for site in loss_sites(ctx):
            act = site.act
            if act is None or act.kind != LOG_SOFTMAX or site.kind != CE:
                continue
            message = (f"`{text(site.input)}` is already log_softmax output and {site.loss} "
                       "applies log_softmax again: the result is the same (log_softmax is "
                       "idempotent over the class dimension), but the second pass is redundant "
                       "work. Pass the logits, or keep the log_softmax and use `F.nll_loss`")
            yield ctx.finding(self, site.call, message, evidence=site_evidence(ctx, site))
