"""PF309 completion-template-trailing-space: a ``DataCollatorForCompletionOnlyLM`` template string that
ends in a space, which the collator's token-id search never finds in the formatted examples."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._collator_templates import collator_templates
from preflight.rules._pf4_support import literal
from preflight.rules.base import Rule, examples


def _binding(ctx: FileContext, call: ast.Call, name: str) -> Optional[ast.Assign]:
    """The last ``name = "..."`` before ``call`` in its scope (or at module level)."""
    scopes = {ctx.enclosing_function(call), None}
    best: Optional[ast.Assign] = None
    for assign in ctx.nodes(ast.Assign):
        if ctx.enclosing_function(assign) not in scopes or assign.lineno > call.lineno:
            continue
        if any(isinstance(t, ast.Name) and t.id == name for t in assign.targets) \
                and isinstance(assign.value, ast.Constant) and isinstance(assign.value.value, str) \
                and (best is None or assign.lineno > best.lineno):
            best = assign
    return best


@register
class CompletionTemplateTrailingSpace(Rule):
    code = "PF309"
    needs_text = ("DataCollatorForCompletionOnlyLM",)
    name = "completion-template-trailing-space"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("a `DataCollatorForCompletionOnlyLM` response/instruction template that ends in a space: its "
               "token ids never occur in the examples, every label is masked")
    explanation = """
## What it finds

`DataCollatorForCompletionOnlyLM(response_template, ...)` (TRL) whose `response_template`
or `instruction_template` is a string, written in the call or bound to a name, that ends in
a space or tab (`"Answer: "`, `"### Response: "`).

## Why it matters

The collator does not search the text: it tokenizes the template on its own and looks for that
token-id sequence in each example's `input_ids`. A trailing space is tokenized alone (GPT-2 and
the other byte-level BPE tokenizers encode it as its own token, `Ġ` = 220; SentencePiece
tokenizers likewise end the template with a lone-space piece), while in the formatted example
the space belongs to the next word (`Ġ` + answer). The sequence never occurs, the collator
warns "Could not find response key ... This instance will be ignored in loss calculation" and
sets every label to -100: the run trains on nothing (TRL issue 1920, "Adding Space caused
'This instance will be ignored in loss calculation'").

## How to fix it

Drop the trailing space (`"Answer:"`), or pass the template's token ids as they occur in
context (`tokenizer.encode("\\nAnswer:", add_special_tokens=False)[1:]`).

## When preflight stays silent

* The template ends in a non-space character or a newline, or is given as token ids.
* The template is not a statically known string.
"""
    bad_examples = examples("preflight.rules.code._pf309_examples", "PF309_BAD")
    good_examples = examples("preflight.rules.code._pf309_examples", "PF309_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call, key, arg in collator_templates(ctx):
            value = literal(ctx, arg)
            if not isinstance(value, str) or not value.strip() or value[-1] not in " \t":
                continue
            where: ast.AST = arg
            if isinstance(arg, ast.Name):
                bound = _binding(ctx, call, arg.id)
                if bound is not None:
                    where = bound.value
            evidence = [] if where is arg else [ctx.evidence(call, "the collator that searches for it")]
            yield ctx.finding(self, where, (
                f"{key} {value!r} ends with a space: DataCollatorForCompletionOnlyLM tokenizes the template "
                "alone, where the trailing space becomes its own token, while in the formatted examples the "
                "space is part of the next word's token; the token sequence is found in no example, every "
                "instance is ignored (all labels -100) and the run trains on nothing. Use "
                f"{value.rstrip()!r}"), evidence=evidence)
