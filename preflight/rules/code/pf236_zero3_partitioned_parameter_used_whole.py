"""PF236 zero3-partitioned-parameter-used-whole: parameters of a model built under ZeRO-3
partitioning are counted with ``numel()`` or re-initialised in place outside ``GatheredParameters``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import qualify
from preflight.rules.base import Rule, examples
from preflight.rules.code._zero3_gather import branches_on_zero, under_gathered_parameters

_PARAM_ITERS = frozenset({"parameters", "named_parameters"})
_MODULE_ITERS = frozenset({"modules", "named_modules", "children", "named_children"})
_INPLACE = frozenset({"normal_", "uniform_", "zero_", "fill_", "copy_", "constant_", "ones_", "zeros_",
                      "xavier_uniform_", "xavier_normal_", "kaiming_uniform_", "kaiming_normal_",
                      "trunc_normal_", "orthogonal_"})


def _root(node: ast.AST) -> Optional[str]:
    """``a`` of ``a.b.c`` / ``a[0].b``."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _is_zero_init(ctx: FileContext, item: ast.withitem) -> bool:
    expr = item.context_expr
    return isinstance(expr, ast.Call) and qualify(ctx, expr.func).endswith("zero.Init")


class _Flow:
    """Names holding a ZeRO-3-partitioned model, per function (None: module level)."""

    def __init__(self, ctx: FileContext) -> None:
        self.ctx = ctx
        self.names: dict[Optional[ast.AST], dict[str, ast.AST]] = {}
        self.returns: dict[str, ast.AST] = {}  # file-local functions that return a partitioned model
        self._functions = {f.name: f for f in ctx.nodes(ast.FunctionDef)}
        self.config_names: set[str] = set()  # names bound to HfDeepSpeedConfig(...)

    def add(self, scope: Optional[ast.AST], name: str, origin: ast.AST) -> bool:
        found = self.names.setdefault(scope, {})
        if name in found:
            return False
        found[name] = origin
        return True

    def holds(self, scope: Optional[ast.AST], node: ast.AST) -> Optional[ast.AST]:
        root = _root(node)
        if root is None:
            return None
        return self.names.get(scope, {}).get(root)

    def sources(self) -> None:
        ctx = self.ctx
        configs = [c for c in ctx.nodes(ast.Call) if qualify(ctx, c.func).endswith("HfDeepSpeedConfig")]
        for c in configs:
            parent = ctx.parent(c)
            while isinstance(parent, ast.IfExp):
                parent = ctx.parent(parent)
            if isinstance(parent, ast.Assign):
                self.config_names.update(t.id for t in parent.targets if isinstance(t, ast.Name))
        for assign in ctx.nodes(ast.Assign):
            scope = ctx.enclosing_function(assign)
            value = assign.value
            origin: Optional[ast.AST] = None
            if (any(isinstance(a, ast.With) and any(_is_zero_init(ctx, i) for i in a.items)
                   for a in ctx.ancestors(assign)) and isinstance(value, ast.Call)) or (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                    and value.func.attr == "from_pretrained" \
                    and any(c.lineno < assign.lineno and ctx.enclosing_function(c) in (scope, None) for c in configs)):
                origin = assign
            if origin is None:
                continue
            for target in assign.targets:
                if isinstance(target, ast.Name):
                    self.add(scope, target.id, origin)

    def propagate(self) -> None:
        ctx = self.ctx
        for _ in range(4):
            changed = False
            for fn in self._functions.values():
                for ret in ast.walk(fn):
                    if isinstance(ret, ast.Return) and ret.value is not None and fn.name not in self.returns:
                        origin = self.holds(fn, ret.value)
                        if origin is not None:
                            self.returns[fn.name] = origin
                            changed = True
            for assign in ctx.nodes(ast.Assign):
                scope = ctx.enclosing_function(assign)
                origin = self._value_origin(scope, assign.value)
                if origin is None:
                    continue
                for target in assign.targets:
                    if isinstance(target, ast.Name):
                        changed |= self.add(scope, target.id, origin)
            for call in ctx.nodes(ast.Call):
                helper = self._functions.get(call.func.id) if isinstance(call.func, ast.Name) else None
                if helper is None or under_gathered_parameters(ctx, call):
                    continue  # a helper called under GatheredParameters sees whole parameters
                scope = ctx.enclosing_function(call)
                params = [a.arg for a in (*helper.args.posonlyargs, *helper.args.args)]
                for param, arg in zip(params, call.args):
                    origin = self.holds(scope, arg) if isinstance(arg, ast.Name) else None
                    if origin is not None:
                        changed |= self.add(helper, param, origin)
            if not changed:
                return

    def _value_origin(self, scope: Optional[ast.AST], value: ast.AST) -> Optional[ast.AST]:
        """``m.sub.layer`` of a partitioned ``m``; ``Wrapper(m, ...)``; ``helper(...)`` returning one."""
        if isinstance(value, ast.Attribute):
            return self.holds(scope, value)
        if isinstance(value, ast.Call):
            if isinstance(value.func, ast.Name) and value.func.id in self.returns:
                return self.returns[value.func.id]
            name = value.func.id if isinstance(value.func, ast.Name) else ""
            if name[:1].isupper() and value.args and isinstance(value.args[0], ast.Name):
                return self.holds(scope, value.args[0])
        return None


@register
class Zero3PartitionedParameterUsedWhole(Rule):
    code = "PF236"
    needs_text = ("deepspeed", "DeepSpeed")
    name = "zero3-partitioned-parameter-used-whole"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = ("Parameters of a model partitioned by ZeRO-3 are counted with `numel()` or re-initialised in "
               "place outside `GatheredParameters`: each rank sees an empty placeholder")
    explanation = """
## What it finds

A model built under ZeRO-3 partitioning (constructed inside `with
deepspeed.zero.Init(...)`, or loaded with `from_pretrained` after an
`HfDeepSpeedConfig` of a stage-3 config was created) whose parameters are then
used as if whole, in the same file:

* counted: `p.numel()` over `model.parameters()` / `named_parameters()`;
* re-initialised in place: `nn.init.normal_(module.weight)`,
  `module.bias.data.zero_()` on the model, its submodules or the modules of
  `model.modules()` / `named_modules()`,

outside `with deepspeed.zero.GatheredParameters(...)`. The model is followed
through helper functions of the file (a helper that returns it, a function that
receives it, a wrapper class built around it, an attribute taken from it).

## Why it matters

Under `zero.Init` every parameter is partitioned as soon as its module's
constructor returns: DeepSpeed keeps each rank's shard elsewhere and leaves
`param.data` an empty tensor (deepspeed `runtime/zero/partition_parameters.py`,
`free_param`: "param.data doesn't store anything meaningful in partitioned
state"; the full size is in `param.ds_numel`). transformers' `from_pretrained`
builds the model inside `zero.Init` whenever a stage-3 `HfDeepSpeedConfig` is
alive. So a parameter count is 0 ("trainable params: 0", DeepSpeedExamples
issue 659), and an in-place initialisation writes into the empty placeholder:
the real weights keep their previous values and the custom initialisation is
silently lost (DeepSpeedExamples PR 839, Megatron-DeepSpeed PR 193).

## How to fix it

Count with `p.ds_numel if hasattr(p, "ds_numel") else p.numel()`. Re-initialise
inside `with deepspeed.zero.GatheredParameters(params, modifier_rank=0):`, or
inside the module's constructor (it runs before the parameters are partitioned).

## When preflight stays silent

* The file reads `ds_numel` (counts) or runs the write inside
  `GatheredParameters`, or the write sits in a branch on ZeRO-3 (`if dschf is not
  None: ... else: ...`, `if args.zero_stage == 3:`): OpenRLHF initialises its value
  head gathered under ZeRO-3 and plainly otherwise.
* The model is built outside `zero.Init` and loaded without an earlier
  `HfDeepSpeedConfig`, or the model only flows through other files.
"""
    bad_examples = examples("preflight.rules.code._pf236_examples", "PF236_BAD")
    good_examples = examples("preflight.rules.code._pf236_examples", "PF236_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        text = (ctx.parsed.text if ctx.parsed.text is not None else ctx.parsed.source.text) or ""
        if "zero.Init" not in text and "HfDeepSpeedConfig" not in text:
            return
        flow = _Flow(ctx)
        flow.sources()
        if not flow.names:
            return
        flow.propagate()
        counts_ok = "ds_numel" in text
        for loop in ctx.nodes(ast.For):
            scope = ctx.enclosing_function(loop)
            it = loop.iter
            if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "enumerate" and it.args:
                it = it.args[0]
            if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute)):
                continue
            origin = flow.holds(scope, it.func.value)
            if origin is None or it.func.attr not in _PARAM_ITERS | _MODULE_ITERS:
                continue
            targets = loop.target.elts if isinstance(loop.target, ast.Tuple) else [loop.target]
            last = targets[-1]
            if isinstance(last, ast.Name):
                flow.add(scope, last.id, origin)
        seen: set[int] = set()
        for call in ctx.nodes(ast.Call):
            scope = ctx.enclosing_function(call)
            func = call.func
            hit: Optional[tuple[ast.AST, str]] = None
            if isinstance(func, ast.Attribute) and func.attr == "numel" and not call.args and not counts_ok:
                origin = flow.holds(scope, func.value)
                if origin is not None:
                    hit = (origin, "count")
            elif qualify(ctx, func).startswith("torch.nn.init.") and call.args:
                origin = flow.holds(scope, call.args[0])
                if origin is not None and isinstance(call.args[0], ast.Attribute):
                    hit = (origin, "init")
            elif isinstance(func, ast.Attribute) and func.attr in _INPLACE and isinstance(func.value, ast.Attribute) \
                    and func.value.attr in {"data", "weight", "bias"}:
                origin = flow.holds(scope, func.value)
                if origin is not None:
                    hit = (origin, "init")
            if hit is None or under_gathered_parameters(ctx, call) or call.lineno in seen \
                    or branches_on_zero(ctx, call, flow.config_names):
                continue
            seen.add(call.lineno)
            origin, kind = hit
            if kind == "count":
                message = (f"`{ast.unparse(call)}` counts a parameter of a model partitioned by ZeRO-3: each rank "
                           "holds an empty placeholder, so the count is 0. Use `p.ds_numel if hasattr(p, "
                           "\"ds_numel\") else p.numel()`")
            else:
                message = (f"`{ast.unparse(call)}` re-initialises a parameter of a model partitioned by ZeRO-3 in "
                           "place: `param.data` is an empty placeholder, so the initialisation is lost. Do it "
                           "inside `with deepspeed.zero.GatheredParameters(params, modifier_rank=0):` or in the "
                           "module's constructor")
            yield ctx.finding(self, call, message,
                              evidence=[ctx.evidence(origin, "the model is built partitioned (ZeRO-3) here")])
