"""Which names reach a backward: the "is this kept for a later backward?" question.

A flow-insensitive dependency graph over *keys*: a local or global name
(``("n", scope, name)``), an attribute merged across objects
(``("a", None, attr)``: ``self.losses`` and ``agent.losses`` are one key), and a
function's return value (``("r", fn, "")``). Edges run from a bound key to the
keys read in the value bound to it (assignments, ``+=``, ``for``/``with``
targets, container mutations ``c.append(v)``,
``c[k] = v``); parameters are linked both ways with the arguments of resolved
in-file calls (values flow in, mutations flow out), and a call to a local
function reads that function's return key. Reads skip what cannot carry a graph:
``x.item()``, ``len(x)``, comparisons, and the iterable of a comprehension whose
element never uses its loop variable uncut (``sum(l.item() for l in losses)``
does not read ``losses``' tensors, so returning it does not let them escape).

Seeds: the tensors handed to ``backward``/``accelerator.backward``/
``torch.autograd.grad``/``torch.autograd.backward``, what a Lightning
``training_step`` returns, the return value of functions that nothing in the
file calls (their caller is elsewhere: unknown), and containers passed whole to
a function the file cannot see. ``consumed(key)`` is true when the key is
reachable from a seed, i.e. something that may differentiate reads it.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from typing import Optional

from preflight.analysis import tensor_ops as ops
from preflight.analysis.scopes import FunctionInfo, ScopeIndex
from preflight.analysis.syntax import target_names
from preflight.analysis.training import backward_value

Key = tuple[str, object, str]
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)

# Calls that only read a container (never differentiate it).
_HARMLESS_CALLS = frozenset({
    "print", "len", "sum", "min", "max", "sorted", "list", "tuple", "str", "repr", "float",
    "int", "enumerate", "zip", "range", "isinstance", "any", "all", "abs", "round", "format",
    "iter", "next", "map", "filter", "reversed", "dict", "set", "frozenset", "id", "hash",
    "type", "bool", "getattr", "hasattr", "setattr", "vars", "open", "super",
})
_HARMLESS_PREFIXES = ("torch.", "numpy.", "math.", "statistics.", "logging.", "wandb.", "json.",
                      "pickle.", "os.", "sys.", "time.", "random.", "copy.", "itertools.",
                      "functools.", "collections.", "matplotlib.", "tqdm.", "einops.", "re.",
                      "mlflow.", "tensorboard", "pandas.",
                      # Horovod's collectives (``hvd.allreduce(loss).item()``) reduce across ranks and
                      # differentiate nothing themselves; what they return is still followed as a read
                      "horovod.")
_HARMLESS_METHODS = frozenset({
    "append", "extend", "insert", "add", "format", "join", "write", "log", "info", "debug",
    "warning", "error", "add_scalar", "add_scalars", "add_histogram", "set_postfix",
    "set_description", "items", "keys", "values", "get", "pop", "clear", "copy", "index",
    "count", "sort", "reverse", "remove", "appendleft", "extendleft", "log_dict",
    "log_metrics", "save", "dump", "dumps", "stack", "cat", "tensor", "print", "log_scalar",
    "log_metric", "add_text", "set_postfix_str",
})


class Consumers:
    def __init__(self, scopes: ScopeIndex) -> None:
        self.scopes = scopes
        self.bindings = scopes.bindings
        self.edges: dict[Key, set[Key]] = defaultdict(set)
        self.seeds: set[Key] = set()
        # seeds that stand for a caller outside the file (``return`` of an uncalled function)
        self.unknown_seeds: set[Key] = set()
        self._reached: Optional[set[Key]] = None
        self._reached_known: Optional[set[Key]] = None
        self._build()

    # -- keys --------------------------------------------------------------
    def key(self, node: ast.AST, fn: FunctionInfo) -> Optional[Key]:
        """The key of a container reference: a Name, ``x.attr``, or ``c[k]`` (its root)."""
        while isinstance(node, ast.Subscript):
            node = node.value
        if isinstance(node, ast.Name):
            return ("n", self.scopes.scope_of_name(node.id, fn), node.id)
        if isinstance(node, ast.Attribute):
            return ("a", None, node.attr)
        return None

    def reads(self, node: Optional[ast.AST], fn: FunctionInfo) -> set[Key]:
        """Keys an expression reads, skipping parts whose graph is cut (``x.item()``, ``len(x)``)."""
        out: set[Key] = set()
        if node is None:
            return out
        stack = [node]
        while stack:
            sub = stack.pop()
            if isinstance(sub, ast.Name):
                if isinstance(sub.ctx, ast.Load) and sub.id not in ("self", "cls"):
                    out.add(("n", self.scopes.scope_of_name(sub.id, fn), sub.id))
                continue
            if isinstance(sub, ast.Attribute):
                if sub.attr in ops.CUT_ATTRS:
                    continue
                out.add(("a", None, sub.attr))
            elif isinstance(sub, ast.Call):
                func = sub.func
                if isinstance(func, ast.Attribute) and func.attr in ops.CUT_METHODS:
                    stack.extend(sub.args)  # the receiver's graph is cut
                    continue
                if isinstance(func, ast.Name) and func.id in ops.CUT_BUILTINS:
                    continue
                target = self.bindings.target_of(sub)
                if target is not None:
                    out.add(("r", target, ""))
            elif isinstance(sub, (ast.Compare, ast.Lambda)):
                continue
            elif isinstance(sub, _COMPREHENSIONS):
                out |= self._comprehension_reads(sub, fn)
                continue
            stack.extend(ast.iter_child_nodes(sub))
        return out

    def _comprehension_reads(self, node: ast.AST, fn: FunctionInfo) -> set[Key]:
        """What a comprehension's *value* reads: an iterable counts only when the element
        uses its loop variable uncut (``sum(l.item() for l in losses)`` reads no tensor
        of ``losses``); ``if`` filters select elements and pass none of their own on."""
        if isinstance(node, ast.DictComp):
            needed = self.reads(node.key, fn) | self.reads(node.value, fn)
        else:
            needed = self.reads(getattr(node, "elt", None), fn)
        for gen in reversed(getattr(node, "generators", [])):
            bound = {("n", self.scopes.scope_of_name(name, fn), name)
                     for name in target_names(gen.target)}
            if needed & bound:
                needed = (needed - bound) | self.reads(gen.iter, fn)
        return needed

    def _targets(self, target: ast.AST, fn: FunctionInfo) -> list[Key]:
        if isinstance(target, (ast.Tuple, ast.List)):
            return [k for elt in target.elts for k in self._targets(elt, fn)]
        if isinstance(target, ast.Starred):
            return self._targets(target.value, fn)
        key = self.key(target, fn)
        return [key] if key is not None else []

    # -- construction ------------------------------------------------------
    def _link(self, targets: list[Key], reads: set[Key]) -> None:
        for t in targets:
            self.edges[t].update(reads)

    def _build(self) -> None:
        scopes = self.scopes
        ctx = scopes.ctx
        # no comprehension targets: a comprehension's loop variable lives in its own scope (Python 3)
        # and what its element reads is followed by ``_comprehension_reads``; linking the variable as
        # a name of the function made RecBole's ``losses`` (a step's loss, backwarded) read
        # ``losses_list`` through ``[losses[j] for losses in losses_list]``, excusing the list
        for node in ctx.nodes(ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor,
                              ast.withitem, ast.NamedExpr, ast.Return,
                              ast.Yield, ast.YieldFrom):
            fn = scopes.function_of(node)
            if isinstance(node, ast.Assign):
                reads = self.reads(node.value, fn)
                for t in node.targets:
                    self._link(self._targets(t, fn), reads)
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
                self._link(self._targets(node.target, fn), self.reads(node.value, fn))
            elif isinstance(node, (ast.For, ast.AsyncFor)):
                self._link(self._targets(node.target, fn), self.reads(node.iter, fn))
            elif isinstance(node, ast.withitem):
                if node.optional_vars is not None:
                    self._link(self._targets(node.optional_vars, fn),
                               self.reads(node.context_expr, fn))
            elif isinstance(node, ast.NamedExpr):
                self._link(self._targets(node.target, fn), self.reads(node.value, fn))
            else:
                self.edges[("r", fn, "")].update(self.reads(node.value, fn))
        for call, fn in self.bindings.call_functions:
            self._call(call, fn)
        for fn in scopes.functions.values():
            if fn.is_module_scope:
                continue
            if fn.hook == "lightning-train":
                self.seeds.add(("r", fn, ""))
            elif not fn.call_sites:
                self.seeds.add(("r", fn, ""))
                self.unknown_seeds.add(("r", fn, ""))

    def _call(self, call: ast.Call, fn: FunctionInfo) -> None:
        func = call.func
        value = backward_value(call)
        qual = self.scopes.imports.qualify(func) or ""
        if value is not None:
            self.seeds.update(self.reads(value, fn))
            return
        if qual in ("torch.autograd.grad", "torch.autograd.backward"):
            for arg in [*call.args, *(k.value for k in call.keywords)]:
                self.seeds.update(self.reads(arg, fn))
            return
        resolved = self.bindings.calls.get(call)
        if resolved is not None:
            callee, _ = resolved
            for param, arg in self.bindings.iter_arg_params(call, callee):
                pkey: Key = ("n", callee, param)
                reads = self.reads(arg, fn)
                self.edges[pkey].update(reads)
                own = self.key(arg, fn)
                if own is not None:
                    self.edges[own].add(pkey)
            return
        if isinstance(func, ast.Attribute) and not self._module_alias(func.value, fn):
            # c.append(v), c.update(v), writer.put(v): the receiver now holds v (a module
            # such as ``torch`` in ``torch.stack(c)`` holds nothing: it would link every
            # name that reads ``torch.`` to every container passed to a torch function)
            root = self.key(func.value, fn)
            if root is not None and call.args:
                for arg in call.args:
                    self.edges[root].update(self.reads(arg, fn))
        if self._harmless(call, qual) or self._scheduler_step(call, fn):
            return
        for arg in [*call.args, *(k.value for k in call.keywords)]:
            if isinstance(arg, ast.Starred):
                arg = arg.value
            if isinstance(arg, (ast.Name, ast.Attribute)):
                key = self.key(arg, fn)
                if key is not None:
                    self.seeds.add(key)
            elif isinstance(arg, _COMPREHENSIONS):  # f(x for x in c): c's elements go in
                self.seeds.update(self.reads(arg, fn))

    def _scheduler_step(self, call: ast.Call, fn: FunctionInfo) -> bool:
        """``scheduler.step(val_loss)`` on a scheduler the function builds from
        ``torch.optim.lr_scheduler`` (chexnet: ``ReduceLROnPlateau``): it reads the metric as a
        number (``float(metrics)``) and differentiates nothing."""
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr == "step" and isinstance(func.value, ast.Name)):
            return False
        name = func.value.id
        built = [node.value for node in ast.walk(fn.node) if isinstance(node, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)]
        return bool(built) and all(
            isinstance(b, ast.Call) and (self.scopes.imports.qualify(b.func) or "").startswith("torch.optim.lr_scheduler.")
            for b in built)

    def _module_alias(self, node: ast.AST, fn: FunctionInfo) -> bool:
        """``torch`` / ``np`` / ``F`` (an imported name, not rebound by the code)."""
        while isinstance(node, ast.Attribute):
            node = node.value
        if not isinstance(node, ast.Name):
            return False
        name = node.id
        return name in self.scopes.imports.aliases and self.scopes.scope_of_name(name, fn).is_module_scope

    def _harmless(self, call: ast.Call, qual: str) -> bool:
        func = call.func
        if isinstance(func, ast.Name):
            return func.id in _HARMLESS_CALLS or qual.startswith(_HARMLESS_PREFIXES)
        if isinstance(func, ast.Attribute):
            if func.attr in _HARMLESS_METHODS or qual.startswith(_HARMLESS_PREFIXES):
                return True
            found = self.bindings.lookup(func, self.scopes.function_of(call))
            if found is not None:
                return True  # a model, loss or optimizer called on it: its result is tracked
            receiver = self.bindings.lookup(func.value, self.scopes.function_of(call))
            return receiver is not None
        return True

    # -- query -------------------------------------------------------------
    def _reach(self, seeds: set[Key]) -> set[Key]:
        seen: set[Key] = set()
        stack = list(seeds)
        while stack:
            key = stack.pop()
            if key in seen:
                continue
            seen.add(key)
            stack.extend(self.edges.get(key, ()))
        return seen

    def reached(self) -> set[Key]:
        if self._reached is None:
            self._reached = self._reach(self.seeds)
        return self._reached

    def consumed(self, key: Optional[Key], unknown_callers: bool = True) -> bool:
        """True if ``key`` may flow into something that differentiates (or is unknown).

        ``unknown_callers=False`` leaves out what only reaches the return value of a
        function no in-file code calls: for a graph backward already freed, a caller
        elsewhere cannot differentiate it again, so returning it consumes nothing."""
        if key is None:
            return False
        if unknown_callers:
            return key in self.reached()
        if self._reached_known is None:
            self._reached_known = self._reach(self.seeds - self.unknown_seeds)
        return key in self._reached_known
