"""Backward then the optimizer's step on every pass, the two ways of an ``if``/``else`` included.

Many loops back-propagate and step one way with an AMP scaler and another without it, both on every
batch: facebookresearch/ijepa @ 52c1ae95d05f743e000e8f10a1f3a79b10cff048 ``src/train.py:322-328``::

    if use_bfloat16:
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    else:
        loss.backward()
        optimizer.step()

Whichever way runs, the optimizer steps once per backward: no gradient accumulation.
:func:`stepped_calls` reads a statement list (a loop's body, a function's body) that way for
:mod:`preflight.adapters.loop_shapes` (``every_batch``) and :mod:`preflight.adapters.loop_update` (``every_update``): an ``if`` with an ``else``
counts when both of its ways back-propagate and step, each on its own; an ``if`` without an ``else`` or a
nested loop counts when its own statements back-propagate and then step (:func:`_self_contained`: the pair runs
together or not at all); a ``with`` or ``try`` block is not looked into (its calls may not run, as before).
"""

from __future__ import annotations

import ast
from typing import Any, Callable, Optional

from preflight.adapters.loop_shapes import _calls_at_level

from preflight.analysis.syntax import dotted_name as _dotted

_PLAIN_CONTEXTS = ("record_function", "autocast", "nullcontext", "suppress", "detect_anomaly", "sdpa_kernel",
                   "scale_loss")  # apex amp.scale_loss: backward of the scaled loss, the step stays explicit


def decided(stmts: list[ast.stmt], decide: Callable[[ast.expr], Optional[bool]]) -> list[ast.stmt]:
    """``stmts`` with each ``if`` whose test ``decide`` settles replaced by the way it takes, and the body of
    a ``with`` block that only labels or casts the code (a profiler's ``record_function``, ``autocast``)
    inlined: facebookresearch/dlrm @ 090956ee ``dlrm_s_pytorch.py:1604-1621`` ``with record_function("DLRM
    backward"):`` ``E.backward()``, ``if (args.mlperf_logging and (j + 1) % args.mlperf_grad_accum_iter ==
    0) or not args.mlperf_logging: optimizer.step()``, true on every pass (with ``--mlperf-logging``, through
    :func:`decider`: the option's default accumulation is 1). A context that may change what a step does (``accelerator.accumulate``, ``no_sync``) stays whole."""
    out: list[ast.stmt] = []
    for stmt in stmts:
        if isinstance(stmt, ast.If):
            taken = decide(stmt.test)
            if taken is not None:
                out.extend(decided(stmt.body if taken else stmt.orelse, decide))
                continue
            if stmt.orelse:  # both ways read alike (facebookresearch/swav main_swav.py:319-323: apex's
                # ``with amp.scale_loss(...)`` in one, ``loss.backward()`` in the other)
                out.append(ast.copy_location(ast.If(test=stmt.test, body=decided(stmt.body, decide),
                                                     orelse=decided(stmt.orelse, decide)), stmt))
                continue
        if isinstance(stmt, (ast.With, ast.AsyncWith)) and all(
                isinstance(item.context_expr, ast.Call)
                and (_dotted(item.context_expr.func) or "").rsplit(".", 1)[-1] in _PLAIN_CONTEXTS
                for item in stmt.items):
            out.extend(decided(stmt.body, decide))
            continue
        out.append(stmt)
    return out


def decider(idx: Any) -> Callable[[ast.expr], Optional[bool]]:
    """``idx.truth``, also deciding ``counter % K == 0`` true when ``K`` resolves to 1 (every integer is a
    multiple of 1: dlrm's ``(j + 1) % args.mlperf_grad_accum_iter == 0`` with the option's default 1) inside
    ``and``/``or``/``not``."""
    def decide(test: ast.expr) -> Optional[bool]:
        known = idx.truth(test)
        if known is not None:
            return known
        if isinstance(test, ast.BoolOp):
            values = [decide(v) for v in test.values]
            if isinstance(test.op, ast.And):
                return False if False in values else (None if None in values else True)
            return True if True in values else (None if None in values else False)
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            inner = decide(test.operand)
            return None if inner is None else not inner
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq)) \
                and isinstance(test.left, ast.BinOp) and isinstance(test.left.op, ast.Mod) \
                and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value == 0:
            k = idx.resolve(test.left.right)
            if k is not None and k.value == 1 and not isinstance(k.value, bool):
                return isinstance(test.ops[0], ast.Eq)
        return None
    return decide


def stepped_calls(stmts: list[ast.stmt], is_step: Callable[[ast.Call], bool]
                  ) -> tuple[list[ast.Call], list[ast.Call], bool]:
    """(the ``backward`` calls each followed by an optimizer step, those steps, whether a ``backward`` is
    left with no step after it) among the statements that run each time ``stmts`` run."""
    stepped: list[ast.Call] = []
    steps: list[ast.Call] = []  # every step after the first backward, as loop_shapes always counted them
    pending: list[ast.Call] = []
    seen = False
    # a nested loop back-propagates on its passes without its own step, and a step of this level follows it:
    # several backward passes per step (its calls are not read at this level); that step is left out of
    # ``steps`` so that the readers that require every step of a loop among them say nothing
    hidden = nested_left = False
    for stmt in stmts:
        whole = _self_contained(stmt, is_step) if not pending else None
        if whole is not None:  # a block that back-propagates and steps on its own (see _self_contained)
            stepped += whole[0]
            steps += whole[1]
            seen = True
            continue
        if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)) and any(
                isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "backward"
                for n in ast.walk(stmt)):
            hidden = True
        if isinstance(stmt, ast.If) and stmt.orelse and not pending:
            done = stepped_calls(stmt.body, is_step)
            other = stepped_calls(stmt.orelse, is_step)
            if done[0] and other[0] and not done[2] and not other[2]:
                stepped += done[0] + other[0]
                steps += done[1] + other[1]
                seen = True
                continue
            skipped = _skip_way(stmt, done, other)
            if skipped is not None:
                stepped += skipped[0]
                steps += skipped[1]
                seen = True
                continue
            scaled = _scaler_way(stmt, done, other)
            if scaled is not None:
                stepped += scaled[0]
                steps += scaled[1]
                seen = True
                continue
            both = _backward_only(stmt.body), _backward_only(stmt.orelse)
            if both[0] and both[1]:  # each way back-propagates, the step follows the ``if``
                pending += both[0] + both[1]
                seen = True
                continue
        if pending and _continues(stmt):
            # ``if step % K != 0: continue`` after the backward (Guitaricet/relora @ 176f376 torchrun_main.py:796-800):
            # some passes never reach the step below: not one step per backward
            nested_left = True
        if seen and pending:
            looped = _steps_of_optimizers(stmt)
            if looped and not hidden:
                stepped += pending
                pending = []
                steps += looped
                continue
        for call in _calls_at_level(stmt):
            if isinstance(call.func, ast.Attribute) and call.func.attr == "backward":
                pending.append(call)
                seen = True
            elif seen and is_step(call):
                if hidden:  # it steps the sum of the nested loop's passes: not counted among the steps here
                    nested_left = True
                    continue
                stepped += pending
                pending = []
                steps.append(call)
    return stepped, steps, bool(pending) or nested_left


def _continues(stmt: ast.stmt) -> bool:
    """A ``continue`` of the loop around ``stmt`` (one in a nested loop or function is its own)."""
    todo: list[ast.AST] = [stmt]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Continue):
            return True
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                             ast.ClassDef)):
            continue
        todo.extend(ast.iter_child_nodes(node))
    return False


def _self_contained(stmt: ast.stmt, is_step: Callable[[ast.Call], bool]
                    ) -> Optional[tuple[list[ast.Call], list[ast.Call]]]:
    """(the backward calls, the steps) of a block that back-propagates and steps the optimizer on its own, when
    no backward waits for a step before it: an ``if`` without an ``else`` whose body does both (facebookresearch/
    demucs @ e976d93 ``demucs/solver.py:369-388`` ``if train: loss.backward(); ...; self.optimizer.step()``,
    weihua916/powerful-gnns @ 9a2ce8a ``main.py:34-37`` ``if optimizer is not None: ...``: the two run together or not at
    all), or a nested loop whose every pass does both (seungwonpark/melgan @ aca5990 ``utils/train.py:85-98``
    ``for _ in range(hp.train.rep_discriminator): ...; loss_d.backward(); optim_d.step()`` after the generator's
    own backward and step): each backward is still one step. Every backward and step under the block must be
    those paired ones: a step under a test of its own (``if (i + 1) % K == 0``), a step-count test, a loop's
    ``else`` or an ``else`` way that trains say nothing."""
    if isinstance(stmt, ast.If):
        if any(isinstance(n, ast.Mod) for n in ast.walk(stmt.test)):
            return None  # ``if (i + 1) % K == 0``: the accumulation shape's step count
        if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
               and (n.func.attr in ("backward", "step") or is_step(n)) for s in stmt.orelse for n in ast.walk(s)):
            return None
    elif not isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)) or stmt.orelse:
        return None
    backward, steps, left = stepped_calls(stmt.body, is_step)
    if not backward or left:
        return None
    paired = {id(c) for c in backward + steps}
    for n in (x for s in stmt.body for x in ast.walk(s)):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and id(n) not in paired and (
                n.func.attr in ("backward", "no_sync", "no_backward_sync") or is_step(n)):
            return None
    return backward, steps


def _is_skip(stmts: list[ast.stmt]) -> bool:
    """A way of an ``if`` that only passes over the batch: ``pass``, ``continue``, a docstring-like constant."""
    return all(isinstance(s, (ast.Pass, ast.Continue)) or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
               for s in stmts)


def _skip_way(stmt: ast.If, done: tuple[list[ast.Call], list[ast.Call], bool],
              other: tuple[list[ast.Call], list[ast.Call], bool]
              ) -> Optional[tuple[list[ast.Call], list[ast.Call]]]:
    """An ``if``/``else`` one of whose ways skips the batch (``pass``/``continue``) while the other
    back-propagates and steps (snap-stanford/ogb @ 61e9784 ``examples/graphproppred/mol/main_pyg.py:24-36``
    ``if batch.x.shape[0] == 1 or ...: pass`` ``else: ...; loss.backward(); optimizer.step()``): a batch
    either trains with its own step or not at all, never one step for several (the backward calls, the steps)."""
    for ours, theirs in ((done, stmt.orelse), (other, stmt.body)):
        if ours[0] and not ours[2] and _is_skip(theirs):
            return ours[0], ours[1]
    return None


def _steps_of_optimizers(stmt: ast.stmt) -> list[ast.Call]:
    """The ``o.step()`` calls of a loop over the job's optimizers whose body only steps them (KellerJordan/
    cifar10-airbench @ f1c599c ``airbench94_muon.py:403-404`` ``for opt in optimizers: opt.step()``): each
    optimizer steps once per pass. The iterated name must say optimizer (``optimizers``, ``opts``)."""
    if not isinstance(stmt, ast.For) or stmt.orelse or not isinstance(stmt.target, ast.Name):
        return []
    over = (_dotted(stmt.iter) or "").rsplit(".", 1)[-1].lower()
    if not over.startswith("opt") or not stmt.body:
        return []
    name = stmt.target.id
    out: list[ast.Call] = []
    for s in stmt.body:
        call = s.value if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) else None
        if call is None or not isinstance(call.func, ast.Attribute) or call.func.attr != "step" or call.args \
                or not isinstance(call.func.value, ast.Name) or call.func.value.id != name:
            return []
        out.append(call)
    return out


def _backward_only(stmts: list[ast.stmt]) -> list[ast.Call]:
    """The ``backward()`` calls of a way of an ``if`` that back-propagates on every pass and steps no optimizer
    (facebookresearch/swav @ 06b1b7cb main_swav.py:319-329 ``if args.use_fp16: with apex.amp.scale_loss(loss,
    optimizer) as scaled_loss: scaled_loss.backward()`` ``else: loss.backward()``, then ``optimizer.step()``
    after the ``if``); empty when it does not, or steps, or holds a nested block."""
    calls = [c for s in stmts for c in _calls_at_level(s)]
    if any(isinstance(s, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try))
           for s in stmts):
        return []
    if any(isinstance(c.func, ast.Attribute) and c.func.attr == "step" for c in calls):
        return []
    return [c for c in calls if isinstance(c.func, ast.Attribute) and c.func.attr == "backward"]


_ACCUMULATING = ("update_grad", "accumulate", "accum_iter", "accumulation_steps", "need_update")


def _scaler_way(stmt: ast.If, done: tuple[list[ast.Call], list[ast.Call], bool],
                other: tuple[list[ast.Call], list[ast.Call], bool]
                ) -> Optional[tuple[list[ast.Call], list[ast.Call]]]:
    """An ``if``/``else`` one of whose ways back-propagates a loss and steps an optimizer while the other
    hands that same loss and optimizer to one call, timm's loss-scaler convention
    (``NativeScaler.__call__(loss, optimizer, ...)``: ``scale(loss).backward()``, ``step(optimizer)``,
    ``update()``): hustvl/Vim @ dd0358ad ``vim/engine.py:82-90`` ``if isinstance(loss_scaler,
    timm.utils.NativeScaler): loss_scaler(loss, optimizer, clip_grad=...)`` ``else: loss.backward(); ...;
    optimizer.step()``, and NVlabs/MambaVision @ 7860a506 ``mambavision/train.py:879-895`` (``if loss_scaler
    is not None``). Either way the optimizer steps once: (the backward calls, the steps). The call must be
    the way's only statement-level call with the loss and the optimizer as its first two arguments and no
    accumulation switch among its keywords (MAE's ``update_grad=``)."""
    for ours, theirs in ((done, stmt.orelse), (other, stmt.body)):
        backward, steps, left = ours
        if not backward or left or len(steps) != 1:
            continue
        loss = backward[0].func.value if isinstance(backward[0].func, ast.Attribute) else None
        if backward[0].args or loss is None or not isinstance(steps[0].func, ast.Attribute) or steps[0].args:
            continue
        optimizer = steps[0].func.value
        calls = [c for s in theirs for c in _calls_at_level(s)
                 if len(c.args) >= 2 and ast.dump(c.args[0]) == ast.dump(loss)
                 and ast.dump(c.args[1]) == ast.dump(optimizer)]
        if len(calls) != 1 or any(k.arg is None or k.arg in _ACCUMULATING for k in calls[0].keywords):
            continue
        if any(isinstance(c.func, ast.Attribute) and c.func.attr in ("backward", "step")
               for s in theirs for c in _calls_at_level(s)):
            continue
        return backward, steps + calls
    return None


def stepped_in_loops(tree: ast.AST, optimizers: frozenset[str] = frozenset()) -> set[int]:
    """ids of the ``backward()`` calls of a loop's body (a function's ``for batch in loader:``) each followed
    by the optimizer's step on every pass, the loop holding no other optimizer step (one under a
    condition, ``if (i + 1) % K == 0``, is accumulation): hustvl/Vim @ dd0358ad ``vim/engine.py:36-90``
    ``train_one_epoch``, whose loop steps on every batch one of two ways (:func:`_scaler_way`). ``optimizers``:
    names the module binds to a ``torch.optim`` class (:func:`~preflight.adapters.loop_shapes._optimizer_names`),
    steps whatever they are called."""
    from preflight.adapters.loop_shapes import _optimizer_step

    out: set[int] = set()
    for loop in ast.walk(tree):
        if not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)):
            continue
        backward, steps, left = stepped_calls(loop.body, lambda c: _optimizer_step(c, optimizers))
        if not backward or left:
            continue
        if any(isinstance(n, ast.Call) and _optimizer_step(n, optimizers) and not any(n is s for s in steps)
               for n in ast.walk(loop)):
            continue
        out.update(id(c) for c in backward)
    return out
