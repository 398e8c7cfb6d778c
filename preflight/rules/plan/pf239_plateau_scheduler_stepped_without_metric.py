"""PF239 plateau-scheduler-stepped-without-metric: a ``ReduceLROnPlateau`` (built in the code or
selected by the composed Hydra config) is stepped with no metric."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import qualify
from preflight.rules.base import examples
from preflight.rules.plan._hydra_app_support import hydra_main_apps, lookup

_PLATEAU = "ReduceLROnPlateau"


def _cfg_path(node: ast.AST, root: str) -> Optional[tuple[str, ...]]:
    """``cfg.a.b`` / ``cfg["a"].b`` -> ("a", "b") when rooted at ``root``."""
    parts: list[str] = []
    while True:
        if isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
                and isinstance(node.slice.value, str):
            parts.append(node.slice.value)
            node = node.value
        else:
            break
    if isinstance(node, ast.Name) and node.id == root and parts:
        return tuple(reversed(parts))
    return None


def _guarded(ctx: FileContext, node: ast.AST) -> bool:
    """The step sits under a test that tells the plateau scheduler apart (``isinstance(s, ReduceLROnPlateau)``,
    ``if "Plateau" in name``), in either branch."""
    for anc in ctx.ancestors(node):
        if isinstance(anc, (ast.If, ast.IfExp)) and ("Plateau" in ast.unparse(anc.test)
                                                    or "isinstance" in ast.unparse(anc.test)):
            return True
    return False


@register
class PlateauSchedulerSteppedWithoutMetric(PlanRule):
    code = "PF239"
    name = "plateau-scheduler-stepped-without-metric"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "hydra")
    summary = ("A `ReduceLROnPlateau` scheduler (built in code or chosen by the Hydra config) is stepped with "
               "`scheduler.step()` and no metric: TypeError at the first step")
    explanation = """
## What it finds

`scheduler.step()` with no argument on a scheduler that is a
`torch.optim.lr_scheduler.ReduceLROnPlateau`: built so in the same function, or
built with `hydra.utils.instantiate(cfg.scheduler, ...)` in a `@hydra.main`
function whose composed config (the defaults list as launched) gives that node
`_target_: torch.optim.lr_scheduler.ReduceLROnPlateau`.

## Why it matters

Every other torch scheduler steps without arguments, but `ReduceLROnPlateau`
decides from the monitored value: its signature is `step(self, metrics,
epoch=None)` (torch/optim/lr_scheduler.py). The call fails with "TypeError:
step() missing 1 required positional argument: 'metrics'" at the end of the first
epoch, after a full epoch of training (victoresque/pytorch-template issue 89: a
config-driven template whose generic trainer calls `lr_scheduler.step()` works
until the config selects the plateau scheduler).

## How to fix it

Pass the monitored value (`scheduler.step(val_loss)`), or branch on the scheduler
type when the config chooses it (`if isinstance(scheduler, ReduceLROnPlateau):
scheduler.step(val_loss) else: scheduler.step()`).

## When preflight stays silent

* The step is under a test on the scheduler's type (`isinstance`, a name with
  "Plateau"), or passes a value.
* The config selects another scheduler, or the node cannot be found in the
  composed config (a launch override preflight does not see may change it).
"""
    bad_examples = examples("preflight.rules.plan._pf239_examples", "PF239_BAD")
    good_examples = examples("preflight.rules.plan._pf239_examples", "PF239_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        hydra_nodes: dict[int, list[tuple[ast.FunctionDef, str, Any]]] = {}
        for comp, script, fn in hydra_main_apps(pctx.project):
            if fn.args.args:
                hydra_nodes.setdefault(id(script), []).append((fn, fn.args.args[0].arg, comp.config))
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if not text or ".step()" not in text:
                continue
            ctx = pctx.file_context(script)
            plateaus = self._plateaus(ctx, hydra_nodes.get(id(script), []))
            if not plateaus:
                continue
            for call in ctx.nodes(ast.Call):
                func = call.func
                if not (isinstance(func, ast.Attribute) and func.attr == "step" and not call.args
                        and not call.keywords):
                    continue
                key = (ast.unparse(func.value), ctx.enclosing_function(call))
                found = plateaus.get(key)
                if found is None or _guarded(ctx, call):
                    continue
                origin, how = found
                yield pctx.code_finding(
                    self, script, call,
                    f"`{ast.unparse(call)}` steps a ReduceLROnPlateau scheduler ({how}) without the monitored "
                    "value: its `step(metrics)` requires it, so this fails with \"TypeError: step() missing 1 "
                    "required positional argument: 'metrics'\". Pass the validation metric, or branch on "
                    "`isinstance(scheduler, ReduceLROnPlateau)`",
                    evidence=[pctx.code_evidence(script, origin, "the scheduler is built here", same_file=True)])

    @staticmethod
    def _plateaus(ctx: FileContext, nodes: list[tuple[ast.FunctionDef, str, Any]]) \
            -> dict[tuple[str, Optional[ast.AST]], tuple[ast.AST, str]]:
        out: dict[tuple[str, Optional[ast.AST]], tuple[ast.AST, str]] = {}
        for assign in ctx.nodes(ast.Assign):
            value = assign.value
            if not isinstance(value, ast.Call) or len(assign.targets) != 1:
                continue
            scope = ctx.enclosing_function(assign)
            name = ast.unparse(assign.targets[0])
            qual = qualify(ctx, value.func) or ast.unparse(value.func)
            if qual.rsplit(".", 1)[-1] == _PLATEAU:
                out[(name, scope)] = (assign, "built as ReduceLROnPlateau here")
                continue
            if qual.rsplit(".", 1)[-1] != "instantiate" or not value.args:
                continue
            for fn, root, config in nodes:
                if scope is not fn:
                    continue
                path = _cfg_path(value.args[0], root)
                node = lookup(config, path) if path else None
                target = node.get("_target_") if isinstance(node, dict) else None
                if isinstance(target, str) and target.rsplit(".", 1)[-1] == _PLATEAU:
                    out[(name, scope)] = (assign, f"the composed config's `{'.'.join(path or ())}` node has "
                                                  f"`_target_: {target}`")
        return out
