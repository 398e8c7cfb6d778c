"""PF300 wandb-run-config-assigned: ``run.config = {...}`` on the run ``wandb.init`` returned (or ``wandb.run``);
``Run.config`` is a read-only property, so the assignment raises AttributeError right after the run starts."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import qualify
from preflight.rules.base import Rule, examples

_INIT = frozenset({"wandb.init", "wandb.sdk.init", "wandb.sdk.wandb_init.init"})
_LOGGERS = ("WandbLogger",)


def _scope(ctx: FileContext, node: ast.AST) -> ast.AST:
    return ctx.enclosing_function(node) or ctx.tree


def _run_names(ctx: FileContext, scope: ast.AST) -> dict[str, ast.AST]:
    """Names that hold the wandb Run in ``scope`` (``run = wandb.init(...)``, ``with wandb.init(...) as run``),
    and names that hold a Lightning ``WandbLogger`` (whose ``.experiment`` is the Run), with the binding."""
    out: dict[str, ast.AST] = {}
    other: set[str] = set()
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign):
            for tgt in node.targets:
                if not isinstance(tgt, ast.Name):
                    continue
                if isinstance(node.value, ast.Call) and (
                        qualify(ctx, node.value.func) in _INIT
                        or qualify(ctx, node.value.func).rsplit(".", 1)[-1] in _LOGGERS):
                    out.setdefault(tgt.id, node.value)
                else:
                    other.add(tgt.id)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                var = item.optional_vars
                if isinstance(var, ast.Name) and isinstance(item.context_expr, ast.Call) and \
                        qualify(ctx, item.context_expr.func) in _INIT:
                    out.setdefault(var.id, item.context_expr)
    return {k: v for k, v in out.items() if k not in other}  # rebound to something else: not followed


def _run_of(ctx: FileContext, target: ast.AST, names: dict[str, ast.AST]) -> Optional[str]:
    """How the Run is named when ``target`` is a Run expression: ``run``, ``wandb.run``,
    ``logger.experiment`` of a WandbLogger."""
    if isinstance(target, ast.Name) and target.id in names and isinstance(names[target.id], ast.Call) and \
            qualify(ctx, names[target.id].func) in _INIT:  # type: ignore[attr-defined]
        return target.id
    if isinstance(target, ast.Attribute) and target.attr == "run" and qualify(ctx, target) == "wandb.run":
        return "wandb.run"
    if isinstance(target, ast.Attribute) and target.attr == "experiment" and isinstance(target.value, ast.Name) \
            and target.value.id in names and qualify(
                ctx, names[target.value.id].func).rsplit(".", 1)[-1] in _LOGGERS:  # type: ignore[attr-defined]
        return ast.unparse(target)
    return None


@register
class WandbRunConfigAssigned(Rule):
    code = "PF300"
    name = "wandb-run-config-assigned"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    needs_text = ("wandb", ".config")
    summary = ("`run.config = ...` on the Run `wandb.init` returned: `Run.config` is a read-only property, "
               "so the assignment raises AttributeError as soon as the run starts")
    explanation = """
## What it finds

An assignment to `.config` of a wandb run: `run.config = ...` where `run` is what
`wandb.init(...)` returned in the same function (`run = wandb.init(...)` or
`with wandb.init(...) as run:`), `wandb.run.config = ...`, or `logger.experiment.config = ...`
for a Lightning `WandbLogger`.

## Why it matters

`wandb.sdk.wandb_run.Run.config` is a property without a setter (every release of the
current SDK, 0.10 and later). The assignment raises `AttributeError: property 'config' of 'Run'
object has no setter` ("can't set attribute" before Python 3.11) right after `wandb.init`: the job
dies before training, and no hyperparameters are logged. The shape comes from wandb's own Hydra
integration page, which showed `run.config = omegaconf.OmegaConf.to_container(cfg, ...)`
(wandb/docs#1964 "Hydra integration gives AttributeError: property 'config' of 'Run' object has
no setter"; fixed in wandb/docs PR 2822: "`run.config` is a read-only property, so `run.config =
...` raises an `AttributeError`").

## How to fix it

Pass the values when the run starts, `wandb.init(config=OmegaConf.to_container(cfg, resolve=True))`,
or add them to the existing config: `run.config.update(...)`.

## When preflight stays silent

* The object is not a Run that preflight can tie to `wandb.init` in the same function: a public-API
  run (`wandb.Api().run(path)`, whose `config` is a plain attribute written back with
  `run.update()`), a name rebound to something else, or an attribute of another object.
* `run.config.update(...)`, `run.config["lr"] = ...`, `run.config.lr = ...` (item and attribute
  writes on the Config object are supported).
"""
    bad_examples = examples("preflight.rules.code._pf300_examples", "PF300_BAD")
    good_examples = examples("preflight.rules.code._pf300_examples", "PF300_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        cache: dict[int, dict[str, ast.AST]] = {}
        for node in ctx.nodes(ast.Assign, ast.AnnAssign, ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for tgt in targets:
                if not (isinstance(tgt, ast.Attribute) and tgt.attr == "config"):
                    continue
                scope = _scope(ctx, node)
                names = cache.get(id(scope))
                if names is None:
                    names = cache[id(scope)] = _run_names(ctx, scope)
                run = _run_of(ctx, tgt.value, names)
                if run is None:
                    continue
                yield ctx.finding(
                    self, node,
                    f"`{run}.config = ...` assigns to `Run.config`, a read-only property of the wandb Run: it "
                    "raises AttributeError (\"property 'config' of 'Run' object has no setter\") right after "
                    "`wandb.init`, so the job stops before training and the config is never logged. Pass it as "
                    f"`wandb.init(config=...)` or call `{run}.config.update(...)`")
