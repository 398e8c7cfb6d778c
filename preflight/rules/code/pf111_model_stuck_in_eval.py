"""PF111 model-stuck-in-eval: evaluation inside the training loop never switches back."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.bindings import Binding
from preflight.analysis.context import FileContext
from preflight.analysis.evaluation import (
    EVAL,
    TRAIN,
    UNKNOWN,
    Evaluation,
    Key,
    ModeEvent,
    evaluation,
    may_matter,
)
from preflight.analysis.scopes import FunctionInfo, LoopInfo, TrainingCall
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_MODE_LAYERS = ("Dropout", "BatchNorm", "dropout", "batch_norm", "AlphaDropout")


def _pos(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _inside(ctx: FileContext, node: ast.AST, outer: ast.AST) -> bool:
    return any(anc is outer for anc in ctx.ancestors(node))


@register
class ModelStuckInEval(Rule):
    code = "PF111"
    name = "model-stuck-in-eval"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "accelerate", "fabric")
    summary = "Evaluation switches the model to eval() inside the training loop and training resumes without train()"
    explanation = """
## What it finds

Inside a training loop, the model is switched to evaluation mode (`model.eval()`,
`model.train(False)`, directly or inside a helper such as `evaluate(model)` that
the loop calls), and nothing in the loop switches that same model back with
`model.train()` before the next training step.

## Why it matters

`eval()` changes what the model computes: dropout is disabled and BatchNorm
normalises with its running statistics and stops updating them. From the first
evaluation on, every later training step trains a different network than the
one configured (no regularisation from dropout; BatchNorm statistics frozen at
whatever they were). Nothing fails; the run just ends worse, which makes this
one of the most expensive silent bugs. Error when the model is known to contain
dropout or BatchNorm (or is a pretrained/torchvision/timm model), warning when
preflight cannot tell.

## How to fix it

Call `model.train()` at the start of each epoch (before the training step), or
at the end of the evaluation helper.

## When preflight stays silent

* `model.train()` / `model.train(True)` (or `train(flag)`) runs anywhere in the
  loop after the evaluation, or before the first training step of the loop
  body (including inside a training helper the loop calls).
* The helper calls `model.eval()` and then `model.train()` itself.
* The `.eval()` call sits inside a helper that itself trains the model (a step
  that runs with frozen BatchNorm statistics or without dropout on purpose), or
  the training helper the loop calls switches the same model to `eval()` itself
  (a linear probe: `train()` calls `model.eval()`, `validate()` after it too).
* The loop sets each model's mode itself before its first training step,
  `unet.eval()` beside `text_encoder.train()`: the frozen module is kept in
  eval mode on purpose.
* The loop puts the model in eval mode itself before its first training step
  (a linear probe: `model.eval()` then `model.fc.train()` at the top of each epoch):
  the mode training runs in is set anew every iteration, so a later evaluation's
  `eval()` changes nothing.
* The object put in eval mode is not the model the loop trains (an EMA or
  teacher copy), the evaluation runs after the training loop, only on its last
  iteration, or is followed by `break` / `return`.
* Lightning and the Hugging Face `Trainer` switch modes themselves.
* The model is built, in this file, only from layers that never read the mode flag
  (`Linear`, convolutions, embeddings, `LayerNorm`/`GroupNorm`, activations, pooling,
  `RNN`/`LSTM`/`GRU` without `dropout`, tensor maths) and nothing in its classes reads
  `self.training`. `Module.eval()` is `self.train(False)`, which only sets `training` on
  every submodule (torch/nn/modules/module.py: "This has an effect only on certain modules
  ... e.g. Dropout, BatchNorm"), so such a model trains the same network in either mode
  (coRNN issue 1: the author's answer to a reader who saw `model.eval()` never undone).
  An imported class, a pretrained model or any layer outside that list keeps the finding.
"""
    bad_examples = examples("preflight.rules.code._pf111_examples", "PF111_BAD")
    good_examples = examples("preflight.rules.code._pf111_examples", "PF111_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if not may_matter(ctx):
            return  # no mode switch and no training call: nothing to report
        facts = evaluation(ctx)
        for fn, events in facts.events.items():
            cls = fn.method_class()
            if cls is not None and cls.is_lightning:
                continue
            # Per training loop and model object only the last eval() matters: a reset after
            # it, or before the loop's first training step, covers every earlier one too.
            last: dict[tuple[int, Key], tuple[LoopInfo, ModeEvent]] = {}
            for ev in events:  # in source order
                if ev.last != EVAL:
                    continue
                loop = self._training_loop(facts, ev)
                if loop is not None:
                    last[(id(loop.node), ev.key)] = (loop, ev)
            for loop, ev in last.values():
                if self._stuck(ctx, facts, fn, loop, ev, events) and not _mode_free(facts, ev.key):
                    yield self._report(ctx, facts, fn, loop, ev)

    @staticmethod
    def _training_loop(facts: Evaluation, ev: ModeEvent) -> Optional[LoopInfo]:
        loop = facts.scopes.loop_of(ev.node)
        while loop is not None and not loop.training:
            loop = loop.parent
        return loop

    def _stuck(self, ctx: FileContext, facts: Evaluation, fn: FunctionInfo, loop: LoopInfo,
               ev: ModeEvent, events: list[ModeEvent]) -> bool:
        trainings = [tc.call for tc in _training_calls_by_function(ctx, facts).get(fn, ())
                     if _inside(ctx, tc.call, loop.node)]
        if not trainings:
            return False
        if ev.helper is not None and ev.helper.trains:
            # the switch happens inside a step that itself trains (frozen BatchNorm or
            # dropout on purpose): a choice, not an evaluation that forgot to switch back
            return False
        first = min(_pos(c) for c in trainings)
        if ev.first in (TRAIN, UNKNOWN) and _pos(ev.node) <= first:
            return False
        if ev.helper is None and _pos(ev.node) <= first and any(
                other.key != ev.key and other.helper is None and other.last == TRAIN
                and _inside(ctx, other.node, loop.node) and _pos(other.node) <= first for other in events):
            # each iteration sets the modes of its step itself, before training: `unet.eval()`
            # beside `text_encoder.train()` keeps a frozen module in eval mode on purpose
            return False
        for other in events:
            if other is ev or other.key != ev.key or not _inside(ctx, other.node, loop.node):
                continue
            if other.helper is None and other.last == EVAL and _pos(other.node) <= first < _pos(ev.node):
                # each iteration puts the model in eval mode itself before its training step (a linear
                # probe: `model.eval()` then `model.fc.train()`): the mode training runs in is set
                # anew every iteration, so the evaluation's later eval() changes nothing
                return False
            if other.helper is not None and other.helper.trains and EVAL in (other.first, other.last):
                # the loop's own training step puts the model in eval mode (a linear probe with
                # frozen BatchNorm): training in eval mode is the author's choice
                return False
            if other.last in (TRAIN, UNKNOWN) and _pos(other.node) > _pos(ev.node):
                return False
            if (other.first in (TRAIN, UNKNOWN) or other.last in (TRAIN, UNKNOWN)) and (
                    _pos(other.node) <= first):
                return False
        if not self._trains_model(ctx, facts, fn, loop, ev.key):
            return False
        return not self._last_iteration_only(ctx, loop, ev.node)

    @staticmethod
    def _trains_model(ctx: FileContext, facts: Evaluation, fn: FunctionInfo, loop: LoopInfo,
                      key: Key) -> bool:
        scopes = facts.scopes
        for call, fkey in facts.forwards.get(fn, ()):
            if fkey == key and _inside(ctx, call, loop.node) and scopes.grad_enabled(call):
                return True
        for call in _calls_by_function(ctx, facts).get(fn, ()):
            if not _inside(ctx, call, loop.node) or not scopes.grad_enabled(call):
                continue
            func = call.func
            # an object that is switched with eval() and called is a module, bound or not
            if isinstance(func, (ast.Name, ast.Attribute)) and facts.key_of(func, fn) == key:
                return True
            helper = scopes.bindings.target_of(call)
            if helper is None or helper is fn:
                continue
            if isinstance(func, ast.Attribute) and facts.key_of(func.value, fn) == key and (
                    helper.trains):
                return True  # model.training_step(...) on the model itself
            # a helper that forwards the object: the model itself (a global or ``self.x``), or
            # the argument it is handed (an EMA copy handed over only to be updated is not)
            params = {param for param, arg in scopes.bindings.iter_arg_params(call, helper)
                      if facts.key_of(arg, fn) == key}
            for fcall, fkey in facts.forwards.get(helper, ()):
                if not scopes.grad_enabled(fcall):
                    continue  # the evaluation helper's own no-grad forward trains nothing
                if fkey == key or (fkey[0] == "p" and fkey[1] == id(helper) and fkey[2] in params
                                   and not fkey[3]):
                    return True
        return False

    @staticmethod
    def _last_iteration_only(ctx: FileContext, loop: LoopInfo, node: ast.AST) -> bool:
        cur: ast.AST = node
        while cur is not loop.node:
            parent = ctx.parent(cur)
            if parent is None:
                return False
            if isinstance(parent, ast.If) and any(
                    isinstance(c, ast.Compare) and any(isinstance(op, (ast.Eq, ast.GtE))
                                                       for op in c.ops)
                    and not any(isinstance(b, ast.BinOp) and isinstance(b.op, ast.Mod)
                                for b in ast.walk(c)) for c in ast.walk(parent.test)):
                return True
            body = getattr(parent, "body", None)
            if isinstance(body, list) and cur in body:
                after = body[body.index(cur) + 1:]
                if any(isinstance(s, (ast.Break, ast.Return)) for s in after):
                    return True
            cur = parent
        return False

    def _report(self, ctx: FileContext, facts: Evaluation, fn: FunctionInfo, loop: LoopInfo,
                ev: ModeEvent) -> Finding:
        switch = ast.unparse(ev.origin)
        if len(switch) > 50:
            switch = "eval()"
        if ev.helper is not None:
            where = f"`{ast.unparse(ev.node.func)}()` calls `{switch}`"
        else:
            where = f"`{switch}`"
        model = ast.unparse(ev.origin.func.value) if isinstance(ev.origin.func, ast.Attribute) else "model"
        message = (
            f"{where} inside the training loop, and nothing in the loop calls `.train()` on that "
            f"model again before the next training step: from the first evaluation on, training runs "
            f"in evaluation mode (dropout off, BatchNorm using and no longer updating its running "
            f"statistics). Call `{model}.train()` at the start of each iteration or after evaluation")
        evidence = [ctx.evidence(loop.node, "the training loop" + (
            f": it {loop.evidence.describe()}" if loop.evidence is not None else ""))]
        if ev.helper is not None:
            evidence.append(ctx.evidence(ev.node, f"`{ev.helper.name}()` is called here"))
            evidence.append(ctx.evidence(ev.origin, f"`{ev.helper.name}()` switches the model to "
                                                    "evaluation and does not switch it back"))
        else:
            evidence.append(ctx.evidence(ev.origin, "the model is switched to evaluation here"))
        severity = Severity.ERROR if self._mode_sensitive(ctx, facts, ev.key) else Severity.WARNING
        return ctx.finding(self, ev.node, message, evidence=evidence, severity=severity)

    @staticmethod
    def _mode_sensitive(ctx: FileContext, facts: Evaluation, key: Key) -> bool:
        binding = _binding_of(facts, key)
        if binding is None:
            return False
        imports = facts.scopes.imports
        roots: list[ast.AST] = [binding.node]
        if binding.cls is not None:
            roots = [c.node for c in binding.cls.mro()]
        for root in roots:
            for node in ast.walk(root):
                if not isinstance(node, ast.Call):
                    continue
                qual = imports.qualify(node.func) or ""
                if any(word in qual for word in _MODE_LAYERS):
                    return True
                if qual.rsplit(".", 1)[-1] in _RECURRENT and any(
                        k.arg == "dropout" and not (isinstance(k.value, ast.Constant) and not k.value.value)
                        for k in node.keywords):
                    return True  # dropout between the layers of an RNN/LSTM/GRU
                if qual.startswith(("torchvision.models.", "timm.")) or (
                        isinstance(node.func, ast.Attribute) and node.func.attr == "from_pretrained"):
                    return True
        return False


def _calls_by_function(ctx: FileContext, facts: Evaluation) -> dict[FunctionInfo, list[ast.Call]]:
    def build() -> dict[FunctionInfo, list[ast.Call]]:
        out: dict[FunctionInfo, list[ast.Call]] = {}
        for call, fn in facts.scopes.bindings.call_functions:
            out.setdefault(fn, []).append(call)
        return out

    return ctx.cached("pf111-calls", build)


def _training_calls_by_function(ctx: FileContext, facts: Evaluation) -> dict[FunctionInfo, list[
        TrainingCall]]:
    def build() -> dict[FunctionInfo, list[TrainingCall]]:
        out: dict[FunctionInfo, list[TrainingCall]] = {}
        for tc in facts.scopes.training_calls:
            out.setdefault(tc.function, []).append(tc)
        return out

    return ctx.cached("pf111-training-calls", build)


def _binding_of(facts: Evaluation, key: Key) -> Optional[Binding]:
    if key[0] != "b":
        return None
    bindings = facts.scopes.bindings
    return next((b for b in [*bindings.names.values(), *bindings.attrs.values()] if id(b) == key[1]), None)


# torch.nn layers whose forward never reads ``self.training`` (torch/nn/modules/*.py): for a
# model built only from these, ``eval()`` and ``train()`` compute the same thing.
_MODE_FREE_LAYERS = frozenset((
    "Linear", "Bilinear", "LazyLinear", "Identity", "Flatten", "Unflatten",
    "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d",
    "Embedding", "EmbeddingBag", "LayerNorm", "GroupNorm", "RMSNorm", "LocalResponseNorm",
    "RNNCell", "LSTMCell", "GRUCell", "Sequential", "ModuleList", "ModuleDict",
    "Parameter", "ParameterList", "ParameterDict", "ReLU", "ReLU6", "GELU", "Tanh", "Sigmoid",
    "SiLU", "Mish", "ELU", "SELU", "CELU", "LeakyReLU", "PReLU", "Softplus", "Softsign", "Hardtanh",
    "Hardswish", "Hardsigmoid", "LogSigmoid", "Tanhshrink", "Softmax", "LogSoftmax", "GLU",
    "MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d",
    "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "Upsample", "PixelShuffle", "PixelUnshuffle",
    "ZeroPad2d", "ConstantPad1d", "ConstantPad2d", "ReflectionPad1d", "ReflectionPad2d",
    "ReplicationPad1d", "ReplicationPad2d",
))
# recurrent layers that apply dropout (between layers) only when built with ``dropout`` > 0
_RECURRENT = frozenset(("RNN", "LSTM", "GRU"))
_BUILTINS = frozenset(("super", "range", "len", "int", "float", "bool", "list", "tuple", "dict", "zip",
                       "enumerate", "min", "max", "abs", "sum", "isinstance", "getattr", "setattr", "print"))


def _mode_free(facts: Evaluation, key: Key) -> bool:
    """The model is built, in this file, only from layers whose output does not depend on
    ``train()``/``eval()`` (no dropout, no batch norm, no ``self.training``): a model left in
    eval mode trains exactly as in train mode. Anything preflight cannot see through (an
    imported class, a pretrained model, an unknown layer) is not mode-free."""
    binding = _binding_of(facts, key)
    if binding is None:
        return False
    scopes = facts.scopes
    seen: set[int] = set()
    todo: list[ast.AST] = [binding.node]
    if binding.cls is not None:
        todo.extend(c.node for c in binding.cls.mro())
    while todo:
        root = todo.pop()
        if id(root) in seen:
            continue
        seen.add(id(root))
        if isinstance(root, ast.ClassDef) and not all(
                (isinstance(b, (ast.Name, ast.Attribute)) and (scopes.imports.qualify(b) or "") in (
                    "torch.nn.Module", "torch.nn.modules.module.Module"))
                or (isinstance(b, ast.Name) and b.id in scopes.classes_by_name) for b in root.bases):
            return False  # a base class does not read
        for node in ast.walk(root):
            if isinstance(node, ast.Attribute) and node.attr == "training":
                return False
            if isinstance(node, ast.keyword) and node.arg and "drop" in node.arg.lower() and not (
                    isinstance(node.value, ast.Constant) and not node.value.value):
                return False
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            qual = scopes.imports.qualify(func) or ""
            last = qual.rsplit(".", 1)[-1]
            if any(word in qual for word in _MODE_LAYERS):
                return False
            if qual.startswith("torch.nn.") and not qual.startswith("torch.nn.functional."):
                if last in _MODE_FREE_LAYERS or last.endswith("Loss"):
                    continue
                if last in _RECURRENT and len(node.args) < 7:
                    continue  # a ``dropout`` keyword that is not a false constant returned above
                if qual.startswith("torch.nn.init."):
                    continue
                return False  # a layer that may read the mode (Dropout, BatchNorm, Transformer...)
            if qual.startswith("torch."):
                continue  # tensor functions: torch.cat, torch.tanh, F.relu, nn.functional.linear
            if isinstance(func, ast.Name):
                local = scopes.classes_by_name.get(func.id)
                if local is not None:
                    todo.extend(c.node for c in local.mro())
                    continue
                if func.id in _BUILTINS:
                    continue
                return False  # an imported
            base: ast.AST = func
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(func, ast.Attribute) and not (
                    isinstance(base, ast.Name) and base.id in scopes.imports.aliases):
                continue  # a method call on a value: x.new_zeros(...), self.cell(...), model.to(device)
            return False  # something imported that preflight does not read
    return True
