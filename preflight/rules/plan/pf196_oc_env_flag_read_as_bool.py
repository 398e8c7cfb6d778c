"""PF196 oc-env-flag-read-as-bool: a config value that is wholly ``${oc.env:VAR[,default]}`` (no ``oc.decode``)
for a key the code takes the truthiness of: ``oc.env`` always returns a string, so ``VAR=false`` or ``VAR=0``
(or a ``false`` default) switches the option on."""

from __future__ import annotations

import ast
import re
from typing import Any, Iterable, Iterator, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._config_keys import config_key_of, string_handled, truth_tests
from preflight.rules.plan._hydra_tree import config_leaves
from preflight.rules.plan._job_files import job_files
from preflight.rules.plan._yaml_job_files import yaml_files

_NEEDLE = re.compile(r"\$\{\s*oc\.env\s*:")
# the whole value is one oc.env interpolation; group 1 the variable, group 2 the default (if any)
_WHOLE_ENV = re.compile(r"^\s*\$\{\s*oc\.env\s*:\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:,\s*([^{}$]*?))?\s*\}\s*$")
_BOOL_WORDS = ("true", "false", "yes", "no", "on", "off")


def _env_values(data: Any) -> Iterator[tuple[tuple[str, ...], str, str, Optional[str]]]:
    """(key path, key, variable, default text or None) of every value that is one bare oc.env interpolation,
    outside the defaults list and the `hydra` node (whose env settings are strings by design)."""
    for path, value in config_leaves(data, ()):
        if not path or path[0] in ("defaults", "hydra") or not isinstance(value, str):
            continue
        found = _WHOLE_ENV.match(value)
        if found is not None and isinstance(path[-1], str):
            default = found.group(2)
            yield path, path[-1], found.group(1), (default.strip().strip("'\"") if default is not None else None)


def _other_keys(data: Any, wanted: dict[str, tuple[str, ...]], out: set[str], path: tuple[str, ...] = ()) -> None:
    """Keys of ``wanted`` that also hold a value that is not an oc.env interpolation at another key path (the
    same path in another file is the default the env value overrides, as base.yaml under custom.yaml)."""
    if isinstance(data, dict):
        for key, value in data.items():
            here = (*path, str(key))
            if key in wanted and here != wanted[key] and not isinstance(value, (dict, list)) \
                    and not (isinstance(value, str) and _WHOLE_ENV.match(value)):
                out.add(key)
            _other_keys(value, wanted, out, here)
    elif isinstance(data, list):
        for value in data:
            _other_keys(value, wanted, out, path)


def _typed_fields(tree: ast.AST) -> set[str]:
    """Names of annotated fields of classes (a structured-config schema converts the string to the type)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    out.add(item.target.id)
    return out


def _converted(tree: ast.AST, key: str) -> bool:
    """The key goes through a converter (``strtobool(cfg.debug)``, ``int(cfg.debug)``, ``json.loads``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and config_key_of(node.args[0]) == key:
            name = node.func.id if isinstance(node.func, ast.Name) else (
                node.func.attr if isinstance(node.func, ast.Attribute) else "")
            if name in ("strtobool", "int", "float", "loads", "literal_eval", "eval", "str2bool", "to_bool",
                        "parse_bool", "decode"):
                return True
    return False


@register
class OcEnvFlagReadAsBool(PlanRule):
    code = "PF196"
    name = "oc-env-flag-read-as-bool"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A config flag is `${oc.env:VAR,...}` and the code tests its truthiness: `oc.env` returns a "
               "string, so `VAR=false`/`VAR=0` (or a `false` default) switches the option on")
    explanation = """
## What it finds

A YAML config value of a Hydra/OmegaConf job that is one bare `${oc.env:VAR}` or
`${oc.env:VAR,default}` interpolation (not wrapped in `${oc.decode:...}`), for a key that
the job's code takes the truthiness of (`if cfg.executor.debug:`, `if not cfg.use_amp:`,
`bool(cfg.fp16)`).

## Why it matters

Since OmegaConf 2.1 the `oc.env` resolver returns the variable's text unparsed, and a
non-null default is turned into its string too (omegaconf/resolvers/oc/__init__.py;
OmegaConf issue 573: "`oc.env` does not attempt to convert booleans, integers and floats:
instead, the string representation of the environment variable is always returned";
PR 659 converts a default such as `false` into the string `"False"`). Python's truthiness
of any non-empty string is `True`: `DEBUG=false`, `DEBUG=0` or `USE_AMP=False` switches the
option ON, and with a `false` default it is on even when the variable is unset — a debug
subset replaces the training data, AMP or EMA is enabled against the config, and nothing
fails. zotero-arxiv-daily shipped `debug: ${oc.env:DEBUG,null}` and later changed it to
`${oc.decode:${oc.env:DEBUG,null}}`, the fix OmegaConf issue 574 introduced `oc.decode` for.

## How to fix it

Wrap the interpolation: `debug: ${oc.decode:${oc.env:DEBUG,false}}` (OmegaConf >= 2.1
parses "false", "0", "null" into bool/int/None), or declare the key in a typed structured
config (`debug: bool = False`) so OmegaConf converts the string, or parse it in code
(`str(cfg.debug).lower() in ("1", "true", "yes")`).

## When preflight stays silent

* The value is wrapped in `oc.decode`, is part of a longer string (`${oc.env:HOME}/data`),
  or sits under `hydra:` or the defaults list.
* The key is an annotated field of a class in the job's code (a structured-config schema
  converts the string), or holds a plain value at another key path of the job's configs
  (the same path in a base file, `executor.debug: false` under the env value, is only the
  default the env value replaces).
* The code compares the key with a string, lower-cases it, or passes it through a converter
  (`strtobool`, `int`, `json.loads`) before testing it, or never tests its truthiness.
"""
    bad_examples = examples("preflight.rules.plan._pf196_examples", "BAD")
    good_examples = examples("preflight.rules.plan._pf196_examples", "GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        candidates: dict[str, tuple[Any, tuple[str, ...], str, Optional[str]]] = {}
        loaded = []
        for _text, cfg in yaml_files(pctx, _NEEDLE):
            loaded.append(cfg)
            for path, key, var, default in _env_values(cfg.data):
                candidates.setdefault(key, (cfg, path, var, default))
        if not candidates:
            return
        others: set[str] = set()
        for cfg in loaded:
            _other_keys(cfg.data, {k: v[1] for k, v in candidates.items()}, others)
        files = job_files(pctx)
        typed: set[str] = set()
        for _, tree in files:
            typed |= _typed_fields(tree)
        done: set[str] = set()
        for display, tree in files:
            for report, tested in truth_tests(tree):
                name = config_key_of(tested)
                if name is None or name not in candidates or name in others or name in typed or name in done:
                    continue
                if any(string_handled(t, name) or _converted(t, name) for _, t in files):
                    continue
                done.add(name)
                cfg, path, var, default = candidates[name]
                line = cfg.line_of(path) or 1
                if default is not None and default.lower() in _BOOL_WORDS:
                    when = (f"even with {var} unset the default becomes the string {default!r}, which is true; "
                            f"and {var}=false or {var}=0 is true as well")
                else:
                    when = f"{var}=false or {var}=0 gives the string 'false'/'0', which is true"
                yield pctx.location_finding(
                    self, display, getattr(report, "lineno", 1),
                    f"`{ast.unparse(report)[:80]}` takes the truthiness of `{name}`, which {cfg.path}:{line} sets to "
                    f"`${{oc.env:{var}{',' + default if default is not None else ''}}}`: oc.env returns a string "
                    f"(OmegaConf issue 573), so {when} — the option is switched on. Write "
                    f"`${{oc.decode:${{oc.env:{var}{',' + default if default is not None else ''}}}}}` or give "
                    f"`{name}` a typed schema field",
                    evidence=[Evidence(line=line, message=f"`{name}` is a raw oc.env string here", path=cfg.path)])
