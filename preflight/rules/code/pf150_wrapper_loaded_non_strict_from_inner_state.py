"""PF150 wrapper-loaded-non-strict-from-inner-state: a checkpoint saved from ``W.module.state_dict()`` (no
``module.`` prefix) is loaded back into the ``nn.DataParallel``/DDP wrapper ``W`` with ``strict=False``: no key
matches and nothing is loaded."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg, qualify
from preflight.rules.base import Rule, examples
from preflight.rules.code._parallel_wrappers import wrapped_names, wrapper_assigns, wrapper_call

# texts that show the file adds, strips or otherwise handles the ``module.`` prefix of the keys
_PREFIX_TEXTS = ("consume_prefix_in_state_dict_if_present", "removeprefix", "[7:]", "add_prefix")


def _inner_saved(ctx: FileContext, names: set[str]) -> set[str]:
    """Wrapper names ``W`` whose ``W.module.state_dict()`` is handed to ``torch.save``, in its argument or in a
    value bound to the name saved."""
    bound: dict[str, list[ast.expr]] = {}
    for assign in ctx.nodes(ast.Assign):
        for target in assign.targets:
            if isinstance(target, ast.Name):
                bound.setdefault(target.id, []).append(assign.value)
    out: set[str] = set()
    for call in ctx.nodes(ast.Call):
        if qualify(ctx, call.func) != "torch.save" or not call.args:
            continue
        saved = call.args[0]
        values = [saved, *(bound.get(saved.id, []) if isinstance(saved, ast.Name) else [])]
        for value in values:
            for node in ast.walk(value):
                owner = _inner_state_owner(node)
                if owner in names:
                    out.add(owner)
    return out


def _inner_state_owner(node: ast.AST) -> Optional[str]:
    """``W`` of a ``W.module.state_dict()`` call."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "state_dict":
        inner = node.func.value
        if isinstance(inner, ast.Attribute) and inner.attr == "module" and isinstance(inner.value, ast.Name):
            return inner.value.id
    return None


def _handles_prefix(ctx: FileContext) -> bool:
    """The file strips or adds the ``module.`` prefix itself (a ``"module."`` string, ``[7:]``, ...)."""
    if any(t in ctx.parsed.source.text for t in _PREFIX_TEXTS):
        return True
    return any(isinstance(c.value, str) and "module" in c.value for c in ctx.nodes(ast.Constant))


@register
class WrapperLoadedNonStrictFromInnerState(Rule):
    code = "PF150"
    name = "wrapper-loaded-non-strict-from-inner-state"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    summary = ("a checkpoint saved from `W.module.state_dict()` is loaded into the DataParallel/DDP wrapper `W` "
               "with `strict=False`: no key matches the `module.`-prefixed names, nothing is loaded and no error "
               "is raised")
    needs_text = ("strict", "DataParallel", ".module.state_dict")
    explanation = """
## What it finds

A script that binds a model wrapped in `nn.DataParallel(...)` or `DistributedDataParallel(...)`
to a name `W`, saves the inner network's weights (`torch.save({..., "state_dict":
W.module.state_dict()}, path)`), and loads a checkpoint back with `W.load_state_dict(...,
strict=False)` on the wrapper itself, after wrapping it in the same function.

## Why it matters

The wrapper registers the network as its submodule `module`, so every key it expects starts with
`module.` (`module.conv1.weight`), while `W.module.state_dict()` saved keys without the prefix
(`conv1.weight`). A strict load would stop with "Missing key(s) ... Unexpected key(s)"; with
`strict=False` every saved key is merely "unexpected", every parameter "missing", nothing is
copied and no error is raised (PyTorch's `load_state_dict` only returns the two lists). The
"resumed" run continues from random weights while the optimizer state and epoch counter are
restored (OpenLDN issue 5: `strict=False` added to silence that error, for the model and the EMA
model).

## How to fix it

Load into the network the keys were saved from, strictly: `W.module.load_state_dict(sd)`. Keep
`strict=False` only where some keys are meant to be absent, and check the returned
`missing_keys`/`unexpected_keys`.

## When preflight stays silent

* The load is into `W.module`, or strict (the default: a mismatch raises).
* The file saves only `W.state_dict()` (the wrapper's own, prefixed keys) or never saves
  `W.module.state_dict()`.
* The file handles the prefix itself (a `"module."` string, `[7:]`, `removeprefix`,
  `consume_prefix_in_state_dict_if_present`).
* The load precedes the wrapping, or happens in another function than the wrapping (the name
  may hold the plain network there).
"""
    bad_examples = examples("preflight.rules.code._pf150_examples", "PF150_BAD")
    good_examples = examples("preflight.rules.code._pf150_examples", "PF150_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        names = wrapped_names(ctx)
        if not names or _handles_prefix(ctx):
            return
        saved = _inner_saved(ctx, set(names))
        if not saved:
            return
        wraps = [w for w in wrapper_assigns(ctx) if w.targets[0].id in saved]  # type: ignore[attr-defined]
        for call in ctx.nodes(ast.Call):
            func = call.func
            if not (isinstance(func, ast.Attribute) and func.attr == "load_state_dict"
                    and isinstance(func.value, ast.Name) and func.value.id in saved):
                continue
            strict = kwarg(call, "strict")
            if not (isinstance(strict, ast.Constant) and strict.value is False):
                continue
            name = func.value.id
            scope = ctx.enclosing_function(call)
            wrap = next((w for w in wraps if w.targets[0].id == name  # type: ignore[attr-defined]
                         and ctx.enclosing_function(w) is scope and w.lineno < call.lineno), None)
            if wrap is None:
                continue
            built = wrapper_call(wrap)
            kind = ast.unparse(built.func) if isinstance(built, ast.Call) else "DataParallel"
            yield ctx.finding(
                self, call,
                f"`{name}` is an `{kind}` wrapper (line {wrap.lineno}) whose keys "
                f"all start with `module.`, but the checkpoints this script writes hold `{name}.module.state_dict()` "
                f"(no prefix); `{name}.load_state_dict(..., strict=False)` matches no key, loads nothing and raises "
                f"nothing, so the run continues from the untrained weights. Load strictly into `{name}.module`",
                evidence=[ctx.evidence(wrap, "the model is wrapped here")])
