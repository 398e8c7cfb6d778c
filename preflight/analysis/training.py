"""Which code trains: training calls, training loops, helper summaries, grad mode.

A *training call* is ``x.backward(...)``, ``accelerator/fabric/engine.backward(x)``,
``scaler.scale(x).backward()``, ``self.manual_backward(x)``,
``torch.autograd.backward(x)``, or ``opt.step()`` on something bound to an
optimizer (or a DeepSpeed engine). A function *trains* if it makes a training
call directly or through local helpers (a fixed point over the resolved call
graph). A loop is a *training loop* if its body, at any depth in the same
function, makes a training call or calls a helper that trains.

A function *runs in training* if it is called from a training loop, from a
function that trains, or from a Lightning ``training_step``. A function runs
*without grad* if it is decorated ``@torch.no_grad()`` / ``@inference_mode()``,
is a Lightning evaluation hook, or every resolved in-file call to it sits in a
no-grad region.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from typing import Optional

from preflight.analysis.bindings import MODULE, OPTIMIZER
from preflight.analysis.scopes import FunctionInfo, ScopeIndex, TrainingCall

BACKWARD_METHODS = frozenset({"backward", "manual_backward"})


def backward_value(call: ast.Call) -> Optional[ast.expr]:
    """The tensor a backward call differentiates, or None if it is not one."""
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr not in BACKWARD_METHODS:
        return None
    if call.args and not isinstance(call.args[0], ast.Starred):
        # accelerator.backward(loss), torch.autograd.backward(loss), self.manual_backward(loss)
        return call.args[0]
    receiver = func.value
    if isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Attribute) and (
            receiver.func.attr == "scale" and receiver.args):
        return receiver.args[0]  # scaler.scale(loss).backward()
    if func.attr == "manual_backward":
        return None
    return receiver


def classify_training_call(index: ScopeIndex, call: ast.Call, fn: FunctionInfo) -> Optional[TrainingCall]:
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    if func.attr in BACKWARD_METHODS:
        value = backward_value(call)
        if value is None:
            return None
        return TrainingCall(call=call, kind="backward", function=fn, value=value)
    if func.attr == "step":
        found = index.bindings.lookup(func.value, fn)
        if found is not None and (found.kind == OPTIMIZER or (found.kind == MODULE and found.steps)):
            return TrainingCall(call=call, kind="step", function=fn)
        # scaler.step(optimizer)
        if call.args:
            arg = index.bindings.lookup(call.args[0], fn)
            if arg is not None and arg.kind == OPTIMIZER:
                return TrainingCall(call=call, kind="step", function=fn)
    return None


def analyse_training(index: ScopeIndex) -> None:
    bindings = index.bindings
    callers_of: dict[FunctionInfo, set[FunctionInfo]] = defaultdict(set)
    helper_sites: list[tuple[ast.Call, FunctionInfo, FunctionInfo]] = []
    for call, fn in bindings.call_functions:
        found = classify_training_call(index, call, fn)
        if found is not None:
            index.training_calls.append(found)
            fn.trains = True
        target = bindings.target_of(call)
        if target is not None and target is not fn:
            callers_of[target].add(fn)
            helper_sites.append((call, fn, target))

    queue = [f for f in index.functions.values() if f.trains]
    while queue:
        done = queue.pop()
        for caller in callers_of.get(done, ()):
            if not caller.trains:
                caller.trains = True
                queue.append(caller)
    for call, fn, target in helper_sites:
        if target.trains and not target.is_module_scope:
            index.training_calls.append(TrainingCall(call=call, kind="helper", function=fn,
                                                     helper=target))
    index.training_calls.sort(key=lambda t: (t.call.lineno, t.call.col_offset))

    for tc in index.training_calls:
        loop = index.loop_of(tc.call)
        while loop is not None and not loop.training:
            loop.training = True
            loop.evidence = tc
            loop = loop.parent

    _in_training(index, helper_sites)
    _grad_modes(index)


def _in_training(index: ScopeIndex, helper_sites: list[tuple[ast.Call, FunctionInfo, FunctionInfo]]) -> None:
    callees: dict[FunctionInfo, set[FunctionInfo]] = defaultdict(set)
    queue: list[FunctionInfo] = []
    for call, fn, target in helper_sites:
        callees[fn].add(target)
        loop = index.loop_of(call)
        trains_here = (loop is not None and loop.training) or fn.trains or fn.hook == "lightning-train"
        if trains_here and not target.in_training:
            target.in_training = True
            queue.append(target)
    while queue:
        fn = queue.pop()
        for target in callees.get(fn, ()):
            if not target.in_training:
                target.in_training = True
                queue.append(target)


def _grad_modes(index: ScopeIndex) -> None:
    undecided: list[FunctionInfo] = []
    for fn in index.functions.values():
        if fn.decorator_grad is False:
            fn.grad_enabled = False
            fn.no_grad_reason = f"`{fn.name}` is decorated to run without gradients"
        elif fn.hook == "lightning-eval":
            fn.grad_enabled = False
            fn.no_grad_reason = f"Lightning runs `{fn.name}` with gradients disabled"
        elif fn.decorator_grad is None and not fn.is_module_scope:
            undecided.append(fn)
    changed = True
    rounds = 0
    while changed and rounds < 8:
        changed, rounds = False, rounds + 1
        for fn in undecided:
            if not fn.grad_enabled or not fn.call_sites:
                continue
            if all(_site_without_grad(index, site.call, site.caller) for site in fn.call_sites):
                fn.grad_enabled = False
                fn.no_grad_reason = f"every call of `{fn.name}` in this file runs without gradients"
                changed = True


def _site_without_grad(index: ScopeIndex, call: ast.Call, caller: FunctionInfo) -> bool:
    lexical, _ = index.lexical_grad(call)
    if lexical is not None:
        return not lexical
    return not caller.grad_enabled
