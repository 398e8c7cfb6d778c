"""PF427 collective-save-on-rank-zero: a save that every rank must enter, called on rank 0 only."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import last_name
from preflight.rules._pf427_support import rank_zero_guard
from preflight.rules.base import Rule, examples

_ENGINE_SAVES = ("save_checkpoint", "save_16bit_model")
_GATHERS = ("GatheredParameters", "_zero3_consolidated_16bit_state_dict")


def _engines(ctx: FileContext) -> set[str]:
    """Names bound to a DeepSpeed engine: ``engine, opt, _, _ = deepspeed.initialize(...)``,
    ``engine = deepspeed.initialize(...)[0]``."""
    out: set[str] = set()
    for node in ctx.nodes(ast.Assign):
        value = node.value.value if isinstance(node.value, ast.Subscript) else node.value
        if not (isinstance(value, ast.Call) and last_name(value.func) == "initialize"
                and "deepspeed" in ast.unparse(value.func)):
            continue
        for tgt in node.targets:
            first = tgt.elts[0] if isinstance(tgt, (ast.Tuple, ast.List)) and tgt.elts else tgt
            if isinstance(first, (ast.Name, ast.Attribute)):
                out.add(ast.unparse(first))
    return out


def _lightning_trainer(ctx: FileContext, recv: ast.AST) -> bool:
    if not ctx.cached("pf427-lightning", lambda: any(
            (isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] in ("lightning", "pytorch_lightning"))
            or (isinstance(n, ast.Import) and any(a.name.split(".")[0] in ("lightning", "pytorch_lightning")
                                                  for a in n.names))
            for n in ctx.nodes(ast.Import, ast.ImportFrom))):
        return False
    return last_name(recv) == "trainer"


_LIGHTNING_1X = frozenset({"add_argparse_args", "from_argparse_args", "training_epoch_end", "validation_epoch_end",
                           "test_epoch_end"})


def _lightning_1x(ctx: FileContext) -> bool:
    """The file uses Lightning 1.x-only APIs: its ``save_checkpoint`` had no barrier yet (added in 2.0)."""
    def compute() -> bool:
        for node in ctx.nodes(ast.Attribute, ast.FunctionDef, ast.ImportFrom):
            if isinstance(node, ast.Attribute) and node.attr in _LIGHTNING_1X:
                return True
            if isinstance(node, ast.FunctionDef) and node.name in _LIGHTNING_1X:
                return True
            if isinstance(node, ast.ImportFrom) and node.module == "pytorch_lightning.utilities.distributed":
                return True
        return False
    return ctx.cached("pf427-lightning-1x", compute)


def _single_device_trainer(ctx: FileContext, call: ast.Call, recv: ast.AST) -> bool:
    """``trainer = Trainer(devices=1, ...)`` in the function of the call: one process, no barrier to miss."""
    fn = ctx.enclosing_function(call)
    for node in ast.walk(fn) if fn is not None else ():
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                and last_name(node.value.func) == "Trainer" \
                and any(ast.unparse(t) == ast.unparse(recv) for t in node.targets):
            devices = [k.value for k in node.value.keywords if k.arg == "devices"]
            return bool(devices) and isinstance(devices[0], ast.Constant) and devices[0].value == 1
    return False


def _collective(ctx: FileContext, call: ast.Call, engines: set[str]) -> Optional[str]:
    """What makes ``call`` a collective: a DeepSpeed engine save, Lightning's ``trainer.save_checkpoint``,
    a ZeRO-3 parameter gather."""
    name = last_name(call.func)
    if isinstance(call.func, ast.Attribute) and name in _ENGINE_SAVES:
        recv = call.func.value
        if ast.unparse(recv) in engines:
            return f"DeepSpeed's `{name}` is a collective (every rank saves its shard and they synchronise)"
        if name == "save_checkpoint" and _lightning_trainer(ctx, recv):
            if _single_device_trainer(ctx, call, recv) or _lightning_1x(ctx):
                return None
            return "Lightning's `trainer.save_checkpoint` waits at a barrier for every rank (Lightning >= 2.0)"
    if name in _GATHERS:
        return f"`{name}` all-gathers the partitioned ZeRO-3 parameters from every rank"
    return None


def _helpers(ctx: FileContext, engines: set[str]) -> dict[tuple[ast.AST, str], tuple[ast.AST, str]]:
    """Functions of this file whose body makes a collective call: (defining scope, name) -> (that call, why)."""
    out: dict[tuple[ast.AST, str], tuple[ast.AST, str]] = {}
    for fn in ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
        for node in ast.walk(fn):
            if isinstance(node, ast.Call):
                why = _collective(ctx, node, engines)
                if why is None and isinstance(node.func, ast.Attribute) and node.func.attr in _ENGINE_SAVES \
                        and isinstance(node.func.value, ast.Name) \
                        and node.func.value.id in {a.arg for a in fn.args.args}:
                    why = f"`{node.func.attr}` on an engine passed in is a DeepSpeed collective"
                if why is not None:
                    out.setdefault((ctx.parent(fn), fn.name), (node, why))
                    break
    return out


def _resolve(ctx: FileContext, call: ast.Call, helpers: dict) -> Optional[tuple[ast.AST, str]]:
    """The helper a plain-name call reaches: the innermost enclosing function (or the module) that
    defines that name."""
    name = call.func.id  # type: ignore[attr-defined]
    for scope in ctx.ancestors(call):
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)) and any(
                isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == name for s in scope.body):
            return helpers.get((scope, name))
    return None


@register
class CollectiveSaveOnRankZero(Rule):
    code = "PF427"
    needs_text = ("save_checkpoint", "save_16bit_model", "GatheredParameters", "_zero3_consolidated")
    name = "collective-save-on-rank-zero"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("deepspeed", "lightning")
    summary = "A save that every rank must enter is called on rank 0 only"
    explanation = """
## What it finds

Inside `if rank == 0:` / `if accelerator.is_main_process:` / `if trainer.is_global_zero:`
(or a `@rank_zero_only` function), a call that is a collective:

* `engine.save_checkpoint(...)` / `engine.save_16bit_model(...)` on the engine
  returned by `deepspeed.initialize`;
* Lightning's `trainer.save_checkpoint(...)`;
* `deepspeed.zero.GatheredParameters(...)`, or a function of the same file that
  uses it (DeepSpeed-Chat's `save_zero_three_model`) or saves an engine passed in.

## Why it matters

DeepSpeed's docs: "all processes must call this method and not just the process
with rank 0" - each rank writes its own optimizer/ZeRO shard and the ranks
synchronise. Under a rank-0 guard rank 0 waits for ranks that never arrive, and
the job hangs until the NCCL timeout (DeepSpeed issue 797 and PR 801, which
documented the requirement). Since Lightning 2.0 `trainer.save_checkpoint` ends in
`strategy.barrier()` the same way (ray issue 56997, autocast PR 386: "only rank 0
entered that barrier"), and a ZeRO-3 gather all-gathers each parameter from every rank.

## How to fix it

Call the save on every rank; keep the rank-0 guard only for what rank 0 alone
writes (a `meta.json`, a tokenizer, a log line). The gather helpers take the rank
as an argument and write on rank 0 themselves.

## When preflight stays silent

* The call is made on every rank, or both branches of the `if` make it.
* `save_checkpoint` of an object that is not known to be a DeepSpeed engine or a
  Lightning trainer (a project's own `save_checkpoint(model, path)`), and
  `torch.save`/`save_pretrained` on rank 0 (not collectives).
* A guard that only tests the ZeRO stage (`if args.zero_stage == 3:`).
* `trainer.save_checkpoint` of a trainer built in the same function with `devices=1`,
  or in a file that uses Lightning 1.x-only APIs (`Trainer.add_argparse_args`,
  `training_epoch_end`, `pytorch_lightning.utilities.distributed`): before 2.0 the
  save had no barrier.
* A call of a nested function resolves to the function of that name in the
  enclosing scopes, not to a same-named function elsewhere in the file.
"""
    bad_examples = examples("preflight.rules._pf427_examples", "PF427_BAD")
    good_examples = examples("preflight.rules._pf427_examples", "PF427_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        engines = _engines(ctx)
        helpers = _helpers(ctx, engines)
        for call in ctx.nodes(ast.Call):
            why = _collective(ctx, call, engines)
            inner = None
            if why is None and isinstance(call.func, ast.Name):
                found = _resolve(ctx, call, helpers)
                if found is not None:
                    inner, why = found
                    if ctx.enclosing_function(call) is ctx.enclosing_function(inner):
                        continue  # recursion
            if why is None:
                continue
            guard = rank_zero_guard(ctx.ancestors, call)
            if guard is None:
                continue
            what = ast.unparse(call.func)
            evidence = [ctx.evidence(guard, "only rank 0 runs this")]
            if inner is not None:
                evidence.append(ctx.evidence(inner, f"the collective inside `{what}`"))
            yield ctx.finding(
                self, call,
                f"`{what}(...)` runs on rank 0 only, but {why}: rank 0 waits for ranks that never call it and the "
                "job hangs until the NCCL timeout. Call it on every rank and guard only what rank 0 alone writes",
                evidence=evidence)
