"""PF370 cuda-dataset-in-forked-workers: a Dataset that holds or makes CUDA tensors, read by
fork-started DataLoader workers."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.project_imports import imported_class
from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._loader_workers import dataset_class as _dataset_class
from preflight.rules.plan._loader_workers import kw as _kw
from preflight.rules.plan._loader_workers import loaders as _loaders
from preflight.rules.plan._loader_workers import worker_count as _worker_count


def _cuda_text(expr: Optional[ast.expr]) -> bool:
    """``"cuda"`` / ``"cuda:0"`` or ``torch.device("cuda...")``."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return expr.value == "cuda" or expr.value.startswith("cuda:")
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "device" \
            and expr.args:
        return _cuda_text(expr.args[0])
    return False


def _param_default(fn: ast.FunctionDef, name: str) -> tuple[Optional[int], Optional[ast.expr]]:
    """(position after ``self``, default) of the parameter ``name`` of ``fn``; (None, None) if none."""
    args = fn.args
    positional = args.posonlyargs + args.args
    defaults: list[Optional[ast.expr]] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    for index, arg in enumerate(positional):
        if arg.arg == name:
            return index - 1, defaults[index]
    for arg, default in zip(args.kwonlyargs, args.kw_defaults):
        if arg.arg == name:
            return None, default
    return None, None


def _device_of(call: ast.Call, init: Optional[ast.FunctionDef], built: Optional[ast.Call]) -> bool:
    """``call`` (``x.to(...)``/``x.cuda()``) puts its tensor on a CUDA device, as far as the file says."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return False
    if func.attr == "cuda":
        return True
    if func.attr != "to":
        return False
    target = call.args[0] if call.args else _kw(call, "device")
    if _cuda_text(target):
        return True
    if isinstance(target, ast.Name) and init is not None and built is not None:
        position, default = _param_default(init, target.id)
        if not _cuda_text(default):
            return False
        passed = any(k.arg == target.id or k.arg is None for k in built.keywords) or \
            any(isinstance(a, ast.Starred) for a in built.args) or \
            (position is not None and len(built.args) > position)
        return not passed  # the "cuda" default is the value only when the constructor leaves it
    return False


def _cuda_use(cls: ast.ClassDef, built: Optional[ast.Call]) -> Optional[tuple[ast.Call, str]]:
    """The first tensor the class puts on the GPU: stored on ``self`` in ``__init__``, or moved in
    ``__getitem__`` (the method the workers run)."""
    methods = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}
    init = methods.get("__init__")
    if init is not None:
        for node in ast.walk(init):
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"
                    for t in node.targets):
                for call in ast.walk(node.value):
                    if isinstance(call, ast.Call) and _device_of(call, init, built):
                        return call, "__init__"
    getitem = methods.get("__getitem__")
    if getitem is not None:
        for node in ast.walk(getitem):
            if isinstance(node, ast.Call) and _device_of(node, None, None):
                return node, "__getitem__"
    return None


def _parent_uses_cuda(tree: ast.Module, skip: Optional[ast.ClassDef]) -> bool:
    """The loader's file, outside the dataset class ``skip``, puts something on the GPU (``.cuda()``, a
    ``"cuda"`` device): the parent has initialised CUDA by the time its workers fork."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if node is skip:
            continue
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "cuda":
            return True
        if isinstance(node, ast.Constant) and _cuda_text(node):
            return True
        stack.extend(ast.iter_child_nodes(node))
    return False


def _forks(context: Optional[ast.expr]) -> bool:
    """The loader's ``multiprocessing_context`` leaves the platform default (fork) or names "fork"."""
    return context is None or (isinstance(context, ast.Constant) and context.value == "fork")


def _spawns(text: str) -> bool:
    return "set_start_method" in text and ("spawn" in text or "forkserver" in text)


@register
class CudaDatasetInForkedWorkers(PlanRule):
    code = "PF370"
    name = "cuda-dataset-in-forked-workers"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("pytorch",)
    summary = ("A Dataset keeps its tensors on the GPU (or moves items there in `__getitem__`) and is read by "
               "fork-started DataLoader workers: \"Cannot re-initialize CUDA in forked subprocess\"")
    explanation = """
## What it finds

A `DataLoader(dataset, num_workers=N)` with `N >= 1` (a literal, or an argparse option whose
value the plan knows) and no `multiprocessing_context` (or `"fork"`), whose dataset is a class
of the same file or imported from the project that

* stores a CUDA tensor on `self` in `__init__` (`self.x = t.cuda()`, `t.to("cuda")`, or
  `t.to(device)` with `device="cuda"` the parameter's default that the constructor call leaves), or
* moves an item to the GPU in `__getitem__` (`.cuda()`, `.to("cuda")`), while the loader's file
  itself puts something on the GPU (a `.cuda()` or a `"cuda"` device outside the dataset class).

## Why it matters

On Linux the workers are forked (the default start method before Python 3.14) from a parent
that has already initialised CUDA: by building the GPU dataset, or by putting the model there
before the loop starts the workers. A forked
child cannot use CUDA: the first worker that indexes a CUDA tensor or calls `.cuda()` fails
with `RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with
multiprocessing, you must use the 'spawn' start method` (pytorch#40403, pytorch#77159,
pytorch#2971 and many downstream reports).

## How to fix it

Keep the dataset on the CPU and move each batch in the training loop
(`x = x.cuda(non_blocking=True)` with `pin_memory=True`), or use `num_workers=0` for a dataset
that really lives on the GPU.

## When preflight stays silent

* `num_workers` is 0 or not known, or the loader names a `multiprocessing_context` other than
  `"fork"`, or the loader's (or the dataset's) file sets the `spawn` / `forkserver` start method.
* `__getitem__` moves items to the GPU but the loader's file never uses CUDA itself (a worker
  of a parent without CUDA may initialise it).
* The device is a parameter the constructor call passes (its value is not known here).
* The dataset class is not found (built by a factory, a library class).
* The platform is not read: on macOS and Windows (spawn) and under Python 3.14's forkserver
  default the workers start fresh and this error does not happen.
"""
    bad_examples = examples("preflight.rules.plan._pf370_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf370_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.project.scripts:
            text = script.text if script.text is not None else script.source.text
            if "DataLoader" not in text or "num_workers" not in text or _spawns(text):
                continue
            tree = script.tree
            classes = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
            for loader in _loaders(tree):
                count = _worker_count(_kw(loader, "num_workers"), pctx)
                if count is None or count < 1 or not _forks(_kw(loader, "multiprocessing_context")):
                    continue
                dataset = loader.args[0] if loader.args else _kw(loader, "dataset")
                built = _construction(dataset, tree)
                cls = _dataset_class(dataset, tree, classes)
                where = script.source.display
                if cls is None and built is not None and isinstance(built.func, ast.Name):
                    got = imported_class(pctx.file_context(script), built.func.id)
                    if got is not None:
                        other, cls, where = got
                        if _spawns(other.parsed.text or other.parsed.source.text or ""):
                            continue
                if cls is None:
                    continue
                use = _cuda_use(cls, built)
                if use is None:
                    continue
                call, method = use
                if method == "__getitem__" and not _parent_uses_cuda(tree, cls if where == script.source.display
                                                                     else None):
                    continue  # a parent that never touched CUDA forks workers that may initialise it
                yield pctx.code_finding(
                    self, script, loader,
                    f"this DataLoader forks {count} worker process{'es' if count > 1 else ''}, and `{cls.name}` "
                    f"{'keeps a tensor on the GPU' if method == '__init__' else 'moves items to the GPU'} "
                    f"(`{ast.unparse(call)}` in `{method}`, line {call.lineno}): a forked worker cannot use CUDA "
                    "and fails with \"RuntimeError: Cannot re-initialize CUDA in forked subprocess\". Keep the "
                    "dataset on the CPU and move each batch in the loop (or use num_workers=0)",
                    evidence=[Evidence(line=call.lineno, path=where,
                                       message=f"a CUDA tensor in the dataset's {method}")])


def _construction(arg: Optional[ast.expr], tree: ast.Module) -> Optional[ast.Call]:
    """The ``Cls(...)`` call the loader's dataset comes from: direct, or one assignment of the name."""
    if isinstance(arg, ast.Call):
        return arg
    if isinstance(arg, ast.Name):
        found = [n.value for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1
                 and isinstance(n.targets[0], ast.Name) and n.targets[0].id == arg.id]
        if len(found) == 1 and isinstance(found[0], ast.Call):
            return found[0]
    return None
