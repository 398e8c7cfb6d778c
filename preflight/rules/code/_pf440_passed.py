"""PF440's second reach: a schedule whose period is a small literal (``StepLR(step_size=7)``: epochs by
its size), and schedules built at module level or handed to a function of the file as an argument
(``train_model(model, criterion, optimizer, exp_lr_scheduler)``, the torchvision tutorial's shape)."""

from __future__ import annotations

import ast
from typing import Callable, Iterator, Optional

from preflight.analysis.context import FileContext
from preflight.rules._pf414_support import call_last

# a literal period at most this many step() calls, decaying by at least half, is an epoch count: stepped
# per batch it would shrink the learning rate below 1e-6 of its start within a few thousand batches
_MAX_LITERAL = {"StepLR": 100, "MultiStepLR": 300}
_MAX_GAMMA = 0.5
# det98: a StepLR with a gentler gamma (``step_size=10, gamma=0.95``, STGCN issue 18) is an epoch count too
# when, stepped per batch, it would cut the learning rate below this fraction within _BATCHES batches
_GENTLE_FLOOR = 0.01
_BATCHES = 1000


def _literal(node: Optional[ast.expr]) -> Optional[float]:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    return None


def _fades(gamma: float, step_size: Optional[float]) -> bool:
    """Stepped once per batch, the StepLR leaves under ``_GENTLE_FLOOR`` of its rate after ``_BATCHES`` batches."""
    return step_size is not None and step_size > 0 and gamma ** (_BATCHES / step_size) < _GENTLE_FLOOR


def literal_epoch_period(call: ast.Call, scope: ast.AST) -> Optional[str]:
    """``step_size=7`` / ``milestones=[30, 60]`` as written, when the period is a small literal and
    ``gamma`` (default 0.1) decays by at least half at each boundary (a StepLR: or, stepped per batch,
    would leave under 1% of the rate within 1000 batches)."""
    name = call_last(call)
    limit = _MAX_LITERAL.get(name)
    if limit is None:
        return None
    keyword = "step_size" if name == "StepLR" else "milestones"
    period = next((k.value for k in call.keywords if k.arg == keyword), None)
    if period is None and len(call.args) > 1:
        period = call.args[1]
    gamma_node = next((k.value for k in call.keywords if k.arg == "gamma"), None)
    if gamma_node is None and len(call.args) > 2:
        gamma_node = call.args[2]
    gamma = 0.1 if gamma_node is None else _literal(gamma_node)
    if gamma is None or period is None or not 0 < gamma < 1:
        return None
    if gamma > _MAX_GAMMA and not (name == "StepLR" and _fades(gamma, _literal(period))):
        return None
    if isinstance(period, (ast.List, ast.Tuple)):
        values = [_literal(e) for e in period.elts]
    else:
        values = [_literal(period)]
    if not values or any(v is None or v <= 0 or v > limit for v in values):
        return None
    return f"{keyword}={ast.unparse(period)}"


def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    found: dict[str, list[ast.FunctionDef]] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            found.setdefault(node.name, []).append(node)
    return {name: fns[0] for name, fns in found.items() if len(fns) == 1}


def _bare_steps(scope: ast.AST, name: str, module_level: bool) -> Iterator[ast.Call]:
    nodes = scope.body if module_level and isinstance(scope, ast.Module) else [scope]
    for top in nodes:
        if module_level and isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for node in ast.walk(top):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "step"
                    and not node.args and not node.keywords and ast.unparse(node.func.value) == name):
                yield node


def passed_scheduler_steps(ctx: FileContext, period_of: Callable[[ast.Call, ast.AST], Optional[str]],
                           ) -> Iterator[tuple[ast.Call, str, str, ast.Call]]:
    """(constructor, the name ``step()`` is called on, period, the bare ``step()``) for a schedule built
    at module level and stepped there, or built anywhere and passed by name to a module-level function
    of the file that steps its parameter. Schedules bound in a function and stepped there are
    ``bare_scheduler_steps``'s."""
    functions = _functions(ctx.tree)
    for assign in ctx.nodes(ast.Assign):
        call = assign.value
        if not (isinstance(call, ast.Call) and len(assign.targets) == 1 and isinstance(assign.targets[0], ast.Name)):
            continue
        target = assign.targets[0].id
        fn = ctx.enclosing_function(assign)
        scope: ast.AST = fn if fn is not None else ctx.tree
        period = period_of(call, scope)
        if period is None:
            continue
        if fn is None:
            for step in _bare_steps(ctx.tree, target, module_level=True):
                yield call, target, period, step
        for site in ast.walk(scope):
            if not (isinstance(site, ast.Call) and isinstance(site.func, ast.Name) and site.func.id in functions):
                continue
            callee = functions[site.func.id]
            params = [a.arg for a in callee.args.posonlyargs + callee.args.args]
            names = [(params[i], a) for i, a in enumerate(site.args) if i < len(params)]
            names += [(k.arg, k.value) for k in site.keywords if k.arg in params]
            for param, arg in names:
                if isinstance(arg, ast.Name) and arg.id == target and callee is not fn:
                    for step in _bare_steps(callee, param, module_level=False):
                        yield call, param, period, step
