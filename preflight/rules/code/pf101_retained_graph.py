"""PF101 retained-graph: a graph-bearing value stored beyond its training step."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight._record import dataclass
from preflight.analysis.bindings import MODULE, MODULE_CONTAINER, PARAMETER
from preflight.analysis.context import FileContext
from preflight.analysis.dataflow import CONTAINER, SCALAR, GradFact, GradFlow, grad_flow
from preflight.analysis.meter_stores import MeterStore, arith_leaves, meter_stores
from preflight.analysis.rebinds import container_key_text
from preflight.analysis.scopes import FunctionInfo, LoopInfo, ScopeIndex, scope_index
from preflight.diagnostics import Category, Evidence, Finding, Fix, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code._pf101_support import (
    assigned_before,
    float_safe_accumulator,
    function_rebinds,
    grows_with_loop,
    is_tensor_buffer,
    reset_in_loop,
    text,
)

# method -> index of the stored argument
_STORE_METHODS = {"append": 0, "extend": 0, "insert": 1, "appendleft": 0, "extendleft": 0}


@dataclass
class _Store:
    node: ast.AST  # where the finding points
    stmt: ast.AST
    container: ast.expr
    value: ast.expr
    kind: str  # "append" | "augassign" | "accumulate" | "subscript"
    key: Optional[ast.expr] = None
    fixable: bool = True
    via: Optional[MeterStore] = None  # kind "method": the job's class method that keeps the value


@dataclass
class _Where:
    loop: Optional[LoopInfo]  # the training loop the container outlives, or None: a call
    function: FunctionInfo


def _root(node: ast.expr) -> ast.expr:
    while isinstance(node, ast.Subscript):
        node = node.value
    return node


_ARITH = (ast.Add, ast.Sub, ast.Mult, ast.Div)


def _retains(flow: GradFlow, where: _Where) -> bool:
    """A backward of the loop (or function) keeps its graph (``retain_graph=True``)."""
    for site in flow.backward_sites_in(where.loop, where.function):
        call = site.call
        if isinstance(call, ast.Call) and any(
                k.arg in ("retain_graph", "create_graph") and not (
                    isinstance(k.value, ast.Constant) and not k.value.value) for k in call.keywords):
            return True
    return False


def _micro_batch_loop(loop: LoopInfo) -> bool:
    """``for _ in range(<...accumulation steps...>)``: the micro-batches of one step."""
    node = loop.node
    if not isinstance(node, ast.For) or not isinstance(node.iter, ast.Call):
        return False
    call = node.iter
    if not (isinstance(call.func, ast.Name) and call.func.id == "range") or len(call.args) != 1:
        return False
    bound = text(call.args[0]).lower()
    return "accum" in bound or bound.endswith("micro_batches") or bound.endswith("gas")


def _same(a: ast.AST, b: ast.AST) -> bool:
    return container_key_text(a) is not None and container_key_text(a) == container_key_text(b)


def _stores(ctx: FileContext, scopes: ScopeIndex) -> Iterable[_Store]:
    """Every statement shaped like a store, before asking whether its value has a graph."""
    for call in ctx.nodes(ast.Call):
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr in _STORE_METHODS):
            continue
        index = _STORE_METHODS[func.attr]
        if len(call.args) != index + 1 or call.keywords or isinstance(call.args[index], ast.Starred):
            continue
        yield _Store(call, scopes.statement_of(call) or call, func.value, call.args[index], "append")
    for aug in ctx.nodes(ast.AugAssign):
        if isinstance(aug.op, (ast.Add, ast.Sub)):
            yield _Store(aug, aug, aug.target, aug.value, "augassign")
    for assign in ctx.nodes(ast.Assign):
        if len(assign.targets) != 1:
            continue
        target = assign.targets[0]
        if isinstance(target, ast.Subscript):
            yield _Store(assign, assign, target.value, assign.value, "subscript", target.slice)
            continue
        value = assign.value
        if not (isinstance(value, ast.BinOp) and isinstance(value.op, _ARITH)):
            continue
        if isinstance(value.op, (ast.Add, ast.Sub)) and _same(value.left, target):
            other = value.right  # total = total + v
        elif isinstance(value.op, ast.Add) and _same(value.right, target):
            other = value.left  # total = v + total
        elif any(_same(leaf, target) for leaf in arith_leaves(value)):
            # ema = 0.9 * ema + 0.1 * loss: the whole value is kept; no simple fix
            yield _Store(assign, assign, target, value, "accumulate", fixable=False)
            continue
        else:
            continue
        yield _Store(assign, assign, target, other, "accumulate")
    for kept in meter_stores(ctx):
        # ``meter.update(loss, n)`` of a job's class whose ``update`` does ``self.sum += val * n``
        yield _Store(kept.call, scopes.statement_of(kept.call) or kept.call, kept.receiver, kept.value,
                     "method", via=kept)


@register
class RetainedGraph(Rule):
    code = "PF101"
    name = "retained-graph"
    severity = Severity.ERROR
    category = Category.MEMORY
    fixable = True
    summary = "A value that carries an autograd graph is kept beyond its training step"
    explanation = """
## What it finds

A tensor that still carries its autograd graph (a loss, a model output, anything
computed from them) is stored somewhere that outlives the training step: appended
to a list created before the loop (`losses.append(loss)`), added to a running total
(`total_loss += loss`), written under a per-step key (`history[step] = loss`),
kept on an object (`self.q_history.append(q)`), or passed to a method of a class the
job defines that keeps it (`meter.update(loss, n)` where `AverageMeter.update` does
`self.sum += val * n`, in the same file or a project module the file imports).

## Why it matters

A stored tensor keeps its `grad_fn`, and the graph behind it stays alive.

* **No backward ran on that graph in the step** (error): every step keeps all of its
  saved activations. GPU memory grows step after step until the job dies of OOM,
  often hours in.
* **Backward already ran on it** (warning): backward freed the saved activations,
  but every step still keeps the stored tensor and its chain of graph nodes. Memory
  grows slowly, and a running `total += loss` builds one ever-longer graph.

## How to fix it

Store the value without its graph: `losses.append(loss.detach())`, or a Python
number for logging: `total_loss += loss.item()` (the autofix uses `.item()` only
for a total that starts as a number literal and is only printed or logged, and
`.detach()` everywhere else). Never detach something a later backward needs.

## When preflight stays silent

* The value was cut from its graph: `.item()`, `.detach()`, `.tolist()`,
  `float()`, `.cpu().numpy()`, `.data`, comparisons, `argmax`.
* The store runs without autograd: inside `with torch.no_grad()` /
  `torch.inference_mode()`, in a function decorated with them, in a function every
  in-file caller runs without grad, or in Lightning's `validation_step`,
  `test_step` and `predict_step`.
* The container is consumed by a later backward (`torch.stack(losses).mean().backward()`,
  `sum(losses).backward()`, `torch.autograd.grad(...)`), is returned (itself, or a
  tensor computed from it) to a caller that does so or that preflight cannot see,
  or is passed whole to a function preflight cannot see. Returning or printing
  only numbers cut from it (`sum(l.item() for l in losses) / len(losses)`) does
  not count: the tensors stay in the container until the function returns.
* The value went through an object preflight cannot see (`meter.update(loss)`
  on a library class such as torchmetrics', or a class it cannot find in the job),
  or a meter of the job that cuts the graph itself (`self.sum += float(val) * n`,
  `val = val.item()` first) or is reset on every step. What comes out of a meter
  (`history.append(meter.avg)`) is not assumed to carry a graph.
* The container is re-created (or cleared) on every iteration, the stored things
  are parameters or `requires_grad` leaves (`params_to_optimize.append(param)`), or
  the container is an `nn.ModuleList` / `nn.ParameterList`.
* Where the analysis cannot tell where a value came from, it says nothing.
"""
    bad_examples = examples("preflight.rules.code._pf101_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf101_good_examples", "GOOD_EXAMPLES")
    fixed_examples = examples("preflight.rules.code._pf101_fixes", "FIXED_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        # Where a store could outlive its step depends on scopes alone: files with no
        # such store (most model and pipeline files) never pay for the grad dataflow.
        scopes = scope_index(ctx)
        candidates: list[tuple[_Store, ast.expr, str, FunctionInfo, _Where]] = []
        for store in _stores(ctx, scopes):
            root = _root(store.container)
            root_text = container_key_text(root)
            if root_text is None:
                continue
            fn = scopes.function_of(store.stmt)
            where = self._where(ctx, scopes, store, root_text, fn)
            if where is not None and store.via is not None and _meter_reset(store.via, root_text, where):
                continue  # the meter is reset on every step (``meter.reset()`` in the same loop or call)
            if where is not None:
                candidates.append((store, root, root_text, fn, where))
        if not candidates:
            return
        flow = grad_flow(ctx)
        if not flow.facts:
            return
        for store, root, root_text, fn, where in candidates:
            finding = self._check_store(ctx, flow, store, root, root_text, fn, where)
            if finding is not None:
                yield finding

    # -- one store ---------------------------------------------------------
    def _check_store(self, ctx: FileContext, flow: GradFlow, store: _Store, root: ast.expr,
                     root_text: str, fn: FunctionInfo, where: _Where) -> Optional[Finding]:
        fact = flow.fact(store.value)
        if fact is None or not fact.real or fact.leaf:
            return None
        if not flow.grad_enabled_at(store.stmt):
            return None
        scopes = flow.scopes
        bound = scopes.bindings.lookup(root, fn)
        if bound is not None and bound.kind in (MODULE, MODULE_CONTAINER, PARAMETER):
            return None
        done = flow.backward_sources(where.loop, fn if where.loop is None else where.function)
        real = fact.real_sources()
        freed = all(s in done or flow.origin(s).backwarded for s in real)
        # A graph backward already freed (no ``retain_graph``) cannot be differentiated
        # again by a caller: returning the total (``return loss_sum / n``) is no excuse.
        final = freed and not _retains(flow, where)
        if flow.consumers.consumed(flow.consumers.key(root, fn), unknown_callers=not final):
            return None
        if store.kind == "subscript":
            if where.loop is None or is_tensor_buffer(ctx, flow, root_text, fn):
                return None
            if store.key is None or not grows_with_loop(ctx, store.key, where.loop):
                return None
        return self._report(ctx, flow, store, fact, where, root_text, freed)

    def _where(self, ctx: FileContext, scopes: ScopeIndex, store: _Store, root_text: str,
               fn: FunctionInfo) -> Optional[_Where]:
        """The training loop (or the function) a store outlives; None if it does not."""
        loop = scopes.loop_of(store.node)
        micro = None  # an accumulation loop inside one optimizer step, skipped over
        while loop is not None:
            if root_text in loop.rebinds:
                return None  # a fresh container every iteration
            if loop.training:
                if micro is None and _micro_batch_loop(loop):
                    micro = loop
                else:
                    return _Where(loop, fn)
            loop = loop.parent
        if micro is not None:
            # ``for _ in range(gradient_accumulation_steps)`` in a step function: the
            # list holds that many losses of ONE optimizer step and dies with the call.
            if store.kind == "subscript" or fn.is_module_scope or root_text.startswith("self."):
                return _Where(micro, fn)
            if root_text in fn.params or root_text not in fn.bound or root_text in fn.declared_global:
                return _Where(micro, fn)
            return None
        if store.kind == "subscript" or fn.is_module_scope:
            return None
        if root_text.startswith("self."):
            cls = fn.method_class()
            if cls is None or fn.name == "__init__":
                return None
            if cls.is_lightning:
                ok = fn.hook == "lightning-train" or fn.trains or fn.in_training
            elif cls.is_module:
                ok = fn.trains or fn.in_training
            else:
                ok = True  # the object keeps it across calls
            if not ok or root_text in function_rebinds(ctx, fn):
                return None
            return _Where(None, fn)
        name = root_text
        if name in fn.params and (fn.trains or fn.in_training) and self._filled_for_a_loop(
                scopes, fn, name):
            return _Where(None, fn)  # a container handed in by a training loop and filled here
        is_global = name not in fn.bound or name in fn.declared_global
        if scopes.scope_of_name(name, fn).is_module_scope and is_global and (
                fn.trains or fn.in_training):
            return _Where(None, fn)
        return None

    @staticmethod
    def _filled_for_a_loop(scopes: ScopeIndex, fn: FunctionInfo, param: str) -> bool:
        """Some caller hands ``param`` a container from outside its training loop
        (``history`` in ``for b in loader: train_step(model, b, history)``)."""
        for site in fn.call_sites:
            arg = dict(scopes.bindings.iter_arg_params(site.call, fn)).get(param)
            if not isinstance(arg, ast.Name):
                continue
            loop = scopes.loop_of(site.call)
            while loop is not None and arg.id not in loop.rebinds:
                if loop.training:
                    return True
                loop = loop.parent
        return False

    # -- reporting ---------------------------------------------------------
    def _report(self, ctx: FileContext, flow: GradFlow, store: _Store, fact: GradFact,
                where: _Where, root_text: str, freed: bool) -> Finding:
        value = text(store.value)
        container = text(store.container)
        if where.loop is not None:
            outlives, step, every = "outlives the training step", "step", "every step"
        else:
            outlives = f"outlives each call of `{where.function.name}()`"
            step, every = "call", "every call"
        verb = "accumulated into" if store.kind in ("augassign", "accumulate") else "stored in"
        if store.via is not None:
            verb = (f"passed to `{text(store.via.call.func)}()`, whose `{store.via.cls}.{store.via.method}` keeps "
                    f"it in `{store.via.attr}` ({store.via.where}); so it is kept in")
        mapping_key = _output_mapping_key(ctx, store.value, where.function)
        if mapping_key is not None:
            # ``outputs.append(output)`` of a model's output dict (packnet-sfm issue 47): it holds the
            # loss and every other tensor of the step (predictions, feature maps)
            keep = (f"`{value}` is a mapping of the step's outputs (`{value}[{mapping_key!r}]`), so every tensor "
                    f"in it stays too, predictions and feature maps included. Keep only what the epoch end "
                    f"needs, detached: `{value}[{mapping_key!r}].detach()`")
        elif fact.kind == CONTAINER:
            keep = "Keep detached tensors instead (`.detach()` on each, or `.item()`)"
        elif fact.kind == SCALAR:
            keep = f"Keep `{value}.detach()` or `{value}.item()` instead"
        else:
            keep = f"Keep `{value}.detach()` instead"
        reset = reset_in_loop(ctx, flow, root_text, where.function, where.loop) if (
            where.loop is not None) else None
        if reset is not None:
            until = f"until `{root_text}` is reset ({flow.where(reset)})"
            if freed:
                message = (
                    f"`{value}` is {verb} `{container}` together with its autograd graph and kept "
                    f"{until}; backward already ran on that graph, so its saved activations were "
                    f"freed, but the tensors and graph nodes of every step in between stay alive. "
                    f"{keep}")
            else:
                message = (
                    f"`{value}` carries an autograd graph and is {verb} `{container}`, which is "
                    f"kept {until}; no backward runs on that graph, so the activations of every "
                    f"step in between stay alive and peak GPU memory grows with their number. "
                    f"{keep}")
        elif freed:
            message = (
                f"`{value}` is {verb} `{container}`, which {outlives}, together with its autograd "
                f"graph; backward already ran on that graph in this {step}, so its saved "
                f"activations were freed, but {every} keeps the tensor and its graph nodes alive "
                f"and memory grows slowly. {keep}")
        else:
            message = (
                f"`{value}` carries an autograd graph and is {verb} `{container}`, which "
                f"{outlives}; no backward runs on that graph in this {step}, so {every}'s "
                f"activations stay alive and GPU memory grows until it runs out. {keep}")
        evidence = self._evidence(ctx, flow, store, fact, where, root_text, freed)
        return ctx.finding(self, store.node, message, evidence=evidence,
                           fix=self._fix(ctx, flow, store, fact, root_text, where),
                           severity=Severity.WARNING if freed else Severity.ERROR)

    def _evidence(self, ctx: FileContext, flow: GradFlow, store: _Store, fact: GradFact,
                  where: _Where, root_text: str, freed: bool) -> list[Evidence]:
        out: list[Evidence] = []
        lines: set[int] = set()
        for origin in flow.explain(fact)[:2]:
            out.append(ctx.evidence(origin.node, origin.description))
            lines.add(getattr(origin.node, "lineno", 0))
            if origin.via is not None:
                inner = flow.origin(origin.via)
                out.append(ctx.evidence(inner.node, inner.description))
                lines.add(getattr(inner.node, "lineno", 0))
        if isinstance(store.value, ast.Name):
            bound = flow.binding_of(store.value)
            if bound is not None and getattr(bound, "lineno", 0) not in lines:
                out.append(ctx.evidence(bound, f"`{text(bound)}` binds `{store.value.id}`"))
        loop = where.loop
        if loop is not None:
            tc = loop.evidence
            what = f"it {tc.describe()} at {flow.where(tc.call)}" if tc is not None else ""
            out.append(ctx.evidence(loop.node, f"training loop: {what}".rstrip(": ")))
        else:
            out.append(ctx.evidence(where.function.node,
                                    f"`{root_text}` lives on across calls of `{where.function.name}()`"))
        if freed:
            real = fact.real_sources()
            for site in flow.backward_sites_in(loop, where.function):
                if site.fact is not None and real & site.fact.real_sources():
                    note = ("Lightning runs backward on the loss returned here"
                            if isinstance(site.call, ast.Return) else "backward runs on this graph here")
                    out.append(ctx.evidence(site.call, note))
                    break
        created = assigned_before(ctx, flow, root_text, where.function, store.stmt)
        if created is not None and loop is not None:
            out.append(ctx.evidence(created, f"`{root_text}` is created here, before the training "
                                             "loop, so it lives across iterations"))
            note = f"stored in `{root_text}`"
        elif loop is not None:
            note = f"stored in `{root_text}`, which lives across iterations"
        else:
            note = f"stored in `{root_text}`, which the object keeps between calls" if (
                root_text.startswith("self.")) else f"stored in the global `{root_text}`"
        out.append(ctx.evidence(store.node, note))
        return out

    def _fix(self, ctx: FileContext, flow: GradFlow, store: _Store, fact: GradFact,
             root_text: str, where: _Where) -> Optional[Fix]:
        if not fact.is_tensor or not store.fixable or isinstance(store.value, ast.Starred):
            return None
        if _output_mapping_key(ctx, store.value, where.function) is not None:
            return None  # a dict has no .detach(): the message says what to keep
        value = text(store.value)
        if store.kind == "augassign" and fact.kind == SCALAR and isinstance(
                store.container, ast.Name) and float_safe_accumulator(
                ctx, flow, store.container.id, where.function):
            return ctx.fix(store.value, f"Accumulate `{value}.item()`, a Python number, "
                                        "instead of the tensor", "item")
        return ctx.fix(store.value, f"Store `{value}.detach()`: the same values without the "
                                    "autograd graph", "detach")


def _meter_reset(via: MeterStore, root_text: str, where: _Where) -> bool:
    """A method that reassigns what the meter keeps (``reset()``) is called on it in the loop
    (or function) the store outlives."""
    scope = where.loop.node if where.loop is not None else where.function.node
    # ``for m in meters.values(): m.reset()``: a loop variable drawn from the meter's container
    drawn = {t.id for node in ast.walk(scope) if isinstance(node, ast.For)
             and any(container_key_text(n) == root_text for n in ast.walk(node.iter))
             for t in ast.walk(node.target) if isinstance(t, ast.Name)}
    for node in ast.walk(scope):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in via.resets:
            target = _root(node.func.value)
            if container_key_text(target) == root_text or (isinstance(target, ast.Name) and target.id in drawn):
                return True
    return False


def _output_mapping_key(ctx: FileContext, value: ast.expr, fn: FunctionInfo) -> Optional[str]:
    """The first string key ``value`` (a name) is read with in its function (``output["loss"]``): the
    stored thing is a mapping of outputs, not one tensor. None otherwise."""
    if not isinstance(value, ast.Name):
        return None
    # one walk of the function for all its stores (a walk per store was quadratic: 300 stores in
    # one loop took 30 CPU-s)
    keys = ctx.cached(f"pf101-string-keys-{id(fn.node)}", lambda: _first_string_keys(fn.node))
    return keys.get(value.id)


def _first_string_keys(scope: ast.AST) -> dict[str, str]:
    """Name -> the first string key it is read with (``output["loss"]``) in ``scope``, in walk order."""
    out: dict[str, str] = {}
    for node in ast.walk(scope):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) \
                and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str) \
                and isinstance(node.ctx, ast.Load):
            out.setdefault(node.value.id, node.slice.value)
    return out
