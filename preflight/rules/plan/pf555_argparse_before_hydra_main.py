"""PF555 argparse-before-hydra-main: ``parser.parse_args()`` reads the command line of a ``@hydra.main`` app
before Hydra does, and the launch passes Hydra overrides it does not know."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

# reading the command line in a way that leaves Hydra's overrides alone
_TOLERANT = ("parse_known_args", "sys.argv", "REMAINDER")


def _module_level(tree: ast.Module) -> Iterable[ast.stmt]:
    """Statements that run at import or under ``if __name__ == "__main__":``, in order."""
    for stmt in tree.body:
        if isinstance(stmt, ast.If) and "__name__" in ast.unparse(stmt.test):
            yield from stmt.body
        elif not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import,
                                   ast.ImportFrom)):
            yield stmt


def _strict_parse(tree: ast.Module) -> Optional[ast.Call]:
    """The first ``x.parse_args()`` (no argument list given) that runs at module level."""
    for stmt in _module_level(tree):
        for node in ast.walk(stmt):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "parse_args" and not node.args and not node.keywords:
                return node
    return None


def _takes_positionals(tree: ast.Module) -> bool:
    """Whether some parser of the file declares a positional argument (it would swallow overrides)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument" \
                and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str) \
                and not node.args[0].value.startswith("-"):
            return True
    return False


@register
class ArgparseBeforeHydraMain(PlanRule):
    code = "PF555"
    name = "argparse-before-hydra-main"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = "`parser.parse_args()` reads the command line before `@hydra.main`, and the launch passes Hydra overrides"
    explanation = """
## What it finds

A script whose entry point is `@hydra.main` that also calls an argparse parser's
`parse_args()` at module level (or under `if __name__ == "__main__":`) before the app
runs, launched with Hydra overrides (`optimizer.lr=0.05`).

## Why it matters

`parse_args()` reads `sys.argv[1:]`; an override such as `optimizer.lr=0.05` is no
option of that parser, so argparse prints "error: unrecognized arguments:
optimizer.lr=0.05" and exits with status 2 before Hydra sees the command line (hydra
issue 443: "unrecognized arguments: db.user=root").

## How to fix it

Move the option into the Hydra config (`verbosity: false`, set with
`verbosity=true`), or read only what is yours with `parser.parse_known_args()` and
leave the rest in `sys.argv` for Hydra.

## When preflight stays silent

* No launch command, or it passes no `key=value` override.
* The script uses `parse_known_args`, touches `sys.argv`, gives `parse_args` an
  argument list, or declares a positional argument / `argparse.REMAINDER`.
* The `parse_args()` call is inside a function (preflight does not follow when it runs).
"""
    bad_examples = examples("preflight.rules.plan._pf555_examples", "PF555_BAD")
    good_examples = examples("preflight.rules.plan._pf555_examples", "PF555_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        try:
            from preflight.adapters.hydra import find_apps
        except ImportError:  # pragma: no cover - the adapter ships with preflight
            return
        project = pctx.project
        if not project.argv:
            return
        for app in find_apps(project):
            script = app.script
            if script is None or app.how != "@hydra.main":
                continue
            text = script.text if script.text is not None else script.source.text
            if "parse_args" not in text or any(word in text for word in _TOLERANT):
                continue
            overrides = [tok for tok in project.script_args(script) if not tok.startswith("-") and "=" in tok]
            if not overrides:
                continue
            call = _strict_parse(script.tree)
            if call is None or _takes_positionals(script.tree):
                continue
            evidence = [Evidence(line=app.line or 1, path=script.source.display,
                                 message="the @hydra.main app that should read these overrides")]
            if project.launch_at is not None:
                path, line = project.launch_at
                evidence.append(Evidence(line=line, path=path, message="the launch passes the overrides"))
            yield pctx.code_finding(
                self, script, call,
                f"`{ast.unparse(call)}` reads the command line before Hydra does, and the launch passes Hydra "
                f"overrides (`{' '.join(overrides[:3])}`) that are no options of this parser: argparse exits with "
                f"\"unrecognized arguments: {overrides[0]}\" before the app starts. Put the option in the Hydra "
                "config, or use `parser.parse_known_args()`", evidence=evidence)
