"""PF1150 hydra-logging-lost-in-spawned-worker: a ``@hydra.main`` app starts its workers in fresh interpreters
(``torch.multiprocessing.spawn``, a spawn-method ``Process``) and the worker logs its progress with
``logger.info``/``logger.debug``: Hydra configured logging only in the parent, so in the workers those records
have no handler and are dropped (Hydra issues 1126 and 1148)."""

from __future__ import annotations

import ast
from typing import Iterable, Iterator, Mapping, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_QUIET = ("info", "debug")
# calls that give a process handlers (or a level at which INFO passes): the worker configures logging itself
_CONFIGURES = frozenset({"basicConfig", "dictConfig", "fileConfig", "addHandler"})
_SPAWN_METHODS = ("spawn", "forkserver")


def _name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else (func.id if isinstance(func, ast.Name) else "")


def _spawn_method(ctx: FileContext) -> bool:
    for call in ctx.nodes(ast.Call):
        if _name(call.func) in ("set_start_method", "get_context") and call.args \
                and isinstance(call.args[0], ast.Constant) and call.args[0].value in _SPAWN_METHODS:
            return True
    return False


def _targets(ctx: FileContext) -> Iterator[tuple[str, ast.Call]]:
    """(function name, launching call): module functions the file runs in a freshly spawned interpreter."""
    spawn_method: Optional[bool] = None
    for call in ctx.nodes(ast.Call):
        func, name = call.func, _name(call.func)
        target: Optional[ast.expr] = None
        if name in ("spawn", "start_processes"):
            owner = ast.unparse(func.value) if isinstance(func, ast.Attribute) else ""
            if isinstance(func, ast.Attribute) and not any(w in owner for w in ("mp", "multiprocessing")):
                continue
            if not isinstance(func, ast.Attribute) and not ctx.mentions("torch.multiprocessing"):
                continue
            method = next((k.value for k in call.keywords if k.arg == "start_method"), None)
            if isinstance(method, ast.Constant) and method.value == "fork":
                continue  # torch_xla's xmp.spawn(..., start_method="fork"): the children inherit the handlers
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


def _hydra_app(ctx: FileContext) -> bool:
    return any(any("hydra.main" in ast.unparse(d) or ast.unparse(d).startswith("main(") for d in node.decorator_list)
               for node in ctx.nodes(ast.FunctionDef))


def _loggers(ctx: FileContext) -> set[str]:
    """Names bound to ``logging.getLogger(...)`` anywhere in the file (module level or in a function)."""
    out: set[str] = set()
    for node in ctx.nodes(ast.Assign):
        if isinstance(node.value, ast.Call) and _name(node.value.func) == "getLogger" \
                and ast.unparse(node.value.func) in ("logging.getLogger", "getLogger"):
            out.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return out


def _configures(call: ast.Call, functions: Mapping[str, ast.AST]) -> bool:
    """A call that configures logging, or a call to a helper outside the file named for it
    (``setup_logger(rank)``, ``init_logging(cfg)``): the worker may get handlers there."""
    name = _name(call.func)
    if name in _CONFIGURES:
        return True
    lowered = name.lower()
    return "log" in lowered and name not in functions and any(
        w in lowered for w in ("setup", "set_up", "init", "config", "get_logger", "getlogger", "make", "create",
                               "build"))


def _module_configures(ctx: FileContext) -> bool:
    """Module-level code (which a spawned child runs again on import) configures logging."""
    for node in ctx.nodes(ast.Call):
        if ctx.enclosing_function(node) is None and _name(node.func) in _CONFIGURES:
            return True
    return False


@register
class HydraLoggingLostInSpawnedWorker(Rule):
    code = "PF1150"
    name = "hydra-logging-lost-in-spawned-worker"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("hydra",)
    needs_text = ("hydra",)
    summary = ("A `@hydra.main` app runs its training in processes started by `mp.spawn` (or a spawn-method "
               "`Process`) that log with `logger.info`: Hydra's logging setup exists only in the parent, so the "
               "workers' INFO records are dropped and never reach the run's log file")
    explanation = """
## What it finds

A file with a `@hydra.main` function that starts a module-level function of the same file
in a new interpreter (`torch.multiprocessing.spawn(fn)` / `mp.spawn` / `start_processes`,
or the `target=` of a `Process` when the file sets the `spawn` or `forkserver` start
method), where that function (or a module function it calls) logs with `.info(...)` or
`.debug(...)` on a logger from `logging.getLogger(...)`, and nothing on the way configures
logging in the worker.

## Why it matters

`@hydra.main` applies `hydra.job_logging` (console and `<job>.log` file handlers on the root
logger, level INFO) in the process that runs the decorated function. A spawned child is a
fresh interpreter that imports the script and unpickles its arguments: the `logging`
module there has no handlers, so a record goes to Python's last-resort handler, which
passes only WARNING and above to stderr. Every `log.info` of the training loop (losses,
validation scores) disappears, and nothing the workers log reaches the run's log file
(Hydra issue 1126, "I can't see any log with pytorch DDP": the repro's worker prints only
its warning and error lines; issue 1148 explains the fork/spawn difference and asks for a
fix that was never added).

## How to fix it

Hand the resolved logging config to the workers and apply it there:
`log_cfg = OmegaConf.to_container(HydraConfig.get().job_logging, resolve=True)` in the
parent, `mp.spawn(train, args=(cfg, log_cfg))`, and `logging.config.dictConfig(log_cfg)` at
the top of the worker (or configure logging in the worker some other way).

## When preflight stays silent

* The worker (or a module function it calls) calls `logging.basicConfig`,
  `logging.config.dictConfig`/`fileConfig` or `addHandler`, or calls a helper defined
  elsewhere whose name says it sets logging up (`setup_logger`, `init_logging`,
  `get_logger`, ...); module-level code of the file configures logging (a spawned child runs
  it again on import).
* The worker only logs WARNING and above, uses `print`, or logs through something other than
  `logging.getLogger` (loguru, a framework logger).
* The spawned function is imported from another module (not followed), the `Process` runs
  under the default fork start method, or the launcher is given `start_method="fork"`
  (torch_xla's `xmp.spawn`): a forked child inherits the parent's handlers.
* The file has no `@hydra.main` function (a plain script configures logging however it likes).
"""
    bad_examples = examples("preflight.rules.code._pf1150_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf1150_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if not ctx.mentions("hydra") or not _hydra_app(ctx) or _module_configures(ctx):
            return
        loggers = _loggers(ctx)
        if not loggers:
            return
        functions = {node.name: node for node in ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef)
                     if isinstance(ctx.parent(node), ast.Module)}
        for name, launch in _targets(ctx):
            if name not in functions:
                continue
            todo, seen, first = [name], set(), None
            configured = False
            while todo and not configured:
                current = todo.pop(0)
                if current in seen or current not in functions:
                    continue
                seen.add(current)
                for node in ast.walk(functions[current]):
                    if not isinstance(node, ast.Call):
                        continue
                    if _configures(node, functions):
                        configured = True
                        break
                    if isinstance(node.func, ast.Name) and node.func.id in functions:
                        todo.append(node.func.id)
                    if first is None and isinstance(node.func, ast.Attribute) and node.func.attr in _QUIET \
                            and isinstance(node.func.value, ast.Name) and node.func.value.id in loggers:
                        first = (current, node)
            if configured or first is None:
                continue
            current, call = first
            via = "" if current == name else f" (called from `{name}`)"
            yield ctx.finding(
                self, call,
                f"`{ast.unparse(call.func)}` in `{current}`{via}, which `{ast.unparse(launch.func)}` runs in a freshly "
                "spawned process: Hydra applies its logging config (handlers, INFO level, the run's log file) only "
                "in the parent, so in the workers this record has no handler and is dropped (only WARNING and "
                "above reach stderr), and none of the workers' progress reaches the run's log (Hydra issues 1126, "
                "1148). Pass `OmegaConf.to_container(HydraConfig.get().job_logging, resolve=True)` to the workers "
                "and apply it with `logging.config.dictConfig` at the top of the worker",
                evidence=[ctx.evidence(launch, "the worker is started in a new interpreter here")])
