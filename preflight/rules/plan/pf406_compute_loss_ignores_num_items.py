"""PF406 compute-loss-ignores-num-items: a Trainer's own compute_loss under gradient accumulation."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional, Union

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hf_trainer_subclass import hf_trainer_class
from preflight.sources import ParsedPython

_OPT_OUT = ("model_accepts_loss_kwargs", "loss_is_scaled_for_ga")


def _opts_out(cls: ast.ClassDef) -> bool:
    for node in ast.walk(cls):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        for t in targets:
            name = t.attr if isinstance(t, ast.Attribute) else t.id if isinstance(t, ast.Name) else None
            if name in _OPT_OUT:
                return True
    return False


def _model_takes_no_loss_kwargs(script: ParsedPython, cls: ast.ClassDef) -> bool:
    """Every model handed to this Trainer is a class of the file whose ``forward`` takes neither
    ``num_items_in_batch`` nor ``**kwargs``: Trainer then sees ``model_accepts_loss_kwargs`` false
    and divides by the accumulation window itself, so ignoring the count is right."""
    classes = {n.name: n for n in ast.walk(script.tree) if isinstance(n, ast.ClassDef)}
    built = {}
    for node in ast.walk(script.tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name):
            for tgt in node.targets:
                if isinstance(tgt, ast.Name):
                    built[tgt.id] = node.value.func.id
    models = []
    for node in ast.walk(script.tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == cls.name:
            expr = next((k.value for k in node.keywords if k.arg == "model"), node.args[0] if node.args else None)
            if expr is None:
                return False
            name = expr.func.id if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) else \
                built.get(expr.id) if isinstance(expr, ast.Name) else None
            if name is None or name not in classes:
                return False
            models.append(classes[name])
    if not models:
        return False
    for model in models:
        forward = next((n for n in model.body if isinstance(n, ast.FunctionDef) and n.name == "forward"), None)
        if forward is None or forward.args.kwarg is not None or any(
                a.arg == "num_items_in_batch" for a in [*forward.args.args, *forward.args.kwonlyargs]):
            return False
    return True


def _ignores(fn: ast.FunctionDef) -> Optional[str]:
    """How ``compute_loss`` ignores ``num_items_in_batch``, or None when it uses it."""
    params = [a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]]
    loads = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    kwargs = fn.args.kwarg.arg if fn.args.kwarg is not None else None
    if "num_items_in_batch" in params:
        if "num_items_in_batch" in loads or (kwargs is not None and kwargs in loads):
            return None
        return "accepts `num_items_in_batch` but never uses it"
    if kwargs is not None:
        if kwargs in loads:
            return None
        return f"receives `num_items_in_batch` in `**{kwargs}` but never uses it"
    return "does not accept `num_items_in_batch`"


def _rejects_num_items(fn: Union[ast.FunctionDef, ast.AsyncFunctionDef]) -> bool:
    """``compute_loss(self, model, inputs, return_outputs=False)``: no ``num_items_in_batch``
    parameter and no ``**kwargs`` to take it."""
    params = [a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]]
    return fn.args.kwarg is None and "num_items_in_batch" not in params


def _called_by_training_step(cls: ast.ClassDef) -> bool:
    """The class leaves ``training_step`` to the Trainer (an override of its own may call
    ``compute_loss`` without the keyword)."""
    return not any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == "training_step"
                   for n in cls.body)


def _pinned_before_loss_fix(version: Any) -> bool:
    """The project pins a transformers release before 4.46 (``transformers==4.36.2``): its
    ``Trainer.training_step`` neither passes ``num_items_in_batch`` nor skips its own division
    by the accumulation window, so a mean loss is right. A lower bound (``>=4.36``) may install
    a later release and does not count."""
    return version is not None and version.how == "pinned" and not version.at_least(4, 46)


def _const_key(node: Optional[ast.AST]) -> Optional[str]:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _nested_batch(fn: ast.FunctionDef) -> bool:
    """``compute_loss`` reads its batch only by named keys, none of them ``labels``
    (``inputs["forget"]``, ``"retain" in inputs``: open-unlearning's forget/retain batches), or
    unpacks it as a sequence (``forget_inputs, retain_inputs = inputs``, ``inputs[0]``: TOFU's
    tuple batches): the Trainer counts ``num_items_in_batch`` only from a top-level ``labels`` key, so it passes None
    and divides the loss by the accumulation window itself."""
    params = [*fn.args.posonlyargs, *fn.args.args]
    if len(params) < 3:
        return False
    batch = params[2].arg
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(fn):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    uses = 0
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Name) and node.id == batch and isinstance(node.ctx, ast.Load)):
            continue
        uses += 1
        parent = parents.get(node)
        key: Optional[str] = None
        if isinstance(parent, ast.Subscript) and parent.value is node:
            key = _const_key(parent.slice)
        elif isinstance(parent, ast.Attribute) and parent.attr == "get" and isinstance(parents.get(parent), ast.Call):
            call = parents[parent]
            key = _const_key(call.args[0]) if isinstance(call, ast.Call) and call.args else None
        elif isinstance(parent, ast.Compare) and len(parent.ops) == 1 and isinstance(parent.ops[0], ast.In) \
                and parent.comparators[0] is node:
            key = _const_key(parent.left)
        if isinstance(parent, ast.Assign) and parent.value is node and len(parent.targets) == 1 \
                and isinstance(parent.targets[0], (ast.Tuple, ast.List)):
            continue  # `forget_inputs, retain_inputs = inputs`: a sequence batch, no `labels` key to count
        if isinstance(parent, ast.Subscript) and parent.value is node and isinstance(parent.slice, ast.Constant) \
                and isinstance(parent.slice.value, int):
            continue  # `inputs[0]`: a sequence batch
        if key is None or key == "labels":
            return False
    return uses > 0


@register
class ComputeLossIgnoresNumItems(PlanRule):
    code = "PF406"
    name = "compute-loss-ignores-num-items"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers", "trl")
    summary = "A Trainer subclass's `compute_loss` ignores `num_items_in_batch` under gradient accumulation"
    explanation = """
## What it finds

A subclass of the Hugging Face `Trainer` (or a TRL trainer) that overrides
`compute_loss` without using its `num_items_in_batch` argument, in a job whose
`gradient_accumulation_steps` is greater than 1 (from `TrainingArguments`, an
arguments file or the launch command).

Also, whatever the accumulation, an override that takes neither `num_items_in_batch`
nor `**kwargs` in a project that declares transformers 4.46 or later (requirements,
pyproject, `--transformers-version`) and leaves `training_step` to the Trainer:
`Trainer.training_step` calls `self.compute_loss(model, inputs,
num_items_in_batch=num_items_in_batch)` from 4.46 on, so the first step stops with
`TypeError: compute_loss() got an unexpected keyword argument 'num_items_in_batch'`
(transformers `trainer.py` `training_step`; the traceback in BitDistiller's issue
reports it at trainer.py:3718; locuslab/tofu's `CustomTrainerForgetting`).

## Why it matters

Since the gradient-accumulation loss fix (transformers 4.46), `Trainer` counts
the target tokens of the whole accumulation window and passes that count to
`compute_loss` as `num_items_in_batch`. When the model accepts loss keyword
arguments (every causal LM of the library does), `training_step` then treats the
loss as already normalised over the window and does **not** divide it by
`gradient_accumulation_steps`. A custom `compute_loss` that returns an ordinary
mean loss is therefore summed over the window: gradients
`gradient_accumulation_steps` times too large, silently. (In transformers 5,
an override without the parameter fails with a TypeError.)

## How to fix it

Normalise by the count: `loss = loss_sum / num_items_in_batch` (or pass
`num_items_in_batch` on to the model / `super().compute_loss`); or tell the
Trainer that the loss is a plain mean: `loss_is_scaled_for_ga = False`
(transformers 5) / `model_accepts_loss_kwargs = False` (4.46-4.x) on the class.

## When preflight stays silent

* `num_items_in_batch` (or the `**kwargs` holding it) is used in the body.
* The class sets `model_accepts_loss_kwargs` or `loss_is_scaled_for_ga`.
* The model handed to the Trainer is a class of the same file whose `forward` takes
  neither `num_items_in_batch` nor `**kwargs`: the Trainer then divides by the
  accumulation window itself.
* `compute_loss` reads its batch only by named keys other than `labels`
  (`inputs["forget"]`, `"retain" in inputs`: the nested forget/retain batches of
  open-unlearning): the Trainer counts `num_items_in_batch` only from a top-level
  `labels` key, so it passes None and divides by the window itself. The same for a
  batch unpacked as a sequence (`forget_inputs, retain_inputs = inputs`, `inputs[0]`).
* Gradient accumulation is 1 or not known (the TypeError form aside).
* The project pins a transformers release before 4.46 (`transformers==4.36.2`): that
  Trainer neither passes `num_items_in_batch` nor skips its own division by the window
  (trl issue 1186's job). A lower bound (`transformers>=4.36`) still counts as 4.46+ possible.
* The TypeError form: no transformers version declared, one before 4.46, or the class
  overrides `training_step` itself.
"""
    bad_examples = examples("preflight.rules.plan._pf406_examples", "PF406_BAD")
    good_examples = examples("preflight.rules.plan._pf406_examples", "PF406_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        ga = pctx.plan.resolve("batch.grad_accum")
        accumulates = ga is not None and isinstance(ga.value, int) and ga.value > 1
        for script in pctx.scripts:
            for cls in pctx.index(script).classes.values():
                method = next((n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                               and n.name == "compute_loss"), None)
                if method is None or not hf_trainer_class(pctx, script, cls):
                    continue
                version = pctx.version("transformers", script)
                if _rejects_num_items(method) and version is not None and version.at_least(4, 46) \
                        and _called_by_training_step(cls):
                    yield pctx.code_finding(self, script, method, (
                        f"`{cls.name}.compute_loss` takes neither `num_items_in_batch` nor `**kwargs`, and the "
                        f"project declares {version.describe()}: from 4.46 `Trainer.training_step` calls "
                        "`self.compute_loss(model, inputs, num_items_in_batch=num_items_in_batch)`, so the first "
                        "training step stops with \"TypeError: compute_loss() got an unexpected keyword argument "
                        "'num_items_in_batch'\". Add `num_items_in_batch=None` to the signature (and use it, or "
                        "accept `**kwargs`)"), evidence=[pctx.code_evidence(script, method, "custom compute_loss",
                                                                            same_file=True)])
                    continue
                if not accumulates or _opts_out(cls) or _pinned_before_loss_fix(version):
                    continue
                assert ga is not None
                how = _ignores(method)  # type: ignore[arg-type]
                if how is None or _model_takes_no_loss_kwargs(script, cls) or _nested_batch(method):  # type: ignore[arg-type]
                    continue
                message = (
                    f"`{cls.name}.compute_loss` {how}, and this job accumulates gradients over "
                    f"{ga.value} micro-batches: Trainer then treats the loss as already normalised over the "
                    f"window and skips its division by {ga.value}, so a mean loss gives gradients "
                    f"{ga.value}x too large. Divide the summed loss by `num_items_in_batch`, or set "
                    "`loss_is_scaled_for_ga = False` (transformers 5) / `model_accepts_loss_kwargs = False` "
                    "(4.x) on the class")
                evidence = [pctx.code_evidence(script, method, "custom compute_loss", same_file=True)]
                ev = pctx.fact_evidence(ga, f"gradient_accumulation_steps = {ga.value}")
                if ev is not None:
                    evidence.append(ev)
                yield pctx.code_finding(self, script, method, message, evidence=evidence)
