"""PF510 auto-without-integration: ``"auto"`` DeepSpeed values that nothing fills in."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Iterator, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_FILLERS = ("Trainer", "TrainingArguments", "Seq2SeqTrainingArguments", "Accelerator", "HfDeepSpeedConfig",
            "HfTrainerDeepSpeedConfig", "SFTConfig", "SFTTrainer", "DPOTrainer", "GRPOTrainer", "Fabric")


def _autos(data: Any, prefix: tuple = ()) -> Iterator[tuple]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _autos(value, (*prefix, key))
    elif data == "auto":
        yield prefix


def _key_chain(node: ast.AST) -> Optional[tuple]:
    """``("zero_optimization", "stage")`` for ``cfg["zero_optimization"]["stage"]``, else None."""
    keys: list = []
    while isinstance(node, ast.Subscript):
        if not (isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)):
            return None
        keys.append(node.slice.value)
        node = node.value
    return tuple(reversed(keys)) if keys and isinstance(node, (ast.Name, ast.Attribute)) else None


def _written_keys(tree: ast.AST) -> set:
    """Key chains a script writes into a dict before handing it on: ``cfg["k"] = ...`` (also
    nested) and ``cfg.update({"k": ...})`` / ``cfg.update(k=...)`` (MiniLLM's
    ``ds_config["train_micro_batch_size_per_gpu"] = args.batch_size`` after ``json.load``)."""
    chains: set = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                chain = _key_chain(target)
                if chain:
                    chains.add(chain)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "update":
            for arg in node.args[:1]:
                if isinstance(arg, ast.Dict):
                    chains.update((k.value,) for k in arg.keys
                                  if isinstance(k, ast.Constant) and isinstance(k.value, str))
            chains.update((k.arg,) for k in node.keywords if k.arg)
    return chains


@register
class AutoWithoutIntegration(PlanRule):
    code = "PF510"
    name = "auto-without-integration"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("deepspeed",)
    summary = "A DeepSpeed config with `\"auto\"` values is passed to `deepspeed.initialize` directly"
    explanation = """
## What it finds

A DeepSpeed config holding `"auto"` values in a job whose scripts call
`deepspeed.initialize(...)` themselves and never build the Hugging Face Trainer,
`TrainingArguments`, an Accelerate `Accelerator` or `HfDeepSpeedConfig`.

## Why it matters

`"auto"` is not a DeepSpeed value: the Transformers and Accelerate integrations
replace it with their own settings before DeepSpeed reads the config. Given to
DeepSpeed as is, the string reaches arithmetic and comparisons: `TypeError: '>'
not supported between instances of 'str' and 'float'` at the first step
(DeepSpeed issue 1270), or a batch assertion at start-up.

## How to fix it

Write the numbers (learning rate, batch sizes, clipping, fp16) in the config, or
train through the Trainer / Accelerate, which fill the `"auto"` values.

## When preflight stays silent

* Any script of the job builds one of the integrations above, or no script is given.
* The script writes the value into the loaded dict itself (`ds_config["train_batch_size"] =
  ...`, `ds_config.update({...})`) before handing it to `deepspeed.initialize`.
"""
    bad_examples = examples("preflight.rules.plan._pf510_examples", "PF510_BAD")
    good_examples = examples("preflight.rules.plan._pf510_examples", "PF510_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        scripts = pctx.scripts
        if not scripts:
            return
        initialize = None
        for script in scripts:
            for site in pctx.index(script).calls:
                if site.last in _FILLERS:
                    return
                if site.last == "initialize" and (site.qualified or site.name or "").startswith("deepspeed"):
                    initialize = initialize or (script, site)
        if initialize is None:
            return
        written: set = set()
        for script in scripts:
            written |= _written_keys(script.tree)
        for config, block, prefix in pctx.deepspeed_configs():
            # a value the script writes into the loaded dict before `initialize` is no longer "auto"
            autos = [a for a in _autos(block) if a not in written and (*prefix, *a) not in written]
            if not autos:
                continue
            first = autos[0]
            names = ", ".join(".".join(str(p) for p in a) for a in autos[:4])
            yield pctx.config_finding(
                self, config, (*prefix, *first),
                f"{len(autos)} value(s) are \"auto\" ({names}) but the job calls `deepspeed.initialize` itself: "
                "only the Transformers/Accelerate integrations fill \"auto\", DeepSpeed reads the string and fails "
                "(\"'>' not supported between instances of 'str' and 'float'\"). Write the values",
                evidence=[pctx.code_evidence(initialize[0], initialize[1].call, "`deepspeed.initialize` reads the config as is")])
