"""PF624 skip-first-batches-replaces-epoch-loader: ``loader = skip_first_batches(loader, n)`` inside
the epoch loop rebinds the loader every later epoch iterates."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples


def _iterated(loop: ast.AST, name: str) -> Optional[ast.AST]:
    """A ``for`` in ``loop``'s body over ``name`` (or ``enumerate(name)``/``tqdm(name)``)."""
    for node in ast.walk(loop):
        if node is loop or not isinstance(node, (ast.For, ast.AsyncFor)):
            continue
        it = node.iter
        while isinstance(it, ast.Call) and it.args and not isinstance(it.func, ast.Attribute):
            it = it.args[0]  # enumerate(x), tqdm(x)
        if isinstance(it, ast.Name) and it.id == name:
            return node
    return None


def _rebuilt(loop: ast.AST, skip: ast.Assign, name: str) -> bool:
    """The loop binds ``name`` afresh on each pass (``loader = DataLoader(...)`` in its body,
    distil-whisper's per-epoch loader), so the skipping copy does not outlive its pass."""
    for node in ast.walk(loop):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node is not skip:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return True
    return False


@register
class SkipFirstBatchesReplacesEpochLoader(Rule):
    code = "PF624"
    needs_text = ("skip_first_batches",)
    name = "skip-first-batches-replaces-epoch-loader"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = ("`loader = accelerator.skip_first_batches(loader, n)` inside the epoch loop replaces the loader "
               "itself: every later epoch also skips its first n batches")
    explanation = """
## What it finds

Inside an epoch loop, the resume step rebinds the training loader to its
skipping copy, `train_dataloader = accelerator.skip_first_batches(train_dataloader,
resume_step)` (or `accelerate.skip_first_batches`), and the loop then iterates
that same name in this and every later epoch.

## Why it matters

`skip_first_batches` returns a new loader that skips the first `num_batches`
batches each time it is iterated (accelerate `data_loader.py`:
`SkipDataLoader`/`DataLoaderShard(skip_batches=...)`, whose `__iter__` drops the
first `skip_batches` batches on every pass). Rebinding the epoch's loader to it
makes the skip permanent: after a mid-epoch resume, every following epoch also
drops its first `resume_step` batches, and those samples are never trained on
again. accelerate's own examples had this shape and were fixed to iterate an
`active_dataloader` instead (accelerate issue 1451).

## How to fix it

Keep the original loader and iterate a per-epoch name:
`active_dataloader = train_dataloader`, and on the resumed epoch only
`active_dataloader = accelerator.skip_first_batches(train_dataloader, resume_step)`;
then `for batch in active_dataloader:`.

The same for a per-epoch name (`active_dataloader = accelerator.skip_first_batches(
train_dataloader, resume_step)`) chosen on every epoch: the call sits in the epoch loop
with no test of the epoch (`if resume_step is not None:`, or no `if` at all) and nothing
in the loop clears what the test reads or the skip count (`resume_step = None`), so each
later epoch skips again (allenai/open-instruct PR 681: "only skip batches once on resume").

## When preflight stays silent

* The result goes to another name than the loader it skips, and the skip is limited to
  the resumed epoch: the test reads the epoch loop's variable (`epoch == starting_epoch`),
  or the loop resets a name the test or the count reads (`resume_step = 0`).
* The call is outside an epoch loop (a loader used for one pass), or the loop
  does not iterate the rebound name.
* The loop builds the loader afresh on every pass (`train_dataloader =
  accelerator.prepare(DataLoader(...))` in its body, as distil-whisper's and
  parler-tts's training scripts do), so the skipping copy lives one pass only.
"""
    bad_examples = examples("preflight.rules.code._pf624_examples", "PF624_BAD")
    good_examples = examples("preflight.rules.code._pf624_examples", "PF624_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        yield from self._every_epoch(ctx)
        for assign in ctx.nodes(ast.Assign):
            value = assign.value
            if not (isinstance(value, ast.Call) and value.args and len(assign.targets) == 1):
                continue
            func = value.func
            last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            target = assign.targets[0]
            if last != "skip_first_batches" or not isinstance(target, ast.Name) \
                    or not isinstance(value.args[0], ast.Name) or value.args[0].id != target.id:
                continue
            epoch_loop = next((a for a in ctx.ancestors(assign) if isinstance(a, (ast.For, ast.While))), None)
            if epoch_loop is None:
                continue
            inner = _iterated(epoch_loop, target.id)
            if inner is None or _rebuilt(epoch_loop, assign, target.id):
                continue
            yield ctx.finding(
                self, assign,
                f"`{target.id} = {ast.unparse(value)}` replaces the epoch loop's loader with its skipping copy: "
                f"`skip_first_batches` skips on every pass, so every later epoch also drops its first batches. "
                f"Iterate a per-epoch name (`active_dataloader = {target.id}`, skipping only on the resumed epoch)",
                evidence=[ctx.evidence(inner, "every epoch iterates the rebound loader here")])

    def _every_epoch(self, ctx: FileContext) -> Iterable[Finding]:
        """``active = skip_first_batches(loader, n)`` (another name) taken on every pass of the epoch loop."""
        for assign in ctx.nodes(ast.Assign):
            value = assign.value
            if not (isinstance(value, ast.Call) and len(value.args) >= 2 and len(assign.targets) == 1):
                continue
            func = value.func
            last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            target, source, count = assign.targets[0], value.args[0], value.args[1]
            if last != "skip_first_batches" or not isinstance(target, ast.Name) or not isinstance(source, ast.Name) \
                    or target.id == source.id:
                continue
            epoch_loop = next((a for a in ctx.ancestors(assign) if isinstance(a, ast.For)), None)
            if epoch_loop is None or _iterated(epoch_loop, target.id) is None:
                continue
            epoch_names = {n.id for n in ast.walk(epoch_loop.target) if isinstance(n, ast.Name)}
            tests = [a.test for a in ctx.ancestors(assign) if isinstance(a, ast.If) and ctx.under(a, epoch_loop)
                     and a is not epoch_loop]
            read = {n.id for t in [*tests, count] for n in ast.walk(t) if isinstance(n, ast.Name)}
            if not read or read & epoch_names:
                continue  # the skip depends on the epoch (or on nothing preflight can name)
            if _reassigned(epoch_loop, read, assign):
                continue  # the loop clears the resume state after the first skip
            yield ctx.finding(
                self, assign,
                f"`{target.id} = {ast.unparse(value)}` runs on every pass of the epoch loop: its condition does not "
                f"read the epoch and nothing in the loop resets {', '.join(f'`{n}`' for n in sorted(read))}, so "
                f"every later epoch skips its first batches too and those samples are never trained on again. Skip "
                f"only on the resumed epoch (`epoch == starting_epoch`) or clear the step after use",
                evidence=[ctx.evidence(epoch_loop, "the epoch loop")])


def _reassigned(loop: ast.AST, names: set[str], skip: ast.AST) -> bool:
    """One of ``names`` is assigned (or augmented, deleted) inside ``loop`` other than by ``skip``."""
    for node in ast.walk(loop):
        if node is skip:
            continue
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            for t in targets:
                if any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(t)):
                    return True
    return False
