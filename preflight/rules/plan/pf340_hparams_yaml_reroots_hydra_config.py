"""PF340 hparams-yaml-reroots-hydra-config: ``self.save_hyperparameters()`` of a Hydra config with
absolute interpolations on pytorch-lightning before 1.1.4: hparams.yaml re-roots the config and
the interpolations no longer resolve."""

from __future__ import annotations

import ast
import re
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_apps import hydra_main_apps

# `${a.b}` to another key; not `${.x}` (relative), not a resolver (`${oc.env:X}`, `${hydra:...}`)
_ABSOLUTE = re.compile(r"\$\{\s*([A-Za-z_][\w]*(?:\.[\w]+)*)\s*\}")


def _interpolations(node: Any, path: tuple[str, ...] = (), depth: int = 0) -> list[tuple[tuple[str, ...], str]]:
    out: list[tuple[tuple[str, ...], str]] = []
    if depth > 8:
        return out
    if isinstance(node, dict):
        for key, value in node.items():
            out.extend(_interpolations(value, (*path, str(key)), depth + 1))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out.extend(_interpolations(value, (*path, str(i)), depth + 1))
    elif isinstance(node, str):
        out.extend((path, m) for m in _ABSOLUTE.findall(node))
    return out


def _save_call(init: ast.FunctionDef) -> Optional[ast.Call]:
    for node in ast.walk(init):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "save_hyperparameters" and isinstance(node.func.value, ast.Name) \
                and node.func.value.id == "self":
            return node
    return None


def _saved_params(init: ast.FunctionDef, call: ast.Call) -> list[str]:
    params = [a.arg for a in [*init.args.posonlyargs, *init.args.args, *init.args.kwonlyargs] if a.arg != "self"]
    if any(k.arg == "ignore" for k in call.keywords):
        return []
    if not call.args:
        return params
    if sum(not (isinstance(a, ast.Constant) and isinstance(a.value, str)) for a in call.args) == 1:
        # one object handed over (`save_hyperparameters(cfg)`): Lightning 1.1 saves it as the hparams themselves,
        # at the root, not under its argument's name (save_hyperparameters' single non-str argument)
        return []
    names = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    return [p for p in params if p in names]


def _lightning_module(cls: ast.ClassDef) -> bool:
    return any("LightningModule" in ast.unparse(b) for b in cls.bases)


def _hydra_config_args(tree: ast.AST, cls: ast.ClassDef, cfg_names: set[str]) -> set[int]:
    """Positions of ``cls``'s constructor arguments given the Hydra config itself (``Model(cfg)``)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == cls.name:
            for i, arg in enumerate(node.args):
                if isinstance(arg, ast.Name) and arg.id in cfg_names:
                    out.add(i)
    return out


@register
class HparamsYamlRerootsHydraConfig(PlanRule):
    code = "PF340"
    name = "hparams-yaml-reroots-hydra-config"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("lightning", "hydra")
    summary = ("`save_hyperparameters()` of a Hydra config with `${a.b}` interpolations on pytorch-lightning "
               "before 1.1.4: writing hparams.yaml re-roots the config and the run stops on an interpolation error")
    explanation = """
## What it finds

A `LightningModule` whose `__init__` calls `self.save_hyperparameters()` on a parameter
that receives the whole Hydra config (annotated `DictConfig`, or given the `@hydra.main`
function's config: `Model(cfg)`), while the composed config holds an absolute
interpolation (`num_classes: ${data.num_classes}`), in a project that pins
pytorch-lightning from 1.0 to 1.1.3.

## Why it matters

When the logger writes `hparams.yaml`, pytorch-lightning before 1.1.4 saved
`OmegaConf.create(hparams)` with `resolve=True`: a new config with the Hydra config
re-rooted under the argument's name (`cfg.data.num_classes`), where `${data.num_classes}`
no longer exists, and the run stops with an interpolation error as training starts
(pytorch-lightning PR 5406, "Resolve interpolation bug with Hydra", released in 1.1.4).

## How to fix it

Upgrade pytorch-lightning to 1.1.4 or later, or pass a resolved container
(`Model(OmegaConf.to_container(cfg, resolve=True))`).

## When preflight stays silent

* No pytorch-lightning pin, or one outside 1.0 to 1.1.3 (a lower bound may install a fixed
  release); the fix is in 1.1.4 (CHANGELOG), only 1.1.3's `save_hparams_to_yaml` was read.
* The config has no absolute interpolation, the module is given a resolved container, or
  `save_hyperparameters(ignore=...)` / names that leave the config out.
* The config object itself is handed over (`self.save_hyperparameters(cfg)`): Lightning saves
  a single non-string argument as the hyperparameters, at their root, not under a name.
"""
    bad_examples = examples("preflight.rules.plan._pf340_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf340_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for comp in hydra_main_apps(pctx):
            script = comp.app.script
            version = pctx.version("pytorch-lightning", script)
            if version is None or version.how != "pinned" or not version.at_least(1, 0) or version.at_least(1, 1, 4):
                continue
            interps = _interpolations(comp.config)
            if not interps:
                continue
            main = next((n for n in ast.walk(script.tree) if isinstance(n, ast.FunctionDef)
                         and n.lineno <= (comp.app.line or 0) + 1 and n.end_lineno is not None
                         and n.end_lineno >= (comp.app.line or 0) and n.args.args), None)
            cfg_names = {main.args.args[0].arg} if main is not None else set()
            for cls in (n for n in ast.walk(script.tree) if isinstance(n, ast.ClassDef) and _lightning_module(n)):
                init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
                call = _save_call(init) if init is not None else None
                if init is None or call is None:
                    continue
                saved = _saved_params(init, call)
                params = [a for a in init.args.args if a.arg != "self"]
                given = _hydra_config_args(script.tree, cls, cfg_names)
                hydra_params = [a.arg for i, a in enumerate(params) if a.arg in saved and (
                    i in given or (a.annotation is not None and "DictConfig" in ast.unparse(a.annotation)))]
                if not hydra_params:
                    continue
                path, target = interps[0]
                message = (f"`self.save_hyperparameters()` stores the Hydra config `{hydra_params[0]}`, whose "
                           f"`{'.'.join(path)}` interpolates `${{{target}}}`, on {version.describe()}: before 1.1.4 "
                           f"the logger writes hparams.yaml from `OmegaConf.create(hparams)` with resolve=True, the "
                           f"config re-rooted under `{hydra_params[0]}`, where `{target}` does not exist, and the run "
                           "stops with an interpolation error as training starts (pytorch-lightning PR 5406). Upgrade "
                           "to 1.1.4+, or pass `OmegaConf.to_container(cfg, resolve=True)`")
                evidence = [Evidence(line=comp.app.line or 1, path=script.source.display,
                                     message="@hydra.main composes the config")]
                yield pctx.code_finding(self, script, call, message, evidence=evidence)
