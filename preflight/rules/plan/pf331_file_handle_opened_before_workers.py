"""PF331 file-handle-opened-before-workers: a Dataset opens an HDF5 file (``h5py.File``) or an LMDB
environment (``lmdb.open``) in ``__init__`` and keeps the handle, and a DataLoader reads it with worker
processes: every worker inherits the parent's open handle."""

from __future__ import annotations

import ast
from typing import Iterable, Iterator, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._loader_datasets import ProjectClasses, dataset_call, kw, loaders, text_of

# (module, function) pairs that open a handle the HDF5 / LMDB libraries do not allow a forked child to reuse
_OPENERS = {("h5py", "File"): "h5py.File", ("lmdb", "open"): "lmdb.open", ("tables", "open_file"): "tables.open_file"}
# the class reopens per worker, or is told which worker it runs in, or pickles itself without the handle
_PER_WORKER = ("get_worker_info", "worker_init", "__getstate__", "__setstate__", "__reduce__")


def _opener(value: ast.expr) -> Optional[str]:
    """``h5py.File(...)`` / ``lmdb.open(...)`` / ``tables.open_file(...)`` (module-qualified), or None."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
            and isinstance(value.func.value, ast.Name):
        return _OPENERS.get((value.func.value.id, value.func.attr))
    return None


def _kept_open(init: ast.AST) -> Iterator[tuple[str, ast.Assign, str]]:
    """``self.<attr> = h5py.File(...)`` in ``__init__``, outside any ``with`` block."""
    withs = [n for n in ast.walk(init) if isinstance(n, (ast.With, ast.AsyncWith))]
    inside = {id(m) for w in withs for m in ast.walk(w)}
    for node in ast.walk(init):
        if not isinstance(node, ast.Assign) or id(node) in inside or len(node.targets) != 1:
            continue
        target = node.targets[0]
        opener = _opener(node.value)
        if opener and isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                and target.value.id == "self":
            yield target.attr, node, opener
        elif opener and isinstance(target, ast.Name) and _kept_through(init, target.id, inside):
            # ``hf = h5py.File(path)`` then ``self.input = hf.get("input")``: the datasets keep the handle
            yield target.id, node, opener


def _kept_through(init: ast.AST, local: str, inside: set[int]) -> bool:
    """``self.<x> = <local>[...]`` or ``self.<x> = <local>.get(...)`` in ``__init__`` (outside ``with``: the
    dataset objects keep the file open), and no ``<local>.close()``."""
    kept = False
    for node in ast.walk(init):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "close" \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == local:
            return False
        if not isinstance(node, ast.Assign) or id(node) in inside or not any(
                isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"
                for t in node.targets):
            continue
        base = node.value
        if isinstance(base, ast.Call) and isinstance(base.func, ast.Attribute) and base.func.attr == "get":
            base = base.func.value
        while isinstance(base, ast.Subscript):
            base = base.value
        if isinstance(base, ast.Name) and base.id == local and base is not node.value:
            kept = True
    return kept


def _closed_or_reopened(cls: ast.ClassDef, attr: str) -> bool:
    """The class closes the handle in ``__init__``, opens a handle in another method (lazily, per worker),
    or resets the attribute after opening it."""
    for fn in cls.body:
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            if fn.name != "__init__" and isinstance(node, ast.Call) and _opener(node):
                return True
            if fn.name == "__init__" and isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "close" and ast.unparse(node.func.value) == f"self.{attr}":
                return True
    init = next((f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
    rebinds = [n for n in ast.walk(init) if isinstance(n, ast.Assign) and any(
        ast.unparse(t) == f"self.{attr}" for t in n.targets)] if init is not None else []
    return len(rebinds) > 1


def _workers(loader: ast.Call, tree: ast.Module) -> Optional[int]:
    """A literal ``num_workers`` above 0, or a name bound once to one."""
    value = kw(loader, "num_workers")
    if isinstance(value, ast.Name):
        bound = [n.value for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1
                 and isinstance(n.targets[0], ast.Name) and n.targets[0].id == value.id]
        value = bound[0] if len(bound) == 1 else None
    if isinstance(value, ast.Constant) and isinstance(value.value, int) and not isinstance(value.value, bool):
        return value.value if value.value > 0 else None
    return None


@register
class FileHandleOpenedBeforeWorkers(PlanRule):
    code = "PF331"
    name = "file-handle-opened-before-workers"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = ("A Dataset opens an HDF5 file or LMDB environment in `__init__` and keeps the handle, and a "
               "DataLoader with worker processes reads it: the workers share the parent's handle")
    explanation = """
## What it finds

A `DataLoader(dataset, num_workers=N)` with `N > 0` (a literal, or a name bound once to one) and
no `worker_init_fn`, whose dataset is a project class (in any file of the job) that stores an open
`h5py.File(...)`, `lmdb.open(...)` or `tables.open_file(...)` on `self` in `__init__` (not in a
`with` block), or opens one into a local and keeps its datasets on `self`
(`hf = h5py.File(path)`, `self.input = hf.get("input")`) without closing it, and never opens
one anywhere else.

## Why it matters

The workers are forked from the process that built the dataset, so each starts with a copy of an
HDF5 (or LMDB) handle that was opened before the fork. Neither library supports that: HDF5 keeps
process-local caches and file state behind the handle, and LMDB documents that an environment must
not be used in a forked child. Reads from the workers then fail at random or, worse, return wrong
data without an error (pytorch issue 1919: a ModelNet40 `.h5` dataset opened in `__init__` gave
label 255 with 40 classes once `num_workers=2`; `num_workers=0` was fine). Under the `spawn` start
method the dataset is pickled instead, and an open h5py file cannot be pickled.

## How to fix it

Open the file lazily, once per worker:

```python
def __getitem__(self, i):
    if self.h5 is None:  # first call in this worker
        self.h5 = h5py.File(self.path, "r")
    ...
```

(or open it in a `worker_init_fn`), and only read lengths/metadata in `__init__` inside a
`with h5py.File(...)` block.

## When preflight stays silent

* `num_workers` is 0 or not known, or the loader has a `worker_init_fn`.
* The file is opened in a `with` block in `__init__`, closed there, or (also) opened in another
  method of the class (the lazy per-worker pattern).
* The class asks which worker it runs in (`get_worker_info()`) or defines its own pickling
  (`__getstate__`/`__setstate__`).
* The dataset class is not a class of the job's files.
"""
    bad_examples = examples("preflight.rules.plan._pf331_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf331_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        classes = ProjectClasses(pctx.project.scripts)
        seen: set[tuple[str, int]] = set()
        for script in pctx.project.scripts:
            text = text_of(script)
            if "DataLoader" not in text or "num_workers" not in text:
                continue
            for loader in loaders(script.tree):
                workers = _workers(loader, script.tree)
                if workers is None:
                    continue
                init_fn = kw(loader, "worker_init_fn")
                if init_fn is not None and not (isinstance(init_fn, ast.Constant) and init_fn.value is None):
                    continue
                built = dataset_call(loader, script.tree)
                found = classes.unique(built.func.id) if built is not None and isinstance(
                    built.func, ast.Name) else None
                if found is None:
                    continue
                owner, cls = found
                init = next((f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
                if init is None or any(word in ast.unparse(cls) for word in _PER_WORKER):
                    continue
                for attr, assign, opener in _kept_open(init):
                    key = (owner.source.display, assign.lineno)
                    if key in seen or _closed_or_reopened(cls, attr):
                        continue
                    seen.add(key)
                    yield pctx.code_finding(
                        self, owner, assign,
                        f"`{cls.name}.__init__` opens `self.{attr} = {opener}(...)` and keeps it open, and the "
                        f"DataLoader at line {loader.lineno} of {script.source.display} reads this dataset with "
                        f"{workers} worker process{'es' if workers > 1 else ''}: each worker inherits the handle "
                        "opened before the fork, which HDF5/LMDB do not support, so reads can fail at random or "
                        "return corrupted samples and labels without an error. Open the file lazily in each worker "
                        "(on the first `__getitem__`, or in a `worker_init_fn`) and read only metadata in "
                        "`__init__` inside a `with` block",
                        evidence=[Evidence(line=loader.lineno, path=script.source.display,
                                           message=f"read by {workers} worker processes")])
