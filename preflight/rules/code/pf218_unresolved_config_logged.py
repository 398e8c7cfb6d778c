"""PF218 unresolved-config-logged: ``OmegaConf.to_container(cfg)`` without ``resolve=True`` whose
result is handed to an experiment logger (every ``${...}`` interpolation is logged as text)."""

from __future__ import annotations

import ast
from typing import Iterable, Optional, Sequence

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

# logger calls that take hyperparameters positionally or by any keyword
_SINK_ATTRS = frozenset({"log_hyperparams", "log_params", "add_hparams", "save_hyperparameters"})
# calls that take them only as ``config=``
_CONFIG_KW_ATTRS = frozenset({"init_trackers"})


def _dotted(node: ast.AST) -> str:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    elif isinstance(node, ast.Call):
        parts.append(_dotted(node.func) + "()")
    return ".".join(reversed(parts))


def _unresolved_to_container(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return False
    if node.func.attr != "to_container" or not _dotted(node.func.value).endswith("OmegaConf"):
        return False
    if not node.args or any(k.arg is None for k in node.keywords):
        return False
    for kw in node.keywords:
        if kw.arg == "resolve":
            return isinstance(kw.value, ast.Constant) and kw.value.value is False
    return True


def _sink_values(call: ast.Call) -> Optional[tuple[str, list[ast.expr]]]:
    """(the sink's name, the arguments that carry hyperparameters) of a logger call, or None."""
    func = call.func
    configs = [k.value for k in call.keywords if k.arg == "config"]
    if _dotted(func).endswith("WandbLogger") and configs:  # Lightning's WandbLogger hands it to wandb.init
        return _dotted(func), configs
    if not isinstance(func, ast.Attribute):
        return None
    name = _dotted(func)
    if func.attr in _SINK_ATTRS:
        return name, [*call.args, *(k.value for k in call.keywords)]
    if func.attr in _CONFIG_KW_ATTRS and configs:
        return name, configs
    if func.attr == "init" and name.split(".")[0] == "wandb" and configs:
        return name, configs
    if func.attr == "update" and name.endswith("config.update") and (
            name.startswith("wandb.") or ".experiment." in f".{name}"):
        return name, [*call.args]
    return None


def _root_name(node: ast.AST) -> Optional[str]:
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


@register
class UnresolvedConfigLogged(Rule):
    code = "PF218"
    name = "unresolved-config-logged"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("`OmegaConf.to_container(cfg)` without `resolve=True` is logged as hyperparameters: every `${...}` "
               "interpolation reaches the logger as its literal text")
    frameworks = ("hydra",)
    needs_text = ("to_container",)
    explanation = """
## What it finds

In one function, the result of `OmegaConf.to_container(cfg...)` called without
`resolve=True` (or with `resolve=False`) reaching an experiment logger: directly as
an argument, or through the names and dict entries it is assigned to
(`hparams["model"] = OmegaConf.to_container(cfg["model"])` ... `logger.log_hyperparams(hparams)`).
Loggers: `log_hyperparams` (Lightning loggers), `save_hyperparameters`,
`log_params` (MLflow), `add_hparams` (TensorBoard), `wandb.init(config=...)`,
`wandb.config.update(...)`/`*.experiment.config.update(...)`,
`accelerator.init_trackers(..., config=...)`, Lightning's `WandbLogger(config=...)`.

## Why it matters

`OmegaConf.to_container(cfg, *, resolve=False, ...)`: by default the container keeps
every interpolation as its source text (omegaconf 2.x, `omegaconf.py`; the docs:
"resolve: True to resolve all interpolations"). A Hydra config interpolates widely
(`output_size: ${data.num_classes}`, `max_epochs: ${trainer.max_epochs}`,
`${paths.output_dir}`), so the run's logged hyperparameters show `"${data.num_classes}"`
instead of `10`, and runs cannot be compared or filtered by them
(lightning-hydra-template issue 615, the template's own `log_hyperparameters`).

## How to fix it

`OmegaConf.to_container(cfg, resolve=True)` for everything that is logged (or
`OmegaConf.resolve(cfg)` once before converting).

## When preflight stays silent

* `resolve=True` (or a `**kwargs` that may carry it), or the file calls
  `OmegaConf.resolve(...)`.
* The container is used for something other than logging (a constructor's keyword
  arguments, a YAML dump meant to keep the interpolations).
* Taint is followed by names in statement order within one function; a rebinding of
  the name to something else ends it.
"""
    bad_examples = examples("preflight.rules.code._pf218_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf218_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if not ctx.mentions("to_container") or ctx.mentions("OmegaConf.resolve"):
            return
        scopes: list[ast.AST] = [n for n in ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef)]
        scopes.append(ctx.tree)
        reported: set[int] = set()
        for scope in scopes:
            yield from self._scope(ctx, scope, reported)

    def _scope(self, ctx: FileContext, scope: ast.AST, reported: set[int]) -> Iterable[Finding]:
        body_nodes = [n for n in ast.walk(scope) if ctx.enclosing_function(n) is (
            scope if not isinstance(scope, ast.Module) else None)]
        events: list[tuple[int, int, ast.AST]] = []
        for node in body_nodes:
            assigns = isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and (
                getattr(node, "value", None) is not None)
            if assigns or (isinstance(node, ast.Call) and _sink_values(node) is not None):
                events.append((getattr(node, "lineno", 0), getattr(node, "col_offset", 0), node))
        events.sort(key=lambda e: (e[0], e[1]))
        tainted: dict[str, ast.Call] = {}
        for _, _, node in events:
            if isinstance(node, ast.Call):
                sink = _sink_values(node)
                assert sink is not None
                name, values = sink
                source = self._carried(values, tainted)
                if source is not None and id(source) not in reported:
                    reported.add(id(source))
                    yield ctx.finding(
                        self, source,
                        f"`{ast.unparse(source)[:80]}` keeps every `${{...}}` interpolation as text (`resolve` "
                        f"defaults to False), and the container is logged by `{name}(...)` at line {node.lineno}: "
                        "the run's hyperparameters show the interpolation strings, not their values; pass "
                        "`resolve=True`",
                        evidence=[ctx.evidence(node, "logged here")])
                continue
            value = node.value  # type: ignore[attr-defined]
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]  # type: ignore[attr-defined]
            source = self._carried([value], tainted)
            for target in targets:
                root = _root_name(target)
                if root is None:
                    continue
                if source is not None:
                    tainted[root] = source
                elif isinstance(target, ast.Name) and not isinstance(node, ast.AugAssign):
                    tainted.pop(root, None)

    def _carried(self, values: Sequence[ast.AST], tainted: dict[str, ast.Call]) -> Optional[ast.Call]:
        for value in values:
            for sub in ast.walk(value):
                if _unresolved_to_container(sub):
                    assert isinstance(sub, ast.Call)
                    return sub
                if isinstance(sub, ast.Name) and sub.id in tainted:
                    return tainted[sub.id]
        return None
