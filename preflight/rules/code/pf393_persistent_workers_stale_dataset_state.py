"""PF393 persistent-workers-stale-dataset-state: the training loop changes an attribute of a dataset
that persistent DataLoader workers have already copied, so ``__getitem__`` in the workers never sees it."""

from __future__ import annotations

import ast
from typing import Iterable, Optional, Union

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, is_from, kwarg, literal, target_text
from preflight.rules._pf414_support import self_attr
from preflight.rules.base import Rule, examples

_READERS = ("__getitem__", "__iter__", "__getitems__")


def _methods(cls: ast.ClassDef) -> dict[str, ast.FunctionDef]:
    return {f.name: f for f in cls.body if isinstance(f, ast.FunctionDef)}


def _sets(fn: ast.FunctionDef) -> set[str]:
    """``self.<attr>`` names ``fn`` rebinds (``self.epoch = epoch``, ``self.step += 1``)."""
    out: set[str] = set()
    for node in ast.walk(fn):
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
        for target in targets:
            attr = self_attr(target)
            if attr:
                out.add(attr)
    return out


def _read_by_workers(cls: ast.ClassDef) -> set[str]:
    """``self.<attr>`` names read by ``__getitem__``/``__iter__`` and the methods of the class they call."""
    methods = _methods(cls)
    todo = [methods[m] for m in _READERS if m in methods]
    seen: set[str] = set()
    out: set[str] = set()
    while todo:
        fn = todo.pop()
        if fn.name in seen:
            continue
        seen.add(fn.name)
        for node in ast.walk(fn):
            attr = self_attr(node)
            if attr and isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                if attr in methods:
                    todo.append(methods[attr])
                else:
                    out.add(attr)
    return out


def _dataset_class(ctx: FileContext, name: str, classes: dict[str, ast.ClassDef]) -> Optional[ast.ClassDef]:
    for node in ctx.nodes(ast.Assign):
        if len(node.targets) == 1 and target_text(node.targets[0]) == name and isinstance(node.value, ast.Call) \
                and isinstance(node.value.func, ast.Name) and node.value.func.id in classes:
            return classes[node.value.func.id]
    return None


def _iterates(loop: ast.stmt, loader: str) -> bool:
    return any(isinstance(n, (ast.For, ast.AsyncFor)) and n is not loop
               and any(target_text(x) == loader for x in ast.walk(n.iter)) for n in ast.walk(loop))


def _mutations(ctx: FileContext, dataset: str, cls: ast.ClassDef,
               read: set[str]) -> list[tuple[Union[ast.Call, ast.Assign], str]]:
    """Calls and assignments that rebind an attribute of ``dataset`` the workers read."""
    methods = _methods(cls)
    out: list[tuple[Union[ast.Call, ast.Assign], str]] = []
    for call in ctx.nodes(ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute) and target_text(func.value) == dataset and func.attr in methods \
                and func.attr not in _READERS:
            hit = sorted(_sets(methods[func.attr]) & read)
            if hit:
                out.append((call, hit[0]))
    for node in ctx.nodes(ast.Assign):
        for target in node.targets:
            if isinstance(target, ast.Attribute) and target_text(target.value) == dataset and target.attr in read:
                out.append((node, target.attr))
    return out


@register
class PersistentWorkersStaleDatasetState(Rule):
    code = "PF393"
    name = "persistent-workers-stale-dataset-state"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    needs_text = ("persistent_workers",)
    summary = ("the loop changes a dataset attribute (`dataset.set_epoch(epoch)`) that `__getitem__` reads, but "
               "the DataLoader keeps persistent workers: each worker holds its own copy and never sees the change")
    explanation = """
## What it finds

A `DataLoader(dataset, num_workers=N, persistent_workers=True)` over a dataset class of the same
file, a loop that iterates the loader and, in the same loop, changes an attribute of the dataset
object (a method of the class that rebinds `self.<attr>`, such as `set_epoch`, or a direct
`dataset.<attr> = ...`), where `<attr>` is read by the class's `__getitem__`/`__iter__` (or a
method they call).

## Why it matters

Every DataLoader worker process gets its own copy of the dataset when the workers start. With
`persistent_workers=True` the workers start once, at the first epoch, and are reused: a change the
main process makes to its dataset object afterwards never reaches them. A curriculum strength, an
epoch-dependent augmentation or a resampling seed stays at its first-epoch value for the whole run
(pytorch issue 97326; the maintainers' answer is to share the value, e.g. through a
`multiprocessing.Value`). Nothing fails: the run trains on the epoch-0 data every epoch.

## How to fix it

Share the value with the workers (`multiprocessing.Value`, a shared tensor, a file the workers
read), or drop `persistent_workers` so the workers are recreated with the current dataset every
epoch.

## When preflight stays silent

* `persistent_workers` is not literally true, or `num_workers` resolves to 0.
* The attribute is stored in a shared object (`self._epoch.value = epoch` rebinds an attribute
  of the shared value, not of the dataset).
* The dataset class is not defined in the file, or the loop never iterates the loader.
"""
    bad_examples = examples("preflight.rules.code._pf393_examples", "BAD")
    good_examples = examples("preflight.rules.code._pf393_examples", "GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        classes = {c.name: c for c in ctx.nodes(ast.ClassDef)}
        if not classes:
            return
        for call, qual in calls(ctx):
            if not is_from(qual, "torch.utils.data", "DataLoader"):
                continue
            persistent = kwarg(call, "persistent_workers")
            if persistent is None or literal(ctx, persistent) is not True:
                continue
            workers = kwarg(call, "num_workers")
            if workers is None or literal(ctx, workers) == 0:
                continue
            data = call.args[0] if call.args else kwarg(call, "dataset")
            dataset = target_text(data) if data is not None else None
            parent = ctx.parent(call)
            loader = target_text(parent.targets[0]) if isinstance(parent, ast.Assign) and \
                len(parent.targets) == 1 else None
            if not dataset or not loader:
                continue
            cls = _dataset_class(ctx, dataset, classes)
            if cls is None:
                continue
            read = _read_by_workers(cls)
            for node, attr in _mutations(ctx, dataset, cls, read):
                loop = ctx.enclosing(node, ast.For, ast.AsyncFor, ast.While)
                if loop is None or ctx.enclosing_loop(node) is not loop or not _iterates(loop, loader):
                    continue
                yield ctx.finding(
                    self, persistent,
                    f"`persistent_workers=True` keeps one copy of `{cls.name}` per worker process for the whole run, "
                    f"but `{ast.unparse(node).splitlines()[0]}` (line {node.lineno}) changes `{attr}` on the main "
                    f"process's copy every iteration of the loop: `__getitem__` in the workers keeps reading its "
                    f"first-epoch value. Share `{attr}` with the workers (multiprocessing.Value) or drop "
                    "persistent_workers",
                    evidence=[ctx.evidence(node, f"`{attr}` changes here, in the main process only")])
                break
