"""PF525 hydra-interpolation-not-from-root: an interpolation written relative to its node, which
OmegaConf resolves from the root of the config."""

from __future__ import annotations

import re
from typing import Any, Iterable, Iterator, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

# ``${a.b.c}``: a plain absolute key path (no resolver ``oc.env:``, no relative ``.x``, no nesting)
_INTERPOLATION = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\}")


# calls that give a subtree a root of its own (its interpolations then resolve inside it)
_DETACHES = ("OmegaConf.create", "to_container", "to_object", "OmegaConf.structured", "masked_copy", "nemo")


def _walk(node: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _walk(value, (*path, str(key)))
    else:
        yield path, node


def _has(config: Any, path: tuple[str, ...]) -> bool:
    node = config
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return True


def _nodes(config: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    if isinstance(config, dict):
        yield path
        for key, value in config.items():
            yield from _nodes(value, (*path, str(key)))


@register
class HydraInterpolationNotFromRoot(PlanRule):
    code = "PF525"
    name = "hydra-interpolation-not-from-root"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = "A Hydra config interpolation names a key that exists only below another node"
    explanation = """
## What it finds

In the composed config of a `@hydra.main` app, a value `${a.b}` whose key path
does not exist from the root of the config, while it does exist below exactly one
node (`${train_dataloader_params.batch_size}` where the key is
`dataset_params.train_dataloader_params.batch_size`).

## Why it matters

OmegaConf resolves `${a.b}` from the root of the config, not from the node that
holds it: the key is not found and reading the value raises
`InterpolationKeyError` (super-gradients PR 616: a recipe's
`lr_reference_batch_size` crashed the run when the training parameters were read).

## How to fix it

Write the full path (`${dataset_params.train_dataloader_params.batch_size}`), or a
relative one with a leading dot (`${..train_dataloader_params.batch_size}`).

## When preflight stays silent

* The path exists from the root, or below no node or several nodes (a key the app
  adds at run time, or an ambiguous one), or below an ancestor of the key that holds
  it (NeMo writes `${data.train_ds.x}` inside `model:` because the model detaches
  `cfg.model` as its own config, where that path resolves) unless the `@hydra.main`
  function reads the key, or a node between it and that ancestor, through the composed
  config (`instantiate(cfg.model.head)` with `${d_model}` next to `model.d_model`: the
  interpolation is resolved from the root) and the script detaches no subtree
  (`OmegaConf.create`, `to_container`, `to_object`, NeMo).
* Resolvers (`${oc.env:HOME}`, `${now:...}`), relative interpolations (`${.x}`),
  and keys under `hydra`.
"""
    bad_examples = examples("preflight.rules.plan._pf525_examples", "PF525_BAD")
    good_examples = examples("preflight.rules.plan._pf525_examples", "PF525_GOOD")

    @staticmethod
    def _read_from_root(comp: Any, ancestor: tuple[str, ...], path: tuple[str, ...]) -> bool:
        """The ``@hydra.main`` function reads the interpolating key, or a node between it and
        ``ancestor``, through the composed config (``instantiate(cfg.model.head)``) and the script never
        detaches a subtree as its own config (``OmegaConf.create``/``to_container``, NeMo models)."""
        import ast

        from preflight.rules.plan._hydra_app_support import config_chain, hydra_main_function

        script = comp.app.script
        if script is None or comp.app.how != "@hydra.main":
            return False
        text = script.text if script.text is not None else script.source.text
        if any(word in text for word in _DETACHES):
            return False
        fn = hydra_main_function(script, comp.app.line)
        if fn is None:
            return False
        root = fn.args.args[0].arg
        for node in ast.walk(fn):
            chain = config_chain(node, root) if isinstance(node, ast.Attribute) else None
            if chain is not None and len(ancestor) < len(chain) <= len(path) and path[:len(chain)] == chain:
                return True
        return False

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        try:
            from preflight.adapters.hydra import Composed, compositions
        except ImportError:  # pragma: no cover - the adapter ships with preflight
            return
        for comp in compositions(pctx.project):
            if not isinstance(comp, Composed):
                continue
            config = comp.config
            nodes: Optional[list[tuple[str, ...]]] = None
            for path, value in _walk(config):
                if not isinstance(value, str) or "${" not in value or (path and path[0] == "hydra"):
                    continue
                for match in _INTERPOLATION.finditer(value):
                    target = tuple(match.group(1).split("."))
                    if target[0] == "hydra" or _has(config, target):
                        continue
                    if nodes is None:
                        nodes = list(_nodes(config))
                    below = [n for n in nodes if n and _has(config, (*n, *target))]
                    if len(below) != 1 or (path[:len(below[0])] == below[0]
                                           and not self._read_from_root(comp, below[0], path)):
                        # several candidates, or a path relative to an ancestor of the key: apps
                        # that detach that subtree as its own config (NeMo's `model:`) resolve it there
                        continue
                    full = ".".join((*below[0], *target))
                    origin = comp.origins.get(path)
                    message = (f"`{'.'.join(path)}: ${{{match.group(1)}}}`: OmegaConf resolves the interpolation "
                               f"from the root of the config, where `{match.group(1)}` does not exist (it is "
                               f"`{full}`): reading `{'.'.join(path)}` raises InterpolationKeyError. Write "
                               f"`${{{full}}}`")
                    app = comp.app
                    evidence = []
                    if app.script is not None and app.line is not None:
                        evidence.append(Evidence(line=app.line, path=app.script.source.display,
                                                 message=f"{app.how} composes this config"))
                    if origin is not None and origin[1] is not None:
                        yield pctx.location_finding(self, origin[0], origin[1], message, evidence=evidence)
