"""PF286 quoted-false-read-as-true: a YAML value written as the quoted string "false" (or "no", "off",
"0") for a key the code turns into a boolean with Python truthiness (``bool(cfg.get("fp16"))``)."""

from __future__ import annotations

import ast
import re
from typing import Any, Iterable, Iterator

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._config_keys import config_key_of, string_handled, truth_tests
from preflight.rules.plan._job_files import job_files
from preflight.rules.plan._yaml_job_files import yaml_files

_FALSE_WORDS = ("false", "no", "off", "0", "n", "f")
_QUOTED_FALSE = re.compile(r"""[:-]\s*(["'])\s*(?:false|no|off|0|n|f)\s*\1""", re.IGNORECASE)


def _false_strings(data: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str, str]]:
    """(key path, key, value) of every mapping value that is a string saying false."""
    if isinstance(data, dict):
        for key, value in data.items():
            if not isinstance(key, str):
                continue
            if isinstance(value, str) and value.strip().lower() in _FALSE_WORDS:
                yield (*prefix, key), key, value
            else:
                yield from _false_strings(value, (*prefix, key))


def _other_values(data: Any, wanted: set[str], out: dict[str, set[str]]) -> None:
    """Key -> the types of its values that are not false-strings (a key that is a real bool elsewhere)."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key in wanted and not (isinstance(value, str) and value.strip().lower() in _FALSE_WORDS):
                out.setdefault(key, set()).add(type(value).__name__)
            _other_values(value, wanted, out)
    elif isinstance(data, list):
        for value in data:
            _other_values(value, wanted, out)


@register
class QuotedFalseReadAsTrue(PlanRule):
    code = "PF286"
    name = "quoted-false-read-as-true"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A YAML value written as the quoted string \"false\" is made a boolean with `bool(...)` or an `if`: "
               "a non-empty string is true, so the option is switched on")
    explanation = """
## What it finds

A key of a YAML config of the job whose value is a quoted string that says false
(`fp16: "false"`, `use_ema: 'no'`, `"off"`, `"0"`), while a script of the job (or a
project module it imports) takes the truthiness of that key: `bool(cfg.get("fp16"))`,
`bool(train_cfg["fp16"])`, `if cfg.use_ema:`.

## Why it matters

Quoted, the value is a string for every YAML reader (PyYAML, OmegaConf without a typed
schema). Python's truthiness of a non-empty string is `True`, so `bool("false")` is
`True`: the feature the config meant to switch off (fp16 autocast with loss scaling,
gradient checkpointing, EMA) is silently switched on (NousResearch hermes-agent PR 50604:
"`bool(\"false\")` returns True ... users who quote YAML values get the feature silently
enabled").

## How to fix it

Write an unquoted YAML boolean (`fp16: false`), or parse the string (treat only
"1", "true", "yes", "on" as true: `str(v).strip().lower() in {"1", "true", "yes", "on"}`).

## When preflight stays silent

* The value is an unquoted `false`/`no`/`off` (a real boolean), or another string.
* The key also holds a non-string value in another config of the job (preflight cannot
  tell which file the code reads).
* The code compares that key with a string or lower-cases it (it parses the string),
  or passes it through a converter before the test (`strtobool(cfg["fp16"])`).
"""
    bad_examples = examples("preflight.rules.plan._pf286_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf286_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        candidates: dict[str, tuple[Any, tuple[Any, ...], str]] = {}
        loaded = []
        for _text, cfg in yaml_files(pctx, _QUOTED_FALSE):
            loaded.append(cfg)
            for path, key, value in _false_strings(cfg.data):
                candidates.setdefault(key, (cfg, path, value))
        if not candidates:
            return
        others: dict[str, set[str]] = {}
        for cfg in loaded:
            _other_values(cfg.data, set(candidates), others)
        files = job_files(pctx)
        done: set[str] = set()
        for display, tree in files:
            for report, tested in truth_tests(tree):
                name = config_key_of(tested)
                if name is None or name not in candidates or name in others or name in done:
                    continue
                if any(string_handled(t, name) for _, t in files):
                    continue
                done.add(name)
                cfg, path, text = candidates[name]
                line = cfg.line_of(path) or 1
                yield pctx.location_finding(
                    self, display, getattr(report, "lineno", 1),
                    f"`{ast.unparse(report)[:80]}` takes the truthiness of `{name}`, which {cfg.path}:{line} writes "
                    f"as the quoted string {text!r}: a non-empty string is true, so `{name}` is switched on, the "
                    f"opposite of what the config says. Write `{name}: false` unquoted, or parse the string "
                    f"(only \"1\", \"true\", \"yes\", \"on\" are true)",
                    evidence=[Evidence(line=line, message=f"`{name}` is the string {text!r} here", path=cfg.path)])


