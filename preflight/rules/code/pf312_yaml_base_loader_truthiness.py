"""PF312 yaml-base-loader-truthiness: a value loaded with ``yaml.BaseLoader`` (every scalar a string) tested as a boolean."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_LOADS = ("load", "load_all")


def _base_loader(call: ast.Call) -> bool:
    """``yaml.load(f, Loader=yaml.BaseLoader)`` / ``yaml.load(f, BaseLoader)``."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name not in _LOADS:
        return False
    loaders = [kw.value for kw in call.keywords if kw.arg == "Loader"] + list(call.args[1:2])
    for node in loaders:
        tail = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
        if tail == "BaseLoader":
            return True
    return False


def _root(node: ast.AST) -> Optional[str]:
    """The name a subscript/attribute chain starts from (``cfg["a"]["b"]`` -> ``cfg``)."""
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _loaded_names(ctx: FileContext) -> tuple[set[str], set[str]]:
    """(names bound to a BaseLoader document, names bound to a value inside one)."""
    docs: set[str] = set()
    for assign in ctx.nodes(ast.Assign):
        if isinstance(assign.value, ast.Call) and _base_loader(assign.value):
            docs.update(t.id for t in assign.targets if isinstance(t, ast.Name))
    values: set[str] = set()
    if not docs:
        return docs, values
    for assign in ctx.nodes(ast.Assign):
        value = assign.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "get":
            value = value.func.value
        if isinstance(value, (ast.Subscript, ast.Attribute)) and _root(value) in docs:
            values.update(t.id for t in assign.targets if isinstance(t, ast.Name))
    return docs, values


def _from_document(node: ast.AST, docs: set[str], values: set[str]) -> bool:
    if isinstance(node, ast.Name):
        return node.id in values
    if isinstance(node, ast.Subscript):
        return _root(node) in docs or _root(node) in values
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        return _root(node.func.value) in docs or _root(node.func.value) in values
    return False


def _truth_tests(ctx: FileContext) -> Iterable[ast.expr]:
    for call in ctx.nodes(ast.Call):
        if isinstance(call.func, ast.Name) and call.func.id == "bool" and len(call.args) == 1:
            yield call.args[0]
    for if_node in ctx.nodes(ast.If):
        yield if_node.test
    for ifexp in ctx.nodes(ast.IfExp):
        yield ifexp.test
    for loop in ctx.nodes(ast.While):
        yield loop.test
    for unary in ctx.nodes(ast.UnaryOp):
        if isinstance(unary.op, ast.Not):
            yield unary.operand
    for boolop in ctx.nodes(ast.BoolOp):
        yield from boolop.values


@register
class YamlBaseLoaderTruthiness(Rule):
    code = "PF312"
    needs_text = ("BaseLoader",)
    name = "yaml-base-loader-truthiness"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("pytorch", "hydra", "transformers")
    summary = "A config loaded with `yaml.BaseLoader` (every scalar a string) is tested as a boolean: `false` is true"
    explanation = """
## What it finds

A value of a YAML document loaded with `yaml.load(f, Loader=yaml.BaseLoader)` (directly, or
through a name bound to it) that the script tests for truth: `bool(cfg["train"]["use_amp"])`,
`if cfg["fp16"]:`, `not flag`, `x and ...`.

## Why it matters

`BaseLoader` resolves no tag: every scalar is a string (pyyaml issue 442: `false_bool:
False` arrives as `"False"`; the maintainer: "yaml.BaseLoader is supposed to do exactly
that, it loads everything as a string. Use SafeLoader instead"). A non-empty string is
true, so `use_amp: false` turns mixed precision on and `shuffle: false` shuffles.

## How to fix it

Load with `yaml.safe_load(f)` (or `Loader=yaml.SafeLoader`), or compare the string
explicitly (`cfg["use_amp"].lower() == "true"`).

## When preflight stays silent

* The document is loaded with another loader, or its values are compared, converted
  (`int(...)`, `float(...)`, `str2bool(...)`) or passed on without a truth test.
"""
    bad_examples = examples("preflight.rules.code._pf312_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf312_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if not ctx.mentions("BaseLoader"):
            return
        docs, values = _loaded_names(ctx)
        if not docs:
            return
        seen: set[int] = set()
        for test in sorted(_truth_tests(ctx), key=lambda n: (n.lineno, n.col_offset)):
            if not _from_document(test, docs, values) or test.lineno in seen:
                continue
            seen.add(test.lineno)
            yield ctx.finding(
                self, test,
                f"`{ast.unparse(test)}` comes from a YAML document loaded with `yaml.BaseLoader`, which reads every "
                "scalar as a string: `false` arrives as \"false\", a non-empty string, so this truth test is true "
                "whatever the config says (pyyaml issue 442); load with `yaml.SafeLoader` (`yaml.safe_load`)")
