"""PF555 argparse-before-hydra-main: ``parser.parse_args()`` reads the command line of a ``@hydra.main`` app
before Hydra does, and the launch passes Hydra overrides it does not know."""

from __future__ import annotations

import ast
import os
from typing import Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.sources import ParsedPython

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


_IMPORT_DEPTH = 4  # project modules followed from the app's own imports


def _runs_on_import(tree: ast.Module) -> Iterable[ast.stmt]:
    """Top-level statements an ``import`` of the module runs (not its ``if __name__ == "__main__":`` block,
    not its functions and classes)."""
    for stmt in tree.body:
        if isinstance(stmt, ast.If) and "__name__" in ast.unparse(stmt.test):
            continue
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield stmt


def _parse_on_import(tree: ast.Module) -> Optional[ast.Call]:
    """The first ``x.parse_args()`` (no argument list) that importing the module runs."""
    for stmt in _runs_on_import(tree):
        for node in ast.walk(stmt):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "parse_args" and not node.args and not node.keywords:
                return node
    return None


def _imports(tree: ast.Module) -> Iterable[tuple[ast.stmt, int, list[str]]]:
    """(statement, level, dotted names it may load) for each import that runs when the module runs or is
    imported: ``from a import b`` may load ``a`` and the submodule ``a.b``."""
    for stmt in _runs_on_import(tree):
        for node in ast.walk(stmt):
            if isinstance(node, ast.Import):
                yield node, 0, [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                names = [base] if base else []
                names += [f"{base}.{a.name}" if base else a.name for a in node.names if a.name != "*"]
                yield node, node.level, names


def _module_index(scripts: list[ParsedPython]) -> tuple[dict[str, list[ParsedPython]], dict[str, ParsedPython]]:
    """Project scripts by every dotted tail of their path (``src.utils.pooling``, ``utils.pooling``,
    ``pooling``; a package by its folder) and by their real path."""
    by_name: dict[str, list[ParsedPython]] = {}
    by_path: dict[str, ParsedPython] = {}
    for script in scripts:
        path = os.path.realpath(str(script.source.path))
        by_path[path] = script
        parts = path.split(os.sep)
        parts[-1] = parts[-1][:-3] if parts[-1].endswith(".py") else parts[-1]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        for i in range(max(len(parts) - 4, 1), len(parts)):
            by_name.setdefault(".".join(parts[i:]), []).append(script)
    return by_name, by_path


def _resolve(name: str, level: int, importer: ParsedPython, by_name: dict[str, list[ParsedPython]],
             by_path: dict[str, ParsedPython]) -> Optional[ParsedPython]:
    if level:
        folder = os.path.dirname(os.path.realpath(str(importer.source.path)))
        for _ in range(level - 1):
            folder = os.path.dirname(folder)
        target = os.path.join(folder, *name.split(".")) if name else folder
        return by_path.get(target + ".py") or by_path.get(os.path.join(target, "__init__.py"))
    found = by_name.get(name, [])
    return found[0] if len(found) == 1 else None


def _imported_parse(scripts: list[ParsedPython], app: ParsedPython) -> Optional[tuple[ParsedPython, ast.Call, ast.stmt]]:
    """A project module the app imports (directly or through other project modules) whose import runs a
    strict ``parse_args()``, with the app's import statement that leads to it."""
    by_name, by_path = _module_index(scripts)
    seen = {id(app)}
    frontier: list[tuple[ParsedPython, ast.stmt]] = []
    for stmt, level, names in _imports(app.tree):
        for name in names:
            found = _resolve(name, level, app, by_name, by_path)
            if found is not None and id(found) not in seen:
                seen.add(id(found))
                frontier.append((found, stmt))
    for _ in range(_IMPORT_DEPTH):
        following: list[tuple[ParsedPython, ast.stmt]] = []
        for module, first in frontier:
            text = module.text if module.text is not None else module.source.text
            call = _parse_on_import(module.tree) if "parse_args" in (text or "") else None
            if call is not None and not any(word in (text or "") for word in _TOLERANT) \
                    and not _takes_positionals(module.tree):
                return module, call, first
            for _stmt, level, names in _imports(module.tree):
                for name in names:
                    found = _resolve(name, level, module, by_name, by_path)
                    if found is not None and id(found) not in seen:
                        seen.add(id(found))
                        following.append((found, first))
        frontier = following
    return None


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

A project module the app imports at start-up (directly, or through other project modules such as a
package's `__init__.py`, up to four imports deep) is read the same way: a strict `parse_args()` among
its top-level statements (not under its own `if __name__ == "__main__":`, which does not run on import)
runs before `@hydra.main` and fails the same way (lightning-hydra-template issue 556: "If you have any
file using argparse in this template ... error: unrecognized arguments"). Silent when that module uses
`parse_known_args`/`sys.argv`/`REMAINDER` or declares a positional, or when the module name matches
more than one project file.
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
            if any(word in text for word in _TOLERANT):
                continue
            overrides = [tok for tok in project.script_args(script) if not tok.startswith("-") and "=" in tok]
            if not overrides:
                continue
            evidence = [Evidence(line=app.line or 1, path=script.source.display,
                                 message="the @hydra.main app that should read these overrides")]
            if project.launch_at is not None:
                path, line = project.launch_at
                evidence.append(Evidence(line=line, path=path, message="the launch passes the overrides"))
            call = _strict_parse(script.tree) if "parse_args" in text else None
            if call is not None and not _takes_positionals(script.tree):
                yield pctx.code_finding(
                    self, script, call,
                    f"`{ast.unparse(call)}` reads the command line before Hydra does, and the launch passes Hydra "
                    f"overrides (`{' '.join(overrides[:3])}`) that are no options of this parser: argparse exits "
                    f"with \"unrecognized arguments: {overrides[0]}\" before the app starts. Put the option in the "
                    "Hydra config, or use `parser.parse_known_args()`", evidence=evidence)
                continue
            imported = _imported_parse(project.scripts, script)
            if imported is None:
                continue
            module, call, first = imported
            evidence.insert(1, pctx.code_evidence(script, first, "the app imports the module here (at start-up)"))
            yield pctx.code_finding(
                self, module, call,
                f"`{ast.unparse(call)}` runs when this module is imported, and the @hydra.main app "
                f"{script.source.display} imports it at start-up: it reads the command line before Hydra does, "
                f"and the launch's Hydra overrides (`{' '.join(overrides[:3])}`) are no options of this parser, so "
                f"argparse exits with \"unrecognized arguments: {overrides[0]}\" before the app starts. Parse "
                "arguments only under `if __name__ == \"__main__\":` in this module", evidence=evidence)
