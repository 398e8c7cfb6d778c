"""PF612 generic-peft-model-hides-label-names: a ``Trainer`` evaluating a ``get_peft_model`` model
whose PEFT config has no ``task_type``, without ``label_names``, on a transformers before 4.54."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import examples
from preflight.sources import ParsedPython

_TRAINERS = frozenset({"Trainer", "Seq2SeqTrainer", "SFTTrainer"})
# transformers PR 39265 (merged 2025-07-08): Trainer.__init__ reads the label names from the base model
# of a PeftModel (`find_labels(model_to_inspect.__class__)`); the first release with it is 4.54
_FIXED_IN = (4, 54)


def _scope_of(tree: ast.AST, node: ast.AST) -> ast.AST:
    """The innermost function holding ``node`` (the module when none)."""
    best: ast.AST = tree
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn is not node \
                and fn.lineno <= getattr(node, "lineno", 0) <= (fn.end_lineno or fn.lineno) \
                and (best is tree or fn.lineno >= best.lineno):  # type: ignore[attr-defined]
            best = fn
    return best


def _bound_call(tree: ast.AST, name: str, use: ast.AST) -> Optional[ast.Call]:
    """The call ``name`` was last bound to before ``use``, in the function ``use`` is in:
    ``model = get_peft_model(model, lora)`` after ``model = from_pretrained(...)``. None when
    that binding is not a plain ``name = Call(...)`` (a loop target, an augmented assignment)."""
    scope = _scope_of(tree, use)
    last: Optional[ast.AST] = None
    for node in ast.walk(scope):
        if not isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.With)) \
                or node.lineno >= getattr(use, "lineno", 0) or _scope_of(tree, node) is not scope:
            continue
        if isinstance(node, ast.Assign):
            targets: list = list(node.targets)
        elif isinstance(node, ast.With):
            targets = [i.optional_vars for i in node.items if i.optional_vars is not None]
        else:
            targets = [node.target]
        if any(isinstance(t, ast.Name) and t.id == name for target in targets for t in ast.walk(target)) \
                and (last is None or node.lineno >= last.lineno):  # type: ignore[attr-defined]
            last = node
    if isinstance(last, ast.Assign) and len(last.targets) == 1 and isinstance(last.targets[0], ast.Name) \
            and isinstance(last.value, ast.Call):
        return last.value
    return None


def _call_of(tree: ast.AST, expr: Optional[ast.AST]) -> Optional[ast.Call]:
    if isinstance(expr, ast.Call):
        return expr
    if isinstance(expr, ast.Name):
        return _bound_call(tree, expr.id, expr)
    return None


def _generic_wrap(tree: ast.AST, model: Optional[ast.AST]) -> Optional[tuple[ast.Call, ast.Call]]:
    """``(get_peft_model(...), its config call)`` when the model is wrapped with a PEFT config
    built in the file without ``task_type`` (the generic ``PeftModel``, ``forward(*args, **kwargs)``)."""
    wrap = _call_of(tree, model)
    if wrap is None or call_last(wrap) != "get_peft_model":
        return None
    cfg_expr = wrap.args[1] if len(wrap.args) > 1 else kwarg(wrap, "peft_config")
    config = _call_of(tree, cfg_expr)
    return _task_less(config, wrap)


def _task_less(config: Optional[ast.Call], wrap: ast.Call) -> Optional[tuple[ast.Call, ast.Call]]:
    if config is None or not call_last(config).endswith("Config") or any(k.arg is None for k in config.keywords):
        return None
    if kwarg(config, "task_type") is not None or len(config.args) > 0:
        return None
    return wrap, config


def _sft_wrap(tree: ast.AST, call: ast.Call) -> Optional[tuple[ast.Call, ast.Call]]:
    """``(SFTTrainer(...), its peft_config call)``: TRL's SFTTrainer wraps the model itself with
    ``get_peft_model(model, peft_config)``, so a config without ``task_type`` gives the generic ``PeftModel``
    (peft issue 1881)."""
    if call_last(call) != "SFTTrainer":
        return None
    return _task_less(_call_of(tree, kwarg(call, "peft_config")), call)


@register
class GenericPeftModelHidesLabelNames(PlanRule):
    code = "PF612"
    name = "generic-peft-model-hides-label-names"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("A Trainer given a PEFT model built without `task_type` and no `label_names` on transformers "
               "before 4.54: evaluation finds no labels, so no eval loss and no compute_metrics")
    explanation = """
## What it finds

A `Trainer(...)`/`Seq2SeqTrainer(...)`/`SFTTrainer(...)` whose `model` is `get_peft_model(base, config)` with a
PEFT config built in the file without `task_type` (`LoraConfig(r=16, ...)`), whose `args`
is a `TrainingArguments(...)` (or TRL `SFTConfig(...)`) of the file without `label_names`, that evaluates with
`compute_metrics=`, picks the best model on the loss (`load_best_model_at_end=True`
with the default or a `*loss` metric) or evaluates periodically (`eval_strategy="steps"`/`"epoch"`
with an `eval_dataset`: no `eval_loss` is ever reported), in a project that pins a transformers release
before 4.54 (requirements, pyproject, lock file, `--transformers-version`).

TRL's `SFTTrainer(model, peft_config=config, ...)` counts too: it wraps the model itself with
`get_peft_model(model, peft_config)` (peft issue 1881: "eval_loss missing when using peft model
with SFTTrainer", a `LoraConfig` without `task_type`).

## Why it matters

Without `task_type`, `get_peft_model` returns the generic `PeftModel`, whose
`forward(self, *args, **kwargs)` names no argument (peft `peft_model.py`; a
`task_type` gives `PeftModelForSequenceClassification`, `...ForCausalLM`, whose forward
does take `labels`). Up to transformers 4.53 `Trainer.__init__` takes the label names from
the wrapper's class: `self.label_names = find_labels(self.model.__class__)` when
`args.label_names` is None, and `find_labels` keeps the signature's parameters whose name
contains `label`: none here. Every evaluation batch then counts as unlabelled:
`prediction_step` computes no loss and returns no labels, the evaluation loop never calls
`compute_metrics`, and `metric_for_best_model` fails at the first save with
`KeyError: 'eval_loss'` (transformers issue 33420, transformers 4.43.3) or
`'eval_accuracy'` (peft issue 1120: "compute_metrics() does not seem to be called").
Later 4.x releases only warn ("Since `PeftModel` hides base models input arguments ...
empty label_names list will be used instead", PR 32085); PR 39265
(July 2025, first released in 4.54) reads the label names from the base model instead.

## How to fix it

Pass `label_names=["labels"]` to `TrainingArguments`, or give the PEFT config its
`task_type` (`"SEQ_CLS"`, `"CAUSAL_LM"`, ...), or upgrade transformers to 4.54 or later.

## When preflight stays silent

* No transformers version is pinned, or the one declared is 4.54 or later, or only a
  lower bound is declared (the installed release may have the fix).
* The PEFT config sets `task_type` (or is built elsewhere, with `**kwargs`, or positionally).
* `label_names` is given, or the arguments are built with `**kwargs` or elsewhere.
* No `compute_metrics`, no best-model choice on the loss, and no periodic evaluation
  (`eval_strategy="steps"`/`"epoch"` with an `eval_dataset`).
"""
    bad_examples = examples("preflight.rules.plan._pf612_examples", "PF612_BAD")
    good_examples = examples("preflight.rules.plan._pf612_examples", "PF612_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if ("get_peft_model" not in text and "peft_config" not in text) \
                    or ("TrainingArguments" not in text and "SFTConfig" not in text):
                continue
            for call in ast.walk(script.tree):
                if not isinstance(call, ast.Call) or call_last(call) not in _TRAINERS \
                        or any(k.arg is None for k in call.keywords):
                    continue
                found = self._check_trainer(pctx, script, call)
                if found is not None:
                    yield found

    def _check_trainer(self, pctx: PlanContext, script: ParsedPython, call: ast.Call) -> Optional[Finding]:
        tree = script.tree
        model = kwarg(call, "model") or (call.args[0] if call.args else None)
        wrapped = _generic_wrap(tree, model) or _sft_wrap(tree, call)
        if wrapped is None:
            return None
        targs = _call_of(tree, kwarg(call, "args") or (call.args[1] if len(call.args) > 1 else None))
        if targs is None or not (call_last(targs).endswith("TrainingArguments") or call_last(targs) == "SFTConfig") \
                or kwarg(targs, "label_names") is not None or any(k.arg is None for k in targs.keywords):
            return None
        metrics = kwarg(call, "compute_metrics")
        if isinstance(metrics, ast.Constant) and metrics.value is None:
            metrics = None
        best = kwarg(targs, "load_best_model_at_end")
        chosen = kwarg(targs, "metric_for_best_model")
        on_loss = isinstance(best, ast.Constant) and best.value is True and (
            chosen is None or (isinstance(chosen, ast.Constant) and "loss" in str(chosen.value)))
        strategy = kwarg(targs, "eval_strategy") or kwarg(targs, "evaluation_strategy")
        evaluates = kwarg(call, "eval_dataset") is not None and isinstance(strategy, ast.Constant) \
            and str(strategy.value).lower() in ("steps", "epoch")
        if metrics is None and not on_loss and not evaluates:
            return None
        version = pctx.version("transformers", script)
        if version is None or version.how == "lower bound" or version.at_least(*_FIXED_IN):
            return None
        wrap, config = wrapped
        sft = " (called by SFTTrainer on its `peft_config`)" if wrap is call else ""
        effect = ("`compute_metrics` is never called" if metrics is not None else "no `eval_loss` is computed")
        if isinstance(best, ast.Constant) and best.value is True:
            metric = str(chosen.value) if isinstance(chosen, ast.Constant) else "loss"
            metric = metric if metric.startswith("eval_") else f"eval_{metric}"
            effect += f", and `load_best_model_at_end` fails at the first save with KeyError '{metric}'"
        return pctx.code_finding(self, script, targs, (
            f"`{call_last(targs)}` without `label_names` for a PEFT model built from `{call_last(config)}` without "
            f"`task_type`: `get_peft_model`{sft} returns the generic `PeftModel`, whose `forward(*args, **kwargs)` names "
            f"no label, and the project pins {version.describe()}, whose Trainer takes its label names from that "
            f"signature (fixed in 4.54). Evaluation batches count as unlabelled, so {effect}. Set "
            "`label_names=[\"labels\"]` (or the config's `task_type`)"),
            evidence=[pctx.code_evidence(script, config, "PEFT config without task_type", same_file=True),
                      *([] if wrap is call else [pctx.code_evidence(script, wrap, "generic PeftModel",
                                                                    same_file=True)]),
                      pctx.code_evidence(script, call, "this Trainer evaluates it", same_file=True)])
