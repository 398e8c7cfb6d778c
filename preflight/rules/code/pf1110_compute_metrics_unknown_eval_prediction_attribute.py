"""PF1110 compute-metrics-unknown-eval-prediction-attribute: the ``compute_metrics`` function handed to a
Hugging Face ``Trainer`` reads an attribute its ``EvalPrediction`` argument does not have (``pred.prediction``,
``pred.labels``): the job trains until its first evaluation and then dies with AttributeError."""

from __future__ import annotations

import ast
import difflib
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

# what `transformers.EvalPrediction` carries (and, for the NamedTuple of old releases, its tuple methods)
_FIELDS = frozenset({"predictions", "label_ids", "inputs", "losses", "count", "index", "_asdict", "_fields",
                     "_replace", "_make", "_field_defaults"})
# the evaluation loops that build the EvalPrediction: a Trainer subclass defining one may pass something else
_OWN_LOOPS = frozenset({"evaluation_loop", "prediction_loop", "evaluate", "predict", "compute_metrics"})
_HF_PACKAGES = ("transformers", "trl")


def _imports_hf(tree: ast.Module) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in _HF_PACKAGES:
            return True
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] in _HF_PACKAGES for a in node.names):
            return True
    return False


def _hf_names(tree: ast.Module) -> set[str]:
    """The names the file imports from transformers or TRL (``Trainer``, ``SFTTrainer``, an alias)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in _HF_PACKAGES:
            out.update(a.asname or a.name for a in node.names)
    return out


def _library_trainer(call: ast.Call, hf: set[str], classes: dict[str, ast.ClassDef]) -> bool:
    """``call`` builds a transformers/TRL trainer, or a subclass in this file that keeps its evaluation loop."""
    func = call.func
    if isinstance(func, ast.Attribute):
        return ast.unparse(func.value).split(".")[0] in _HF_PACKAGES and func.attr.endswith("Trainer")
    if not isinstance(func, ast.Name) or not func.id.endswith("Trainer"):
        return False
    if func.id in hf:
        return True
    own = classes.get(func.id)
    if own is None or any(isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name in _OWN_LOOPS
                          for s in own.body):
        return False
    return any(ast.unparse(b).split(".")[-1] in hf or ast.unparse(b).split(".")[0] in _HF_PACKAGES
               for b in own.bases)


def _callee(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else (func.id if isinstance(func, ast.Name) else "")


def _param(fn: ast.FunctionDef) -> Optional[str]:
    """The EvalPrediction parameter: the only positional parameter of a plain function."""
    args = fn.args
    positional = [*args.posonlyargs, *args.args]
    if len(positional) != 1 or args.vararg is not None or args.kwarg is not None:
        return None
    note = positional[0].annotation
    if note is not None and ast.unparse(note).split(".")[-1] != "EvalPrediction":
        return None  # a project's own prediction type (a subclass with extra fields)
    return positional[0].arg


def _rebinds(fn: ast.FunctionDef, name: str) -> bool:
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, (ast.Store, ast.Del)):
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and node is not fn \
                and name in {a.arg for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]}:
            return True
    return False


@register
class ComputeMetricsUnknownEvalPredictionAttribute(Rule):
    code = "PF1110"
    needs_text = ("compute_metrics",)
    name = "compute-metrics-unknown-eval-prediction-attribute"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("the `compute_metrics` handed to a Trainer reads an attribute `EvalPrediction` does not have "
               "(`pred.prediction`): the run trains until its first evaluation, then dies with AttributeError")
    explanation = """
## What it finds

A function defined in the file and passed as `compute_metrics=` to a Hugging Face `Trainer`
(`Seq2SeqTrainer`, a TRL trainer, or a subclass that keeps the library's evaluation loop) whose
single parameter is read through an attribute that `transformers.EvalPrediction` does not have:
`pred.prediction`, `pred.labels`, `p.label_id`, `eval_pred.logits`. `EvalPrediction` has
`predictions`, `label_ids`, `inputs` and (4.43+) `losses`.

## Why it matters

Nothing calls `compute_metrics` until the first evaluation: the job trains for a whole
evaluation interval (an epoch under `eval_strategy="epoch"`) and then dies with
`AttributeError: 'EvalPrediction' object has no attribute 'prediction'` (transformers issue
24034), before the checkpoint of that interval is kept.

## How to fix it

Read `pred.predictions` and `pred.label_ids` (or unpack: `logits, labels = eval_pred`).

## When preflight stays silent

* The attribute is one of `predictions`, `label_ids`, `inputs`, `losses` (or a tuple method of
  the old NamedTuple `EvalPrediction`).
* The function is not a plain one-parameter function defined in the file (a factory's result,
  a `functools.partial`, a method), its parameter is rebound, or it is also called directly in the
  file (then it may receive something else).
* The parameter is annotated with a type other than `EvalPrediction` (a project's subclass with
  extra fields).
* The trainer is not imported from transformers / TRL (a project's own `Trainer` from another
  module), or it is a subclass defined in the file that overrides its evaluation loop.
"""
    bad_examples = examples("preflight.rules.code._pf1110_examples", "PF1110_BAD")
    good_examples = examples("preflight.rules.code._pf1110_examples", "PF1110_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        tree = ctx.tree
        if not isinstance(tree, ast.Module) or not _imports_hf(tree):
            return
        defs: dict[str, list[ast.FunctionDef]] = {}
        classes: dict[str, ast.ClassDef] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                defs.setdefault(node.name, []).append(node)
            elif isinstance(node, ast.ClassDef):
                classes[node.name] = node
        hf = _hf_names(tree)
        called_directly = {_callee(c) for c in ctx.nodes(ast.Call) if isinstance(c.func, ast.Name)}
        reported: set[int] = set()
        for call in ctx.nodes(ast.Call):
            trainer = _callee(call)
            if not _library_trainer(call, hf, classes):
                continue
            for kw in call.keywords:
                if kw.arg != "compute_metrics" or not isinstance(kw.value, ast.Name):
                    continue
                fns = defs.get(kw.value.id, [])
                if len(fns) != 1 or kw.value.id in called_directly or id(fns[0]) in reported:
                    continue
                fn = fns[0]
                param = _param(fn)
                if param is None or _rebinds(fn, param):
                    continue
                for node in ast.walk(fn):
                    if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                            and node.value.id == param and isinstance(node.ctx, ast.Load)):
                        continue
                    if node.attr in _FIELDS or node.attr.startswith("__"):
                        continue
                    reported.add(id(fn))
                    near = difflib.get_close_matches(node.attr, ["predictions", "label_ids"], n=1, cutoff=0.5)
                    hint = f"`{param}.{near[0]}`" if near else "`predictions` / `label_ids`"
                    yield ctx.finding(
                        self, node,
                        f"`{fn.name}` is the `compute_metrics` of `{trainer}(...)` (line {call.lineno}), so "
                        f"`{param}` is an `EvalPrediction`, which has no attribute `{node.attr}` (it has "
                        "`predictions`, `label_ids`, `inputs`): the job trains until its first evaluation and "
                        f"then dies with AttributeError (transformers issue 24034). Use {hint}",
                        evidence=[ctx.evidence(kw, "handed to the trainer here")])
                    break
