"""PF240 plain-backward-under-fabric: ``loss.backward()`` in a file whose Fabric runs a precision
or strategy that needs ``fabric.backward(loss)``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, kwarg, literal
from preflight.rules.base import Rule, examples

_PACKAGES = ("lightning.", "lightning_fabric.")
# precisions whose Fabric plugin overrides ``backward`` (MixedPrecision: the GradScaler's scale)
_MIXED = ("16-mixed", "bf16-mixed", "16", "bf16", 16)
# strategies whose precision plugin or engine overrides ``backward``
_STRATEGIES = ("deepspeed", "fsdp")


def _needs_fabric_backward(ctx: FileContext, call: ast.Call) -> Optional[str]:
    """Why this ``Fabric(...)`` requires ``fabric.backward``, or None (not known to)."""
    precision = literal(ctx, kwarg(call, "precision"))
    if precision in _MIXED:
        return f"precision=\"{precision}\""
    strategy = literal(ctx, kwarg(call, "strategy"))
    if isinstance(strategy, str) and strategy.split("_", 1)[0].lower() in _STRATEGIES:
        return f"strategy=\"{strategy}\""
    return None


@register
class PlainBackwardUnderFabric(Rule):
    code = "PF240"
    needs_text = ("Fabric",)
    name = "plain-backward-under-fabric"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("`loss.backward()` where Lightning Fabric runs mixed precision, DeepSpeed or FSDP: "
               "`fabric.backward(loss)` is required")
    explanation = """
## What it finds

A file that builds `Fabric(precision="16-mixed")` (or `"bf16-mixed"`, the short `"16"`/`"bf16"`,
or `strategy="deepspeed..."`/`"fsdp..."`), sets objects up with it, and back-propagates with a
plain `loss.backward()` instead of `fabric.backward(loss)`.

## Why it matters

`fabric.backward(loss)` hands the loss to the precision plugin and the strategy: with
16-mixed the plugin scales it with Fabric's GradScaler (`MixedPrecision.backward`,
`lightning/fabric/plugins/precision/amp.py`), DeepSpeed's engine runs its own backward, FSDP
precision scales too. Since Lightning 2.2 a model set up by Fabric registers a hook on its
outputs that stops a plain backward under such a selection: "The current strategy and
precision selection requires you to call `fabric.backward(loss)` instead of `loss.backward()`"
(`lightning/fabric/wrappers.py`, `_backward_hook`; Lightning PR 19447). Older releases run
the unscaled backward: fp16 gradients underflow and the optimizer step goes through a scaler
that never scaled anything.

## How to fix it

Replace `loss.backward()` with `fabric.backward(loss)`.

## When preflight stays silent

* `fabric.backward(loss)`, or a `.backward(...)` call given a tensor (`torch.autograd.backward(loss)`).
* Fabric's precision is 32-bit or `"16-true"`/`"bf16-true"` with a plain strategy (DDP,
  single device), where a plain backward is allowed; or the precision and strategy are not
  literals preflight can read.
* No `fabric.setup(...)` in the file (Fabric only launches processes there).
"""
    bad_examples = examples("preflight.rules.code._pf240_examples", "PF240_BAD")
    good_examples = examples("preflight.rules.code._pf240_examples", "PF240_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        fabrics = [c for c, q in calls(ctx) if q.startswith(_PACKAGES) and q.rsplit(".", 1)[-1] == "Fabric"]
        if not fabrics:
            return
        reasons = [_needs_fabric_backward(ctx, c) for c in fabrics]
        if len(fabrics) != 1 or reasons[0] is None:
            return
        attrs = [(c, c.func) for c in ctx.nodes(ast.Call) if isinstance(c.func, ast.Attribute)]
        if not any(f.attr in ("setup", "setup_module") for _, f in attrs):
            return
        for call, func in attrs:
            if func.attr != "backward" or call.args:
                continue
            receiver = ast.unparse(func.value)
            if "fabric" in receiver.lower() or "scaler" in receiver.lower() or "autograd" in receiver:
                continue
            message = (f"`{receiver}.backward()` while Fabric runs with {reasons[0]}: the loss skips Fabric's "
                       "precision plugin and strategy (with 16-mixed its GradScaler never scales it). Lightning "
                       "2.2+ stops here with \"The current strategy and precision selection requires you to call "
                       "`fabric.backward(loss)` instead of `loss.backward()`\"; older releases step unscaled "
                       "fp16 gradients. Call `fabric.backward(" + receiver + ")`")
            yield ctx.finding(self, call, message,
                              evidence=[ctx.evidence(fabrics[0], f"Fabric(..., {reasons[0]})")])
