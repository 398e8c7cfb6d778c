"""PF617 yaml-none-string-checked-as-null: a YAML value written ``None`` (the string "None" to YAML)
for a key the code tests with ``is None``."""

from __future__ import annotations

import ast
import os
import re
from typing import Any, Iterable, Iterator, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._config_keys import config_key_of
from preflight.rules.plan._job_files import job_files
from preflight.rules.plan._yaml_job_files import walk_yaml

_BARE_NONE = re.compile(r":\s*None\s*(#.*)?$")


def _none_strings(data: Any, prefix: tuple = ()) -> Iterator[tuple[tuple, str]]:
    """(key path, key) of every mapping value that is the string "None"."""
    if isinstance(data, dict):
        for key, value in data.items():
            if not isinstance(key, str):
                continue
            if value == "None":
                yield (*prefix, key), key
            else:
                yield from _none_strings(value, (*prefix, key))


def _blank_values(data: Any, prefix: tuple = ()) -> Iterator[tuple[tuple, str]]:
    """(key path, key) of every mapping value that loaded as null (checked against the line afterwards: only a
    value left empty counts, not a written ``null`` or ``~``)."""
    if isinstance(data, dict):
        for key, value in data.items():
            if not isinstance(key, str):
                continue
            if value is None:
                yield (*prefix, key), key
            else:
                yield from _blank_values(value, (*prefix, key))


def _get_defaults(files: list[tuple[str, ast.AST]]) -> dict[str, tuple[str, ast.Call]]:
    """Keys read as ``<cfg>.get("key", <a constant other than None>)`` by the job's code."""
    found: dict[str, tuple[str, ast.Call]] = {}
    for display, tree in files:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
                    and len(node.args) == 2 and not node.keywords \
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str) \
                    and isinstance(node.args[1], ast.Constant) and node.args[1].value is not None:
                found.setdefault(node.args[0].value, (display, node))
    return found


def _blank_line(line: str, key: str) -> bool:
    return re.fullmatch(rf"\s*(-\s+)?{re.escape(key)}\s*:\s*(#.*)?", line) is not None


def _none_tests(files: list[tuple[str, ast.AST]]) -> tuple[dict[str, tuple[str, ast.Compare]], set[str]]:
    """Keys compared with ``None`` (``is None``, ``is not None``, ``== None``) -> (file, comparison), and keys
    also compared with the string "None" (the code handles the string)."""
    tested: dict[str, tuple[str, ast.Compare]] = {}
    strings: set[str] = set()
    for display, tree in files:
        for node in ast.walk(tree):
            if not isinstance(node, ast.Compare) or len(node.ops) != 1:
                continue
            left, right = node.left, node.comparators[0]
            for a, b in ((left, right), (right, left)):
                if isinstance(a, ast.Call) and isinstance(a.func, ast.Attribute) and a.func.attr in ("lower", "upper") \
                        and not a.args:
                    a = a.func.value
                if isinstance(a, ast.Call) and isinstance(a.func, ast.Name) and a.func.id == "str" and a.args:
                    a = a.args[0]
                key = config_key_of(a)
                if key is None:
                    continue
                if isinstance(b, ast.Constant) and b.value is None and isinstance(node.ops[0], (
                        ast.Is, ast.IsNot, ast.Eq, ast.NotEq)):
                    tested.setdefault(key, (display, node))
                elif any(isinstance(c, ast.Constant) and isinstance(c.value, str) and c.value.lower() in ("none", "null")
                         for c in ast.walk(b)):
                    strings.add(key)
    return tested, strings


def _handles_string(func: ast.AST, param: str) -> bool:
    """``param == "None"`` / ``str(param).lower() == "none"`` in ``func``: the callee handles the string."""
    for node in ast.walk(func):
        if isinstance(node, ast.Compare) and any(isinstance(n, ast.Name) and n.id == param for n in ast.walk(node)) \
                and any(isinstance(c, ast.Constant) and isinstance(c.value, str) and c.value.lower() in ("none", "null")
                        for c in ast.walk(node)):
            return True
    return False


def _none_defaults(files: list[tuple[str, ast.AST]]) -> dict[str, tuple[str, ast.Call, str]]:
    """Keys passed as ``f(param=config["k"])`` to a function of the job declared ``def f(..., param=None)``
    (None is its "off" value) that does not compare ``param`` with the string "None" -> (file, call, f)."""
    defaults: dict[tuple[str, str], bool] = {}
    for _display, tree in files:
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                args = fn.args
                positional = [*args.posonlyargs, *args.args]
                pairs: list[tuple[ast.arg, Optional[ast.expr]]] = list(
                    zip(positional[len(positional) - len(args.defaults):], args.defaults))
                pairs += list(zip(args.kwonlyargs, args.kw_defaults))
                for arg, default in pairs:
                    if isinstance(default, ast.Constant) and default.value is None:
                        signature = (fn.name, arg.arg)
                        defaults[signature] = defaults.get(signature, False) or _handles_string(fn, arg.arg)
    found: dict[str, tuple[str, ast.Call, str]] = {}
    if not defaults:
        return found
    for display, tree in files:
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            for kw in node.keywords:
                if kw.arg is None or defaults.get((name, kw.arg), True):
                    continue
                key = config_key_of(kw.value)
                if key is not None:
                    found.setdefault(key, (display, node, f"{name}({kw.arg}=None)"))
    return found


def _yaml_files(pctx: PlanContext) -> list[tuple[str, Any]]:
    """(text, loaded config) of the job's YAML configs and of the YAML files under the project root that
    hold a bare ``: None`` (configs a script opens itself are often not recognised as configs)."""

    out: list[tuple[str, Any]] = []
    seen: set[str] = set()
    for src, cfg in pctx.project.configs:
        seen.add(os.path.abspath(src.path))
        if cfg.kind == "yaml" and "None" in src.text:
            out.append((src.text, cfg))
    out.extend(walk_yaml(pctx, re.compile(r": None"), seen))
    return out


@register
class YamlNoneStringCheckedAsNull(PlanRule):
    code = "PF617"
    name = "yaml-none-string-checked-as-null"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A YAML value written `None` is the string \"None\", and the code tests that key with `is None`: "
               "the \"nothing\" branch is never taken")
    explanation = """
## What it finds

A key in a YAML config of the job whose value is the bare word `None`
(`lr_scheduler: None`), while a script of the job (or a project module it imports)
compares that key with `None` (`config["lr_scheduler"] is None`, `cfg.scheduler is not
None`, `config.get("lr_scheduler") == None`), or passes it as a keyword argument to a
function of the job that declares that parameter with the default `None`
(`build_flow(..., cond_dim=config["cond_dim"])` with `def build_flow(..., cond_dim=None)`:
None is the function's "off" value; jester PR 69, where `cond_dim: None` configured a
conditional flow with the context size "None").

The reverse is reported too: a key of a job's YAML config left **empty** (`max_grad_norm:`
with nothing after the colon, not a nested mapping) while the code reads it with
`.get("max_grad_norm", 1.0)` (a constant default other than None). An empty value is null to
YAML and OmegaConf, and the key exists, so `get` returns None, not the default (hydra issue
2825, "`.get()` default value doesn't work on blank values in config"; the maintainers: like
a Python dict): an `if max_grad_norm:` guard then skips gradient clipping. Silent for an
explicit `null` or `~` (a deliberate None) and for keys the code does not read with a default.

## Why it matters

YAML's null is `null`, `~` or an empty value; `None` is not in the null pattern of
YAML 1.1 or 1.2, so PyYAML (`yaml.safe_load`) and OmegaConf (Hydra) both load it as the
**string** `"None"` (PyYAML resolver.py: the `tag:yaml.org,2002:null` regexp is
`~|null|Null|NULL|` only). The code's `is None` test is then false: the "no
scheduler" branch is skipped and the string reaches the code that expects a real value
("NotImplementedError: Scheduler None is not implemented", ProDet issue 8), or a
`None`-guarded option is switched on with the value `"None"`.

## How to fix it

Write `null` (or `~`, or leave the value empty): `lr_scheduler: null`.

## When preflight stays silent

* The value is quoted (`'None'`: a deliberate string) or is `null`/`~`.
* No script of the job compares that key with `None` or passes it as a keyword argument
  to a function of the job whose default for that parameter is `None`; or the code also
  compares it with the string (`== "None"`, `str(x).lower() == "none"`, in the callee:
  `if cond_dim == "None"`): it handles the string itself.
"""
    bad_examples = examples("preflight.rules.plan._pf617_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf617_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        yield from self._blank_read_with_default(pctx)
        candidates = []
        for text, cfg in _yaml_files(pctx):
            lines = text.splitlines()
            for path, key in _none_strings(cfg.data):
                line = cfg.line_of(path)
                if line is not None and 0 < line <= len(lines) and _BARE_NONE.search(lines[line - 1]):
                    candidates.append((cfg, path, key))
        if not candidates:
            return
        files = job_files(pctx)
        tested, strings = _none_tests(files)
        passed = _none_defaults(files)
        for cfg, path, key in candidates:
            if key in strings:
                continue
            if key not in tested and key in passed:
                display, call, signature = passed[key]
                yield pctx.config_finding(
                    self, cfg, path,
                    f"`{key}: None` is the string \"None\" in YAML (null is written `null` or `~`), but the code "
                    f"passes it to `{signature}` ({display}:{call.lineno}), whose default None is its \"off\" "
                    f"value: the function receives the string \"None\" and takes the branch for a real `{key}`. "
                    f"Write `{key}: null`",
                    evidence=[Evidence(line=call.lineno, message=f"`{key}` is passed where None means off",
                                       path=display)])
                continue
            if key not in tested:
                continue
            display, node = tested[key]
            yield pctx.config_finding(
                self, cfg, path,
                f"`{key}: None` is the string \"None\" in YAML (null is written `null` or `~`), but the code tests "
                f"`{ast.unparse(node)[:70]}` ({display}:{node.lineno}): the test is false for the string, so the "
                f"code takes the branch for a real `{key}` with the value \"None\". Write `{key}: null`",
                evidence=[Evidence(line=node.lineno, message=f"`{key}` is compared with None here", path=display)])

    def _blank_read_with_default(self, pctx: PlanContext) -> Iterable[Finding]:
        """``key:`` left empty in a job's YAML config (null to YAML and OmegaConf) while the code reads it with
        ``.get("key", default)``: the key exists, so ``get`` returns None, not the default (hydra issue 2825)."""
        from preflight.rules.plan._pf508_support import hydra_yaml_configs
        from preflight.sources import read_text_limited

        texts = {os.path.abspath(str(src.path)): src.text for src, _cfg in pctx.project.configs}
        blanks = []
        for cfg in hydra_yaml_configs(pctx):
            if not isinstance(cfg.data, dict):
                continue
            where = str(cfg.path) if os.path.isabs(str(cfg.path)) else str(pctx.project.root / str(cfg.path))
            text = texts.get(os.path.abspath(where))
            if text is None:
                try:
                    text = read_text_limited(where, errors="replace")
                except OSError:  # InputRefused is an OSError
                    continue
            lines = text.splitlines()
            for path, key in _blank_values(cfg.data):
                line = cfg.line_of(path)
                if line is not None and 0 < line <= len(lines) and _blank_line(lines[line - 1], key):
                    blanks.append((cfg, path, key))
        if not blanks:
            return
        reads = _get_defaults(job_files(pctx))
        for cfg, path, key in blanks:
            if key not in reads:
                continue
            display, call = reads[key]
            yield pctx.config_finding(
                self, cfg, path,
                f"`{key}:` is left empty, which YAML and OmegaConf load as an existing key holding null, but the "
                f"code reads it with `{ast.unparse(call)[:80]}` ({display}:{call.lineno}): `get` returns the "
                f"default only for a missing key, so it returns None here, not {ast.unparse(call.args[1])} "
                f"(hydra issue 2825). Write the value (`{key}: {ast.unparse(call.args[1])}`) or delete the key",
                evidence=[Evidence(line=call.lineno, message=f"`{key}` read with a default", path=display)])
