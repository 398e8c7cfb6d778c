"""PF351 classifier-head-frozen-under-peft: a sequence/token-classification model wrapped by
``get_peft_model`` with a config that has no classification ``task_type`` and no ``modules_to_save``: the
newly initialised head stays random and frozen."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import has_unpacking, kwarg, literal
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

_HEADS = ("ForSequenceClassification", "ForTokenClassification")
_CLS_TASKS = frozenset({"SEQ_CLS", "TOKEN_CLS"})
_PEFT_CONFIGS = frozenset({"LoraConfig", "AdaLoraConfig", "IA3Config", "LoHaConfig", "LoKrConfig", "VeraConfig",
                           "BOFTConfig", "OFTConfig", "FourierFTConfig", "LNTuningConfig", "HRAConfig",
                           "BoneConfig", "RandLoraConfig", "MissConfig", "ShiraConfig", "C3AConfig"})
_TRAINERS = frozenset({"Trainer", "Seq2SeqTrainer", "SFTTrainer", "SetFitTrainer"})


def _head_class(call: ast.Call) -> Optional[str]:
    """``AutoModelForSequenceClassification.from_pretrained(...)`` / ``BertForTokenClassification(...)``."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "from_pretrained":
        func = func.value
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name if name.endswith(_HEADS) else None


def _binding(ctx: FileContext, before: ast.expr, name: str) -> Optional[ast.expr]:
    scopes = {ctx.enclosing_function(before), None}
    best: Optional[ast.Assign] = None
    for assign in ctx.nodes(ast.Assign):
        if ctx.enclosing_function(assign) not in scopes or assign.lineno > before.lineno \
                or ctx.under(before, assign):
            continue
        if any(isinstance(t, ast.Name) and t.id == name for t in assign.targets) \
                and (best is None or assign.lineno >= best.lineno):
            best = assign
    return None if best is None else best.value


def _resolve_call(ctx: FileContext, expr: ast.expr) -> Optional[ast.Call]:
    if isinstance(expr, ast.Name):
        bound = _binding(ctx, expr, expr.id)
        return bound if isinstance(bound, ast.Call) else None
    return expr if isinstance(expr, ast.Call) else None


def _task(ctx: FileContext, expr: ast.expr) -> Optional[str]:
    """``"SEQ_CLS"``, ``TaskType.SEQ_CLS``, ``"seq_cls"`` -> ``SEQ_CLS``; None when not known."""
    if isinstance(expr, ast.Attribute):
        return expr.attr.upper()
    value = literal(ctx, expr)
    return value.upper() if isinstance(value, str) else None


def _trains(ctx: FileContext) -> bool:
    for call in ctx.nodes(ast.Call):
        last = call_last(call)
        if last in _TRAINERS or last in ("backward", "fit"):
            return True
    return False


def _head_opened_later(ctx: FileContext, after: int) -> bool:
    """``modules_to_save``/``task_type`` set on the config, or some ``requires_grad`` switched back on after
    the wrap."""
    for node in ctx.nodes(ast.Assign):
        for tgt in node.targets:
            if isinstance(tgt, ast.Attribute) and tgt.attr in ("modules_to_save", "task_type"):
                return True
            if isinstance(tgt, ast.Attribute) and tgt.attr == "requires_grad" and node.lineno > after \
                    and not (isinstance(node.value, ast.Constant) and node.value.value is False):
                return True
    for call in ctx.nodes(ast.Call):
        if call_last(call) == "requires_grad_" and call.lineno > after and not (
                call.args and isinstance(call.args[0], ast.Constant) and call.args[0].value is False):
            return True
    return False


@register
class ClassifierHeadFrozenUnderPeft(Rule):
    code = "PF351"
    needs_text = ("get_peft_model",)
    name = "classifier-head-frozen-under-peft"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("a `*ForSequenceClassification`/`*ForTokenClassification` model wrapped by `get_peft_model` "
               "without `task_type=\"SEQ_CLS\"`/`\"TOKEN_CLS\"` or `modules_to_save`: the new head stays random "
               "and frozen")
    url = "https://github.com/huggingface/peft/issues/876"
    explanation = """
## What it finds

`get_peft_model(model, config)` where `model` is a `*ForSequenceClassification` or
`*ForTokenClassification` (built or loaded in the file) and `config` a PEFT adapter
config (`LoraConfig`, `IA3Config`, `AdaLoraConfig`, ...) that has neither a classification
`task_type` (`"SEQ_CLS"`, `"TOKEN_CLS"`, `TaskType.SEQ_CLS`) nor `modules_to_save`, in a
file that trains (a Trainer, `backward`, `fit`).

## Why it matters

The classification head (`score`, `classifier`) of a model loaded from a base checkpoint is
newly initialised. `get_peft_model` returns a plain `PeftModel` when the config's task
type is not one it maps (peft `mapping.py`/`mapping_func.py`, 0.5.0 to current), and the
adapter tuner freezes every weight but the adapters: the head is frozen at its random
values. Only `PeftModelForSequenceClassification`/`ForTokenClassification`, chosen by
`task_type`, add `classifier`/`score` to `modules_to_save` so that the head trains and is
saved with the adapter. The run trains adapters underneath a random projection, and the
saved adapter reloads with yet another random head (peft issue 876).

## How to fix it

`LoraConfig(..., task_type="SEQ_CLS")` (or `"TOKEN_CLS"`), or name the head:
`modules_to_save=["score"]` (`"classifier"` for BERT-style models).

## When preflight stays silent

* The config has a classification `task_type`, any `modules_to_save`, `**kwargs`, or a task
  type that is not statically known; `config.modules_to_save = [...]` or `config.task_type = ...` is set
  in the file.
* Some `requires_grad` is switched back on after the wrap (the head unfrozen by hand).
* The model is not a classification model, or the file does not train.
"""
    bad_examples = examples("preflight.rules.code._pf351_examples", "PF351_BAD")
    good_examples = examples("preflight.rules.code._pf351_examples", "PF351_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        wraps = [c for c in ctx.nodes(ast.Call) if call_last(c) == "get_peft_model" and len(c.args) >= 1]
        if not wraps or not _trains(ctx):
            return
        for wrap in wraps:
            model = _resolve_call(ctx, wrap.args[0])
            head = _head_class(model) if model is not None else None
            conf_expr = wrap.args[1] if len(wrap.args) > 1 else kwarg(wrap, "peft_config")
            config = _resolve_call(ctx, conf_expr) if conf_expr is not None else None
            if model is None or head is None or config is None or call_last(config) not in _PEFT_CONFIGS or has_unpacking(config):
                continue
            if kwarg(config, "modules_to_save") is not None:
                continue
            task_expr = kwarg(config, "task_type")
            task = None if task_expr is None else _task(ctx, task_expr)
            if task_expr is not None and (task is None or task in _CLS_TASKS):
                continue
            if _head_opened_later(ctx, wrap.lineno):
                continue
            said = "no task_type" if task_expr is None else f"task_type {task!r}"
            yield ctx.finding(self, config, (
                f"this {call_last(config)} has {said} and no modules_to_save, and get_peft_model wraps a {head}: "
                "peft then builds a plain PeftModel (or one for another task) that freezes every weight but the "
                "adapters, including the newly initialised classification head, which stays random through "
                "training and is not saved with the adapter. Set task_type=\"SEQ_CLS\" (\"TOKEN_CLS\"), or "
                "modules_to_save=[\"score\"] / [\"classifier\"]"),
                evidence=[ctx.evidence(model, f"a {head}: its head is newly initialised"),
                          ctx.evidence(wrap, "wrapped here")])
