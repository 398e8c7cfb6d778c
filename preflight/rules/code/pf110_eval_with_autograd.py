"""PF110 eval-with-autograd: evaluation forwards that build autograd graphs nobody uses."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.dataflow import GradFlow, grad_flow
from preflight.analysis.evaluation import (
    EVAL,
    Evaluation,
    Key,
    ModeEvent,
    evaluation,
    map_key,
    may_matter,
)
from preflight.analysis.scopes import FunctionInfo
from preflight.diagnostics import Applicability, Category, Evidence, Finding, Fix, Severity
from preflight.fix import register_operation
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code._pf110_flag import eval_flag_call

# A name is corroborating evidence only, never enough on its own.
# another array framework's modules: Jittor/Paddle/MindSpore have their own eval() and no torch autograd
_OTHER_ROOTS = frozenset({"jittor", "paddle", "mindspore", "oneflow", "megengine", "mxnet", "tensorflow"})
_TORCH_ROOTS = frozenset({"torch", "lightning", "pytorch_lightning", "accelerate", "transformers", "deepspeed"})


def _other_framework(ctx: FileContext) -> bool:
    """The file imports another framework and nothing of torch's (MOSS ``models_jittor/generation.py``)."""
    roots: set[str] = set()
    for node in ctx.nodes(ast.Import, ast.ImportFrom):
        if isinstance(node, ast.Import):
            roots.update(a.name.split(".")[0] for a in node.names)
        elif node.module and not node.level:
            roots.add(node.module.split(".")[0])
    return bool(roots & _OTHER_ROOTS) and not roots & _TORCH_ROOTS


_EVAL_NAME = re.compile(
    r"^_*(val|valid|validate|validation|eval|evaluate|evaluation|test|testing|predict|prediction|"
    r"infer|inference|generate|sample|score|accuracy|metrics?|compute_metrics)(_[a-z0-9_]*)?$|"
    r"_(val|valid|validate|validation|eval|evaluate|evaluation|test|accuracy|predict|inference|"
    r"metrics?)$")


@register_operation("add-no-grad-decorator")
def _add_no_grad(node, params: dict[str, str]):
    """``def f(...)`` -> ``@torch.no_grad()`` closest to the ``def`` (below other decorators)."""
    import libcst

    if not isinstance(node, libcst.FunctionDef):
        raise TypeError(f"cannot decorate a {type(node).__name__}")
    deco = libcst.Decorator(decorator=libcst.parse_expression(params.get("decorator",
                                                                         "torch.no_grad()")))
    return node.with_changes(decorators=[*node.decorators, deco])


@register
class EvalWithAutograd(Rule):
    code = "PF110"
    name = "eval-with-autograd"
    severity = Severity.WARNING
    category = Category.MEMORY
    frameworks = ("pytorch", "lightning", "accelerate")
    fixable = True
    summary = "An evaluation forward pass runs with autograd on and builds a graph nobody uses"
    explanation = """
## What it finds

A forward pass in evaluation code that runs without `torch.no_grad()` /
`torch.inference_mode()`: after `model.eval()` (also `self.model.eval()`, or in a
helper that every caller calls after switching the model to evaluation), or in
a function that never differentiates and that the training loop calls besides
training (`val_loss = evaluate(model, val_loader)` inside the epoch loop). A
function name such as `evaluate` or `accuracy` only corroborates that dataflow;
it is never enough on its own. A function that trains under `if is_train:` and switches
the model to `eval()` on the flag's false path (`train_and_valid(..., is_train)`) is
judged on that path when a call of the file passes a literal `False` with gradients on
(jpata/particleflow); no fix is offered then (`no_grad` on the function would stop its
training path).

## Why it matters

With autograd on, every evaluation forward records a graph and keeps the
activations it would need for a backward that never comes: evaluation needs as
much memory as a training forward and runs slower (warning). When the outputs
or losses are collected across the evaluation loop (`preds.append(logits)`,
`total += loss`), every batch's graph stays alive until the loop ends and memory
grows with the size of the evaluation set until it runs out (error).

## How to fix it

Wrap the evaluation in `with torch.no_grad():` (or `torch.inference_mode()`), or
decorate the function with `@torch.no_grad()`. The autofix adds the decorator
only when that is provably safe: the function never differentiates (no
`backward`, `torch.autograd.grad`, `.grad`, `requires_grad`, `enable_grad`) and
nothing it returns carries a graph to a caller; when it returns a graph to
callers that do not train, the fix is offered as unsafe.

## When preflight stays silent

* The forward runs under `no_grad` / `inference_mode` (lexically, by decorator,
  or because every in-file caller runs it so), or in Lightning's
  `validation_step` / `test_step` / `predict_step` (already no-grad).
* A flag-dispatched function whose false path turns gradients off with the flag
  (`with torch.set_grad_enabled(is_train):`), is called with `False` only under `no_grad`,
  with a flag whose value the call does not spell, or trains on both paths.
* The function needs gradients: saliency maps, adversarial examples,
  `torch.autograd.grad`, gradient penalties, `requires_grad_` on inputs (FP-6).
* The function trains, or returns a graph that a training caller may differentiate
  (a returned value that only reaches `scheduler.step(...)`, a log or a print does not
  count), or
  is never called in the file and has no `eval()` evidence.
* The model is frozen or has no parameters; `model.train()` ran again before
  the forward.
* A single forward after `eval()` outside any loop (a unit test, one prediction),
  unless it follows the training loop of the same function or script (the final
  evaluation of the trained model), or its function is called (directly or through up
  to three helpers) from a training loop, a function that trains, or after a training
  loop: pytorch/examples' gcn evaluates with one full-graph forward every epoch.
"""
    bad_examples = examples("preflight.rules.code._pf110_examples", "PF110_BAD")
    good_examples = examples("preflight.rules.code._pf110_examples", "PF110_GOOD")
    fixed_examples = examples("preflight.rules.code._pf110_fixes", "PF110_FIXED")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if not may_matter(ctx) or _other_framework(ctx):
            return  # no mode switch and no training call, or not torch: nothing to report
        facts = evaluation(ctx)
        if not facts.forwards:
            return
        flow: Optional[GradFlow] = None
        for fn, forwards in facts.forwards.items():
            reported = False
            for call, key in forwards:
                if reported:
                    break
                evidence = self._eval_evidence(facts, fn, call, key)
                if evidence is None:
                    continue
                if flow is None:
                    flow = grad_flow(ctx)
                finding = self._check(ctx, facts, flow, fn, call, evidence)
                if finding is not None:
                    reported = True  # one finding per function
                    yield finding

    # -- evidence ----------------------------------------------------------
    def _eval_evidence(self, facts: Evaluation, fn: FunctionInfo, call: ast.Call,
                       key: Key) -> Optional[tuple[str, Optional[ModeEvent]]]:
        if fn.hook is not None:
            return None
        latest = facts.latest_before(fn, key, call)
        if latest is not None and latest.last == EVAL:
            return "eval", latest
        if latest is not None or fn.trains or fn.is_module_scope:
            return None
        entry = _eval_on_entry(facts, fn, key)
        if entry is not None:
            return "eval", entry  # every caller switched the model to evaluation before the call
        if _EVAL_NAME.search(fn.name) and fn.call_sites and any(
                _beside_training(facts, site.call, site.caller) for site in fn.call_sites):
            return "called", None
        return None

    def _check(self, ctx: FileContext, facts: Evaluation, flow: GradFlow, fn: FunctionInfo,
               call: ast.Call, evidence: tuple[str, Optional[ModeEvent]]) -> Optional[Finding]:
        scopes = facts.scopes
        if not flow.grad_enabled_at(call):
            return None
        kind, event = evidence
        fact = flow.fact(call)
        sources = fact.real_sources() if fact is not None else frozenset()
        flag = eval_flag_call(ctx, facts, fn, event, call) if kind == "eval" and fn.trains else None
        if fn.trains and flag is None:
            loop = scopes.loop_of(call)
            if loop is not None and loop.training:
                return None
            if sources & flow.backward_sources(None, fn):
                return None
            if fn in facts.input_grads:
                return None  # gradients with respect to inputs (saliency, gradient penalty)
        elif fn in facts.needs_grad and flag is None:
            return None
        summary = flow.summaries.get(fn)
        returns_graph = bool(summary is not None and summary.fact is not None and summary.fact.real)
        unsafe = False
        if returns_graph and not fn.trains:
            # a training caller excuses the graph only when what it gets back may reach a
            # backward: chexnet's `epoch_val` returns its summed loss tensor to
            # `scheduler.step(losstensor)`, which reads a number
            if kind != "eval" or not fn.call_sites or (any(
                    _in_training(facts, s.call, s.caller) for s in fn.call_sites)
                    and flow.consumers.consumed(("r", fn, ""))):
                return None
            unsafe = True
        stored = self._stored(ctx, flow, fn, sources)
        if kind == "eval" and stored is None and scopes.loop_of(call) is None and not any(
                scopes.loop_of(s.call) is not None for s in fn.call_sites):
            end = facts.first_training_loop_end(fn)
            if (end is None or end >= call.lineno) and not _run_by_training(facts, fn):
                # one forward (a unit test, a single prediction): bounded and transient
                return None
            # after the training loop of the same function (the final evaluation of a trained
            # model), or in a helper the training code runs every step or epoch, or after its
            # loop (pytorch/examples gcn's `test()`): at full size, a graph nobody uses
        severity = Severity.ERROR if stored is not None else Severity.WARNING
        model = ast.unparse(call.func)
        if len(model) > 40:
            model = "the model"
        if kind == "eval":
            why = f"after `{ast.unparse(event.origin.func)}()` switched it to evaluation" if (
                event is not None) else "in evaluation"
            if flag is not None:
                why += (f" (the `{flag[0]}` false path of `{fn.name}()`, which line {flag[1].lineno} "
                        f"runs with gradients on)")
        else:
            why = (f"in `{fn.name}()`, which never differentiates and which the training loop "
                   f"calls besides training")
        message = (f"`{model}(...)` runs {why} with autograd on: it records a graph and keeps "
                   f"activations for a backward that never comes")
        if stored is not None:
            message += (f", and `{ast.unparse(stored)[:60]}` keeps every batch's graph alive until "
                        f"the loop ends, so memory grows with the evaluation set")
        message += ". Run it under `torch.no_grad()` or `torch.inference_mode()`"
        ev = self._evidence(ctx, fn, call, event, kind, stored)
        if flag is not None:
            ev.append(ctx.evidence(flag[1], f"`{fn.name}()` is called here with `{flag[0]}` false, "
                                            "outside `torch.no_grad()`"))
        return ctx.finding(self, call, message, evidence=ev, severity=severity,
                           # no_grad on a function that also trains would stop its training path
                           fix=None if flag is not None else self._fix(ctx, facts, fn, unsafe))

    def _stored(self, ctx: FileContext, flow: GradFlow, fn: FunctionInfo,
                sources: frozenset[int]) -> Optional[ast.AST]:
        if not sources:
            return None
        for node, value, container in _stores(ctx, flow).get(fn, ()):
            fact = flow.fact(value)
            if fact is None or not (fact.real_sources() & sources) or fact.leaf:
                continue
            loop = flow.scopes.loop_of(node)
            if loop is not None and ast.unparse(container) not in loop.rebinds:
                return node
        return None

    def _evidence(self, ctx: FileContext, fn: FunctionInfo, call: ast.Call,
                  event: Optional[ModeEvent], kind: str, stored: Optional[ast.AST]) -> list[Evidence]:
        out: list[Evidence] = []
        if event is not None:
            out.append(ctx.evidence(event.node, "the model is switched to evaluation here" if (
                event.helper is None) else f"`{event.helper.name}()` switches the model to evaluation"))
        if kind == "called":
            for site in fn.call_sites[:2]:
                out.append(ctx.evidence(site.call, f"the training code calls `{fn.name}()` here"))
        if not fn.is_module_scope:
            out.append(ctx.evidence(fn.node, f"`{fn.name}()` has no backward, no `torch.autograd.grad` "
                                             "and no `no_grad`" if not fn.trains else
                                    f"`{fn.name}()` trains elsewhere, but not with this forward"))
        out.append(ctx.evidence(call, "forward with autograd on"))
        if stored is not None:
            out.append(ctx.evidence(stored, "graph-bearing output kept across iterations"))
        return out

    def _fix(self, ctx: FileContext, facts: Evaluation, fn: FunctionInfo, unsafe: bool) -> Optional[Fix]:
        node = fn.node
        if not isinstance(node, ast.FunctionDef) or fn.trains or fn in facts.needs_grad:
            return None
        if not any(a.name == "torch" and a.asname is None for imp in ctx.nodes(ast.Import)
                   for a in imp.names):
            return None
        fix = ctx.fix(node, f"Decorate `{fn.name}` with `@torch.no_grad()`", "add-no-grad-decorator",
                      decorator="torch.no_grad()")
        if unsafe:
            return Fix(description=fix.description + " (it returns a graph to its callers)",
                       operation=fix.operation, target=fix.target,
                       applicability=Applicability.UNSAFE, params=fix.params)
        return fix


def _in_training(facts: Evaluation, call: ast.Call, caller: FunctionInfo) -> bool:
    """The call runs in a training loop, or in a function that trains."""
    loop = facts.scopes.loop_of(call)
    while loop is not None:
        if loop.training:
            return True
        loop = loop.parent
    return caller.trains


def _beside_training(facts: Evaluation, call: ast.Call, caller: FunctionInfo) -> bool:
    """The call runs in a training loop, or after one in the same function (the epoch loop
    evaluates; the script tests after training)."""
    loop = facts.scopes.loop_of(call)
    while loop is not None:
        if loop.training:
            return True
        loop = loop.parent
    end = facts.first_training_loop_end(caller)
    return end is not None and end < call.lineno


def _eval_on_entry(facts: Evaluation, fn: FunctionInfo, key: Key, depth: int = 2) -> Optional[ModeEvent]:
    """The caller's ``.eval()`` when every in-file call of ``fn`` comes after its caller (or, up to
    ``depth`` levels, the caller's own callers) left the object ``key`` in evaluation mode
    (gcn's ``train_iter`` calling ``model.eval()`` and then ``test(model, ...)``)."""
    sites = [s for s in fn.call_sites if not s.constructor]
    if not sites or depth <= 0:
        return None
    scopes = facts.scopes
    first: Optional[ModeEvent] = None
    for site in sites:
        args = dict(scopes.bindings.iter_arg_params(site.call, fn))
        mapped = map_key(scopes, key, fn, args, site.call, site.caller)
        if mapped is None:
            return None
        latest = facts.latest_before(site.caller, mapped, site.call)
        if latest is None and not site.caller.trains and not site.caller.is_module_scope:
            latest = _eval_on_entry(facts, site.caller, mapped, depth - 1)
        if latest is None or latest.last != EVAL:
            return None
        first = first or latest
    return first


def _run_by_training(facts: Evaluation, fn: FunctionInfo, depth: int = 3) -> bool:
    """``fn`` is called, directly or through up to ``depth`` helpers, inside a training loop, from
    a function that trains, or after the training loop of its caller: it evaluates the model being
    trained, once per step or epoch or at the end, not once in a unit test."""
    seen: set[int] = set()
    frontier = [fn]
    for _ in range(depth):
        nxt: list[FunctionInfo] = []
        for f in frontier:
            for site in f.call_sites:
                if site.constructor or id(site.call) in seen:
                    continue
                seen.add(id(site.call))
                if _in_training(facts, site.call, site.caller) or _beside_training(
                        facts, site.call, site.caller):
                    return True
                nxt.append(site.caller)
        frontier = nxt
    return False


Store = tuple[ast.AST, ast.expr, ast.expr]


def _stores(ctx: FileContext, flow: GradFlow) -> dict[FunctionInfo, list[Store]]:
    """``c.append(v)`` / ``c.extend(v)`` / ``c += v`` by function, computed once per file."""

    def build() -> dict[FunctionInfo, list[Store]]:
        out: dict[FunctionInfo, list[Store]] = {}
        for node in ctx.nodes(ast.Call, ast.AugAssign):
            if isinstance(node, ast.Call):
                if not (isinstance(node.func, ast.Attribute) and node.func.attr in (
                        "append", "extend") and len(node.args) == 1):
                    continue
                store: Store = (node, node.args[0], node.func.value)
            elif isinstance(node.op, ast.Add):
                store = (node, node.value, node.target)
            else:
                continue
            out.setdefault(flow.scopes.function_of(node), []).append(store)
        return out

    return ctx.cached("pf110-stores", build)
