"""PF487 pretrained-model-trained-in-eval-mode: a model from ``from_pretrained`` (which returns it in eval
mode) trained in a hand-written loop that never calls ``.train()``."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import call_last, const_str, names_called
from preflight.rules._pf484_support import (
    assigned_to,
    model_loads,
    trains_by_backward,
    uses_a_trainer,
)
from preflight.rules.base import Rule, examples

# calls that hand the model to something that sets the mode itself (Lightning's fit, Keras-style fit)
_MODE_SETTERS = frozenset({"train", "fit", "eval", "requires_grad_", "disable_dropout", "disable_dropout_in_model"})
# checkpoint families whose configs train with dropout (hidden/attention dropout 0.1); Llama, Mistral, Qwen,
# CLIP and the diffusion transformers default to none
_DROPOUT_FAMILY = re.compile(r"bert|roberta|electra|albert|xlm|xlnet|gpt2|gpt-neo|gpt-j|opt-|(^|/)t5|flan-t5|bart|"
                             r"pegasus|marian|wav2vec", re.IGNORECASE)


def _sets_the_mode(ctx: FileContext) -> bool:
    """A call in the file that may set the model's mode: ``x.train()``/``x.eval()`` (``nn.Module.train``
    takes at most ``mode``), ``trainer.fit(...)``, ``model.requires_grad_()``, trl's
    ``disable_dropout_in_model(model)``, or an imported ``train(...)``/``fit(...)`` whose body is not
    seen. A ``train(...)``/``fit(...)`` function defined in this file sets nothing itself (its own
    ``.train()`` calls are in the file), and a bare ``eval(...)`` is Python's builtin."""
    local = {f.name for f in ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef)}
    for call in ctx.nodes(ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute):
            if func.attr == "train" and len(call.args) + len(call.keywords) > 1:
                continue  # an object's own training method (``agent.train(loader, epochs)``), not nn.Module.train
            if func.attr in _MODE_SETTERS:
                return True
        elif isinstance(func, ast.Name) and func.id in _MODE_SETTERS and func.id != "eval" and \
                func.id not in local:
            return True
    return False


def _mode_matters(ctx: FileContext, load: ast.Call) -> Optional[str]:
    """What eval mode switches off in this program: LoRA dropout (a ``lora_dropout`` that is not a literal 0),
    transformers' gradient checkpointing (it runs only in train mode), or the dropout of a checkpoint family
    that trains with it (a literal model id)."""
    for kw in ctx.nodes(ast.keyword):
        if kw.arg == "lora_dropout" and not (isinstance(kw.value, ast.Constant) and not kw.value.value):
            return "LoRA's dropout"
    if "gradient_checkpointing_enable" in names_called(ctx) or _kbit_checkpointing(ctx):
        return "gradient checkpointing (transformers runs it only in train mode)"
    model_id = const_str(load.args[0]) if load.args else None
    if model_id is not None and _DROPOUT_FAMILY.search(model_id):
        return "the model's dropout"
    return None


def _kbit_checkpointing(ctx: FileContext) -> bool:
    """PEFT's ``prepare_model_for_kbit_training(model)`` turns gradient checkpointing on unless told
    ``use_gradient_checkpointing=False`` (peft ``utils/other.py``: the default is True and it ends in
    ``model.gradient_checkpointing_enable(...)`` for a k-bit model)."""
    for call in ctx.nodes(ast.Call):
        if call_last(call) != "prepare_model_for_kbit_training":
            continue
        flag = next((kw.value for kw in call.keywords if kw.arg == "use_gradient_checkpointing"),
                    call.args[1] if len(call.args) > 1 else None)
        if flag is None or (isinstance(flag, ast.Constant) and flag.value is True):
            return True
    return False


def _own_statements(root: ast.AST) -> Iterable[ast.AST]:
    """The nodes of ``root``'s own body, not of the functions, classes and lambdas defined in it."""
    stack = list(ast.iter_child_nodes(root))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(node))


def _rebinds_locally(ctx: FileContext, name: str, forward: ast.Call, load: ast.Call) -> bool:
    """``name`` at the loop's forward is another object than the loaded model: the loop sits in another
    function (or at module level while the load is in a function) that binds ``name`` itself and does not
    receive it as a parameter (trl's test module: ``model = AutoModelForCausalLM.from_pretrained(...)`` in one
    test method, ``model = ModelWithUnusedBranch()`` and its training loop in another)."""
    scope = ctx.enclosing_function(forward)
    if scope is ctx.enclosing_function(load):
        return False
    root: ast.AST = scope if scope is not None else ctx.tree
    if isinstance(root, (ast.FunctionDef, ast.AsyncFunctionDef)):
        args = root.args
        if name in {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}:
            return False
    for node in _own_statements(root):
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return True
    return False


def _loop_forward(ctx: FileContext, name: str, backward: ast.Call) -> Optional[ast.Call]:
    """The first ``name(...)`` call inside the loop that holds ``backward``."""
    for anc in ctx.ancestors(backward):
        if isinstance(anc, (ast.For, ast.While, ast.AsyncFor)):
            for node in ast.walk(anc):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name:
                    return node
            return None
    return None


@register
class PretrainedModelTrainedInEvalMode(Rule):
    code = "PF487"
    name = "pretrained-model-trained-in-eval-mode"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    needs_text = ("from_pretrained",)
    summary = "a from_pretrained model (returned in eval mode) is trained in a loop that never calls model.train()"
    explanation = """
## What it finds

A script that loads its model with `X.from_pretrained(...)`, trains it in a hand-written
loop (`model(...)` and `loss.backward()` in the same loop), and never calls `.train()`
(nor `.eval()`, nor hands the model to a `*Trainer` or a `fit`).

## Why it matters

`PreTrainedModel.from_pretrained` ends with `model.eval()` ("Set model in evaluation mode
to deactivate Dropout modules by default", transformers `modeling_utils.py`, 4.x and 5.x;
PEFT's `PeftModel.from_pretrained` does the same unless `is_trainable=True`). A loop that
never switches back trains with every dropout off (the model's and LoRA's `lora_dropout`)
and, on transformers models, with gradient checkpointing inactive (it runs only
`if self.gradient_checkpointing and self.training`): no error, a different
regularisation than configured and more activation memory (peft#120). The transformers
`Trainer` calls `model.train()` itself; a hand-written loop must.

## How to fix it

`model.train()` before the loop (and after any evaluation inside it).

## When preflight stays silent

* Nothing in the file shows that eval mode changes training: no `lora_dropout` other than a
  literal 0, no `gradient_checkpointing_enable` (nor PEFT's `prepare_model_for_kbit_training`,
  which turns checkpointing on unless given `use_gradient_checkpointing=False`), and the model
  id is not a literal of a
  family that trains with dropout (BERT, RoBERTa, GPT-2, GPT-Neo, T5, BART, ...; Llama,
  Mistral, Qwen, CLIP and diffusion transformers default to no dropout, so eval mode
  changes little there).
* Any `.train(...)` or `.eval(...)` call is in the file (an explicit mode choice; a model
  left in eval after validation is PF111's), or the model goes to a `*Trainer` or `fit`, or an
  imported `train(...)`/`fit(...)` function is called (its body is not read). A `train(...)` or
  `fit(...)` function defined in the file is not such a call: its body is read with the file.
* The loop's forward is not a call of the loaded model's name, or the backward is in
  another file.
* The loop is in another function that binds the name itself (`model = MyNet()` in a
  second test method): that `model` is not the loaded one, and `nn.Module`s start in train mode.
"""
    bad_examples = examples("preflight.rules.code._pf487_examples", "PF487_BAD")
    good_examples = examples("preflight.rules.code._pf487_examples", "PF487_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if _sets_the_mode(ctx) or uses_a_trainer(ctx):
            return
        backwards = trains_by_backward(ctx)
        if not backwards:
            return
        for load in model_loads(ctx):
            name = assigned_to(ctx, load)
            what = _mode_matters(ctx, load)
            if name is None or what is None:
                continue
            for backward in backwards:
                forward = _loop_forward(ctx, name, backward)
                if forward is None or (forward.lineno < load.lineno and \
                        ctx.enclosing_function(forward) is ctx.enclosing_function(load)) or \
                        _rebinds_locally(ctx, name, forward, load):
                    continue
                yield ctx.finding(
                    self, forward,
                    f"`{name}` comes from `from_pretrained`, which returns the model in eval mode, and this loop "
                    f"trains it without ever calling `.train()`: {what} stays off for the whole run. Call "
                    "`model.train()` before the loop",
                    evidence=[ctx.evidence(load, "loaded here (from_pretrained ends with model.eval())")])
                return
