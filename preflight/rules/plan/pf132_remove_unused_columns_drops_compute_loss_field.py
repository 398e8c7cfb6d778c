"""PF132 remove-unused-columns-drops-compute-loss-field: a Trainer subclass's ``compute_loss`` reads a batch
field the model's forward does not take, and ``remove_unused_columns`` keeps its default True."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hf_trainer_subclass import hf_trainer_class
from preflight.rules.plan._pf508_support import walk

# arguments of the forward of transformers' task heads (and what the Trainer keeps besides them)
_MODEL_INPUTS = frozenset({
    "input_ids", "attention_mask", "token_type_ids", "position_ids", "labels", "label", "label_ids",
    "start_positions", "end_positions", "pixel_values", "pixel_mask", "decoder_input_ids", "decoder_attention_mask",
    "inputs_embeds", "head_mask", "past_key_values", "use_cache", "output_attentions", "output_hidden_states",
    "return_dict", "input_features", "input_values", "bbox", "image", "images", "image_sizes", "cache_position",
    "decoder_inputs_embeds", "encoder_outputs", "cross_attn_head_mask", "decoder_head_mask", "num_items_in_batch",
    "logits_to_keep", "pixel_attention_mask", "image_grid_thw", "mc_token_ids", "special_tokens_mask",
})


def _read_key(node: ast.AST, param: str) -> Optional[str]:
    """``inputs["k"]``, ``inputs.pop("k")`` or ``inputs.get("k")``: the key read from the batch."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == param \
            and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        return node.slice.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("pop", "get") \
            and isinstance(node.func.value, ast.Name) and node.func.value.id == param and node.args \
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        return node.args[0].value
    return None


def _decided(pctx: PlanContext) -> bool:
    """The job says something about the columns: ``remove_unused_columns`` or ``label_names`` in a script, a
    config or the launch line, or a map-style torch Dataset (the Trainer removes columns of 🤗 datasets only)."""
    if any("remove_unused_columns" in tok or "label_names" in tok for tok in pctx.project.argv):
        return True
    hf_dataset = False
    for script in pctx.scripts:
        text = script.text if script.text is not None else script.source.text
        if text and ("remove_unused_columns" in text or "label_names" in text or "__getitem__" in text):
            return True
        hf_dataset = hf_dataset or bool(text and ("load_dataset(" in text or "Dataset.from_" in text))
    if not hf_dataset:
        return True  # no 🤗 dataset seen: a torch Dataset of another module keeps its fields
    return any("remove_unused_columns" in mapping or "label_names" in mapping
               for config in pctx.configs for _, mapping in walk(config.data))


def _forward_takes(pctx: PlanContext, key: str) -> bool:
    """A model class of the job declares ``key`` in its ``forward``."""
    for script in pctx.scripts:
        for cls in pctx.index(script).classes.values():
            for fn in cls.body:
                if isinstance(fn, ast.FunctionDef) and fn.name == "forward" and (
                        key in {a.arg for a in fn.args.args + fn.args.kwonlyargs} or fn.args.kwarg is not None):
                    return True
    return False


@register
class RemoveUnusedColumnsDropsComputeLossField(PlanRule):
    code = "PF132"
    name = "remove-unused-columns-drops-compute-loss-field"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("transformers",)
    summary = ("A Trainer subclass's `compute_loss` reads a batch field the model does not take, but "
               "`remove_unused_columns` keeps its default True and the Trainer drops that column")
    explanation = """
## What it finds

A class deriving from transformers' `Trainer` (or `Seq2SeqTrainer`) whose `compute_loss`
reads a field of its `inputs` (`inputs["example_id"]`, `inputs.pop("weight")`) that is not
an argument of a transformers model's forward (`input_ids`, `attention_mask`, `labels`,
`start_positions`, `pixel_values`, ...), in a job that never sets `remove_unused_columns`.

## Why it matters

With `remove_unused_columns=True` (the default) the Trainer drops every dataset column
the model's `forward` does not accept before batching; "in the `compute_loss` method only a
subset of the fields are available: the model inputs" (datasets issue 3353). The first
training step fails with `KeyError: 'example_id'` after the data has been tokenised and the
model loaded (or, with `.get`, the extra signal silently never arrives).

## How to fix it

Set `remove_unused_columns=False` and pop the extra field from `inputs` before
`model(**inputs)` (or list it in `label_names`).

## When preflight stays silent

* `remove_unused_columns` or `label_names` appears in a script, a config or on the launch line.
* No 🤗 dataset is built in the job (`load_dataset(...)`, `Dataset.from_*`), or a map-style torch
  `Dataset` is (a `__getitem__`): the Trainer removes columns of 🤗 datasets only.
* A model class of the job declares the field (or `**kwargs`) in its `forward`.
* trl trainers, which manage their own columns.
"""
    bad_examples = examples("preflight.rules.plan._pf132_examples", "PF132_BAD")
    good_examples = examples("preflight.rules.plan._pf132_examples", "PF132_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        decided: Optional[bool] = None
        for script in pctx.scripts:
            for cls in pctx.index(script).classes.values():
                method = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "compute_loss"),
                              None)
                params = [a.arg for a in method.args.args] if method is not None else []
                if method is None or len(params) < 3 or not hf_trainer_class(pctx, script, cls, trl=False):
                    continue
                found = next(((node, key) for node in ast.walk(method)
                              for key in [_read_key(node, params[2])] if key and key not in _MODEL_INPUTS), None)
                if found is None:
                    continue
                if decided is None:
                    decided = _decided(pctx)
                if decided:
                    return
                node, key = found
                if _forward_takes(pctx, key):
                    continue
                yield pctx.code_finding(
                    self, script, node,
                    f"`{cls.name}.compute_loss` reads `{key}` from its batch, but `remove_unused_columns` keeps its "
                    f"default True: the Trainer drops every dataset column the model's forward does not take, "
                    f"`{key}` among them, and the first training step fails with KeyError: '{key}'. Set "
                    f"`remove_unused_columns=False` and pop `{key}` before calling the model")
