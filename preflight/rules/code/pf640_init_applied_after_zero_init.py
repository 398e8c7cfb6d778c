"""PF640 init-applied-after-zero-init: ``model.apply(init_fn)`` after the ``deepspeed.zero.Init``
block that built the model: the parameters are already partitioned and the in-place initialisation
writes to empty placeholders."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_IN_PLACE = frozenset({"normal_", "uniform_", "zero_", "fill_", "mul_", "copy_", "trunc_normal_", "xavier_uniform_",
                       "xavier_normal_", "kaiming_uniform_", "kaiming_normal_", "orthogonal_", "constant_",
                       "ones_", "zeros_", "div_", "add_", "clamp_"})


def _zero_init(item: ast.withitem) -> bool:
    call = item.context_expr
    if not isinstance(call, ast.Call):
        return False
    text = ast.unparse(call.func)
    if not text.endswith("zero.Init"):
        return False
    enabled = next((k.value for k in call.keywords if k.arg == "enabled"), None)
    return enabled is None or (isinstance(enabled, ast.Constant) and enabled.value is True)


def _writes_parameters(fn: ast.FunctionDef) -> Optional[ast.Call]:
    """The first in-place write of ``fn`` on a module's weights (``m.weight.data.normal_(...)``,
    ``nn.init.xavier_uniform_(m.weight)``), None when there is none or ``fn`` gathers the
    parameters itself (``deepspeed.zero.GatheredParameters``)."""
    first: Optional[ast.Call] = None
    for node in ast.walk(fn):
        if isinstance(node, ast.Attribute) and node.attr == "GatheredParameters":
            return None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _IN_PLACE \
                and (first is None or (node.lineno, node.col_offset) < (first.lineno, first.col_offset)):
            first = node
    return first


@register
class InitAppliedAfterZeroInit(Rule):
    code = "PF640"
    needs_text = ("zero.Init", "apply")
    name = "init-applied-after-zero-init"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = ("`model.apply(init_fn)` runs after the `deepspeed.zero.Init` block that built the model: the "
               "parameters are partitioned placeholders and the custom initialisation changes nothing")
    explanation = """
## What it finds

A model built inside `with deepspeed.zero.Init(...):` and, after that block, a
`model.apply(init_fn)` whose function (defined in the file) initialises weights in place
(`module.weight.data.normal_(...)`, `.zero_()`, `nn.init.xavier_uniform_(module.weight)`)
without gathering them (`deepspeed.zero.GatheredParameters`). Reported on the `apply` call.

## Why it matters

`zero.Init` partitions every parameter as soon as its sub-module is constructed: each rank
keeps a shard in `ds_tensor` and the parameter itself becomes an empty placeholder. Inside the
`with` block DeepSpeed wraps `Module.apply` so that the applied function sees gathered
parameters (`apply_with_gather`, since v0.6.0); when the block exits, the original
`Module.apply` is restored. An `apply` after the block then writes to size-0 tensors: the
custom init (GPT-2's `normal_(std=0.02)`, scaled residual projections, zero biases) silently
does nothing and the model trains from PyTorch's default init, with no error (DeepSpeed issue
2650, "zero.Init and silent skipping of custom _init_weights functions").

## How to fix it

Call `model.apply(init_fn)` inside the `with deepspeed.zero.Init(...)` block (or in the
model's `__init__`), or gather in the function: `with
deepspeed.zero.GatheredParameters(list(module.parameters(recurse=False)), modifier_rank=0):`.

## When preflight stays silent

* `apply` runs inside the `zero.Init` block, or the init function gathers the parameters.
* The `zero.Init` has `enabled=` with anything but `True` (ZeRO-3 not known to be on).
* The init function is not defined in the file, or writes nothing in place.
"""
    bad_examples = examples("preflight.rules.code._pf640_examples", "PF640_BAD")
    good_examples = examples("preflight.rules.code._pf640_examples", "PF640_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        functions = {fn.name: fn for fn in ctx.nodes(ast.FunctionDef)}
        for block in ctx.nodes(ast.With):
            if not any(_zero_init(item) for item in block.items):
                continue
            built = {t.id for stmt in block.body for node in ast.walk(stmt) if isinstance(node, ast.Assign)
                     for t in node.targets if isinstance(t, ast.Name)}
            if not built:
                continue
            for call in ctx.nodes(ast.Call):
                func = call.func
                if not (isinstance(func, ast.Attribute) and func.attr == "apply" and isinstance(func.value, ast.Name)
                        and func.value.id in built and len(call.args) == 1 and not call.keywords):
                    continue
                if ctx.under(call, block) or (call.lineno, call.col_offset) < (block.lineno, block.col_offset):
                    continue
                if ctx.enclosing_function(call) is not ctx.enclosing_function(block):
                    continue
                arg = call.args[0]
                init = functions.get(arg.id) if isinstance(arg, ast.Name) else None
                write = _writes_parameters(init) if init is not None else None
                if write is None:
                    continue
                yield ctx.finding(
                    self, call,
                    f"`{ast.unparse(call)}` runs after the `deepspeed.zero.Init` block (line {block.lineno}) that "
                    f"built `{func.value.id}`: its parameters are already partitioned into size-0 placeholders, "
                    f"and DeepSpeed gathers them for `apply` only inside the block, so `{ast.unparse(write.func)}` "
                    "and the rest of the custom init change nothing and the model trains from the default init. "
                    "Apply it inside the block, or gather in the function with "
                    "`deepspeed.zero.GatheredParameters(..., modifier_rank=0)`",
                    evidence=[ctx.evidence(block, "the model is built under zero.Init here"),
                              ctx.evidence(write, "the in-place initialisation that writes to the placeholders")])
