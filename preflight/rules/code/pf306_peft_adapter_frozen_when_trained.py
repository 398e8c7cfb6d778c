"""PF306 peft-adapter-frozen-when-trained: a PEFT adapter that is frozen when it is trained: reloaded with
``PeftModel.from_pretrained`` without ``is_trainable=True``, or passed through
``prepare_model_for_kbit_training`` after it was attached."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg, target_text
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

_OPTIMIZERS = frozenset({"Adam", "AdamW", "SGD", "Adafactor", "AdamW8bit", "PagedAdamW", "PagedAdamW8bit",
                         "PagedAdamW32bit", "Lion", "RMSprop", "Adagrad", "LAMB", "Lamb"})
# what makes adapter weights trainable again after the load (peft: `BaseTunerLayer.set_adapter` sets the
# active adapter's weights to requires_grad=True), or attaches a new trainable adapter
_UNFREEZERS = frozenset({"requires_grad_", "set_adapter", "get_peft_model", "add_adapter", "train_adapter",
                         "mark_only_lora_as_trainable", "merge_and_unload", "enable_adapters", "unfreeze"})
_LOADERS = ("PeftModel", "AutoPeftModel", "AutoPeftModelForCausalLM", "AutoPeftModelForSeq2SeqLM",
            "AutoPeftModelForSequenceClassification", "AutoPeftModelForTokenClassification",
            "AutoPeftModelForQuestionAnswering", "AutoPeftModelForFeatureExtraction", "PeftModelForCausalLM",
            "PeftModelForSeq2SeqLM", "PeftModelForSequenceClassification")


def _pos(node: ast.AST) -> tuple[int, int]:
    return getattr(node, "lineno", 0), getattr(node, "col_offset", 0)


def _frozen_load(call: ast.Call) -> bool:
    """``PeftModel.from_pretrained(base, path)`` with no ``is_trainable`` (or a literal False) and no
    ``**kwargs`` that may carry it."""
    if not (isinstance(call.func, ast.Attribute) and call.func.attr == "from_pretrained"
            and isinstance(call.func.value, (ast.Name, ast.Attribute))
            and (target_text(call.func.value) or "").split(".")[-1] in _LOADERS):
        return False
    if any(kw.arg is None for kw in call.keywords):
        return False
    flag = kwarg(call, "is_trainable")
    return flag is None or (isinstance(flag, ast.Constant) and flag.value is False)


def _names_model(node: Optional[ast.AST], name: str) -> bool:
    return node is not None and target_text(node) == name


def _trains(ctx: FileContext, call: ast.Call) -> bool:
    """A trainer that trains: given a ``train_dataset`` (not a literal None), or ``.train()`` called on it
    (``Trainer(...).train()``, ``trainer = Trainer(...); trainer.train()``); a trainer built only for
    ``predict``/``evaluate`` does not."""
    dataset = kwarg(call, "train_dataset")
    if dataset is not None:
        return not (isinstance(dataset, ast.Constant) and dataset.value is None)
    holder = ctx.parent(call)
    if isinstance(holder, ast.Attribute) and holder.attr == "train":
        return True
    if isinstance(holder, ast.Assign) and len(holder.targets) == 1:
        name = target_text(holder.targets[0])
        return name is not None and any(
            isinstance(c.func, ast.Attribute) and c.func.attr == "train" and _names_model(c.func.value, name)
            for c in ctx.nodes(ast.Call))
    return False


def _trained_by(ctx: FileContext, call: ast.Call, name: str) -> bool:
    """``Trainer(model=name, ...)`` that trains (no ``peft_config`` that would attach a new adapter) or an
    optimizer built on ``name.parameters()``."""
    last = call_last(call)
    if last.endswith("Trainer") and kwarg(call, "peft_config") is None:
        model = kwarg(call, "model")
        if model is None and call.args:
            model = call.args[0]
        return _names_model(model, name) and _trains(ctx, call)
    if last in _OPTIMIZERS:
        return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "parameters"
                   and _names_model(n.func.value, name) for a in call.args for n in ast.walk(a))
    return False


@register
class PeftAdapterFrozenWhenTrained(Rule):
    code = "PF306"
    needs_text = ("peft",)
    name = "peft-adapter-frozen-when-trained"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("a PEFT adapter trained while frozen: reloaded with `PeftModel.from_pretrained` without "
               "`is_trainable=True`, or passed through `prepare_model_for_kbit_training` after it was attached")
    explanation = """
## What it finds

In one function (or at module level), a PEFT model that is then trained, a `Trainer`-family
constructor given it as `model` (no `peft_config=` that would attach a new adapter) or an
optimizer built on its `.parameters()`, while its adapter is frozen:

* it was loaded with `PeftModel.from_pretrained(base, path)` (or an `AutoPeftModel*` class)
  without `is_trainable=True`, or
* the PEFT model (from `get_peft_model` or `PeftModel.from_pretrained`) was passed through
  `prepare_model_for_kbit_training` after the adapter was attached.

## Why it matters

`PeftModel.from_pretrained` loads an adapter for inference unless told otherwise: its
`is_trainable` parameter defaults to False, the config gets `inference_mode=True` and every
`lora_A`/`lora_B` weight has `requires_grad=False` (peft `peft_model.py`). PEFT's
`prepare_model_for_kbit_training` starts by setting `requires_grad = False` on every parameter
of the model it is given (peft `utils/other.py`), so applied to a model that already has its
adapter it freezes the adapter too. Either way nothing is trainable: the backward pass raises
"element 0 of tensors does not require grad and does not have a grad_fn", or, with input
gradients enabled for gradient checkpointing, the whole run completes and saves the adapter it
loaded, unchanged (transformers issue 26098: "LoRA A and B param.requires_grad showing as false
during training").

## How to fix it

```python
base = prepare_model_for_kbit_training(base)          # first, on the base model
model = PeftModel.from_pretrained(base, adapter_dir, is_trainable=True)
model.print_trainable_parameters()
```

## When preflight stays silent

* `is_trainable=True` (or any value not literally False, or a `**kwargs`) is passed.
* Between the load and the training the model's parameters are unfrozen (`requires_grad = True`,
  `requires_grad_()`), an adapter is made active or added (`set_adapter`, `add_adapter`,
  `load_adapter(..., is_trainable=True)`, `get_peft_model`), or the adapter is merged
  (`merge_and_unload`, PF535's domain).
* The trainer is given a `peft_config`, or the loaded model is only evaluated, generated from,
  merged or saved.
"""
    bad_examples = examples("preflight.rules.code._pf306_examples", "PF306_BAD")
    good_examples = examples("preflight.rules.code._pf306_examples", "PF306_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call in ctx.nodes(ast.Call):
            frozen = _frozen_load(call)
            kbit = call_last(call) == "prepare_model_for_kbit_training" and bool(call.args)
            if not (frozen or kbit):
                continue
            assign = ctx.parent(call)
            if not isinstance(assign, ast.Assign) or len(assign.targets) != 1:
                continue
            name = target_text(assign.targets[0])
            if name is None:
                continue
            source: Optional[ast.Call] = None
            if kbit:
                source = self._peft_source(ctx, call, target_text(call.args[0]))
                if source is None or _frozen_load(source):
                    continue  # a frozen load is reported at the load, this call named in its message
            trainer = self._trained_after(ctx, call, name)
            if trainer is None:
                continue
            if frozen:
                message = (f"`{ast.unparse(call.func)}(...)` loads the adapter for inference: `is_trainable` defaults "
                           "to False, so every adapter weight has requires_grad=False and the training below updates "
                           "nothing (backward raises \"element 0 of tensors does not require grad\", or, with input "
                           "gradients on for checkpointing, the run ends with the adapter it loaded). Pass "
                           "`is_trainable=True`")
                kbit_after = self._kbit_after(ctx, call, name, trainer)
                if kbit_after is not None:
                    message += (f"; and `prepare_model_for_kbit_training` (line {kbit_after.lineno}) on the PEFT "
                                "model freezes every parameter again: apply it to the base model before loading the "
                                "adapter")
            else:
                message = (f"`prepare_model_for_kbit_training({ast.unparse(call.args[0])})` on a model that already "
                           f"holds its adapter (line {getattr(source, 'lineno', '?')}): it sets requires_grad=False on every parameter, "
                           "the LoRA weights included, so the training below updates nothing. Call it on the base "
                           "model before the adapter is attached")
            yield ctx.finding(self, call, message,
                              evidence=[ctx.evidence(trainer, "the frozen adapter model is trained here")])

    @staticmethod
    def _peft_source(ctx: FileContext, call: ast.Call, arg: Optional[str]) -> Optional[ast.Call]:
        """The last binding of ``arg`` before ``call``, in its scope, when it attaches an adapter."""
        if arg is None:
            return None
        scope = ctx.enclosing_function(call)
        best: Optional[ast.Assign] = None
        for assign in ctx.nodes(ast.Assign):
            if ctx.enclosing_function(assign) is not scope or _pos(assign) >= _pos(call) or assign.value is call:
                continue
            if any(_names_model(t, arg) for t in assign.targets) and (best is None or _pos(assign) > _pos(best)):
                best = assign
        if best is None or not isinstance(best.value, ast.Call):
            return None
        value = best.value
        if call_last(value) == "get_peft_model" or (isinstance(value.func, ast.Attribute)
                                                    and value.func.attr == "from_pretrained"
                                                    and (target_text(value.func.value) or "").split(".")[-1]
                                                    in _LOADERS):
            return value
        return None

    @staticmethod
    def _kbit_after(ctx: FileContext, load: ast.Call, name: str, trainer: ast.Call) -> Optional[ast.Call]:
        scope = ctx.enclosing_function(load)
        for call in ctx.nodes(ast.Call):
            if ctx.enclosing_function(call) is scope and _pos(load) < _pos(call) < _pos(trainer) \
                    and call_last(call) == "prepare_model_for_kbit_training" and call.args \
                    and _names_model(call.args[0], name):
                return call
        return None

    @staticmethod
    def _trained_after(ctx: FileContext, load: ast.Call, name: str) -> Optional[ast.Call]:
        scope = ctx.enclosing_function(load)
        here = _pos(load)
        trainer: Optional[ast.Call] = None
        for call in ctx.nodes(ast.Call):
            if ctx.enclosing_function(call) is not scope or _pos(call) <= here:
                continue
            if _trained_by(ctx, call, name) and (trainer is None or _pos(call) < _pos(trainer)):
                trainer = call
        if trainer is None:
            return None
        end = _pos(trainer)
        for node in ctx.nodes(ast.Call, ast.Attribute, ast.Assign):
            if ctx.enclosing_function(node) is not scope or not here < _pos(node) < end:
                continue
            if isinstance(node, ast.Call):
                last = call_last(node)
                if last in _UNFREEZERS and not (last == "requires_grad_" and node.args
                                                and isinstance(node.args[0], ast.Constant)
                                                and node.args[0].value is False):
                    return None
                if last == "load_adapter" and kwarg(node, "is_trainable") is not None:
                    return None
            elif isinstance(node, ast.Attribute):
                holder = ctx.parent(node)
                if node.attr == "requires_grad" and isinstance(node.ctx, ast.Store) and not (
                        isinstance(holder, ast.Assign) and isinstance(holder.value, ast.Constant)
                        and holder.value.value is False):
                    return None
            elif any(_names_model(t, name) for t in node.targets) and not (
                    isinstance(node.value, ast.Call) and call_last(node.value) == "prepare_model_for_kbit_training"):
                return None  # the name rebound to something else before it is trained
        return trainer
