"""PF433 option-overwritten-by-random-draw: a parsed command-line option unconditionally replaced by a random draw."""

from __future__ import annotations

import ast
from typing import Callable, Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.analysis.syntax import dotted_name
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import script_index
from preflight.rules.base import Rule, examples

_RANDOM_ROOTS = ("random.", "np.random.", "numpy.random.")
_TORCH_DRAWS = frozenset({"torch.rand", "torch.randn", "torch.randint", "torch.randperm"})


def _leftmost_name(node: ast.AST) -> Optional[str]:
    while True:
        if isinstance(node, (ast.Attribute, ast.Subscript)):
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        else:
            return node.id if isinstance(node, ast.Name) else None


def _is_draw(qualify: Callable[[ast.AST], Optional[str]], call: ast.Call) -> bool:
    """``random.random()``, ``np.random.uniform(...)``, ``torch.randint(...)``, by the text of
    what is called or its import-qualified name."""
    name = dotted_name(call.func)  # a dotted chain unparses to itself
    if name is None:  # `random.Random(0).random()`: its text starts with the leftmost name
        if _leftmost_name(call.func) not in ("random", "np", "numpy"):
            return False
        name = ast.unparse(call.func)
    qual = qualify(call.func) or name
    return qual.startswith(_RANDOM_ROOTS) or name.startswith(_RANDOM_ROOTS) or qual in _TORCH_DRAWS


def _draw_statements(ctx: FileContext) -> set[ast.AST]:
    """The statements that hold a random draw, found from the draws up."""
    qualify = scope_index(ctx).imports.qualify
    out: set[ast.AST] = set()
    for node in ctx.nodes(ast.Call):
        if _is_draw(qualify, node):
            stmt = next((a for a in ctx.ancestors(node) if isinstance(a, ast.stmt)), None)
            if stmt is not None:
                out.add(stmt)
    return out


def _draw(ctx: FileContext, expr: ast.AST) -> Optional[ast.Call]:
    """The first random draw inside ``expr``."""
    qualify = scope_index(ctx).imports.qualify
    for node in ast.walk(expr):
        if isinstance(node, ast.Call) and _is_draw(qualify, node):
            return node
    return None


def _top_level(ctx: FileContext, node: ast.AST) -> bool:
    """A statement of its function's (or the module's) own body: no ``if``/loop/``try`` around it."""
    parent = ctx.parent(node)
    return isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module))


@register
class OptionOverwrittenByRandomDraw(Rule):
    code = "PF433"
    needs_text = ("add_argument",)
    name = "option-overwritten-by-random-draw"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("pytorch",)
    summary = "A command-line option is overwritten with a random draw on every run"
    explanation = """
## What it finds

An assignment `config.lr = ...` to an option the file declares with
`parser.add_argument("--lr", ...)`, whose value is a random draw
(`random.random() * 5e-4`, `np.random.uniform(...)`, `random.choice([...])`,
directly or through a local variable), made on every run: not under an `if`, a
loop or a `try`.

## Why it matters

Leftover hyper-parameter search code: the run ignores the `--lr` given on the
launch line and trains with a different random value each time, and the log
shows a learning rate nobody asked for (Image_Segmentation issue 17: `--lr=0.001`
trained at 0.000212).

## How to fix it

Put the search behind its own switch (`if config.random_search:`), or remove it.

## When preflight stays silent

* The assignment is under an `if` (a search switch, `if args.seed is None:`), a
  loop or a `try`.
* The value is not a random draw, or reads the option itself
  (`args.lr = args.lr * random.uniform(0.9, 1.1)` keeps the user's value as a base;
  `seed = args.seed if args.seed is not None else random.randint(...)` then
  `args.seed = seed` draws only when the option was not given).
* The attribute is not an option the file declares.
"""
    bad_examples = examples("preflight.rules.code._pf433_examples", "PF433_BAD")
    good_examples = examples("preflight.rules.code._pf433_examples", "PF433_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if not ctx.mentions("rand"):
            return  # every draw names random, numpy.random or torch.rand*: no option parsing built
        holders = _draw_statements(ctx)  # an assignment can be reported only if it, or the
        if not holders:  # assignment its value names, holds a draw: the option index only then
            return
        options: Optional[dict] = None
        for node in ctx.nodes(ast.Assign):
            if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Attribute):
                continue
            if node not in holders and not (isinstance(node.value, ast.Name) and any(
                    s in holders for s in getattr(ctx.parent(node), "body", ()))):
                continue
            if options is None:
                options = script_index(ctx).arguments
            target = node.targets[0]
            if not isinstance(target.value, ast.Name) or target.attr not in options:
                continue
            if not _top_level(ctx, node):
                continue
            text = ast.unparse(target)
            if any(isinstance(n, ast.Attribute) and ast.unparse(n) == text for n in ast.walk(node.value)):
                continue  # derived from the user's own value
            draw = _draw(ctx, node.value)
            where: ast.AST = node.value
            if draw is None:
                draw, where = self._through_name(ctx, node)
            if draw is None:
                continue
            flag = options[target.attr][0].flag
            yield ctx.finding(
                self, node,
                f"`{text} = ...` replaces the `{flag}` option with a random draw on every run: the value given on "
                f"the launch line never takes effect and each run trains with a different one. Put the search behind "
                "its own switch (`if config.random_search:`) or remove it",
                evidence=[ctx.evidence(draw, "the random draw")] if where is not node.value else [])

    @staticmethod
    def _through_name(ctx: FileContext, node: ast.Assign) -> tuple[Optional[ast.Call], ast.AST]:
        """``lr = random.random() * 5e-4`` ... ``config.lr = lr`` in the same function body."""
        value = node.value
        if not isinstance(value, ast.Name):
            return None, value
        scope = ctx.parent(node)
        body = getattr(scope, "body", [])
        found: Optional[ast.Call] = None
        for stmt in body:
            if stmt is node:
                break
            if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == value.id
                                                    for t in stmt.targets):
                found = _draw(ctx, stmt.value)
                option = ast.unparse(node.targets[0])
                if any(isinstance(n, ast.Attribute) and ast.unparse(n) == option for n in ast.walk(stmt.value)):
                    found = None  # `seed = args.seed if args.seed is not None else random...`: a fallback
        return found, value
