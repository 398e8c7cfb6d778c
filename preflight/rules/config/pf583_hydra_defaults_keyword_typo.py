"""PF583 hydra-defaults-keyword-typo: a misspelled keyword in a Hydra defaults list."""

from __future__ import annotations

import difflib
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import ConfigRule, PlanContext
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.config._hydra_app_configs import hydra_app_configs

_KEYWORDS = ("optional", "override")


def _close(word: str, choices: Iterable[str]) -> Optional[str]:
    found = difflib.get_close_matches(word.lower(), list(choices), n=1, cutoff=0.7)
    return found[0] if found else None


def _self_typo(entry: str) -> bool:
    """``_self``, ``self_``, ``__self__``: a misspelled ``_self_`` (not an ordinary option name)."""
    if entry == "_self_" or "/" in entry or "@" in entry or ":" in entry:
        return False
    return entry.strip("_") == "self" or (entry.startswith("_") and _close(entry, ["_self_"]) == "_self_")


@register
class HydraDefaultsKeywordTypo(ConfigRule):
    code = "PF583"
    name = "hydra-defaults-keyword-typo"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = "A defaults-list keyword is misspelled (`optioal db: x`, `overide db: x`, `_self`): Hydra drops it or fails"
    explanation = """
## What it finds

An entry of a YAML `defaults:` list whose key holds a space-separated word before the
group name that is not one of Hydra's keywords `optional` / `override` but is close to
one (`- optioal dataset_model: ${dataset}_${model}`, `- overide db: mysql`), and an
entry spelled like `_self_` but not quite (`- _self`, `- self_`, `- __self__`).

## Why it matters

Hydra splits the key on spaces, takes the last word as the group and reads the words
before it as keywords until the first one it does not know, which it drops without
a word (`ConfigRepository._extract_keywords_from_config_group` in
hydra/_internal/config_repository.py: `for e in elements: if e == "optional" ... elif
e == "override" ... else: break`). A misspelled `optional` makes the entry mandatory:
every combination without a matching file fails to compose ("Could not find
'dataset_model/cifar10_resnet50'"), mid-sweep (hydra issue 1951). A misspelled
`override` makes the entry a second selection of the group, which fails to compose
("Multiple values for db ... use 'override db: mysql'"). A misspelled `_self_` is read as a
config named `_self` that does not exist, and the primary config's own values lose their
place in the composition order.

## How to fix it

Spell the keyword: `optional`, `override`, `_self_`.

## When preflight stays silent

* The keywords are spelled right, or the extra word is not close to a keyword.
* An entry close to `_self_` for which the config folder holds a real option of that
  name is not looked at (an entry with `/`, `@` or `:` is a group selection).
"""
    bad_examples = examples("preflight.rules.config._pf583_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.config._pf583_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        seen: set[str] = set()
        for cfg in [*pctx.configs, *hydra_app_configs(pctx)]:
            if cfg.kind != "yaml" or not isinstance(cfg.data, dict) or cfg.path in seen:
                continue
            seen.add(cfg.path)
            defaults = cfg.data.get("defaults")
            if not isinstance(defaults, list):
                continue
            for i, entry in enumerate(defaults):
                found = self._entry(cfg, i, entry)
                if found is not None:
                    line, message = found
                    yield pctx.location_finding(self, cfg.path, line, message)

    @staticmethod
    def _entry(cfg: Any, i: int, entry: Any) -> Optional[tuple[int, str]]:
        line = cfg.line_of(("defaults", i), nearest=True) or 1
        if isinstance(entry, str):
            if _self_typo(entry.strip()):
                return line, (f"`{entry}` in the defaults list looks like a misspelled `_self_`: Hydra reads it "
                              f"as a config named `{entry}`, which does not exist, so composing fails (\"Could "
                              f"not find '{entry}'\") and the primary config's own values have no place in the "
                              f"order; write `_self_`")
            return None
        if not isinstance(entry, dict) or len(entry) != 1:
            return None
        key = next(iter(entry))
        if not isinstance(key, str) or " " not in key.strip():
            return None
        words = key.split()
        group = words[-1]
        for word in words[:-1]:
            if word in _KEYWORDS:
                continue
            meant = _close(word, _KEYWORDS)
            if meant is None:
                return None
            if meant == "optional":
                effect = (f"the entry becomes mandatory: every selection for which `{group}` has no option "
                          f"file fails to compose (\"Could not find '{group}/...'\")")
            else:
                effect = (f"the entry becomes a second selection of `{group}` instead of an override, and "
                          f"composition fails (\"Multiple values for {group}\" / \"Could not override\")")
            return line, (f"`{word}` in `- {key}: ...` is a misspelling of the defaults-list keyword `{meant}`: "
                          f"Hydra drops keywords it does not know without an error, so {effect}; "
                          f"write `{meant}`")
        return None
