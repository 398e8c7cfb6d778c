"""PF316 dataset-generator-copied-into-workers: a random generator object built in a Dataset's
``__init__`` and drawn in ``__getitem__``, read by several DataLoader workers with no ``worker_init_fn``."""

from __future__ import annotations

import ast
from typing import Iterable, Iterator, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._loader_datasets import ProjectClasses, dataset_call, kw, loaders, text_of

# constructors of generator objects that carry their own state (NumPy's legacy and new generators,
# the stdlib's ``random.Random``, torch's ``Generator``)
_GENERATORS = frozenset({"RandomState", "default_rng", "Generator", "Random"})
# the class asks which worker it runs in, or is reseeded by a hook: its own per-worker seeding
_PER_WORKER = ("get_worker_info", "worker_init", "initial_seed")
_DRAW_METHODS = ("__getitem__", "__getitems__", "__iter__")


def _generator_ctor(value: ast.expr) -> bool:
    """``np.random.RandomState(seed)``, ``np.random.default_rng()``, ``random.Random(seed)``,
    ``torch.Generator().manual_seed(seed)``."""
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "manual_seed":
        value = value.func.value
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name == "Random":  # the stdlib's random.Random, not a project class named Random
        return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "random"
    return name in _GENERATORS


def _self_attrs_assigned(fn: ast.AST) -> Iterator[tuple[str, ast.Assign]]:
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                        and target.value.id == "self":
                    yield target.attr, node


def _generator_in_init(cls: ast.ClassDef) -> Optional[tuple[str, ast.Assign]]:
    """``self.<name> = <generator>(...)`` in ``__init__``, never rebound by another method, never reseeded."""
    methods = {n.name: n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    init = methods.get("__init__")
    if init is None:
        return None
    found = next(((a, n) for a, n in _self_attrs_assigned(init) if _generator_ctor(n.value)), None)
    if found is None:
        return None
    attr = found[0]
    for name, fn in methods.items():
        if name != "__init__" and any(a == attr for a, _ in _self_attrs_assigned(fn)):
            return None  # rebuilt elsewhere (per epoch, per worker, lazily)
    for node in ast.walk(cls):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("seed", "manual_seed", "set_state", "bit_generator") \
                and isinstance(node.func.value, ast.Attribute) and node.func.value.attr == attr:
            return None  # reseeded by the class
    return found


def _drawn(cls: ast.ClassDef, attr: str) -> Optional[ast.AST]:
    """The first use of ``self.<attr>`` in ``__getitem__``/``__iter__`` or a method they call (one level)."""
    methods = {n.name: n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    bodies = [methods[m] for m in _DRAW_METHODS if m in methods]
    for body in list(bodies):
        for node in ast.walk(body):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(
                    node.func.value, ast.Name) and node.func.value.id == "self" and node.func.attr in methods:
                bodies.append(methods[node.func.attr])
    for body in bodies:
        for node in ast.walk(body):
            if isinstance(node, ast.Attribute) and node.attr == attr and isinstance(node.value, ast.Name) \
                    and node.value.id == "self" and isinstance(node.ctx, ast.Load):
                return node
    return None


@register
class DatasetGeneratorCopiedIntoWorkers(PlanRule):
    code = "PF316"
    name = "dataset-generator-copied-into-workers"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = ("A Dataset draws from a generator object it built in `__init__`, read by several DataLoader "
               "workers without a `worker_init_fn` (every worker replays the same random numbers)")
    explanation = """
## What it finds

A `DataLoader(dataset, num_workers=N)` with `N > 1` (a literal) and no `worker_init_fn`, whose
dataset is a project class (in any file of the job) that builds a generator object in
`__init__` (`self.rs = np.random.RandomState(seed)`, `np.random.default_rng(...)`,
`random.Random(...)`, `torch.Generator().manual_seed(...)`) and draws from it in `__getitem__`
or `__iter__` (or a method of the class they call).

## Why it matters

Each worker process gets a copy of the dataset, generator state included. Torch seeds the
*global* `random`, torch and (from 1.9) NumPy states per worker, but not a generator object the
dataset owns: the N workers replay the same sequence, so the batches built in parallel carry
identical augmentation parameters, and since the parent's copy never advances, the same again
every epoch (pytorch-3dunet issue 32: "np.random generates the same random numbers for each
data batch"; `num_workers=0` made the transforms vary again). Training runs, with N-fold fewer
distinct augmentations than intended.

## How to fix it

Reseed the dataset's generator in each worker:

```python
def reseed(worker_id):
    info = torch.utils.data.get_worker_info()
    info.dataset.rs = np.random.RandomState(torch.initial_seed() % 2 ** 32)

DataLoader(dataset, num_workers=4, worker_init_fn=reseed)
```

or draw from the global states torch seeds per worker (`torch.rand`, `np.random` on torch >= 1.9).

## When preflight stays silent

* The loader has a `worker_init_fn`, or `num_workers` is 0, 1 or not a literal.
* The class asks which worker it runs in (`get_worker_info()`), reads `torch.initial_seed()`,
  reseeds its generator (`self.rs.seed(...)`), or rebuilds it outside `__init__` (per epoch,
  lazily in `__getitem__`).
* A generator made per item (`np.random.RandomState(index)` inside `__getitem__`): deterministic
  per sample on purpose.
* The dataset class is not a class of the job's files.
"""
    bad_examples = examples("preflight.rules.plan._pf316_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf316_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        classes = ProjectClasses(pctx.project.scripts)
        for script in pctx.project.scripts:
            text = text_of(script)
            if "DataLoader" not in text or "num_workers" not in text:
                continue
            for loader in loaders(script.tree):
                workers = kw(loader, "num_workers")
                if not (isinstance(workers, ast.Constant) and isinstance(workers.value, int)
                        and not isinstance(workers.value, bool) and workers.value > 1):
                    continue
                init = kw(loader, "worker_init_fn")
                if init is not None and not (isinstance(init, ast.Constant) and init.value is None):
                    continue
                built = dataset_call(loader, script.tree)
                found_class = classes.unique(built.func.id) if built is not None and isinstance(
                    built.func, ast.Name) else None
                if found_class is None:
                    continue
                owner, cls = found_class
                if any(word in ast.unparse(cls) for word in _PER_WORKER):
                    continue
                found = _generator_in_init(cls)
                if found is None:
                    continue
                attr, assign = found
                use = _drawn(cls, attr)
                if use is None:
                    continue
                path = owner.source.display
                yield pctx.code_finding(
                    self, script, loader,
                    f"this DataLoader runs {workers.value} worker processes without a `worker_init_fn`, and "
                    f"`{cls.name}` draws from the generator `self.{attr}` it built once in `__init__` (line "
                    f"{assign.lineno} of {path}): every worker gets a copy of the same generator state and replays the "
                    "same numbers, so the batches built in parallel get identical random draws (augmentations), and "
                    "the same again every epoch. Reseed it per worker in a `worker_init_fn` (from "
                    "`torch.initial_seed()`) or draw from torch's per-worker seeded RNG",
                    evidence=[Evidence(line=assign.lineno, path=path,
                                       message="the generator built once, copied into every worker"),
                              Evidence(line=getattr(use, "lineno", assign.lineno), path=path,
                                       message="drawn in the worker")])
