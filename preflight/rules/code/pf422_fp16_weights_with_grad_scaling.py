"""PF422 fp16-weights-with-grad-scaling: trainable weights in float16 under fp16 loss scaling."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.syntax import dotted_name
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls_by_attr, kwarg
from preflight.rules._pf414_support import (
    call_last,
    fp16_training_signals,
    is_fp16_dtype,
    may_signal_fp16,
    names_called,
)
from preflight.rules.base import Rule, examples


def _fp16_weights(ctx: FileContext) -> Optional[tuple[ast.AST, str]]:
    scopes: dict[ast.AST, _Scope] = {}  # what each function binds and calls: read once per file
    for call in ctx.nodes(ast.Call):
        last = call_last(call)
        if last == "from_pretrained":
            for key in ("torch_dtype", "dtype"):
                expr = kwarg(call, key)
                if is_fp16_dtype(expr):
                    if kwarg(call, "quantization_config") is not None or kwarg(call, "load_in_4bit") is not None \
                            or kwarg(call, "load_in_8bit") is not None:
                        return None
                    return expr, "loaded in float16"  # type: ignore[return-value]
        elif last == "half" and isinstance(call.func, ast.Attribute) and not call.args:
            if _module_receiver(ctx, call.func.value) and not _cast_back(ctx, call) \
                    and not _evaluation_function(ctx, call):
                return call, "cast with `.half()`"
        elif last == "to" and isinstance(call.func, ast.Attribute):
            found = _trained_cast(ctx, call, scopes)
            if found is not None:
                return found
    return None


_EVAL_FUNCTION = re.compile(r"(^|_)(eval|evaluate|evaluation|predict|prediction|inference|infer)(_|$)")


def _evaluation_function(ctx: FileContext, call: ast.Call) -> bool:
    """The cast sits in an evaluation function (``prediction_loop``, ``evaluate``): the Transformers
    Trainer's ``fp16_full_eval`` halves the model there, for evaluation only, while the GradScaler
    belongs to ``train`` (a vendored Trainer in microsoft/LoRA's examples)."""
    for above in ctx.ancestors(call):
        if isinstance(above, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return bool(_EVAL_FUNCTION.search(above.name))
    return False


def _cast_back(ctx: FileContext, call: ast.Call) -> bool:
    """``model.half().float()``: the float16 cast is undone in the same chain (YOLOv5/v7 round the
    anchors' precision this way), so the weights end in float32."""
    attr = ctx.parent(call)
    if not (isinstance(attr, ast.Attribute) and attr.value is call):
        return False
    outer = ctx.parent(attr)
    if not (isinstance(outer, ast.Call) and outer.func is attr):
        return False
    if attr.attr == "float" and not outer.args:
        return True
    return attr.attr == "to" and any(ast.unparse(a).endswith("float32") or ast.unparse(a) == "torch.float"
                                     for a in [*outer.args, *(k.value for k in outer.keywords)])


def _chain_root(expr: ast.AST) -> ast.AST:
    """``Net().cuda().to(device)`` -> ``Net()``: strip device moves and casts."""
    while isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) \
            and expr.func.attr in ("cuda", "to", "half", "float", "train"):
        expr = expr.func.value
    return expr


def _builds_module(expr: ast.AST) -> bool:
    """A model constructor (``Net(...)``) or a ``from_pretrained`` load."""
    if not isinstance(expr, ast.Call):
        return False
    name = call_last(expr) or ""
    return name == "from_pretrained" or name[:1].isupper()


def _parameter_owners(ctx: FileContext) -> frozenset[str]:
    """The text of every object whose ``.parameters()`` the file reads, once per file."""
    return frozenset(ast.unparse(n.func.value) for n in ctx.nodes(ast.Call)
                     if isinstance(n.func, ast.Attribute) and n.func.attr == "parameters")


def _module_receiver(ctx: FileContext, receiver: ast.AST) -> bool:
    """``.half()`` on a module, not on a tensor: a constructor or ``from_pretrained`` chain, a name
    bound to one, or an object whose ``.parameters()`` the file reads (Lightning tests cast loaded
    parameters with ``saved_param.half()`` to compare them: that is a tensor)."""
    root = _chain_root(receiver)
    if _builds_module(root):
        return True
    if ast.unparse(root) in ctx.cached("pf422_parameter_owners", lambda: _parameter_owners(ctx)):
        return True
    if isinstance(root, ast.Name):
        for assign in ctx.nodes(ast.Assign):
            if any(isinstance(t, ast.Name) and t.id == root.id for t in assign.targets) \
                    and _builds_module(_chain_root(assign.value)):
                return True
    return False


_OPTIMIZERS = frozenset({"AdamW", "Adam", "SGD", "Adafactor", "Lion", "AdamW8bit", "RMSprop"})


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _scope_members(ctx: FileContext) -> dict[ast.AST, tuple[list[tuple[int, ast.Assign]], list[ast.Call]]]:
    """For every function (or lambda) of the file, the assignments in its whole subtree with
    their depth below it, and its ``.parameters()`` / ``.requires_grad_(...)`` calls: each node's
    ancestors read once, instead of one walk of a function per scope asked about."""
    out: dict[ast.AST, tuple[list[tuple[int, ast.Assign]], list[ast.Call]]] = {}
    for node in ctx.unordered(ast.Assign):
        inside = False
        for depth, above in enumerate(ctx.ancestors(node), start=1):
            if isinstance(above, _SCOPES):
                out.setdefault(above, ([], []))[0].append((depth, node))
                inside = True
        if not inside:  # module-level code: a script that trains at the top level
            out.setdefault(ctx.tree, ([], []))[0].append((_depth(ctx, node), node))
    for attr in ("parameters", "requires_grad_", "add_adapter"):
        for call in calls_by_attr(ctx).get(attr, ()):
            inside = False
            for above in ctx.ancestors(call):
                if isinstance(above, _SCOPES):
                    out.setdefault(above, ([], []))[1].append(call)
                    inside = True
            if not inside:
                out.setdefault(ctx.tree, ([], []))[1].append(call)
    return out


def _depth(ctx: FileContext, node: ast.AST) -> int:
    return sum(1 for _ in ctx.ancestors(node))


def _feeds_optimizer(ctx: FileContext, params: ast.Call) -> bool:
    """``.parameters()`` handed to an optimizer: directly (``AdamW(m.parameters())``), or through
    ``itertools.chain(...)``/a conditional expression, inline or bound to a name the optimizer gets
    (``params_to_optimize = chain(unet.parameters(), text_encoder.parameters()) if ... else ...``)."""
    for above in ctx.ancestors(params):
        if isinstance(above, ast.Call) and above is not params and (
                "optim" in ast.unparse(above.func).lower() or call_last(above) in _OPTIMIZERS):
            return True
        if isinstance(above, ast.Call) and call_last(above) != "chain":
            return False
        if isinstance(above, ast.Assign):
            names = {t.id for t in above.targets if isinstance(t, ast.Name)}
            return bool(names) and any(
                isinstance(c.func, (ast.Name, ast.Attribute)) and (
                    "optim" in ast.unparse(c.func).lower() or call_last(c) in _OPTIMIZERS)
                and any(isinstance(a, ast.Name) and a.id in names for a in [*c.args, *(k.value for k in c.keywords)])
                for c in ctx.nodes(ast.Call))
        if isinstance(above, ast.stmt):
            return False
    return False


def _conditions_holding(ctx: FileContext, node: ast.AST) -> set[str]:
    """The tests (as text) known true where ``node`` runs: each enclosing ``if`` whose body holds it,
    and each conjunct of an ``and`` test (``if not args.train_text_encoder and text_encoder is not None:``)."""
    out: set[str] = set()
    child: ast.AST = node
    for above in ctx.ancestors(node):
        if isinstance(above, _SCOPES):
            break
        if isinstance(above, ast.If) and child in above.body:
            out.add(ast.dump(above.test))
            if isinstance(above.test, ast.BoolOp) and isinstance(above.test.op, ast.And):
                out.update(ast.dump(v) for v in above.test.values)
        child = above
    return out


def _condition(ctx: FileContext, node: ast.AST) -> Optional[str]:
    """The test of the innermost ``if`` whose body holds ``node``, as text (None: unconditional)."""
    for above in ctx.ancestors(node):
        if isinstance(above, ast.If):
            return ast.dump(above.test)
        if isinstance(above, _SCOPES):
            return None
    return None


class _Scope:
    """One walk of a function for ``_trained_cast``, instead of four per ``.to(...)`` call
    (quadratic in a long training ``main``): names bound to float16, single-name assignments
    as (name, value text) and the ``.parameters()`` / ``.requires_grad_`` calls, in walk order."""

    def __init__(self, ctx: FileContext, scope: ast.AST) -> None:
        self.fp16_names: set[str] = set()
        self._assigns: list[ast.Assign] = []
        self._calls: list[ast.Call] = []
        assigns, calls = ctx.cached("pf422-scope-members", lambda: _scope_members(ctx)).get(scope, ([], []))
        # ``ast.walk`` order: breadth first. Statements of one depth below the scope come in source
        # order (a statement lies only in a statement list, and every list holding statements is
        # in source order among a node's fields), so depth then position is that order.
        for _, n in sorted(assigns, key=lambda da: (da[0], da[1].lineno, da[1].col_offset)):
            if is_fp16_dtype(n.value) or _fp16_when_fp16_precision(n.value):
                self.fp16_names.update(t.id for t in n.targets if isinstance(t, ast.Name))
            if len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
                self._assigns.append(n)
        self._calls = calls  # only flags are read from them: their order does not matter
        self._texts: dict[object, tuple[list[tuple[str, str]], list[tuple[ast.Call, str]]]] = {}

    def texts(self, chains_only: bool, kind: type = ast.Name) -> tuple[list[tuple[str, str]], list[tuple[ast.Call, str]]]:
        """The assignments (target, value text) and calls (call, receiver text), made on the
        first float16 cast. With ``chains_only`` (the cast module is a ``a.b`` chain, which only
        a chain's text can equal) only values and receivers that are chains are kept, their text
        read from the chain instead of unparsed. Otherwise only those of the cast module's node
        type ``kind`` or names are kept (the only texts the aliases can hold: ``ast.unparse``
        round-trips, so two nodes of different types never read the same), a name's text being
        its identifier."""
        key = True if chains_only else kind
        found = self._texts.get(key)
        if found is None:
            if chains_only:
                assigns = [(n.targets[0].id, t) for n in self._assigns  # type: ignore[attr-defined]
                           if (t := dotted_name(n.value)) is not None]
                calls = [(n, t) for n in self._calls
                         if (t := dotted_name(n.func.value)) is not None]  # type: ignore[attr-defined]
            else:
                assigns = [(n.targets[0].id, _text_of(n.value)) for n in self._assigns  # type: ignore[attr-defined]
                           if type(n.value) is kind or type(n.value) is ast.Name]
                calls = []
                for n in self._calls:
                    receiver: ast.AST = n.func.value  # type: ignore[attr-defined]
                    if type(receiver) is kind or type(receiver) is ast.Name:
                        calls.append((n, _text_of(receiver)))
            found = self._texts[key] = (assigns, calls)
        return found


def _text_of(node: ast.AST) -> str:
    return node.id if isinstance(node, ast.Name) else ast.unparse(node)


def _fp16_name(ctx: FileContext, expr: Optional[ast.AST], scope: _Scope) -> bool:
    """``expr`` is float16, or a name the function binds to float16 (``weight_dtype = torch.float16``)."""
    if is_fp16_dtype(expr):
        return True
    return isinstance(expr, ast.Name) and expr.id in scope.fp16_names


def _trained_cast(ctx: FileContext, call: ast.Call, scopes: dict[ast.AST, _Scope]) -> Optional[tuple[ast.AST, str]]:
    """``module.to(device, dtype=<fp16>)`` on a module whose parameters the optimizer trains:
    ``unet = pipeline.unet``, ``layers = unet``, ``AdamW(layers.parameters())``, and no
    ``requires_grad_(False)`` on it (the frozen VAE / text encoder cast to fp16 is correct)."""
    node = ctx.enclosing_function(call) or ctx.tree
    dtype = kwarg(call, "dtype")
    if dtype is None:
        dtype = next((a for a in call.args if not isinstance(a, ast.Constant)), None) if call.args else None
    if not (isinstance(dtype, ast.Name) or is_fp16_dtype(dtype)):
        return None  # neither float16 nor a name that could be bound to it: the function is not walked
    scope = scopes.get(node)
    if scope is None:
        scope = scopes[node] = _Scope(ctx, node)
    if not _fp16_name(ctx, dtype, scope):
        return None
    chain = dotted_name(call.func.value)  # type: ignore[attr-defined]
    module = chain if chain is not None else ast.unparse(call.func.value)  # type: ignore[attr-defined]
    aliases = {module}
    assigns, calls = scope.texts(chain is not None, type(call.func.value))  # type: ignore[attr-defined]
    for _ in range(3):
        for target, value in assigns:
            if value in aliases:
                aliases.add(target)
    trained = frozen = False
    for n, owner in calls:
        assert isinstance(n.func, ast.Attribute)
        if n.func.attr == "parameters" and owner in aliases:
            parent = ctx.parent(n)
            if (isinstance(parent, ast.Call) and ("optim" in ast.unparse(parent.func).lower()
                                                 or call_last(parent) in _OPTIMIZERS)):
                trained = True
            elif not _conditions_holding(ctx, call) and _feeds_optimizer(ctx, n):
                # through chain()/a conditional expression: the module may be trained on a flag only,
                # so only a cast made whatever the flag is known to meet the training
                trained = True
        if n.func.attr == "requires_grad_" and owner in aliases and n.args \
                and isinstance(n.args[0], ast.Constant) and n.args[0].value is False:
            # a freeze under a condition (``if not args.train_text_encoder:``) freezes only in that
            # case: it covers the cast when the cast sits under the same condition
            when = _condition(ctx, n)
            if when is None or when in _conditions_holding(ctx, call):
                frozen = True
        if n.func.attr == "requires_grad_" and owner in aliases and n.args \
                and isinstance(n.args[0], ast.Constant) and n.args[0].value is True \
                and n.lineno > call.lineno:
            trained = True  # unfrozen after the cast (SVD fine-tunes: `unet.requires_grad_(True)`)
    if trained and not frozen:
        return call, f"cast to float16 (`{module}.to(..., dtype=...)`)"
    adapter = next((n for n, owner in calls if n.func.attr == "add_adapter" and owner in aliases  # type: ignore[attr-defined]
                    and n.lineno > call.lineno), None)
    if adapter is not None and not _upcast_after(node, adapter.lineno):
        # PEFT creates the adapter layers and moves them to the base layer's device and dtype
        # (``_move_adapter_to_device_of_base_layer``); ``add_adapter`` does not upcast them
        return call, (f"cast to float16 (`{module}.to(..., dtype=...)`) before `{ast.unparse(adapter.func)}(...)` "
                      "(line {}), so the LoRA adapters PEFT adds take the base layers' float16 dtype".format(
                          adapter.lineno))
    return None


def _upcast_after(fn: ast.AST, line: int) -> bool:
    """The trainable parameters are made float32 after ``line``: ``cast_training_params(...)``, or a
    ``.to(torch.float32)`` / ``.float()`` in the function after that line."""
    for n in ast.walk(fn):
        if getattr(n, "lineno", 0) <= line or not isinstance(n, ast.Call):
            continue
        text = ast.unparse(n.func)
        if text.endswith("cast_training_params") or text.endswith(".float"):
            return True
        if text.endswith(".to") and any("float32" in ast.unparse(a) for a in [*n.args, *(k.value for k in n.keywords)]):
            return True
    return False


def _fp16_branch(ctx: FileContext, cast: ast.AST) -> list[tuple[ast.AST, str]]:
    """``weight_dtype = torch.float16`` under ``if accelerator.mixed_precision == "fp16":``, the
    dtype of ``cast``: the weights are float16 exactly when the launch asks for fp16 mixed
    precision (diffusers' training scripts)."""
    if not isinstance(cast, ast.Call):
        return []
    dtype = kwarg(cast, "dtype")
    if dtype is None:
        dtype = next((a for a in cast.args if isinstance(a, ast.Name)), None)
    if not isinstance(dtype, ast.Name):
        return []
    fn = ctx.enclosing_function(cast)
    for node in ctx.nodes(ast.Assign):
        if ctx.enclosing_function(node) is not fn or not any(
                isinstance(t, ast.Name) and t.id == dtype.id for t in node.targets):
            continue
        if _fp16_when_fp16_precision(node.value):
            test = node.value.test  # type: ignore[attr-defined]
            return [(test, f"fp16 mixed precision (`{ast.unparse(test)}` makes `{dtype.id}` float16)")]
        if not is_fp16_dtype(node.value):
            continue
        branch = ctx.parent(node)
        if isinstance(branch, ast.If) and node in branch.body and _is_fp16_precision_test(branch.test):
            return [(branch.test, f"fp16 mixed precision (`{ast.unparse(branch.test)}` binds "
                                  f"`{dtype.id}` to float16)")]
    return []


def _fp16_when_fp16_precision(value: ast.AST) -> bool:
    """``torch.float16 if accelerator.mixed_precision == "fp16" else torch.float32``."""
    return isinstance(value, ast.IfExp) and is_fp16_dtype(value.body) and _is_fp16_precision_test(value.test)


def _is_fp16_precision_test(test: ast.expr) -> bool:
    """``accelerator.mixed_precision == "fp16"`` (either side)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = (test.left, test.comparators[0])
    return any(isinstance(a, ast.Attribute) and a.attr == "mixed_precision" for a in sides) and any(
        isinstance(c, ast.Constant) and c.value == "fp16" for c in sides)


@register
class Fp16WeightsWithGradScaling(Rule):
    code = "PF422"
    needs_text = ('TrainingArguments', 'SFTConfig', 'DPOConfig', 'GRPOConfig', 'Accelerator', 'Trainer', 'GradScaler')
    name = "fp16-weights-with-grad-scaling"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers", "accelerate", "lightning", "pytorch")
    summary = "Trainable weights are float16 while fp16 mixed precision scales the gradients"
    explanation = """
## What it finds

A model loaded with `torch_dtype=torch.float16` (or cast with `.half()`) in a
file that trains it with fp16 mixed precision: `TrainingArguments(fp16=True)`,
`Accelerator(mixed_precision="fp16")`, Lightning `precision=16`, or a
`GradScaler`. Also a trained module cast with `.to(device, dtype=weight_dtype)`
where `weight_dtype = torch.float16` is bound under
`if accelerator.mixed_precision == "fp16":` (diffusers' training scripts): the
weights are float16 exactly when the launch asks for fp16 mixed precision.
Also a frozen module cast that way and then given LoRA adapters with
`module.add_adapter(LoraConfig(...))` with no upcast of the trainable parameters after
it: PEFT moves each new adapter to its base layer's device and dtype
(`_move_adapter_to_device_of_base_layer`), so the only trained weights are float16
(diffusers PR 6231, fixed with `cast_training_params(unet, dtype=torch.float32)`).

## Why it matters

Mixed precision keeps the weights in float32 and scales the loss; the scaler
refuses to unscale gradients of float16 parameters: `ValueError: Attempting to
unscale FP16 gradients` at the first optimizer step (transformers issue 23165,
Lightning issue 5140). Without a scaler, pure fp16 weights lose small updates to
rounding.

## How to fix it

Load the trainable weights in float32 (`torch_dtype=torch.float32`, or leave it
out) and let autocast run the forward in fp16; or train in bf16.

The trained module may be cast in a function or at the top level of a script; its parameters
reach the optimizer directly or through `itertools.chain(...)` (inline or bound to a name the
optimizer gets). A freeze under a condition (`if not args.train_text_encoder:
text_encoder.requires_grad_(False)`) covers only a cast under the same condition: a cast
made always trains the module in float16 whenever the flag is on (brian6091/Dreambooth
issue 7: "Attempting to unscale FP16 gradients").

## When preflight stays silent

* 4-/8-bit quantized loads (QLoRA: the adapters are float32).
* A PEFT model whose adapters are created in float32 and no module is trained in
  full (`modules_to_save` copies a float16 layer, so it is flagged).
"""
    bad_examples = examples("preflight.rules.code._pf421_examples", "PF422_BAD")
    good_examples = examples("preflight.rules.code._pf421_examples", "PF422_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        may = may_signal_fp16(ctx)
        branch = "mixed_precision" in ctx.parsed.source.text
        if not may and not branch:  # a finding needs fp16 training too: the cheap test first
            return
        found = _fp16_weights(ctx)
        if found is None:
            return
        signals = fp16_training_signals(ctx) if may else []
        if not signals and branch:
            signals = _fp16_branch(ctx, found[0])
        if not signals:
            return
        if "get_peft_model" in names_called(ctx) and "modules_to_save" not in ctx.parsed.source.text:
            return
        node, how = found
        signal, what = signals[0]
        yield ctx.finding(
            self, node,
            f"the weights are {how} and trained under {what}: fp16 mixed precision expects float32 weights and "
            "the gradient scaler raises \"Attempting to unscale FP16 gradients\" at the first step. Load the "
            "trainable weights in float32 (autocast still runs the forward in fp16) or train in bf16",
            evidence=[ctx.evidence(signal, f"{what} scales the gradients")])
