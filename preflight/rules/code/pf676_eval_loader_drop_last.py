"""PF676 eval-loader-drops-last-batch: a validation/test DataLoader built with ``drop_last=True``."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.distributed import loader_analysis
from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_EVAL = {"val", "valid", "validation", "test", "testing", "eval", "evaluation", "dev"}
_SUFFIX = re.compile(r"(dataloader|loader|dataset|queue|iter|data|set|dl|ds)$")
_WRAPPERS = {"cycle", "iter", "next", "repeat", "infinite", "infinite_loader", "endless"}


def _eval_word(name: Optional[str]) -> bool:
    """``val_loader``, ``testloader``, ``eval_dataset``, ``get_test_loader``: a name of evaluation data."""
    if not name:
        return False
    for token in re.split(r"_+", name.lower()):
        if token in _EVAL or _SUFFIX.sub("", token) in _EVAL:
            return True
    return False


def _train_word(name: Optional[str]) -> bool:
    return bool(name) and any(t.startswith("train") for t in re.split(r"_+", (name or "").lower()))


def _name_of(node: Optional[ast.AST]) -> Optional[str]:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _eval_test(test: ast.expr) -> bool:
    """``flag == "test"``, ``split in ("val", "test")``, ``mode == 'eval'``: the branch is for evaluation."""
    if not isinstance(test, ast.Compare) or len(test.ops) != 1 or not isinstance(test.ops[0], (ast.Eq, ast.In)):
        return False
    strings = [c.value for c in ast.walk(test.comparators[0]) if isinstance(c, ast.Constant)
               and isinstance(c.value, str)]
    return bool(strings) and all(s.lower() in _EVAL for s in strings)


def _sampled(ctx: FileContext, fn: ast.AST, name: str) -> bool:
    """The loader is drawn from by ``cycle(name)``/``iter(name)``/``next(name)``: a sampled monitor, not a pass."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and _name_of(node.func) in _WRAPPERS and node.args \
                and _name_of(node.args[0]) == name:
            return True
    return False


@register
class EvalLoaderDropsLastBatch(Rule):
    code = "PF676"
    name = "eval-loader-drops-last-batch"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("A validation/test DataLoader is built with drop_last=True: the last partial batch is never "
               "evaluated and the metric depends on the batch size")
    frameworks = ("pytorch",)
    explanation = """
## What it finds

A `DataLoader` for evaluation data built with `drop_last=True`:

* assigned to (or returned by a function named for) validation/test data, or fed a dataset so
  named: `val_loader = DataLoader(val_set, batch_size=64, drop_last=True)`,
  `def test_dataloader(self): return DataLoader(..., drop_last=True)`;
* or given `drop_last=drop_last` where `drop_last = True` is set in a branch for evaluation
  (`if flag == "test": shuffle_flag = False; drop_last = True`: the Autoformer / Informer data
  factory, Autoformer issue 104);
* or returned by one loader factory for every mode with a `drop_last` that ignores the mode
  (`def get_dataloader(dataset, batch_size, mode, compile_model): return DataLoader(...,
  drop_last=compile_model)`), which the file calls for evaluation (`get_dataloader(val_set, bs,
  "val", args.compile)`): with the flag on, the validation loader drops its remainder too
  (ultralytics PR 25734, "only apply drop_last to the classify train loader under compile, not
  val").

## Why it matters

`torch.utils.data.DataLoader(drop_last=True)` "drop[s] the last incomplete batch, if the dataset
size is not divisible by the batch size" (torch docs; `BatchSampler.__iter__` never yields the
partial batch). On a validation or test set this silently leaves up to `batch_size - 1` samples
out of every evaluation: the reported MSE/accuracy is computed on a subset that changes with the
batch size, and results are not comparable with other papers or runs (the Autoformer authors
re-ran their tables with `drop_last=False`).

## How to fix it

Build evaluation loaders with `drop_last=False` (the default). If a model needs fixed batch shapes,
pad the last batch or mask it instead of dropping it.

## When preflight stays silent

* `batch_size=1` (there is no partial batch to drop).
* `shuffle=True` is passed, or the loader is only drawn from with `cycle(...)`, `iter(...)` or
  `next(...)` (a sampled validation loss for monitoring, not a pass over the set).
* The loader is wrapped directly (`cycle(DataLoader(val_set, drop_last=True))`).
* For a factory: its `drop_last` is computed or rebound in it, the loader is built in a branch,
  the evaluation call passes `False` or leaves the parameter to its default, or the value comes
  from an attribute (`self.args.compile`) preflight does not follow.
* `drop_last` is not the literal `True` and not a name set to `True` in a branch that tests for
  evaluation (`if split == "test"`); the name is for training data.
"""
    bad_examples = examples("preflight.rules.code._pf676_examples", "BAD")
    good_examples = examples("preflight.rules.code._pf676_examples", "GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        la = loader_analysis(ctx)
        reported: set[int] = set()
        for call in la.loader_calls:
            value = la.kwarg(call, "drop_last")
            shuffle = la.kwarg(call, "shuffle")
            batch = la.kwarg(call, "batch_size")
            shuffle_true = isinstance(shuffle, ast.Constant) and shuffle.value is True
            if value is None or (isinstance(value, ast.Constant) and value.value is not True) \
                    or (isinstance(batch, ast.Constant) and batch.value == 1):
                continue
            fn = ctx.enclosing_function(call) or ctx.tree
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and id(call) not in reported:
                shared = self._shared_factory(ctx, call, fn, value)
                if shared is not None:
                    reported.add(id(call))
                    eval_call, mode = shared
                    yield ctx.finding(self, call, (
                        f"`{fn.name}` builds every loader with `drop_last={ast.unparse(value)}` whatever its "
                        f"`{mode}` is, and line {eval_call.lineno} calls it for evaluation "
                        f"(`{ast.unparse(eval_call)[:80]}`): when the flag is on, the validation loader drops its "
                        "last partial batch too, so the metric (and the checkpoint chosen on it) covers a subset "
                        f"that changes with the batch size. Apply `drop_last` to the training `{mode}` only"),
                        evidence=[Evidence(line=eval_call.lineno, message=f"`{fn.name}` called for evaluation")])
                    continue
            if shuffle_true:
                continue
            if isinstance(value, ast.Constant) and value.value is True:
                found = self._named_eval(ctx, call, fn)
                if found is not None:
                    yield ctx.finding(self, call, (
                        f"this DataLoader for evaluation data ({found}) is built with `drop_last=True`: the last "
                        "partial batch is never evaluated, so the metric covers len(dataset) // batch_size * "
                        "batch_size samples, a number that changes with the batch size. Use `drop_last=False` "
                        "(the default) for validation/test loaders"))
            elif isinstance(value, ast.Name) and not isinstance(fn, ast.Lambda):
                yield from self._branch_true(ctx, call, fn, value.id, reported)

    def _shared_factory(self, ctx: FileContext, call: ast.Call, fn: ast.FunctionDef | ast.AsyncFunctionDef,
                        value: ast.expr) -> Optional[tuple[ast.Call, str]]:
        """A loader factory (``def get_dataloader(dataset, batch_size, mode, compile_model)``) that returns the
        loader with a ``drop_last`` that ignores its mode parameter, called in the file with an evaluation
        mode (``get_dataloader(val_set, bs, "val", args.compile)``): (that call, the mode parameter)."""
        if not isinstance(ctx.parent(call), ast.Return):
            return None
        params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
        if params[:1] in (["self"], ["cls"]):
            params = params[1:]
        used = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
        constant = isinstance(value, ast.Constant)
        if not constant and (not isinstance(value, ast.Name) or value.id not in params):
            return None  # drop_last computed, or read from something other than a plain parameter
        if used & {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}:
            return None  # the parameter is rebound in the factory (``drop_last = drop_last and train``)
        for anc in _ancestors(ctx, call, fn):
            if isinstance(anc, (ast.If, ast.IfExp)):
                return None  # a loader per branch: the branches may set drop_last per mode
        for caller in ctx.nodes(ast.Call):
            if _name_of(caller.func) != fn.name or any(isinstance(a, ast.Starred) for a in caller.args) \
                    or any(k.arg is None for k in caller.keywords):
                continue
            given = dict(zip(params, caller.args))
            given.update({k.arg: k.value for k in caller.keywords if k.arg})
            modes = [p for p, v in given.items() if p not in used and isinstance(v, ast.Constant)
                     and isinstance(v.value, str) and v.value.lower() in _EVAL]
            if not modes:
                continue
            if isinstance(value, ast.Name):
                passed = given.get(value.id)
                if passed is None or (isinstance(passed, ast.Constant) and passed.value is not True):
                    continue  # the default decides, or this evaluation call passes drop_last False
            parent = ctx.parent(caller)
            if isinstance(parent, ast.Call) and _name_of(parent.func) in _WRAPPERS:
                continue
            return caller, modes[0]
        return None

    def _named_eval(self, ctx: FileContext, call: ast.Call, fn: ast.AST) -> Optional[str]:
        parent = ctx.parent(call)
        names: list[str] = []
        if isinstance(parent, (ast.Assign, ast.AnnAssign)):
            targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
            names = [n for n in (_name_of(t) for t in targets) if n]
        elif isinstance(parent, ast.Return) and isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names = [fn.name]
        else:
            return None
        dataset = _name_of(call.args[0]) if call.args else _name_of(la_kw(call, "dataset"))
        if any(_train_word(n) for n in [*names, dataset]):
            return None
        if isinstance(parent, (ast.Assign, ast.AnnAssign)) and any(_sampled(ctx, fn, n) for n in names):
            return None
        for n in names:
            if _eval_word(n):
                return f"`{n}`"
        if _eval_word(dataset):
            return f"dataset `{dataset}`"
        return None

    def _branch_true(self, ctx: FileContext, call: ast.Call, fn: ast.AST, name: str,
                     reported: set[int]) -> Iterable[Finding]:
        for node in ast.walk(fn):
            if not (isinstance(node, ast.If) and _eval_test(node.test)):
                continue
            for stmt in node.body:
                if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant) \
                        and stmt.value.value is True and any(_name_of(t) == name for t in stmt.targets) \
                        and id(stmt) not in reported:
                    reported.add(id(stmt))
                    label = ast.unparse(node.test)
                    yield ctx.finding(self, stmt, (
                        f"`{name} = True` in the `if {label}` branch reaches `DataLoader(drop_last={name})` "
                        f"(line {call.lineno}): the evaluation loader drops its last partial batch, so the "
                        "reported metric skips up to batch_size - 1 samples and changes with the batch size. "
                        f"Set `{name} = False` for evaluation"),
                        evidence=[Evidence(line=call.lineno, message=f"`drop_last={name}`")])


def _ancestors(ctx: FileContext, node: ast.AST, stop: ast.AST) -> Iterable[ast.AST]:
    current = ctx.parent(node)
    while current is not None and current is not stop:
        yield current
        current = ctx.parent(current)


def la_kw(call: ast.Call, name: str) -> Optional[ast.expr]:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None
