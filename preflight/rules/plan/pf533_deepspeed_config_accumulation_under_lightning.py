"""PF533 deepspeed-config-accumulation-under-lightning: ``gradient_accumulation_steps`` in the
DeepSpeed config given to Lightning's ``DeepSpeedStrategy``: Lightning refuses it."""

from __future__ import annotations

import ast
from pathlib import PurePosixPath
from typing import Iterable, Optional

from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_KEY = "gradient_accumulation_steps"


def _strategy(qual: str) -> bool:
    """Lightning Trainer's ``DeepSpeedStrategy`` (Fabric's accepts the key)."""
    return (qual.rsplit(".", 1)[-1] == "DeepSpeedStrategy" and "fabric" not in qual
            and (qual.startswith(("lightning.", "pytorch_lightning.")) or "." not in qual))


def _same_path(config_path: str, literal: str) -> bool:
    lit = PurePosixPath(literal.replace("\\", "/"))
    parts = [p for p in lit.parts if p not in (".", "")]
    if not parts or ".." in parts:
        return PurePosixPath(config_path).name == lit.name
    tail = "/".join(parts)
    return config_path == tail or config_path.endswith("/" + tail)


def _dict_key(node: ast.Dict) -> Optional[ast.AST]:
    for key in node.keys:
        if isinstance(key, ast.Constant) and key.value == _KEY:
            return key
    return None


def _module_dict(tree: ast.AST, name: str) -> Optional[ast.expr]:
    """The dict literal a module-level name is bound to, once and only once."""
    bound = [n.value for n in getattr(tree, "body", []) if isinstance(n, ast.Assign)
             and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)]
    return bound[0] if len(bound) == 1 and isinstance(bound[0], ast.Dict) else None


@register
class DeepspeedConfigAccumulationUnderLightning(PlanRule):
    code = "PF533"
    name = "deepspeed-config-accumulation-under-lightning"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("lightning", "deepspeed")
    summary = ("`gradient_accumulation_steps` in the DeepSpeed config given to Lightning's `DeepSpeedStrategy`: "
               "Lightning raises at fit (use `Trainer(accumulate_grad_batches=...)`)")
    explanation = """
## What it finds

`DeepSpeedStrategy(config=...)` of Lightning's Trainer (`lightning.pytorch` /
`pytorch_lightning`) given a DeepSpeed JSON file of the job, or a dict literal (inline or
bound once to a module-level name), that sets
`gradient_accumulation_steps`.

## Why it matters

Lightning writes the DeepSpeed accumulation itself from the Trainer's
`accumulate_grad_batches`, and refuses a config that sets it
(`DeepSpeedStrategy._format_batch_size_and_grad_accum_config`, pytorch-lightning 1.5 to
lightning 2.6): `MisconfigurationException: Do not set gradient_accumulation_steps in the
DeepSpeed config as this will be set with the accumulate_grad_batches argument passed via
the Lightning Trainer.` The job fails when `fit` sets the strategy up, after the
processes have started.

## How to fix it

Delete the key from the config and pass `Trainer(accumulate_grad_batches=N)`.

## When preflight stays silent

* Fabric's `DeepSpeedStrategy` (it does not refuse the key), a config given by a variable
  preflight cannot follow, or the string strategies (`strategy="deepspeed_stage_2"`).
"""
    bad_examples = examples("preflight.rules.plan._pf533_examples", "PF533_BAD")
    good_examples = examples("preflight.rules.plan._pf533_examples", "PF533_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        seen: set[str] = set()
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if "DeepSpeedStrategy" not in (text or ""):
                continue
            qualify = scope_index(pctx.file_context(script)).imports.qualify
            for call in ast.walk(script.tree):
                if not isinstance(call, ast.Call) or not _strategy(qualify(call.func) or ast.unparse(call.func)):
                    continue
                value = next((k.value for k in call.keywords if k.arg == "config"), None)
                if isinstance(value, ast.Name):
                    value = _module_dict(script.tree, value.id)
                if isinstance(value, ast.Dict):
                    key = _dict_key(value)
                    if key is not None:
                        yield pctx.code_finding(self, script, key, self._message("the config dict"))
                    continue
                if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
                    continue
                for cfg, block, prefix in pctx.deepspeed_configs():
                    if _KEY not in block or cfg.path in seen or not _same_path(cfg.path, value.value):
                        continue
                    seen.add(cfg.path)
                    evidence = [pctx.code_evidence(script, call, "the config is given to Lightning's DeepSpeedStrategy")]
                    yield pctx.config_finding(self, cfg, (*prefix, _KEY), self._message(f"`{cfg.path}`"),
                                              evidence=evidence)

    @staticmethod
    def _message(where: str) -> str:
        return (f"{where} sets `{_KEY}` and is given to Lightning's `DeepSpeedStrategy`: Lightning sets it from "
                "`Trainer(accumulate_grad_batches=...)` and raises MisconfigurationException (\"Do not set "
                "`gradient_accumulation_steps` in the DeepSpeed config\") when fit starts. Remove the key and "
                "pass `accumulate_grad_batches` to the Trainer")
