"""PF194 dataclass-max-steps-overrides-epochs: the launch line sets ``--num_train_epochs`` but not ``--max_steps``,
and the script's own TrainingArguments dataclass gives ``max_steps`` a positive default: the Trainer stops at that
many steps whatever the epoch count (the qlora ``max_steps: int = field(default=10000)`` shape)."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

# transformers' TrainingArguments and the subclasses that keep its max_steps field
_ARGS = frozenset({"TrainingArguments", "Seq2SeqTrainingArguments", "SFTConfig", "DPOConfig", "ORPOConfig",
                   "KTOConfig", "CPOConfig", "GRPOConfig", "RewardConfig"})


def _given(tokens: list[str], option: str) -> Optional[str]:
    """The value of ``--option V`` / ``--option=V`` on the launch line; None when it is not there."""
    for i, tok in enumerate(tokens):
        if tok == f"--{option}":
            return tokens[i + 1] if i + 1 < len(tokens) else ""
        if tok.startswith(f"--{option}="):
            return tok.split("=", 1)[1]
    return None


def _positive_default(stmt: ast.stmt) -> Optional[int]:
    """``max_steps: int = field(default=N)`` / ``max_steps: int = N`` with N > 0 -> N."""
    if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == "max_steps"
            and stmt.value is not None):
        return None
    value: Optional[ast.AST] = stmt.value
    if isinstance(value, ast.Call) and ast.unparse(value.func).rsplit(".", 1)[-1] == "field":
        value = next((k.value for k in value.keywords if k.arg == "default"), None)
    if isinstance(value, ast.Constant) and isinstance(value.value, int) and not isinstance(value.value, bool) \
            and value.value > 0:
        return value.value
    return None


def _parsed_classes(tree: ast.AST) -> set[str]:
    """Names handed to ``HfArgumentParser(...)`` in the script."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and ast.unparse(node.func).rsplit(".", 1)[-1] == "HfArgumentParser" \
                and node.args:
            arg = node.args[0]
            for item in (arg.elts if isinstance(arg, (ast.Tuple, ast.List)) else [arg]):
                if isinstance(item, ast.Name):
                    out.add(item.id)
    return out


@register
class DataclassMaxStepsOverridesEpochs(PlanRule):
    code = "PF194"
    name = "dataclass-max-steps-overrides-epochs"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("The launch line sets `--num_train_epochs` but the script's TrainingArguments dataclass defaults "
               "`max_steps` to a positive number: the run lasts that many steps, not the epochs asked for")
    explanation = """
## What it finds

A script that parses its arguments with `HfArgumentParser` into its own `@dataclass` subclass of
`TrainingArguments` (or `Seq2SeqTrainingArguments`, a TRL config) whose `max_steps` field
defaults to a positive number (`max_steps: int = field(default=10000)`), launched with
`--num_train_epochs E` and without `--max_steps`.

## Why it matters

A positive `max_steps` overrides `num_train_epochs` in the Trainer (the run stops after
`max_steps` optimizer steps, the epoch count only sizes the data loop). The default hides in the
script, so the epochs typed on the launch line are silently ignored: a small dataset is trained for
hundreds of epochs, a large one stops early (artidoro/qlora PR 87: "`--num_train_epochs=2` ...
trains for max steps of 10000 (hundreds of epochs)"; the answer: "Just set max_steps to -1").

## How to fix it

Pass `--max_steps -1` with `--num_train_epochs`, or give the field the Trainer's own default
(`-1`).

## When preflight stays silent

* The launch line gives `--max_steps`, or no `--num_train_epochs`.
* The field's default is `-1`/`0` or not a literal, or the dataclass is not the one given to
  `HfArgumentParser` in the script, or it does not inherit from a TrainingArguments class.
"""
    bad_examples = examples("preflight.rules.plan._pf194_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf194_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            tokens = pctx.project.script_args(script)
            epochs = _given(tokens, "num_train_epochs") if tokens else None
            if not epochs or _given(tokens, "max_steps") is not None:
                continue
            parsed = _parsed_classes(script.tree)
            for cls in ast.walk(script.tree):
                if not (isinstance(cls, ast.ClassDef) and cls.name in parsed
                        and any(ast.unparse(b).rsplit(".", 1)[-1] in _ARGS for b in cls.bases)
                        and any("dataclass" in ast.unparse(d) for d in cls.decorator_list)):
                    continue
                stmt = next((s for s in cls.body if _positive_default(s) is not None), None)
                if stmt is None:
                    continue
                steps = _positive_default(stmt)
                evidence = []
                if pctx.project.launch_at is not None:
                    path, at = pctx.project.launch_at
                    evidence.append(Evidence(line=at, path=path, message=f"--num_train_epochs {epochs}, no --max_steps"))
                message = (f"the launch line asks for `--num_train_epochs {epochs}` without `--max_steps`, but "
                           f"`{cls.name}` defaults `max_steps` to {steps}: a positive `max_steps` overrides the epoch "
                           f"count, so the Trainer stops after {steps} optimizer steps whatever the number of epochs "
                           "that makes (hundreds of epochs on a small set, a fraction of one on a large one). Pass "
                           "`--max_steps -1` with the epochs, or default the field to -1")
                yield pctx.code_finding(self, script, stmt, message, evidence=evidence)
                break
