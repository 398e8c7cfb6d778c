"""The metric keys a LightningModule logs (``self.log``/``self.log_dict``), shared by PF543 (callback monitors)
and PF685 (ReduceLROnPlateau monitors): each key as a pattern, and the fitted modules whose whole class
hierarchy is in view."""

from __future__ import annotations

import ast
import re
from typing import Optional

from preflight.plan_rules import PlanContext
from preflight.sources import ParsedPython

_BUILTIN = ("epoch", "step")
_LIGHTNING_BASES = ("LightningModule",)
_LOGGERS = ("self", "pl_module", "lightning_module")  # the module's own log, or a callback's


def key_pattern(node: ast.AST) -> Optional[str]:
    """A regex for the key a ``log`` call writes: a literal, an f-string or ``"val_" + name``
    (each unknown part as ``.+``); None when the key is not written out."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return re.escape(node.value)
    if isinstance(node, ast.JoinedStr):
        return "".join(re.escape(v.value) if isinstance(v, ast.Constant) and isinstance(v.value, str) else ".+"
                       for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = key_pattern(node.left), key_pattern(node.right)
        if left is None and right is None:
            return None
        return (left or ".+") + (right or ".+")
    return None


class LoggedKeys:
    """Every key the audited scripts log (``x.log(key, value)``, ``x.log_dict({...})``, a dict comprehension's
    key pattern), or
    ``complete=False`` when some key is not written out."""

    def __init__(self) -> None:
        self.patterns: list[str] = []
        self.complete = True

    def read(self, tree: ast.AST, follow_helpers: bool = False) -> None:
        """``follow_helpers``: ``self.log_dict(name)`` where ``name`` is bound once in the method from a
        dict (or a tuple item holding one) that another method of the class returns reads that dict's keys,
        an f-string part naming a parameter taking the call site's string literal (PF685)."""
        where: dict[int, tuple[ast.AST, dict[str, ast.AST]]] = {}
        if follow_helpers:
            for cls in ast.walk(tree):
                if not isinstance(cls, ast.ClassDef):
                    continue
                methods: dict[str, ast.AST] = {f.name: f for f in cls.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
                for fn in methods.values():
                    for call in ast.walk(fn):
                        where[id(call)] = (fn, methods)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("log", "log_dict") and isinstance(node.func.value, ast.Name)
                    and node.func.value.id in _LOGGERS):
                continue
            if node.func.attr == "log":
                key = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "name"), None)
                pattern = key_pattern(key) if key is not None else None
                if pattern is None:
                    self.complete = False
                else:
                    self.patterns.append(pattern)
                continue
            arg = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "dictionary"),
                                                      None)
            if isinstance(arg, ast.Name) and id(node) in where:
                keys = helper_dict_keys(*where[id(node)], arg.id)
                if keys is None:
                    self.complete = False
                else:
                    self.patterns.extend(keys)
                continue
            if isinstance(arg, ast.DictComp):  # {f"train/{k}": v for k, v in d.items()}: every key fits one pattern
                pattern = key_pattern(arg.key)
                if pattern is None:
                    self.complete = False
                else:
                    self.patterns.append(pattern)
                continue
            if not isinstance(arg, ast.Dict) or any(k is None for k in arg.keys):
                self.complete = False
                continue
            for k in arg.keys:
                pattern = key_pattern(k) if k is not None else None
                if pattern is None:
                    self.complete = False
                else:
                    self.patterns.append(pattern)

    def has(self, key: str) -> bool:
        if key in _BUILTIN:
            return True
        stem = re.sub(r"_(step|epoch)$", "", key)  # on_step/on_epoch suffixes
        return any(re.fullmatch(p, key) or re.fullmatch(p, stem) for p in self.patterns)


def module_classes(scripts: list[ParsedPython]) -> dict[str, ast.ClassDef]:
    return {n.name: n for s in scripts for n in ast.walk(s.tree) if isinstance(n, ast.ClassDef)}


def lightning_class(name: str, classes: dict[str, ast.ClassDef], depth: int = 0) -> bool:
    """``name`` is defined in the audited scripts and all its bases are LightningModule or such
    classes: every ``self.log`` it inherits is in view."""
    cls = classes.get(name)
    if cls is None or depth > 6 or not cls.bases:
        return False
    for base in cls.bases:
        text = ast.unparse(base).rsplit(".", 1)[-1]
        if text in _LIGHTNING_BASES:
            continue
        if not lightning_class(text, classes, depth + 1):
            return False
    return True


def fitted_modules(scripts: list[ParsedPython]) -> list[str]:
    """Class names of the modules handed to ``trainer.fit(...)`` (through a name bound once)."""
    built: dict[str, str] = {}
    fitted: list[Optional[str]] = []
    for script in scripts:
        for node in ast.walk(script.tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and len(node.targets) == 1 \
                    and isinstance(node.targets[0], ast.Name):
                func = node.value.func
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
                if name is not None:
                    built[node.targets[0].id] = name
        for node in ast.walk(script.tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "fit":
                arg = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "model"), None)
                if isinstance(arg, ast.Name):
                    fitted.append(built.get(arg.id))
                elif isinstance(arg, ast.Call):
                    func = arg.func
                    fitted.append(func.id if isinstance(func, ast.Name) else None)
                else:
                    fitted.append(None)
    return [f for f in fitted if f is not None] if all(f is not None for f in fitted) else []


def imported_module_class(pctx: PlanContext, name: str) -> Optional[ast.ClassDef]:
    """The class ``name`` imported by an audited script from a module of the project (one level)."""
    from preflight.analysis.project_imports import imported_class

    for script in pctx.scripts:
        got = imported_class(pctx.file_context(script), name)
        if got is not None:
            return got[1]
    return None


def _binds(node: ast.AST, name: str) -> bool:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
        if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For)) else []
    return any(isinstance(t, ast.Name) and t.id == name for target in targets for t in ast.walk(target))


def helper_dict_keys(fn: ast.AST, methods: dict[str, ast.AST], name: str) -> Optional[list[str]]:
    """The key patterns of the dict ``name`` holds in ``fn`` when it is bound once, by ``name = self.m(...)``
    or ``name, other = self.m(...)``, and every ``return`` of the class's method ``m`` gives a dict literal
    there; None when that cannot be read (or ``name`` is changed after)."""
    binds = [n for n in ast.walk(fn) if _binds(n, name)]
    if len(binds) != 1 or not isinstance(binds[0], ast.Assign) or len(binds[0].targets) != 1:
        return None
    for n in ast.walk(fn):  # name["k"] = v, name.update(...)
        if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Store) and isinstance(n.value, ast.Name) \
                and n.value.id == name:
            return None
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) \
                and n.func.value.id == name and n.func.attr in ("update", "__setitem__", "setdefault"):
            return None
    target, call = binds[0].targets[0], binds[0].value
    index: Optional[int] = None
    if isinstance(target, ast.Tuple):
        names = [t.id if isinstance(t, ast.Name) else None for t in target.elts]
        if name not in names:
            return None
        index = names.index(name)
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and isinstance(call.func.value, ast.Name) and call.func.value.id == "self"):
        return None
    helper = methods.get(call.func.attr)
    if not isinstance(helper, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    params = [a.arg for a in helper.args.args][1:]
    bound: dict[str, str] = {}
    for param, default in zip(params[len(params) - len(helper.args.defaults):], helper.args.defaults):
        if isinstance(default, ast.Constant) and isinstance(default.value, str):
            bound[param] = default.value
    given = [(p, a) for p, a in zip(params, call.args)] + [(k.arg, k.value) for k in call.keywords if k.arg]
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    for param, arg in given:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            bound[param] = arg.value
        else:
            bound.pop(param, None)
    returns = [r for r in ast.walk(helper) if isinstance(r, ast.Return)]
    if not returns:
        return None
    out: list[str] = []
    for ret in returns:
        value: Optional[ast.expr] = ret.value
        if index is not None:
            if not isinstance(value, ast.Tuple) or len(value.elts) <= index:
                return None
            value = value.elts[index]
        if not isinstance(value, ast.Dict) or any(k is None for k in value.keys):
            return None
        for key in value.keys:
            pattern = _bound_pattern(key, bound) if key is not None else None
            if pattern is None:
                return None
            out.append(pattern)
    return out


def _bound_pattern(node: ast.AST, bound: dict[str, str]) -> Optional[str]:
    """``key_pattern`` with the f-string parts that name a parameter bound to a string literal filled in."""
    if isinstance(node, ast.JoinedStr):
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant) and isinstance(v.value, str):
                parts.append(re.escape(v.value))
            elif isinstance(v, ast.FormattedValue) and isinstance(v.value, ast.Name) and v.value.id in bound \
                    and v.format_spec is None and v.conversion == -1:
                parts.append(re.escape(bound[v.value.id]))
            else:
                parts.append(".+")
        return "".join(parts)
    return key_pattern(node)
