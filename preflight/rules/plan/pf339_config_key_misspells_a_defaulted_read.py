"""PF339 config-key-misspells-a-defaulted-read: a key of a config file that no script names, a
near-miss spelling of a key the code reads with ``.get(name, default)``: the default wins."""

from __future__ import annotations

import ast
import difflib
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_MIN_LEN = 8
_CUTOFF = 0.88


def _defaulted_reads(tree: ast.AST) -> dict[str, ast.Call]:
    """``X.get("name", default)`` calls (a default given): name -> call."""
    out: dict[str, ast.Call] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
                and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str) \
                and (len(node.args) >= 2 or any(k.arg == "default" for k in node.keywords)):
            out.setdefault(node.args[0].value, node)
    return out


def _named(tree: ast.AST) -> set[str]:
    """Every string constant, attribute name and keyword name of a script: the keys it may read."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.add(node.value)
        elif isinstance(node, ast.Attribute):
            out.add(node.attr)
        elif isinstance(node, ast.keyword) and node.arg:
            out.add(node.arg)
        elif isinstance(node, ast.Name):
            out.add(node.id)
    return out


def _near_miss(key: str, read: str) -> bool:
    if key == read or min(len(key), len(read)) < _MIN_LEN:
        return False
    if key.replace("_", "") == read.replace("_", ""):
        return True
    if key.strip("0123456789") != key or read.strip("0123456789") != read:
        return False  # layer1 / layer2
    key_words, read_words = key.split("_"), read.split("_")
    if set(key_words) < set(read_words) or set(read_words) < set(key_words):
        return False  # warmup_steps / lr_warmup_steps: another key, not a misspelling
    if len(key_words) == len(read_words) and sum(a != b for a, b in zip(key_words, read_words)) == 1:
        a, b = next((a, b) for a, b in zip(key_words, read_words) if a != b)
        if difflib.SequenceMatcher(None, a, b).ratio() < 0.6:
            return False  # train_batch_size / eval_batch_size: one word replaced by another
    return difflib.SequenceMatcher(None, key, read).ratio() >= _CUTOFF


def _levels(data: Any, prefix: tuple[str, ...] = (), depth: int = 0) -> Iterable[tuple[tuple[str, ...], dict]]:
    if not isinstance(data, dict) or depth > 3:
        return
    yield prefix, data
    for key, value in data.items():
        if isinstance(key, str):
            yield from _levels(value, (*prefix, key), depth + 1)


@register
class ConfigKeyMisspellsADefaultedRead(PlanRule):
    code = "PF339"
    name = "config-key-misspells-a-defaulted-read"
    severity = Severity.WARNING
    category = Category.CONFIG
    summary = ("A config key no script names is a misspelling of a key the code reads with `.get(name, default)`: "
               "the default is used and the configured value never is")
    explanation = """
## What it finds

A key of a YAML/JSON config of the job (`gradit_updates_per_pass_count: 2`) that no script
of the job names anywhere, while a script reads a near-miss spelling of it with a default
(`cfg.get("gradient_updates_per_pass_count", DEFAULT)`), and the script reads other keys
of the same config level (so the config is the one it reads).

## Why it matters

`.get` with a default never fails: the misspelled key is ignored and the run trains with
the default, silently ("it's unlikely the user understands that the model wasn't trained
with the specified parameter", LabeliaLabs/distributed-learning-contributivity issue 184:
every partner ran 8 local updates per pass instead of the configured 2).

## How to fix it

Spell the key as the code reads it; and reject unknown keys when the config is loaded
(a dataclass / OmegaConf structured config, or a check against the known names).

## When preflight stays silent

* A script names the config key (it is read somewhere), or the config level has the key the
  code reads as well.
* The two names differ by a digit (`layer1`/`layer2`), one is the other plus a word
  (`warmup_steps`/`lr_warmup_steps`), a whole word is replaced (`train_batch_size`/
  `eval_batch_size`), or either is shorter than 8 letters.
* No script reads another key of the same config level.
"""
    bad_examples = examples("preflight.rules.plan._pf339_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf339_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        reads: dict[str, tuple[Any, ast.Call]] = {}
        named: set[str] = set()
        for script in pctx.scripts:
            for name, call in _defaulted_reads(script.tree).items():
                reads.setdefault(name, (script, call))
            named |= _named(script.tree)
        if not reads:
            return
        for config in pctx.configs:
            for prefix, level in _levels(config.data):
                keys = [k for k in level if isinstance(k, str)]
                if sum(k in named for k in keys) < 2:
                    continue
                for key in keys:
                    if key in named:
                        continue
                    found = self._finding(pctx, config, prefix, key, keys, reads)
                    if found is not None:
                        yield found

    def _finding(self, pctx: PlanContext, config: Any, prefix: tuple[str, ...], key: str, keys: list[str],
                 reads: dict[str, tuple[Any, ast.Call]]) -> Optional[Finding]:
        near = [r for r in reads if r not in keys and _near_miss(key, r)]
        line = config.line_of((*prefix, key))
        if len(near) != 1 or line is None:
            return None
        read = near[0]
        script, call = reads[read]
        default = ast.unparse(call.args[1]) if len(call.args) >= 2 else ast.unparse(
            next(k.value for k in call.keywords if k.arg == "default"))
        where = ".".join((*prefix, key))
        message = (f"`{where}` is named by no script, and `{script.source.display}:{call.lineno}` reads "
                   f"`{read}` with `.get(..., {default})`: the key looks misspelled, so the code never sees the "
                   f"configured value and uses {default}. Spell it `{read}` (and reject unknown keys when the "
                   "config is loaded)")
        evidence = [Evidence(line=call.lineno, path=script.source.display, message=f"reads `{read}` with a default")]
        return pctx.location_finding(self, config.path, line, message, evidence=evidence)
