"""PF363 sft-trainer-drops-collator-column: trl's SFTTrainer tokenises the text field with a map that removes
every original column, so a custom collator that reads another column of the examples fails or reads nothing."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import examples
from preflight.rules.plan._pinned_release import pinned_scripts

# what SFTTrainer's tokenisation returns (and what a collator may read after it)
_KEPT = frozenset({"input_ids", "attention_mask", "labels", "token_type_ids"})


def _sft_classes(tree: ast.AST) -> set[str]:
    """``SFTTrainer`` and the classes of the file derived from it."""
    out = {"SFTTrainer"}
    grew = True
    while grew:
        grew = False
        for cls in ast.walk(tree):
            if isinstance(cls, ast.ClassDef) and cls.name not in out \
                    and any(ast.unparse(b).rsplit(".", 1)[-1] in out for b in cls.bases):
                out.add(cls.name)
                grew = True
    return out


def _collator_reads(cls: ast.ClassDef) -> list[tuple[str, ast.AST]]:
    """(key, node) of the string keys ``__call__(self, examples)`` reads from single examples
    (``e["weight"] for e in examples``, ``examples[i]["weight"]``)."""
    call = next((f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "__call__"), None)
    if call is None or len(call.args.args) < 2:
        return []
    batch = call.args.args[1].arg
    items = {g.target.id for g in ast.walk(call) if isinstance(g, ast.comprehension)
             and isinstance(g.iter, ast.Name) and g.iter.id == batch and isinstance(g.target, ast.Name)}
    items |= {f.target.id for f in ast.walk(call) if isinstance(f, ast.For)
              and isinstance(f.iter, ast.Name) and f.iter.id == batch and isinstance(f.target, ast.Name)}
    out: list[tuple[str, ast.AST]] = []
    for node in ast.walk(call):
        if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant)
                and isinstance(node.slice.value, str) and isinstance(node.ctx, ast.Load)):
            continue
        value = node.value
        one = (isinstance(value, ast.Name) and value.id in items) or (
            isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name) and value.value.id == batch)
        if one and node.slice.value not in _KEPT:
            out.append((node.slice.value, node))
    return out


def _remove_unused_false(tree: ast.AST) -> bool:
    for call in ast.walk(tree):
        if isinstance(call, ast.Call) and call_last(call) in ("TrainingArguments", "SFTConfig"):
            value = kwarg(call, "remove_unused_columns")
            if isinstance(value, ast.Constant) and value.value is False:
                return True
    return False


def _affected(version: Any, tree: ast.AST) -> Optional[str]:
    """Why the pinned release drops the columns, or None."""
    if not version.at_least(0, 7, 8):
        return "before 0.7.8 the map removes every original column whatever `remove_unused_columns` says"
    if not version.at_least(0, 10) and not _remove_unused_false(tree):
        return "0.7.8-0.9 remove them unless `remove_unused_columns=False`"
    return None


@register
class SftTrainerDropsCollatorColumn(PlanRule):
    code = "PF363"
    name = "sft-trainer-drops-collator-column"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("trl's SFTTrainer tokenises the text field and removes the dataset's other columns: a custom "
               "collator that reads one of them fails on the first batch")
    explanation = """
## What it finds

A project that pins trl before 0.10, and an `SFTTrainer` (or a subclass of it in the file)
given `dataset_text_field=` and a `data_collator=` built from a class of the file whose
`__call__(self, examples)` reads a key other than `input_ids`, `attention_mask`, `labels` or
`token_type_ids` from the single examples (`e["weight"] for e in examples`).

## Why it matters

SFTTrainer tokenises the text field itself, with `dataset.map(tokenize, batched=True,
remove_columns=dataset.column_names)`: up to 0.7.7 always, from 0.7.8 to 0.9 unless
`remove_unused_columns=False` (trl `sft_trainer.py` `_prepare_non_packed_dataloader`, read at
v0.7.7, v0.7.8, v0.9.6 and v0.10.1). The column the collator needs (a per-example weight, a
task id) is gone before the first batch: `KeyError: 'weight'` (trl issue 1186: "SFTTrainer
removes dataset columns even when remove_unused_columns = False").

## How to fix it

Tokenise the dataset yourself, keep the column, and train with a `Trainer` whose
`remove_unused_columns=False`; on 0.7.8 or later pass `remove_unused_columns=False` to
SFTTrainer's arguments.

## When preflight stays silent

* trl is not pinned, or pinned at 0.10 or later (not read); 0.7.8-0.9 with
  `remove_unused_columns=False`.
* No `dataset_text_field` (a pre-tokenised dataset), or the collator reads only the tokenised
  fields.
"""
    bad_examples = examples("preflight.rules.plan._pf363_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf363_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script, _, version in pinned_scripts(pctx, "trl",
                                                 lambda text: "SFTTrainer" in text and "data_collator" in text):
            why = _affected(version, script.tree)
            if why is None:
                continue
            classes = _sft_classes(script.tree)
            collators = {c.name: c for c in ast.walk(script.tree) if isinstance(c, ast.ClassDef)}
            for call in ast.walk(script.tree):
                if not (isinstance(call, ast.Call) and call_last(call) in classes
                        and kwarg(call, "dataset_text_field") is not None):
                    continue
                coll = kwarg(call, "data_collator")
                if not (isinstance(coll, ast.Call) and isinstance(coll.func, ast.Name) and coll.func.id in collators):
                    continue
                reads = _collator_reads(collators[coll.func.id])
                if not reads:
                    continue
                key, node = reads[0]
                yield pctx.code_finding(
                    self, script, call,
                    f"`{coll.func.id}` reads the column `{key}` of each example, but SFTTrainer tokenises "
                    f"`dataset_text_field` with a map that removes the dataset's columns ({version.describe()}: "
                    f"{why}): the column never reaches the collator and the first batch fails with KeyError: "
                    f"'{key}' (trl issue 1186). Tokenise the dataset yourself and keep the column (a Trainer with "
                    "remove_unused_columns=False)",
                    evidence=[pctx.code_evidence(script, node, f"the collator reads `{key}` here", same_file=True)])
