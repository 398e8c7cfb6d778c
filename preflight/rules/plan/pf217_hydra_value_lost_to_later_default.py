"""PF217 hydra-value-lost-to-later-default: a config of the defaults list sets a key of another
group's node, and that group's option, merged later, puts its own value back."""

from __future__ import annotations

from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_MISSING = "???"


def _lookup(data: Any, path: tuple[str, ...]) -> Any:
    for part in path:
        if not isinstance(data, dict) or part not in data:
            return _NOTHING
        data = data[part]
    return data


class _Nothing:
    pass


_NOTHING = _Nothing()


def _package(item: Any) -> tuple[str, ...]:
    return tuple(p for p in str(item.package or "").split(".") if p)


def _is_primary(item: Any, comp: Any) -> bool:
    name = str(comp.app.config_name or "")
    for ext in (".yaml", ".yml"):
        if name.endswith(ext):
            name = name[: -len(ext)]
    return str(item.config_path).lstrip("/") == name.lstrip("/")


def _same(a: Any, b: Any) -> bool:
    return str(a) == str(b)


@register
class HydraValueLostToLaterDefault(PlanRule):
    code = "PF217"
    name = "hydra-value-lost-to-later-default"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A config of the defaults list sets a key of another group's node, and that group's option, merged "
               "later in the defaults list, silently puts its own value back")
    explanation = """
## What it finds

In the defaults list of a `@hydra.main` app, as composed for the launch line, a config
(typically a `# @package _global_` option, `dataset/synthetic.yaml`) sets a key inside
the node of *another* group (`model.distance_scoring_layer: true`), and that group's
option (`model/default.yaml`) comes *later* in the defaults list and gives the key a
different value, which is the value the run gets.

## Why it matters

Hydra merges the configs of the defaults list in list order, each one over the result
so far (`_compose_config_from_defaults_list` in hydra-core's
`hydra/_internal/config_loader_impl.py` calls `cfg.merge_with(loaded.config)` entry by
entry). The earlier config's value is overwritten without a message, so the run uses
the group's default while the config that was selected for the purpose says otherwise
(hydra issue 346: `dataset=synthetic` needs `distance_scoring_layer: true`, the run
trains with `false`).

## How to fix it

Put the group whose node is changed before the config that changes it in the defaults
list (`- model: default` before `- dataset: ...`), or set the key from a config merged
after the group (the primary config's body with `_self_` last, an experiment config).

## When preflight stays silent

* The later option gives the same value, or a command-line override or a config merged
  after it decides the key (the composed value is not the later option's).
* The earlier config is the primary config (its `_self_` placement is PF519's).
* A config that changes its own group's node, or keys of the top level that no group owns.
* The later value is `???` (OmegaConf keeps the earlier value).
"""
    bad_examples = examples("preflight.rules.plan._pf217_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf217_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        try:
            from preflight.adapters.hydra_apps import Composed, composed_leaves, compositions
        except ImportError:  # pragma: no cover - the adapter ships with preflight
            return
        for comp in compositions(pctx.project):
            if not isinstance(comp, Composed) or comp.app.how != "@hydra.main":
                continue
            finding = self._first(pctx, comp, composed_leaves)
            if finding is not None:
                yield finding

    def _first(self, pctx: PlanContext, comp: Any, leaves: Any) -> Optional[Finding]:
        items = comp.item_configs
        for i, (item, loaded) in enumerate(items):
            if _is_primary(item, comp) or not isinstance(loaded.data, dict):
                continue
            own = _package(item)
            for path, value in leaves(loaded.data, ()):
                if path[:1] == ("defaults",) or _same(value, _MISSING):
                    continue
                full = (*own, *path)
                if full in comp.cli:
                    continue
                for later, later_loaded in items[i + 1:]:
                    theirs_pkg = _package(later)
                    if not theirs_pkg or _is_primary(later, comp) or not isinstance(later_loaded.data, dict):
                        continue
                    if full[:len(theirs_pkg)] != theirs_pkg or len(full) == len(theirs_pkg):
                        continue
                    if own[:len(theirs_pkg)] == theirs_pkg:
                        continue  # the earlier config is inside the later one's node (its own group)
                    theirs = _lookup(later_loaded.data, full[len(theirs_pkg):])
                    if isinstance(theirs, (_Nothing, dict)) or _same(theirs, _MISSING) or _same(theirs, value):
                        continue
                    final = _lookup(comp.config, full)
                    if isinstance(final, _Nothing) or not _same(final, theirs):
                        continue
                    line = loaded.line_of(path, nearest=True)
                    if line is None:
                        continue
                    key = ".".join(full)
                    message = (f"`{key}: {value}` is set here, but {later_loaded.path} (the `{later.config_path}` "
                               f"option), merged later in the defaults list, sets `{key}: {theirs}`: Hydra merges the "
                               f"defaults in list order, so the run gets {theirs!r} and this value is lost without a "
                               f"message; list `{later.config_path.split('/')[0]}` before this config's group in the "
                               "defaults list, or set the key from a config merged after it")
                    return pctx.location_finding(self, loaded.path, line, message)
        return None
