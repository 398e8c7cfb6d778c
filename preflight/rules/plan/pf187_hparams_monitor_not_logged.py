"""PF187 hparams-monitor-not-logged: a checkpoint/early-stopping ``monitor`` read from the module's hparams,
whose value in the launched config is a key the module never logs."""

from __future__ import annotations

import ast
import difflib
import re
from pathlib import Path
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._logged_keys import key_pattern
from preflight.rules.plan._yaml_job_files import yaml_files

_MONITORS = ("ModelCheckpoint", "EarlyStopping")
_CONFIG_SUFFIXES = (".yaml", ".yml")


def _hparams_key(node: ast.AST) -> Optional[str]:
    """``X`` of ``self.hparams.X``, ``self.hparams["X"]`` or ``self.hparams.get("X", ...)``."""
    def is_hparams(n: ast.AST) -> bool:
        return isinstance(n, ast.Attribute) and n.attr in ("hparams", "hp") and isinstance(n.value, ast.Name) \
            and n.value.id == "self"
    if isinstance(node, ast.Attribute) and is_hparams(node.value):
        return node.attr
    if isinstance(node, ast.Subscript) and is_hparams(node.value) and isinstance(node.slice, ast.Constant) \
            and isinstance(node.slice.value, str):
        return node.slice.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
            and is_hparams(node.func.value) and node.args and isinstance(node.args[0], ast.Constant) \
            and isinstance(node.args[0].value, str):
        return node.args[0].value
    return None


def _lightning_module(cls: ast.ClassDef) -> bool:
    bases = [ast.unparse(b) for b in cls.bases]
    return bool(bases) and all(b.rsplit(".", 1)[-1] == "LightningModule" for b in bases)


def _dict_keys(node: ast.AST, methods: dict[str, ast.FunctionDef]) -> Optional[list[str]]:
    """The string keys of a dict literal, or of the dict literal every ``return`` of ``self.method(...)`` gives."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("items", "keys") \
            and not node.args:
        return _dict_keys(node.func.value, methods)
    if isinstance(node, ast.Dict):
        if all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.keys):
            return [str(k.value) for k in node.keys if isinstance(k, ast.Constant)]
        return None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
            and node.func.value.id == "self" and node.func.attr in methods:
        returns = [r for r in ast.walk(methods[node.func.attr]) if isinstance(r, ast.Return)]
        found = [_dict_keys(r.value, {}) if r.value is not None else None for r in returns]
        if not found or any(f is None for f in found):
            return None
        return sorted({k for f in found if f is not None for k in f})
    return None


class _Keys:
    """The keys ``self.log`` writes in one class: literals (loop keys over a dict literal expanded) and
    patterns; ``complete`` False when one cannot be read."""

    def __init__(self, cls: ast.ClassDef) -> None:
        self.literals: set[str] = set()
        self.patterns: list[str] = []
        self.complete = True
        methods = {f.name: f for f in cls.body if isinstance(f, ast.FunctionDef)}
        for fn in methods.values():
            self._read(fn, methods, {})

    def _read(self, node: ast.AST, methods: dict[str, ast.FunctionDef], bound: dict[str, list[str]]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.For):
                names = [child.target] if isinstance(child.target, ast.Name) else (
                    list(child.target.elts[:1]) if isinstance(child.target, ast.Tuple) else [])
                keys = _dict_keys(child.iter, methods)
                inner = dict(bound)
                if keys is not None and names and isinstance(names[0], ast.Name):
                    inner[names[0].id] = keys
                for part in child.body:
                    self._visit(part, methods, inner)
                continue
            self._visit(child, methods, bound)

    def _visit(self, node: ast.AST, methods: dict[str, ast.FunctionDef], bound: dict[str, list[str]]) -> None:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "self":
            if node.func.attr == "log_dict":
                self.complete = False
            elif node.func.attr == "log":
                key = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "name"), None)
                self._key(key, bound)
        self._read(node, methods, bound)

    def _key(self, key: Optional[ast.AST], bound: dict[str, list[str]]) -> None:
        if isinstance(key, ast.JoinedStr):
            holes = [v for v in key.values if isinstance(v, ast.FormattedValue)]
            if len(holes) == 1 and isinstance(holes[0].value, ast.Name) and holes[0].value.id in bound \
                    and holes[0].conversion == -1 and holes[0].format_spec is None:
                for value in bound[holes[0].value.id]:
                    self.literals.add("".join(str(v.value) if isinstance(v, ast.Constant) else value
                                              for v in key.values))
                return
        pattern = key_pattern(key) if key is not None else None
        if pattern is None:
            self.complete = False
        else:
            self.patterns.append(pattern)

    def has(self, key: str) -> bool:
        stem = re.sub(r"_(step|epoch)$", "", key)
        return key in ("epoch", "step") or bool({key, stem} & self.literals) or any(
            re.fullmatch(p, key) or re.fullmatch(p, stem) for p in self.patterns)


def _configs(pctx: PlanContext, key: str) -> list[Any]:
    """The YAML configs named on the launch line that set top-level ``key`` to a string."""
    named = {str(Path(pctx.project.root, t).resolve()) for t in (pctx.project.argv or ())
             if t.endswith(_CONFIG_SUFFIXES)}
    if not named:
        return []
    out = []
    for _text, cfg in yaml_files(pctx, re.compile(rf"(?m)^{re.escape(key)}\s*:")):
        if str(Path(pctx.project.root, cfg.path).resolve()) in named and isinstance(cfg.data, dict) \
                and isinstance(cfg.data.get(key), str):
            out.append(cfg)
    return out


@register
class HparamsMonitorNotLogged(PlanRule):
    code = "PF187"
    name = "hparams-monitor-not-logged"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("`ModelCheckpoint`/`EarlyStopping(monitor=self.hparams.X)`, and the launched config sets X to a key "
               "the module never logs: Lightning stops at the first validation end")
    explanation = """
## What it finds

A LightningModule that builds `ModelCheckpoint(monitor=self.hparams.X)` or
`EarlyStopping(monitor=...)` (also `self.hparams["X"]`, `self.hparams.get("X")`), launched with
a YAML config on the command line whose top-level `X` is a key that none of the module's
`self.log(...)` calls writes. Keys built in a loop over a dict literal (`for key, value in
self.compute_metrics(batch).items(): self.log(f"validation/{key}", value)`, where every
`return` of `compute_metrics` is a dict literal) are expanded to the literal keys.

## Why it matters

Lightning looks the monitored key up at the end of the first validation epoch and stops with
"`ModelCheckpoint(monitor='validation/nll_dec')` could not find the monitored key in the
returned metrics" (vislearn/FFF issue 3: the config monitored `validation/nll_dec` while the
model logs `validation/nll_decoder`). PF543 reads string-literal monitors; this rule follows
the monitor into the config the launch names.

## How to fix it

Set X in the config to a key the module logs (`validation/nll_decoder`).

## When preflight stays silent

* The module calls `self.log_dict(...)`, or logs a key preflight cannot write out, or the
  class has bases other than `LightningModule` (keys may be logged elsewhere).
* No YAML config named on the launch line sets X, or X is not a string there.
* An f-string key with a part preflight cannot expand matches the monitored key as a pattern.
"""
    bad_examples = examples("preflight.rules.plan._pf187_examples", "BAD")
    good_examples = examples("preflight.rules.plan._pf187_examples", "GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if not text or "hparams" not in text or "monitor" not in text:
                continue
            for cls in ast.walk(script.tree):
                if not isinstance(cls, ast.ClassDef) or not _lightning_module(cls):
                    continue
                keys: Optional[_Keys] = None
                for call in ast.walk(cls):
                    if not isinstance(call, ast.Call):
                        continue
                    func = call.func
                    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                    monitor = next((k.value for k in call.keywords if k.arg == "monitor"), None)
                    key = _hparams_key(monitor) if name in _MONITORS and monitor is not None else None
                    if key is None or monitor is None:
                        continue
                    keys = keys or _Keys(cls)
                    if not keys.complete or not (keys.literals or keys.patterns):
                        break
                    for cfg in _configs(pctx, key):
                        value = cfg.data[key]
                        if keys.has(value):
                            continue
                        close = difflib.get_close_matches(value, sorted(keys.literals), n=1, cutoff=0.6)
                        hint = f" (`{close[0]}` is logged)" if close else ""
                        yield pctx.config_finding(
                            self, cfg, (key,),
                            f"`{key}: {value}` is the key `{name}(monitor=self.hparams.{key})` in `{cls.name}` "
                            f"monitors, but no `self.log` call of `{cls.name}` writes it{hint}: Lightning stops "
                            "at the end of the first validation epoch with \"could not find the monitored key in "
                            "the returned metrics\". Monitor a key the module logs",
                            evidence=[pctx.code_evidence(script, monitor, "the monitor is read from the hparams here")])
