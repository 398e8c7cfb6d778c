"""PF188 best-state-dict-kept-by-reference: the "best" weights of a training loop kept as ``model.state_dict()``
(or its shallow ``.copy()``) and restored or saved after the loop: the dict holds references to the live
tensors, so it follows every later optimizer step and the "best" weights are the last ones."""

from __future__ import annotations

import ast
from typing import Iterable, Iterator, Optional, Union

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_Scope = Union[ast.FunctionDef, ast.AsyncFunctionDef, ast.Module]
_Loop = Union[ast.For, ast.While, ast.AsyncFor]


def _is_state_dict_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "state_dict" \
        and not node.args and not node.keywords


def _live_state_dict(value: ast.AST) -> Optional[str]:
    """``X.state_dict()`` -> ``"state_dict()"``; a shallow copy (a new dict, the same tensors): ``X.state_dict()
    .copy()``, ``copy.copy(X.state_dict())``, ``dict(...)`` / ``OrderedDict(...)`` of it, ``{k: v for k, v in
    X.state_dict().items()}`` -> its text; None for anything else (``deepcopy``, a comprehension that clones)."""
    if _is_state_dict_call(value):
        return "state_dict()"
    if not isinstance(value, (ast.Call, ast.DictComp)):
        return None
    if isinstance(value, ast.DictComp):
        if len(value.generators) != 1:
            return None
        gen = value.generators[0]
        it = gen.iter
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "items" \
                and _is_state_dict_call(it.func.value) and isinstance(gen.target, ast.Tuple) \
                and len(gen.target.elts) == 2 and isinstance(value.value, ast.Name) \
                and isinstance(gen.target.elts[1], ast.Name) and value.value.id == gen.target.elts[1].id:
            return "a comprehension that copies no tensor"
        return None
    func = value.func
    if isinstance(func, ast.Attribute) and func.attr == "copy" and not value.args and _is_state_dict_call(func.value):
        return ".copy()"
    name = ast.unparse(func)
    if name in ("copy.copy", "copy", "dict", "OrderedDict", "collections.OrderedDict") and len(value.args) == 1 \
            and not value.keywords and _is_state_dict_call(value.args[0]):
        return f"{name}()"
    return None


def _pairs(node: ast.Assign) -> list[tuple[ast.AST, ast.AST]]:
    """(target, value) pairs of an assignment, tuple assignments paired element by element."""
    out: list[tuple[ast.AST, ast.AST]] = []
    for target in node.targets:
        if isinstance(target, (ast.Tuple, ast.List)) and isinstance(node.value, (ast.Tuple, ast.List)) \
                and len(target.elts) == len(node.value.elts):
            out.extend(zip(target.elts, node.value.elts))
        else:
            out.append((target, node.value))
    return out


def _walk_local(node: ast.AST) -> Iterator[ast.AST]:
    """``node``'s subtree without nested function or class bodies."""
    stack = list(ast.iter_child_nodes(node))
    while stack:
        cur = stack.pop()
        yield cur
        if not isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(cur))


def _parents(scope: ast.AST) -> dict[int, ast.AST]:
    out: dict[int, ast.AST] = {}
    for node in [scope, *_walk_local(scope)]:
        for child in ast.iter_child_nodes(node):
            out[id(child)] = node
    return out


def _ends_the_loop(block: list[ast.stmt]) -> bool:
    return any(isinstance(s, (ast.Break, ast.Return, ast.Raise)) for s in block)


def _conditional_in_loop(node: ast.AST, parents: dict[int, ast.AST]) -> Optional[_Loop]:
    """The innermost loop around ``node`` when an ``if`` between them guards it and that ``if`` branch does not
    leave the loop right after (``break`` / ``return``); None otherwise."""
    guarded = False
    child: ast.AST = node
    cur = parents.get(id(node))
    while cur is not None:
        if isinstance(cur, ast.If):
            branch = cur.body if any(s is child for s in cur.body) else cur.orelse
            if _ends_the_loop(branch):
                return None
            guarded = True
        if isinstance(cur, (ast.For, ast.While, ast.AsyncFor)):
            return cur if guarded else None
        if isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return None
        child, cur = cur, parents.get(id(cur))
    return None


def _receiver(value: ast.AST) -> Optional[str]:
    """``model`` of ``model.state_dict()`` and of its shallow copies."""
    for node in ast.walk(value):
        if _is_state_dict_call(node):
            assert isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            return ast.unparse(node.func.value)
    return None


def _fresh_each_iteration(loop: ast.AST, value: ast.AST, line: int) -> bool:
    """The module whose state is kept is built anew inside the same loop before it (``for lr in lrs: model =
    Net(lr); train(model); if ...: best = model.state_dict()``): the kept tensors belong to a model that is
    not trained any more once the next iteration builds its own, so they stay the best ones."""
    name = _receiver(value) or (value.id if isinstance(value, ast.Name) else None)
    if name is None:
        return False
    for node in [loop, *_walk_local(loop)]:
        # ``for name, model in candidates.items():`` binds another model on each pass
        if isinstance(node, (ast.For, ast.AsyncFor)) and node.lineno <= line \
                and any(isinstance(t, ast.Name) and t.id == name for t in ast.walk(node.target)):
            return True
    for node in _walk_local(loop):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.lineno < line and node.value is not None:
            targets: list[ast.expr] = list(node.targets) if isinstance(node, ast.Assign) else [node.target]
            if any(ast.unparse(t) == name for t, _ in _pairs_of(targets, node.value)) \
                    and not _same_object(node.value, name):
                return True
    return False


def _pairs_of(targets: list[ast.expr], value: ast.AST) -> list[tuple[ast.AST, ast.AST]]:
    out: list[tuple[ast.AST, ast.AST]] = []
    for target in targets:
        if isinstance(target, (ast.Tuple, ast.List)):
            out.extend((t, value) for t in target.elts)
        else:
            out.append((target, value))
    return out


def _same_object(value: ast.AST, name: str) -> bool:
    """``model = model.to(device)`` / ``model.cuda()`` / ``model.train()``: the same module, not a new one."""
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
        and ast.unparse(value.func.value) == name


def _restores(node: ast.AST, text: str) -> Optional[str]:
    """How ``node`` hands the kept dict ``text`` on after training: ``load_state_dict(text)``,
    ``torch.save(text, ...)`` or ``return text`` (alone or in a tuple/dict); None otherwise."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        first = ast.unparse(node.args[0]) if node.args else ""
        if node.func.attr == "load_state_dict" and first in (text, f"{text}.state_dict()"):
            return "load_state_dict"
        if node.func.attr == "save" and node.args and (
                first in (text, f"{text}.state_dict()") or (isinstance(node.args[0], ast.Dict)
                and any(v is not None and ast.unparse(v) == text for v in node.args[0].values))):
            return "save"
    if isinstance(node, ast.Return) and node.value is not None:
        value = node.value
        items = value.elts if isinstance(value, (ast.Tuple, ast.List)) else \
            [v for v in value.values if v is not None] if isinstance(value, ast.Dict) else [value]
        if any(ast.unparse(v) == text for v in items):
            return "return"
    return None


def _live_model(value: ast.AST, scope: ast.AST) -> Optional[str]:
    """``best_model = model`` where ``model`` is a module the scope trains or evaluates (``model.parameters()``,
    ``model.train()``, ``model.eval()``): a second name for the same object, not a snapshot (astnn issue 8)."""
    if not isinstance(value, ast.Name):
        return None
    for node in _walk_local(scope):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("parameters", "train", "eval") and isinstance(node.func.value, ast.Name) \
                and node.func.value.id == value.id:
            return "model"
    return None


def _copied_before(scope: ast.AST, text: str, start: int, end: int) -> bool:
    """Between the kept assignment and its use, the name is bound again to something else (a deepcopy)."""
    for node in _walk_local(scope):
        if isinstance(node, ast.Assign) and start < node.lineno < end \
                and any(ast.unparse(t) == text and _live_state_dict(v) is None for t, v in _pairs(node)):
            return True
    return False


def _rebinds(scope: ast.AST, text: str) -> bool:
    """``scope`` binds ``text`` itself (to anything): its own value, not the training method's."""
    return any(isinstance(n, ast.Assign) and any(ast.unparse(t) == text for t, _ in _pairs(n))
               for n in _walk_local(scope))


@register
class BestStateDictKeptByReference(Rule):
    code = "PF188"
    name = "best-state-dict-kept-by-reference"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("The best epoch's weights are kept as `model.state_dict()` (references to the live tensors) and "
               "restored or saved after the loop: they are the last epoch's weights")
    needs_text = ("state_dict", "best")
    explanation = """
## What it finds

Inside a loop, under an `if` (the "is this the best epoch so far" test), a name or attribute
bound to `model.state_dict()` or to a shallow copy of it (`.copy()`, `copy.copy(...)`,
`dict(...)`, `OrderedDict(...)`, `{k: v for k, v in model.state_dict().items()}`), which the
same function hands on after that loop: `model.load_state_dict(best_state)`,
`torch.save(best_state, path)` (or a dict holding it), or `return best_state`.

The same for the model object itself: `best_model = model` where the function trains or
evaluates `model` (`model.parameters()`, `model.train()`, `model.eval()`), then saves
`best_model.state_dict()`, loads it or returns `best_model` after the loop (astnn issue 8,
"Shallow copy when finding best_model"): a second name for the object being trained. Silent
when the loop binds a different model on each pass (`for name, model in candidates.items()`,
or `model = make_model(cfg)` inside the loop).

## Why it matters

`state_dict()` returns a dict whose tensors *are* the module's parameters and buffers (detached
views sharing their storage), not a snapshot. Every later `optimizer.step()` changes them in
place, so the "best" dict silently follows training and, after the loop, holds the last
epoch's weights: restoring it is a no-op and the file saved as the best model is the last,
possibly overfitted one (PyPOTS issue 667; the same line in many copies of the transfer-learning
tutorial that predate its `copy.deepcopy`). `dict.copy()` and `copy.copy` do not help: they copy the dict,
not the tensors.

## How to fix it

Snapshot the tensors: `best_state = copy.deepcopy(model.state_dict())`, or
`{k: v.detach().clone() for k, v in model.state_dict().items()}` (add `.cpu()` to keep it off
the GPU), or write the checkpoint to disk at that point.

## When preflight stays silent

* The dict is copied (`copy.deepcopy(...)`, a comprehension that clones, `.cpu()` per tensor),
  or saved to disk inside the loop and never used after it.
* The assignment is not guarded by an `if` inside the loop (the last epoch's state, on purpose),
  or its branch leaves the loop at once (`break`/`return`: nothing trains after it).
* The name is bound again to a copy before it is used after the loop.
* The module is built anew earlier in the same loop (`for lr in lrs: model = Net(); ...`): the
  kept tensors belong to a model that nobody trains once the next iteration builds its own.
"""
    bad_examples = examples("preflight.rules.code._pf188_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf188_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        siblings: dict[int, list[ast.AST]] = {}
        for cls in ctx.nodes(ast.ClassDef):
            methods = [f for f in cls.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))]
            for f in methods:
                siblings[id(f)] = [m for m in methods if m is not f]
        scopes: list[_Scope] = [ctx.tree, *ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef)]
        for scope in scopes:
            yield from self._check_scope(ctx, scope, siblings.get(id(scope), []))

    def _check_scope(self, ctx: FileContext, scope: _Scope, others: list[ast.AST]) -> Iterator[Finding]:
        parents: Optional[dict[int, ast.AST]] = None
        seen: set[str] = set()
        for node in _walk_local(scope):
            if not isinstance(node, ast.Assign):
                continue
            pairs = [(t, v, _live_state_dict(v) or _live_model(v, scope)) for t, v in _pairs(node)]
            pairs = [(t, v, how) for t, v, how in pairs if how is not None]
            if not pairs:
                continue
            if parents is None:
                parents = _parents(scope)
            loop = _conditional_in_loop(node, parents)
            if loop is None:
                continue
            # after the loop that holds the "is it the best" test, training has moved on (the epoch loop, or the
            # inner loop of a k-fold or phase loop: a use after it, still inside the outer loop, is as late)
            end = getattr(loop, "end_lineno", loop.lineno) or loop.lineno
            for target, value, how in pairs:
                text = ast.unparse(target)
                if text in seen or not isinstance(target, (ast.Name, ast.Attribute)):
                    continue
                if _fresh_each_iteration(loop, value, node.lineno):
                    continue
                use = self._use_after(scope, text, end)
                if use is not None and _copied_before(scope, text, node.lineno, getattr(use[0], "lineno", 0)):
                    continue
                if use is None and text.startswith("self."):
                    # kept on the instance by the training method, restored by another method of the class
                    use = next((u for m in others if not _rebinds(m, text)
                                for u in [self._use_after(m, text, 0)] if u is not None), None)
                if use is None:
                    continue
                seen.add(text)
                yield self._finding(ctx, node, text, value, how or "", use)

    @staticmethod
    def _use_after(scope: ast.AST, text: str, end: int) -> Optional[tuple[ast.AST, str]]:
        found: Optional[tuple[ast.AST, str]] = None
        for node in _walk_local(scope):
            line = getattr(node, "lineno", 0)
            if line <= end:
                continue
            kind = _restores(node, text)
            if kind is not None and (found is None or line < getattr(found[0], "lineno", 0)):
                found = (node, kind)
        return found

    def _finding(self, ctx: FileContext, node: ast.Assign, text: str, value: ast.AST, how: str,
                 use: tuple[ast.AST, str]) -> Finding:
        shallow = (f" (`{how}` is a shallow copy: a new dict holding the same tensors)"
                   if how not in ("state_dict()", "model") else "")
        verb = {"load_state_dict": "restored", "save": "saved", "return": "returned"}[use[1]]
        use_line = getattr(use[0], "lineno", 0)
        if how == "model":
            return ctx.finding(
                self, node,
                f"`{text} = {ast.unparse(value)}` is a second name for the model being trained, not a copy: every "
                f"later optimizer step changes `{text}` too, so what is {verb} after training (line {use_line}) is "
                "the last epoch's model, not the best one; keep a snapshot (`copy.deepcopy(model)` or "
                "`copy.deepcopy(model.state_dict())`) or save the checkpoint to disk here",
                evidence=[ctx.evidence(use[0], f"the kept model is {verb} here, after training moved on")])
        return ctx.finding(
            self, node,
            f"`{text} = {ast.unparse(value)}` keeps references to the live parameters, not a copy{shallow}: "
            "every later optimizer step changes these \"best\" weights too, so what is "
            f"{verb} after training (line {use_line}) is the last epoch's weights, not the best one's; keep a "
            "snapshot (`copy.deepcopy(model.state_dict())` or `{k: v.detach().clone() for k, v in ...items()}`) or "
            "save the checkpoint to disk here",
            evidence=[ctx.evidence(use[0], f"the kept dict is {verb} here, after training moved on")])
