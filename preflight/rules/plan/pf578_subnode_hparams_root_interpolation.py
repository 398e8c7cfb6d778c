"""PF578 subnode-hparams-root-interpolation: a LightningModule saves a Hydra subnode as its
hyperparameters while the subnode interpolates keys outside it (Lightning before 1.1.4)."""

from __future__ import annotations

import ast
import re
from typing import Any, Iterable, Iterator, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._omegaconf_chains import (
    attribute_chain,
    base_name,
    config_at,
    config_names,
)

_INTERP = re.compile(r"\$\{([^${}:]+)\}")


def _saving_modules(tree: ast.AST) -> set[str]:
    """LightningModule classes of the file whose ``__init__`` calls ``self.save_hyperparameters``."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        if not any(base_name(b) == "LightningModule" or base_name(b) in out for b in node.bases):
            continue
        for stmt in node.body:
            if isinstance(stmt, ast.FunctionDef) and stmt.name == "__init__" and any(
                    isinstance(c, ast.Call) and base_name(c.func) == "save_hyperparameters"
                    for c in ast.walk(stmt)):
                out.add(node.name)
    return out


def _outside(node: Any, path: tuple[str, ...], prefix: tuple[str, ...] = ()) -> Iterator[tuple[str, str]]:
    """(key inside the node, interpolated key) for ``${a.b}`` that points outside ``path``."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _outside(value, path, (*prefix, str(key)))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _outside(value, path, (*prefix, str(index)))
    elif isinstance(node, str):
        for match in _INTERP.finditer(node):
            ref = match.group(1).strip()
            if ref and not ref.startswith(".") and tuple(ref.split(".")[:len(path)]) != path:
                yield ".".join(prefix), ref


def _constructions(tree: ast.AST, modules: set[str]) -> Iterator[tuple[ast.Call, str, tuple[str, ...]]]:
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        roots = config_names(fn)
        if not roots:
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in modules:
                for arg in [*node.args, *(k.value for k in node.keywords if k.arg)]:
                    path = attribute_chain(arg, roots)
                    if path is not None:
                        yield node, node.func.id, path
                        break


@register
class SubnodeHparamsRootInterpolation(PlanRule):
    code = "PF578"
    name = "subnode-hparams-root-interpolation"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra", "lightning")
    summary = ("A LightningModule saves a Hydra subnode as hyperparameters while the subnode interpolates keys "
               "outside it (pytorch-lightning before 1.1.4)")
    explanation = """
## What it finds

`MyModel(cfg.model)` in an `@hydra.main` app, where `MyModel` is a LightningModule
of the script whose `__init__` calls `self.save_hyperparameters(...)`, and the
composed `model` node holds an interpolation of a key outside it
(`path: bert_${data.name}.pt`), in a project that pins pytorch-lightning below
1.1.4.

## Why it matters

Up to 1.1.3 Lightning copied the saved hyperparameters into a fresh OmegaConf
object (`OmegaConf.create(hparams)`) when writing them, detached from the root
config the subnode came from: `${data.name}` no longer resolves and the run fails
with an interpolation error when the hyperparameters are saved or read
(Lightning issue 5384, "Value interpolation with hydra composition"). Lightning
1.1.4 (PR 5406) resolves DictConfig hyperparameters against their parent before
saving them.

## How to fix it

Pass the whole config (`MyModel(cfg)`) and read `self.hparams.model...`, resolve
the node first (`OmegaConf.to_container(cfg.model, resolve=True)`), or upgrade
pytorch-lightning to 1.1.4 or later.

## When preflight stays silent

* pytorch-lightning is not pinned, or pinned at 1.1.4 or later.
* The subnode's interpolations stay inside it (`${model.lr}` for the `model`
  node) or are relative (`${.lr}`), resolvers (`${now:...}`), or the module does not
  call `save_hyperparameters`.
"""
    bad_examples = examples("preflight.rules.plan._pf578_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf578_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        try:
            from preflight.adapters.hydra import Composed, compositions
        except ImportError:  # pragma: no cover - the adapter ships with preflight
            return
        for comp in compositions(pctx.project):
            if not isinstance(comp, Composed) or comp.app.script is None:
                continue
            script = comp.app.script
            version = pctx.version("pytorch-lightning", script)
            if version is None or version.how != "pinned" or version.at_least(1, 1, 4):
                continue
            modules = _saving_modules(script.tree)
            if not modules:
                continue
            for call, module, path in _constructions(script.tree, modules):
                node = config_at(comp.config, path)
                found: Optional[tuple[str, str]] = next(iter(_outside(node, path)), None)
                if found is None:
                    continue
                inner, ref = found
                dotted = ".".join(path)
                evidence = []
                origin = comp.origins.get((*path, *inner.split(".")))
                if origin is not None and origin[1] is not None:
                    evidence.append(Evidence(line=origin[1], path=origin[0], message=f"`${{{ref}}}` is interpolated here"))
                yield pctx.code_finding(
                    self, script, call,
                    f"`{module}(…{dotted})` saves the `{dotted}` node as hyperparameters, but `{dotted}.{inner}` "
                    f"interpolates `${{{ref}}}` from outside that node: {version.describe()} copies the saved node "
                    f"away from the root config, so `{ref}` cannot be resolved and the run fails (fixed in "
                    "pytorch-lightning 1.1.4). Pass the whole config, or "
                    f"`OmegaConf.to_container(….{dotted}, resolve=True)`", evidence=evidence or None)
