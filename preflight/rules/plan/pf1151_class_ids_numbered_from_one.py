"""PF1151 class-ids-numbered-from-one: the label map gives class ids ``enumerate(CLASSES, start=1)`` (1..N) while
the classifier head has exactly ``len(CLASSES)`` outputs (ids 0..N-1): the last class is out of range and the
first batch holding it fails the loss's target check (pytorch issue 15666)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Iterable, Iterator, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.sources import ParsedPython

# keywords that size a classifier's output to the number of classes
_SIZES = frozenset({"num_classes", "num_labels", "n_classes", "nclasses", "num_class", "out_features",
                    "n_outputs", "num_outputs"})
# heads where id 0 is the background class (ids of the real classes start at 1 by design)
_BACKGROUND = ("rcnn", "retina", "ssd", "fcos", "detr", "yolo", "predictor", "detector", "mask", "seg")
_LOSSES = ("CrossEntropyLoss", "cross_entropy", "NLLLoss", "nll_loss")


def _enumerated(node: ast.expr) -> Optional[str]:
    """``enumerate(NAME, start=1)`` / ``enumerate(sorted(NAME), 1)`` -> NAME."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "enumerate"
            and node.args):
        return None
    start = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "start"), None)
    if not (isinstance(start, ast.Constant) and start.value == 1 and not isinstance(start.value, bool)):
        return None
    seq = node.args[0]
    if isinstance(seq, ast.Call) and isinstance(seq.func, ast.Name) and seq.func.id in ("sorted", "list", "tuple") \
            and len(seq.args) == 1:
        seq = seq.args[0]
    return seq.id if isinstance(seq, ast.Name) else None


def _one_based_maps(tree: ast.AST) -> Iterator[tuple[str, ast.DictComp]]:
    """(NAME, comprehension) of ``{name: i for i, name in enumerate(NAME, start=1)}``."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.DictComp) or len(node.generators) != 1:
            continue
        gen = node.generators[0]
        seq = _enumerated(gen.iter)
        if seq is None or gen.ifs or not isinstance(gen.target, ast.Tuple) or len(gen.target.elts) != 2:
            continue
        counter, item = gen.target.elts
        if isinstance(counter, ast.Name) and isinstance(item, ast.Name) and isinstance(node.value, ast.Name) \
                and node.value.id == counter.id and isinstance(node.key, ast.Name) and node.key.id == item.id:
            yield seq, node


def _len_of(node: ast.expr) -> Optional[str]:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" \
            and len(node.args) == 1 and isinstance(node.args[0], ast.Name):
        return node.args[0].id
    return None


def _heads(tree: ast.AST) -> Iterator[tuple[str, ast.Call]]:
    """(NAME, call) of a classifier sized ``len(NAME)``: ``num_classes=len(NAME)``, ``nn.Linear(h, len(NAME))``."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        callee = ast.unparse(node.func).lower()
        if any(word in callee for word in _BACKGROUND):
            continue
        for keyword in node.keywords:
            name = _len_of(keyword.value) if keyword.arg in _SIZES else None
            if name is not None:
                yield name, node
        if callee.endswith("linear") and len(node.args) == 2:
            name = _len_of(node.args[1])
            if name is not None:
                yield name, node


def _text(script: ParsedPython) -> str:
    return script.text if script.text is not None else script.source.text


def _origin(script: ParsedPython, name: str) -> Optional[str]:
    """The module a module-level ``name`` of the script comes from: the script itself (a module-level
    assignment) or the module it is imported from (``from cifar_variant import CLASSES``); None for a local."""
    for node in script.tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and any(
                (alias.asname or alias.name) == name and alias.name == name for alias in node.names):
            return node.module.rsplit(".", 1)[-1]
    for node in script.tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, ast.AnnAssign) else [])
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return Path(script.source.display).stem
    return None


@register
class ClassIdsNumberedFromOne(PlanRule):
    code = "PF1151"
    name = "class-ids-numbered-from-one"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("torch", "transformers", "lightning")
    summary = ("Class ids come from `enumerate(CLASSES, start=1)` (1..N) while the classifier has exactly "
               "`len(CLASSES)` outputs: the last class's id N is out of range and the first batch holding it fails "
               "in the loss (\"device-side assert\" / \"Target N is out of bounds\")")
    explanation = """
## What it finds

A label map built as `{name: i for i, name in enumerate(CLASSES, start=1)}` (also over
`sorted(CLASSES)`, with `start` given positionally) in one file of the job, and a classifier
whose output size is exactly `len(CLASSES)` (the same name) in any file of the job:
`num_classes=len(CLASSES)`, `num_labels=len(CLASSES)`, `out_features=len(CLASSES)` or
`nn.Linear(hidden, len(CLASSES))`, in a job that computes a cross-entropy or NLL loss (or
sizes a Transformers model with `num_labels`, which computes cross-entropy itself).

## Why it matters

`CrossEntropyLoss`/`NLLLoss` take class indices in `[0, C)` for `C` outputs. Numbering N
classes from 1 gives ids 1..N: id N has no output. On the GPU the first batch that holds
the last class trips the assertion `t >= 0 && t < n_classes` ("CUDA error: device-side
assert triggered", which then poisons every later CUDA call); on the CPU it is "IndexError:
Target N is out of bounds". Output 0 is never a target either, so even a run that skipped
the last class would train one useless logit (pytorch issue 15666, "Why does Cuda
NLLCriterion mandate consecutive labels starting at 0?").

## How to fix it

Number the classes from 0 (`enumerate(CLASSES)`), or, if id 0 is meant for a background
or padding class, size the head `len(CLASSES) + 1`.

## When preflight stays silent

* The head is sized `len(CLASSES) + 1` or from another value (a constant, a config key):
  preflight does not compare numbers it would have to evaluate.
* The call that sizes the head is a detection/segmentation model or predictor
  (`fasterrcnn_*`, `FastRCNNPredictor`, RetinaNet, SSD, FCOS, DETR, YOLO, Mask R-CNN,
  segmentation heads), where id 0 is the background class by design.
* The map is over a different name than the head's `len(...)` argument, over an attribute
  (`dataset.classes`), or over a local variable: both must be the same module-level list (defined
  in the file, or imported from the module that defines it).
* The job computes no cross-entropy/NLL loss in its files (nor uses `num_labels`), e.g. the
  1-based ids are COCO category ids written to an annotation file.
"""
    bad_examples = examples("preflight.rules.plan._pf1151_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf1151_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        scripts = pctx.scripts
        maps: list[tuple[ParsedPython, str, ast.DictComp]] = []
        for script in scripts:
            if "enumerate(" not in _text(script):
                continue
            maps.extend((script, name, comp) for name, comp in _one_based_maps(script.tree))
        if not maps:
            return
        heads: dict[tuple[str, str], tuple[ParsedPython, ast.Call]] = {}
        loss = False
        for script in scripts:
            text = _text(script)
            loss = loss or any(word in text for word in _LOSSES)
            for name, call in _heads(script.tree):
                origin = _origin(script, name)
                if origin is not None:
                    heads.setdefault((name, origin), (script, call))
        done: set[str] = set()
        for script, name, comp in maps:
            origin = _origin(script, name)
            head = heads.get((name, origin)) if origin is not None else None
            if head is None or name in done:
                continue
            head_script, call = head
            by_labels = any(k.arg == "num_labels" for k in call.keywords)
            if not (loss or by_labels):
                continue
            done.add(name)
            yield pctx.code_finding(
                self, script, comp,
                f"class ids come from `enumerate({name}, start=1)`, so the N={name} classes get ids 1..N, but "
                f"`{ast.unparse(call.func)}` (line {call.lineno} of {head_script.source.display}) has exactly "
                f"`len({name})` outputs, ids 0..N-1: the last class's id is out of range, and the first batch "
                "holding it fails the loss's target check (CUDA \"device-side assert triggered\", on the CPU "
                "\"Target N is out of bounds\"; pytorch issue 15666). Number the classes from 0, or size the head "
                f"`len({name}) + 1` if id 0 is meant for a background class",
                evidence=[pctx.code_evidence(head_script, call, f"the head has len({name}) outputs here")])
