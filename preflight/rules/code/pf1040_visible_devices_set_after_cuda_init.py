"""PF1040 visible-devices-set-after-cuda-init: the script sets ``os.environ["CUDA_VISIBLE_DEVICES"]`` after the
same process already initialised CUDA (``torch.cuda.is_available()``, ``set_device``, ``.cuda()``): CUDA reads the
variable once, at initialisation, so the setting is ignored and the job runs on GPU 0 (or on every GPU)."""

from __future__ import annotations

import ast
from typing import Callable, Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_VAR = "CUDA_VISIBLE_DEVICES"
# torch.cuda calls that initialise the CUDA driver in the calling process (``is_available`` calls
# cudaGetDeviceCount unless PYTORCH_NVML_BASED_CUDA_CHECK=1); ``device_count`` is left out: since torch 2.0 it asks
# NVML and re-reads the variable, so it does not pin the device list
_INIT = frozenset({
    "torch.cuda.is_available", "torch.cuda.set_device", "torch.cuda.current_device", "torch.cuda.get_device_name",
    "torch.cuda.get_device_properties", "torch.cuda.get_device_capability", "torch.cuda.mem_get_info",
    "torch.cuda.synchronize", "torch.cuda.init", "torch.cuda.is_bf16_supported",
})
# a child process started after the assignment reads the new value: the parent's own CUDA state does not matter
_SPAWNS = frozenset({"spawn", "Popen", "run", "call", "check_call", "check_output", "system", "start",
                     "start_processes", "Pool", "launch", "notebook_launcher", "submit", "execv", "execvp"})

Qualify = Callable[[ast.AST], Optional[str]]


def _environ(node: ast.AST, qualify: Qualify) -> bool:
    return (qualify(node) or ast.unparse(node)) in ("os.environ", "environ")


def _sets_var(stmt: ast.stmt, qualify: Qualify) -> Optional[ast.stmt]:
    """The node of ``os.environ["CUDA_VISIBLE_DEVICES"] = ...`` (or ``setdefault``/``update``/``os.putenv``)."""
    if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        for t in targets:
            if isinstance(t, ast.Subscript) and _environ(t.value, qualify) \
                    and isinstance(t.slice, ast.Constant) and t.slice.value == _VAR:
                return stmt
        return None
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        call = stmt.value
        func = call.func
        if not isinstance(func, ast.Attribute):
            return None
        if func.attr == "setdefault" and _environ(func.value, qualify) and call.args \
                and isinstance(call.args[0], ast.Constant) and call.args[0].value == _VAR:
            return stmt
        if func.attr == "putenv" and (qualify(func) or ast.unparse(func)) == "os.putenv" and call.args \
                and isinstance(call.args[0], ast.Constant) and call.args[0].value == _VAR:
            return stmt
        if func.attr == "update" and _environ(func.value, qualify):
            if any(k.arg == _VAR for k in call.keywords):
                return stmt
            if call.args and isinstance(call.args[0], ast.Dict) and any(
                    isinstance(k, ast.Constant) and k.value == _VAR for k in call.args[0].keys):
                return stmt
    return None


def _calls(node: ast.AST) -> Iterable[ast.Call]:
    """Calls evaluated by ``node`` itself: not inside a nested def, lambda or class."""
    stack = [node]
    while stack:
        cur = stack.pop()
        if cur is not node and isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(cur, ast.Call):
            yield cur
        stack.extend(ast.iter_child_nodes(cur))


def _init_call(node: ast.AST, qualify: Qualify, helpers: frozenset[str] = frozenset()) -> Optional[ast.Call]:
    """The first call in ``node`` that initialises CUDA: a torch.cuda call of ``_INIT``, ``.cuda()``,
    ``.to("cuda")``, or a call of one of the file's own functions (``helpers``) whose body makes one."""
    for call in _calls(node):
        qual = qualify(call.func) or ""
        if qual in _INIT:
            return call
        if isinstance(call.func, ast.Name) and call.func.id in helpers:
            return call
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "cuda" and not qual.startswith("torch.") \
                and not call.args and not call.keywords:
            return call  # model.cuda()
        if isinstance(func, ast.Attribute) and func.attr == "to" and call.args \
                and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str) \
                and call.args[0].value.startswith("cuda"):
            return call  # x.to("cuda")
    return None


def _spawns(node: ast.AST) -> bool:
    for call in _calls(node):
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name in _SPAWNS:
            return True
    return False


def _head(stmt: ast.stmt) -> list[ast.AST]:
    """The expressions a compound statement evaluates before its body."""
    if isinstance(stmt, (ast.If, ast.While)):
        return [stmt.test]
    if isinstance(stmt, (ast.For, ast.AsyncFor)):
        return [stmt.iter]
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return [i.context_expr for i in stmt.items]
    return []


def _blocks(stmt: ast.stmt) -> list[list[ast.stmt]]:
    if isinstance(stmt, (ast.If, ast.For, ast.AsyncFor, ast.While)):
        return [stmt.body, stmt.orelse]
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return [stmt.body]
    if isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
        return [stmt.body, *[h.body for h in stmt.handlers], stmt.orelse, stmt.finalbody]  # type: ignore[attr-defined]
    return []


class _Scan:
    """One scope's statements in execution order: each assignment of the variable met after a CUDA
    initialisation, unless a child process is started after it."""

    def __init__(self, qualify: Qualify, helpers: frozenset[str] = frozenset()) -> None:
        self.qualify = qualify
        self.helpers = helpers
        self.hits: list[tuple[ast.stmt, ast.Call]] = []
        self.assigns: list[ast.stmt] = []

    def block(self, body: list[ast.stmt], init: Optional[ast.Call]) -> Optional[ast.Call]:
        for stmt in body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            target = _sets_var(stmt, self.qualify)
            if target is not None:
                self.assigns.append(target)
                if init is not None:
                    self.hits.append((target, init))
                continue
            blocks = _blocks(stmt)
            if blocks:
                for expr in _head(stmt):
                    init = init or _init_call(expr, self.qualify, self.helpers)
                after = init
                for inner in blocks:
                    found = self.block(inner, init)
                    after = after or found
                init = after
            else:
                init = init or _init_call(stmt, self.qualify, self.helpers)
        return init


def _spawns_after(body: list[ast.stmt], line: int) -> bool:
    return any(_spawns(stmt) for stmt in body if (getattr(stmt, "end_lineno", None) or 0) > line)


def _module_calls(tree: ast.Module) -> dict[str, int]:
    """Functions called from module-level code (``main()``, also under ``if __name__ == "__main__":``): the
    first line of each call."""
    out: dict[str, int] = {}
    stack: list[ast.AST] = list(tree.body)
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for call in _calls(stmt):
            if isinstance(call.func, ast.Name):
                out[call.func.id] = min(out.get(call.func.id, call.lineno), call.lineno)
            for a in call.args:  # hydra-free wrappers: ``launch(main, ...)``, ``fire.Fire(main)``
                if isinstance(a, ast.Name):
                    out[a.id] = min(out.get(a.id, call.lineno), call.lineno)
    return out


@register
class VisibleDevicesSetAfterCudaInit(Rule):
    code = "PF1040"
    name = "visible-devices-set-after-cuda-init"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("`os.environ[\"CUDA_VISIBLE_DEVICES\"]` is set after the process already initialised CUDA "
               "(`torch.cuda.is_available()`, `set_device`, `.cuda()`): CUDA read the variable at initialisation, "
               "so the GPU choice is ignored")
    needs_text = ("CUDA_VISIBLE_DEVICES",)
    explanation = """
## What it finds

A Python script that assigns `os.environ["CUDA_VISIBLE_DEVICES"]` (or `os.environ.setdefault`,
`os.environ.update`, `os.putenv`) after code of the same process that initialises CUDA has
already run: `torch.cuda.is_available()`, `torch.cuda.set_device`, `current_device`,
`get_device_name`/`properties`/`capability`, `mem_get_info`, `synchronize`, `is_bf16_supported`,
a `.cuda()` call or `.to("cuda")`. "Already run" means earlier in the same function or module
body, or in module-level code (`device = torch.device("cuda" if torch.cuda.is_available() else
"cpu")` under the imports) that runs before the module-level call of the function that sets the
variable (`main()` under `if __name__ == "__main__":`).

## Why it matters

The CUDA driver reads `CUDA_VISIBLE_DEVICES` once, when the process first initialises it; a
later change of `os.environ` is not seen. The script's GPU choice (`--gpu 2`, a list for a second
job) is silently dropped: the job runs on GPU 0, on top of another user's or job's work, or sees
every GPU (pytorch issues 9158 "setting CUDA_VISIBLE_DEVICES just has no effect" and 23544
"CUDA_VISIBLE_DEVICES setting unavailable after called torch.cuda.is_available function";
open-mmlab/mmdetection3d issue 1020; KaiyangZhou/deep-person-reid issue 267).

## How to fix it

Set the variable before anything touches CUDA: at the top of the script, before the
`is_available()` line, or in the launch command (`CUDA_VISIBLE_DEVICES=2 python train.py`); or
choose the device with `torch.device(f"cuda:{args.gpu}")` / `torch.cuda.set_device(args.gpu)`
instead of the variable.

## When preflight stays silent

* The variable is set before every CUDA call of the process (at the top of the file, or first
  thing in `main()` when nothing at module level touches CUDA).
* The variable is set only for child processes: in a copy of the environment (`env =
  os.environ.copy()`), or before the scope starts a child process (`subprocess`, `mp.spawn`,
  `Process.start`, `os.system`), which reads the new value.
* `torch.cuda.device_count()` is the only earlier call (on torch 2.x it asks NVML and re-reads
  the variable), or the earlier CUDA call sits in a function the file never calls first.
"""
    bad_examples = examples("preflight.rules.code._pf1040_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf1040_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        qualify = scope_index(ctx).imports.qualify
        tree = ctx.tree
        if not isinstance(tree, ast.Module):
            return
        helpers = _helpers(tree, qualify)
        module = _Scan(qualify, helpers)
        module.block(tree.body, None)
        reported: set[int] = set()
        for target, init in module.hits:
            if _spawns_after(tree.body, target.lineno):
                continue
            reported.add(id(target))
            yield self._finding(ctx, target, init)
        # the earliest module-level CUDA initialisation outside any function, and the calls that follow it
        first_init = _first_module_init(tree, qualify)
        called = _module_calls(tree) if first_init is not None else {}
        for fn in ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
            scan = _Scan(qualify, helpers - {fn.name})
            scan.block(fn.body, None)
            for target, init in scan.hits:
                if id(target) in reported or _spawns_after(fn.body, target.lineno):
                    continue
                reported.add(id(target))
                yield self._finding(ctx, target, init)
            if first_init is None or ctx.enclosing_function(fn) is not None:
                continue
            line = called.get(fn.name)
            if line is None or line <= first_init.lineno:
                continue
            for target in scan.assigns:
                if id(target) in reported or _spawns_after(fn.body, target.lineno):
                    continue
                reported.add(id(target))
                yield self._finding(ctx, target, first_init)

    def _finding(self, ctx: FileContext, target: ast.stmt, init: ast.Call) -> Finding:
        first = ast.unparse(init.func)
        return ctx.finding(
            self, target,
            f"`CUDA_VISIBLE_DEVICES` is set here after `{first}(...)` (line {init.lineno}) already initialised "
            "CUDA in this process: CUDA reads the variable only at initialisation, so this GPU choice is "
            "ignored and the job runs on GPU 0 (or sees every GPU); set it before any CUDA call (top of the "
            "script or the launch command) or pick the device with `torch.device(f\"cuda:{i}\")`",
            evidence=[ctx.evidence(init, f"CUDA is initialised here by `{first}(...)`")])


def _helpers(tree: ast.Module, qualify: Qualify) -> frozenset[str]:
    """The file's module-level functions that initialise CUDA in their own body (``get_device()`` calling
    ``torch.cuda.get_device_name(0)``) and set no ``CUDA_VISIBLE_DEVICES`` themselves."""
    out = set()
    for fn in tree.body:
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if any(isinstance(n, ast.stmt) and _sets_var(n, qualify) is not None for n in ast.walk(fn)):
            continue
        if any(_init_call(stmt, qualify) is not None for stmt in fn.body):
            out.add(fn.name)
    return frozenset(out)


def _first_module_init(tree: ast.Module, qualify: Qualify) -> Optional[ast.Call]:
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        found = _init_call(stmt, qualify)
        if found is not None:
            return found
    return None
