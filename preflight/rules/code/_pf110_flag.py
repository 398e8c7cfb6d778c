"""PF110's reach into a flag-dispatched epoch function (det83): ``train_and_valid(rank, model, optimizer,
loader, is_train)`` trains when ``is_train`` is true and evaluates when it is false: ``model.eval()`` sits in
the ``else`` of ``if is_train:``, and every backward and optimizer step of the function sits under ``if
is_train:`` too. A call of the function that passes a literal ``False`` for the flag, with gradients on, runs
the evaluation path with autograd recording (particleflow, jpata/particleflow: "no_grad is required to allow
larger batch sizes not to OOM"). The function trains, which otherwise excuses its forwards."""

from __future__ import annotations

import ast
from typing import Optional

from preflight.analysis.context import FileContext
from preflight.analysis.evaluation import Evaluation, ModeEvent
from preflight.analysis.scopes import FunctionInfo


def _flag_branch(ctx: FileContext, node: ast.AST, fn: FunctionInfo) -> Optional[tuple[str, bool]]:
    """(parameter, the flag's value on ``node``'s path) for the innermost ``if p:`` / ``if not p:`` around
    ``node`` in ``fn`` whose test is one parameter of ``fn``."""
    cur = node
    for anc in ctx.ancestors(node):
        if anc is fn.node:
            return None
        if isinstance(anc, (ast.If, ast.IfExp)):
            test, negated = anc.test, False
            if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
                test, negated = test.operand, True
            if isinstance(test, ast.Name) and test.id in fn.params:
                # ``if p: ... else: ...`` and ``model.train() if p else model.eval()``
                body = anc.body if isinstance(anc.body, list) else [anc.body]
                orelse = anc.orelse if isinstance(anc.orelse, list) else [anc.orelse]
                in_body = any(cur is s for s in body)
                in_else = any(cur is s for s in orelse)
                if in_body or in_else:
                    return test.id, in_body != negated
        cur = anc
    return None


def _falsy(arg: ast.expr) -> bool:
    return isinstance(arg, ast.Constant) and arg.value in (False, 0, None) and not isinstance(arg.value, str)


_GRAD_CONTEXTS = ("set_grad_enabled", "no_grad", "inference_mode", "enable_grad")


def _grad_context_of_flag(expr: ast.AST, param: str) -> bool:
    """A grad-mode context chosen by the flag: ``torch.set_grad_enabled(is_train)``,
    ``torch.enable_grad() if train else torch.no_grad()``."""
    text = ast.unparse(expr)
    return any(w in text for w in _GRAD_CONTEXTS) and any(
        isinstance(n, ast.Name) and n.id == param for n in ast.walk(expr))


def _grad_follows(ctx: FileContext, forward: ast.AST, fn: FunctionInfo, param: str) -> bool:
    """``forward`` runs under a ``with`` whose grad mode the flag chooses, written in place or bound to a
    name of ``fn`` first (``grad_context = torch.enable_grad() if train else torch.no_grad()``)."""
    for anc in ctx.ancestors(forward):
        if anc is fn.node:
            return False
        if isinstance(anc, (ast.With, ast.AsyncWith)):
            for item in anc.items:
                expr = item.context_expr
                if _grad_context_of_flag(expr, param):
                    return True
                if isinstance(expr, ast.Name) and any(
                        isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == expr.id
                                                             for t in node.targets)
                        and _grad_context_of_flag(node.value, param) for node in ast.walk(fn.node)):
                    return True
    return False


def eval_flag_call(ctx: FileContext, facts: Evaluation, fn: FunctionInfo,
                   event: Optional[ModeEvent], forward: ast.AST) -> Optional[tuple[str, ast.Call]]:
    """(flag parameter, the call that passes it false with gradients on) when ``fn`` switches the model to
    ``eval()`` only on the flag's false path, trains only on its true path, and ``forward`` does not turn
    gradients off with the flag (``with torch.set_grad_enabled(is_train):``)."""
    if event is None or event.helper is not None or fn.is_module_scope:
        return None
    branch = _flag_branch(ctx, event.origin, fn)
    if branch is None or branch[1]:
        return None
    param = branch[0]
    if _grad_follows(ctx, forward, fn, param):
        return None
    scopes = facts.scopes
    trainings = [tc for tc in scopes.training_calls if tc.function is fn]
    if not trainings:
        return None
    for tc in trainings:
        got = _flag_branch(ctx, tc.call, fn)
        if got != (param, True):
            return None  # a training call outside the flag's true path: the function trains anyway
    for site in fn.call_sites:
        if site.constructor:
            continue
        lexical, _ = scopes.lexical_grad(site.call)
        if lexical is False or (lexical is None and not site.caller.grad_enabled):
            continue
        for name, arg in scopes.bindings.iter_arg_params(site.call, fn):
            if name == param and _falsy(arg):
                return param, site.call
    return None
