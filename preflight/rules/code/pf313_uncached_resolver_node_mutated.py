"""PF313 uncached-resolver-node-mutated: a config node built by a resolver without ``use_cache=True`` is modified; the change is lost."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples


def _uncached_resolvers(ctx: FileContext) -> dict[str, ast.Call]:
    """Resolver name -> its ``register_new_resolver`` call, for those registered without ``use_cache=True``."""
    out: dict[str, ast.Call] = {}
    for call in ctx.nodes(ast.Call):
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr == "register_new_resolver"):
            continue
        if not call.args or not (isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)):
            continue
        cached = [kw.value for kw in call.keywords if kw.arg == "use_cache"]
        if cached and not (isinstance(cached[0], ast.Constant) and cached[0].value is False):
            continue  # use_cache=True, or a value we cannot read
        out[call.args[0].value] = call
    return out


def _resolved_keys(ctx: FileContext, names: dict[str, ast.Call]) -> dict[str, str]:
    """Config key -> resolver name, for keys whose value is ``"${name:...}"`` in this file: a dataclass
    field default, a dict literal's value or a keyword argument."""
    alternatives = "|".join(re.escape(n) for n in names)
    pattern = re.compile(r"^\$\{(" + alternatives + r"):[^}]*\}$")
    out: dict[str, str] = {}

    def note(key: Optional[str], value: Optional[ast.expr]) -> None:
        if key and isinstance(value, ast.Constant) and isinstance(value.value, str):
            found = pattern.match(value.value.strip())
            if found:
                out[key] = found.group(1)

    for ann in ctx.nodes(ast.AnnAssign):
        if isinstance(ann.target, ast.Name):
            note(ann.target.id, ann.value)
    for literal in ctx.nodes(ast.Dict):
        for key, value in zip(literal.keys, literal.values):
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                note(key.value, value)
    for call in ctx.nodes(ast.Call):
        for kw in call.keywords:
            note(kw.arg, kw.value)
    return out


def _key_chain(target: ast.expr) -> list[str]:
    """``cfg.optim.lr`` -> ["optim", "lr"]; ``cfg["optim"]["lr"]`` likewise (outermost last)."""
    keys: list[str] = []
    node = target
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Attribute):
            keys.append(node.attr)
        elif isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
            keys.append(node.slice.value)
        else:
            keys.append("")
        node = node.value
    return keys[::-1]


@register
class UncachedResolverNodeMutated(Rule):
    code = "PF313"
    needs_text = ("register_new_resolver",)
    name = "uncached-resolver-node-mutated"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = "A config node produced by a resolver registered without `use_cache=True` is modified: the change is lost on the next access"
    explanation = """
## What it finds

A custom resolver registered with `OmegaConf.register_new_resolver("name", fn)` (no
`use_cache=True`), a key of the same file whose value is `"${name:...}"` (a dataclass field
default, a dict value, a keyword argument), and an assignment below that key
(`cfg.optim.lr = args.lr`, `cfg["optim"]["lr"] = ...`).

## Why it matters

OmegaConf calls a resolver again on every access unless it was registered with
`use_cache=True` (omegaconf issue 1079, "Modifying interpolated dictionary does not
stick"; the maintainer: "Resolvers are running every time you are accessing them. There is
mechanism to cache the result ... use_cache=True"). The assignment changes a node that the
next `cfg.optim` builds afresh, so the value set from the command line is silently
dropped: every run of a sweep trains with the resolver's defaults.

## How to fix it

Register the resolver with `use_cache=True`, or build the node without a resolver.

## When preflight stays silent

* The resolver is registered with `use_cache=True`, or no assignment reaches below a key
  that it fills (a whole-key assignment `cfg.optim = ...` replaces the interpolation and
  sticks).
"""
    bad_examples = examples("preflight.rules.code._pf313_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf313_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if not ctx.mentions("register_new_resolver"):
            return
        resolvers = _uncached_resolvers(ctx)
        keys = _resolved_keys(ctx, resolvers) if resolvers else {}
        if not keys:
            return
        targets: list[ast.expr] = []
        for node in ctx.nodes(ast.Assign):
            targets.extend(node.targets)
        for aug in ctx.nodes(ast.AugAssign):
            targets.append(aug.target)
        reported: set[str] = set()
        for target in sorted(targets, key=lambda n: (n.lineno, n.col_offset)):
            chain = _key_chain(target)
            hit = next((k for k in chain[:-1] if k in keys), None)
            if hit is None or hit in reported:
                continue
            reported.add(hit)
            name = keys[hit]
            line = resolvers[name].lineno
            yield ctx.finding(
                self, target,
                f"`{ast.unparse(target)}` modifies the node that the resolver `{name}` (registered at line {line} "
                f"without use_cache=True) builds for `{hit}`: OmegaConf runs the resolver again on every access, so "
                f"the next read of `{hit}` returns its defaults and this assignment is lost (omegaconf issue 1079); "
                "register the resolver with use_cache=True")
