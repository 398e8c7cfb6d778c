"""PF149 inference-without-eval: a prediction script builds a model, loads trained weights into it with
``load_state_dict`` and runs it under ``torch.no_grad()`` without ever calling ``model.eval()``: a freshly built
module is in training mode, so BatchNorm normalises with the batch's own statistics and dropout stays on."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import qualify, target_text
from preflight.rules.base import Rule, examples
from preflight.rules.code._test_code import in_test_code

# anything in the file that trains, or that sets a mode: the rule stays out
_TRAINS = re.compile(r"\.backward\(|\.train\(|\.eval\(|\.step\(|Trainer\b|train_mode|requires_grad_\(True")
_NO_GRAD = frozenset({"no_grad", "inference_mode"})
_MODE_LAYERS = re.compile(r"BatchNorm|Dropout|SyncBatchNorm|InstanceNorm\w*\(.*track_running_stats=True")
# constructors that give a module in training mode; ``from_pretrained`` models come back in eval mode
_BUILDERS = re.compile(r"^(torchvision\.models\..+|timm\.create_model|segmentation_models_pytorch\..+)$")


def _is_builder(ctx: FileContext, call: ast.Call) -> bool:
    """A class call (``LeafNet(...)``, ``models.ResNet(...)``) or a torchvision/timm model builder."""
    func = call.func
    last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if last in ("from_pretrained", "load", "load_from_checkpoint"):
        return False
    return bool(last[:1].isupper()) or bool(_BUILDERS.match(qualify(ctx, func)))


def _no_grad_context(ctx: FileContext, node: ast.AST) -> bool:
    """``node`` runs under ``with torch.no_grad():`` / ``torch.inference_mode()``, or in a function decorated
    with them."""
    for anc in ctx.ancestors(node):
        if isinstance(anc, (ast.With, ast.AsyncWith)):
            for item in anc.items:
                expr = item.context_expr
                func = expr.func if isinstance(expr, ast.Call) else expr
                name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
                if name in _NO_GRAD:
                    return True
        elif isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for dec in anc.decorator_list:
                func = dec.func if isinstance(dec, ast.Call) else dec
                name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
                if name in _NO_GRAD:
                    return True
    return False


def _local_class_without_mode_layers(ctx: FileContext, call: ast.Call) -> bool:
    """The model's class is defined in this file and has no BatchNorm/Dropout layer: the mode changes nothing."""
    func = call.func
    name = func.id if isinstance(func, ast.Name) else None
    if name is None:
        return False
    for cls in ctx.nodes(ast.ClassDef):
        if cls.name == name:
            return not _MODE_LAYERS.search(ast.unparse(cls))
    return False


def _loads_weights(ctx: FileContext, name: str, scope: Optional[ast.AST]) -> Optional[ast.Call]:
    """``<name>.load_state_dict(...)`` in the builder's function (anywhere for a module-level model)."""
    for call in ctx.nodes(ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "load_state_dict" and target_text(func.value) == name \
                and (scope is None or ctx.enclosing_function(call) is scope):
            return call
    return None


def _last_binding(ctx: FileContext, name: str, call: ast.Call) -> Optional[ast.Assign]:
    """The last ``name = ...`` of the call's own function (module level: of the module) before the call."""
    scope = ctx.enclosing_function(call)
    last: Optional[ast.Assign] = None
    for node in ctx.nodes(ast.Assign):
        if node.lineno < call.lineno and ctx.enclosing_function(node) is scope \
                and any(target_text(t) == name for t in node.targets) \
                and (last is None or node.lineno > last.lineno):
            last = node
    return last


@register
class InferenceWithoutEval(Rule):
    code = "PF149"
    name = "inference-without-eval"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    needs_text = ("load_state_dict",)
    summary = ("A prediction script loads trained weights into a freshly built model and runs it under no_grad "
               "without `model.eval()`: BatchNorm uses each batch's statistics (and updates them), dropout stays on")
    explanation = """
## What it finds

In a file that does not train (no `.backward(`, `.step(`, `.train(`, Trainer) and never
sets a mode (no `.eval()`), a model built by a class call (`LeafNet(...)`) or a
torchvision/timm builder, given trained weights with `model.load_state_dict(...)`, and
called under `torch.no_grad()` / `torch.inference_mode()` (a `with` block or a decorator).

## Why it matters

Every `nn.Module` starts in training mode, and `load_state_dict` does not change the mode.
Without `model.eval()` each BatchNorm layer normalises the input with the statistics of
the current batch (with one image, its own statistics) and overwrites its running mean and
variance on every call; dropout keeps dropping activations. The predictions are wrong and
change from call to call, and with single-image batches they depend on nothing but the
image's own statistics ("What does model.eval() do for batchnorm layer?", PyTorch forums
7146). `torch.no_grad()` only turns autograd off; it does not change the mode.

## How to fix it

Call `model.eval()` after loading the weights and before predicting.

## When preflight stays silent

* The file trains or sets a mode anywhere (`.eval()`, `.train(...)`, `.backward(`,
  `.step(`), or is test code.
* The model comes from `from_pretrained` (returned in eval mode), `torch.load` or
  `torch.jit.load` (the saved mode), or its class is defined in the file without BatchNorm
  or dropout layers.
* The forward does not run under `no_grad`/`inference_mode`, or no weights are loaded into
  the model.
"""
    bad_examples = examples("preflight.rules.code._pf149_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf149_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        text = ctx.parsed.text if ctx.parsed.text is not None else ctx.parsed.source.text
        if _TRAINS.search(text) or "train(False)" in text:
            return
        built: list[tuple[str, ast.Assign]] = []
        for node in ctx.nodes(ast.Assign):
            if len(node.targets) == 1 and isinstance(node.value, ast.Call) and _is_builder(ctx, node.value):
                name = target_text(node.targets[0])
                if name and not _local_class_without_mode_layers(ctx, node.value):
                    built.append((name, node))
        for name, assign in built:
            builder = assign.value
            assert isinstance(builder, ast.Call)
            scope = ctx.enclosing_function(assign)
            loaded = _loads_weights(ctx, name, scope)
            if loaded is None:
                continue
            for call in ctx.nodes(ast.Call):
                func = call.func.value if isinstance(call.func, ast.Attribute) and call.func.attr == "forward" \
                    else call.func
                if target_text(func) != name or call.lineno < loaded.lineno:
                    continue
                if _last_binding(ctx, name, call) is not (assign if ctx.enclosing_function(call) is scope else None):
                    continue
                if scope is not None and ctx.enclosing_function(call) is not scope:
                    continue
                if not _no_grad_context(ctx, call) or in_test_code(ctx, call):
                    continue
                yield ctx.finding(
                    self, call,
                    f"`{name}` is built by `{ast.unparse(builder.func)}(...)`, given trained weights (line "
                    f"{loaded.lineno}) and run here under no_grad, but nothing calls `{name}.eval()`: a new module is "
                    "in training mode, so every BatchNorm layer normalises this batch with its own statistics (a "
                    "single image with itself) and overwrites its running statistics, and dropout stays on: the "
                    f"predictions are wrong and change from call to call. Call `{name}.eval()` before predicting "
                    "(no_grad does not change the mode)",
                    evidence=[ctx.evidence(loaded, "trained weights loaded; the mode stays train")])
                break
