"""PF471 deepspeed-optimizer-torch-saved: ``torch.save`` of the optimizer ``deepspeed.initialize`` returned."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, target_text
from preflight.rules.base import Rule, examples


def _engine_optimizers(ctx: FileContext) -> dict[ast.AST, dict[str, ast.Call]]:
    """function node -> {optimizer name: the ``deepspeed.initialize`` call that returned it}."""
    out: dict[ast.AST, dict[str, ast.Call]] = {}
    for call, qual in calls(ctx):
        if qual != "deepspeed.initialize":
            continue
        parent = ctx.parent(call)
        if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1
                and isinstance(parent.targets[0], (ast.Tuple, ast.List))):
            continue
        elts = parent.targets[0].elts
        if len(elts) < 2 or isinstance(elts[0], ast.Starred) or isinstance(elts[1], ast.Starred):
            continue
        name = target_text(elts[1])
        if name is None or name == "_":
            continue
        fn = ctx.enclosing_function(call) or ctx.tree
        out.setdefault(fn, {})[name] = call
    return out


def _state_dict_of(node: ast.AST, names: dict[str, ast.Call]) -> Optional[ast.Call]:
    """A ``<optimizer>.state_dict()`` call inside ``node`` on one of ``names``."""
    for sub in ast.walk(node):
        if (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and sub.func.attr == "state_dict"
                and target_text(sub.func.value) in names):
            return sub
    return None


@register
class DeepSpeedOptimizerTorchSaved(Rule):
    code = "PF471"
    needs_text = ("deepspeed",)
    name = "deepspeed-optimizer-torch-saved"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = ("`torch.save` of the optimizer `deepspeed.initialize` returned: its state is the engine's, "
               "partitioned per rank")
    explanation = """
## What it finds

`torch.save(...)` of `optimizer.state_dict()` (directly, inside the saved dict, or through a
variable of the function holding it) where `optimizer` is the second value
`deepspeed.initialize` returned in the same function.

## Why it matters

The optimizer `deepspeed.initialize` returns is DeepSpeed's wrapper: under ZeRO stages 1-3
each rank holds only its partition of the optimizer state (and of the fp32 master weights),
and the wrapper's `state_dict()` is that rank's piece, tied to the engine's flat buffers. A
file written by `torch.save` from one rank (typically rank 0) holds one partition out of
N; loading it back with `optimizer.load_state_dict` restores the wrong state on every
other rank, and the resumed run trains differently (DeepSpeed issue 4834: "I tried to save
the checkpoint without using deepspeed.DeepSpeedEngine.save_checkpoint() ... the training
speed was several times slower").

## How to fix it

`engine.save_checkpoint(save_dir, client_state={"epoch": epoch})` on **every** rank, and
`engine.load_checkpoint(save_dir)` to resume: they write and read every rank's partition,
the scheduler and the engine's counters.

## When preflight stays silent

* Only the model's weights are saved (`model.module.state_dict()`): a weights file, not a
  resume point (under ZeRO-3 those weights are partitioned too: that is another rule's).
* The optimizer saved is not the one `deepspeed.initialize` returned in the function (the
  torch optimizer of a run without DeepSpeed), or the second value is discarded (`_`).
"""
    bad_examples = examples("preflight.rules.code._pf471_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf471_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        by_function = _engine_optimizers(ctx)
        if not by_function:
            return
        for call, qual in calls(ctx):
            if qual != "torch.save" or not call.args:
                continue
            fn = ctx.enclosing_function(call) or ctx.tree
            names = by_function.get(fn)
            if not names:
                continue
            found = _state_dict_of(call.args[0], names)
            if found is None and isinstance(call.args[0], ast.Name):
                held = call.args[0].id
                for node in ast.walk(fn):
                    if isinstance(node, ast.Assign) and getattr(node, "lineno", 0) < call.lineno and any(
                            (target_text(t) or "").split("[")[0] == held
                            or (isinstance(t, ast.Subscript) and target_text(t.value) == held)
                            for t in node.targets):
                        found = _state_dict_of(node.value, names)
                        if found is not None:
                            break
            if found is None:
                continue
            assert isinstance(found.func, ast.Attribute)
            opt = target_text(found.func.value)
            init = names[opt or ""]
            yield ctx.finding(
                self, call,
                f"`torch.save` writes `{opt}.state_dict()`, the optimizer `deepspeed.initialize` returned: under "
                "ZeRO each rank holds only its partition of the optimizer state (and fp32 master weights), so "
                "this file keeps one rank's piece and a resume from it restores the wrong state on the others. "
                "Use `engine.save_checkpoint(dir, client_state=...)` on every rank and "
                "`engine.load_checkpoint(dir)`",
                evidence=[ctx.evidence(init, f"`{opt}` is DeepSpeed's optimizer wrapper")])
