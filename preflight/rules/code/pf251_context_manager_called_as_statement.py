"""PF251 context-manager-called-as-statement: ``torch.no_grad()``, ``torch.autocast(...)``,
``accelerator.accumulate(model)``, ``model.no_sync()`` written as a plain statement instead of ``with ...:``:
the context manager object is built and thrown away, so it changes nothing."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.import_table import ImportTable
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

# fully qualified context managers -> what is lost when they are only called
_QUALIFIED = {
    "torch.no_grad": "gradients stay enabled: every forward pass records a graph and keeps its activations",
    "torch.inference_mode": "gradients stay enabled: every forward pass records a graph and keeps its activations",
    "torch.autograd.no_grad": "gradients stay enabled: every forward pass records a graph and keeps its activations",
    "torch.enable_grad": "gradients stay in whatever mode the caller set",
    "torch.autocast": "nothing runs in mixed precision: the step runs in full precision (slower, more memory)",
    "torch.amp.autocast": "nothing runs in mixed precision: the step runs in full precision (slower, more memory)",
    "torch.cuda.amp.autocast": "nothing runs in mixed precision: the step runs in full precision (slower, more "
                               "memory)",
    "torch.cpu.amp.autocast": "nothing runs in mixed precision: the step runs in full precision",
    "torch.autograd.detect_anomaly": "anomaly detection is never switched on",
    "torch.backends.cuda.sdp_kernel": "the attention kernel choice is never applied",
    "torch.nn.attention.sdpa_kernel": "the attention kernel choice is never applied",
    "deepspeed.zero.GatheredParameters": "the ZeRO-3 parameters are never gathered: the code after it sees empty "
                                         "partitions",
    "deepspeed.zero.Init": "the model is not partitioned while it is built: every rank materialises all of it "
                           "(the memory ZeRO-3 was meant to save)",
}
# methods of a training object (receiver hint, what is lost)
_METHODS = {
    "accumulate": (("accelerator",), "gradient accumulation never happens: every micro-batch syncs gradients and "
                                     "the optimizer steps on each one"),
    "no_sync": ((), "gradients are all-reduced on every backward anyway: the accumulation saves no communication"),
    "no_backward_sync": (("fabric",), "gradients are all-reduced on every backward anyway"),
    "autocast": (("accelerator", "fabric"), "nothing runs in mixed precision"),
    "summon_full_params": ((), "the full parameters are never gathered"),
    "main_process_first": ((), "the main process does not go first: every rank preprocesses (and writes the "
                               "cache) at the same time"),
    "disable_adapter": ((), "the adapter stays active: the outputs meant to come from the base (reference) model "
                            "come from the adapted one"),
    "join": (("model", "ddp"), "uneven inputs are not handled: ranks that run out of data leave the others "
                               "waiting in a collective"),
}


def _lost(imports: ImportTable, call: ast.Call, peft_context: bool) -> Optional[str]:
    qualified = imports.qualify(call.func) or ""
    if qualified in _QUALIFIED:
        return _QUALIFIED[qualified]
    if isinstance(call.func, ast.Attribute) and call.func.attr in _METHODS:
        hints, lost = _METHODS[call.func.attr]
        receiver = ast.unparse(call.func.value).lower()
        if call.func.attr == "join" and not call.args and "model" not in receiver and "ddp" not in receiver:
            return None
        if call.func.attr == "join" and call.args:
            return None  # str.join / os.path.join
        if call.func.attr == "disable_adapter" and not peft_context:
            return None
        if not hints or any(h in receiver for h in hints):
            return lost
    return None


@register
class ContextManagerCalledAsStatement(Rule):
    code = "PF251"
    name = "context-manager-called-as-statement"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    needs_text = ("no_grad", "inference_mode", "enable_grad", "autocast", "detect_anomaly", "sdp_kernel",
                  "sdpa_kernel", "GatheredParameters", "accumulate", "no_sync", "no_backward_sync",
                  "summon_full_params", "join", "Init", "main_process_first", "disable_adapter")
    summary = ("`torch.no_grad()` / `torch.autocast(...)` / `accelerator.accumulate(model)` / `model.no_sync()` "
               "called as a statement, not entered with `with`: it has no effect")
    explanation = """
## What it finds

A context manager called on a line of its own instead of being entered with `with`:
`torch.no_grad()`, `torch.inference_mode()`, `torch.autocast(...)` (and the
`torch.cuda.amp` / `torch.cpu.amp` spellings, also when imported by name),
`accelerator.accumulate(model)`, `accelerator.autocast()`, `model.no_sync()`,
`fabric.no_backward_sync(model)`, `FSDP.summon_full_params(model)`,
`deepspeed.zero.GatheredParameters(...)`, `deepspeed.zero.Init()`,
`accelerator.main_process_first()` / `training_args.main_process_first(...)`,
PEFT's `model.disable_adapter()`, `torch.backends.cuda.sdp_kernel(...)`.

## Why it matters

These functions return an object whose `__enter__` / `__exit__` do the work; calling the
function alone builds that object and drops it. Nothing fails and nothing changes:
evaluation after `torch.no_grad()` still records graphs (memory grows, an OOM that "should
not happen" in evaluation), `torch.autocast(...)` leaves the step in full precision,
`accelerator.accumulate(model)` leaves every micro-batch stepping the optimizer with an
all-reduce (the effective batch is N times smaller than configured), `model.no_sync()`
saves no communication, `main_process_first()` lets every rank preprocess at once,
`disable_adapter()` leaves a DPO-style "reference" forward on the adapted model. Reports: kuprel/min-dalle PR 24 ("simply calling `no_grad()` will
not disable gradients"; the fix "significantly reduced the memory usage"); the same bare
`torch.no_grad()` line appears in many public evaluation and inference functions (see the
det126 corpus notes).

## How to fix it

Enter it: `with torch.no_grad():` and indent the block, `with accelerator.accumulate(model):`,
`with torch.autocast("cuda", dtype=torch.bfloat16):`. To switch gradients off for the rest
of a script, call `torch.set_grad_enabled(False)` (a plain function).

## When preflight stays silent

* The object is entered (`with ...`), kept (`ctx = torch.autocast(...)`), returned,
  passed on, or used as a decorator (`@torch.no_grad()`).
* `model.disable_adapter()` in a file that does not mention `peft` or that also calls
  `enable_adapter(...)` (another API, whose disable/enable pair are plain methods).
* `torch.set_grad_enabled(False)` (works as a call), `str.join` / `os.path.join`, a `.join()`
  on a receiver that is not a DDP model (threads, processes).
"""
    bad_examples = examples("preflight.rules.code._pf251_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf251_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        imports: Optional[ImportTable] = None
        # PEFT's `PeftModel.disable_adapter()` is a context manager; a file that also calls `enable_adapter()`
        # uses another API (a custom model whose disable/enable pair are plain methods)
        peft_context = ctx.mentions("peft") and not ctx.mentions("enable_adapter")
        for stmt in ctx.nodes(ast.Expr):
            call = stmt.value
            if not isinstance(call, ast.Call):
                continue
            if imports is None:
                imports = ImportTable.build(ctx)
            lost = _lost(imports, call, peft_context)
            if lost is None:
                continue
            text = ast.unparse(call)
            yield ctx.finding(
                self, stmt,
                f"`{text}` is called as a statement: it only builds a context manager and drops it, so {lost}. "
                f"Write `with {text}:` around the code it should cover")
