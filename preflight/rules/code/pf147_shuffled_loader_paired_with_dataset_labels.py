"""PF147 shuffled-loader-paired-with-dataset-labels: predictions gathered from a shuffling DataLoader are
compared position by position with the labels of its dataset in dataset order."""

from __future__ import annotations

import ast
from typing import Iterable, Optional, Union

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

_FN = Union[ast.FunctionDef, ast.AsyncFunctionDef]
# dataset attributes that hold the labels in dataset order
_LABELS = frozenset({"targets", "labels", "y", "target", "label", "y_true", "ys"})
# calls that join the per-batch outputs in loader order
_JOIN = frozenset({"concatenate", "cat", "hstack", "vstack", "stack", "array", "tensor", "asarray"})


def _bound_once(scope: ast.AST, name: str) -> Optional[ast.expr]:
    values = [n for n in ast.walk(scope) if isinstance(n, ast.Name) and n.id == name
              and not isinstance(n.ctx, ast.Load)]
    assigns = [a for a in ast.walk(scope) if isinstance(a, ast.Assign) and len(a.targets) == 1
               and isinstance(a.targets[0], ast.Name) and a.targets[0].id == name]
    return assigns[0].value if len(values) == 1 and len(assigns) == 1 else None


def _shuffles(ctx: FileContext, call: ast.Call) -> Optional[ast.AST]:
    """The node that says ``shuffle=True`` for a DataLoader call (itself, or the dict it unpacks)."""
    given = kwarg(call, "shuffle")
    if given is None and len(call.args) > 2:
        given = call.args[2]
    if given is not None:
        return given if isinstance(given, ast.Constant) and given.value is True else None
    splats = [k.value for k in call.keywords if k.arg is None]
    if len(splats) != 1 or not isinstance(splats[0], ast.Name):
        return None
    scope = ctx.enclosing_function(call) or ctx.parsed.tree
    value = _bound_once(scope, splats[0].id)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict" \
            and not value.args:
        flag = kwarg(value, "shuffle")
        return flag if isinstance(flag, ast.Constant) and flag.value is True else None
    if isinstance(value, ast.Dict) and None not in value.keys:
        for key, item in zip(value.keys, value.values):
            if isinstance(key, ast.Constant) and key.value == "shuffle":
                return item if isinstance(item, ast.Constant) and item.value is True else None
    return None


def _params(fn: _FN) -> list[str]:
    return [a.arg for a in fn.args.posonlyargs + fn.args.args]


def _pairs_in_order(fn: _FN, loader: str, labels: str) -> Optional[ast.Call]:
    """The call of ``fn`` that compares ``labels`` with the outputs it appended while iterating ``loader``."""
    gathered: set[str] = set()
    for loop in ast.walk(fn):
        if not isinstance(loop, (ast.For, ast.AsyncFor)):
            continue
        it = loop.iter
        if isinstance(it, ast.Call) and call_last(it) in ("enumerate", "tqdm") and it.args:
            it = it.args[0]
        if not (isinstance(it, ast.Name) and it.id == loader):
            continue
        for node in ast.walk(loop):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("append", "extend") and isinstance(node.func.value, ast.Name):
                gathered.add(node.func.value.id)
    if not gathered or any(isinstance(n, ast.Name) and n.id == labels and not isinstance(n.ctx, ast.Load)
                           for n in ast.walk(fn)):
        return None

    def joined(arg: ast.AST) -> bool:
        if isinstance(arg, ast.Name):
            return arg.id in gathered
        return isinstance(arg, ast.Call) and call_last(arg) in _JOIN and len(arg.args) == 1 \
            and isinstance(arg.args[0], ast.Name) and arg.args[0].id in gathered

    for call in ast.walk(fn):
        if not isinstance(call, ast.Call):
            continue
        args = list(call.args) + [k.value for k in call.keywords]
        if any(isinstance(a, ast.Name) and a.id == labels for a in args) and any(joined(a) for a in args):
            return call
    return None


def _argument(call: ast.Call, fn: _FN, param: str) -> Optional[ast.expr]:
    given = kwarg(call, param)
    params = _params(fn)
    if given is None and param in params and params.index(param) < len(call.args):
        given = call.args[params.index(param)]
    return given


@register
class ShuffledLoaderPairedWithDatasetLabels(Rule):
    code = "PF147"
    name = "shuffled-loader-paired-with-dataset-labels"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = ("a shuffling DataLoader's predictions are compared position by position with its dataset's "
               "labels in dataset order: every metric pairs predictions with other samples' labels")
    needs_text = ("shuffle",)
    explanation = """
## What it finds

A `DataLoader(dataset, ...)` built with `shuffle=True` (a keyword, the third positional
argument, or a `**kwargs` dict bound once to `dict(shuffle=True, ...)` or a dict literal) and
bound to a name, both handed to one function of the file: the loader and the dataset's labels
(`dataset.targets`, `.labels`, `.y`...), where that function iterates the loader, appends its
outputs to a list and passes that list (or `np.concatenate`/`torch.cat` of it) to one call
together with the labels (`r2_score(targets, np.concatenate(preds))`).

## Why it matters

A shuffling loader draws a new permutation every epoch, so the i-th prediction belongs to a
random sample, not to `dataset.targets[i]`. The metric compares predictions with the labels of
other samples: it is close to chance, moves at random between epochs, and any checkpoint or
early stopping chosen on it is chosen at random (OpenADMET openadmet-models PR 572: evaluation
loaders built with the training `shuffle=True`).

## How to fix it

Build evaluation loaders with `shuffle=False` (and `drop_last=False`), or collect the labels from
the batches alongside the predictions.

## When preflight stays silent

* `shuffle` is not literally true (a variable, a `sampler=`), or the kwargs dict is bound more
  than once or built otherwise.
* The function collects the labels from the batches, or uses the dataset's labels for
  something else than a call with the gathered outputs, or is a method or defined twice.
"""
    bad_examples = examples("preflight.rules.code._pf147_examples", "PF147_BAD")
    good_examples = examples("preflight.rules.code._pf147_examples", "PF147_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        functions: dict[str, list[_FN]] = {}
        for fn in ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
            functions.setdefault(fn.name, []).append(fn)
        for assign in ctx.nodes(ast.Assign):
            call = assign.value
            if len(assign.targets) != 1 or not isinstance(assign.targets[0], ast.Name) \
                    or not isinstance(call, ast.Call) or call_last(call) != "DataLoader":
                continue
            dataset = call.args[0] if call.args else kwarg(call, "dataset")
            flag = _shuffles(ctx, call)
            scope = ctx.enclosing_function(assign) or ctx.parsed.tree
            loader = assign.targets[0].id
            if flag is None or not isinstance(dataset, ast.Name) or _bound_once(scope, loader) is None:
                continue
            found = self._paired(ctx, scope, functions, loader, dataset.id)
            if found is None:
                continue
            use, pairing = found
            yield ctx.finding(
                self, call,
                f"`{loader}` shuffles (`shuffle=True`), but `{ast.unparse(use.func)}` gathers its predictions in "
                f"loader order and compares them position by position with `{dataset.id}`'s labels in dataset "
                "order: every metric (and the checkpoint chosen on it) pairs predictions with other samples' "
                "labels. Build the evaluation loader with `shuffle=False`",
                evidence=[ctx.evidence(flag, "shuffle=True"), ctx.evidence(use, "the loader and the dataset's labels"),
                          ctx.evidence(pairing, "predictions compared with the labels by position")])

    def _paired(self, ctx: FileContext, scope: ast.AST, functions: dict[str, list[_FN]], loader: str,
                dataset: str) -> Optional[tuple[ast.Call, ast.Call]]:
        for use in ast.walk(scope):
            if not (isinstance(use, ast.Call) and isinstance(use.func, ast.Name)
                    and len(functions.get(use.func.id, [])) == 1):
                continue
            fn = functions[use.func.id][0]
            if ctx.enclosing(fn, ast.ClassDef) is not None or any(isinstance(a, ast.Starred) for a in use.args):
                continue
            params = _params(fn)
            loader_p = [p for p in params if isinstance(_argument(use, fn, p), ast.Name)
                        and getattr(_argument(use, fn, p), "id", None) == loader]
            label_p = [p for p in params if isinstance(_argument(use, fn, p), ast.Attribute)
                       and isinstance(getattr(_argument(use, fn, p), "value", None), ast.Name)
                       and getattr(getattr(_argument(use, fn, p), "value", None), "id", None) == dataset
                       and getattr(_argument(use, fn, p), "attr", None) in _LABELS]
            if len(loader_p) != 1 or len(label_p) != 1:
                continue
            pairing = _pairs_in_order(fn, loader_p[0], label_p[0])
            if pairing is not None:
                return use, pairing
        return None
