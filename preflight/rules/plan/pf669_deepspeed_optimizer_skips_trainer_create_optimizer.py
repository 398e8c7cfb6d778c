"""PF669 deepspeed-optimizer-skips-create-optimizer: the DeepSpeed config's ``optimizer`` section under an HF
Trainer subclass that overrides ``create_optimizer``: the integration builds the config's optimizer and the
override (its parameter groups, learning rates) never runs."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._deepspeed_runs import runs_config


def _base_name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _overrides(pctx: PlanContext) -> list[tuple[Any, ast.ClassDef, ast.FunctionDef]]:
    """Classes of the job's files that subclass a ``*Trainer`` and define ``create_optimizer``, in files that
    import transformers or TRL."""
    out = []
    for script in pctx.scripts:
        text = script.source.text or ""
        if "transformers" not in text and "trl" not in text:
            continue
        for node in ast.walk(script.tree):
            if not isinstance(node, ast.ClassDef) or not any(_base_name(b).endswith("Trainer") for b in node.bases):
                continue
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "create_optimizer":
                    out.append((script, node, item))
    return out


def _imported_override(pctx: PlanContext, config: Any) -> Optional[tuple[str, ast.ClassDef, ast.FunctionDef,
                                                                         list[Evidence]]]:
    """A ``*Trainer`` class that a script running ``config`` imports from a module of the project
    (``from training.trainer import QwenTrainer``) and calls, with a ``create_optimizer`` of its own."""
    from preflight.analysis.project_imports import imported_class

    for script in pctx.scripts:
        if not runs_config(pctx, script, config):
            continue
        ctx = pctx.file_context(script)
        names = {n.func.id for n in ast.walk(script.tree) if isinstance(n, ast.Call)
                 and isinstance(n.func, ast.Name) and n.func.id.endswith("Trainer")}
        for name in sorted(names):
            got = imported_class(ctx, name)
            if got is None:
                continue
            _, cls, display = got
            if not any(_base_name(b).endswith("Trainer") for b in cls.bases):
                continue
            for item in cls.body:
                if isinstance(item, ast.FunctionDef) and item.name == "create_optimizer":
                    ev = Evidence(line=item.lineno, column=item.col_offset + 1, path=display,
                                  message="the override that never runs")
                    return display, cls, item, [ev]
    return None


@register
class DeepSpeedOptimizerSkipsCreateOptimizer(PlanRule):
    code = "PF669"
    name = "deepspeed-optimizer-skips-create-optimizer"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("deepspeed", "transformers")
    summary = ("The DeepSpeed config has an `optimizer` section, so the HF Trainer never calls the job's "
               "`create_optimizer` override: its parameter groups and learning rates are ignored")
    explanation = """
## What it finds

A job whose HF Trainer subclass overrides `create_optimizer` (separate learning rates for a
vision tower and a projector, no weight decay for some modules, another optimizer class), run
with a DeepSpeed config (`--deepspeed ds.json`) that has an `optimizer` section.

## Why it matters

The Trainer's DeepSpeed integration (`deepspeed_optim_sched` in transformers'
`integrations/deepspeed.py`) builds the config's optimizer whenever the config has an
`optimizer` section (a `DummyOptim` the engine replaces) and calls `trainer.create_optimizer()`
only when it has none. The override never builds its groups: every parameter trains in one group
at `--learning_rate` with the config's settings, and the run looks normal (Qwen-VL-Series-Finetune
issue 81: "It seems that LR configs are not effective"; the maintainer: the optimizer section of
the DeepSpeed config overrides the optimizer config).

## How to fix it

Remove the `optimizer` section from the DeepSpeed config: the integration then calls
`create_optimizer` and DeepSpeed wraps the optimizer it returns (`zero_allow_untested_optimizer`
is set for you).

## When preflight stays silent

* The config has no `optimizer` section, or no Trainer subclass of the job's files overrides
  `create_optimizer`.
* No script of the job runs the config (names the file or is launched with it), or the script
  that does never names the subclass (a subclass in a module of the project that the script imports
  with `from M import Name` and calls is read too, one level).
"""
    bad_examples = examples("preflight.rules.plan._pf669_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf669_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        configs = [(cfg, prefix) for cfg, block, prefix in pctx.deepspeed_configs()
                   if isinstance(block.get("optimizer"), dict)]
        if not configs:
            return
        overrides = _overrides(pctx)
        for config, prefix in configs:
            found: Optional[tuple[Any, ast.ClassDef, ast.FunctionDef]] = None
            for script in pctx.scripts:
                if not runs_config(pctx, script, config):
                    continue
                text = script.source.text or ""
                found = next((o for o in overrides if o[0] is script or o[1].name in text), None)
                if found is not None:
                    break
            imported = None if found is not None else _imported_override(pctx, config)
            if found is None and imported is None:
                continue
            if found is not None:
                owner, cls, method = found
                where = owner.source.display
                evidence = [pctx.code_evidence(owner, method, "the override that never runs")]
            else:
                assert imported is not None
                where, cls, method, evidence = imported
            yield pctx.config_finding(
                self, config, (*prefix, "optimizer"),
                f"this DeepSpeed config has an `optimizer` section, so the HF Trainer's DeepSpeed integration "
                f"builds that optimizer and never calls `{cls.name}.create_optimizer` (line {method.lineno} of "
                f"{where}): its parameter groups and learning rates are silently ignored and every "
                "parameter trains at `--learning_rate` (Qwen-VL-Series-Finetune issue 81). Remove the `optimizer` "
                "section so the integration uses the optimizer `create_optimizer` builds",
                evidence=evidence)
