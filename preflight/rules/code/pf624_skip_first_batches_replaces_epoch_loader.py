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

## When preflight stays silent

* The result goes to another name than the loader it skips.
* The call is outside an epoch loop (a loader used for one pass), or the loop
  does not iterate the rebound name.
* The loop builds the loader afresh on every pass (`train_dataloader =
  accelerator.prepare(DataLoader(...))` in its body, as distil-whisper's and
  parler-tts's training scripts do), so the skipping copy lives one pass only.
"""
    bad_examples = examples("preflight.rules.code._pf624_examples", "PF624_BAD")
    good_examples = examples("preflight.rules.code._pf624_examples", "PF624_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
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
