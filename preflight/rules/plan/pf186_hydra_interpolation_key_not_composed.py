"""PF186 hydra-interpolation-key-not-composed: a ``${a.b.c}`` in a Hydra app's composed config whose key
the composed config lacks (the config group option that defines it is not the one selected)."""

from __future__ import annotations

import ast
import re
from typing import Any, Iterable, Iterator

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_apps import (
    assigned_names,
    hydra_main_apps,
    partial_hydra_main_apps,
)

# `${a.b.c}` alone or inside a string: an absolute key, no resolver (`${oc.env:X}`), not relative (`${.x}`)
_REF = re.compile(r"\$\{\s*([A-Za-z_][\w-]*(?:\.[\w-]+)*)\s*\}")
# scripts that add keys to the config at runtime: the config preflight composes is not the one read
_RUNTIME = ("open_dict", "OmegaConf.merge", "OmegaConf.update", "set_struct", "read_write", "merge_with")
_ABSENT = object()


def _lookup(config: Any, path: tuple[str, ...]) -> Any:
    node = config
    for part in path:
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return _ABSENT
    return node


def _below_another_node(config: Any, ref: tuple[str, ...], depth: int = 0) -> bool:
    """Whether ``ref`` resolves below some node of ``config`` other than the root (PF525 reports that: the path
    written as if from inside a node)."""
    if depth > 8 or not isinstance(config, dict):
        return False
    for value in config.values():
        if isinstance(value, dict) and (_lookup(value, ref) is not _ABSENT or _below_another_node(value, ref, depth + 1)):
            return True
    return False


def _strings(data: Any, path: tuple[str, ...], depth: int = 0) -> Iterator[tuple[tuple[str, ...], str]]:
    if depth > 16:
        return
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _strings(value, (*path, str(key)), depth + 1)
    elif isinstance(data, list):
        for k, value in enumerate(data):
            yield from _strings(value, (*path, str(k)), depth + 1)
    elif isinstance(data, str) and "${" in data:
        yield path, data


@register
class HydraInterpolationKeyNotComposed(PlanRule):
    code = "PF186"
    name = "hydra-interpolation-key-not-composed"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A `${a.b.c}` interpolation of a Hydra app's composed config names a key the composed config does "
               "not have: OmegaConf raises InterpolationKeyError when the value is read")
    explanation = """
## What it finds

A value of the composed config of an `@hydra.main` app (its primary config, the options its
defaults list selects and the launch line's overrides, composed as Hydra does) that interpolates
an absolute key, `${callback.render.nvids_to_save}`, which that composed config lacks: the option
that defines the key is not the one selected (`callback: base` where `callback: render` defines
`render`), or the key is misspelled.

## Why it matters

OmegaConf resolves interpolations lazily, so the app composes, starts, builds its data and model,
and fails with `InterpolationKeyError: Interpolation key 'callback.render.nvids_to_save' not found`
when the value is first read (atnikos/sinc issue 6, after the README's training command), or when
`instantiate` resolves the node, often after the job waited for its GPUs.

## How to fix it

Select the config option that defines the key in the defaults list (or on the launch line), define
the key in the option that is selected, or correct the key's spelling.

## When preflight stays silent

* The key exists below another node (`${train_dataloader_params.batch_size}` where it is under
  `dataset_params`): PF525 reports that.
* The path runs through a plain value rather than a node (`net.encoder` set to the string `vit` by a
  dotted override: PF574 reports that).
* The interpolation is relative (`${.lr}`), uses a resolver (`${oc.env:X}`, `${oc.select:a.b,0}`),
  or names a key under `hydra` (Hydra's own settings are not part of the composed job config).
* The first key of the interpolation is not in the composed config at all (`${runtime.world_size}`,
  `${phases_per_epoch}`): a node the app may add at run time, or a file the job lacks may define.
* A file of the job (its scripts and the project modules they import) assigns one of the interpolation's
  keys (`cfg.callback.render = ...`), or adds keys to the config at runtime (`open_dict`, `OmegaConf.merge`, `OmegaConf.update`, `set_struct`).
* The job lacks config files its defaults list names: the config is composed without them only when
  none of them belongs to the group the key lies under, or to a group whose configs are usually global
  (`experiment`); otherwise preflight stays silent.
* The config is not composed (a composition error is reported by the audit itself).
"""
    bad_examples = examples("preflight.rules.plan._pf186_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf186_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        comps = [*hydra_main_apps(pctx), *partial_hydra_main_apps(pctx)]
        if not comps:
            return
        from preflight.rules.plan._job_files import job_files

        trees = [tree for _display, tree in job_files(pctx)]
        if any(word in ast.unparse(tree) for tree in trees for word in _RUNTIME):
            return
        assigned: set[str] = set()
        for tree in trees:
            assigned |= assigned_names(tree)
        from preflight.adapters.hydra_partial import dropped_may_set

        seen: set[tuple[str, int]] = set()
        for comp in comps:
            config = comp.config
            for path, value in _strings(config, ()):
                if path[:1] == ("hydra",):
                    continue
                for m in _REF.finditer(value):
                    ref = tuple(m.group(1).split("."))
                    if ref[0] == "hydra" or _lookup(config, ref) is not _ABSENT or any(p in assigned for p in ref):
                        continue
                    if _lookup(config, ref[:1]) is _ABSENT:
                        continue  # a whole node the composed config lacks: code or a missing file may add it
                    if _below_another_node(config, ref):
                        continue  # written as if from inside a node: PF525's finding
                    if dropped_may_set(comp, ref):
                        continue
                    origin = comp.origins.get(path)
                    if origin is None or origin[1] is None:
                        continue
                    file, line = origin[0], origin[1]
                    if (file, line) in seen:
                        continue
                    seen.add((file, line))
                    deepest = next((k for k in range(len(ref), 0, -1) if _lookup(config, ref[:k]) is not _ABSENT),
                                   0)
                    have = _lookup(config, ref[:deepest]) if deepest else config
                    if not isinstance(have, dict):
                        continue  # the path runs through a value, not a node (a dotted group override: PF574)
                    node = f"under `{'.'.join(ref[:deepest])}`" if deepest else "at the top level"
                    keys = sorted(str(k) for k in have) if isinstance(have, dict) and deepest else []
                    shown = f" (it has {', '.join(f'`{k}`' for k in keys[:6])})" if keys else ""
                    message = (f"`{'.'.join(path)}` interpolates `${{{m.group(1)}}}`, but the composed config has "
                               f"no `{ref[deepest]}` {node}{shown}: OmegaConf raises "
                               f"InterpolationKeyError (\"Interpolation key '{m.group(1)}' not found\") when the app "
                               "reads the value, after the job started. Select the config option that defines the "
                               "key, define it in the one selected, or fix its spelling")
                    if comp.dropped:
                        message += (f" (composed without {', '.join(comp.dropped[:3])}, whose files are not in the "
                                    "job)")
                    evidence = []
                    if comp.app.line is not None:
                        evidence.append(Evidence(line=comp.app.line, path=comp.app.script.source.display,
                                                 message=f"{comp.app.how} composes this config"))
                    yield pctx.location_finding(self, file, line, message, evidence=evidence)
