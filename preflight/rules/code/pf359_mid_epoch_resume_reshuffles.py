"""PF359 mid-epoch-resume-reshuffles: a run resumed with ``accelerator.load_state`` skips the batches of the
interrupted epoch on a shuffled loader whose permutation is drawn from the restored (mid-epoch) RNG state."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

# settings that make the resumed epoch's order reproducible: a sampler seeded by seed + epoch (its state is
# saved by save_state) or a loader that saves its own position
_REPRODUCIBLE = ("use_seedable_sampler", "use_stateful_dataloader")


def _true(node: Optional[ast.AST]) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def _shuffled_loaders(ctx: FileContext) -> dict[str, ast.Call]:
    """``name -> DataLoader(...)`` of the loaders built with ``shuffle=True`` and no sampler, followed
    through ``a, b, name = accelerator.prepare(x, y, name)``."""
    loaders: dict[str, ast.Call] = {}
    for node in ctx.nodes(ast.Assign):
        if len(node.targets) != 1 or not isinstance(node.value, ast.Call):
            continue
        target, value = node.targets[0], node.value
        if isinstance(target, ast.Name) and call_last(value) == "DataLoader" and _true(kwarg(value, "shuffle")) \
                and kwarg(value, "sampler") is None and kwarg(value, "batch_sampler") is None:
            loaders[target.id] = value
    for node in ctx.nodes(ast.Assign):
        if len(node.targets) != 1 or not isinstance(node.value, ast.Call) or call_last(node.value) != "prepare":
            continue
        target, args = node.targets[0], node.value.args
        outs = target.elts if isinstance(target, ast.Tuple) else [target]
        for arg, out in zip(args, outs):
            if isinstance(arg, ast.Name) and arg.id in loaders and isinstance(out, ast.Name):
                loaders.setdefault(out.id, loaders[arg.id])
    return loaders


def _skips(ctx: FileContext, loaders: dict[str, ast.Call]) -> Iterable[tuple[ast.AST, str, str]]:
    """(node, loader, how) for each mid-epoch skip over a shuffled loader: ``skip_first_batches(loader, n)``,
    or ``for step, batch in enumerate(loader):`` whose body ``continue``s while ``step < n``."""
    for call in ctx.nodes(ast.Call):
        if call_last(call) == "skip_first_batches" and call.args and isinstance(call.args[0], ast.Name) \
                and call.args[0].id in loaders:
            yield call, call.args[0].id, f"`{ast.unparse(call.func)}({call.args[0].id}, ...)`"
    for loop in ctx.nodes(ast.For):
        it = loop.iter
        if not (isinstance(it, ast.Call) and call_last(it) == "enumerate" and it.args
                and isinstance(it.args[0], ast.Name) and it.args[0].id in loaders
                and isinstance(loop.target, ast.Tuple) and loop.target.elts
                and isinstance(loop.target.elts[0], ast.Name)):
            continue
        index = loop.target.elts[0].id
        for stmt in loop.body:
            if isinstance(stmt, ast.If) and any(isinstance(s, ast.Continue) for s in stmt.body) \
                    and any(isinstance(c, ast.Compare) and isinstance(c.left, ast.Name) and c.left.id == index
                            and isinstance(c.ops[0], (ast.Lt, ast.LtE)) for c in ast.walk(stmt.test)):
                yield stmt, it.args[0].id, f"the `continue` while `{index}` is below the resume step"
                break


@register
class MidEpochResumeReshuffles(Rule):
    code = "PF359"
    name = "mid-epoch-resume-reshuffles"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    needs_text = ("load_state",)
    summary = ("A mid-epoch resume (`accelerator.load_state` + skipping the first batches) on a shuffled loader: "
               "the resumed epoch's order comes from the restored RNG state, so the wrong batches are skipped")
    explanation = """
## What it finds

A script that restores its training state with `accelerator.load_state(...)` and then skips
the batches of the interrupted epoch, `accelerator.skip_first_batches(loader, n)` or a
`for step, batch in enumerate(loader):` loop that `continue`s while `step` is below the resume
step (the shape of accelerate's own `complete_nlp_example.py`), on a `DataLoader(...,
shuffle=True)` (followed through `accelerator.prepare`), with neither
`use_seedable_sampler=True` nor `use_stateful_dataloader=True` in the file.

## Why it matters

A shuffled loader draws its permutation from the torch RNG when an epoch's iterator is
created. `save_state` in the middle of epoch n saves the RNG *as it is then* (after epoch n's
permutation was drawn), and `load_state` restores that state, so the resumed epoch is shuffled
like epoch n+1, not like the epoch that was interrupted; `set_epoch` changes nothing for a
plain `RandomSampler`. On several processes `prepare` gives the sampler a generator seeded
from the RNG at prepare time, which `save_state` does not save: the resumed run shuffles its
first epoch like the original run's first epoch, whatever epoch was interrupted. Skipping the first n batches of that other permutation skips the wrong
samples: part of the epoch is trained twice and part never (accelerate issue 2823, still open:
"The sequence the dataloader yields is actually the epoch n+1 if training was interrupted
during epoch n"; issue 2016; wyim-pgl/transgenic issue 59 measured 15 of 20 skipped samples
wrong on accelerate 1.14).

## How to fix it

`Accelerator(dataloader_config=DataLoaderConfiguration(use_seedable_sampler=True))` (the
permutation depends on the seed and the epoch, call `set_epoch`), or a `StatefulDataLoader`
(`use_stateful_dataloader=True`, which saves its position), or checkpoint only at epoch
boundaries and resume at the next epoch without skipping.

## When preflight stays silent

* The loader does not shuffle (`shuffle=False`, an explicit `sampler=`/`batch_sampler=`,
  an iterable dataset).
* `use_seedable_sampler=True` or `use_stateful_dataloader=True` appears in the file.
* The script never calls `load_state` (it restores no RNG state), or never skips batches.
"""
    bad_examples = examples("preflight.rules.code._pf359_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf359_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        loads = [c for c in ctx.nodes(ast.Call) if isinstance(c.func, ast.Attribute) and c.func.attr == "load_state"
                 and "accel" in ast.unparse(c.func.value).lower()]
        if not loads:
            return
        for call in ctx.nodes(ast.Call):
            if any(k.arg in _REPRODUCIBLE and not (isinstance(k.value, ast.Constant) and not k.value.value)
                   for k in call.keywords):
                return
        loaders = _shuffled_loaders(ctx)
        if not loaders:
            return
        for node, loader, how in _skips(ctx, loaders):
            built = loaders[loader]
            yield ctx.finding(
                self, node,
                f"{how} skips the batches already trained on after `{ast.unparse(loads[0])}` (line "
                f"{loads[0].lineno}) restored the RNG state saved in the middle of the epoch; `{loader}` shuffles "
                f"(line {built.lineno}), and the resumed epoch is not shuffled like the interrupted one (on one process "
                "its permutation is drawn from that restored state, the next epoch's order; on several, from the "
                "sampler generator seeded afresh at prepare, the first epoch's order), so the skipped batches are "
                "not the ones already seen: part of the epoch is trained twice and part never. Use "
                "`DataLoaderConfiguration(use_seedable_sampler=True)` (or `use_stateful_dataloader=True`), or "
                "checkpoint at epoch boundaries",
                evidence=[ctx.evidence(loads[0], "the RNG state saved mid-epoch is restored here"),
                          ctx.evidence(built, "the loader shuffles")])
