"""PF103 missing-zero-grad: an optimizer steps in a loop that never clears its gradients."""

from __future__ import annotations

import ast
from typing import Iterable, Optional, Union

from preflight.analysis.context import FileContext
from preflight.analysis.optimizers import GradEvent, GradSteps, grad_steps
from preflight.analysis.scopes import FunctionInfo, LoopInfo
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

Context = Union[LoopInfo, FunctionInfo]


def _events(steps: GradSteps, where: Context) -> list[GradEvent]:
    if isinstance(where, LoopInfo):
        return list(steps.in_loop(where))
    return steps.of(where)


def _context(steps: GradSteps, step: GradEvent) -> Optional[Context]:
    """The innermost loop around ``step`` that also runs a backward, or a manual
    Lightning ``training_step`` (Lightning calls it once per batch)."""
    loop = step.loop
    while loop is not None:
        if any(e.kind == "backward" for e in steps.in_loop(loop)):
            return loop
        loop = loop.parent
    fn = step.function
    cls = fn.cls
    if fn.name == "training_step" and cls is not None and cls in steps.manual_lightning and any(
            e.kind == "backward" for e in steps.of(fn)):
        return fn
    if cls is not None and step.loop is None and (step.key or "").startswith("self.") \
            and _called_per_batch(steps, fn) is not None \
            and any(e.kind == "backward" and e.loop is None for e in steps.of(fn)):
        return fn
    return None


def _branches(ctx: FileContext, node: ast.AST) -> dict[int, str]:
    """The ``if`` statements around ``node`` and the side it is on (``body``/``orelse``)."""
    out: dict[int, str] = {}
    child = node
    for anc in ctx.ancestors(node):
        if isinstance(anc, ast.If):
            if any(child is n for n in anc.body):
                out[id(anc)] = "body"
            elif any(child is n for n in anc.orelse):
                out[id(anc)] = "orelse"
        child = anc
    return out


def _exclusive(ctx: FileContext, reset: ast.AST, step: ast.AST) -> bool:
    """The reset and the step sit on the two sides of one ``if``/``else`` (DAB-DETR's
    ``if args.amp: optimizer.zero_grad(); scaler...`` / ``else: losses.backward(); optimizer.step()``):
    an iteration that steps on one side never runs the reset on the other."""
    mine = _branches(ctx, step)
    return any(mine.get(key) not in (None, side) for key, side in _branches(ctx, reset).items())


def _schedule_handoff(event: GradEvent) -> bool:
    """The optimizer handed to a learning-rate schedule's constructor
    (``get_linear_schedule_with_warmup(self.optimizer, ...)``, ``LambdaLR(self.optimizer, ...)``):
    a schedule sets learning rates, it never clears gradients."""
    node = event.node
    if event.kind != "opaque" or not isinstance(node, ast.Call):
        return False
    name = ast.unparse(node.func).lower()
    return "sched" in name or "warmup" in name or name.rsplit(".", 1)[-1].endswith("lr")


def _called_per_batch(steps: GradSteps, fn: FunctionInfo) -> Optional[ast.Call]:
    """A ``self.<fn>(...)`` call inside a loop of another method of ``fn``'s class: a per-batch
    step method (tt-blacksmith's ``Trainer.train_step``, called from ``fit``'s batch loop)."""
    cls = fn.cls
    if cls is None:
        return None
    for method in cls.methods.values():
        if method is fn:
            continue
        for node in ast.walk(method.node):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == fn.name \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "self" \
                    and steps.scopes.loop_of(node) is not None:
                return node
    return None


def _rebound_in(loop: LoopInfo, names: set[str]) -> bool:
    bound: set[str] = set()
    for node in ast.walk(loop.node):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
    return bool(names) and names <= bound


def _fresh_optimizer(steps: GradSteps, step: GradEvent, loop: LoopInfo) -> bool:
    """A new optimizer over new leaves every iteration starts from clean gradients."""
    b = step.binding
    node = b.node if b is not None else None
    if not isinstance(node, ast.Call):
        return False
    if not (loop.node.lineno <= node.lineno <= (loop.node.end_lineno or 0)):
        return False
    params = node.args[0] if node.args else next(
        (k.value for k in node.keywords if k.arg == "params"), None)
    if params is None:
        return False
    names = {n.id for n in ast.walk(params) if isinstance(n, ast.Name)}
    if any(isinstance(n, ast.Call) for n in ast.walk(params)):
        return False  # model.parameters(): the same tensors as last iteration
    return _rebound_in(loop, names)


@register
class MissingZeroGrad(Rule):
    code = "PF103"
    name = "missing-zero-grad"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    summary = "An optimizer steps every iteration but its gradients are never cleared"
    frameworks = ("pytorch", "lightning", "fabric", "accelerate")
    explanation = """
## What it finds

A loop runs `backward()` and `optimizer.step()` on every iteration, but nothing in
the loop clears that optimizer's gradients: no `optimizer.zero_grad()`, no
`model.zero_grad()`, no `p.grad = None` loop. With several optimizers (a GAN), each
one is checked on its own: `opt_g.zero_grad()` does not clear the discriminator's
gradients that `opt_d.step()` applies.

The same holds for Lightning manual optimization (`self.automatic_optimization =
False`): Lightning then leaves `zero_grad` to the user, and `training_step` is the
loop body. Lightning Fabric also leaves `zero_grad` to the user. A per-batch step method of a
trainer class counts as the loop (`def train_step(self, batch): ... self.optimizer.step()`
called from a loop in another method of the class, tt-blacksmith PR 711) when no method of
the class clears that optimizer (handing it to a learning-rate schedule does not).

## Why it matters

`backward()` *adds* into `.grad`. Without a reset, step *n* applies the sum of the
gradients of all *n* batches so far: the update grows with every step, momentum and
Adam statistics are fed ever larger sums, and training diverges or crawls, silently.

## How to fix it

Call `optimizer.zero_grad()` (optionally `set_to_none=True`) once per step, before
`backward()` or right after `optimizer.step()`. With gradient accumulation, clear at
the accumulation boundary, after the step.

## When preflight stays silent

* Any reset of that optimizer's gradients in the loop, at any depth (inside the
  accumulation `if`, too), unless it sits on the other side of an `if`/`else` from the
  step (DAB-DETR issue 58: `if args.amp: optimizer.zero_grad(); ...` then
  `else: losses.backward(); optimizer.step()`: without `--amp` nothing clears): `opt.zero_grad()`, `opt.zero_grad(set_to_none=True)`,
  `model.zero_grad()`, `p.grad = None`, `p.grad.zero_()`, a local helper that does one
  of these, or `zero_grad()` on something preflight cannot identify.
* The optimizer is created inside the loop over tensors that are also created inside
  the loop (a fresh leaf and a fresh optimizer per iteration).
* `opt.step(closure)` (LBFGS: the closure clears and recomputes the gradients); the
  optimizer is handed to a function preflight cannot see; a DeepSpeed engine (its
  `step()` clears the gradients); Lightning automatic optimization; HF `Trainer`.
* No backward runs in the loop that steps.
"""
    bad_examples = examples("preflight.rules.code._pf103_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf103_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        steps = grad_steps(ctx)
        done: set[tuple[int, str]] = set()
        for step in steps.events:
            if step.kind != "step" or step.key is None:
                continue
            call = step.node
            if isinstance(call, ast.Call) and ((call.args and step.scaler is None) or call.keywords):
                continue  # opt.step(closure)
            b = step.binding
            if b is not None and "deepspeed" in (b.description or "").lower():
                continue
            where = _context(steps, step)
            if where is None:
                continue
            if isinstance(where, LoopInfo) and _fresh_optimizer(steps, step, where):
                continue
            events = _events(steps, where)
            if any(steps.resets(e, step) and not _exclusive(ctx, e.node, step.node) for e in events):
                continue
            if isinstance(where, FunctionInfo) and where.cls is not None and any(
                    steps.resets(e, step) and not _schedule_handoff(e) for m in where.cls.methods.values()
                    for e in steps.of(m)):
                continue
            ident = (id(where), step.key)
            if ident in done:
                continue
            done.add(ident)
            yield self._report(ctx, steps, step, where, events)

    def _report(self, ctx: FileContext, steps: GradSteps, step: GradEvent, where: Context,
                events: list[GradEvent]) -> Finding:
        key = step.key
        backward = next(e for e in events if e.kind == "backward")
        others = [e for e in events if e.kind == "zero" and not steps.same_optimizer(e, step)]
        if isinstance(where, LoopInfo):
            place = "this loop"
        elif where.name == "training_step" and where.cls in steps.manual_lightning:
            place = "`training_step` (manual optimization: Lightning leaves `zero_grad` to you)"
        else:
            place = f"`{where.name}` (its class calls it once per batch)"
        message = (
            f"`{key}` steps in {place}, but its gradients are never cleared there: "
            f"`backward()` adds into `.grad`, so each step applies the sum of "
            f"the gradients of every batch so far and the updates grow until training "
            f"diverges. Call `{key}.zero_grad()` once per step (after `{key}.step()` or "
            f"before the backward)")
        if others:
            message += (f"; `{_src(others[0].node)}` clears a different optimizer's "
                        f"gradients, not `{key}`'s")
        evidence = []
        b = step.binding
        if b is not None and getattr(b.node, "lineno", None):
            evidence.append(ctx.evidence(b.node, f"`{key}` is bound to {b.description}"))
        if isinstance(where, LoopInfo):
            evidence.append(ctx.evidence(where.node, "the loop that runs backward and steps"))
        elif where.name == "training_step" and where.cls in steps.manual_lightning:
            evidence.append(ctx.evidence(where.node, "Lightning calls `training_step` once per "
                                                     "batch with manual optimization"))
        else:
            caller = _called_per_batch(steps, where)
            if caller is not None:
                evidence.append(ctx.evidence(caller, f"`{where.name}` is called once per batch here"))
        evidence.append(ctx.evidence(backward.node, "backward adds into `.grad` here"))
        for other in others[:1]:
            evidence.append(ctx.evidence(other.node, "clears another optimizer only"))
        evidence.append(ctx.evidence(step.node, f"`{key}` applies the accumulated gradients"))
        return ctx.finding(self, step.node, message, evidence=evidence)


def _src(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 60 else text[:57] + "..."
