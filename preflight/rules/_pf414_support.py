"""Helpers of the code rules PF414-PF424 (issue 18: the bug classes users report)."""

from __future__ import annotations

import ast
import re
from typing import Any, Iterator, Optional

from preflight.analysis.context import FileContext
from preflight.rules._pf4_support import UNKNOWN, calls, kwarg, literal, target_text

STEP_SCHEDULERS = frozenset({
    "OneCycleLR", "CyclicLR", "get_linear_schedule_with_warmup", "get_cosine_schedule_with_warmup",
    "get_constant_schedule_with_warmup", "get_polynomial_decay_schedule_with_warmup",
    "get_cosine_with_hard_restarts_schedule_with_warmup", "get_inverse_sqrt_schedule", "get_wsd_schedule",
})
# families pretrained in bfloat16 whose activations overflow in float16 (T5 v1.0/v1.1, mT5, Flan-T5, UL2;
# GPT-Neo, trained on TPUs in bfloat16: transformers issue 11076; BLOOM/BLOOMZ: DeepSpeedExamples issue 418,
# "Current loss scale already at minimum" on bloomz-560m; BigScience's own releases only, not derivatives continued
# by others). GPT-NeoX and Pythia were trained in fp16: not listed.
BF16_PRETRAINED = re.compile(r"(^|[/_-])(flan-)?(m|by|long)?t5([-_.]|$)|t5-v1_1|(^|/)(flan-)?ul2"
                             r"|(^|/)gpt-neo-\d|(^|bigscience/)bloomz?(-\d|-mt|$)", re.IGNORECASE)
FP16_PRECISIONS = frozenset({16, "16", "16-mixed", "fp16", "fp16-mixed"})


def last_name(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def call_last(call: ast.Call) -> str:
    return last_name(call.func)


def const_str(node: Optional[ast.AST]) -> Optional[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def method_calls(root: ast.AST, attr: str) -> Iterator[ast.Call]:
    for node in ast.walk(root):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == attr:
            yield node


def names_called(ctx: FileContext) -> set[str]:
    """The last name of every callee of the file (``get_peft_model``, ``enable_input_require_grads``)."""
    return ctx.cached("pf414-names-called", lambda: {call_last(c) for c in ctx.nodes(ast.Call)})


def is_fp16_dtype(node: Optional[ast.AST]) -> bool:
    if node is None:
        return False
    if const_str(node) in ("float16", "fp16", "half"):
        return True
    return isinstance(node, ast.Attribute) and node.attr in ("float16", "half") and \
        isinstance(node.value, ast.Name) and node.value.id == "torch"


_FP16_ARGUMENTS = frozenset({"TrainingArguments", "Seq2SeqTrainingArguments", "SFTConfig", "DPOConfig", "GRPOConfig"})
_FP16_CALLS = _FP16_ARGUMENTS | {"Accelerator", "Trainer", "GradScaler"}  # every call may_signal_fp16 reads


def may_signal_fp16(ctx: FileContext) -> bool:
    """Whether :func:`fp16_training_signals` can find anything: a call it looks at, with the
    keyword it reads (no value resolved, so no literal resolver is built for the file)."""
    if ctx.call_names().isdisjoint(_FP16_CALLS):
        return False
    for call, qual in calls(ctx):
        last = call_last(call)
        if last in _FP16_ARGUMENTS:
            if kwarg(call, "fp16") is not None:
                return True
        elif last == "Accelerator":
            if kwarg(call, "mixed_precision") is not None:
                return True
        elif last == "Trainer" and (qual.startswith(("lightning", "pytorch_lightning")) or "." not in qual):
            if kwarg(call, "precision") is not None:
                return True
        elif last == "GradScaler":
            return True
    return False


def fp16_training_signals(ctx: FileContext) -> list[tuple[ast.AST, str]]:
    """Places where this file asks for fp16 mixed precision (loss scaling): (node, what)."""
    out: list[tuple[ast.AST, str]] = []
    for call, qual in calls(ctx):
        last = call_last(call)
        if last in ("TrainingArguments", "Seq2SeqTrainingArguments", "SFTConfig", "DPOConfig", "GRPOConfig"):
            expr = kwarg(call, "fp16")
            if expr is not None and literal(ctx, expr) is True:
                out.append((expr, f"`{last}(fp16=True)`"))
        elif last == "Accelerator":
            expr = kwarg(call, "mixed_precision")
            if expr is not None and literal(ctx, expr) == "fp16":
                out.append((expr, "`Accelerator(mixed_precision=\"fp16\")`"))
        elif last == "Trainer" and (qual.startswith(("lightning", "pytorch_lightning")) or "." not in qual):
            expr = kwarg(call, "precision")
            value = literal(ctx, expr) if expr is not None else UNKNOWN
            if expr is not None and value in FP16_PRECISIONS:
                out.append((expr, f"Lightning `Trainer(precision={value!r})`"))
        elif last == "GradScaler":
            out.append((call, "`GradScaler()` (fp16 loss scaling)"))
    return out


def assigned_names(ctx: FileContext, value: ast.AST) -> list[str]:
    """Names bound by the assignment whose value is ``value`` (tuple targets unpacked)."""
    parent = ctx.parent(value)
    if not isinstance(parent, ast.Assign) or parent.value is not value:
        return []
    out: list[str] = []
    for tgt in parent.targets:
        elts = tgt.elts if isinstance(tgt, (ast.Tuple, ast.List)) else [tgt]
        for elt in elts:
            text = target_text(elt)
            if text:
                out.append(text)
    return out


def classes_with_method(ctx: FileContext, *names: str) -> list[ast.ClassDef]:
    out = []
    for cls in ctx.nodes(ast.ClassDef):
        methods = {n.name for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        if methods & set(names):
            out.append(cls)
    return out


def may_optimize_manually(ctx: FileContext) -> bool:
    """Whether any node of the file could be what :func:`manual_optimization` returns (an
    ``X.automatic_optimization = False`` or a function of that name): when not, it returns None
    for every class of the file, and the rules skip walking them (large model files)."""
    def find() -> bool:
        if any(f.name == "automatic_optimization" for f in ctx.nodes(ast.FunctionDef)):
            return True
        for node in ctx.nodes(ast.Assign):
            if isinstance(node.value, ast.Constant) and node.value.value is False and any(
                    isinstance(t, ast.Attribute) and t.attr == "automatic_optimization" for t in node.targets):
                return True
        return False
    return bool(ctx.cached("pf414-may-optimize-manually", find))


def manual_optimization(cls: ast.ClassDef) -> Optional[ast.AST]:
    """The ``self.automatic_optimization = False`` (or property returning False) of a class."""
    for node in ast.walk(cls):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and node.value.value is False:
            for tgt in node.targets:
                if isinstance(tgt, ast.Attribute) and tgt.attr == "automatic_optimization":
                    return node
        if isinstance(node, ast.FunctionDef) and node.name == "automatic_optimization":
            for ret in ast.walk(node):
                if isinstance(ret, ast.Return) and isinstance(ret.value, ast.Constant) and ret.value.value is False:
                    return node
    return None


def self_attr(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def literal_value(ctx: FileContext, expr: Optional[ast.AST]) -> Any:
    return literal(ctx, expr) if expr is not None else UNKNOWN


def class_attribute_manual(cls: ast.ClassDef) -> Optional[ast.AST]:
    """``automatic_optimization = False`` as a class attribute."""
    for st in cls.body:
        target = st.targets[0] if isinstance(st, ast.Assign) and len(st.targets) == 1 else (
            st.target if isinstance(st, ast.AnnAssign) else None)
        value = st.value if isinstance(st, (ast.Assign, ast.AnnAssign)) else None
        if isinstance(target, ast.Name) and target.id == "automatic_optimization" \
                and isinstance(value, ast.Constant) and value.value is False:
            return st
    return None
