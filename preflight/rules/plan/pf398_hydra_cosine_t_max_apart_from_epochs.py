"""PF398 hydra-cosine-t-max-apart-from-epochs: a Hydra scheduler config sets CosineAnnealingLR's ``T_max`` to a
constant below the epoch count the composed config gives the script's epoch loop."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Iterator, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_COSINE = ("torch.optim.lr_scheduler.CosineAnnealingLR", "torch.optim.lr_scheduler.cosine_annealing_lr")


def _path(expr: ast.AST) -> Optional[tuple[str, ...]]:
    """``cfg.model.scheduler`` -> ("model", "scheduler"); ``cfg["a"].b`` too; None for anything else."""
    parts: list[str] = []
    while True:
        if isinstance(expr, ast.Attribute):
            parts.append(expr.attr)
            expr = expr.value
        elif isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant) \
                and isinstance(expr.slice.value, str):
            parts.append(expr.slice.value)
            expr = expr.value
        elif isinstance(expr, ast.Name):
            return tuple(reversed(parts)) if parts else None
        else:
            return None


def _lookup(config: Any, path: tuple[str, ...]) -> Any:
    node = config
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def _instantiated(fn: ast.AST) -> dict[str, tuple[str, ...]]:
    """Local names bound to ``instantiate(cfg.<path>, ...)``: name -> path."""
    out = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, ast.Call) and node.value.args \
                and ast.unparse(node.value.func).rsplit(".", 1)[-1] == "instantiate":
            path = _path(node.value.args[0])
            if path is not None:
                out[node.targets[0].id] = path
    return out


def _epoch_loops(fn: ast.AST) -> Iterator[tuple[ast.For, tuple[str, ...]]]:
    """``for epoch in range(cfg.<path>)`` loops: (loop, path)."""
    for node in ast.walk(fn):
        if isinstance(node, ast.For) and "epoch" in ast.unparse(node.target).lower() \
                and isinstance(node.iter, ast.Call) and ast.unparse(node.iter.func) == "range" \
                and len(node.iter.args) == 1:
            path = _path(node.iter.args[0])
            if path is not None:
                yield node, path


def _stepped_per_epoch(loop: ast.For, name: str) -> Optional[ast.Call]:
    """``name.step()`` in the epoch loop's body, outside any inner loop."""
    todo: list[ast.AST] = list(loop.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.For, ast.While, ast.AsyncFor, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "step" \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == name:
            return node
        todo.extend(ast.iter_child_nodes(node))
    return None


@register
class HydraCosineTMaxApartFromEpochs(PlanRule):
    code = "PF398"
    name = "hydra-cosine-t-max-apart-from-epochs"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A Hydra config hard-codes CosineAnnealingLR's T_max below the epochs the composed config runs: the "
               "learning rate climbs back up mid-run")
    explanation = """
## What it finds

A Hydra app whose composed config holds a `_target_: torch.optim.lr_scheduler.CosineAnnealingLR`
node with `T_max` written as a number, instantiated in the script
(`scheduler = instantiate(cfg.model.scheduler, optimizer=...)`) and stepped once per epoch in
`for epoch in range(cfg.trainer.epochs)`, where the composed epoch count (with the launch's
overrides, e.g. `trainer=distributed`) is larger than `T_max`.

## Why it matters

CosineAnnealingLR is periodic: after `T_max` steps the learning rate reaches `eta_min` and
then climbs back to the base rate over the next `T_max` steps, and so on. With `T_max: 90`
and 300 epochs the run anneals at epoch 90, is back at the full rate at 180, and ends at an
arbitrary point of a cycle instead of annealing once. The two numbers drift apart whenever
another trainer config (more epochs) is selected: facebookresearch/hydra#1286 asks for
exactly this link ("I would like them to vary together, if epochs or distributed mode is used").

## How to fix it

Interpolate it: `T_max: ${trainer.epochs}`.

## When preflight stays silent

* `T_max` is an interpolation, or at least the composed epoch count.
* The scheduler is stepped inside the batch loop (T_max then counts batches), or the epoch
  loop's bound is not a config value.
"""
    bad_examples = examples("preflight.rules.plan._pf398_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf398_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        try:
            from preflight.adapters.hydra_apps import Composed, compositions
        except ImportError:  # pragma: no cover - the adapter ships with preflight
            return
        for comp in compositions(pctx.project):
            if not isinstance(comp, Composed) or comp.app.script is None:
                continue
            finding = self._app(pctx, comp)
            if finding is not None:
                yield finding

    def _app(self, pctx: PlanContext, comp: Any) -> Optional[Finding]:
        config = comp.config
        for fn in ast.walk(comp.app.script.tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            made = _instantiated(fn)
            if not made:
                continue
            for loop, epochs_path in _epoch_loops(fn):
                epochs = _lookup(config, epochs_path)
                if not isinstance(epochs, int) or isinstance(epochs, bool):
                    continue
                for name, path in made.items():
                    node = _lookup(config, path)
                    if not isinstance(node, dict) or node.get("_target_") not in _COSINE:
                        continue
                    t_max = node.get("T_max")
                    if not isinstance(t_max, int) or isinstance(t_max, bool) or t_max >= epochs:
                        continue
                    step = _stepped_per_epoch(loop, name)
                    origin = comp.origins.get((*path, "T_max"))
                    if step is None or origin is None or origin[1] is None:
                        continue
                    key = ".".join(epochs_path)
                    message = (f"CosineAnnealingLR's T_max is the constant {t_max}, but the composed config runs "
                               f"{epochs} epochs ({key}) and the scheduler steps once per epoch: the cosine is "
                               f"periodic, so the learning rate reaches eta_min at epoch {t_max}, climbs back to the "
                               f"base rate by epoch {2 * t_max} and the run ends at an arbitrary point of a cycle "
                               f"instead of annealing once. Interpolate it: `T_max: ${{{key}}}`")
                    evidence = [Evidence(line=loop.lineno, path=comp.app.script.source.display,
                                         message=f"the epoch loop runs {key} = {epochs} epochs")]
                    epochs_origin = comp.origins.get(epochs_path)
                    if epochs_origin is not None and epochs_origin[1] is not None:
                        evidence.append(Evidence(line=epochs_origin[1], path=epochs_origin[0],
                                                 message=f"{key}: {epochs}"))
                    return pctx.location_finding(self, origin[0], origin[1], message, evidence=evidence)
        return None
