"""PF479 wrapped-forward-on-main-process-only: a forward through the model returned by
``accelerator.prepare`` (or ``DistributedDataParallel``) run by the main process alone: DDP's forward
broadcasts the module's buffers to every rank, which are not there, and the job hangs."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import (
    accelerator_names,
    calls,
    is_accelerator_receiver,
    target_text,
)
from preflight.rules._pf414_support import last_name
from preflight.rules._pf427_support import (
    rank_expr,
    rank_zero_flags_in,
    rank_zero_guard,
    rank_zero_test,
)
from preflight.rules.base import Rule, examples

# helper calls true on the main process only, taking the run's arguments: ``is_master(args)``
_MAIN_ONLY_CALLS = frozenset({"is_master", "is_main_process", "is_main", "is_rank_zero", "is_global_zero"})
_DDP = frozenset({"torch.nn.parallel.DistributedDataParallel", "torch.nn.parallel.distributed.DistributedDataParallel"})


@register
class WrappedForwardOnMainProcessOnly(Rule):
    code = "PF479"
    needs_text = ("prepare", "DistributedDataParallel")
    name = "wrapped-forward-on-main-process-only"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate", "pytorch")
    summary = ("A forward through the DDP-wrapped (prepared) model runs on the main process only: DDP's "
               "forward broadcasts buffers to every rank and the job hangs")
    explanation = """
## What it finds

`model(x)` where `model` is the name bound to the model returned by
`accelerator.prepare(...)` or `DistributedDataParallel(...)` in the same function,
inside `if accelerator.is_main_process:` / `if rank == 0:` (any rank-0 test), with no
rebinding of the name in between (`model = accelerator.unwrap_model(model)`).

Also (det149) the wrapped name passed, as it is, to a function defined at the top level of
the same file that calls that parameter (`model(x)`) and neither rebinds nor unwraps it,
when either the call sits under such a rank-0 test (`if rank == 0: evaluate(loader, rank,
model)`, dgl PR 4385, jpata/particleflow PR 233, FareedKhan-dev/train-llm-from-scratch
PR 32), or the function's own first statements send every other rank back before the
forward (`if not is_master(args): return metrics`, open_clip issue 1121 / PR 1155). The
finding is at the call that passes the model.

## Why it matters

In a multi-process run `accelerator.prepare` returns the model wrapped in
`DistributedDataParallel`. Its forward begins with a collective: with the default
`broadcast_buffers=True` and a module that has buffers (BatchNorm running statistics,
registered position ids), `_pre_forward` calls `_sync_buffers()`, a broadcast from
rank 0 (`torch/nn/parallel/distributed.py`, `_check_sync_bufs_pre_fwd`). Run by the main
process alone, that broadcast waits for ranks that never join it: evaluation "gets
stuck" with every GPU at 100% (accelerate issue 2081; maintainer: "you start something
on a different process without ever calling wait_for_everyone()").

## How to fix it

Evaluate every process on a prepared loader and `gather_for_metrics`, or run the
main-process forward through the bare module: `accelerator.unwrap_model(model)(x)`
(or `model.module(x)`).

## When preflight stays silent

* The forward goes through `accelerator.unwrap_model(model)`, `model.module`, or a name
  bound again before the call.
* The call is not under a rank-0 test of its own function, or the `else` branch makes
  the same call.
* The name was not bound from `prepare`/`DistributedDataParallel` in the same function.
* An enclosing test runs the branch in a single-process run only (`args.local_rank == -1`,
  `world_size == 1`, `not dist.is_initialized()`): nothing is wrapped there.
* The helper is a method, is imported from another file, is defined twice, or only
  passes the model on (`save(model)`, `helper2(model)`): one level of plain functions
  of the same file is read. open_clip's own `evaluate()` lives in `train.py` and is
  called from `main.py`, so that layout stays silent.
* A single-process run does not wrap the model: the finding only matters under a
  multi-process launch, and preflight cannot see the module's buffers, hence a warning.
"""
    bad_examples = examples("preflight.rules.code._pf479_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf479_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        wrapped = self._wrapped_models(ctx)
        if not wrapped:
            return
        flags = rank_zero_flags_in(ctx)
        for call in ctx.nodes(ast.Call):
            name = target_text(call.func)
            if name is None or name not in wrapped:
                continue
            fn = ctx.enclosing_function(call)
            binding = next((b for b, f in wrapped[name] if f is fn and b.lineno < call.lineno), None)
            if binding is None or self._rebound(ctx, name, binding, call, fn):
                continue
            guard = rank_zero_guard(ctx.ancestors, call, flags)
            if guard is None or _single_process_only(ctx, call):
                continue
            yield ctx.finding(
                self, call,
                f"`{name}` is the model wrapped on line {binding.lineno} (DistributedDataParallel in a "
                "multi-process run), and only the main process runs this forward: DDP's forward starts by "
                "broadcasting the module's buffers (BatchNorm statistics) to every rank, which are not running it, "
                "so the job hangs. Evaluate on every process, or forward through "
                f"`accelerator.unwrap_model({name})` here",
                evidence=[ctx.evidence(binding, "the model is wrapped here"),
                          ctx.evidence(guard, "only the main process runs this")])

        yield from self._through_helpers(ctx, wrapped, flags)

    def _through_helpers(self, ctx: FileContext, wrapped: dict[str, list[tuple[ast.Assign, Optional[ast.AST]]]],
                         flags: frozenset[str]) -> Iterable[Finding]:
        """The wrapped model passed to a function of this file that forwards it on rank 0 only: the call
        sits under a rank-0 test (``if rank == 0: evaluate(loader, model)``), or the function's other
        ranks return before its forward (``if not is_master(args): return``)."""
        defs = _module_functions(ctx)
        if not defs:
            return
        for call in ctx.nodes(ast.Call):
            if not isinstance(call.func, ast.Name) or call.func.id not in defs:
                continue
            helper = defs[call.func.id]
            fn = ctx.enclosing_function(call)
            if fn is helper:
                continue
            for name, param in _passed_names(call, helper):
                if name not in wrapped:
                    continue
                binding = next((b for b, f in wrapped[name] if f is fn and b.lineno < call.lineno), None)
                if binding is None or self._rebound(ctx, name, binding, call, fn):
                    continue
                forward = _param_forward(helper, param)
                if forward is None:
                    continue
                guard = rank_zero_guard(ctx.ancestors, call, flags)
                if _single_process_only(ctx, call):
                    continue
                if guard is not None:
                    where = ctx.evidence(guard, "only the main process runs this call")
                else:
                    exit_ = _workers_return_before(helper, forward, flags)
                    if exit_ is None:
                        continue
                    where = ctx.evidence(exit_, f"every other rank returns from `{helper.name}()` here")
                yield ctx.finding(
                    self, call,
                    f"`{name}` is the model wrapped on line {binding.lineno} (DistributedDataParallel in a "
                    f"multi-process run), passed to `{helper.name}()`, which forwards it on the main process "
                    f"only (`{param}(...)`, line {forward.lineno}): DDP's forward starts by broadcasting the "
                    "module's buffers (BatchNorm statistics) to every rank, which are not running it, so the job "
                    f"hangs. Pass the bare module (`{name}.module`) or evaluate on every process",
                    evidence=[ctx.evidence(binding, "the model is wrapped here"), where,
                              ctx.evidence(forward, "the forward through the wrapped model")])
                break

    @staticmethod
    def _wrapped_models(ctx: FileContext) -> dict[str, list[tuple[ast.Assign, Optional[ast.AST]]]]:
        """Names bound to a prepared/DDP-wrapped model: ``model, opt = accelerator.prepare(model, opt)``
        (a target whose argument at the same position has the same name) or ``model = DDP(model, ...)``."""
        ddp = {id(c) for c, q in calls(ctx) if q in _DDP}
        accels = accelerator_names(ctx)
        out: dict[str, list[tuple[ast.Assign, Optional[ast.AST]]]] = {}
        for node in ctx.nodes(ast.Assign):
            value = node.value
            if not isinstance(value, ast.Call) or len(node.targets) != 1:
                continue
            target = node.targets[0]
            names: list[str] = []
            func = value.func
            if id(value) in ddp:
                text = target_text(target)
                if text:
                    names.append(text)
            elif isinstance(func, ast.Attribute) and func.attr == "prepare" \
                    and is_accelerator_receiver(func.value, accels):
                elts = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
                if len(elts) == len(value.args):
                    for tgt, arg in zip(elts, value.args):
                        text = target_text(tgt)
                        if text and text == target_text(arg):
                            names.append(text)
            fn = ctx.enclosing_function(node)
            for name in names:
                out.setdefault(name, []).append((node, fn))
        return out

    @staticmethod
    def _rebound(ctx: FileContext, name: str, binding: ast.Assign, call: ast.Call, fn: Optional[ast.AST]) -> bool:
        for node in ctx.nodes(ast.Assign):
            if node is binding or not binding.lineno < node.lineno < call.lineno or ctx.enclosing_function(node) is not fn:
                continue
            if any(target_text(n) == name for t in node.targets for n in ast.walk(t)):
                return True
        return False


def _module_functions(ctx: FileContext) -> dict[str, ast.FunctionDef]:
    """Module-level functions of the file by name (a name defined twice is left out)."""
    seen: dict[str, list[ast.FunctionDef]] = {}
    for node in getattr(ctx.tree, "body", []):
        if isinstance(node, ast.FunctionDef):
            seen.setdefault(node.name, []).append(node)
    return {name: nodes[0] for name, nodes in seen.items() if len(nodes) == 1}


def _passed_names(call: ast.Call, helper: ast.FunctionDef) -> list[tuple[str, str]]:
    """(argument text, parameter name) for each plain name or attribute chain passed to ``helper``."""
    params = [a.arg for a in helper.args.posonlyargs + helper.args.args]
    out: list[tuple[str, str]] = []
    for i, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred):
            break
        text = target_text(arg)
        if text and i < len(params):
            out.append((text, params[i]))
    names = set(params) | {a.arg for a in helper.args.kwonlyargs}
    for kw in call.keywords:
        text = target_text(kw.value) if kw.arg else None
        if text and kw.arg in names:
            out.append((text, kw.arg))
    return out


def _own_nodes(fn: ast.FunctionDef) -> Iterable[ast.AST]:
    """The nodes of ``fn``'s body, not those of functions or lambdas nested in it."""
    stack: list[ast.AST] = list(fn.body)
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                stack.append(child)


def _param_forward(helper: ast.FunctionDef, param: str) -> Optional[ast.Call]:
    """The first ``param(...)`` call in ``helper``'s own body, when the parameter is never bound again
    nor unwrapped there (``model = model.module``, ``unwrap_model(model)``, ``model.module``)."""
    first: Optional[ast.Call] = None
    for node in _own_nodes(helper):
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.With)):
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For)) else \
                [i.optional_vars for i in node.items if i.optional_vars is not None]
            if any(isinstance(n, ast.Name) and n.id == param for t in targets for n in ast.walk(t)):
                return None
        if isinstance(node, ast.NamedExpr) and node.target.id == param:
            return None
        if isinstance(node, ast.Attribute) and node.attr == "module" and isinstance(node.value, ast.Name) \
                and node.value.id == param:
            return None
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name) and node.func.id == param:
                if first is None or (node.lineno, node.col_offset) < (first.lineno, first.col_offset):
                    first = node
            elif "unwrap" in (target_text(node.func) or "").lower() and any(
                    isinstance(a, ast.Name) and a.id == param for a in node.args):
                return None
    return first


def _workers_return_before(helper: ast.FunctionDef, forward: ast.Call,
                           flags: frozenset[str]) -> Optional[ast.If]:
    """A top-level ``if not <rank 0>: return`` of ``helper`` before ``forward``'s line."""
    for stmt in helper.body:
        if stmt.lineno >= forward.lineno:
            return None
        if isinstance(stmt, ast.If) and not stmt.orelse and isinstance(stmt.body[-1], ast.Return) \
                and _not_rank_zero(stmt.test, flags):
            return stmt
    return None


def _not_rank_zero(test: ast.AST, flags: frozenset[str]) -> bool:
    """``not is_master(args)``, ``not accelerator.is_main_process``, ``rank != 0``."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = test.operand
        if rank_zero_test(inner, flags):
            return True
        return isinstance(inner, ast.Call) and last_name(inner.func) in _MAIN_ONLY_CALLS
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.NotEq):
        left, right = test.left, test.comparators[0]
        zero = (isinstance(right, ast.Constant) and right.value == 0 and rank_expr(left)) or \
            (isinstance(left, ast.Constant) and left.value == 0 and rank_expr(right))
        return bool(zero) and not isinstance(getattr(right, "value", None), bool)
    return False


def _single_process_only(ctx: FileContext, node: ast.AST) -> bool:
    """Whether an ``if`` of ``node``'s own function runs it in a single-process run only, where nothing
    is wrapped: ``if args.local_rank == -1 and ...:``, ``if world_size == 1:``,
    ``if not dist.is_initialized():``."""
    child = node
    for anc in ctx.ancestors(node):
        if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            return False
        if isinstance(anc, ast.If) and child in anc.body:
            tests = anc.test.values if isinstance(anc.test, ast.BoolOp) and isinstance(anc.test.op, ast.And) \
                else [anc.test]
            if any(_single_process_test(t) for t in tests):
                return True
        child = anc
    return False


def _single_process_test(test: ast.AST) -> bool:
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
        left, right = test.left, test.comparators[0]
        for a, b in ((left, right), (right, left)):
            if isinstance(b, ast.UnaryOp) and isinstance(b.op, ast.USub) and isinstance(b.operand, ast.Constant) \
                    and b.operand.value == 1 and rank_expr(a):
                return True
            if isinstance(b, ast.Constant) and b.value == 1 and not isinstance(b.value, bool) \
                    and "world_size" in last_name(a.func if isinstance(a, ast.Call) else a).lower():
                return True
        return False
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = test.operand
        name = last_name(inner.func if isinstance(inner, ast.Call) else inner).lower()
        return name in ("is_initialized", "distributed", "is_distributed", "ddp", "use_ddp")
    return False
