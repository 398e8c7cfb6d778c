"""PF436 collective-on-rank-zero: a gather, reduction or barrier that every rank must enter,
called under a rank-0 guard."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import accelerator_names
from preflight.rules._pf427_support import rank_zero_flags_in, rank_zero_guard
from preflight.rules.base import Rule, examples

# Accelerator methods that every process must call (each is a collective or waits for one)
_ACCELERATE = frozenset({"gather", "gather_for_metrics", "reduce", "pad_across_processes", "wait_for_everyone"})
# torch.distributed collectives
_TORCH = frozenset({"all_reduce", "all_gather", "all_gather_object", "all_gather_into_tensor", "reduce",
                    "reduce_scatter", "reduce_scatter_tensor", "broadcast", "broadcast_object_list", "barrier",
                    "gather", "gather_object", "scatter", "scatter_object_list", "all_to_all",
                    "all_to_all_single", "monitored_barrier"})


# accelerate.utils functions that are collectives (accelerate/utils/operations.py: each one calls
# torch.distributed's gather/all_gather_object/broadcast/all_reduce when several processes run)
_ACCELERATE_UTILS = frozenset({"gather", "gather_object", "broadcast", "broadcast_object_list", "reduce",
                               "pad_across_processes"})
_ACCELERATE_MODULES = ("accelerate.utils.", "accelerate.utils.operations.")

# torchmetrics' ``Metric.compute()`` (and pytorch_lightning.metrics', 1.0-1.4, where it came from) first syncs
# the metric states over all processes (``Metric.sync`` -> ``all_gather``) whenever several run and
# ``sync_on_compute`` (default True) holds: a collective (torchmetrics issue 938, pytorch-lightning issue 20223)
_METRIC_MODULES = ("torchmetrics.", "pytorch_lightning.metrics.", "lightning.pytorch.metrics.")

_NAMES = _ACCELERATE | _TORCH | _ACCELERATE_UTILS | {"compute"}


def metric_objects(ctx: FileContext) -> frozenset[str]:
    """Names and attributes (as source text: ``self.val_acc``) that every assignment of the file binds
    to a torchmetrics metric built to sync on compute (``Accuracy()``, ``MetricCollection([...])``;
    not ``sync_on_compute=False`` or a ``process_group=`` of its own)."""
    def build() -> frozenset[str]:
        imports = scope_index(ctx).imports
        bound: dict[str, bool] = {}
        for node in ctx.nodes(ast.Assign):
            for target in node.targets:
                if not isinstance(target, (ast.Name, ast.Attribute)):
                    continue
                value = node.value
                qual = (imports.qualify(value.func) or "") if isinstance(value, ast.Call) else ""
                ok = isinstance(value, ast.Call) and qual.startswith(_METRIC_MODULES) \
                    and ".functional." not in qual and qual.rsplit(".", 1)[-1][:1].isupper() \
                    and not any(kw.arg == "process_group" or (kw.arg == "sync_on_compute" and not (
                        isinstance(kw.value, ast.Constant) and kw.value.value is True)) for kw in value.keywords)
                text = ast.unparse(target)
                bound[text] = bound.get(text, True) and ok
        return frozenset(text for text, ok in bound.items() if ok)

    found: frozenset[str] = ctx.cached("pf436-metric-objects", build)
    return found


def collective_calls(ctx: FileContext) -> list[tuple[ast.Call, str]]:
    """The file's collective calls with what makes each one (``"dist.barrier() is a collective"``),
    in source order; found once per file for PF436 and PF491."""
    def build() -> list[tuple[ast.Call, str]]:
        # only a method named like a collective, or a plain name (an import may rename it), can
        # be one: the file's accelerators and the qualified names are looked up for those alone
        calls = [c for c in ctx.nodes(ast.Call)
                 if isinstance(c.func, ast.Name) or (isinstance(c.func, ast.Attribute) and c.func.attr in _NAMES)]
        accelerators: set[str] = set()
        if any(isinstance(c.func, ast.Attribute) and c.func.attr in _ACCELERATE for c in calls):
            accelerators = accelerator_names(ctx)
        found = []
        for call in calls:
            why = _collective(ctx, call, accelerators)
            if why is not None:
                found.append((call, why))
        return found

    return ctx.cached("collective-calls", build)


def _collective(ctx: FileContext, call: ast.Call, accelerators: set[str]) -> Optional[str]:
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in _ACCELERATE and ast.unparse(func.value) in accelerators:
        return f"`accelerator.{func.attr}` is a collective: every process must call it"
    if isinstance(func, ast.Attribute) and func.attr == "compute":
        if not call.args and not call.keywords and ast.unparse(func.value) in metric_objects(ctx):
            return ("torchmetrics' `Metric.compute()` first syncs the metric states over all processes "
                    "(an `all_gather` in `Metric.sync`): every rank must call it")
        return None
    qual = scope_index(ctx).imports.qualify(func) or ""
    if qual.startswith("torch.distributed.") and qual.rsplit(".", 1)[-1] in _TORCH and qual.count(".") == 2:
        return f"`torch.distributed.{qual.rsplit('.', 1)[-1]}` is a collective: every rank of the group must call it"
    head, _, last = qual.rpartition(".")
    if last in _ACCELERATE_UTILS and f"{head}." in _ACCELERATE_MODULES:
        return f"`accelerate.utils.{last}` is a collective: every process must call it"
    return None


def _sub_group(call: ast.Call) -> bool:
    """The collective names its own process group (``group=tp_group``): which ranks belong to it is
    not in the call, and a group whose members all pass the guard is correct (the tensor-parallel
    peers of data-parallel rank 0; a weight-sync group of rank 0 and inference workers that join
    from another program)."""
    for kw in call.keywords:
        if kw.arg == "group":
            value = kw.value
            return not (isinstance(value, ast.Constant) and value.value is None) \
                and not ast.unparse(value).endswith("WORLD")
    return False


@register
class CollectiveOnRankZero(Rule):
    code = "PF436"
    needs_text = ("main_process", "rank", "is_global_zero", "master", "is_main", "process_zero")
    name = "collective-on-rank-zero"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("accelerate", "pytorch", "lightning")
    summary = "A gather, reduction or barrier that every process must enter is called on rank 0 only"
    explanation = """
## What it finds

Inside `if accelerator.is_main_process:` / `if rank == 0:` / `if dist.get_rank() == 0:`
(or a `@rank_zero_only` function), a collective call:

* `accelerator.gather(...)`, `gather_for_metrics(...)`, `reduce(...)`,
  `pad_across_processes(...)`, `wait_for_everyone()` on an `Accelerator` of the file;
* `accelerate.utils.gather_object`, `gather`, `broadcast`, `broadcast_object_list`,
  `reduce`, `pad_across_processes` (`from accelerate.utils import gather_object`): each
  one is a `torch.distributed` collective when several processes run;
* `torch.distributed.all_reduce`, `all_gather`, `broadcast`, `barrier`, `reduce`,
  `gather`, `scatter` and their `_object` / `_tensor` variants;
* `metric.compute()` on a torchmetrics metric the file builds (`self.val_acc =
  Accuracy()` from `torchmetrics` or `pytorch_lightning.metrics`, `MetricCollection`):
  `compute()` first syncs the metric states across processes (an `all_gather`).

## Why it matters

A collective completes only when every rank of the group calls it. On rank 0
alone it waits for the other ranks, which have gone on (or wait at another
collective), and the job hangs until the NCCL timeout (accelerate issue 2785:
`gather_for_metrics` in an evaluation loop run under `is_main_process`; accelerate
issue 2733: `gather_object(txt_out)` of generated texts inside `if
accelerator.is_main_process:`, "you also need to call gather_object across every
worker"; torchmetrics issue 938: a `MetricCollection` computed in a test function
run on rank 0 only, "the code just hangs at the compute step until the timeout";
pytorch-lightning issue 20223, `metric.compute()` hangs under DDP).

## How to fix it

Run the collective on every rank, and keep the rank-0 guard for what only the
main process does with the result (printing, logging, writing files).

## When preflight stays silent

* Both branches of the `if` make the same call, or the function makes it outside
  the rank-0 guard too: the "main process first" pattern
  (`if rank != 0: dist.barrier()` ... `if rank == 0: dist.barrier()`), where every
  rank reaches the barrier once.
* The receiver is not an `Accelerator` built in the file (a metrics object's own
  `gather`), or the call is not `torch.distributed`'s (a project's `all_reduce`).
* The call names its own process group (`group=tp_group`): its members are not
  known from the call, and a sub-group whose ranks all pass the guard is correct
  (the tensor-parallel peers under `if dp_rank == 0:`).
* A metric built with `sync_on_compute=False` or its own `process_group=`, or one that
  is not a torchmetrics class (`evaluate.load("accuracy").compute(...)`, a project's
  `compute`).
* Saves that are collectives are PF427's.
"""
    bad_examples = examples("preflight.rules.code._pf436_examples", "PF436_BAD")
    good_examples = examples("preflight.rules.code._pf436_examples", "PF436_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        flags: Optional[frozenset[str]] = None
        for call, why in collective_calls(ctx):
            if flags is None:
                flags = rank_zero_flags_in(ctx)
            guard = rank_zero_guard(ctx.ancestors, call, flags)
            if guard is None or _sub_group(call) or self._matched(ctx, call, flags):
                continue
            what = ast.unparse(call.func)
            yield ctx.finding(
                self, call,
                f"`{what}(...)` runs on rank 0 only, but {why}: rank 0 waits for processes that never call it "
                "and the job hangs until the NCCL timeout. Call it on every rank and guard only what rank 0 "
                "does with the result",
                evidence=[ctx.evidence(guard, "only rank 0 runs this")])

    @staticmethod
    def _matched(ctx: FileContext, call: ast.Call, flags: frozenset[str]) -> bool:
        """The same call is made elsewhere in the function outside a rank-0 guard: the "main
        process first" pattern (``if rank != 0: dist.barrier()`` ... ``if rank == 0: dist.barrier()``)
        where every rank reaches the collective once."""
        fn = ctx.enclosing_function(call)
        same = ast.unparse(call.func)
        for other in ctx.nodes(ast.Call):
            if other is call or ctx.enclosing_function(other) is not fn or ast.unparse(other.func) != same:
                continue
            if rank_zero_guard(ctx.ancestors, other, flags) is None:
                return True
        return False
