"""PF302 loop-invariant-transfer: the same host tensor is copied to the device every step."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.devices import BRANCHES, DeviceFacts, StepPlace, device_facts
from preflight.analysis.scopes import FunctionInfo, LoopInfo, scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code.pf301_host_sync_in_loop import nests_training

_MOVES = frozenset({"to", "cuda", "cpu"})
_LITERAL_BUILDERS = frozenset({"torch.tensor", "torch.as_tensor", "torch.FloatTensor", "torch.LongTensor",
                               "torch.Tensor"})


def _literal(node: ast.AST) -> bool:
    """A number, or a (nested) list/tuple of numbers."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _literal(node.operand)
    if isinstance(node, (ast.List, ast.Tuple)):
        return bool(node.elts) and all(_literal(e) for e in node.elts)
    return False


def _inside(node: ast.AST, loop: LoopInfo) -> bool:
    line = getattr(node, "lineno", 0)
    return loop.node.lineno <= line <= (loop.node.end_lineno or loop.node.lineno)


def _uses_in(ctx: FileContext, facts: DeviceFacts, name: str, fn: FunctionInfo,
             loop: LoopInfo) -> list[ast.Name]:
    """Every read of ``name`` (as ``fn`` sees it) inside ``loop``."""
    scopes = facts.scopes
    scope = scopes.scope_of_name(name, fn)
    index = ctx.cached("pf302-loads", lambda: _loads_by_name(ctx))
    out = []
    for node in index.get(name, ()):
        if _inside(node, loop) and scopes.scope_of_name(name, scopes.function_of(node)) is scope:
            out.append(node)
    return out


def _loads_by_name(ctx: FileContext) -> dict[str, list[ast.Name]]:
    out: dict[str, list[ast.Name]] = {}
    for node in ctx.nodes(ast.Name):
        if isinstance(node.ctx, ast.Load):
            out.setdefault(node.id, []).append(node)
    return out


def _only_moved(ctx: FileContext, uses: list[ast.Name]) -> bool:
    """Each read is the receiver of ``.to``/``.cuda``/``.cpu`` and nothing else."""
    for use in uses:
        attr = ctx.parent(use)
        call = ctx.parent(attr) if attr is not None else None
        if not (isinstance(attr, ast.Attribute) and attr.attr in _MOVES and isinstance(
                call, ast.Call) and call.func is attr):
            return False
    return True


def _offloads(ctx: FileContext, facts: DeviceFacts, uses: list[ast.Name]) -> bool:
    """The loop also moves the value back to the CPU (a deliberate offload)."""
    for use in uses:
        attr = ctx.parent(use)
        call = ctx.parent(attr) if attr is not None else None
        if isinstance(attr, ast.Attribute) and isinstance(call, ast.Call):
            if attr.attr == "cpu":
                return True
            if attr.attr == "to" and facts.device_target(call) is None:
                return True
    return False


@register
class LoopInvariantTransfer(Rule):
    code = "PF302"
    name = "loop-invariant-transfer"
    severity = Severity.WARNING
    category = Category.PERFORMANCE
    summary = "A tensor built once on the host is copied to the device again in every training step"
    explanation = """
## What it finds

`w.to(device)` or `w.cuda()` inside a training loop, where `w` is a tensor that
was built on the host *before* the loop (`torch.tensor(...)`, a
`torch.<factory>()` without `device=`, `torch.from_numpy(...)`, `.cpu()`) and
is never rebound or touched in the loop except by these copies. For example
class weights for a loss: `F.cross_entropy(out, y, weight=class_weights.to(device))`.

The same holds for a constant built inside the step and moved at once:
`F.cross_entropy(out, y, weight=torch.tensor([1.0, 2.0]).to(device))`, also in
a step helper the training loop calls on every step (`self.train_one_step(batch)`)
when the helper builds it outside any loop or branch of its own.

## Why it matters

`w` stays on the host, so every step allocates a device buffer and copies the
same bytes over PCIe again (pageable memory: the copy also synchronises with
the host). Nothing changes between steps; the work is pure overhead that grows
with the tensor's size and the number of steps.

## How to fix it

Move it once, before the loop: `class_weights = class_weights.to(device)`, and
use `class_weights` inside the loop (or create it on the device:
`torch.tensor(..., device=device)`).

## When preflight stays silent

* The receiver is rebound in the loop (`x = x.to(device)` on a fresh batch), or
  read in the loop in any other way (it may be refilled in place), or created
  with `device=...`.
* The loop also moves it back with `.cpu()` / `.to("cpu")`: a deliberate
  offload (e.g. an EMA copy kept on the CPU between uses).
* Modules (`model.to(device)` is in place and a no-op once moved), dtype casts
  (`.to(torch.float16)`), `.to("cpu")`.
* The copy sits under an `if` (runs only on some steps), or outside training
  loops, or its result is discarded (that is PF303).
* The copy runs once per epoch: in an epoch loop beside its batch loop, not in
  the batch loop (per-epoch accumulators built fresh for each validation pass).
"""
    bad_examples = examples("preflight.rules.code._pf30x_examples", "PF302_BAD")
    good_examples = examples("preflight.rules.code._pf30x_examples", "PF302_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if not any(loop.training for loop in scope_index(ctx).loops.values()):
            return
        facts = device_facts(ctx)
        seen: set[tuple[int, str]] = set()
        for call, fn in facts.scopes.bindings.call_functions:
            found = self._check(ctx, facts, call, fn, seen) or self._constant(ctx, facts, call)
            if found is not None:
                yield found

    def _constant(self, ctx: FileContext, facts: DeviceFacts, call: ast.Call) -> Optional[Finding]:
        """``torch.tensor([1.0, 2.0, 3.0]).to(device)`` inside the step: a constant built on
        the host and copied again on every step."""
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr in _MOVES and isinstance(func.value, ast.Call)):
            return None
        built = func.value
        qual = facts.imports.qualify(built.func) or ""
        if qual not in _LITERAL_BUILDERS or not built.args or not all(_literal(a) for a in built.args):
            return None
        if any(k.arg == "device" for k in built.keywords) or facts.device_target(call) is None:
            return None
        place = facts.step_place(call)
        site = None
        if place is None:
            place, site = self._helper_place(ctx, facts, call)
        if place is None or place.guard is not None or place.loop in nests_training(facts):
            return None  # under a branch, or once per epoch (beside the batch loop, not in it)
        text = ast.unparse(built)
        if len(text) > 50:
            text = text[:47] + "..."
        message = (
            f"`{text}` is a constant, but this training step builds it on the host and copies it "
            f"to the device with `.{func.attr}()` on every step (an allocation and a host-to-device "
            f"copy each time). Build it once before the loop with `device=` and reuse it")
        tc = place.loop.evidence
        what = f": it {tc.describe()} at {facts.flow.where(tc.call)}" if tc is not None else ""
        evidence = [ctx.evidence(place.loop.node, f"training loop{what}")]
        if site is not None:
            evidence.append(ctx.evidence(site, "the step helper is called here, on every step"))
        evidence.append(ctx.evidence(call, "built on the host and copied to the device here, every step"))
        return ctx.finding(self, call, message, evidence=evidence)

    @staticmethod
    def _helper_place(ctx: FileContext, facts: DeviceFacts,
                      call: ast.Call) -> tuple[Optional[StepPlace], Optional[ast.Call]]:
        """A step helper (``self.train_one_step(batch)`` called on every step of a training loop)
        that builds the constant in its own body, outside any loop or branch of its own."""
        fn = facts.scopes.function_of(call)
        for anc in ctx.ancestors(call):
            if anc is fn.node:
                break
            if isinstance(anc, (ast.For, ast.AsyncFor, ast.While, ast.Lambda, ast.ListComp, ast.SetComp,
                                ast.DictComp, ast.GeneratorExp, ast.FunctionDef, ast.AsyncFunctionDef,
                                ast.ClassDef, *BRANCHES)):
                return None, None
        else:
            return None, None
        for site in fn.call_sites:
            place = facts.step_place(site.call)
            if place is not None and place.guard is None:
                return place, site.call
        return None, None

    def _check(self, ctx: FileContext, facts: DeviceFacts, call: ast.Call, fn: FunctionInfo,
               seen: set[tuple[int, str]]) -> Optional[Finding]:
        func = call.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
            return None
        if facts.device_target(call) is None or isinstance(ctx.parent(call), ast.Expr):
            return None
        name = func.value
        place = facts.step_place(call)
        if place is None or place.guard is not None or place.loop in nests_training(facts):
            return None
        loop = place.loop
        if (id(loop), name.id) in seen:
            return None
        host = facts.host_tensor(name, fn)
        if host is None:
            return None
        binds = facts.name_bindings(name.id, fn)
        if any(_inside(target, loop) for target, _ in binds):
            return None
        uses = _uses_in(ctx, facts, name.id, fn, loop)
        if not _only_moved(ctx, uses) or _offloads(ctx, facts, uses):
            return None
        seen.add((id(loop), name.id))
        where = facts.flow.where
        move = ast.unparse(call)
        message = (
            f"`{name.id}` is built on the host once ({where(host)}) and never changes in this "
            f"loop, but `{move}` copies it to the device again in every training step. Move it "
            f"once before the loop (`{name.id} = {move}`) or create it with `device=`")
        tc = loop.evidence
        what = f": it {tc.describe()} at {where(tc.call)}" if tc is not None else ""
        evidence = [
            ctx.evidence(host, f"`{name.id}` is created on the host here, outside the loop"),
            ctx.evidence(loop.node, f"training loop{what}; `{name.id}` is not rebound in it"),
            ctx.evidence(call, "copied to the device here, every step"),
        ]
        return ctx.finding(self, call, message, evidence=evidence)
