"""PF427 collective-save-on-rank-zero: a save that every rank must enter, called on rank 0 only."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.syntax import walk
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import last_name
from preflight.rules._pf427_support import rank_zero_flags_in, rank_zero_guard
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


def _collective(ctx: FileContext, call: ast.Call, engines: set[str]) -> Optional[str]:
    """What makes ``call`` a collective: a DeepSpeed engine save or a ZeRO-3 parameter gather."""
    name = last_name(call.func)
    if isinstance(call.func, ast.Attribute) and name in _ENGINE_SAVES:
        recv = call.func.value
        # the engine itself, or another object's attribute of the name a class stores its engine under
        # (``trainer.model_engine`` where ``self.model_engine, ... = deepspeed.initialize(...)``)
        if ast.unparse(recv) in engines or (isinstance(recv, ast.Attribute) and any(
                e.startswith("self.") and e[5:] == recv.attr for e in engines)):
            return f"DeepSpeed's `{name}` is a collective (every rank saves its shard and they synchronise)"
    if name in _GATHERS:
        return f"`{name}` all-gathers the partitioned ZeRO-3 parameters from every rank"
    return None


def _helpers(ctx: FileContext, engines: set[str]) -> dict[tuple[Optional[ast.AST], str], tuple[ast.AST, str]]:
    """Functions of this file whose body makes a collective call: (defining scope, name) -> (that call, why)."""
    out: dict[tuple[Optional[ast.AST], str], tuple[ast.AST, str]] = {}
    if not any((isinstance(node.func, ast.Attribute) and node.func.attr in _ENGINE_SAVES
               and isinstance(node.func.value, ast.Name)) or _collective(ctx, node, engines) is not None
               for node in ctx.nodes(ast.Call)):
        return out  # no call of the file can make a function a collective helper: none walked
    for fn in ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
        for node in walk(fn):
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


def _instances(ctx: FileContext) -> dict[str, ast.ClassDef]:
    """``self._checkpointer = Checkpointer(...)``: the text of a name or attribute -> the class of
    this file it is an instance of (only names bound to one class)."""
    classes = {c.name: c for c in ctx.nodes(ast.ClassDef)}
    out: dict[str, ast.ClassDef] = {}
    bad: set[str] = set()
    for node in ctx.nodes(ast.Assign):
        if len(node.targets) != 1 or not isinstance(node.targets[0], (ast.Name, ast.Attribute)):
            continue
        text = ast.unparse(node.targets[0])
        value = node.value
        cls = classes.get(value.func.id) if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) \
            else None
        if cls is None or (text in out and out[text] is not cls):
            bad.add(text)
        else:
            out[text] = cls
    return {k: v for k, v in out.items() if k not in bad}


def _resolve_method(call: ast.Call, helpers: dict, instances: dict[str, ast.ClassDef]) -> Optional[tuple[ast.AST, str]]:
    """The helper method ``obj.method(...)`` reaches when ``obj`` is an instance of a class of this file."""
    if not isinstance(call.func, ast.Attribute):
        return None
    cls = instances.get(ast.unparse(call.func.value))
    return helpers.get((cls, call.func.attr)) if cls is not None else None


def _resolve(ctx: FileContext, call: ast.Call, helpers: dict) -> Optional[tuple[ast.AST, str]]:
    """The helper a plain-name call reaches: the innermost enclosing function (or the module) that
    defines that name."""
    if not helpers:
        return None  # nothing it could reach
    name = call.func.id  # type: ignore[attr-defined]
    for scope in ctx.ancestors(call):
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)) and name in _defined_in(ctx, scope):
            return helpers.get((scope, name))
    return None


def _defined_in(ctx: FileContext, scope: ast.AST) -> set[str]:
    """The names a function's (or the module's) body defines with ``def``, read once per scope:
    a module of n statements was scanned once per call in it."""
    known: dict[int, set[str]] = ctx.cached("pf427.defined-in", dict)
    found = known.get(id(scope))
    if found is None:
        found = known[id(scope)] = {s.name for s in getattr(scope, "body", ())
                                    if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return found


@register
class CollectiveSaveOnRankZero(Rule):
    code = "PF427"
    needs_text = ("save_checkpoint", "save_16bit_model", "GatheredParameters", "_zero3_consolidated")
    name = "collective-save-on-rank-zero"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = "A save that every rank must enter is called on rank 0 only"
    explanation = """
## What it finds

Inside `if rank == 0:` / `if accelerator.is_main_process:` / `if args.global_rank == 0:`
(or a `@rank_zero_only` function), a call that is a collective:

* `engine.save_checkpoint(...)` / `engine.save_16bit_model(...)` on the engine
  returned by `deepspeed.initialize`;
* `deepspeed.zero.GatheredParameters(...)`, or a function of the same file that
  uses it (DeepSpeed-Chat's `save_zero_three_model`) or saves an engine passed in.

## Why it matters

DeepSpeed's docs: "all processes must call this method and not just the process
with rank 0" - each rank writes its own optimizer/ZeRO shard and the ranks
synchronise. Under a rank-0 guard rank 0 waits for ranks that never arrive, and
the job hangs until the NCCL timeout (DeepSpeed issue 797 and PR 801, which
documented the requirement), and a ZeRO-3 gather all-gathers each parameter from
every rank.

## How to fix it

Call the save on every rank; keep the rank-0 guard only for what rank 0 alone
writes (a `meta.json`, a tokenizer, a log line). The gather helpers take the rank
as an argument and write on rank 0 themselves.

## When preflight stays silent

* The call is made on every rank, or both branches of the `if` make it.
* `save_checkpoint` of an object that is not known to be a DeepSpeed engine (a
  project's own `save_checkpoint(model, path)`), and `torch.save`/`save_pretrained`
  on rank 0 (not collectives).
* Lightning's `trainer.save_checkpoint`: it waits at a barrier only since Lightning
  2.1 (ray issue 56997 shows the hang), and a file does not show the version.
* A guard that only tests the ZeRO stage (`if args.zero_stage == 3:`).
* A call of a nested function resolves to the function of that name in the
  enclosing scopes, not to a same-named function elsewhere in the file.
"""
    bad_examples = examples("preflight.rules.code._pf427_examples", "PF427_BAD")
    good_examples = examples("preflight.rules.code._pf427_examples", "PF427_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        engines = _engines(ctx)
        helpers = _helpers(ctx, engines)
        instances = _instances(ctx) if helpers else {}
        flags = rank_zero_flags_in(ctx)
        for call in ctx.nodes(ast.Call):
            why = _collective(ctx, call, engines)
            inner = None
            if why is None:
                found = _resolve(ctx, call, helpers) if isinstance(call.func, ast.Name) \
                    else _resolve_method(call, helpers, instances)
                if found is not None:
                    inner, why = found
                    if ctx.enclosing_function(call) is ctx.enclosing_function(inner):
                        continue  # recursion
            if why is None:
                continue
            guard = rank_zero_guard(ctx.ancestors, call, flags)
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
