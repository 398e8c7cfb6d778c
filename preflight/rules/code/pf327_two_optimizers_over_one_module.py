"""PF327 two-optimizers-over-one-module: two ``torch.optim`` optimizers built side by side over the same
``module.parameters()`` (a decoder's optimizer copied from the encoder's line and left on the encoder)."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, dotted_text, kwarg, target_text
from preflight.rules.base import Rule, examples

# torch.optim.<Name> classes that are not optimizers over a parameter list
_NOT_OPTIMIZERS = frozenset({"Optimizer", "lr_scheduler", "swa_utils"})


def _params_of(call: ast.Call) -> Optional[str]:
    """``model`` when the optimizer is built over ``model.parameters()`` (first argument or ``params=``)."""
    arg = call.args[0] if call.args else kwarg(call, "params")
    if not (isinstance(arg, ast.Call) and not arg.args and not arg.keywords
            and isinstance(arg.func, ast.Attribute) and arg.func.attr == "parameters"):
        return None
    return dotted_text(arg.func.value)


def _optimizers(ctx: FileContext) -> list[tuple[ast.Call, str]]:
    out = []
    for call, qual in calls(ctx):
        parts = qual.split(".")
        if len(parts) == 3 and parts[:2] == ["torch", "optim"] and parts[2] not in _NOT_OPTIMIZERS \
                and parts[2][:1].isupper():
            module = _params_of(call)
            if module is not None:
                out.append((call, module))
    return out


def _root(name: str) -> str:
    return name.split(".", 1)[0]


@register
class TwoOptimizersOverOneModule(Rule):
    code = "PF327"
    name = "two-optimizers-over-one-module"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("two optimizers built side by side over the same `module.parameters()`: the module is "
               "stepped twice per iteration and the one meant for the second optimizer never")
    frameworks = ("pytorch",)
    needs_text = ("parameters()",)
    explanation = """
## What it finds

Two `torch.optim` optimizers built over the same `X.parameters()`, either

* as arguments of one call (`train(enc, dec, SGD(enc.parameters()), SGD(enc.parameters()))`), or
* assigned to two different names by neighbouring statements of one block
  (`opt_e = Adam(enc.parameters())` / `opt_d = Adam(enc.parameters())`), both of which the
  file steps (`opt_d.step()`), with no new binding of `X` between them.

## Why it matters

Each optimizer keeps its own state and applies its own update, so every iteration moves
`X`'s weights twice (two learning-rate steps, two sets of Adam moments), while the module
the second optimizer was meant for is never updated and keeps its random initialisation.
Nothing fails; the loss of the untrained part simply stays high. Reported in
zhaoyingjun/chatbot issue 115 (the seq2seq training passes `optim.SGD(encoder1.parameters())`
as the decoder optimizer; "嗯 是的 感谢提出来", yes, thanks).

## How to fix it

Build the second optimizer over the module it steps (`SGD(attn_decoder1.parameters())`), or
one optimizer over both (`Adam([*enc.parameters(), *dec.parameters()])`).

## When preflight stays silent

* The optimizers are assigned to the same name (a second phase replaces the first), sit in
  different branches or functions, or one of them is never stepped (a spare or a choice).
* The module's name is bound again between them (`model = Decoder()`).
* The parameters are anything but a plain `X.parameters()` (a filtered list, parameter groups,
  `X.encoder.parameters()` beside `X.decoder.parameters()`).
"""
    bad_examples = examples("preflight.rules.code._pf327_examples", "BAD")
    good_examples = examples("preflight.rules.code._pf327_examples", "GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        found = _optimizers(ctx)
        if len(found) < 2:
            return
        stepped = {target_text(c.func.value) for c in ctx.nodes(ast.Call)
                   if isinstance(c.func, ast.Attribute) and c.func.attr == "step"}
        seen: set[int] = set()
        for i, (first, module) in enumerate(found):
            for second, other in found[i + 1:]:
                if other != module or id(second) in seen:
                    continue
                if self._same_call(ctx, first, second) or self._neighbours(ctx, first, second, module, stepped):
                    seen.add(id(second))
                    yield ctx.finding(
                        self, second,
                        f"this optimizer is built over `{module}.parameters()`, like the one at line "
                        f"{first.lineno}: each iteration steps `{module}`'s weights twice (two updates, two "
                        f"optimizer states) and whatever module this optimizer was meant for is never updated. "
                        f"Build it over the parameters it should step",
                        evidence=[ctx.evidence(first, f"the first optimizer over `{module}.parameters()`")])

    @staticmethod
    def _same_call(ctx: FileContext, a: ast.Call, b: ast.Call) -> bool:
        pa, pb = ctx.parent(a), ctx.parent(b)
        return isinstance(pa, ast.Call) and pa is pb and a in pa.args and b in pa.args

    @staticmethod
    def _neighbours(ctx: FileContext, a: ast.Call, b: ast.Call, module: str, stepped: set) -> bool:
        sa, sb = ctx.parent(a), ctx.parent(b)
        if not (isinstance(sa, ast.Assign) and isinstance(sb, ast.Assign)
                and len(sa.targets) == 1 and len(sb.targets) == 1):
            return False
        na, nb = target_text(sa.targets[0]), target_text(sb.targets[0])
        if na is None or nb is None or na == nb or na not in stepped or nb not in stepped:
            return False
        block = ctx.parent(sa)
        if block is None or ctx.parent(sb) is not block:
            return False
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(block, field, None)
            if isinstance(stmts, list) and sa in stmts and sb in stmts:
                between = stmts[stmts.index(sa) + 1:stmts.index(sb)]
                root = _root(module)
                return not any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id == root
                               for s in between for n in ast.walk(s))
        return False
