"""PF582 adapter-checkpointing-without-input-grads: transformers' ``add_adapter`` with reentrant gradient
checkpointing where transformers does not make the inputs require grad."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Iterable, Iterator

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._pf508_support import launch_site
from preflight.sources import read_text_limited

_HANDLED = ("enable_input_require_grads", "prepare_model_for_kbit_training", "prepare_model_for_int8_training",
            "prepare_model_for_gradient_checkpointing", "get_peft_model")


def _method_calls(fn: ast.AST, name: str) -> list[ast.Call]:
    return [n for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr == name]


def _non_reentrant(call: ast.Call) -> bool:
    text = " ".join(ast.unparse(k) for k in call.keywords)
    return "use_reentrant" in text and "False" in text


def _pairs(tree: ast.AST) -> Iterator[tuple[ast.Call, ast.Call]]:
    """(add_adapter call, gradient_checkpointing_enable call) on the same receiver in one function."""
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        adds = _method_calls(fn, "add_adapter")
        if not adds:
            continue
        for enable in _method_calls(fn, "gradient_checkpointing_enable"):
            if _non_reentrant(enable):
                continue
            receiver = ast.unparse(enable.func.value)  # type: ignore[attr-defined]
            add = next((a for a in adds if ast.unparse(a.func.value) == receiver), None)  # type: ignore[attr-defined]
            if add is not None:
                yield add, enable


_TRAINERS = frozenset({"Trainer", "Seq2SeqTrainer"})  # transformers' own (trl's enable the input grads)
_ARGS = frozenset({"TrainingArguments", "Seq2SeqTrainingArguments"})


def _name(func: ast.AST) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _kw(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _trainer_checkpointing(tree: ast.AST) -> Iterator[tuple[ast.Call, ast.expr, ast.Call]]:
    """(get_peft_model call, the ``gradient_checkpointing=True`` value, Trainer call): a model wrapped by
    ``get_peft_model`` and handed to transformers' ``Trainer`` whose ``TrainingArguments`` turn
    checkpointing on (reentrant: no ``gradient_checkpointing_kwargs`` with ``use_reentrant=False``)."""
    wraps: dict[str, ast.Call] = {}
    args: dict[str, tuple[ast.Call, ast.expr]] = {}
    trainers: list[ast.Call] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, ast.Call):
            called = _name(node.value.func)
            if called == "get_peft_model":
                wraps[node.targets[0].id] = node.value
            elif called in _ARGS:
                value = _kw(node.value, "gradient_checkpointing")
                if isinstance(value, ast.Constant) and value.value is True and not _non_reentrant(node.value):
                    args[node.targets[0].id] = (node.value, value)
        if isinstance(node, ast.Call) and _name(node.func) in _TRAINERS:
            trainers.append(node)
    for trainer in trainers:
        model, targs = _kw(trainer, "model"), _kw(trainer, "args")
        if not (isinstance(model, ast.Name) and model.id in wraps):
            continue
        if isinstance(targs, ast.Call) and _name(targs.func) in _ARGS:
            value = _kw(targs, "gradient_checkpointing")
            if isinstance(value, ast.Constant) and value.value is True and not _non_reentrant(targs):
                yield wraps[model.id], value, trainer
        elif isinstance(targs, ast.Name) and targs.id in args:
            yield wraps[model.id], args[targs.id][1], trainer


def _parsed_args(tree: ast.AST) -> set[str]:
    """Names bound by ``a, b, training_args = parser.parse_args_into_dataclasses()``."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                and _name(node.value.func) == "parse_args_into_dataclasses":
            for target in node.targets:
                out.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return out


def _launch_checkpointing(tree: ast.AST) -> Iterator[tuple[ast.Call, ast.Call]]:
    """(get_peft_model call, Trainer call) where the Trainer's ``args=`` come from
    ``parse_args_into_dataclasses()`` (the launch line's ``--gradient_checkpointing True``)."""
    wraps = {node.targets[0].id: node.value for node in ast.walk(tree)
             if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
             and isinstance(node.value, ast.Call) and _name(node.value.func) == "get_peft_model"}
    parsed = _parsed_args(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _name(node.func) in _TRAINERS:
            model, targs = _kw(node, "model"), _kw(node, "args")
            if isinstance(model, ast.Name) and model.id in wraps and isinstance(targs, ast.Name) \
                    and targs.id in parsed:
                yield wraps[model.id], node


def _prerelease_pin(pctx: PlanContext, version) -> bool:
    """The pin line (``transformers==5.0.0.dev0``) names a 5.0.0 pre-release: the version reader keeps only
    the numbers, so the line is read again."""
    path, _, line = version.where.rpartition(":")
    if not line.isdigit():
        return False
    file = Path(path) if Path(path).is_absolute() else Path(pctx.project.root) / path
    try:
        lines = read_text_limited(file, errors="replace").splitlines()
    except OSError:  # InputRefused is an OSError
        return False
    number = int(line)
    return 0 < number <= len(lines) and re.search(
        r"transformers\s*===?\s*v?5\.0\.0\.?(dev|rc)", lines[number - 1], re.IGNORECASE) is not None


def _affected(pctx: PlanContext, version) -> bool:
    """transformers pinned on the 4.x line (reentrant by default, the Trainer enables no input grads for
    a PEFT model), or pinned at a 5.0.0 pre-release (issue 42489, reported on 5.0.0.dev0)."""
    if version is None or version.how != "pinned":
        return False
    if not version.at_least(5):
        return True
    return version.parts[:3] == (5, 0, 0) and _prerelease_pin(pctx, version)


@register
class AdapterCheckpointingWithoutInputGrads(PlanRule):
    code = "PF582"
    name = "adapter-checkpointing-without-input-grads"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("A LoRA adapter attached with transformers' `add_adapter` (or `get_peft_model` under the Trainer's "
               "`gradient_checkpointing=True`) and reentrant gradient checkpointing, where transformers does not make "
               "the inputs require grad")
    explanation = """
## What it finds

`model.add_adapter(LoraConfig(...))` (transformers' own PEFT integration, not
`get_peft_model`) and `model.gradient_checkpointing_enable()` (reentrant, the default of
the 4.x line) on the same model without `enable_input_require_grads()`, in a project
that pins transformers 4.x and where:

* transformers is older than 4.34, or
* `gradient_checkpointing_enable()` is called before `add_adapter(...)`.

## Why it matters

`add_adapter` freezes the base weights, so the embeddings' output does not require
grad; reentrant checkpointing then records no graph through the checkpointed blocks,
and backward fails with "element 0 of tensors does not require grad and does not have
a grad_fn" (or the adapters silently get no gradient). transformers 4.34 (PR 25846,
for issue 25841: a custom `PreTrainedModel` with `add_adapter` and checkpointing)
makes `gradient_checkpointing_enable()` call `enable_input_require_grads()` when an
adapter is loaded, but only at that call: enabled before the adapter is added, the
inputs still do not require grad (the maintainers' advice: enable checkpointing after
adding the adapter). `get_peft_model` with an explicit `gradient_checkpointing_enable()` is
PF420's.

The same failure with `get_peft_model`: the model is handed to transformers' `Trainer`
whose `TrainingArguments(gradient_checkpointing=True)` switch checkpointing on inside
`train()` (reentrant on the 4.x line unless `gradient_checkpointing_kwargs` says
`use_reentrant=False`), after the wrap, and nothing makes the inputs require grad: the
4.x Trainer calls `enable_input_require_grads()` only for adapters loaded through
transformers (transformers issues 23170 and 26334; held-out-17, a Llama 3.1 LoRA tutorial
pinned at 4.43.1). This is reported only when transformers is pinned below 5 (or at a
5.0.0 pre-release: transformers issue 42489 reports the same failure on 5.0.0.dev0, and
trl's trainers enable the input grads themselves because of it); PF420 leaves this shape
alone because a code rule cannot see the release.

The checkpointing may also come from the launch line: a script that reads its
`TrainingArguments` with `HfArgumentParser(...).parse_args_into_dataclasses()` and hands
them to the `Trainer` with a `get_peft_model` model, launched with
`--gradient_checkpointing True` and no `--gradient_checkpointing_kwargs` (FastChat's
`train_lora.py`, FastChat issue 581, transformers 4.28.1).

## How to fix it

Call `model.enable_input_require_grads()`, enable checkpointing after `add_adapter`
on transformers 4.34 or later, or pass
`gradient_checkpointing_kwargs={"use_reentrant": False}`.

## When preflight stays silent

* transformers is not pinned (a lower bound installs the newest release), or pinned at
  5 or later (non-reentrant by default).
* The file calls `enable_input_require_grads` or PEFT's preparation helpers, or
  checkpointing is non-reentrant. For `add_adapter`, a file that calls `get_peft_model`
  is left to PF420; for `get_peft_model`, a trl trainer (`SFTTrainer`, ...) enables
  the input grads itself, and only a model and arguments the `Trainer(...)` call names
  directly (or through one assignment) are followed.
"""
    bad_examples = examples("preflight.rules.plan._pf582_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf582_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.project.scripts:
            text = script.text if script.text is not None else script.source.text
            yield from self._trainer_shape(pctx, script, text)
            if "add_adapter" not in text or "gradient_checkpointing_enable" not in text \
                    or any(h in text for h in _HANDLED):
                continue
            version = pctx.version("transformers", script)
            if version is None or version.how != "pinned" or version.at_least(5):
                continue  # a lower bound installs the newest release (5.x: non-reentrant by default)
            old = not version.at_least(4, 34)
            for add, enable in _pairs(script.tree):
                before = (enable.lineno, enable.col_offset) < (add.lineno, add.col_offset)
                if not (old or before):
                    continue
                why = (f"{version.describe()} does not make the inputs require grad for an adapter added with "
                       "`add_adapter` (transformers 4.34 does, inside gradient_checkpointing_enable)" if old else
                       "checkpointing is enabled before the adapter is added, so transformers' own "
                       "`enable_input_require_grads()` call (made only when an adapter is already loaded) never runs")
                yield pctx.code_finding(
                    self, script, enable,
                    "reentrant gradient checkpointing on a model whose only trainable weights are the adapter of "
                    f"`{ast.unparse(add.func)}(...)`: {why}; the frozen embeddings' output does not require grad, "
                    "the checkpoints record no graph and backward fails (\"element 0 of tensors does not require "
                    "grad\"). Call `enable_input_require_grads()` or use "
                    "`gradient_checkpointing_kwargs={\"use_reentrant\": False}`",
                    evidence=[Evidence(line=add.lineno, path=script.source.display,
                                       message="the adapter is attached here (base weights frozen)")])

    def _trainer_shape(self, pctx: PlanContext, script, text: str) -> Iterable[Finding]:
        if "get_peft_model" not in text or any(h in text for h in _HANDLED if h != "get_peft_model"):
            return
        version = pctx.version("transformers", script)
        if not _affected(pctx, version):
            return
        tail = ("Call `model.enable_input_require_grads()` before training, or pass "
                "`gradient_checkpointing_kwargs={\"use_reentrant\": False}`")
        if "gradient_checkpointing" in text:
            for wrap, value, trainer in _trainer_checkpointing(script.tree):
                yield pctx.code_finding(
                    self, script, value,
                    "`gradient_checkpointing=True` makes the Trainer turn on reentrant checkpointing (the default of "
                    f"{version.describe()}) after `get_peft_model` froze every base weight, and nothing calls "
                    "`enable_input_require_grads()`: the Trainer does so only for adapters loaded through "
                    "transformers, so the frozen embeddings' output does not require grad, the checkpoints record no "
                    "graph and backward fails (\"element 0 of tensors does not require grad\") or the adapter gets "
                    "no gradient. " + tail,
                    evidence=[Evidence(line=wrap.lineno, path=script.source.display,
                                       message="get_peft_model freezes the base weights here"),
                              Evidence(line=trainer.lineno, path=script.source.display,
                                       message="transformers' Trainer enables the checkpointing in train()")])
        launch = launch_site(pctx)
        if launch is None or launch.script is not script or launch.values.get("gradient_checkpointing") is not True \
                or "gradient_checkpointing_kwargs" in launch.values:
            return
        for wrap, trainer in _launch_checkpointing(script.tree):
            yield pctx.code_finding(
                self, script, wrap,
                "the launch line passes `--gradient_checkpointing True` to the TrainingArguments this script parses, "
                f"so the Trainer turns on reentrant checkpointing ({version.describe()}) on the model that "
                "`get_peft_model` wraps here with every base weight frozen, and nothing calls "
                "`enable_input_require_grads()`: the frozen embeddings' output does not require grad, the "
                "checkpoints record no graph and backward fails (\"element 0 of tensors does not require grad and "
                "does not have a grad_fn\"). " + tail,
                evidence=[pctx.code_evidence(script, launch.anchor, "the arguments are read from the launch line here"),
                          Evidence(line=trainer.lineno, path=script.source.display,
                                   message="transformers' Trainer enables the checkpointing in train()")])
