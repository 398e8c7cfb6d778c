"""PF199 hydra-config-read-in-spawned-process: ``hydra.utils.get_original_cwd()`` or ``HydraConfig.get()``
inside a function that runs in a spawned process (``torch.multiprocessing.spawn(fn)``, a ``Process`` target
under the spawn start method): Hydra's global state is not set in the child, so each worker dies with
``ValueError`` after the parent has done its setup."""

from __future__ import annotations

import ast
from typing import Iterable, Iterator, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_READERS = ("get_original_cwd",)


def _reader(call: ast.Call) -> Optional[str]:
    """``get_original_cwd()`` / ``hydra.utils.get_original_cwd()`` / ``HydraConfig.get()`` -> its text."""
    func = call.func
    if isinstance(func, ast.Name) and func.id in _READERS:
        return func.id
    if isinstance(func, ast.Attribute):
        if func.attr in _READERS:
            return ast.unparse(func)
        if func.attr == "get" and isinstance(func.value, ast.Name) and func.value.id == "HydraConfig":
            return "HydraConfig.get"
        if func.attr == "get" and isinstance(func.value, ast.Call) and isinstance(func.value.func, ast.Attribute) \
                and func.value.func.attr == "instance" and ast.unparse(func.value.func.value) == "HydraConfig":
            return "HydraConfig.instance().get"
    return None


def _spawn_method(ctx: FileContext) -> bool:
    """The file sets the spawn start method (``set_start_method("spawn")``, ``get_context("spawn")``)."""
    for call in ctx.nodes(ast.Call):
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else (func.id if isinstance(func, ast.Name) else "")
        if name in ("set_start_method", "get_context") and call.args and isinstance(call.args[0], ast.Constant) \
                and call.args[0].value in ("spawn", "forkserver"):
            return True
    return False


def _targets(ctx: FileContext) -> Iterator[tuple[str, ast.Call]]:
    """(function name, launching call) of functions started in a fresh interpreter."""
    spawn_method = None
    for call in ctx.nodes(ast.Call):
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else (func.id if isinstance(func, ast.Name) else "")
        target: Optional[ast.expr] = None
        if name in ("spawn", "start_processes"):
            owner = ast.unparse(func.value) if isinstance(func, ast.Attribute) else ""
            if isinstance(func, ast.Attribute) and not any(w in owner for w in ("mp", "multiprocessing")):
                continue
            target = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "fn"), None)
        elif name == "Process":
            target = next((k.value for k in call.keywords if k.arg == "target"), None)
            if target is not None:
                if spawn_method is None:
                    spawn_method = _spawn_method(ctx)
                if not spawn_method:
                    continue
        if isinstance(target, ast.Name):
            yield target.id, call


def _functions(ctx: FileContext) -> dict[str, ast.AST]:
    return {node.name: node for node in ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef)
            if isinstance(ctx.parent(node), ast.Module)}


def _guarded(ctx: FileContext, call: ast.Call) -> bool:
    """The read sits under ``if HydraConfig.initialized():`` (or a try block)."""
    node: Optional[ast.AST] = ctx.parent(call)
    while node is not None and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        if isinstance(node, (ast.If, ast.IfExp)) and "initialized" in ast.unparse(node.test):
            return True
        if isinstance(node, ast.Try):
            return True
        node = ctx.parent(node)
    return False


@register
class HydraConfigReadInSpawnedProcess(Rule):
    code = "PF199"
    needs_text = ("get_original_cwd", "HydraConfig")
    name = "hydra-config-read-in-spawned-process"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("hydra",)
    summary = ("`get_original_cwd()` or `HydraConfig.get()` in a function run by `mp.spawn` (or a spawn-method "
               "`Process`): Hydra is not initialised in the child, so every worker fails with ValueError")
    explanation = """
## What it finds

A call to `hydra.utils.get_original_cwd()` or `HydraConfig.get()` in a module-level
function of the file (or a function it calls there) that the file starts in a new
interpreter: the function given to `torch.multiprocessing.spawn` / `mp.spawn` /
`start_processes`, or the `target=` of a `Process` when the file sets the `spawn` (or
`forkserver`) start method.

## Why it matters

Hydra keeps the composed run's `HydraConfig` in a process-global singleton that
`@hydra.main` fills in the parent. A spawned child imports the script afresh and only
receives the pickled arguments: the singleton is empty, `get_original_cwd()` raises
"ValueError: get_original_cwd() must only be used after HydraConfig is initialized" and
`HydraConfig.get()` raises "HydraConfig was not set" (hydra/utils.py, hydra/core/hydra_config.py).
The parent has by then composed the config, built datasets and launched the workers; every
rank dies at that line (Hydra issue 1904, "to_absolute_path and get_original_cwd functions
don't work in subprocesses ... Hydra seems not initialized in subprocesses"; issue 2901 for
the same error outside the decorated function).

## How to fix it

Read what the workers need in the parent and pass it as an argument
(`orig_cwd = hydra.utils.get_original_cwd()`; `mp.spawn(train, args=(cfg, orig_cwd))`), or
resolve paths before spawning (`cfg.data_dir = to_absolute_path(cfg.data_dir)`).

## When preflight stays silent

* The call is in the `@hydra.main` function itself, or in a function run by a forked
  `Process` (the default start method on Linux copies the parent's state).
* The call is guarded by `HydraConfig.initialized()` (an `if` or a conditional expression)
  or sits in a `try` block.
* `to_absolute_path` (it falls back to the child's working directory instead of failing).
"""
    bad_examples = examples("preflight.rules.code._pf199_examples", "BAD")
    good_examples = examples("preflight.rules.code._pf199_examples", "GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        functions = _functions(ctx)
        done: set[int] = set()
        for name, launch in _targets(ctx):
            # the target and the module functions it calls, transitively
            todo, seen = [name], set()
            while todo:
                current = todo.pop()
                if current in seen or current not in functions:
                    continue
                seen.add(current)
                for node in ast.walk(functions[current]):
                    if not isinstance(node, ast.Call):
                        continue
                    if isinstance(node.func, ast.Name) and node.func.id in functions:
                        todo.append(node.func.id)
                    reader = _reader(node)
                    if reader is None or id(node) in done or _guarded(ctx, node):
                        continue
                    done.add(id(node))
                    via = "" if current == name else f" (called from `{name}`)"
                    yield ctx.finding(
                        self, node,
                        f"`{reader}()` in `{current}`{via}, which `{ast.unparse(launch.func)}` runs in a freshly "
                        "spawned process: Hydra's HydraConfig is set only in the parent, so every worker fails "
                        "with ValueError (\"must only be used after HydraConfig is initialized\") after the parent "
                        "has composed the config and started them (Hydra issue 1904). Read it in the parent and "
                        "pass the value to the workers as an argument",
                        evidence=[ctx.evidence(launch, "the worker is started in a new interpreter here")])
