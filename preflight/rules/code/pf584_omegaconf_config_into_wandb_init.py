"""PF584 omegaconf-config-into-wandb-init: an OmegaConf ``DictConfig`` given to ``wandb.init(config=...)``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional, Union

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

Fn = Union[ast.FunctionDef, ast.AsyncFunctionDef]
_MAKERS = {"OmegaConf.load", "OmegaConf.create", "OmegaConf.merge", "OmegaConf.structured",
           "omegaconf.OmegaConf.load", "omegaconf.OmegaConf.create", "omegaconf.OmegaConf.merge",
           "omegaconf.OmegaConf.structured", "LazyConfig.load", "LazyConfig.apply_overrides",
           "hydra.compose", "compose"}
_MAX_DEPTH = 3


def _dotted(node: ast.AST) -> str:
    try:
        return ast.unparse(node)
    except Exception:  # pragma: no cover - unparse of a parsed tree
        return ""


def _root_name(node: ast.AST) -> Optional[str]:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _functions(tree: ast.AST) -> dict[str, Fn]:
    """Module-level functions, and classes as their ``__init__`` (by name)."""
    out: dict[str, Fn] = {}
    for node in getattr(tree, "body", []):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out[node.name] = node
        elif isinstance(node, ast.ClassDef):
            init = next((n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
            if init is not None:
                out[node.name] = init
    return out


def _params(fn: Fn) -> list[str]:
    names = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    if names and names[0] in ("self", "cls"):
        names = names[1:]
    return names


def _bound_param(fn: Fn, call: ast.Call, param: str) -> Optional[ast.expr]:
    """The argument ``call`` gives for ``param`` of ``fn`` (positional or keyword)."""
    for kw in call.keywords:
        if kw.arg == param:
            return kw.value
    names = _params(fn)
    if param in names:
        i = names.index(param)
        if i < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[:i + 1]):
            return call.args[i]
    return None


def _is_wandb_init(ctx: FileContext, call: ast.Call) -> bool:
    qual = scope_index(ctx).imports.qualify(call.func) or ""
    return qual in ("wandb.init", "wandb.sdk.init")


def _config_arg(call: ast.Call) -> Optional[ast.expr]:
    return next((kw.value for kw in call.keywords if kw.arg == "config"), None)


class _Flow:
    """Where DictConfigs come from in one file, and where a parameter of a function reaches
    ``wandb.init(config=...)``."""

    def __init__(self, ctx: FileContext) -> None:
        self.ctx = ctx
        self.funcs = _functions(ctx.tree)
        self.calls: dict[str, list[tuple[ast.Call, Optional[Fn]]]] = {}
        for fn in [*(n for n in ast.walk(ctx.tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))),
                   None]:
            body = fn if fn is not None else ctx.tree
            for node in ast.walk(body):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                    if fn is None and ctx.enclosing_function(node) is not None:
                        continue
                    if fn is not None and ctx.enclosing_function(node) is not fn:
                        continue
                    self.calls.setdefault(node.func.id, []).append((node, fn))

    # -- sources -------------------------------------------------------------
    def is_dictconfig(self, expr: ast.AST, fn: Optional[Fn], depth: int = 0) -> bool:
        if depth > _MAX_DEPTH:
            return False
        if isinstance(expr, ast.Attribute):
            return self.is_dictconfig(expr.value, fn, depth)
        if isinstance(expr, ast.Call):
            qual = scope_index(self.ctx).imports.qualify(expr.func) or _dotted(expr.func)
            return qual in _MAKERS or any(qual.endswith("." + m) for m in _MAKERS)
        if not isinstance(expr, ast.Name):
            return False
        name = expr.id
        scope = fn if fn is not None else self.ctx.tree
        values = [n.value for n in ast.walk(scope) if isinstance(n, ast.Assign) and getattr(n, "lineno", 0)
                  < getattr(expr, "lineno", 0) and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)
                  and (fn is None or self.ctx.enclosing_function(n) is fn)]
        if values:
            return all(self.is_dictconfig(v, fn, depth + 1) for v in values)
        if fn is None or name not in _params(fn):
            return False
        arg = next((a for a in (*fn.args.posonlyargs, *fn.args.args) if a.arg == name), None)
        if arg is not None and arg.annotation is not None and _dotted(arg.annotation).endswith("DictConfig"):
            return True
        if any("hydra.main" in _dotted(d) or _dotted(d).startswith("main(") for d in fn.decorator_list):
            return _params(fn)[:1] == [name]
        owner = self._name_of(fn)
        sites = self.calls.get(owner, []) if owner else []
        given = [(_bound_param(fn, call, name), caller) for call, caller in sites]
        return bool(given) and all(g is not None and self.is_dictconfig(g, caller, depth + 1) for g, caller in given)

    def _name_of(self, fn: Fn) -> Optional[str]:
        return next((k for k, v in self.funcs.items() if v is fn), None)

    # -- sinks ---------------------------------------------------------------
    def param_reaches_wandb(self, fn: Fn, param: str, depth: int = 0) -> Optional[ast.Call]:
        """The ``wandb.init`` call that receives ``param`` of ``fn`` (or a node of it) as ``config``,
        directly or through the functions and classes of this file it is handed to."""
        if depth > _MAX_DEPTH:
            return None
        for node in ast.walk(fn):
            if not isinstance(node, ast.Call) or self.ctx.enclosing_function(node) is not fn:
                continue
            if _is_wandb_init(self.ctx, node):
                given = _config_arg(node)
                if given is not None and _root_name(given) == param:
                    return node
                continue
            if not isinstance(node.func, ast.Name) or node.func.id not in self.funcs:
                continue
            callee = self.funcs[node.func.id]
            for p in _params(callee):
                arg = _bound_param(callee, node, p)
                if arg is not None and _root_name(arg) == param and not isinstance(arg, ast.Call):
                    found = self.param_reaches_wandb(callee, p, depth + 1)
                    if found is not None:
                        return found
        return None


@register
class OmegaConfConfigIntoWandbInit(Rule):
    code = "PF584"
    name = "omegaconf-config-into-wandb-init"
    severity = Severity.WARNING
    category = Category.CONFIG
    summary = "An OmegaConf DictConfig is passed to wandb.init(config=...) without OmegaConf.to_container"
    frameworks = ("hydra",)
    needs_text = ("wandb",)
    explanation = """
## What it finds

`wandb.init(config=cfg)` where `cfg` is an OmegaConf `DictConfig`: the config of a
`@hydra.main` function (or a parameter annotated `DictConfig`), the result of
`OmegaConf.load/create/merge`, Hydra's `compose`, detectron2's `LazyConfig.load`, or a
node of one (`cfg.train`), directly or handed through the functions and classes of the
file (`WandbWriter(config=cfg)` whose `__init__` calls `wandb.init(config=config)`), and
through a function imported from a module of the project (one level).

## Why it matters

wandb turns `config` into a dict with `wandb_helper.parse_config` → `_to_dict`: a `dict`
is kept, anything else must be a flags module or have a `__dict__`, and is replaced by
`vars(params)`. A `DictConfig` is not a `dict`; its `vars()` are OmegaConf internals
(`_content`, `_metadata`, `_parent`), not the settings, so `wandb.init` fails while
serialising them or the run records no usable hyperparameters (detrex issue 301: enabling
wandb crashed in `wandb.init`, fixed by `OmegaConf.to_container(cfg, resolve=True)`).
The W&B Hydra guide says to convert the same way.

## How to fix it

Pass `OmegaConf.to_container(cfg, resolve=True)` (add `throw_on_missing=True` to fail
early on `???` values).

## When preflight stays silent

* The config is converted first (`OmegaConf.to_container`, `to_object`, `dict(...)`),
  or it is not known to be a `DictConfig` (a parameter whose callers preflight cannot
  see, an `argparse` namespace, a plain dict).
* `wandb.config.update(...)` and other loggers are not looked at.
"""
    bad_examples = examples("preflight.rules.code._pf584_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf584_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        flow = _Flow(ctx)
        for node in ast.walk(ctx.tree):
            if not isinstance(node, ast.Call):
                continue
            fn = ctx.enclosing_function(node)
            fn = fn if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
            if _is_wandb_init(ctx, node):
                given = _config_arg(node)
                if given is not None and flow.is_dictconfig(given, fn):
                    yield ctx.finding(self, node, self._message(_dotted(given)))
                continue
            if isinstance(node.func, ast.Name) and node.func.id not in flow.funcs:
                yield from self._imported(ctx, flow, node, fn)

    def _imported(self, ctx: FileContext, flow: _Flow, call: ast.Call, fn: Optional[Fn]) -> Iterable[Finding]:
        from preflight.analysis.project_imports import imported_function

        args = [a for a in (*call.args, *(k.value for k in call.keywords)) if not isinstance(a, ast.Starred)]
        if not any(isinstance(a, (ast.Name, ast.Attribute)) for a in args):
            return
        if not any(flow.is_dictconfig(a, fn) for a in args if isinstance(a, (ast.Name, ast.Attribute))):
            return
        got = imported_function(ctx, call)
        if got is None:
            return
        other, definition, display = got
        if "wandb" not in ast.unparse(definition) and "wandb" not in (other.parsed.source.text or ""):
            return
        theirs = _Flow(other)
        for p in _params(definition):
            arg = _bound_param(definition, call, p)
            if arg is None or not flow.is_dictconfig(arg, fn):
                continue
            sink = theirs.param_reaches_wandb(definition, p)
            if sink is not None:
                message = self._message(_dotted(arg)) + (
                    f" (`{definition.name}()` in {display} hands it on as `{p}` to `wandb.init(config=...)` "
                    f"at line {sink.lineno})")
                yield ctx.finding(self, call, message)
                return

    @staticmethod
    def _message(given: str) -> str:
        return (f"`{given}` is an OmegaConf DictConfig and reaches `wandb.init(config=...)`: wandb keeps only a "
                f"real `dict` and otherwise takes `vars(config)`, which for a DictConfig are OmegaConf internals, "
                f"not the settings, so `wandb.init` fails or the run records no usable config. Pass "
                f"`OmegaConf.to_container({given}, resolve=True)`")
