"""PF444 state-dict-override-empties-adapter: ``model.state_dict`` patched to return the PEFT adapter's dict before ``save_pretrained``."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples


@register
class StateDictOverrideEmptiesAdapter(Rule):
    code = "PF444"
    needs_text = ("get_peft_model_state_dict",)
    name = "state-dict-override-empties-adapter"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers", "pytorch")
    summary = "`model.state_dict` is replaced by `get_peft_model_state_dict(...)`; `save_pretrained` then saves an empty adapter"
    explanation = """
## What it finds

An assignment `model.state_dict = ...` whose value calls `get_peft_model_state_dict`
(alpaca-lora's `(lambda self, *_, **__: get_peft_model_state_dict(self, old_state_dict())).__get__(model, type(model))`),
in a file that saves the model with `save_pretrained` or trains it with a Trainer (whose
checkpoints call `save_pretrained`).

## Why it matters

The patch was written for PEFT releases whose `save_pretrained` saved `state_dict()` as
is. Since PEFT 0.3, `PeftModel.save_pretrained` itself calls
`get_peft_model_state_dict(self, state_dict=self.state_dict())`: the adapter keys come
back already filtered and renamed, the second filter matches none of them, and the
`adapter_model.bin` written after hours of training is an empty dict of a few hundred
bytes (alpaca-lora issues 293 and 477: "the final state_dict to be saved is None").

## How to fix it

Delete the override: `model.save_pretrained(output_dir)` saves the adapter alone.

## When preflight stays silent

* The override does not call `get_peft_model_state_dict`, or the file never calls
  `save_pretrained` nor builds a Trainer.
"""
    bad_examples = examples("preflight.rules.code._pf444_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf444_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        saves = ctx.mentions("save_pretrained") or ctx.mentions("Trainer(")
        if not saves:
            return
        for assign in ctx.nodes(ast.Assign):
            if len(assign.targets) != 1:
                continue
            target = assign.targets[0]
            if not (isinstance(target, ast.Attribute) and target.attr == "state_dict"):
                continue
            if not any(isinstance(n, ast.Call) and isinstance(n.func, (ast.Name, ast.Attribute))
                       and (n.func.id if isinstance(n.func, ast.Name) else n.func.attr) == "get_peft_model_state_dict"
                       for n in ast.walk(assign.value)):
                continue
            yield ctx.finding(
                self, assign,
                f"`{ast.unparse(target)}` is replaced by a function returning `get_peft_model_state_dict(...)`: PEFT's "
                "`save_pretrained` (0.3 and later) applies `get_peft_model_state_dict` to `state_dict()` itself, the "
                "second pass finds no adapter key in the already-filtered dict, and the adapter saved after "
                "training is empty. Remove the override; `save_pretrained` saves the adapter alone")
