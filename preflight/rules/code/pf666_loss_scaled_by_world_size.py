"""PF666 loss-scaled-by-world-size: a per-process loss multiplied by the world size before backward under
DistributedDataParallel, which already averages the gradients."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_COUNT_WORDS = ("world_size", "num_processes")
# losses over a gathered global batch: scaling by the world size can be the deliberate correction there
_GLOBAL = ("all_gather", "GatherLayer", "gather_all", "allgather",
           # or normalised by a count summed over the processes (open-instruct, OLMo-core: a loss divided by
           # the global token count, times the world size to undo DDP's averaging)
           "all_reduce", "num_items_in_batch")


def _count(node: ast.expr) -> bool:
    return any(w in ast.unparse(node) for w in _COUNT_WORDS)


def _scaled(value: ast.expr, name: str) -> Optional[ast.expr]:
    """The count factor when ``value`` is ``name * count`` (either order)."""
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult):
        for mine, other in ((value.left, value.right), (value.right, value.left)):
            if ast.unparse(mine) == name and _count(other):
                return other
    return None


def _flat(node: ast.expr, op: tuple[type, ...]) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, op):
        return [*_flat(node.left, op), *_flat(node.right, op)]
    return [node]


def _scaled_term(value: ast.expr) -> Optional[tuple[ast.expr, ast.expr]]:
    """``(count factor, term)`` when ``value`` is a sum of losses one of whose terms is weighted by the
    number of processes: ``loss_id + args.world_size * args.lambda_g * loss_g`` (MagFace 12)."""
    if not (isinstance(value, ast.BinOp) and isinstance(value.op, (ast.Add, ast.Sub))):
        return None
    for term in _flat(value, (ast.Add, ast.Sub)):
        factors = _flat(term, (ast.Mult,))
        if len(factors) < 2:
            continue
        counts = [f for f in factors if _count(f)]
        if len(counts) == 1 and any(not isinstance(f, ast.Constant) for f in factors if f is not counts[0]):
            return counts[0], term
    return None


def _backward_of(fn: ast.AST, name: str, after: int) -> Optional[ast.Call]:
    """``name.backward()`` / ``accelerator.backward(name)`` / ``engine.backward(name)`` after line ``after``."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "backward" \
                and node.lineno > after \
                and (ast.unparse(node.func.value) == name or (node.args and ast.unparse(node.args[0]) == name)):
            return node
    return None


@register
class LossScaledByWorldSize(Rule):
    code = "PF666"
    needs_text = ("world_size", "num_processes")
    name = "loss-scaled-by-world-size"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "accelerate")
    summary = ("A per-process loss is multiplied by the world size before backward under DDP, which already "
               "averages gradients: the update is world_size times too large")
    explanation = """
## What it finds

In a file that wraps its model in `DistributedDataParallel` (or prepares it with Accelerate),
a loss multiplied by the number of processes (`loss = loss * args.world_size`,
`loss *= dist.get_world_size()`, `accelerator.num_processes * loss`) and then given to
`backward()`.

## Why it matters

Each process's loss is already the mean over its own micro-batch, and DDP averages the
gradients over the processes in backward (Accelerate's prepared model is the same DDP). The
averaged gradient of per-process means is the gradient of the global-batch mean: there is
nothing to undo. Multiplying by the world size makes every update `world_size` times the
single-process one at the same per-sample batch: 8x the learning rate on 8 GPUs with SGD,
and the DDP run no longer matches the one-process run (sparseml PR 135, "Fix incorrect loss
scaling in DDP setup").

The same holds for one term of a sum: `loss = loss_id + args.world_size * lambda_g * loss_g`
weights the regulariser `world_size` times more than the single-process recipe does (MagFace 12).

## How to fix it

Drop the scaling; scale the learning rate on purpose if a larger global batch needs it.

## When preflight stays silent

* The file gathers tensors across processes (`all_gather`, a `GatherLayer`): a loss over the
  gathered global batch whose gradient reaches each rank only through its own slice may need
  the world-size factor to undo DDP's averaging (SimCLR/CLIP-style contrastive losses).
* The file all-reduces a tensor or uses `num_items_in_batch`: a loss divided by a count summed
  over every process (the global token count of open-instruct's and OLMo-core's trainers) needs
  the world-size factor to undo DDP's averaging.
* No DDP wrap or Accelerate `prepare` in the file.
"""
    bad_examples = examples("preflight.rules.code._pf666_examples", "PF666_BAD")
    good_examples = examples("preflight.rules.code._pf666_examples", "PF666_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        text = (ctx.parsed.text if ctx.parsed.text is not None else ctx.parsed.source.text) or ""
        if not any(w in text for w in ("DistributedDataParallel", "DDP(", ".prepare(")) \
                or any(w in text for w in _GLOBAL):
            return
        for fn in ctx.nodes(ast.FunctionDef):
            for node in ast.walk(fn):
                factor: Optional[ast.expr] = None
                target = ""
                term: Optional[ast.expr] = None
                if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                        and isinstance(node.targets[0], ast.Name):
                    target = node.targets[0].id
                    factor = _scaled(node.value, target)
                    if factor is None:
                        factor, term = _scaled_term(node.value) or (None, None)
                elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Mult) \
                        and isinstance(node.target, ast.Name) and _count(node.value):
                    target, factor = node.target.id, node.value
                if factor is None or "loss" not in target.lower():
                    continue
                backward = _backward_of(fn, target, getattr(node, "lineno", 0))
                if backward is None:
                    continue
                if term is not None:
                    yield ctx.finding(
                        self, node,
                        f"The term `{ast.unparse(term)}` of `{target}` is weighted by `{ast.unparse(factor)}` "
                        f"before `backward()` (line {backward.lineno}): each process's loss is already a mean over "
                        "its own batch and DDP averages the gradients over the processes, so this term weighs "
                        "world_size times what it weighs in the single-process recipe (MagFace 12: the regulariser "
                        "weight became num_gpu * lambda_g). Drop the count from the weight",
                        evidence=[ctx.evidence(backward, "the loss goes to backward here")])
                    continue
                yield ctx.finding(
                    self, node,
                    f"`{target}` is multiplied by `{ast.unparse(factor)}` before `backward()` (line "
                    f"{backward.lineno}): each process's loss is already a mean over its own batch and DDP averages "
                    "the gradients over the processes, so nothing needs undoing; the update becomes world_size times "
                    "the single-process gradient (8x the learning rate on 8 GPUs with SGD). Drop the scaling",
                    evidence=[ctx.evidence(backward, "the scaled loss goes to backward here")])
