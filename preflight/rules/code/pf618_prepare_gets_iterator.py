"""PF618 prepare-gets-iterator: ``accelerator.prepare`` is given a generator or iterator that wraps a
DataLoader (``cycle(dl)``, ``iter(dl)``) instead of the DataLoader: it is returned unchanged."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import accelerator_calls, target_text
from preflight.rules.base import Rule, examples

_ITERATORS = frozenset({"itertools.cycle", "itertools.islice", "itertools.chain", "iter", "builtins.iter"})


def _generator_functions(ctx: FileContext) -> set[str]:
    """Module-level functions of the file whose body yields (calling them returns a generator)."""
    out: set[str] = set()
    for fn in getattr(ctx.tree, "body", []):
        if isinstance(fn, ast.FunctionDef) and any(
                isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(fn)
                if ctx.enclosing_function(n) is fn):
            out.add(fn.name)
    return out


@register
class PrepareGetsIterator(Rule):
    code = "PF618"
    needs_text = ("prepare",)
    name = "prepare-gets-iterator"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = ("`accelerator.prepare` is given a generator or iterator built from the DataLoader (`cycle(dl)`, "
               "`iter(dl)`): prepare returns it unchanged, so the data is never sharded or moved to the device")
    explanation = """
## What it finds

`accelerator.prepare(x)` where `x` was assigned, before the call, from a call to a
generator function of the same file (`def cycle(dl): while True: for d in dl: yield d`)
or from `itertools.cycle(...)`, `itertools.islice(...)`, `itertools.chain(...)` or
`iter(...)`.

## Why it matters

`Accelerator.prepare` dispatches on the type of each object (accelerator.py
`_prepare_one`): a `torch.utils.data.DataLoader` is re-built by `prepare_data_loader`
with a sampler or dispatcher per process and moves batches to the device; a module, an
optimizer and a scheduler are wrapped; anything else is returned as it is. A generator
wrapping the DataLoader is "anything else": every process iterates the whole dataset in
the same order, so a multi-GPU run trains each batch N times per step instead of N
different batches, and batches stay on the CPU (denoising-diffusion-pytorch issue 69:
"the batch yielded by dataloader will not be splitted over multi gpus").

## How to fix it

Prepare the DataLoader, then wrap the prepared loader: `dl = accelerator.prepare(dl);
self.dl = cycle(dl)`.

## When preflight stays silent

* The argument is the DataLoader itself, or a name last assigned from something other
  than a generator call (a dataset, a loader factory).
* The generator function is imported (not read), or the assignment is in another
  function than the `prepare` call (for `self.x`: another class).
"""
    bad_examples = examples("preflight.rules.code._pf618_examples", "PF618_BAD")
    good_examples = examples("preflight.rules.code._pf618_examples", "PF618_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        prepares = accelerator_calls(ctx, "prepare")
        if not prepares:
            return
        generators = _generator_functions(ctx)
        imports = scope_index(ctx).imports
        for call in prepares:
            for arg in call.args:
                name = target_text(arg)
                if name is None:
                    continue
                origin = self._last_assignment(ctx, call, name)
                if origin is None or not isinstance(origin.value, ast.Call):
                    continue
                func = origin.value.func
                qual = imports.qualify(func) or ""
                if not ((isinstance(func, ast.Name) and func.id in generators) or qual in _ITERATORS
                        or (isinstance(func, ast.Name) and func.id == "iter")):
                    continue
                what = ast.unparse(origin.value)[:60]
                yield ctx.finding(
                    self, arg,
                    f"`{name}` is `{what}` (line {origin.lineno}), a generator/iterator, not a DataLoader: "
                    "`accelerator.prepare` returns it unchanged, so under a multi-process launch every process "
                    "iterates the whole dataset (no sharding) and batches are not moved to the device. Prepare the "
                    f"DataLoader first and wrap the prepared loader (`dl = accelerator.prepare(dl); {name} = "
                    f"{ast.unparse(func)}(dl)`)",
                    evidence=[ctx.evidence(origin, f"`{name}` becomes a generator here")])

    @staticmethod
    def _last_assignment(ctx: FileContext, call: ast.Call, name: str) -> Optional[ast.Assign]:
        """The last single-target assignment to ``name`` before ``call`` in the same function."""
        fn = ctx.enclosing_function(call)
        best: Optional[ast.Assign] = None
        for assign in ctx.nodes(ast.Assign):
            if len(assign.targets) != 1 or target_text(assign.targets[0]) != name \
                    or ctx.enclosing_function(assign) is not fn or assign.lineno >= call.lineno:
                continue
            if best is None or assign.lineno > best.lineno:
                best = assign
        return best
