"""PF440's reach through calls (det83): the ``step()`` of an epoch-sized schedule sits in a method or function
that a batch loop calls, in the same class or module (``train_epoch`` iterates the loader and calls
``self.train_step(...)``, which steps ``self.scheduler``), or in a job class the schedule is handed to
(``trainer.prepare(model, criterion, optimizer, scheduler, device)`` stores it in ``self.scheduler``, in this
file or a project module the file imports: Auto-PyTorch PR 210). The reach is
:mod:`preflight.analysis.loop_calls`."""

from __future__ import annotations

import ast
from typing import Callable, Iterator, Optional, Union

from preflight._record import dataclass
from preflight.analysis.context import FileContext
from preflight.analysis.loop_calls import LoopReach, Unit
from preflight.rules._pf414_support import call_last
from preflight.rules.code._scheduler_steps import SCHEDULER_PERIOD, is_batch_loop


@dataclass(frozen=True)
class CalledStep:
    step: ast.Call  # the bare ``.step()`` (in ``path`` when not None)
    reach: LoopReach
    path: Optional[str]  # the other module's display path; None: this file
    anchor: ast.AST  # where the finding goes in this file


def _unit(ctx: FileContext, owner: Union[ast.ClassDef, ast.Module]) -> Unit:
    cache: dict = ctx.cached("pf440.units", dict)
    got = cache.get(id(owner))
    if got is None:
        got = cache[id(owner)] = Unit(owner)
    return got


def called_step(ctx: FileContext, step: ast.Call) -> Optional[LoopReach]:
    """A batch loop of the same class (or module) that calls the method (function) holding ``step``."""
    owner: Union[ast.ClassDef, ast.Module, None] = ctx.enclosing(step, ast.ClassDef)
    if owner is None:
        owner = ctx.tree
    unit = _unit(ctx, owner)
    fn = unit.function_of(step)
    if fn is None or not unit.free_in_function(fn, step):
        return None
    return unit.loop_reach(fn, is_batch_loop)


def _class_bindings(scope: ast.AST) -> dict[str, str]:
    """``trainer`` -> ``BaseTrainerComponent`` for ``trainer = BaseTrainerComponent(...)`` in ``scope``."""
    out: dict[str, str] = {}
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and (
                isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name)):
            out[node.targets[0].id] = node.value.func.id
    return out


def _job_class(ctx: FileContext, name: str) -> Optional[tuple[ast.ClassDef, Optional[str], FileContext]]:
    for node in ctx.tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return node, None, ctx
    from preflight.analysis.project_imports import imported_class
    got = imported_class(ctx, name)
    if got is None:
        return None
    return got[1], got[2], got[0]


def handed_steps(ctx: FileContext, period_of: Callable[[ast.Call, ast.AST], Optional[str]],
                 ) -> Iterator[tuple[ast.Call, str, str, CalledStep]]:
    """(constructor, the attribute stepped, period, where) for a schedule bound to a name, with its period
    read by ``period_of``, handed to a method of a job class that stores it on ``self`` and steps it in a
    method a batch loop of the class calls (or inside that loop)."""
    for assign in ctx.nodes(ast.Assign):
        call = assign.value
        if not (isinstance(call, ast.Call) and call_last(call) in SCHEDULER_PERIOD and len(assign.targets) == 1
                and isinstance(assign.targets[0], ast.Name)):
            continue
        name = assign.targets[0].id
        fn = ctx.enclosing_function(assign)
        scope: ast.AST = fn if fn is not None else ctx.tree
        period = period_of(call, scope)
        if period is None:
            continue
        classes = _class_bindings(scope)
        for site in ast.walk(scope):
            if not (isinstance(site, ast.Call) and isinstance(site.func, ast.Attribute)
                    and isinstance(site.func.value, ast.Name) and site.func.value.id in classes):
                continue
            if not any(isinstance(a, ast.Name) and a.id == name for a in site.args) and not any(
                    isinstance(k.value, ast.Name) and k.value.id == name for k in site.keywords):
                continue
            found = _job_class(ctx, classes[site.func.value.id])
            if found is None:
                continue
            cls, path, other = found
            unit = _unit(other, cls)
            method = unit.functions.get(site.func.attr)
            if method is None:
                continue
            params = [a.arg for a in method.args.posonlyargs + method.args.args][1:]
            handed = {params[i] for i, a in enumerate(site.args) if i < len(params)
                      and isinstance(a, ast.Name) and a.id == name}
            handed |= {k.arg for k in site.keywords if k.arg and isinstance(k.value, ast.Name) and k.value.id == name}
            attrs = {attr for param, attr in unit.stores(method).items() if param in handed}
            for attr in sorted(attrs):
                for holder in unit.functions.values():
                    for eff in unit.effects(holder):
                        if eff.kind != "step" or eff.receiver != attr or eff.call.args or eff.call.keywords:
                            continue
                        reach = _reach_of(unit, holder, eff.call)
                        if reach is not None:
                            anchor = eff.call if path is None else site
                            yield call, attr, period, CalledStep(eff.call, reach, path, anchor)


def _reach_of(unit: Unit, holder: ast.FunctionDef | ast.AsyncFunctionDef, step: ast.Call) -> Optional[LoopReach]:
    loop, stopped = unit.enclosing_loop(holder, step)
    if stopped:
        return None
    if loop is not None:
        return LoopReach(loop, holder, ()) if is_batch_loop(loop) else None
    return unit.loop_reach(holder, is_batch_loop)
