"""PF199 hydra-config-read-in-spawned-process: ``hydra.utils.get_original_cwd()`` or ``HydraConfig.get()``
inside a function that runs in a spawned process (``torch.multiprocessing.spawn(fn)``, a ``Process`` target
under the spawn start method): Hydra's global state is not set in the child, so each worker dies with
``ValueError`` after the parent has done its setup. det128: the same parent-only state in DataLoader workers
started with the spawn method: a custom OmegaConf resolver registered inside the ``@hydra.main`` function while
the dataset keeps the unresolved config and reads it in ``__getitem__`` (mmf issue 370, Hydra issue 2772)."""

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


_SPAWN = ("spawn", "forkserver")


def _name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else (func.id if isinstance(func, ast.Name) else "")


def _import_time(ctx: FileContext, call: ast.Call, called_at_import: set[str]) -> bool:
    """The call runs when a spawned child imports the script (as ``__mp_main__``): at module level outside
    ``if __name__ == "__main__":``, or in a module-level function the module calls at import time."""
    node: Optional[ast.AST] = ctx.parent(call)
    function: Optional[ast.AST] = None
    while node is not None and not isinstance(node, ast.Module):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            function = node
        if function is None and isinstance(node, ast.If) and "__main__" in ast.unparse(node.test):
            return False
        node = ctx.parent(node)
    if function is None:
        return True
    return isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) and function.name in called_at_import


def _resolvers(ctx: FileContext) -> list[tuple[str, ast.Call]]:
    """(name, call) of custom OmegaConf resolvers registered only where a spawned child does not run it."""
    called_at_import: set[str] = set()
    for call in ctx.nodes(ast.Call):
        if isinstance(call.func, ast.Name) and ctx.enclosing_function(call) is None and \
                not any(isinstance(a, ast.If) and "__main__" in ast.unparse(a.test) for a in ctx.ancestors(call)):
            called_at_import.add(call.func.id)
    late, early = [], set()
    for call in ctx.nodes(ast.Call):
        if _name(call.func) not in ("register_new_resolver", "register_resolver") or not call.args \
                or not isinstance(call.args[0], ast.Constant) or not isinstance(call.args[0].value, str):
            continue
        if _import_time(ctx, call, called_at_import):
            early.add(call.args[0].value)
        else:
            late.append((call.args[0].value, call))
    return [(name, call) for name, call in late if name not in early]


def _spawn_context(ctx: FileContext, loader: ast.Call) -> bool:
    """``DataLoader(..., multiprocessing_context="spawn" | get_context("spawn"))`` or a file-wide spawn method."""
    value = next((k.value for k in loader.keywords if k.arg == "multiprocessing_context"), None)
    if value is None:
        return _spawn_method(ctx)
    if isinstance(value, ast.IfExp):  # `"spawn" if cfg.num_workers else None`
        value = value.body
    if isinstance(value, ast.Constant):
        return value.value in _SPAWN
    return isinstance(value, ast.Call) and _name(value.func) == "get_context" and bool(value.args) \
        and isinstance(value.args[0], ast.Constant) and value.args[0].value in _SPAWN


def _workers(loader: ast.Call) -> bool:
    value = next((k.value for k in loader.keywords if k.arg == "num_workers"), None)
    return value is not None and not (isinstance(value, ast.Constant) and not value.value)


def _root(node: ast.expr) -> Optional[str]:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _hydra_configs(function: ast.AST) -> set[str]:
    """The config parameter of a ``@hydra.main`` function (an unresolved DictConfig)."""
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or not function.args.args or \
            not any("hydra.main" in ast.unparse(d) or ast.unparse(d).startswith("main(") for d in function.decorator_list):
        return set()
    return {function.args.args[0].arg}


def _dataset_call(function: ast.AST, arg: ast.expr, before: int) -> Optional[ast.Call]:
    if isinstance(arg, ast.Call):
        return arg
    if isinstance(arg, ast.Name):
        found = None
        for node in ast.walk(function):
            if isinstance(node, ast.Assign) and node.lineno < before and isinstance(node.value, ast.Call) and \
                    any(isinstance(t, ast.Name) and t.id == arg.id for t in node.targets):
                found = node.value
        return found
    return None


def _kept_config_read(cls: ast.ClassDef, index: int, keyword: Optional[str]) -> Optional[ast.expr]:
    """The ``self.<attr>`` read in ``__getitem__`` (or a method it calls) of the config ``__init__`` stores whole."""
    methods = {n.name: n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    init = methods.get("__init__")
    if init is None or "__getitem__" not in methods:
        return None
    params = [a.arg for a in init.args.args[1:]]
    param = keyword if keyword is not None else (params[index] if index < len(params) else None)
    if param is None:
        return None
    kept = {t.attr for node in ast.walk(init) if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Name) and node.value.id == param
            for t in node.targets if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
            and t.value.id == "self"}
    todo, seen = ["__getitem__"], set()
    while todo:
        current = todo.pop()
        if current in seen or current not in methods:
            continue
        seen.add(current)
        for node in ast.walk(methods[current]):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    isinstance(node.func.value, ast.Name) and node.func.value.id == "self":
                todo.append(node.func.attr)
            if isinstance(node, (ast.Attribute, ast.Subscript)) and isinstance(node.value, ast.Attribute) and \
                    isinstance(node.value.value, ast.Name) and node.value.value.id == "self" and node.value.attr in kept:
                return node
    return None


def _resolves(function: ast.AST, config: str) -> bool:
    """``OmegaConf.resolve(cfg)`` in the function: the config handed on holds plain values, no interpolation."""
    return any(isinstance(node, ast.Call) and _name(node.func) == "resolve" and bool(node.args)
               and _root(node.args[0]) == config for node in ast.walk(function))


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
    needs_text = ("get_original_cwd", "HydraConfig", "register_new_resolver", "register_resolver")
    name = "hydra-config-read-in-spawned-process"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("hydra",)
    summary = ("`get_original_cwd()` or `HydraConfig.get()` in a function run by `mp.spawn` (or a spawn-method "
               "`Process`), or an unresolved config read in spawned DataLoader workers when its custom resolver is "
               "registered only in the parent: the child lacks that state and fails")
    explanation = """
## What it finds

A call to `hydra.utils.get_original_cwd()` or `HydraConfig.get()` in a module-level
function of the file (or a function it calls there) that the file starts in a new
interpreter: the function given to `torch.multiprocessing.spawn` / `mp.spawn` /
`start_processes`, or the `target=` of a `Process` when the file sets the `spawn` (or
`forkserver`) start method.

Also: a custom resolver (`OmegaConf.register_new_resolver("name", fn)`) registered only
inside a function (the `@hydra.main` task, or under `if __name__ == "__main__":`), while a
dataset class defined in the file keeps the task's config whole (`self.config = config`),
reads it in `__getitem__` (or a method it calls), and is handed to a
`DataLoader(..., num_workers=N, multiprocessing_context="spawn")` (or a file that sets the
spawn start method).

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

The resolver form fails the same way: OmegaConf resolves `${name:...}` when the value is
read, and a spawned DataLoader worker unpickles the config in a fresh interpreter whose
resolver registry holds only what the script's import registered, so the first batch dies
with "Unsupported interpolation type name" (facebookresearch/mmf issue 370, "Resolve config
when it is created as spawned child process won't have registered resolvers"; Hydra issue
2772 for Hydra's own `hydra`/`now` resolvers in a spawned `Process`).

## How to fix it

Read what the workers need in the parent and pass it as an argument
(`orig_cwd = hydra.utils.get_original_cwd()`; `mp.spawn(train, args=(cfg, orig_cwd))`), or
resolve paths before spawning (`cfg.data_dir = to_absolute_path(cfg.data_dir)`). For the
resolver form, `OmegaConf.resolve(cfg)` before building the dataset, or register the resolver
at module level (a spawned worker imports the script again and runs it).

## When preflight stays silent

* The call is in the `@hydra.main` function itself, or in a function run by a forked
  `Process` (the default start method on Linux copies the parent's state).
* The call is guarded by `HydraConfig.initialized()` (an `if` or a conditional expression)
  or sits in a `try` block.
* `to_absolute_path` (it falls back to the child's working directory instead of failing).
* Resolver form: the resolver is (also) registered at module level or in a function the module
  calls on import; `OmegaConf.resolve(cfg)` in the function that builds the loader; the dataset
  copies plain values out of the config in `__init__`; `num_workers` is absent or 0; the loader
  uses the fork context or no explicit start method (spawn is the default on macOS and Windows,
  which preflight cannot know from the file); the config YAML is not read, so a resolver the
  worker's keys never use is still reported.
"""
    bad_examples = examples("preflight.rules.code._pf199_examples", "BAD")
    good_examples = examples("preflight.rules.code._pf199_examples", "GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        yield from self._spawned_loader_reads(ctx)
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

    def _spawned_loader_reads(self, ctx: FileContext) -> Iterator[Finding]:
        """A custom resolver registered only in the parent, and a spawned DataLoader worker reading the config."""
        if not ctx.mentions("register_new_resolver") and not ctx.mentions("register_resolver"):
            return
        resolvers = _resolvers(ctx)
        if not resolvers:
            return
        classes = {node.name: node for node in ctx.nodes(ast.ClassDef) if isinstance(ctx.parent(node), ast.Module)}
        for loader in ctx.nodes(ast.Call):
            if _name(loader.func) != "DataLoader" or not _workers(loader) or not _spawn_context(ctx, loader):
                continue
            function = ctx.enclosing_function(loader)
            configs = _hydra_configs(function) if function is not None else set()
            arg = loader.args[0] if loader.args else next((k.value for k in loader.keywords if k.arg == "dataset"),
                                                          None)
            if function is None or not configs or arg is None:
                continue
            built = _dataset_call(function, arg, loader.lineno)
            cls = classes.get(_name(built.func)) if built is not None else None
            if built is None or cls is None:
                continue
            passed = [(i, None, a) for i, a in enumerate(built.args)] + [(0, k.arg, k.value) for k in built.keywords]
            for index, keyword, value in passed:
                config = _root(value)
                if config not in configs or not isinstance(value, (ast.Name, ast.Attribute)) \
                        or _resolves(function, config):
                    continue
                read = _kept_config_read(cls, index, keyword)
                if read is None:
                    continue
                outer = ctx.parent(read)
                while isinstance(outer, (ast.Attribute, ast.Subscript)) and outer.value is read:
                    read, outer = outer, ctx.parent(outer)
                name, register = resolvers[0]
                yield ctx.finding(
                    self, register,
                    f"custom resolver `{name}` is registered only here, in the parent, but `{cls.name}` keeps the "
                    f"unresolved config (`{ast.unparse(value)}`) and reads `{ast.unparse(read)}` in `__getitem__`, "
                    "which runs in DataLoader workers started in fresh interpreters (spawn): OmegaConf resolves "
                    f"interpolations when they are read, and the worker never registered `{name}`, so the first "
                    f"batch fails with \"Unsupported interpolation type {name}\" (facebookresearch/mmf issue 370, "
                    "Hydra issue 2772). Resolve the config before building the dataset (`OmegaConf.resolve(cfg)`) "
                    "or register the resolver at module level, which a spawned worker runs again on import",
                    evidence=[ctx.evidence(read, "read in the worker process"),
                              ctx.evidence(loader, "workers started with the spawn method here")])
                return
