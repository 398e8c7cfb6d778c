"""PF639 pipeline-stages-draw-own-samples: a DeepSpeed pipeline engine gets a training dataset whose
``__getitem__`` ignores its index and draws the sample at random: the first stage (inputs) and the
last stage (labels) load different samples."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._index_free_datasets import index_free_datasets
from preflight.rules.base import Rule, examples


def _assigned_call(tree: ast.AST, name: str) -> Optional[ast.Call]:
    """The call a module- or function-level ``name = Call(...)`` binds (the only binding of ``name``)."""
    found: list[ast.Call] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            if not isinstance(node.value, ast.Call):
                return None
            found.append(node.value)
    return found[0] if len(found) == 1 else None


def _callee(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else (func.id if isinstance(func, ast.Name) else "")


def _built(tree: ast.AST, expr: Optional[ast.expr]) -> Optional[ast.Call]:
    if isinstance(expr, ast.Call):
        return expr
    if isinstance(expr, ast.Name):
        return _assigned_call(tree, expr.id)
    return None


def _pipeline_classes(tree: ast.AST) -> set[str]:
    """``PipelineModule`` and the file's subclasses of it."""
    names = {"PipelineModule"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(
                (b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", "")) == "PipelineModule"
                for b in node.bases):
            names.add(node.name)
    return names


@register
class PipelineStagesDrawOwnSamples(Rule):
    code = "PF639"
    needs_text = ("PipelineModule", "training_data")
    name = "pipeline-stages-draw-own-samples"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("deepspeed",)
    summary = ("A DeepSpeed pipeline engine's training dataset ignores the index in `__getitem__` and draws the "
               "sample at random: the first stage's inputs and the last stage's labels come from different samples")
    explanation = """
## What it finds

`deepspeed.initialize(model=PipelineModule(...), training_data=dataset, ...)` (a
`PipelineModule` or a subclass of it, built in the file) where `dataset` is an instance of a
class of the same file whose `__getitem__(self, idx)` never reads `idx` and draws what it
returns from a global random stream: `random.randint(...)`, `np.random.*`, `torch.randint(...)`
without `generator=`. Reported on the draw.

## Why it matters

With `training_data=`, the pipeline engine builds a data loader on each stage that needs data:
the first stage reads the inputs of each micro-batch and the last stage reads its labels, each
from its own loader and its own process. Both ask for the same indices, but a dataset that
throws the index away returns whatever each process's random stream draws: the labels belong to
other inputs (and, with random lengths, their shapes disagree and `train_batch` fails), so the
pipeline never trains on matching pairs (DeepSpeed issue 3131, "how to make different rank use
same dataloader in pipeline").

## How to fix it

Make every sample a function of its index: draw from `random.Random(idx)` or a
`torch.Generator().manual_seed(idx)`, or build the samples once in `__init__` and index them.

## When preflight stays silent

* The model is not a `PipelineModule` preflight can see (plain `deepspeed.initialize`: one
  loader per data-parallel rank, where index-free draws are a different issue, PF638).
* `__getitem__` reads its index, or draws only from a generator of its own.
* The dataset class is defined in another module, or the engine is fed by `train_batch(data_iter=...)`
  without `training_data=`.
"""
    bad_examples = examples("preflight.rules.code._pf639_examples", "PF639_BAD")
    good_examples = examples("preflight.rules.code._pf639_examples", "PF639_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        tree = ctx.tree
        datasets = index_free_datasets(tree)
        if not datasets:
            return
        pipelines = _pipeline_classes(tree)
        for call in ctx.nodes(ast.Call):
            if _callee(call) != "initialize":
                continue
            kw = {k.arg: k.value for k in call.keywords if k.arg}
            model = _built(tree, kw.get("model"))
            data = _built(tree, kw.get("training_data"))
            if model is None or data is None or _callee(model) not in pipelines:
                continue
            found = datasets.get(_callee(data)) if isinstance(data.func, ast.Name) else None
            if found is None:
                continue
            cls, draw = found
            yield ctx.finding(
                self, draw,
                f"`{cls.name}.__getitem__` ignores its index and draws the sample with "
                f"`{ast.unparse(draw.func)}`, and the dataset is the pipeline engine's `training_data`: the first "
                "stage loads each micro-batch's inputs and the last stage its labels, each in its own process "
                "with its own random stream, so the labels belong to other samples (or their shapes disagree). "
                "Make every sample a function of the index (`random.Random(idx)`, "
                "`torch.Generator().manual_seed(idx)`)",
                evidence=[ctx.evidence(model, "the model is a DeepSpeed pipeline"),
                          ctx.evidence(call, "the dataset is handed to the pipeline engine here")])
