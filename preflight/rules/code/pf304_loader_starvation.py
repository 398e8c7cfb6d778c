"""PF304 loader-starvation: a CUDA training loader without workers or pinned memory."""

from __future__ import annotations

import ast
import bisect
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.devices import DeviceFacts, device_facts
from preflight.analysis.scopes import FunctionInfo, LoopInfo, scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_WRAPPERS = frozenset({"enumerate", "tqdm", "iter", "tqdm.tqdm", "tqdm.auto.tqdm",
                       "tqdm.notebook.tqdm", "tqdm.rich.tqdm"})


def _iterated(facts: DeviceFacts, it: ast.AST) -> ast.AST:
    while isinstance(it, ast.Call) and it.args and (
            facts.imports.qualify(it.func) or "") in _WRAPPERS:
        it = it.args[0]
    return it


def _kw(call: ast.Call, name: str) -> Optional[ast.keyword]:
    return next((k for k in call.keywords if k.arg == name), None)


@register
class LoaderStarvation(Rule):
    code = "PF304"
    name = "loader-starvation"
    severity = Severity.NOTE
    category = Category.PERFORMANCE
    summary = "A CUDA training loop reads from a DataLoader without worker processes or pinned memory"
    explanation = """
## What it finds

A `torch.utils.data.DataLoader(...)` that a training loop in the same file
iterates, where the loop copies its batches to the device (`.to(device)`,
`.cuda()`) and the file really uses CUDA (`.cuda()`, `.to("cuda")`,
`torch.device("cuda")`, `device = "cuda" if ... else "cpu"`), and the loader
has `num_workers` missing or `0`, and/or `pin_memory` missing or `False`.

## Why it matters

With `num_workers=0` (the default) loading, decoding and augmentation run in
the training process between steps, and the GPU waits for each batch. Without
`pin_memory=True` batches sit in pageable memory, so each host-to-device copy
goes through a staging buffer and `non_blocking=True` cannot overlap it with
compute (PyTorch docs, "Memory pinning"; performance tuning guide: "enable
async data loading and augmentation" and "use pinned memory"). This is tuning
advice, hence a note: the right worker count depends on the machine.

## How to fix it

`DataLoader(ds, batch_size=..., shuffle=True, num_workers=4, pin_memory=True)`
(tune `num_workers` to the CPU cores per GPU; `persistent_workers=True` avoids
restarting workers every epoch), and copy with
`x.to(device, non_blocking=True)`.

## When preflight stays silent

* `num_workers` and `pin_memory` are set from a variable or passed through
  `**kwargs` (someone chose them), or both are already set.
* The dataset is an in-memory `TensorDataset` (workers do not help; pinning
  fails if its tensors are already on the GPU).
* Frameworks that build or wrap the loader: Hugging Face `Trainer` builds its own
  (`dataloader_pin_memory=True` by default), a Lightning `Trainer` consumes
  `train_dataloader()` outside any loop in the file, and a loader passed through
  `accelerator.prepare(...)` is iterated under another name.
* No training loop iterates the loader, the loop never copies batches to a
  device, or the file shows no real CUDA use (a word in a comment is not enough).
* A loader built by a helper function or bound more than once (preflight cannot
  see its arguments).
"""
    bad_examples = examples("preflight.rules.code._pf30x_examples", "PF304_BAD")
    good_examples = examples("preflight.rules.code._pf30x_examples", "PF304_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        scopes = scope_index(ctx)
        loops = [loop for loop in scopes.loops.values() if loop.training and isinstance(
            loop.node, (ast.For, ast.AsyncFor))]
        if not loops:
            return
        facts = device_facts(ctx)
        if facts.cuda_evidence is None:
            return
        # the device moves of each function, in source order, looked up by line per loop
        moves: dict[FunctionInfo, tuple[list[int], list[ast.Call]]] = {}
        for c, f in scopes.bindings.call_functions:
            if facts.device_target(c):
                lines, found = moves.setdefault(f, ([], []))
                lines.append(getattr(c, "lineno", 0))
                found.append(c)
        reported: set[int] = set()
        for loop in loops:
            it = _iterated(facts, loop.node.iter)  # type: ignore[union-attr]
            call = facts.loader_call(it, loop.function)
            if call is None or id(call) in reported:
                continue
            move = self._first_move(moves.get(loop.function), loop)
            if move is None:
                continue
            finding = self._check(ctx, facts, call, loop, move)
            if finding is not None:
                reported.add(id(call))
                yield finding

    @staticmethod
    def _first_move(moves: Optional[tuple[list[int], list[ast.Call]]], loop: LoopInfo) -> Optional[ast.Call]:
        """The first move (in source order) on a line inside ``loop``'s body."""
        if not moves:
            return None
        lines, calls = moves
        i = bisect.bisect_right(lines, loop.node.lineno)
        if i < len(lines) and lines[i] <= (loop.node.end_lineno or loop.node.lineno):
            return calls[i]
        return None

    def _check(self, ctx: FileContext, facts: DeviceFacts, call: ast.Call, loop: LoopInfo,
               move: ast.Call) -> Optional[Finding]:
        if any(k.arg is None for k in call.keywords):
            return None
        dataset = call.args[0] if call.args else getattr(_kw(call, "dataset"), "value", None)
        if dataset is not None and self._tensor_dataset(facts, dataset, loop):
            return None
        problems = []
        workers = _kw(call, "num_workers")
        if len(call.args) >= 7:
            return None  # positional num_workers / pin_memory: leave it alone
        if workers is None:
            problems.append("no `num_workers` (default 0: batches are loaded in the training "
                            "process, between steps)")
        elif isinstance(workers.value, ast.Constant) and workers.value.value == 0:
            problems.append("`num_workers=0` (batches are loaded in the training process, "
                            "between steps)")
        pin = _kw(call, "pin_memory")
        if pin is None:
            problems.append("no `pin_memory` (default False: each host-to-device copy is "
                            "staged and cannot overlap compute)")
        elif isinstance(pin.value, ast.Constant) and pin.value.value is False:
            problems.append("`pin_memory=False` (each host-to-device copy is staged and cannot "
                            "overlap compute)")
        if not problems:
            return None
        where = facts.flow.where
        message = (
            f"This DataLoader feeds the CUDA training loop at {where(loop.node)} with "
            + " and ".join(problems)
            + ". Consider `num_workers=<CPU cores per GPU>, pin_memory=True` and "
              "`.to(device, non_blocking=True)`")
        evidence = [
            ctx.evidence(loop.node, "training loop iterating this loader"),
            ctx.evidence(move, "batches are copied to the device here"),
            ctx.evidence(facts.cuda_evidence or call, "the script uses CUDA"),
        ]
        return ctx.finding(self, call, message, evidence=evidence)

    @staticmethod
    def _tensor_dataset(facts: DeviceFacts, dataset: ast.AST, loop: LoopInfo) -> bool:
        value: Optional[ast.AST] = dataset
        if isinstance(dataset, ast.Name):
            binds = facts.name_bindings(dataset.id, loop.function)
            value = binds[0][1] if len(binds) == 1 else None
        if not isinstance(value, ast.Call):
            return False
        qual = facts.imports.qualify(value.func) or ""
        return qual.rsplit(".", 1)[-1] == "TensorDataset"
