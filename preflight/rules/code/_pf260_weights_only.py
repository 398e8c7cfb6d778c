"""PF260's second shape: the script checkpoints only the model's ``state_dict()`` and resumes from that same
file before training, so the stateful optimizer (and the epoch counter) start over on every resume."""

from __future__ import annotations

import ast
from typing import Optional

from preflight.analysis.context import FileContext
from preflight.rules._pf4_support import calls


def _bare_weights(node: ast.expr) -> Optional[str]:
    """``model`` of ``model.state_dict()`` (not an optimizer's, scheduler's or scaler's)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "state_dict" \
            and not node.args:
        owner = ast.unparse(node.func.value)
        low = owner.lower()
        if not any(w in low for w in ("optim", "sched", "scaler", "ema")) and not low.startswith("opt"):
            return owner
    return None


def _backprops(node: ast.AST) -> bool:
    return any(isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and sub.func.attr == "backward"
               for sub in ast.walk(node))


def _trains(node: ast.AST, trainers: set[str]) -> bool:
    """The loop back-propagates, or calls a function of the file that does (``train(epoch)``)."""
    return _backprops(node) or any(
        isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id in trainers
        for sub in ast.walk(node))


def weights_only_resume(ctx: FileContext) -> Optional[tuple[ast.Call, ast.Call, ast.AST]]:
    """``(save, load, loop)``: ``torch.save(model.state_dict(), path)`` and, before a training loop of the same
    scope and outside it, ``model.load_state_dict(torch.load(path))`` of the same ``path`` (a name bound once
    to ``torch.load(path)`` counts). The caller checks that no optimizer loads a state."""
    saves: dict[str, ast.Call] = {}
    loads_of: dict[str, str] = {}  # name bound to torch.load(path) -> path text
    direct: list[tuple[ast.Call, str]] = []
    for call, qual in calls(ctx):
        if qual == "torch.save" and len(call.args) >= 2 and _bare_weights(call.args[0]) is not None:
            saves.setdefault(ast.unparse(call.args[1]), call)
        elif qual == "torch.load" and call.args:
            parent = ctx.parent(call)
            loaded = ast.unparse(call.args[0])
            if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
                loads_of[parent.targets[0].id] = loaded
            else:
                direct.append((call, loaded))
    if not saves:
        return None
    trainers = {fn.name for fn in ctx.nodes(ast.FunctionDef) if _backprops(fn)}
    loops = [loop for loop in ctx.nodes(ast.For, ast.While) if _trains(loop, trainers)]
    for call in ctx.nodes(ast.Call):
        if not (isinstance(call.func, ast.Attribute) and call.func.attr == "load_state_dict" and call.args):
            continue
        arg = call.args[0]
        path: Optional[str] = None
        if isinstance(arg, ast.Name):
            path = loads_of.get(arg.id)
        elif any(arg is load for load, _ in direct):
            path = next(p for load, p in direct if load is arg)
        if path is None or path not in saves or _bare_weights(ast.Call(
                func=ast.Attribute(value=call.func.value, attr="state_dict", ctx=ast.Load()), args=[],
                keywords=[])) is None:
            continue
        scope = ctx.enclosing_function(call)
        for loop in loops:
            if ctx.enclosing_function(loop) is scope and loop.lineno > call.lineno and not ctx.under(call, loop):
                return saves[path], call, loop
    return None
