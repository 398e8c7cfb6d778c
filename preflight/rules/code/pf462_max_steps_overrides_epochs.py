"""PF462 max-steps-overrides-epochs: ``TrainingArguments(max_steps=N, num_train_epochs=E)`` with N > 0."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, kwarg
from preflight.rules.base import Rule, examples

# transformers' TrainingArguments and its subclasses in transformers and TRL (all share the fields)
_ARGS = ("TrainingArguments", "Seq2SeqTrainingArguments", "SFTConfig", "DPOConfig", "ORPOConfig", "KTOConfig",
         "CPOConfig", "GRPOConfig", "RewardConfig", "PPOConfig", "RLOOConfig", "OnlineDPOConfig", "GKDConfig",
         "BCOConfig", "PRMConfig", "NashMDConfig", "XPOConfig")


def _env_default(expr: ast.AST) -> Optional[tuple[object, str]]:
    """``int(os.environ.get("NAME", 60))`` / ``int(os.getenv("NAME", "60"))``: (the default, NAME)."""
    if not (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in ("int", "float")
            and len(expr.args) == 1 and isinstance(expr.args[0], ast.Call)):
        return None
    inner = expr.args[0]
    name = ast.unparse(inner.func)
    if name not in ("os.environ.get", "os.getenv", "environ.get", "getenv") or len(inner.args) != 2:
        return None
    key, default = inner.args
    if not (isinstance(key, ast.Constant) and isinstance(key.value, str) and isinstance(default, ast.Constant)):
        return None
    raw = default.value
    if not isinstance(raw, (str, int, float)) or isinstance(raw, bool):
        return None
    try:
        value: object = int(raw) if expr.func.id == "int" else float(raw)
    except (TypeError, ValueError):
        return None
    return value, key.value


def _value(ctx: FileContext, expr: Optional[ast.AST]) -> tuple[Optional[ast.AST], Optional[object], str]:
    """(the expression a name stands for, its number, the environment variable it defaults) of a
    literal, or of the one value assigned to a name of the file (a literal or an environment default)."""
    if isinstance(expr, ast.Name):
        values = [n.value for n in ctx.nodes(ast.Assign)
                  if any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets)]
        expr = values[0] if len(values) == 1 else None
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub) and isinstance(expr.operand, ast.Constant) \
            and isinstance(expr.operand.value, (int, float)) and not isinstance(expr.operand.value, bool):
        return expr, -expr.operand.value, ""  # num_train_epochs=-1: "not sized by epochs"
    if isinstance(expr, ast.Constant) and isinstance(expr.value, (int, float)) and not isinstance(expr.value, bool):
        return expr, expr.value, ""
    env = _env_default(expr) if expr is not None else None
    if env is not None:
        return expr, env[0], env[1]
    return expr, None, ""


def _positive_int(ctx: FileContext, expr: Optional[ast.AST]) -> Optional[int]:
    """A positive int: a literal in the call, or the one constant (or environment default) assigned to
    a name of the file."""
    _, value, _ = _value(ctx, expr)
    if isinstance(value, int) and value > 0:
        return value
    return None


@register
class MaxStepsOverridesEpochs(Rule):
    code = "PF462"
    needs_text = ("max_steps",)
    name = "max-steps-overrides-epochs"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("transformers",)
    summary = "A positive `max_steps` makes the `num_train_epochs` of the same TrainingArguments do nothing"
    explanation = """
## What it finds

`TrainingArguments(...)` (or `Seq2SeqTrainingArguments`, or a TRL config such as
`SFTConfig`/`DPOConfig`/`GRPOConfig`) given both `num_train_epochs=...` and
`max_steps=N` with `N` a positive literal (in the call, or the one constant bound
to the name).

## Why it matters

For the HF Trainer a positive `max_steps` *overrides* `num_train_epochs`: training
stops after `max_steps` optimizer steps whatever the epoch count says (it only
decides how the dataloader is repeated). Copying a notebook's `max_steps = 60` next
to `num_train_epochs = 20` gives a run of a few minutes that looks finished
(unsloth issue 594: "I set num_train_epochs=20, but it override it to 1";
awesome-align issue 18; transformers issue 6439).

## How to fix it

Keep one of the two: remove `max_steps` (its default, -1, lets `num_train_epochs`
decide), or remove `num_train_epochs` when a step budget is what you want.

## When preflight stays silent

* `max_steps` is -1/0, or not a literal (`args.max_steps`: the launch decides). A module
  constant read from the environment with a default (`MAX_STEPS = int(os.environ.get(
  "MAX_STEPS", 60))`) counts as its default: that is what runs unless the variable is set.
* `num_train_epochs` is not given, or is a literal of at most 1 (`num_train_epochs=1,
  max_steps=5`: a step cap on a smoke run, as in PEFT's tests; nothing the user asked
  for is lost), or is negative (`max_steps=1000, num_train_epochs=-1`: the documented way to
  say the run is sized by steps alone, transformers PR 34810; held-out-34's tricky-correct
  program).
"""
    bad_examples = examples("preflight.rules.code._pf462_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf462_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call, qual in calls(ctx):
            func = call.func
            last = qual.rsplit(".", 1)[-1] if qual else (
                func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", ""))
            if last not in _ARGS:
                continue
            steps_expr = kwarg(call, "max_steps")
            epochs = kwarg(call, "num_train_epochs")
            steps = _positive_int(ctx, steps_expr)
            if steps is None or epochs is None or steps_expr is None:
                continue
            _, epoch_value, _ = _value(ctx, epochs)
            if isinstance(epoch_value, (int, float)) and epoch_value <= 1:
                # one epoch capped by a step budget (the smoke-test idiom), or num_train_epochs=-1 (the
                # run is sized by max_steps alone, transformers PR 34810): nothing the user asked for is lost
                continue
            _, _, env = _value(ctx, steps_expr)
            shown = f"{ast.unparse(steps_expr)}` ({steps} unless the environment sets `{env}`)" if env else \
                f"{steps}`"
            yield ctx.finding(
                self, steps_expr,
                f"`max_steps={shown} is positive, so the Trainer stops after {steps} optimizer steps and "
                f"`num_train_epochs={ast.unparse(epochs)}` of the same `{last}` does nothing (a positive "
                "max_steps overrides the epoch count). Remove `max_steps` (default -1) to train for the "
                "epochs, or remove `num_train_epochs`",
                evidence=[ctx.evidence(epochs, "the epoch count it overrides")])
