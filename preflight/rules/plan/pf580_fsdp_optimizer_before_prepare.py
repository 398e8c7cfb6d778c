"""PF580 fsdp-optimizer-before-prepare: an optimizer built on the model's parameters before
``accelerator.prepare`` wraps the model in FSDP with ``fsdp_use_orig_params: false``."""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional

from preflight.analysis.syntax import own_nodes
from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.loaders import LoadedConfig, load_config_file
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_OPTIMIZERS = ("Adam", "AdamW", "SGD", "Adagrad", "Adafactor", "RMSprop", "Lion", "LAMB", "Lamb", "AdamW8bit",
               "PagedAdamW", "PagedAdamW8bit", "Adam8bit", "NAdam", "RAdam", "Adadelta", "Adamax")


def _last(node: ast.AST) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


def _param_owners(node: ast.AST) -> set[str]:
    """Names whose ``.parameters()``/``.named_parameters()`` an expression reads (``model``)."""
    out = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) \
                and sub.func.attr in ("parameters", "named_parameters") and isinstance(sub.func.value, ast.Name):
            out.add(sub.func.value.id)
    return out


def _early_optimizers(tree: ast.AST) -> Iterator[tuple[ast.Call, str, ast.Call, bool]]:
    """(optimizer call, model name, the later prepare call of the model, optimizer in that same call)."""
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
            continue
        nodes = list(own_nodes(fn))
        built: dict[str, set[str]] = {}  # name -> models whose parameters it holds (param groups)
        for node in nodes:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                owners = _param_owners(node.value)
                if owners and not isinstance(node.value, ast.Call):
                    built[node.targets[0].id] = owners
        prepares = sorted((n for n in nodes if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                           and n.func.attr == "prepare" and "accelerator" in ast.unparse(n.func.value).lower()),
                          key=lambda n: n.lineno)
        if not prepares:
            continue
        for node in nodes:
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call)
                    and _last(node.value.func) in _OPTIMIZERS and node.value.args):
                continue
            call = node.value
            first = call.args[0]
            owners = _param_owners(first)
            for sub in ast.walk(first):  # parameter groups bound to names first
                if isinstance(sub, ast.Name) and sub.id in built:
                    owners |= built[sub.id]
            target = node.targets[0]
            opt_name = target.id if isinstance(target, ast.Name) else None
            for model in sorted(owners):
                given = [p for p in prepares if any(isinstance(a, ast.Name) and a.id == model for a in p.args)]
                if not given or given[0].lineno < call.lineno:
                    continue  # prepared before the optimizer is built: its parameters are FSDP's
                prep = given[0]
                together = opt_name is not None and any(isinstance(a, ast.Name) and a.id == opt_name for a in prep.args)
                yield call, model, prep, together
                break


def _fsdp_without_orig_params(pctx: PlanContext) -> Optional[LoadedConfig]:
    """The accelerate config (given, or named by ``--config_file``) that runs FSDP1 with
    ``fsdp_use_orig_params: false``."""
    configs: list[Any] = list(pctx.configs)
    argv = list(pctx.project.argv)
    for i, tok in enumerate(argv[:-1]):
        if tok in ("--config_file", "--config-file") and not any(
                os.path.basename(c.path) == os.path.basename(argv[i + 1]) for c in configs):
            path = Path(pctx.project.root) / argv[i + 1]
            loaded = load_config_file(path, path.name) if pctx.project.may_read(path) else None
            if loaded is not None:
                configs.append(loaded)
    for config in configs:
        data = config.data if isinstance(config.data, dict) else {}
        fsdp = data.get("fsdp_config")
        if str(data.get("distributed_type", "")).upper() != "FSDP" or not isinstance(fsdp, dict):
            continue
        if str(fsdp.get("fsdp_version", "1")) == "2":
            continue
        value = fsdp.get("fsdp_use_orig_params")
        if value is False or (isinstance(value, str) and value.lower() == "false"):
            return config
    return None


@register
class FsdpOptimizerBeforePrepare(PlanRule):
    code = "PF580"
    name = "fsdp-optimizer-before-prepare"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = ("An optimizer is built on the model's parameters before `accelerator.prepare` wraps the model in "
               "FSDP with `fsdp_use_orig_params: false`: it steps tensors the model no longer uses")
    explanation = """
## What it finds

An accelerate config that runs FSDP (version 1) with `fsdp_use_orig_params:
false`, and a script that builds its optimizer from `model.parameters()` (or
parameter groups of `model.named_parameters()`) before the `accelerator.prepare(...)`
call that receives the model.

## Why it matters

With `use_orig_params=False` FSDP replaces the module's parameters with its own
flat sharded `FlatParameter`s when it wraps the model. An optimizer created
earlier holds the original tensors, which no longer take part in the forward
pass: `optimizer.step()` updates tensors nobody reads and the loss stays flat
(accelerate issue 2665, fixed by `fsdp_use_orig_params: true`; pytorch issue
107843: "it does not update the model parameters"). Accelerate up to 0.24
re-pointed a single optimizer to the flat parameters when the model and the
optimizer were prepared in the same call; 0.25 (PR 2177) removed that code and
made `use_orig_params=True` the default, so an explicit `false` now always
leaves such an optimizer stale.

## How to fix it

Prepare the model first and build the optimizer from the prepared model
(`model = accelerator.prepare(model)`, then `AdamW(model.parameters())`), or set
`fsdp_use_orig_params: true`.

## When preflight stays silent

* `fsdp_use_orig_params` is true or not set (True by default since accelerate
  0.25), FSDP2 (`fsdp_version: 2`), or no FSDP.
* The optimizer is built after the model is prepared.
* accelerate is pinned below 0.25 and the model and the optimizer are prepared in
  one call (the old re-pointing code).
"""
    bad_examples = examples("preflight.rules.plan._pf580_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf580_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        config = None
        for script in pctx.project.scripts:
            text = script.text if script.text is not None else script.source.text
            if "prepare" not in text or "parameters" not in text:
                continue
            found = list(_early_optimizers(script.tree))
            if not found:
                continue
            if config is None:
                config = _fsdp_without_orig_params(pctx)
                if config is None:
                    return
            version = pctx.version("accelerate", script)
            old = version is not None and version.how == "pinned" and not version.at_least(0, 25)
            for call, model, prep, together in found:
                if old and together:
                    continue
                evidence = [pctx.config_evidence(config, ("fsdp_config", "fsdp_use_orig_params"),
                                                 "FSDP replaces the parameters with flat ones"),
                            Evidence(line=prep.lineno, path=script.source.display,
                                     message=f"`{model}` is wrapped in FSDP here")]
                yield pctx.code_finding(
                    self, script, call,
                    f"the optimizer is built on `{model}`'s parameters before `{ast.unparse(prep.func)}(...)` wraps "
                    f"`{model}` in FSDP, and {config.path} sets `fsdp_use_orig_params: false`: FSDP replaces those "
                    "parameters with its flat sharded ones, so the optimizer steps tensors the model no longer uses "
                    "and the loss stays flat. Prepare the model first and build the optimizer from the prepared "
                    "model, or set `fsdp_use_orig_params: true`", evidence=evidence)
