"""PF238 transformers-adamw-removed: ``transformers.AdamW`` (imported, or a Hydra ``_target_``) on a
transformers release that no longer has it."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Iterator, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_MODULES = frozenset({"transformers", "transformers.optimization"})
_TARGETS = frozenset({"transformers.AdamW", "transformers.optimization.AdamW"})
_REMOVED = (4, 50)  # huggingface/transformers PR 36177, released in v4.50.0


def _targets(node: Any, path: tuple = ()) -> Iterator[tuple]:
    """Key paths of the ``_target_`` keys that name transformers' AdamW."""
    if isinstance(node, dict):
        if node.get("_target_") in _TARGETS:
            yield (*path, "_target_")
        for key, value in node.items():
            yield from _targets(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _targets(value, (*path, index))


def _configs(pctx: PlanContext) -> list[Any]:
    """The job's config files and every file a ``@hydra.main`` app composes (its defaults tree)."""
    from preflight.rules.plan._hydra_apps import hydra_main_apps

    out = list(pctx.configs)
    seen = {cfg.path for cfg in out}
    for comp in hydra_main_apps(pctx):
        for _, loaded in comp.item_configs:
            if loaded is not None and loaded.path not in seen:
                seen.add(loaded.path)
                out.append(loaded)
    return out


def _gate(pctx: PlanContext, script: Any) -> Optional[tuple[str, bool]]:
    """How the transformers release is known and whether it is declared; None for a release that
    still has AdamW."""
    found = pctx.version("transformers", script)
    if found is None:
        return "no transformers version is declared, so a current release (without it) is assumed", False
    if not found.at_least(*_REMOVED):
        return None
    if found.how == "stated by the user":
        return f"transformers {found.text} as stated with --transformers-version", True
    return f"the project declares {found.describe()}", True


@register
class TransformersAdamWRemoved(PlanRule):
    code = "PF238"
    name = "transformers-adamw-removed"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("transformers",)
    summary = ("`transformers.AdamW` is imported or named as a Hydra `_target_`, but transformers 4.50 removed it: "
               "use `torch.optim.AdamW`")
    explanation = """
## What it finds

`from transformers import AdamW` (or `from transformers.optimization import
AdamW`, or `transformers.AdamW(...)`) in a script, and a Hydra/OmegaConf node
`_target_: transformers.AdamW` in a config of the job, when the project's
transformers is 4.50 or later, or not declared.

## Why it matters

transformers deprecated its own `AdamW` ("This implementation of AdamW is
deprecated and will be removed in a future version. Use the PyTorch
implementation torch.optim.AdamW instead") and removed it in v4.50.0
(huggingface/transformers PR 36177, issue 36954). The import then fails with
"ImportError: cannot import name 'AdamW' from 'transformers'" before training,
and `hydra.utils.instantiate` of the node fails with "Error locating target
'transformers.AdamW'" (pytorch-ie PR 279 switched its template's optimizer
config for this reason).

## How to fix it

Use `torch.optim.AdamW` (`from torch.optim import AdamW`,
`_target_: torch.optim.AdamW`). transformers' version defaulted to
`correct_bias=True`, which matches torch's AdamW; `no_deprecation_warning` has no
counterpart and is dropped.

## When preflight stays silent

* The project declares a transformers release older than 4.50
  (`transformers==4.41.0`, `transformers<4.50`).
* The import is guarded by `try:` (a fallback to `torch.optim.AdamW`).
* The finding is a warning rather than an error when no version is declared.
"""
    bad_examples = examples("preflight.rules.plan._pf238_examples", "PF238_BAD")
    good_examples = examples("preflight.rules.plan._pf238_examples", "PF238_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if not text or "AdamW" not in text or "transformers" not in text:
                continue
            ctx = pctx.file_context(script)
            for node in self._sites(ctx):
                gate = _gate(pctx, script)
                if gate is None:
                    return
                how, declared = gate
                finding = pctx.code_finding(
                    self, script, node,
                    f"`{ast.unparse(node)}` needs transformers' own AdamW, which transformers 4.50 removed ({how}): "
                    "\"ImportError: cannot import name 'AdamW' from 'transformers'\". Use `torch.optim.AdamW`")
                if not declared:
                    finding.severity = Severity.WARNING
                yield finding
        for cfg in _configs(pctx):
            for key_path in _targets(cfg.data):
                gate = _gate(pctx, None)
                if gate is None:
                    return
                how, declared = gate
                finding = pctx.config_finding(
                    self, cfg, key_path,
                    f"`_target_: {cfg.get(key_path)}` names transformers' own AdamW, which transformers 4.50 "
                    f"removed ({how}): `hydra.utils.instantiate` fails with \"Error locating target "
                    f"'{cfg.get(key_path)}'\". Use `_target_: torch.optim.AdamW`")
                if not declared:
                    finding.severity = Severity.WARNING
                yield finding

    @staticmethod
    def _sites(ctx: Any) -> Iterator[ast.AST]:
        for node in ctx.nodes(ast.ImportFrom):
            if node.module in _MODULES and any(a.name == "AdamW" for a in node.names) \
                    and not any(isinstance(a, ast.Try) for a in ctx.ancestors(node)):
                yield node
        for node in ctx.nodes(ast.Attribute):
            if node.attr == "AdamW" and ast.unparse(node.value) in _MODULES \
                    and not any(isinstance(a, ast.Try) for a in ctx.ancestors(node)):
                yield node
