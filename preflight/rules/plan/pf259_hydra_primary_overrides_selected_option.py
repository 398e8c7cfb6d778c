"""PF259 hydra-primary-overrides-selected-option: a primary config without ``_self_`` in its defaults
list sets keys of a group whose option the launch line selects: Hydra composes the primary config
last, and its placeholders replace the selected option's values."""

from __future__ import annotations

from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_apps import hydra_main_apps
from preflight.rules.plan._hydra_tree import config_leaves, config_lookup, package_path

_MISSING = "???"


def _group_entries(entries: list[Any]) -> dict[str, tuple[int, Optional[str]]]:
    """group -> (index, option) of the plain ``group: option`` entries of a primary defaults list; a
    ``group: null`` entry (``- experiment: null``, the slot an experiment is chosen into) has option None."""
    out: dict[str, tuple[int, Optional[str]]] = {}
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict) or len(entry) != 1:
            continue
        (key, option), = entry.items()
        words = str(key).split()
        if not words or len(words) > 1 or not (option is None or isinstance(option, str)) or "@" in words[0]:
            continue  # override / optional entries, relocated packages, list options: not compared
        out[words[0].lstrip("/")] = (index, option)
    return out


def _selected(args: list[str], groups: dict[str, tuple[int, Optional[str]]]) -> dict[str, str]:
    """group -> option the launch line selects instead of the defaults list's option."""
    out: dict[str, str] = {}
    for tok in args:
        key, eq, value = tok.partition("=")
        key = key.lstrip("/")
        if not eq or key.startswith(("+", "~", "-")) or key not in groups or "," in value or not value:
            continue
        if value != groups[key][1]:
            out[key] = value
    return out


@register
class HydraPrimaryOverridesSelectedOption(PlanRule):
    code = "PF259"
    name = "hydra-primary-overrides-selected-option"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("The primary config has no `_self_` and sets keys of a group the launch line selects: Hydra composes "
               "the primary last and its values replace the selected option's")
    explanation = """
## What it finds

A `@hydra.main` app whose primary config lists `group: option` entries in its defaults
list without `_self_`, and also sets keys under that group's node (placeholders,
`model: {encoder_layers: 6}`), while the launch line selects another option of the
group (`model=transformer_big`) whose config sets the same keys to other values, and
the composed config ends with the primary's values. A `group: null` entry (the
`- experiment: null` slot) counts: `experiment=long_schedule` on the launch line fills it,
and an `# @package _global_` experiment's `trainer.max_epochs: 300` loses to the primary's
`trainer.max_epochs: 10` (hydra issue 1755).

## Why it matters

Since Hydra 1.1 a config without `_self_` in its defaults list is composed after its
defaults (`_self_` is implicitly last): the primary config's own values override
everything its defaults list brought in, the option chosen on the command line
included. `model=transformer_big optimizer=adafactor` then trains the base shape with
the placeholder learning rate, and nothing fails (fairseq PR 3722: "In Hydra 1.1, a
config is overriding values introduced by the defaults list ... The solution is to add
_self_ as the first item in the defaults list"; Hydra's "Default composition order"
upgrade note).

## How to fix it

Put `_self_` first in the defaults list (the selected options then override the
primary's values), or drop the placeholders from the primary config.

## When preflight stays silent

* The defaults list names `_self_` (the order is explicit; `_self_` first followed by
  options that override the file's values is PF519's).
* The launch line keeps the defaults list's option, or selects none: a primary config
  that tweaks its default options' values is Hydra's documented way to do so.
* The selected option sets none of the primary's keys, or to the same values, or the
  launch line sets the key itself; relocated (`group@pkg`), `override` and optional
  entries; sweeps.
"""
    bad_examples = examples("preflight.rules.plan._pf259_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf259_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        try:
            from preflight.adapters.hydra_compose import ComposeError, read_config_file
        except ImportError:  # pragma: no cover - the adapter ships with preflight
            return
        project = pctx.project
        if not project.argv:
            return
        for comp in hydra_main_apps(pctx):
            args = project.script_args(comp.app.script)
            if any(t in ("-m", "--multirun") for t in args):
                continue
            primary = self._primary(comp)
            if primary is None:
                continue
            item, loaded = primary
            try:
                cfg = read_config_file(item.file)
            except ComposeError:
                continue
            if "_self_" in cfg.defaults:
                continue
            groups = _group_entries(list(cfg.defaults))
            chosen = _selected(args, groups)
            if not chosen:
                continue
            mine = {path: value for path, value in config_leaves(cfg.body, ())}
            lost = self._lost(comp, chosen, mine, read_config_file, ComposeError)
            if not lost:
                continue
            group, option, path, own, theirs, opt_loaded, opt_key = lost[0]
            more = f" (and {len(lost) - 1} more key{'s' if len(lost) > 2 else ''})" if len(lost) > 1 else ""
            message = (f"this defaults list has no `_self_`, so Hydra (1.1 and later) composes this file after its "
                       f"defaults: the launch line selects `{group}={option}`, but this file's "
                       f"`{'.'.join(path)}: {own!r}` replaces the option's {theirs!r}{more}, and the run silently "
                       f"uses the placeholder. Put `_self_` first in the defaults list so the selected options win")
            evidence: list[Evidence] = []
            own_line = loaded.line_of(path, nearest=True)
            if own_line is not None:
                evidence.append(Evidence(line=own_line, path=loaded.path,
                                         message=f"this file sets {'.'.join(path)}: {own!r}"))
            opt_line = opt_loaded.line_of(opt_key, nearest=True)
            if opt_line is not None:
                evidence.append(Evidence(line=opt_line, path=opt_loaded.path,
                                         message=f"the selected option sets {'.'.join(opt_key)}: {theirs!r}"))
            line = loaded.line_of(("defaults",)) or 1
            yield pctx.location_finding(self, loaded.path, line, message, evidence=evidence)

    @staticmethod
    def _primary(comp: Any) -> Optional[tuple[Any, Any]]:
        name = (comp.app.config_name or "").rsplit(".", 1)[0] if (comp.app.config_name or "").endswith(
            (".yaml", ".yml")) else (comp.app.config_name or "")
        for item, loaded in comp.item_configs:
            if item.file is not None and item.package == "" and item.config_path == name:
                return item, loaded
        return None

    @staticmethod
    def _lost(comp: Any, chosen: dict[str, str], mine: dict, read_config_file: Any, error: Any) -> list:
        lost = []
        for group, option in chosen.items():
            found = next(((it, ld) for it, ld in comp.item_configs
                          if it.file is not None and it.config_path == f"{group}/{option}"), None)
            if found is None:
                continue
            opt_item, opt_loaded = found
            try:
                opt_cfg = read_config_file(opt_item.file)
            except error:
                continue
            for key, value in config_leaves(opt_cfg.body, ()):
                full = (*package_path(opt_item.package), *key)
                if full not in mine or value == _MISSING or full in comp.cli:
                    continue
                own = mine[full]
                if own in (value, _MISSING) or config_lookup(comp.config, full) != own:
                    continue
                lost.append((group, option, full, own, value, opt_loaded, key))
        return lost
