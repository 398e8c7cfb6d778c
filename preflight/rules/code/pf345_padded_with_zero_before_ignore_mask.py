"""PF345 padded-with-zero-before-ignore-mask: ``accelerator.pad_across_processes(labels)`` with the
default ``pad_index=0`` whose result is later masked with ``!= -100``: the padded positions are
scored as real class 0."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples


def _pad_call(node: ast.AST) -> Optional[ast.Call]:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr == "pad_across_processes" and node.args \
            and not any(k.arg in ("pad_index", None) for k in node.keywords) and len(node.args) < 3:
        return node
    return None


def _ignore_test(node: ast.AST) -> Optional[ast.expr]:
    """``x != -100`` / ``x == -100`` / ``x.ne(-100)``: the expression compared."""
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.NotEq, ast.Eq)):
        other = node.comparators[0]
        if isinstance(other, ast.UnaryOp) and isinstance(other.op, ast.USub) \
                and isinstance(other.operand, ast.Constant) and other.operand.value == 100:
            return node.left
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("ne", "eq") \
            and node.args and ast.unparse(node.args[0]) == "-100":
        return node.func.value
    return None


@register
class PaddedWithZeroBeforeIgnoreMask(Rule):
    code = "PF345"
    needs_text = ("pad_across_processes",)
    name = "padded-with-zero-before-ignore-mask"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = ("`pad_across_processes(labels)` with the default `pad_index=0`, then masked with `!= -100`: the "
               "padded positions are scored as class 0")
    explanation = """
## What it finds

In one function: `accelerator.pad_across_processes(x, dim=1)` without `pad_index`, whose
result (directly or after `gather`/`gather_for_metrics`) is later tested against the
ignore index (`x != -100`, `x == -100`, `x.ne(-100)`).

## Why it matters

`pad_across_processes` pads with 0 by default. The code's mask only drops -100, so every
padded position survives the mask as a label of class 0, a real class in token
classification ("O" in NER): padded predictions (also 0) match it, and the accuracy or F1
is inflated by the padding (accelerate issue 235: "additional 0s in the output, leading
to incorrect results").

## How to fix it

`accelerator.pad_across_processes(labels, dim=1, pad_index=-100)` (and the predictions
with -100 as well), so that the mask drops the padded positions.

## When preflight stays silent

* `pad_index` is given, or the padded value is never compared with -100.
"""
    bad_examples = examples("preflight.rules.code._pf345_examples", "PF345_BAD")
    good_examples = examples("preflight.rules.code._pf345_examples", "PF345_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        functions = ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef)
        inside = {id(n) for fn in functions for n in ast.walk(fn)}
        top = [n for n in ast.walk(ctx.tree) if id(n) not in inside]
        for scope in [top, *([n for n in ast.walk(fn)] for fn in functions)]:
            padded: dict[str, ast.Call] = {}
            events: list[ast.expr | ast.stmt] = sorted(
                (n for n in scope if isinstance(n, (ast.Assign, ast.Compare, ast.Call))),
                key=lambda n: (n.lineno, n.col_offset))
            reported: set[int] = set()
            for node in events:
                if isinstance(node, ast.Assign):
                    self._assign(node, padded)
                    continue
                tested = _ignore_test(node)
                if tested is None:
                    continue
                names = [n.id for n in ast.walk(tested) if isinstance(n, ast.Name) and n.id in padded]
                if not names or id(padded[names[0]]) in reported:
                    continue
                call = padded[names[0]]
                reported.add(id(call))
                yield ctx.finding(
                    self, call,
                    f"`{ast.unparse(call)}` pads with the default `pad_index=0`, and `{ast.unparse(node)}` "
                    f"(line {node.lineno}) drops only -100: every padded position is kept as class 0 and scored "
                    "(accelerate issue 235). Pass `pad_index=-100` (to the predictions as well)",
                    evidence=[ctx.evidence(node, "the ignore mask")])

    @staticmethod
    def _assign(node: ast.Assign, padded: dict[str, ast.Call]) -> None:
        value = node.value
        origin = _pad_call(value)
        for target in node.targets:
            if isinstance(target, ast.Name):
                if origin is not None:
                    padded[target.id] = origin
                    continue
                source = next((padded[n.id] for n in ast.walk(value) if isinstance(n, ast.Name) and n.id in padded),
                              None)
                if source is not None:
                    padded[target.id] = source
                else:
                    padded.pop(target.id, None)
            elif isinstance(target, ast.Tuple):
                inner = value.args[0] if isinstance(value, ast.Call) and value.args else None
                if isinstance(inner, ast.Tuple) and len(inner.elts) == len(target.elts):
                    pairs = list(zip(target.elts, inner.elts))
                else:
                    pairs = []
                for t, v in pairs:
                    if isinstance(t, ast.Name):
                        if isinstance(v, ast.Name) and v.id in padded:
                            padded[t.id] = padded[v.id]
                        else:
                            padded.pop(t.id, None)
