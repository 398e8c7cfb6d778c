"""PF220 trainer-finds-no-label-names: a ``Trainer`` with ``compute_metrics`` for a project model whose
``forward`` has no parameter named like a label, and ``TrainingArguments`` without ``label_names``."""

from __future__ import annotations

import ast
import os
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_TRAINERS = ("Trainer", "Seq2SeqTrainer")
_MAX_BYTES = 1_000_000


def _kw(call: ast.Call, name: str) -> Optional[ast.AST]:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None


def _assigned_call(tree: ast.AST, name: str) -> Optional[ast.Call]:
    """The one call ``name = Call(...)`` assigns in the module (None when assigned otherwise or twice)."""
    found: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id == name:
                    found.append(node.value)
    if len(found) != 1 or not isinstance(found[0], ast.Call):
        return None
    return found[0]


def _class_in(tree: ast.AST, name: str) -> Optional[ast.ClassDef]:
    defs = [n for n in getattr(tree, "body", []) if isinstance(n, ast.ClassDef) and n.name == name]
    return defs[0] if len(defs) == 1 else None


def _local_class(ctx: FileContext, name: str) -> Optional[ast.ClassDef]:
    """The class ``name`` defined in this file, or imported ``from <module> import name`` where
    ``<module>.py`` sits beside the file."""
    here = _class_in(ctx.tree, name)
    if here is not None:
        return here
    for node in getattr(ctx.tree, "body", []):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if not any((a.asname or a.name) == name and a.name == name for a in node.names):
                continue
            folder = os.path.dirname(os.path.abspath(str(ctx.parsed.source.path)))
            path = os.path.join(folder, *node.module.split(".")) + ".py"
            if not os.path.isfile(path):
                return None
            from preflight.local_trees import parse_file

            try:
                if os.path.getsize(path) > _MAX_BYTES:
                    return None
                return _class_in(parse_file(path), name)
            except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
                return None
    return None


@register
class TrainerFindsNoLabelNames(Rule):
    code = "PF220"
    name = "trainer-finds-no-label-names"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("A Trainer with compute_metrics for a project model whose forward has no parameter named like a "
               "label, without label_names: evaluation sees no labels and compute_metrics is never called")
    frameworks = ("transformers",)
    needs_text = ("TrainingArguments",)
    explanation = """
## What it finds

A `Trainer(...)`/`Seq2SeqTrainer(...)` given `compute_metrics=` (or whose arguments set
`load_best_model_at_end=True` with the default `eval_loss` or a loss metric) whose `args` is a
`TrainingArguments(...)` of the same file without `label_names`, and whose `model` is
built from a class of the project (this file, or `from module import Class` with
`module.py` beside it) whose own `forward` has no parameter with `label` in its name
(`forward(self, states, actions, rewards, ...)`) and no `**kwargs`.

## Why it matters

The Trainer takes its label names from the model's `forward` signature when
`label_names` is not given: `self.label_names = find_labels(model.__class__)` in
`Trainer.__init__` (transformers `trainer.py`), and `find_labels`
(`transformers/utils/generic.py`) keeps the parameters whose name contains `"label"`
(plus `start_positions`/`end_positions` for question answering). With none, every
evaluation batch counts as unlabelled: `prediction_step` returns no labels, the
evaluation loop never calls `compute_metrics` (it needs both predictions and labels)
and, unless the model can return its loss without labels, no `eval_loss` is logged.
The run trains and evaluates without a metric, and with `load_best_model_at_end`
on the default `eval_loss` the first evaluation fails with `KeyError: 'eval_loss'` (transformers issue 21553: targets named `actions`;
maintainer: "just pass along `label_names=["actions"]`").

## How to fix it

`TrainingArguments(..., label_names=["actions"])` with the names of the batch keys
that hold the targets (or rename the forward parameter to contain `label`).

## When preflight stays silent

* `label_names` is given (or the arguments are built with `**kwargs` or elsewhere).
* The model's class is not found in the project, has no `forward` of its own, or its
  `forward` takes `**kwargs` or a parameter whose name contains `label`
  (`start_positions`/`end_positions` for a `...QuestionAnswering` class).
* No `compute_metrics` and no best-model selection on the loss; for the loss, a
  `forward` that takes `return_loss` (the Trainer then asks the model for its loss).
"""
    bad_examples = examples("preflight.rules.code._pf220_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf220_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if not ctx.mentions("TrainingArguments"):
            return
        for call in ctx.nodes(ast.Call):
            func = call.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name not in _TRAINERS or any(k.arg is None for k in call.keywords):
                continue
            metrics = _kw(call, "compute_metrics")
            args = _kw(call, "args")
            model = _kw(call, "model")
            if isinstance(metrics, ast.Constant) and metrics.value is None:
                metrics = None
            if not isinstance(args, ast.Name):
                continue
            targs = _assigned_call(ctx.tree, args.id)
            if targs is None or not (isinstance(targs.func, (ast.Name, ast.Attribute))
                                     and ast.unparse(targs.func).endswith("TrainingArguments")):
                continue
            if _kw(targs, "label_names") is not None or any(k.arg is None for k in targs.keywords):
                continue
            best = _kw(targs, "load_best_model_at_end")
            chosen = _kw(targs, "metric_for_best_model")
            on_loss = isinstance(best, ast.Constant) and best.value is True and (
                chosen is None or (isinstance(chosen, ast.Constant) and "loss" in str(chosen.value)))
            if metrics is None and not on_loss:
                continue
            built = model if isinstance(model, ast.Call) else (
                _assigned_call(ctx.tree, model.id) if isinstance(model, ast.Name) else None)
            if built is None or not isinstance(built.func, ast.Name):
                continue
            cls = _local_class(ctx, built.func.id)
            if cls is None:
                continue
            forwards = [n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                        and n.name == "forward"]
            if len(forwards) != 1:
                continue
            fwd = forwards[0].args
            if fwd.kwarg is not None:
                continue
            params = [a.arg for a in (*fwd.posonlyargs, *fwd.args, *fwd.kwonlyargs)][1:]
            if any("label" in p for p in params):
                continue
            if "QuestionAnswering" in cls.name and {"start_positions", "end_positions"} & set(params):
                continue
            if metrics is None and "return_loss" in params:
                continue  # can_return_loss: the model returns its loss without labels
            shown = ", ".join(params[:6]) + (", ..." if len(params) > 6 else "")
            effect = ("`compute_metrics` is never called and no eval metric is logged" if metrics is not None else
                      "no `eval_loss` is computed and `load_best_model_at_end` (best model by eval loss) fails "
                      "with KeyError 'eval_loss' at the first evaluation")
            yield ctx.finding(
                self, targs,
                f"`TrainingArguments` without `label_names` for `{cls.name}`, whose `forward({shown})` has no "
                "parameter named like a label: the Trainer takes its label names from that signature "
                f"(`find_labels`), finds none, and evaluates without labels, so {effect}; set `label_names=[...]` "
                "to the batch keys that hold the targets",
                evidence=[ctx.evidence(call, "this Trainer evaluates the model")])
