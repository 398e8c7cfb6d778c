"""PF665 warmup-longer-than-schedule: a warmup schedule whose warmup length is at least its total length
(the two arguments swapped, or the total a fraction of the warmup)."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

# builder -> ((warmup keyword, position), (total keyword, position))
_BUILDERS = {
    "get_linear_schedule_with_warmup": (("num_warmup_steps", 1), ("num_training_steps", 2)),
    "get_cosine_schedule_with_warmup": (("num_warmup_steps", 1), ("num_training_steps", 2)),
    "get_cosine_with_hard_restarts_schedule_with_warmup": (("num_warmup_steps", 1), ("num_training_steps", 2)),
    "get_polynomial_decay_schedule_with_warmup": (("num_warmup_steps", 1), ("num_training_steps", 2)),
    "get_scheduler": (("num_warmup_steps", 2), ("num_training_steps", 3)),
    # pytorch-transformers 1.x
    "WarmupLinearSchedule": (("warmup_steps", 1), ("t_total", 2)),
    "WarmupCosineSchedule": (("warmup_steps", 1), ("t_total", 2)),
}
# a factor that names a share of a total (`args.warmup_proportion`, `warmup_ratio`)
_SHARE_WORDS = ("proportion", "ratio", "fraction", "frac", "percent", "pct", "portion")
_WRAPPERS = frozenset({"int", "round", "ceil", "floor"})


def _arg(call: ast.Call, key: str, pos: int) -> Optional[ast.expr]:
    found = kwarg(call, key)
    if found is None and len(call.args) > pos and not any(isinstance(a, ast.Starred) for a in call.args[:pos + 1]):
        found = call.args[pos]
    return found


def _unwrap(node: ast.expr) -> ast.expr:
    """``int(x)``, ``math.ceil(x)``, ``round(x)`` -> ``x``."""
    while isinstance(node, ast.Call) and len(node.args) == 1 and call_last(node) in _WRAPPERS:
        node = node.args[0]
    return node


def _share(node: ast.expr) -> bool:
    """A factor below one: a float literal in (0, 1) or a name that says it is a share."""
    if isinstance(node, ast.Constant) and isinstance(node.value, float) and 0 < node.value < 1:
        return True
    text = ast.unparse(node).lower()
    return isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)) and any(w in text for w in _SHARE_WORDS)


def _fraction_of(total: ast.expr, warmup: ast.expr) -> Optional[ast.expr]:
    """The share factor when ``total`` is ``share * warmup`` (either order) or ``warmup / n`` (n > 1)."""
    total = _unwrap(total)
    target = ast.unparse(_unwrap(warmup))
    if isinstance(total, ast.BinOp) and isinstance(total.op, ast.Mult):
        for mine, other in ((total.left, total.right), (total.right, total.left)):
            if ast.unparse(_unwrap(mine)) == target and _share(other):
                return other
    return None


def _int(node: ast.expr) -> Optional[int]:
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    return None


@register
class WarmupLongerThanSchedule(Rule):
    code = "PF665"
    needs_text = ("armup",)
    name = "warmup-longer-than-schedule"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers", "pytorch", "accelerate")
    summary = ("A warmup schedule's warmup is as long as its total or longer (the arguments swapped, or the total "
               "a fraction of the warmup): the learning rate only ever warms up")
    explanation = """
## What it finds

A call of a warmup schedule builder (`get_linear_schedule_with_warmup`,
`get_cosine_schedule_with_warmup`, `get_scheduler`, pytorch-transformers' `WarmupLinearSchedule`,
...) whose total is written as a share of the warmup (`num_warmup_steps=total_steps,
num_training_steps=args.warmup_proportion * total_steps`: the two arguments swapped), whose warmup
and total are the same expression, or whose warmup and total are integer literals with the warmup
not shorter than the total.

## Why it matters

The schedule raises the learning rate linearly for `num_warmup_steps` and only then decays it
over what is left of `num_training_steps`. With the warmup at least as long as the run, the
learning rate climbs for the whole of training and never decays (MAG-BERT PR 22: warmup over all
40 epochs' steps, "training length" 10% of it); the run ends at its peak learning rate,
usually the worst point to stop.

## How to fix it

Pass the share to the warmup and the whole to the total:
`num_warmup_steps=int(args.warmup_proportion * total_steps), num_training_steps=total_steps`.

## When preflight stays silent

* The total is the whole and the warmup a share of it (the right order), or the two are
  different names whose values preflight does not know.
* `get_scheduler("constant", ...)`: the constant schedule ignores both numbers.
* A share factor preflight cannot read as one (a name without `ratio`/`proportion`/`fraction`
  in it, a literal of 1 or more).
"""
    bad_examples = examples("preflight.rules.code._pf665_examples", "PF665_BAD")
    good_examples = examples("preflight.rules.code._pf665_examples", "PF665_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call in ctx.nodes(ast.Call):
            spec = _BUILDERS.get(call_last(call))
            if spec is None:
                continue
            (wkey, wpos), (tkey, tpos) = spec
            warmup, total = _arg(call, wkey, wpos), _arg(call, tkey, tpos)
            if warmup is None or total is None:
                continue
            name = call.args[0] if call.args else kwarg(call, "name")
            if call_last(call) == "get_scheduler" and isinstance(name, ast.Constant) \
                    and name.value == "constant":
                continue  # transformers' constant schedule ignores both
            share = _fraction_of(total, warmup)
            w, t = _int(warmup), _int(total)
            if share is not None:
                why = (f"the total `{ast.unparse(total)}` is `{ast.unparse(share)}` times the warmup "
                       f"`{ast.unparse(warmup)}`: the two look swapped")
            elif w is not None and t is not None and w >= t > 0:
                why = f"the warmup ({w} steps) is not shorter than the total ({t} steps)"
            elif w is None and t is None and ast.unparse(_unwrap(warmup)) == ast.unparse(_unwrap(total)):
                why = f"the warmup and the total are the same `{ast.unparse(total)}`"
            else:
                continue
            yield ctx.finding(
                self, warmup,
                f"`{call_last(call)}(...)` warms up for at least the whole schedule: {why}. The learning rate "
                "rises linearly for the whole run and never decays, ending training at its peak. Pass the share "
                "to the warmup and the whole to the total (`num_warmup_steps=int(share * total), "
                "num_training_steps=total`)",
                evidence=[ctx.evidence(total, "the schedule's total")])
