"""PF535 adapter-merged-before-training: ``merge_and_unload()`` right after ``get_peft_model`` and the
merged model is then trained."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg, target_text
from preflight.rules._pf414_support import call_last, names_called
from preflight.rules.base import Rule, examples

_OPTIMIZERS = frozenset({"Adam", "AdamW", "SGD", "Adafactor", "AdamW8bit", "PagedAdamW", "PagedAdamW8bit",
                         "PagedAdamW32bit", "Lion", "RMSprop", "Adagrad", "LAMB", "Lamb"})
_QUANTIZED = ("BitsAndBytesConfig", "load_in_8bit", "load_in_4bit", "prepare_model_for_kbit_training")


def _pos(node: ast.AST) -> tuple[int, int]:
    return getattr(node, "lineno", 0), getattr(node, "col_offset", 0)


def _is_name(node: Optional[ast.AST], text: str) -> bool:
    return node is not None and target_text(node) == text


def _trained_by(call: ast.Call, merged: str) -> bool:
    """``Trainer(model=merged, ...)`` (no ``peft_config`` that would wrap it again) or an optimizer built
    on ``merged.parameters()``."""
    last = call_last(call)
    if last.endswith("Trainer") and kwarg(call, "peft_config") is None:
        model = kwarg(call, "model")
        if model is None and call.args:
            model = call.args[0]
        return _is_name(model, merged)
    if last in _OPTIMIZERS:
        return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "parameters"
                   and _is_name(n.func.value, merged) for a in call.args for n in ast.walk(a))
    return False


@register
class AdapterMergedBeforeTraining(Rule):
    code = "PF535"
    needs_text = ("merge_and_unload",)
    name = "adapter-merged-before-training"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = "`merge_and_unload()` folds a fresh LoRA adapter away before training: the merged model has nothing to train"
    explanation = """
## What it finds

`model = get_peft_model(model, config)` followed, in the same function, by
`model = model.merge_and_unload()` and then training of the merged model: a `Trainer`-family
constructor given it as `model` (no `peft_config=` that would attach a new adapter), or an
optimizer built on its `.parameters()`.

## Why it matters

`get_peft_model` freezes every base weight and adds the LoRA matrices as the only trainable
parameters (PEFT `tuners_utils.py`, `BaseTuner._mark_only_adapters_as_trainable`:
`p.requires_grad = False` for every parameter outside the adapter). `merge_and_unload()` adds the
(still zero) LoRA update into those frozen weights and returns the base model without the adapter
layers. What is trained afterwards has no adapter and frozen weights: on a quantized base the
Trainer refuses it ("You cannot perform fine-tuning on purely quantized models. Please attach
trainable adapters on top of the quantized model", transformers `trainer.py`; Bunny issue 112: "I
delete model = model.merge_and_unload(), then everything is fine"); on a full-precision base the
backward pass has nothing requiring a gradient ("element 0 of tensors does not require grad"), or,
with input gradients enabled for checkpointing, runs and updates nothing.

## How to fix it

Train the PEFT model and merge only after training, for export:

```python
model = get_peft_model(model, lora_config)
trainer = Trainer(model=model, args=args, train_dataset=ds)
trainer.train()
merged = trainer.model.merge_and_unload()
merged.save_pretrained("merged")
```

## When preflight stays silent

* The merged model is wrapped again before training (`get_peft_model` after the merge, or a trl
  trainer given `peft_config=`): merging an earlier adapter and training a new one is the
  usual second stage.
* Parameters are unfrozen after the merge (`requires_grad = True`, `requires_grad_()`): a
  deliberate full fine-tune.
* The merge result is not assigned (`model.merge_and_unload()` as a statement), the adapter model
  was not built by `get_peft_model` in the same function (`PeftModel.from_pretrained` of a trained
  adapter), or nothing trains the merged model there (merging for export, evaluation).
"""
    bad_examples = examples("preflight.rules.code._pf535_examples", "PF535_BAD")
    good_examples = examples("preflight.rules.code._pf535_examples", "PF535_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if "get_peft_model" not in names_called(ctx):
            return
        quantized = any(ctx.mentions(word) for word in _QUANTIZED)
        for merge in ctx.nodes(ast.Call):
            if not (isinstance(merge.func, ast.Attribute) and merge.func.attr == "merge_and_unload"):
                continue
            peft = target_text(merge.func.value)
            assign = ctx.parent(merge)
            if peft is None or not isinstance(assign, ast.Assign) or len(assign.targets) != 1:
                continue
            merged = target_text(assign.targets[0])
            if merged is None:
                continue
            trainer = self._trained_after(ctx, merge, peft, merged)
            if trainer is None:
                continue
            effect = ("the Trainer refuses the purely quantized model that is left (\"You cannot perform "
                      "fine-tuning on purely quantized models\")") if quantized else \
                ("backward finds nothing that requires a gradient, or updates nothing")
            yield ctx.finding(
                self, merge,
                f"`{ast.unparse(merge)}` right after `get_peft_model`, before training: the fresh LoRA adapter is "
                "folded away and the base weights `get_peft_model` froze stay frozen, so the merged model has "
                f"nothing to train: {effect}. Train the PEFT model and merge only after training",
                evidence=[ctx.evidence(trainer, "the merged model is trained here")])

    @staticmethod
    def _trained_after(ctx: FileContext, merge: ast.Call, peft: str, merged: str) -> Optional[ast.Call]:
        scope = ctx.enclosing_function(merge)
        here = _pos(merge)
        start = _pos(ctx.parent(merge) or merge)  # the assignment the merge is the value of
        built: Optional[ast.AST] = None  # the last binding of the adapter model before the merge
        for assign in ctx.nodes(ast.Assign):
            if ctx.enclosing_function(assign) is not scope or _pos(assign) >= start:
                continue
            if any(_is_name(t, peft) for t in assign.targets) and (built is None or _pos(assign) > _pos(built)):
                built = assign
        if not (isinstance(built, ast.Assign) and isinstance(built.value, ast.Call)
                and call_last(built.value) == "get_peft_model"):
            return None
        trainer: Optional[ast.Call] = None
        for node in ctx.nodes(ast.Call, ast.Attribute, ast.Assign):
            if ctx.enclosing_function(node) is not scope or _pos(node) <= here:
                continue
            if isinstance(node, ast.Call):
                if call_last(node) in ("get_peft_model", "requires_grad_", "PeftModel", "add_adapter"):
                    return None
                if _trained_by(node, merged) and (trainer is None or _pos(node) < _pos(trainer)):
                    trainer = node
            elif isinstance(node, ast.Attribute) and node.attr == "requires_grad" and isinstance(node.ctx, ast.Store):
                return None
        if trainer is None:
            return None
        for node in ctx.nodes(ast.Assign):  # the merged name rebound before it is trained
            if ctx.enclosing_function(node) is scope and here < _pos(node) < _pos(trainer) \
                    and any(_is_name(t, merged) for t in node.targets):
                return None
        return trainer
