"""PF221 completion-only-collator-with-packing: TRL's ``SFTTrainer`` given ``packing=True`` and a
``DataCollatorForCompletionOnlyLM``, a combination TRL refuses."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import UNKNOWN, kwarg, literal
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

_COLLATOR = "DataCollatorForCompletionOnlyLM"
_CONFIGS = frozenset({"SFTConfig"})


def _scope(ctx: FileContext, node: ast.AST) -> Optional[ast.AST]:
    return ctx.enclosing(node, ast.FunctionDef, ast.AsyncFunctionDef)


def _bound_call(ctx: FileContext, name: ast.AST, use: ast.AST) -> Optional[ast.Call]:
    """The call a plain name is bound to: the one assignment ``name = Call(...)`` of the scope
    ``use`` is in, made before ``use`` (None when the name is bound otherwise or more than once)."""
    if not isinstance(name, ast.Name):
        return None
    scope = _scope(ctx, use)
    bound = []
    for node in ctx.nodes(ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.With, ast.NamedExpr):
        if _scope(ctx, node) is not scope:
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if isinstance(node, ast.With):
            targets = [i.optional_vars for i in node.items]
        for target in targets:
            if target is not None and any(isinstance(n, ast.Name) and n.id == name.id for n in ast.walk(target)):
                bound.append(node)
    if len(bound) != 1:
        return None
    node = bound[0]
    if not isinstance(node, ast.Assign) or node.lineno > getattr(use, "lineno", 0) or len(node.targets) != 1 \
            or not isinstance(node.targets[0], ast.Name) or not isinstance(node.value, ast.Call):
        return None
    return node.value


def _completion_collator(ctx: FileContext, expr: Optional[ast.AST], use: ast.AST) -> Optional[ast.Call]:
    """The ``DataCollatorForCompletionOnlyLM(...)`` call ``expr`` is (inline or through one name)."""
    if expr is None:
        return None
    call = expr if isinstance(expr, ast.Call) else _bound_call(ctx, expr, use)
    return call if call is not None and call_last(call) == _COLLATOR else None


def _packing_true(ctx: FileContext, trainer: ast.Call) -> Optional[ast.expr]:
    """The ``packing=`` value that is statically True: on the trainer call itself (TRL before
    0.12) or on the ``SFTConfig`` handed to it as ``args``."""
    value = kwarg(trainer, "packing")
    if value is None:
        args = kwarg(trainer, "args")
        if args is None and len(trainer.args) > 1:
            args = trainer.args[1]
        config = args if isinstance(args, ast.Call) else _bound_call(ctx, args, trainer) if args is not None else None
        if config is None or call_last(config) not in _CONFIGS:
            return None
        value = kwarg(config, "packing")
    if value is None:
        return None
    known = literal(ctx, value)
    return value if known is not UNKNOWN and known is True else None


@register
class CompletionOnlyCollatorWithPacking(Rule):
    code = "PF221"
    name = "completion-only-collator-with-packing"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("trl",)
    needs_text = (_COLLATOR, "packing")
    summary = "`SFTTrainer` with `packing=True` and a `DataCollatorForCompletionOnlyLM`: TRL refuses the combination"
    explanation = """
## What it finds

A TRL `SFTTrainer(...)` whose `data_collator` is a `DataCollatorForCompletionOnlyLM`
(built in the call or bound to a name once in the same function) and whose `packing`
is `True`, either as the trainer's own `packing=` argument (TRL before 0.12) or on the
`SFTConfig(...)` passed as `args`. The finding sits on the `packing=True` line.

## Why it matters

Packing concatenates several formatted examples into one fixed-length sequence, so the
completion-only collator can no longer find one response template per example and mask
the prompt before it. TRL checks for this in `SFTTrainer.__init__`
(`trl/trainer/sft_trainer.py`: `if args.packing and data_collator is not None and
isinstance(data_collator, DataCollatorForCompletionOnlyLM): raise ValueError("You passed
a DataCollatorForCompletionOnlyLM to the SFTTrainer. This is not compatible with the
packing argument.")`), so the run stops before the first step; the maintainers say
masking the instructions is not supported with packing (TRL issue 1163). From TRL 0.20
the collator is gone altogether (completion-only loss is `SFTConfig(completion_only_loss=True)`).

## How to fix it

Keep `packing=False` with the completion-only collator, or drop the collator and train on
whole sequences with packing (on TRL 0.20 and later: a prompt/completion dataset with
`completion_only_loss=True`).

## When preflight stays silent

* `packing` is `False`, absent, or not known statically (`packing=args.packing`).
* The collator is another one, `None`, chosen by an expression (`... if not packing else
  None`), or bound to its name more than once or in another function.
"""
    bad_examples = examples("preflight.rules.code._pf221_examples", "PF221_BAD")
    good_examples = examples("preflight.rules.code._pf221_examples", "PF221_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if not ctx.mentions(_COLLATOR):
            return
        for call in ctx.nodes(ast.Call):
            if call_last(call) != "SFTTrainer":
                continue
            collator = _completion_collator(ctx, kwarg(call, "data_collator"), call)
            if collator is None:
                continue
            packing = _packing_true(ctx, call)
            if packing is None:
                continue
            yield ctx.finding(
                self, packing,
                "`packing=True` with a `DataCollatorForCompletionOnlyLM` (line "
                f"{collator.lineno}): packed sequences hold several prompts and answers, so the collator cannot "
                "mask each prompt, and TRL's SFTTrainer refuses the pair (\"You passed a "
                "`DataCollatorForCompletionOnlyLM` to the SFTTrainer. This is not compatible with the `packing` "
                "argument.\"). Keep `packing=False` with this collator, or drop the collator to pack whole sequences",
                evidence=[ctx.evidence(collator, "the completion-only collator is built here"),
                          ctx.evidence(call, "and handed to this SFTTrainer")])
