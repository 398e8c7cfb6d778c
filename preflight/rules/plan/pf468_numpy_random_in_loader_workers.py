"""PF468 numpy-random-in-loader-workers: NumPy's global random functions in a Dataset read by several
DataLoader workers, with no ``worker_init_fn``, under a torch older than 1.9."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.analysis.project_imports import imported_class
from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._loader_workers import dataset_class as _dataset_class
from preflight.rules.plan._loader_workers import kw as _kw
from preflight.rules.plan._loader_workers import loaders as _loaders
from preflight.rules.plan._loader_workers import worker_count as _worker_count

# NumPy's legacy global-state functions that do not draw (seeding, state, generator objects)
_NOT_DRAWS = frozenset({"seed", "get_state", "set_state", "default_rng", "RandomState", "Generator",
                        "SeedSequence", "PCG64", "MT19937", "Philox", "SFC64", "BitGenerator"})


def _numpy_names(tree: ast.Module) -> tuple[set[str], set[str]]:
    """(names bound to the numpy module, names bound to ``numpy.random``)."""
    modules: set[str] = set()
    randoms: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "numpy":
                    modules.add(alias.asname or "numpy")
                elif alias.name == "numpy.random":
                    if alias.asname:
                        randoms.add(alias.asname)
                    else:
                        modules.add("numpy")
        elif isinstance(node, ast.ImportFrom) and node.module == "numpy" and node.level == 0:
            for alias in node.names:
                if alias.name == "random":
                    randoms.add(alias.asname or "random")
    return modules, randoms


def _global_draw(call: ast.Call, modules: set[str], randoms: set[str]) -> bool:
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr in _NOT_DRAWS or func.attr.startswith("_"):
        return False
    owner = func.value
    if isinstance(owner, ast.Name):
        return owner.id in randoms
    return (isinstance(owner, ast.Attribute) and owner.attr == "random" and isinstance(owner.value, ast.Name)
            and owner.value.id in modules)


def _seeds_itself(cls: ast.ClassDef, entry: str) -> bool:
    """The class reseeds NumPy or (a map-style ``__getitem__`` class) asks which worker it runs in (its own
    per-worker seeding). An ``IterableDataset``'s ``__iter__`` reads ``get_worker_info()`` to split its
    stream between the workers, so there only a ``seed`` call or a read of ``.seed`` counts."""
    asks = ("seed", "get_worker_info") if entry == "__getitem__" else ("seed",)
    return any((isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in asks)
               or (entry != "__getitem__" and isinstance(node, ast.Attribute) and node.attr == "seed")
               for node in ast.walk(cls))


def _entry(cls: ast.ClassDef) -> str:
    """``__getitem__`` (map-style), else ``__iter__`` (an iterable dataset), of the class's own body."""
    names = {n.name for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return "__getitem__" if "__getitem__" in names or "__iter__" not in names else "__iter__"


def _draws(cls: ast.ClassDef, modules: set[str], randoms: set[str], entry: str = "__getitem__",
           ) -> Optional[ast.Call]:
    """The first global NumPy draw reached from ``entry`` (``__getitem__`` or ``__iter__``: its body and the
    methods of the class it calls as ``self.name(...)``, one level)."""
    methods = {n.name: n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    getitem = methods.get(entry)
    if getitem is None:
        return None
    bodies = [getitem]
    for node in ast.walk(getitem):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(
                node.func.value, ast.Name) and node.func.value.id == "self" and node.func.attr in methods:
            bodies.append(methods[node.func.attr])
    for body in bodies:
        for node in ast.walk(body):
            if isinstance(node, ast.Call) and _global_draw(node, modules, randoms):
                return node
    return None


def _imported_dataset_class(arg: Optional[ast.expr], tree: ast.Module, pctx: PlanContext, script: Any,
                            ) -> Optional[tuple[ast.ClassDef, str, set[str], set[str]]]:
    """The dataset class of another file of the project (``from data import Ds``; ``Ds(...)`` handed to the
    loader directly or through one assignment), with that file's display path and NumPy names."""
    call: Optional[ast.expr] = arg
    if isinstance(arg, ast.Name):
        found = [n.value for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1
                 and isinstance(n.targets[0], ast.Name) and n.targets[0].id == arg.id]
        call = found[0] if len(found) == 1 else None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
        return None
    got = imported_class(pctx.file_context(script), call.func.id)
    if got is None:
        return None
    other, cls, display = got
    modules, randoms = _numpy_names(other.tree)
    if not modules and not randoms:
        return None
    return cls, display, modules, randoms


@register
class NumpyRandomInLoaderWorkers(PlanRule):
    code = "PF468"
    name = "numpy-random-in-loader-workers"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = ("A Dataset draws with NumPy's global random functions in several DataLoader workers without a "
               "`worker_init_fn`, under a torch older than 1.9 (every worker draws the same numbers)")
    explanation = """
## What it finds

A `DataLoader(dataset, num_workers=N)` with `N > 1` (a literal) and no `worker_init_fn`,
whose dataset is a class of the same file whose `__getitem__` (an `IterableDataset`'s
`__iter__`; or a method of the class it calls) draws from NumPy's global random state (`np.random.normal`, `np.random.rand`,
`np.random.randint`, ...), in a project that pins torch below 1.9.

## Why it matters

Before torch 1.9 a DataLoader worker seeded `random` and torch with `base_seed + worker_id`
but left NumPy alone: every worker is forked with a copy of the parent's NumPy state and
draws the same sequence, so the N workers return identical noise, crops or augmentations
(and, since the parent's NumPy state does not move, the same again every epoch). torch
issue 5059 ("np.random generates the same random numbers for each data batch") and the
randomness notes of the torch documentation; torch 1.9 (PR 56488) seeds NumPy in each
worker. Training still runs, with far less augmentation than intended.

## How to fix it

Seed NumPy per worker:

```python
def seed_worker(worker_id):
    np.random.seed(torch.initial_seed() % 2 ** 32)

DataLoader(dataset, num_workers=4, worker_init_fn=seed_worker)
```

or draw with torch's generator (`torch.randn`), which each worker seeds, or upgrade torch.

## When preflight stays silent

* torch is not pinned, or pinned at 1.9 or later (a lower bound installs a recent release).
* The loader has a `worker_init_fn`, or `num_workers` is 0, 1 or not a literal.
* The dataset class seeds NumPy itself or (map-style) reads `get_worker_info()`; an iterable
  dataset's `get_worker_info()` splitting the stream between the workers does not count, its
  `.seed` does. The class draws through its own
  generator object (`self.rng = np.random.default_rng(...)`), or is not a class of the file.
"""
    bad_examples = examples("preflight.rules.plan._pf468_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf468_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.project.scripts:
            text = script.text if script.text is not None else script.source.text
            if "DataLoader" not in text or "num_workers" not in text:
                continue
            tree = script.tree
            modules, randoms = _numpy_names(tree)  # may be empty: the dataset class may live in another file
            classes = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
            version = None
            for loader in _loaders(tree):
                count = _worker_count(_kw(loader, "num_workers"), pctx)
                if count is None or count <= 1:
                    continue
                init = _kw(loader, "worker_init_fn")
                if init is not None and not (isinstance(init, ast.Constant) and init.value is None):
                    continue
                dataset = loader.args[0] if loader.args else _kw(loader, "dataset")
                cls = _dataset_class(dataset, tree, classes)
                draw_file, draw_modules, draw_randoms = script.source.display, modules, randoms
                if cls is None:
                    imported = _imported_dataset_class(dataset, tree, pctx, script)
                    if imported is None:
                        continue
                    cls, draw_file, draw_modules, draw_randoms = imported
                entry = _entry(cls)
                if _seeds_itself(cls, entry):
                    continue
                draw = _draws(cls, draw_modules, draw_randoms, entry)
                if draw is None:
                    continue
                if version is None:
                    version = pctx.version("torch", script)
                    if version is None or version.how != "pinned" or version.at_least(1, 9):
                        break
                yield pctx.code_finding(
                    self, script, loader,
                    f"this DataLoader runs {count} worker processes without a `worker_init_fn`, and "
                    f"`{cls.name}` draws with NumPy's global random state (`{ast.unparse(draw.func)}`, line "
                    f"{draw.lineno}): under {version.describe()} each worker starts from the same copy of the parent's "
                    "NumPy state (torch seeds NumPy per worker only from 1.9), so the workers return identical random "
                    "draws, again every epoch. Pass `worker_init_fn=lambda i: np.random.seed(torch.initial_seed() "
                    "% 2 ** 32)` (a named function under spawn) or draw with torch's generator",
                    evidence=[Evidence(line=draw.lineno, path=draw_file,
                                       message="a draw from NumPy's global state in the dataset")])
