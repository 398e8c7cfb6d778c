"""PF680 graph-batch-logged-without-batch-size: ``self.log`` of an epoch-averaged value in a step whose batch
is a PyTorch Geometric ``Batch``, without ``batch_size=``: Lightning cannot infer the number of graphs."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code._lightning_code import averaged_without_size, log_calls

# attributes only a PyG (torch_geometric) Batch carries; ``x``/``y`` are too common to tell
_GRAPH_ATTRS = {"num_graphs", "edge_index", "ptr", "edge_attr"}
_NODE_MASKS = {"train_mask", "val_mask", "test_mask"}
_GRAPH_TYPES = {"Batch", "Data", "HeteroData", "BaseData"}
# hooks whose self.log defaults to on_epoch=True
_EPOCH_HOOKS = {"validation_step", "test_step"}
_STEP_HOOKS = {"training_step", "validation_step", "test_step"}


def _params(fn: ast.FunctionDef) -> list[ast.arg]:
    return [*fn.args.posonlyargs, *fn.args.args]


def _batch_param(fn: ast.FunctionDef) -> Optional[ast.arg]:
    params = _params(fn)
    if len(params) >= 2 and params[0].arg == "self":
        return params[1]
    return None


def _annotated_graph(arg: ast.arg) -> bool:
    if arg.annotation is None:
        return False
    text = ast.unparse(arg.annotation)
    return (text.rsplit(".", 1)[-1] in _GRAPH_TYPES and ("geometric" in text or "." not in text)) \
        or "torch_geometric" in text


def _reads_graph_attr(fn: ast.AST, name: str) -> bool:
    for node in ast.walk(fn):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name \
                and (node.attr in _GRAPH_ATTRS or node.attr == "batch"):  # .batch: the node-to-graph index
            return True
    return False


def _node_masks(fn: ast.AST, name: str) -> bool:
    """``batch.train_mask`` / ``data.val_mask``: node-level training on one whole graph (Planetoid-style), one
    batch per epoch, where the weighting of the epoch mean does not matter."""
    return any(isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name
               and node.attr in _NODE_MASKS for node in ast.walk(fn))


def _unpacked(fn: ast.AST, name: str) -> bool:
    """``x, y = batch`` / ``batch[0]`` / ``batch["x"]``: a tuple or dict, not a graph batch."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id == name \
                and any(isinstance(t, (ast.Tuple, ast.List)) for t in node.targets):
            return True
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == name:
            return True
    return False


def _self_call(node: ast.AST, batch: str) -> Optional[str]:
    """``self(batch)`` -> "forward", ``self.name(batch, ...)`` -> "name"."""
    if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Name)
            and node.args[0].id == batch):
        return None
    f = node.func
    if isinstance(f, ast.Name) and f.id == "self":
        return "forward"
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self":
        return f.attr
    return None


@register
class GraphBatchLoggedWithoutBatchSize(Rule):
    code = "PF680"
    name = "graph-batch-logged-without-batch-size"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    needs_text = ("_step",)
    summary = ("`self.log` of an epoch-averaged value on a PyTorch Geometric batch without `batch_size=`: Lightning "
               "weights the epoch mean by a size it guesses from the first tensor in the Batch")
    explanation = """
## What it finds

A LightningModule step whose batch is a PyTorch Geometric `Batch` (the step, its `forward`
(`self(batch)`) or a helper it hands the batch to reads `batch.num_graphs`, `batch.edge_index`,
`batch.ptr`, `batch.edge_attr` or `batch.batch`, or the parameter is annotated as a
`torch_geometric` `Batch`/`Data`), and a `self.log(...)` / `self.log_dict(...)` in it that is
averaged over the epoch (`validation_step`/`test_step`, where `on_epoch` defaults to True, or
`on_epoch=True` given) with no `batch_size=`.

## Why it matters

An epoch-level value is the mean of the per-batch values weighted by each batch's size.
Without `batch_size=` Lightning extracts one from the batch: a PyG `Batch` iterates as
(key, tensor) pairs, so it takes the first dimension of the first tensor it meets (the node
count of `x`, or 2 for `edge_index`) and warns about an ambiguous collection. The epoch
`val_loss` that `ModelCheckpoint`/`EarlyStopping` monitor is then a mean weighted by node
counts (or not weighted at all) instead of by graphs (pyg-team/pytorch_geometric#9829; the
reporter's fix: `batch_size=batch.num_graphs`).

## How to fix it

`self.log("val_loss", loss, batch_size=batch.num_graphs)` (and the same in every epoch-level
log of the step).

## When preflight stays silent

* `batch_size=` is given, or `**kwargs` are passed on.
* The value is logged per step only (`training_step` default, or `on_epoch=False`), or
  reduced with something other than the mean (`reduce_fx="max"`).
* A torchmetrics object is logged (`self.log("acc", self.val_acc)`): it keeps its own counts.
* The batch is unpacked (`x, y = batch`, `batch["x"]`) or nothing marks it as a PyG batch.
* Node-level training on a whole graph (`batch.train_mask`/`val_mask`/`test_mask` read): one
  batch per epoch, so the weights of the epoch mean do not matter.
"""
    url = "https://github.com/pyg-team/pytorch_geometric/issues/9829"
    bad_examples = examples("preflight.rules.code._pf680_examples", "BAD")
    good_examples = examples("preflight.rules.code._pf680_examples", "GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for cls in ctx.nodes(ast.ClassDef):
            methods = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}
            for hook in sorted(_STEP_HOOKS & set(methods)):
                step = methods[hook]
                arg = _batch_param(step)
                if arg is None:
                    continue
                batch = arg.arg
                if _unpacked(step, batch):
                    continue
                reached = [step]  # the step and the methods it hands the batch to
                for node in ast.walk(step):
                    target = _self_call(node, batch)
                    if target in methods and methods[target] not in reached:
                        reached.append(methods[target])
                graph = _annotated_graph(arg) or _reads_graph_attr(step, batch)
                masked = _node_masks(step, batch)
                for fn in reached[1:]:
                    inner = _batch_param(fn)
                    if inner is not None and not _unpacked(fn, inner.arg) and (
                            _annotated_graph(inner) or _reads_graph_attr(fn, inner.arg)):
                        graph = True
                    masked = masked or (inner is not None and _node_masks(fn, inner.arg))
                if not graph or masked:
                    continue
                logs = [c for fn in reached for c in log_calls(fn)
                        if averaged_without_size(c, hook in _EPOCH_HOOKS)]
                if not logs:
                    continue
                logs.sort(key=lambda c: (c.lineno, c.col_offset))
                first = logs[0]
                more = f" (and {len(logs) - 1} more log call(s) reached from this step)" if len(logs) > 1 else ""
                yield ctx.finding(
                    self, first,
                    f"`{ast.unparse(first.func)}(...)` in `{hook}` averages over the epoch a value of a PyTorch "
                    f"Geometric batch without `batch_size=`{more}: Lightning cannot count the graphs of a `Batch` and "
                    "weights each batch by the first dimension of the first tensor it finds (nodes, or 2 for "
                    "edge_index), so the epoch value is a wrongly weighted mean. Pass "
                    f"`batch_size={batch}.num_graphs`")
