"""PF133 multistep-milestones-as-floats: ``MultiStepLR(milestones=[rate * total_steps ...])``, milestones
computed as floats that an integer step count never equals."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.analysis.syntax import keyword, last_attr
from preflight.analysis.value_resolver import value_resolver
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples


def _fraction(node: ast.AST) -> bool:
    """A float literal that is not a whole number (``0.6``; ``2.0`` compares equal to ``2``)."""
    return isinstance(node, ast.Constant) and type(node.value) is float and not node.value.is_integer()


def _fractions(ctx: FileContext, node: ast.AST) -> bool:
    """``node`` is (or names) a list/tuple literal whose items are all non-whole float literals."""
    if isinstance(node, ast.Name):
        leaves = value_resolver(ctx).sources(node, scope_index(ctx).function_of(node)) or []
        return bool(leaves) and all(not isinstance(leaf.node, ast.Name) and _fractions(ctx, leaf.node)
                                    for leaf in leaves)
    return isinstance(node, (ast.List, ast.Tuple)) and bool(node.elts) and all(_fraction(e) for e in node.elts)


def _float_item(item: ast.AST, fractional: set[str]) -> bool:
    """A product with a fractional factor or a true division: a float that is rarely a whole step."""
    if not isinstance(item, ast.BinOp):
        return False
    if isinstance(item.op, ast.Div):
        return True
    if not isinstance(item.op, ast.Mult):
        return False
    return any(_fraction(side) or (isinstance(side, ast.Name) and side.id in fractional)
               for side in (item.left, item.right))


def _float_milestones(ctx: FileContext, value: ast.AST) -> Optional[ast.AST]:
    """The float-valued item expression of a milestones list, or None."""
    if isinstance(value, (ast.List, ast.Tuple)):
        return next((e for e in value.elts if _float_item(e, set())), None)
    if isinstance(value, ast.ListComp) and len(value.generators) == 1:
        gen = value.generators[0]
        fractional = {gen.target.id} if isinstance(gen.target, ast.Name) and _fractions(ctx, gen.iter) else set()
        return value.elt if _float_item(value.elt, fractional) else None
    return None


@register
class MultiStepMilestonesAsFloats(Rule):
    code = "PF133"
    name = "multistep-milestones-as-floats"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("`MultiStepLR(milestones=...)` computed as floats (`rate * total_steps`, `total / 2`): the step "
               "counter is an int and decays only when it is in the milestones, so a non-whole float never matches")
    needs_text = ("MultiStepLR",)
    explanation = """
## What it finds

A `MultiStepLR(...)` (or `lr_scheduler.MultiStepLR`) whose `milestones` list is computed with
floats: items that are a product with a non-whole float factor (`0.6 * total_steps`, or
`rate * total_steps for rate in [0.6, 0.8]`) or a true division (`total_steps / 2`), not
rounded with `int()`, `round()` or `//`.

## Why it matters

`MultiStepLR` keeps the milestones in a `Counter` and decays only when the integer
`last_epoch` is one of its keys (`if self.last_epoch not in self.milestones: return ...`).
An int equals a float only when the float is whole, so a milestone such as
`0.6 * 12345 = 7407.0` works by accident and `0.6 * 12346 = 7407.6` never fires: the learning
rate is never decayed and the run trains at the initial rate to the end, with no error
(Pointcept/Pointcept#379, "MultiStepLR sometimes is useless"). Whether it works depends on the
dataset size and batch size of the run.

## How to fix it

Round the milestones: `milestones=[int(rate * total_steps) for rate in rates]`.

## When preflight stays silent

* The items are wrapped in `int(...)`, `round(...)`, `math.floor/ceil(...)`, use floor
  division `//`, or are plain ints or names.
* The factor is a whole float (`2.0 * n`) or the rates are not float literals the file shows.
"""
    bad_examples = examples("preflight.rules.code._pf133_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf133_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call in ctx.nodes(ast.Call):
            if last_attr(call.func) != "MultiStepLR":
                continue
            value = keyword(call, "milestones")
            if value is None and len(call.args) > 1:
                value = call.args[1]
            item = _float_milestones(ctx, value) if value is not None else None
            if item is None or value is None:
                continue
            yield ctx.finding(
                self, value,
                f"the MultiStepLR milestones are floats (`{ast.unparse(item)}`): the scheduler's step counter "
                "is an int and the rate decays only when the counter is IN the milestones, so whenever the "
                "product is not a whole number the learning rate is never decayed (no error). Round them: "
                f"`int({ast.unparse(item)})`",
                evidence=[ctx.evidence(call, "the scheduler")])
