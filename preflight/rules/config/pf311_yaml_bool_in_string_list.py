"""PF311 yaml-bool-in-string-list: an unquoted ``no``/``off``/``yes``/``on`` among the strings of a YAML list."""

from __future__ import annotations

from typing import Any, Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import ConfigRule, PlanContext
from preflight.registry import register
from preflight.rules.base import examples

_WORDS = {"yes": True, "no": False, "on": True, "off": False}


def _yaml_texts(pctx: PlanContext) -> list[tuple[str, str]]:
    """(display path, text) of the job's YAML configs and its Hydra apps' config files."""
    from preflight.rules.config._hydra_app_configs import hydra_app_configs
    from preflight.sources import read_text_limited

    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for src, cfg in pctx.project.configs:
        if cfg.kind == "yaml" and cfg.path not in seen:
            seen.add(cfg.path)
            out.append((cfg.path, src.text))
    for cfg in hydra_app_configs(pctx, needle=""):
        if cfg.path in seen:
            continue
        seen.add(cfg.path)
        path = pctx.project.root / cfg.path
        try:
            out.append((cfg.path, read_text_limited(path, errors="replace")))
        except OSError:
            continue
    return out


def trapped_items(text: str) -> list[tuple[int, str, int]]:
    """(line, word, strings beside it) for each plain YAML 1.1 boolean word in a list whose
    other items are all plain or quoted strings (at least two of them)."""
    from preflight.validate import yaml_scalars

    lists: dict[tuple[Any, ...], list[Any]] = {}
    for path, scalar in yaml_scalars(text).items():
        if path and isinstance(path[-1], int):
            lists.setdefault(path[:-1], []).append(scalar)
    out: list[tuple[int, str, int]] = []
    for items in lists.values():
        words = [s for s in items if s.plain and s.tag == "bool" and s.text.lower() in _WORDS]
        strings = [s for s in items if s.tag == "str"]
        if words and len(strings) >= 2 and len(words) + len(strings) == len(items):
            out.extend((s.line, s.text, len(strings)) for s in words)
    return sorted(out)


@register
class YamlBoolInStringList(ConfigRule):
    code = "PF311"
    name = "yaml-bool-in-string-list"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra", "transformers", "pytorch")
    summary = "An unquoted `no`, `off`, `yes` or `on` in a YAML list of strings is read as a boolean (YAML 1.1)"
    explanation = """
## What it finds

An item of a YAML list written as a plain `no`, `off`, `yes` or `on` (any case) while every
other item of that list is a string, at least two of them: a list of language codes
(`[en, no, de, sv]`), of country codes, of switch names.

## Why it matters

PyYAML (`yaml.safe_load`, `yaml.load`) and OmegaConf/Hydra read YAML 1.1, where those words
are booleans (pyyaml issue 613: `[true, false, on, off, yes, no]` loads as six booleans;
the maintainer: "That's correct behavior. pyyaml implements YAML 1.1"). Norwegian's ISO
code `no` becomes `False`: a filter `ex["lang"] in languages` drops every Norwegian
example without an error, and a lookup by name fails or picks the wrong entry.

## How to fix it

Quote the item: `- "no"`.

## When preflight stays silent

* The item is quoted, or written `true`/`false` (meant as a boolean).
* The list holds booleans, numbers or mappings besides (a list of flags), or fewer than two
  strings beside the word.
"""
    bad_examples = examples("preflight.rules.config._pf311_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.config._pf311_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for path, text in _yaml_texts(pctx):
            if not any(w in text.lower() for w in _WORDS):
                continue
            for line, word, strings in trapped_items(text):
                value = str(_WORDS[word.lower()]).lower()
                yield pctx.location_finding(
                    self, path, line,
                    f"`{word}` stands among {strings} strings of a list, but YAML 1.1 (PyYAML, OmegaConf/Hydra) reads "
                    f"an unquoted {word} as the boolean {value}: a membership test or lookup by this name silently "
                    f"misses it (pyyaml issue 613); quote it: \"{word}\"")
