"""PF249 parameter-generator-reused: ``params = model.parameters()`` (or a ``filter(...)`` / generator over it)
kept in a name and consumed twice, or consumed inside a loop: every use after the first gets an empty iterator,
so the gradient clipping (or the second optimizer, or the loop) silently does nothing."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.syntax import own_nodes
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

# nn.Module methods that return a generator
_GENERATOR_METHODS = frozenset({"parameters", "named_parameters", "buffers", "named_buffers", "children",
                                "named_children", "modules", "named_modules"})
# builtins that return a one-shot iterator
_ONE_SHOT_BUILTINS = frozenset({"filter", "map", "zip", "iter", "reversed", "enumerate"})
# calls that look at an object without iterating it
_NOT_CONSUMING = frozenset({"print", "repr", "str", "type", "id", "isinstance", "hasattr", "getattr", "callable",
                            "next", "len", "format"})
_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_OTHER_FRAMEWORKS = ("mxnet", "paddle", "tensorflow", "jax", "mindspore", "oneflow")


def _module_generator(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in _GENERATOR_METHODS)


def _one_shot(node: ast.AST) -> bool:
    """An expression that yields a generator over a module's parameters (directly or through filter/map/a
    generator expression)."""
    if _module_generator(node):
        return True
    if isinstance(node, ast.GeneratorExp):
        return any(_module_generator(gen.iter) or _one_shot(gen.iter) for gen in node.generators)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _ONE_SHOT_BUILTINS:
        return any(_one_shot(arg) for arg in node.args)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "chain"
            and ast.unparse(node.func.value) in {"itertools", "it"}):
        return any(_one_shot(arg) for arg in node.args)
    return False


def _consumes(ctx: FileContext, name: ast.Name) -> bool:
    """This read of the name iterates it: a call argument, a ``for`` / comprehension iterable, a star."""
    parent = ctx.parent(name)
    if isinstance(parent, ast.Starred):
        return True
    if isinstance(parent, (ast.For, ast.AsyncFor, ast.comprehension)) and parent.iter is name:
        return True
    if isinstance(parent, ast.keyword):
        parent = ctx.parent(parent)
        if isinstance(parent, ast.Call):
            return _called_name(parent) not in _NOT_CONSUMING
        return False
    if isinstance(parent, ast.Call) and name in parent.args:
        return _called_name(parent) not in _NOT_CONSUMING
    return False


def _called_name(call: ast.Call) -> str:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return ""


def _branches(ctx: FileContext, node: ast.AST, scope: ast.AST) -> dict[int, str]:
    """For each ``if`` / ``try`` around the node (inside the scope): which branch holds it."""
    out: dict[int, str] = {}
    child = node
    for anc in ctx.ancestors(node):
        if anc is scope:
            break
        if isinstance(anc, (ast.If, ast.Try, ast.IfExp)):
            for field in ("body", "orelse", "handlers", "finalbody"):
                value = getattr(anc, field, None)
                if value is child or (isinstance(value, list) and child in value):
                    out[id(anc)] = field
        child = anc
    return out


_EXITS = (ast.Return, ast.Raise, ast.Continue, ast.Break)


def _exits_after(ctx: FileContext, a: ast.AST, b: ast.AST, scope: ast.AST) -> bool:
    """``a`` sits in a branch that ends with ``return`` / ``raise`` / ``continue`` / ``break`` and ``b`` is
    outside that branch: ``b`` only runs when ``a`` did not."""
    child = a
    for anc in ctx.ancestors(a):
        if anc is scope:
            return False
        if isinstance(anc, (ast.If, ast.Try)):
            for field in ("body", "orelse", "handlers"):
                value = getattr(anc, field, None)
                if (isinstance(value, list) and child in value and isinstance(value[-1], _EXITS)
                        and not ctx.under(b, anc)):
                    return True
        child = anc
    return False


def _exclusive(ctx: FileContext, a: ast.AST, b: ast.AST, scope: ast.AST) -> bool:
    ba, bb = _branches(ctx, a, scope), _branches(ctx, b, scope)
    if any(key in bb and bb[key] != branch for key, branch in ba.items()):
        return True
    return _exits_after(ctx, a, b, scope)


def _loop_between(ctx: FileContext, use: ast.AST, assign: ast.AST, scope: ast.AST) -> Optional[ast.AST]:
    """A loop around the use that does not also hold the assignment (so the use runs again on a drained
    iterator), inside the scope."""
    for anc in ctx.ancestors(use):
        if anc is scope:
            return None
        if isinstance(anc, _LOOPS) and not ctx.under(assign, anc):
            if isinstance(anc, (ast.For, ast.AsyncFor)) and ctx.under(use, anc.iter):
                continue  # `for p in params:` itself: the iterable is evaluated once per entry of the loop
            return anc
    return None


_TORCH_ROOTS = frozenset({"torch", "lightning", "pytorch_lightning", "transformers", "accelerate", "deepspeed",
                          "peft", "trl", "diffusers", "timm", "torchvision"})


def _imports_torch(ctx: FileContext) -> bool:
    """The file imports PyTorch or a library built on it (not a home-made `torch_lite`)."""
    for node in ctx.nodes(ast.Import, ast.ImportFrom):
        if isinstance(node, ast.Import):
            roots = [alias.name.split(".")[0] for alias in node.names]
        else:
            roots = [(node.module or "").split(".")[0]] if node.level == 0 else []
        if any(root in _TORCH_ROOTS for root in roots):
            return True
    return False


def _scopes(ctx: FileContext) -> list[ast.AST]:
    return [ctx.tree, *ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef)]


@register
class ParameterGeneratorReused(Rule):
    code = "PF249"
    name = "parameter-generator-reused"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    needs_text = ("parameters", "buffers", "children", "modules")
    summary = ("`params = model.parameters()` (a generator) is used twice or inside a loop: every later use gets "
               "an empty iterator, so clipping or the second consumer does nothing")
    explanation = """
## What it finds

A name bound to a generator over a module's tensors (`model.parameters()`,
`named_parameters()`, `buffers()`, `modules()`, `children()`, or a `filter(...)`,
`map(...)` or generator expression over one) that is then iterated a second time: passed
to the optimizer and later to `clip_grad_norm_`, iterated by a `for` and then passed on,
or consumed once inside a training loop that runs many times.

## Why it matters

`Module.parameters()` returns a generator: it can be iterated once. The optimizer
constructor (or the first `for`) drains it, and every later consumer receives an empty
iterator without any error. `torch.nn.utils.clip_grad_norm_` on an empty iterable returns
a norm of 0 and clips nothing, `accelerator.clip_grad_norm_` likewise, a second optimizer
fails with "optimizer got an empty parameter list", a loop that sets `requires_grad` or
re-initialises weights does nothing. Training runs unclipped (loss spikes, divergence)
while the code reads as if it clips. Reports: pytorch/pytorch issue 148259 (a warning for
an exhausted generator in `clip_grad_norm_`, added in PR 151529), PixArt-alpha PR 160
(`lora_layers = filter(...)` fed to the optimizer and then to `clip_grad_norm_`: "no
gradient clipping would be done"), Dive-into-DL-PyTorch issue 101 (a clipping helper
iterating `model.parameters()` twice), torchtitan PR 1258 (its `clip_grad_norm_` silently
clipped nothing when given a generator).

## How to fix it

Materialise it once: `params = list(model.parameters())` (or
`[p for p in model.parameters() if p.requires_grad]`), or call `model.parameters()` again
at each use.

## When preflight stays silent

* The name holds a list (`list(...)`, a list comprehension), or is bound more than once in
  the function.
* The uses are in exclusive branches (`if args.optim == "sgd": SGD(params) else:
  Adam(params)`), or the generator is rebuilt in the loop that uses it.
* The first use is in a branch that returns (`if isinstance(params, list): return
  SGD(params)`), or the file uses MXNet, Paddle, TensorFlow, JAX, MindSpore or OneFlow
  (whose `parameters()` is not a generator), or imports neither PyTorch nor a library built on
  it (a home-made autograd whose `parameters()` returns a list).
* A use only looks at the object (`print(params)`, `next(params)`), or sits in a nested
  function or lambda.
"""
    bad_examples = examples("preflight.rules.code._pf249_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf249_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if not _imports_torch(ctx) or any(ctx.mentions(other) for other in _OTHER_FRAMEWORKS):
            return  # a Gluon / Paddle / Flax / home-made `parameters()` is a dict or a list, not a generator
        for scope in _scopes(ctx):
            nodes = list(own_nodes(scope))
            binds: dict[str, list[ast.AST]] = {}
            for node in nodes:
                targets: list[ast.AST] = []
                if isinstance(node, ast.Assign):
                    targets = list(node.targets)
                elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)):
                    targets = [node.target]
                elif isinstance(node, (ast.For, ast.AsyncFor, ast.With, ast.AsyncWith)):
                    targets = [node.target] if isinstance(node, (ast.For, ast.AsyncFor)) else [
                        item.optional_vars for item in node.items if item.optional_vars is not None]
                for target in targets:
                    for sub in ast.walk(target):
                        if isinstance(sub, ast.Name):
                            binds.setdefault(sub.id, []).append(node)
            if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for arg in [*scope.args.args, *scope.args.kwonlyargs, *scope.args.posonlyargs]:
                    binds.setdefault(arg.arg, []).append(scope)
            for name, where in binds.items():
                if len(where) != 1:
                    continue
                assign = where[0]
                if not (isinstance(assign, ast.Assign) and len(assign.targets) == 1
                        and isinstance(assign.targets[0], ast.Name) and _one_shot(assign.value)):
                    continue
                start = (assign.end_lineno or assign.lineno, assign.end_col_offset or 0)
                uses = sorted((n for n in nodes if isinstance(n, ast.Name) and n.id == name
                               and isinstance(n.ctx, ast.Load) and (n.lineno, n.col_offset) > start),
                              key=lambda n: (n.lineno, n.col_offset))
                consuming = [u for u in uses if _consumes(ctx, u)]
                if not consuming:
                    continue
                finding = self._second_use(ctx, name, assign, consuming, scope)
                if finding is not None:
                    yield finding

    def _second_use(self, ctx: FileContext, name: str, assign: ast.Assign, consuming: list[ast.Name],
                    scope: ast.AST) -> Optional[Finding]:
        source = ast.unparse(assign.value)
        first = consuming[0]
        for later in consuming[1:]:
            if _exclusive(ctx, first, later, scope):
                continue
            return ctx.finding(
                self, later,
                f"`{name}` is the generator `{source}` and was already iterated at line {first.lineno}: here it "
                f"is empty, so this `{ast.unparse(ctx.parent(later) or later)[:80]}` sees no tensors and does "
                f"nothing (clipping clips nothing, a loop runs zero times). Bind `{name} = list({source})` "
                "instead",
                evidence=[ctx.evidence(first, "the first use drains the generator"),
                          ctx.evidence(assign, "the generator, built once")])
        loop = _loop_between(ctx, first, assign, scope)
        if loop is not None:
            return ctx.finding(
                self, first,
                f"`{name}` is the generator `{source}`, built once before this loop: the first pass drains it "
                f"and every later pass gets an empty iterator, so from the second iteration on "
                f"`{ast.unparse(ctx.parent(first) or first)[:80]}` sees no tensors. Bind "
                f"`{name} = list({source})` instead",
                evidence=[ctx.evidence(loop, "the loop that repeats the use"),
                          ctx.evidence(assign, "the generator, built once")])
        return None
