"""PF151 hydra-compose-drops-cli-overrides: a command line collects Hydra-style overrides (a function parameter
or an argparse argument named ``overrides``) but the config is built with ``compose(config_name=...)`` without
them, and nothing reads them: every override given at launch is silently ignored."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.syntax import keyword
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, is_from
from preflight.rules._pf414_support import const_str
from preflight.rules.base import Rule, examples


def _composes_without_overrides(ctx: FileContext) -> list[ast.Call]:
    """``hydra.compose(...)`` (or ``hydra.experimental.compose``) calls given no overrides."""
    return [call for call, qual in calls(ctx) if is_from(qual, "hydra", "compose")
            and keyword(call, "overrides") is None and len(call.args) < 2
            and not any(k.arg is None for k in call.keywords)]


def _unread_param(fn: ast.AST) -> Optional[ast.arg]:
    """A parameter of ``fn`` whose name says it holds overrides (``overrides``, ``hydra_overrides``) and that
    the function body never reads."""
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    args = fn.args
    for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs, *filter(None, (args.vararg,))]:
        if "override" not in arg.arg:
            continue
        if not any(isinstance(n, ast.Name) and n.id == arg.arg and isinstance(n.ctx, ast.Load)
                   for stmt in fn.body for n in ast.walk(stmt)):
            return arg
    return None


def _unread_argparse_dest(ctx: FileContext) -> Optional[ast.Call]:
    """``parser.add_argument("overrides", nargs=...)`` (a positional list, or ``--overrides``) whose value
    (``args.overrides``) the file never reads."""
    for call in ctx.nodes(ast.Call):
        if not (isinstance(call.func, ast.Attribute) and call.func.attr == "add_argument" and call.args):
            continue
        flag = const_str(call.args[-1])
        dest = const_str(keyword(call, "dest")) or (flag.lstrip("-").replace("-", "_") if flag else None)
        if not dest or "override" not in dest:
            continue
        read = any(isinstance(n, ast.Attribute) and n.attr == dest and isinstance(n.ctx, ast.Load)
                   for n in ctx.nodes(ast.Attribute))
        if not read and "vars(" not in ctx.parsed.source.text:
            return call
    return None


@register
class HydraComposeDropsCliOverrides(Rule):
    code = "PF151"
    name = "hydra-compose-drops-cli-overrides"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    needs_text = ("compose", "override")
    summary = ("the command line collects Hydra overrides but `compose(config_name=...)` is called without "
               "`overrides=` and nothing reads them: every override given at launch is silently ignored")
    explanation = """
## What it finds

A script that builds its config with Hydra's Compose API, `compose(config_name=...)` (from
`hydra`, or `hydra.experimental` before 1.1), passing no `overrides`, while its command line
collects Hydra-style overrides that nothing reads:

* a parameter of the function that composes, named `overrides` (or `hydra_overrides`,
  `cli_overrides`, ...; a click `@click.argument("overrides", nargs=-1)` or Typer argument),
  never read in its body; or
* an argparse argument named `overrides` (`parser.add_argument("overrides", nargs="*")`,
  `--overrides`, or `dest="overrides"`) whose value (`args.overrides`) the file never reads.

## Why it matters

Unlike `@hydra.main`, the Compose API does not read `sys.argv`: `compose()` applies only the
overrides handed to it. The command line accepts `trainer.max_epochs=5`, prints nothing, and the
run trains with the YAML's values (sleap-nn issue 301: "the config overrides ... doesn't work"
with `sleap-nn-train`), writing into the default output folders.

## How to fix it

`compose(config_name=config_name, overrides=list(overrides))`.

## When preflight stays silent

* `compose()` gets `overrides=` (or a second positional argument, or `**kwargs`).
* The overrides are read anywhere in the composing function (merged with
  `OmegaConf.from_dotlist(overrides)`, handed to a helper) or, for argparse, `args.overrides` is read
  anywhere in the file (or `vars(args)` hands every argument on).
* No parameter or argument name contains `override`.
"""
    bad_examples = examples("preflight.rules.code._pf151_examples", "PF151_BAD")
    good_examples = examples("preflight.rules.code._pf151_examples", "PF151_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        composes = _composes_without_overrides(ctx)
        if not composes:
            return
        parsed = _unread_argparse_dest(ctx)
        for call in composes:
            scope = ctx.enclosing_function(call)
            param = _unread_param(scope) if scope is not None else None
            held: Optional[ast.AST] = param or parsed
            if held is None:
                continue
            what = f"parameter `{param.arg}`" if param is not None else "argparse argument"
            yield ctx.finding(
                self, call,
                f"the command line collects Hydra overrides (the {what}, line {held.lineno}) but "  # type: ignore[attr-defined]
                f"`{ast.unparse(call.func)}(...)` is called without `overrides=` and nothing reads them: the Compose "
                "API does not read sys.argv, so every override given at launch is silently ignored and the run "
                "uses the YAML's values; pass `overrides=list(...)`",
                evidence=[ctx.evidence(held, "the overrides are collected here and never used")])
            return
