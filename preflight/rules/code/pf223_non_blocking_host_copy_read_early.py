"""PF223 non-blocking-host-copy-read-early: a device-to-host ``.to("cpu", non_blocking=True)`` whose
result is read before anything waits for the copy."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules.base import Rule, examples

_READ_METHODS = frozenset({"numpy", "tolist", "item", "__array__"})
_READ_FUNCS = frozenset({"np.asarray", "np.array", "numpy.asarray", "numpy.array", "np.save", "float", "int",
                         "bool", "np.concatenate", "np.stack", "numpy.concatenate", "numpy.stack"})
_SYNCS = frozenset({"synchronize", "wait_stream", "wait_event", "wait"})


def _to_host(call: ast.AST, blocking: bool = False) -> bool:
    """``x.to("cpu", non_blocking=True)`` / ``x.to(device="cpu", non_blocking=True)`` /
    ``x.to(torch.device("cpu"), non_blocking=True)``; with ``blocking`` the same copy without
    ``non_blocking=True``."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "to"):
        return False
    flag = kwarg(call, "non_blocking")
    if (isinstance(flag, ast.Constant) and flag.value is True) == blocking:
        return False
    if blocking and flag is not None and not isinstance(flag, ast.Constant):
        return False  # non_blocking=<a variable>: cannot tell
    dest = call.args[0] if call.args else kwarg(call, "device")
    if isinstance(dest, ast.Call) and ast.unparse(dest.func) in ("torch.device", "device") and dest.args:
        dest = dest.args[0]
    return isinstance(dest, ast.Constant) and dest.value == "cpu"


def _reads(node: ast.AST, name: str) -> bool:
    """``name.numpy()``, ``name.item()``, ``np.asarray(name)``, ``float(name)``..."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr in _READ_METHODS:
        inner = func.value
        while isinstance(inner, (ast.Attribute, ast.Subscript, ast.Call)) and not (
                isinstance(inner, ast.Name)):
            inner = inner.func if isinstance(inner, ast.Call) else inner.value
        return isinstance(inner, ast.Name) and inner.id == name
    return ast.unparse(func) in _READ_FUNCS and any(isinstance(a, ast.Name) and a.id == name for a in node.args)


def _syncs(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _SYNCS


@register
class NonBlockingHostCopyReadEarly(Rule):
    code = "PF223"
    name = "non-blocking-host-copy-read-early"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    needs_text = ("non_blocking",)
    summary = "A `.to(\"cpu\", non_blocking=True)` copy read (`.numpy()`, `.item()`, ...) before any synchronisation"
    explanation = """
## What it finds

`y = x.to("cpu", non_blocking=True)` (also `device="cpu"`, `torch.device("cpu")`) followed,
in the same function and before any `synchronize()` / `wait_stream()` / `wait_event()` call,
by a read of `y` on the host: `y.numpy()`, `y.tolist()`, `y.item()`, `np.asarray(y)`,
`float(y)`.

## Why it matters

A device-to-host copy with `non_blocking=True` is queued on the CUDA stream and returns at
once with a tensor in pinned host memory whose contents arrive later; nothing on the CPU side
waits for it. Reading it right away sees whatever the buffer held: zeros or stale chunks, at
random (PyTorch tutorial "A guide on good usage of non_blocking and pin_memory()": a
device-to-host non-blocking copy must be followed by `torch.cuda.synchronize()` before the
tensor is used on the CPU; mrpro issue 984: chunks of zeros in reconstructed images). The
host-to-device direction is safe because later CUDA work is ordered on the same stream.

## How to fix it

Copy synchronously (`.to("cpu")` / `.cpu()`), or call `torch.cuda.synchronize()` (or record
an event and `event.synchronize()`) between the copy and the first read.

## When preflight stays silent

* The copy goes to a GPU, or `non_blocking` is not `True`.
* A `synchronize()`, `wait_stream()` or `wait_event()` call, or a blocking copy to the host
  (`.to("cpu")`, `non_blocking=False`), which waits for the work queued before it on the stream,
  comes between the copy and the read, or the name is bound again before the read.
* The result is only handed on (appended, returned) in that function without being read.
"""
    bad_examples = examples("preflight.rules.code._pf223_examples", "PF223_BAD")
    good_examples = examples("preflight.rules.code._pf223_examples", "PF223_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for assign in ctx.nodes(ast.Assign):
            if len(assign.targets) != 1 or not isinstance(assign.targets[0], ast.Name) or not _to_host(assign.value):
                continue
            read = self._first_read(ctx, assign, assign.targets[0].id)
            if read is None:
                continue
            yield ctx.finding(
                self, assign.value,
                f"`{assign.targets[0].id}` is copied to the host with `non_blocking=True` and read on line "
                f"{getattr(read, 'lineno', 0)} with nothing waiting for the copy: a non-blocking device-to-host copy returns before "
                "the data arrives, so the read sees zeros or stale values at random. Copy synchronously "
                "(`.to(\"cpu\")`) or call `torch.cuda.synchronize()` before reading",
                evidence=[ctx.evidence(read, "read on the host here")])

    @staticmethod
    def _first_read(ctx: FileContext, assign: ast.Assign, name: str) -> Optional[ast.AST]:
        scope = ctx.enclosing(assign, ast.FunctionDef, ast.AsyncFunctionDef)
        body = scope if scope is not None else ctx.tree
        events: list[tuple[int, int, str, ast.AST]] = []
        for node in ast.walk(body):
            line = getattr(node, "lineno", 0)
            if line <= assign.lineno or (node is not body and ctx.enclosing(
                    node, ast.FunctionDef, ast.AsyncFunctionDef) is not scope):
                continue
            if _syncs(node) or _to_host(node, blocking=True):
                # a blocking device-to-host copy waits for the work queued before it on the stream,
                # the earlier non-blocking copy included (torchtitan/torchao's MoE `output_splits`)
                events.append((line, getattr(node, "col_offset", 0), "sync", node))
            elif _reads(node, name):
                events.append((line, getattr(node, "col_offset", 0), "read", node))
            elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
                events.append((line, -1, "rebind", node))
        for _, _, kind, node in sorted(events, key=lambda e: (e[0], e[1])):
            return node if kind == "read" else None
        return None
