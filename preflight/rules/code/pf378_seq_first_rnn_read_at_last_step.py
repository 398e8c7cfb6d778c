"""PF378 seq-first-rnn-output-read-at-last-step: an ``nn.LSTM``/``nn.GRU``/``nn.RNN`` built with the
default ``batch_first=False`` whose output the module reads as batch-major (``out[:, -1]``)."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import qualify
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

_RNNS = ("LSTM", "GRU", "RNN")
# a call on the RNN's input that may put time first: the rule cannot tell the layout then
_TIME_FIRST = ("transpose", "permute", "swapaxes", "swapdims", "movedim", "rearrange", "unsqueeze", "t",
               "pack_padded_sequence", "pack_sequence", "pad_sequence")


def _self_attr(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def _seq_first(call: ast.Call) -> bool:
    """``batch_first`` absent (and no ``**kwargs``) or a literal False."""
    if any(kw.arg is None for kw in call.keywords):
        return False
    value = next((kw.value for kw in call.keywords if kw.arg == "batch_first"), None)
    return value is None or (isinstance(value, ast.Constant) and value.value is False)


def _rnns(ctx: FileContext, cls: ast.ClassDef) -> dict[str, ast.Call]:
    """``self.<attr>`` -> the sequence-first ``torch.nn`` RNN call assigned to it in a method of ``cls``."""
    out: dict[str, ast.Call] = {}
    for node in ast.walk(cls):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call):
            attr, call = _self_attr(node.targets[0]), node.value
            if attr and call_last(call) in _RNNS and qualify(ctx, call.func).startswith("torch.nn.") \
                    and _seq_first(call):
                out[attr] = call
    return out


def _last_step(node: ast.AST) -> bool:
    """``x[:, -1]`` / ``x[:, -1, :]``: the last index of dimension 1, the whole of dimension 0."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple) and len(node.slice.elts) >= 2):
        return False
    first, second = node.slice.elts[0], node.slice.elts[1]
    return isinstance(first, ast.Slice) and first.lower is None and first.upper is None and first.step is None \
        and isinstance(second, ast.UnaryOp) and isinstance(second.op, ast.USub) \
        and isinstance(second.operand, ast.Constant) and second.operand.value == 1


def _bindings(fn: ast.AST, name: str) -> list[int]:
    return sorted(n.lineno for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == name
                  and isinstance(n.ctx, ast.Store))


def _input_time_first(fn: ast.AST, call: ast.Call) -> bool:
    """The RNN's input is (or was last bound to) an expression that may move time to dimension 0."""
    if not call.args:
        return True
    arg = call.args[0]
    exprs: list[ast.AST] = [arg]
    if isinstance(arg, ast.Name):
        before = [line for line in _bindings(fn, arg.id) if line < call.lineno]
        if before:
            exprs += [n.value for n in ast.walk(fn) if isinstance(n, ast.Assign) and n.lineno == before[-1]]
        elif isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                arg.id not in {a.arg for a in fn.args.args + fn.args.kwonlyargs}:
            return True
    for expr in exprs:
        for sub in ast.walk(expr):
            if isinstance(sub, ast.Call) and call_last(sub) in _TIME_FIRST:
                return True
            if isinstance(sub, ast.Attribute) and sub.attr in ("T", "mT"):
                return True
    return False


def _read_at_last_step(fn: ast.AST, attr: str) -> Optional[tuple[ast.Call, ast.Subscript]]:
    """``out, _ = self.<attr>(x)`` (or ``out = self.<attr>(x)[0]``) then ``out[:, -1]`` with ``out`` not
    rebound in between."""
    outputs: dict[str, tuple[int, ast.Call]] = {}
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        target, value = node.targets[0], node.value
        call: Optional[ast.AST] = None
        name: Optional[str] = None
        if isinstance(target, ast.Tuple) and target.elts and isinstance(target.elts[0], ast.Name):
            call, name = value, target.elts[0].id
        elif isinstance(target, ast.Name) and isinstance(value, ast.Subscript) and \
                isinstance(value.slice, ast.Constant) and value.slice.value == 0:
            call, name = value.value, target.id
        if isinstance(call, ast.Call) and _self_attr(call.func) == attr and name:
            outputs[name] = (node.lineno, call)
    for node in sorted((n for n in ast.walk(fn) if isinstance(n, ast.Subscript)), key=lambda n: n.lineno):
        if not (_last_step(node) and isinstance(node.value, ast.Name) and node.value.id in outputs):
            continue
        line, call = outputs[node.value.id]
        before = [b for b in _bindings(fn, node.value.id) if b < node.lineno]
        if before and before[-1] == line and not _input_time_first(fn, call):
            return call, node
    return None


@register
class SeqFirstRnnReadAtLastStep(Rule):
    code = "PF378"
    name = "seq-first-rnn-output-read-at-last-step"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    needs_text = ("LSTM", "GRU", "RNN")
    summary = ("`nn.LSTM`/`nn.GRU`/`nn.RNN` keeps the default `batch_first=False` but its output is read as "
               "batch-major (`out[:, -1]`): the batch is run as the time axis")
    explanation = """
## What it finds

A module that builds `nn.LSTM`, `nn.GRU` or `nn.RNN` without `batch_first=True` and whose method
takes the "last time step" of that layer's output as `out[:, -1]` (or `out[:, -1, :]`), where
`out` is the first value the layer returns and the input was not transposed or permuted on its way
in.

## Why it matters

With `batch_first=False` (the default) the recurrent layers read their input as
(sequence, batch, feature) and return the output in that layout (PyTorch docs of `nn.LSTM`:
"batch_first: If True, then the input and output tensors are provided as (batch, seq, feature)
instead of (seq, batch, feature)... Default: False"). `out[:, -1]` is the last *time step* only for
batch-major tensors: the code was written for (batch, sequence, feature) windows, as a
`DataLoader` stacks them. The layer then runs across the samples of the batch as if they were time
steps, the time steps of one window are treated as independent sequences, and `out[:, -1]` picks
the state of the last sample of the batch. Nothing fails: shapes line up, the loss stays high and
predictions depend on the batch composition (dl-for-har issue 11, DeepConvLSTM).

## How to fix it

Pass `batch_first=True`, or transpose to (sequence, batch, feature) before the layer and read the
last step as `out[-1]`.

## When preflight stays silent

* `batch_first` is anything but absent or a literal False, or the layer gets `**kwargs`.
* The class is not PyTorch's (a project's own `LSTM`).
* The input is transposed, permuted, unsqueezed or packed where it is last built, or is not a
  parameter or local name preflight can follow.
* The output name is rebound (transposed back) before it is indexed.
"""
    bad_examples = examples("preflight.rules.code._pf378_examples", "BAD")
    good_examples = examples("preflight.rules.code._pf378_examples", "GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for cls in ctx.nodes(ast.ClassDef):
            rnns = _rnns(ctx, cls)
            for attr, layer in rnns.items():
                for fn in cls.body:
                    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        continue
                    hit = _read_at_last_step(fn, attr)
                    if hit is None:
                        continue
                    _call, read = hit
                    yield ctx.finding(
                        self, layer,
                        f"this `{call_last(layer)}` keeps the default `batch_first=False`, so `self.{attr}` reads "
                        f"and returns (sequence, batch, feature), but `{ast.unparse(read)}` (line {read.lineno}) "
                        "takes the last step of dimension 1, i.e. the code holds batch-major windows: the layer "
                        "runs across the samples of each batch and the read picks the last sample, not the last "
                        "time step. Pass `batch_first=True`",
                        evidence=[ctx.evidence(read, "read as (batch, sequence, feature) here")])
                    break
