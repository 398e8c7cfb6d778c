"""PF301 host-sync-in-loop: GPU->CPU synchronisations inside every training step."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.devices import DeviceFacts, StepPlace, device_facts
from preflight.analysis.scopes import FunctionInfo, LoopInfo, scope_index
from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

SYNC_METHODS = frozenset({"item", "tolist", "numpy", "cpu"})
SYNC_BUILTINS = frozenset({"float", "int", "print"})
# Several unguarded synchronisation points in one step before the note fires: one
# `loss.item()` (and one accuracy count) per step is the idiom of every tutorial.
MANY = 3
_ACCELERATOR_CLASSES = ("Accelerator", "Fabric")


_DEVICE_SYNCS = frozenset({"torch.cuda.synchronize", "torch.xpu.synchronize", "torch.mps.synchronize",
                           "torch.accelerator.synchronize", "torch.npu.synchronize"})
_CLOCKS = frozenset({"time.time", "time.perf_counter", "time.monotonic", "time.perf_counter_ns",
                     "time.time_ns", "time.monotonic_ns", "timeit.default_timer"})


def _times_the_step(facts: DeviceFacts, loop: LoopInfo) -> bool:
    """The loop reads a clock or CUDA events: the synchronisation is there to time the step."""
    for node in ast.walk(loop.node):
        if isinstance(node, ast.Call):
            qual = facts.imports.qualify(node.func) or ""
            if qual in _CLOCKS or (isinstance(node.func, ast.Attribute) and (node.func.attr in (
                    "elapsed_time", "record") or _timer_method(node.func.attr))):
                return True
    return False


def _timer_method(name: str) -> bool:
    """A stopwatch method of a meter or timer object (``meter.iter_tic()``, ``timer.toc()``,
    ``timer.start_timer()``): the clock is read inside the helper."""
    parts = name.lower().split("_")
    return bool({"tic", "toc"} & set(parts)) or any(p in ("timer", "stopwatch") for p in parts)


def _short(node: ast.AST, limit: int = 50) -> str:
    text = ast.unparse(node)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def accelerator_evidence(ctx: FileContext, facts: DeviceFacts) -> Optional[ast.AST]:
    """A node showing that tensors of this file live on an accelerator."""
    if facts.cuda_evidence is not None:
        return facts.cuda_evidence
    for call, _fn in facts.scopes.bindings.call_functions:
        qual = facts.imports.qualify(call.func) or ""
        if qual.rsplit(".", 1)[-1] in _ACCELERATOR_CLASSES or qual == "deepspeed.initialize":
            return call
    return None


def sync_sites(ctx: FileContext, facts: DeviceFacts) -> Iterable[tuple[ast.Call, ast.expr]]:
    """(call, tensor) for each host synchronisation on a known tensor."""
    for call, fn in facts.scopes.bindings.call_functions:
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in SYNC_METHODS and not call.args:
            parent = ctx.parent(call)
            if isinstance(parent, ast.Attribute) and parent.attr in SYNC_METHODS:
                continue  # ``x.cpu().numpy()`` is one transfer: count the outer call
            if facts.is_tensor(func.value, fn):
                yield call, func.value
        elif isinstance(func, ast.Name) and func.id in SYNC_BUILTINS and call.args:
            if facts.scopes.resolve_function(func.id, fn) is not None:
                continue
            args: list[ast.expr] = []
            for arg in call.args:
                if isinstance(arg, ast.JoinedStr):
                    args.extend(v.value for v in arg.values if isinstance(v, ast.FormattedValue))
                else:
                    args.append(arg)
            if func.id != "print":
                args = args[:1]
            for arg in args:
                if isinstance(arg, (ast.Name, ast.Subscript, ast.Attribute)) and facts.is_tensor(
                        arg, fn):
                    yield call, arg
                    break


def _sized_tensor(facts: DeviceFacts, expr: ast.AST, fn: FunctionInfo) -> bool:
    """``len(t)``, ``t.size(0)``, ``t.shape[0]``, ``t.numel()`` of a known tensor."""
    if isinstance(expr, ast.Call):
        if isinstance(expr.func, ast.Name) and expr.func.id == "len" and len(expr.args) == 1:
            return facts.is_tensor(expr.args[0], fn)
        if isinstance(expr.func, ast.Attribute) and expr.func.attr in ("size", "numel"):
            return facts.is_tensor(expr.func.value, fn)
    if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Attribute) and (
            expr.value.attr == "shape"):
        return facts.is_tensor(expr.value.value, fn)
    return False


def per_element(facts: DeviceFacts, loop: ast.AST, fn: FunctionInfo) -> bool:
    """A loop or comprehension that walks the elements of a tensor (or its indices)."""
    if isinstance(loop, (ast.For, ast.AsyncFor)):
        iters = [loop.iter]
    elif isinstance(loop, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
        iters = [g.iter for g in loop.generators]
    else:
        return False
    for it in iters:
        stack = [it]
        while stack:
            cur = stack.pop()
            if isinstance(cur, ast.Call) and isinstance(cur.func, ast.Name):
                name = cur.func.id
                if name in ("enumerate", "zip", "reversed", "list") and cur.args:
                    stack.extend(cur.args)
                    continue
                if name == "range" and cur.args and len(cur.args) <= 3:
                    stop = cur.args[0] if len(cur.args) == 1 else cur.args[1]
                    if _sized_tensor(facts, stop, fn):
                        return True
                    continue
            if facts.is_tensor(cur, fn):
                return True
    return False


def host_built(facts: DeviceFacts, tensor: ast.AST, fn: FunctionInfo) -> bool:
    """The synchronised value is indexed out of a tensor built on the host (no sync)."""
    node = tensor
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return isinstance(node, ast.Name) and facts.host_tensor(node, fn) is not None


def nests_training(facts: DeviceFacts) -> set[LoopInfo]:
    """Training loops that hold another training loop (an epoch loop)."""
    out: set[LoopInfo] = set()
    for loop in facts.scopes.loops.values():
        if loop.training and loop.parent is not None:
            out.add(loop.parent)
    return out


@register
class HostSyncInLoop(Rule):
    code = "PF301"
    name = "host-sync-in-loop"
    severity = Severity.WARNING
    category = Category.PERFORMANCE
    summary = "The training step waits for the GPU again and again to copy tensors to the host"
    explanation = """
## What it finds

Calls that copy a GPU tensor to the host -- `.item()`, `.tolist()`, `.numpy()`,
`.cpu()`, `float(t)`, `int(t)`, `print(t)` -- on a value preflight knows is a
tensor, inside the training step:

* **inside a per-element loop within the step** (warning): for example
  `for i in range(len(preds)): if preds[i].item() == labels[i].item(): ...`, or a
  comprehension `[p.item() for p in preds]`: one synchronisation per element,
  every step;
* **three or more separate synchronisation points per step** (note), none of
  them under a condition.

## Why it matters

CUDA runs asynchronously: the Python loop queues kernels and races ahead.
Reading a value on the host blocks until every queued kernel has finished, so
the CPU cannot prepare the next step while the GPU works, and the GPU idles
while Python catches up. One `loss.item()` per step costs one such stall (a
common, accepted price for logging); a per-element loop pays it once per
element and launches a tiny kernel for each indexing operation, which can make
the step several times slower (PyTorch performance tuning guide: "avoid
unnecessary CPU-GPU synchronization", listing `print`, `.item()`, `.cpu()`,
`.numpy()` and Python control flow on tensors).

A `torch.cuda.synchronize()` on every step (not under a condition and not
timing the step with a clock, CUDA events or a stopwatch helper such as
`meter.iter_tic()` / `timer.toc()`) stalls the same way (warning).

## How to fix it

Compute on the GPU and copy once: `(preds == labels).sum().item()` instead of
a loop over elements; keep running sums as tensors
(`total += loss.detach()`) and call `.item()` once per logging interval; or
guard the logging with `if step % log_every == 0:`.

## When preflight stays silent

* A single `loss.item()` or two syncs per step (the usual logging idiom).
* Anything under an `if` (e.g. `if step % log_every == 0:`), in an `except`
  handler, after the batch loop in the epoch loop (once per epoch), or outside
  training loops (evaluation).
* Receivers preflight cannot prove are tensors (numpy arrays, Python numbers,
  dict values, metrics objects).
* Files with no sign of an accelerator (`.cuda()`, `.to("cuda")`,
  `torch.device("cuda")`, `Accelerator()`, `Fabric()`, DeepSpeed): on the CPU
  these calls do not synchronise anything.
"""
    bad_examples = examples("preflight.rules.code._pf30x_examples", "PF301_BAD")
    good_examples = examples("preflight.rules.code._pf30x_examples", "PF301_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if not any(loop.training for loop in scope_index(ctx).loops.values()):
            return
        facts = device_facts(ctx)
        accel = accelerator_evidence(ctx, facts)
        if accel is None:
            return
        outer = nests_training(facts)
        per_loop: dict[LoopInfo, list[tuple[ast.Call, ast.expr, StepPlace]]] = {}
        inner_seen: set[int] = set()
        for call, tensor in sync_sites(ctx, facts):
            place = facts.step_place(call)
            if place is None or place.guard is not None:
                continue
            fn = facts.scopes.function_of(call)
            if host_built(facts, tensor, fn):
                continue
            if place.inner:
                if not all(per_element(facts, node, fn) for node in place.inner):
                    continue  # e.g. an RL rollout: each env step needs the action on the host
                loop_node = place.inner[-1]  # the outermost per-element loop in the step
                if id(loop_node) in inner_seen:
                    continue
                inner_seen.add(id(loop_node))
                yield self._inner(ctx, facts, call, tensor, place, accel)
            elif place.loop not in outer:
                per_loop.setdefault(place.loop, []).append((call, tensor, place))
        for loop, sites in per_loop.items():
            stmts = {id(facts.scopes.statement_of(c)) for c, _, _ in sites}
            if len(stmts) >= MANY:
                yield self._many(ctx, facts, loop, sites, accel)
        yield from self._device_syncs(ctx, facts, outer)

    def _device_syncs(self, ctx: FileContext, facts: DeviceFacts, outer: set[LoopInfo]) -> Iterable[Finding]:
        """``torch.cuda.synchronize()`` on every training step, not for timing it."""
        seen: set[int] = set()
        for call, _fn in facts.scopes.bindings.call_functions:
            qual = facts.imports.qualify(call.func) or ""
            if qual not in _DEVICE_SYNCS:
                continue
            place = facts.step_place(call)
            if place is None or place.guard is not None or place.inner or place.loop in outer:
                continue
            if id(place.loop) in seen or _times_the_step(facts, place.loop):
                continue
            seen.add(id(place.loop))
            message = (
                f"`{_short(call)}` runs on every training step: it blocks the CPU until every "
                "queued GPU kernel has finished, so the CPU cannot queue the next step while the "
                "GPU works and the GPU idles while Python catches up. The `.item()` / `.cpu()` a "
                "step needs synchronise by themselves; drop it, or run it only when timing or "
                "logging (`if step % log_every == 0:`)")
            evidence = [self._loop_evidence(ctx, facts, place.loop),
                        ctx.evidence(call, "a full device synchronisation, every step")]
            yield ctx.finding(self, call, message, evidence=evidence, severity=Severity.WARNING)

    def _inner(self, ctx: FileContext, facts: DeviceFacts, call: ast.Call, tensor: ast.expr,
               place: StepPlace, accel: ast.AST) -> Finding:
        inner = place.inner[-1]
        kind = "loop" if isinstance(inner, (ast.For, ast.AsyncFor, ast.While)) else "comprehension"
        header = _short(inner.iter) if isinstance(inner, (ast.For, ast.AsyncFor)) else _short(inner)
        message = (
            f"`{_short(call)}` copies a GPU tensor to the host inside a per-element {kind} "
            f"(`{header}`) in every training step: one CPU-GPU synchronisation per element per "
            "step. Compute the result on the GPU for the whole batch and copy it once "
            "(e.g. `(preds == labels).sum().item()`)")
        evidence = [
            self._loop_evidence(ctx, facts, place.loop),
            ctx.evidence(inner, f"this {kind} runs once per element, every step"),
            *self._tensor_evidence(ctx, facts, tensor, call),
            ctx.evidence(accel, "tensors live on an accelerator"),
            ctx.evidence(call, "host synchronisation here"),
        ]
        return ctx.finding(self, call, message, evidence=evidence, severity=Severity.WARNING)

    def _many(self, ctx: FileContext, facts: DeviceFacts, loop: LoopInfo,
              sites: list[tuple[ast.Call, ast.expr, StepPlace]], accel: ast.AST) -> Finding:
        first = sites[0][0]
        shown = ", ".join(f"`{_short(c, 30)}` ({facts.flow.where(c)})" for c, _, _ in sites[:4])
        message = (
            f"Each training step synchronises with the GPU {len(sites)} times to read tensors "
            f"on the host: {shown}. Every read stalls the CPU until the GPU has drained its "
            "queue. Keep running values as tensors and read them once per logging interval "
            "(`if step % log_every == 0:`)")
        evidence = [self._loop_evidence(ctx, facts, loop),
                    ctx.evidence(accel, "tensors live on an accelerator")]
        evidence += [ctx.evidence(c, f"host synchronisation on `{_short(t, 30)}`")
                     for c, t, _ in sites[:6]]
        return ctx.finding(self, first, message, evidence=evidence, severity=Severity.NOTE)

    @staticmethod
    def _loop_evidence(ctx: FileContext, facts: DeviceFacts, loop: LoopInfo) -> Evidence:
        tc = loop.evidence
        what = f": it {tc.describe()} at {facts.flow.where(tc.call)}" if tc is not None else ""
        return ctx.evidence(loop.node, f"training loop{what}")

    @staticmethod
    def _tensor_evidence(ctx: FileContext, facts: DeviceFacts, tensor: ast.expr,
                         call: ast.AST) -> list[Evidence]:
        node: ast.AST = tensor
        while isinstance(node, (ast.Subscript, ast.Attribute, ast.Call)):
            node = node.func if isinstance(node, ast.Call) else node.value
            if isinstance(node, ast.Attribute) and isinstance(ctx.parent(node), ast.Call):
                node = node.value
        if not isinstance(node, ast.Name):
            return []
        fn = facts.scopes.function_of(call)
        binds = facts.name_bindings(node.id, fn)
        if not binds:
            return []
        return [ctx.evidence(binds[0][0], f"`{node.id}` is a tensor (bound here)")]

