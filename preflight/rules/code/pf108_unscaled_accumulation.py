"""PF108 unscaled-accumulation: stepping every N micro-batches on an undivided loss."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.accumulation import AccumSite, accumulation, is_number
from preflight.analysis.context import FileContext
from preflight.analysis.scopes import ScopeIndex
from preflight.diagnostics import Category, Evidence, Finding, Fix, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code._pf108_support import optimizer_severity, short, simple_divisor


def _where(site: AccumSite) -> str:
    if site.guard is not None:
        return f"under `if {short(site.guard.test, 50)}`"
    assert site.window is not None
    return f"after the `for {short(site.window.target, 20)} in {short(site.window.iter, 40)}` loop of backward passes"


@register
class UnscaledAccumulation(Rule):
    code = "PF108"
    name = "unscaled-accumulation"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "fabric", "accelerate")
    fixable = True
    summary = "Gradients are accumulated over N micro-batches but the loss is never divided by N"
    explanation = """
## What it finds

A loop runs backward on every micro-batch but calls the optimizer step only when
`(i + 1) % N == 0`, and nothing divides the loss (or the gradients) by N:

```python
for i, (x, y) in enumerate(loader):
    loss = criterion(model(x), y)
    loss.backward()                 # gradients add up ...
    if (i + 1) % N == 0:
        optimizer.step()            # ... and the sum of N gradients is applied
        optimizer.zero_grad()
```

The same holds for nanoGPT's shape: an inner `for micro_step in range(N):` loop of
backward passes, with the step after it in the enclosing loop, and for a counter window:
the loop counts its backward passes (`k += 1`) and steps under `if k >= N:` (or `k == N`),
a branch that resets the counter (`k = 0`; neural_sp issue 168).

## Why it matters

`backward()` adds into `.grad`, so the step applies the *sum* of N micro-batch
gradients, N times the gradient of the large batch the accumulation is meant to
emulate. With SGD that is an N-times larger learning rate (error: training
diverges or lands somewhere else than the unaccumulated run); with Adam the
constant factor is mostly normalised away, but gradient-clipping thresholds,
coupled weight decay and epsilon now act on N-times larger gradients (warning).

## How to fix it

Divide the loss by the window before backward: `(loss / N).backward()` (the
autofix), or `loss = loss / N`. With Accelerate, pass
`Accelerator(gradient_accumulation_steps=N)` and let `accelerator.backward` divide.
When the backward is `accelerator.backward` on an `Accelerator` built without
`gradient_accumulation_steps` (default 1; the `ACCELERATE_GRADIENT_ACCUMULATION_STEPS`
environment variable can change it at launch), the finding is a note and has
no autofix: under a DeepSpeed plugin (an accelerate config with
`distributed_type: DEEPSPEED`) the engine divides the loss by its config's
`gradient_accumulation_steps`, so the undivided loop is right there and a manual
division is the bug (PF522, with the config).

## When preflight stays silent

* Any scaling of the loss by the window is seen: `/`, `/=`, `.div()`,
  `torch.div`, `* (1 / N)` (also through a name), `.mean()` over a stacked
  window, or gradients divided in place (`p.grad /= N`, `p.grad.div_(N)`).
* The loss is multiplied by something preflight cannot evaluate, or comes
  from a function it cannot see that is given the window size (or `*args` /
  `**kwargs` that may hold it; `model(**batch)` of the batch a loop draws from
  its loader, or of a `batch` parameter (Lightning's `training_step(self, batch, ...)` and
  the helpers it hands its batch to), does not count: the batch cannot hold the window).
* `zero_grad()` (or `p.grad = None`) runs on every micro-batch: nothing accumulates
  (a `zero_grad()` under another branch's own `if ... % N == 0`, as in
  `if fp16: ... else: ...` loops, steps once per window and does not count).
* The backward belongs to a framework that scales: `accelerator.backward` with
  `gradient_accumulation_steps` set, a DeepSpeed engine, Lightning automatic
  optimization, the Hugging Face `Trainer`; or to an object preflight cannot trace.
* Class, function and variable names never matter: a user class called
  `Trainer` is checked like any other.
"""
    bad_examples = examples("preflight.rules.code._pf108_examples", "PF108_BAD")
    good_examples = examples("preflight.rules.code._pf108_examples", "PF108_GOOD")
    fixed_examples = examples("preflight.rules.code._pf108_fixes", "PF108_FIXED")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        facts = accumulation(ctx)
        for site in facts.sites:
            finding = self._check_site(ctx, facts.scopes, site)
            if finding is not None:
                yield finding

    def _check_site(self, ctx: FileContext, scopes: ScopeIndex, site: AccumSite) -> Optional[Finding]:
        if (site.guard is None and site.window is None) or site.modulus is None or site.zeroed_every_micro_batch:
            return None
        if site.trace.scalings or site.trace.hidden_scaling(site.modulus) is not None:
            return None
        owner = site.owner
        if owner.kind == "accelerate":
            if not owner.ga_known or not (owner.ga is None or is_number(owner.ga, 1)):
                return None
        elif owner.kind not in ("plain", "fabric"):
            return None
        n = short(site.modulus, 40)
        severity, why = optimizer_severity(scopes, site.optimizer)
        if owner.kind == "accelerate":
            # the window `accelerator.backward` divides by is not in the code: the launch config
            # decides it, and under a DeepSpeed plugin the engine divides by its config's
            # `gradient_accumulation_steps` (then this loop is right and dividing is the bug, PF522)
            severity = Severity.NOTE
        step = short(site.step.func if site.step is not None else None, 40)
        message = (
            f"The optimizer steps once every `{n}` micro-batches (`{step}()` {_where(site)}), "
            f"but backward runs on every micro-batch and the "
            f"loss is never divided by the window: each step applies the sum of the window's "
            f"gradients instead of their mean, `{n}` times too large; {why}. Divide the loss by "
            f"`{n}` before backward")
        if owner.kind == "accelerate":
            message += (" (or pass `Accelerator(gradient_accumulation_steps=...)` and let "
                        "`accelerator.backward` divide; its default is 1). Unless the job runs under "
                        "DeepSpeed: its engine divides the loss by the DeepSpeed config's "
                        "`gradient_accumulation_steps` itself, and this loop is then right")
        evidence = self._evidence(ctx, site, n)
        return ctx.finding(self, site.backward, message, evidence=evidence,
                           fix=self._fix(ctx, site), severity=severity)

    def _evidence(self, ctx: FileContext, site: AccumSite, n: str) -> list[Evidence]:
        out = []
        if site.loop is not None:
            out.append(ctx.evidence(site.loop.node, "the loop over micro-batches"))
        out.append(ctx.evidence(site.backward, "backward runs on every micro-batch; gradients "
                                               "add up in `.grad`"))
        if isinstance(site.value, ast.Name):
            for node in ctx.nodes(ast.Assign):
                if any(isinstance(t, ast.Name) and t.id == site.value.id for t in node.targets) and (
                        site.function.node is ctx.enclosing_function(node) or (
                        site.function.is_module_scope and ctx.enclosing_function(node) is None)):
                    out.append(ctx.evidence(node, f"`{site.value.id}` is bound here, "
                                                  "without a division by the window"))
                    break
        if site.guard is not None:
            out.append(ctx.evidence(site.guard, f"the optimizer steps only when `{short(site.guard.test, 50)}`"
                                                f": once every `{n}` micro-batches"))
        elif site.window is not None and site.step is not None:
            out.append(ctx.evidence(site.step, f"the optimizer steps after the `{short(site.window.iter, 50)}` "
                                               f"loop: once every `{n}` micro-batches"))
        if site.optimizer is not None:
            out.append(ctx.evidence(site.optimizer, "the optimizer"))
        return out

    def _fix(self, ctx: FileContext, site: AccumSite) -> Optional[Fix]:
        if site.owner.kind not in ("plain", "fabric") or site.modulus is None or not simple_divisor(
                site.modulus):
            return None
        by = ast.unparse(site.modulus)
        func = site.backward.func
        receiver = isinstance(func, ast.Attribute) and func.value is site.value
        return ctx.fix(site.value, f"Divide the loss by `{by}` before backward",
                       "divide", by=by, paren="1" if receiver else "0")
