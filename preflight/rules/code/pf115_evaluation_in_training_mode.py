"""PF115 evaluation-in-training-mode: validation forwards with dropout and BatchNorm in training mode."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.evaluation import TRAIN, Evaluation, Key, evaluation, map_key, may_matter
from preflight.analysis.scopes import FunctionInfo, LoopInfo
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code.pf111_model_stuck_in_eval import ModelStuckInEval

# Evidence that a loop evaluates: what it iterates, or the function it sits in.
_EVAL_WORD = re.compile(r"(^|_)(val|valid|validate|validation|dev|eval|evaluate|evaluation|test|"
                        r"testing)(_|$|loader|set|data)", re.IGNORECASE)
# A parameter that is handed a model (it is bound to nothing preflight can see).
_MODEL_PARAM = re.compile(r"^(model|net|network|classifier|encoder_decoder|seq2seq|"
                          r"[a-z_]*_model|model_[a-z_]*)$")
# torch.nn layers whose forward is the same in both modes (a linear probe: InternVL's clip_benchmark)
_MODE_FREE = frozenset({"Linear", "LazyLinear", "Bilinear", "Conv1d", "Conv2d", "Conv3d", "Embedding",
                        "LayerNorm", "Identity"})
# parameter-free torch.nn layers whose forward is the same in both modes: with the layers above they make an
# `nn.Sequential` MLP that train() and eval() run alike (det132: a Hydra MLP sweep of Linear/ReLU blocks)
_MODE_FREE_ACT = frozenset({"ReLU", "ReLU6", "GELU", "SiLU", "Tanh", "Sigmoid", "LeakyReLU", "ELU", "SELU",
                            "Softplus", "Mish", "Hardswish", "Flatten", "Softmax", "LogSoftmax"})


def _param_receiver(call: ast.Call, fn: FunctionInfo) -> bool:
    """``net(x)`` / ``net.forward(x)`` where ``net`` is a parameter of ``fn`` (the dataflow may
    have resolved it to the caller's binding: ``def val(net, loader)`` called with a global model)."""
    func = call.func.value if isinstance(call.func, ast.Attribute) and call.func.attr == "forward" else call.func
    return isinstance(func, ast.Name) and func.id in fn.params


def _pos(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _mode_free_layer(facts: Evaluation, node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    qual = facts.scopes.imports.qualify(node.func) or ""
    return qual.startswith("torch.nn.") and qual.rsplit(".", 1)[-1] in (_MODE_FREE | _MODE_FREE_ACT)


def _list_items(value: ast.AST) -> Optional[list[ast.AST]]:
    return list(value.elts) if isinstance(value, (ast.List, ast.Tuple)) else None


def _mode_free_list(ctx: FileContext, facts: Evaluation, name: str, scope: Optional[ast.AST]) -> bool:
    """Every item put into the local list ``name`` (its literal, ``+=``, ``append``, ``extend``) is a
    mode-free layer; any other binding or use that may add to it makes the answer False."""
    if scope is None:
        return False
    added: list[ast.AST] = []
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign):
            for tgt in node.targets:
                pairs = [(tgt, node.value)]
                if isinstance(tgt, ast.Tuple) and isinstance(node.value, ast.Tuple) and \
                        len(tgt.elts) == len(node.value.elts):
                    pairs = list(zip(tgt.elts, node.value.elts))
                for t, v in pairs:
                    if isinstance(t, ast.Name) and t.id == name:
                        items = _list_items(v)
                        if items is None:
                            return False
                        added += items
                    elif isinstance(t, (ast.Tuple, ast.List)) and any(
                            isinstance(e, ast.Name) and e.id == name for e in ast.walk(t)):
                        return False  # unpacked from something preflight does not read
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            items = _list_items(node.value)
            if items is None:
                return False
            added += items
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                isinstance(node.func.value, ast.Name) and node.func.value.id == name:
            if node.func.attr == "append" and len(node.args) == 1:
                added.append(node.args[0])
            elif node.func.attr == "extend" and len(node.args) == 1 and _list_items(node.args[0]) is not None:
                added += _list_items(node.args[0]) or []
            else:
                return False  # insert, +=, anything else
    return bool(added) and all(_mode_free_layer(facts, item) for item in added)


def _mode_free_sequential(ctx: FileContext, facts: Evaluation, call: ast.Call) -> bool:
    """``nn.Sequential(...)`` whose layers are all mode-free: literal layer calls, or ``*layers`` of a local
    list filled with them."""
    if call.keywords or not call.args:
        return False
    scope = ctx.enclosing_function(call) or ctx.tree
    for arg in call.args:
        if isinstance(arg, ast.Starred):
            if not (isinstance(arg.value, ast.Name) and _mode_free_list(ctx, facts, arg.value.id, scope)):
                return False
        elif not _mode_free_layer(facts, arg):
            return False
    return True


@register
class EvaluationInTrainingMode(Rule):
    code = "PF115"
    name = "evaluation-in-training-mode"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "accelerate", "fabric")
    summary = "A validation loop runs the model while it is still in training mode (dropout on, BatchNorm updating)"
    explanation = """
## What it finds

A loop that evaluates (it iterates a validation/dev/test loader, or sits in an
`evaluate`-like function) and runs forward passes only, while the model is
still in training mode: the training loop before it (or the caller, for an
evaluation helper such as `evaluator.evaluate(model, dev_data)`) left the model
in `train()` mode, and nothing calls `model.eval()` before the forward.

## Why it matters

In training mode dropout still drops activations and BatchNorm normalises with
the batch's statistics and **updates its running statistics with the validation
data**. The validation loss is noisy and too high, checkpoint selection on it
picks the wrong epoch, and BatchNorm statistics drift towards the validation set.
`torch.no_grad()` does not change any of this: it turns off autograd, not the mode.

## How to fix it

Call `model.eval()` before the validation loop (in the evaluation helper itself,
so every caller is covered) and `model.train()` before training resumes.

## When preflight stays silent

* `model.eval()` / `model.train(False)` runs before the forward: in the function,
  or in the caller before it calls the evaluation helper (the caller's mode is
  followed into the callee, also when the helper receives a model the caller holds in a
  variable, `def val(net, loader)` called as `val(net, val_loader)` after `net.train()`), or a
  `train(flag)` whose flag preflight cannot read.
* The model is a class of the file with no dropout or BatchNorm layer (the mode
  changes nothing).
* The model is one mode-free `torch.nn` layer, or an `nn.Sequential` of Linear/Conv/LayerNorm
  layers and activations only (given directly or as `*layers`, a local list filled with them).
* The loop differentiates or steps an optimizer (it trains), or nothing names it
  as an evaluation (a BatchNorm recalibration pass such as SWA's `update_bn`
  runs in training mode on purpose).
* Lightning and the Hugging Face `Trainer` switch modes themselves.
* At module scope (a script or notebook without functions), anything but an explicit
  `model.train()` earlier in the same scope (a training loop alone does not count there).
"""
    bad_examples = examples("preflight.rules.code._pf115_examples", "PF115_BAD")
    good_examples = examples("preflight.rules.code._pf115_examples", "PF115_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if not may_matter(ctx):
            return  # no mode switch and no training call: nothing to report
        facts = evaluation(ctx)
        scopes = facts.scopes
        reported: set[int] = set()
        # each forward's model key, looked up per call (not a scan of the function's forwards)
        forward_keys = {call: key for forwards in facts.forwards.values() for call, key in forwards}
        for call, fn in scopes.bindings.call_functions:
            if fn.hook is not None or id(fn) in reported:
                continue
            cls = fn.method_class()
            if cls is not None and (cls.is_lightning or cls.is_module):
                continue
            key = self._model_key(facts, forward_keys, call, fn)
            if key is None:
                continue
            loop = self._evaluation_loop(ctx, facts, call, fn)
            if loop is None:
                continue
            why = self._train_mode(ctx, facts, fn, call, key, explicit_only=fn.is_module_scope)
            if why is None or not self._may_change(ctx, facts, key):
                continue
            reported.add(id(fn))
            yield self._report(ctx, call, loop, why)

    # -- the forward -------------------------------------------------------
    @staticmethod
    def _model_key(facts: Evaluation, forward_keys: dict[ast.Call, Key], call: ast.Call,
                   fn: FunctionInfo) -> Optional[Key]:
        key = forward_keys.get(call)
        if key is not None:
            return key
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "forward":
            func = func.value
        if isinstance(func, ast.Name) and func.id in fn.params and _MODEL_PARAM.match(func.id) and (
                facts.scopes.bindings.lookup(func, fn) is None):
            return facts.key_of(func, fn)
        return None

    @staticmethod
    def _evaluation_loop(ctx: FileContext, facts: Evaluation, call: ast.Call,
                         fn: FunctionInfo) -> Optional[LoopInfo]:
        loop = facts.scopes.loop_of(call)
        if loop is None or loop.training:
            return None
        node = loop.node
        if not isinstance(node, (ast.For, ast.AsyncFor)):
            return None
        names = [n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(node.iter)
                 if isinstance(n, (ast.Name, ast.Attribute))]
        if any(_EVAL_WORD.search(n) for n in names) or _EVAL_WORD.search(fn.name):
            return loop
        return None

    # -- the mode at the forward -------------------------------------------
    def _train_mode(self, ctx: FileContext, facts: Evaluation, fn: FunctionInfo, call: ast.Call,
                    key: Key, explicit_only: bool = False) -> Optional[str]:
        """Why the model is in training mode at ``call``. At module scope (a script, a notebook) only
        an explicit ``model.train()`` earlier in the same scope counts."""
        latest = facts.latest_before(fn, key, call)
        if latest is not None:
            if latest.last != TRAIN:
                return None
            return f"`{ast.unparse(latest.origin)}` at line {latest.node.lineno} put it in training mode"
        if explicit_only:
            return None
        if self._trained_before(ctx, facts, fn, call, key):
            return "the training loop before it leaves it in training mode"
        if not fn.call_sites or (key[0] != "p" and not (key[0] == "b" and _param_receiver(call, fn))):
            return None  # a binding is followed into the callers when the callee got it as a parameter
        found: Optional[str] = None
        for site in fn.call_sites:
            args = dict(facts.scopes.bindings.iter_arg_params(site.call, fn))
            mapped = map_key(facts.scopes, key, fn, args, site.call, site.caller)
            if mapped is None:
                return None
            before = facts.latest_before(site.caller, mapped, site.call)
            if before is None or before.last != TRAIN:
                return None  # the caller switched it (eval() set by the caller), or cannot tell
            found = found or (f"`{site.caller.name}()` calls `{fn.name}()` at line "
                              f"{site.call.lineno} after `{ast.unparse(before.origin)}`")
        return found

    @staticmethod
    def _trained_before(ctx: FileContext, facts: Evaluation, fn: FunctionInfo, call: ast.Call,
                        key: Key) -> bool:
        for fcall, fkey in facts.forwards.get(fn, ()):
            if fkey != key or _pos(fcall) >= _pos(call):
                continue
            loop = facts.scopes.loop_of(fcall)
            if loop is not None and loop.training and facts.scopes.grad_enabled(fcall):
                return True
        return False

    @staticmethod
    def _may_change(ctx: FileContext, facts: Evaluation, key: Key) -> bool:
        """False when the model is a class of this file without a mode-dependent layer."""
        if key[0] != "b":
            return True
        if ModelStuckInEval._mode_sensitive(ctx, facts, key):
            return True
        bindings = facts.scopes.bindings
        binding = next((b for b in [*bindings.names.values(), *bindings.attrs.values()]
                        if id(b) == key[1]), None)
        inner = binding
        while inner is not None and inner.inner is not None:
            inner = inner.inner  # DataParallel(probe) / DDP / compile: the wrapped layer
        if inner is not None and isinstance(inner.node, ast.Call):
            qual = facts.scopes.imports.qualify(inner.node.func) or ""
            if qual.startswith("torch.nn.") and qual.rsplit(".", 1)[-1] in _MODE_FREE:
                return False  # one mode-free layer (`torch.nn.Linear(...)`): nothing differs in train()
            if qual == "torch.nn.Sequential" and _mode_free_sequential(ctx, facts, inner.node):
                return False  # `nn.Sequential(*layers, nn.Linear(...))` of Linear/ReLU blocks only
        return binding is None or binding.cls is None

    def _report(self, ctx: FileContext, call: ast.Call, loop: LoopInfo, why: str) -> Finding:
        model = ast.unparse(call.func)
        if len(model) > 40:
            model = "the model"
        message = (f"`{model}(...)` evaluates while the model is in training mode ({why}): dropout "
                   f"stays on and BatchNorm normalises with batch statistics and updates its running "
                   f"statistics with evaluation data, so the validation loss is noisy and biased. "
                   f"Call `.eval()` before evaluating (and `.train()` before training resumes)")
        evidence = [ctx.evidence(loop.node, "the evaluation loop")]
        return ctx.finding(self, call, message, evidence=evidence)

