"""PF473 save-hook-on-every-process: an Accelerate ``save_state`` pre-hook writes files on every process."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls_by_attr, kwarg
from preflight.rules.base import Rule, examples
from preflight.rules.code._rank_guards import only_rank_test, rankish

# calls that write a file from the process that runs them (``accelerator.save`` writes once per
# machine by itself, so it is not one)
_WRITERS = ("save_pretrained", "save_lora_weights", "save_model")


def _not_rank(test: ast.expr) -> bool:
    """``not accelerator.is_main_process`` / ``rank != 0``: the processes an early return sends away."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return only_rank_test(test.operand)
    return (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.NotEq, ast.Gt))
            and rankish(test))


def _under_rank_test(ctx: FileContext, node: ast.AST, fn_node: Optional[ast.AST]) -> bool:
    """``node`` sits under a rank-only test, or its function returns early on one before it."""
    cur: Optional[ast.AST] = node
    while cur is not None and cur is not fn_node:
        parent = ctx.parent(cur)
        if isinstance(parent, (ast.If, ast.IfExp, ast.While)) and only_rank_test(parent.test):
            inside = any(cur is s for s in getattr(parent, "body", [])) or cur is getattr(parent, "body", None)
            if inside:
                return True
        cur = parent
    if fn_node is None:
        return False
    line = getattr(node, "lineno", 0)
    for sub in ctx.unordered(ast.If):  # any such `if` of the function (the file's, not a walk)
        if (sub.lineno < line and any(isinstance(s, (ast.Return, ast.Raise)) for s in sub.body)
                and _not_rank(sub.test) and ctx.under(sub, fn_node)):
            return True
    return False


def _writes(ctx: FileContext, hook: ast.AST) -> list[ast.Call]:
    out = []
    for sub in ast.walk(hook):
        if not isinstance(sub, ast.Call):
            continue
        func = sub.func
        last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if last in _WRITERS:
            if kwarg(sub, "is_main_process") is not None:
                continue  # transformers' own switch for which process writes
        elif last == "save_file" or (last == "save" and ast.unparse(func) == "torch.save"):
            pass
        else:
            continue
        if _under_rank_test(ctx, sub, hook) or any(rankish(a) for a in sub.args[1:2]):
            continue
        out.append(sub)
    return out


@register
class SaveHookOnEveryProcess(Rule):
    code = "PF473"
    needs_text = ("register_save_state_pre_hook",)
    name = "save-hook-on-every-process"
    severity = Severity.WARNING
    category = Category.DISTRIBUTED
    frameworks = ("accelerate",)
    summary = ("A `register_save_state_pre_hook` hook writes weights with no main-process test while "
               "`accelerator.save_state` runs on every process: every rank writes the same files at once")
    explanation = """
## What it finds

A function registered with `accelerator.register_save_state_pre_hook(hook)` that writes
files (`model.save_pretrained(...)`, `save_lora_weights`, `torch.save`, `save_file`) with
no main-process test around the write, in a file where some `accelerator.save_state(...)`
call is reached by every process (no rank test around it, or one with an `or` alternative
that lets all ranks in, such as `is_main_process or distributed_type == DEEPSPEED`).

## Why it matters

Accelerate runs the save hooks inside `save_state`, on each process that calls it. When
every process calls `save_state` (which DeepSpeed, FSDP and sharded states require), every
rank runs the hook and writes the same `save_pretrained` folder concurrently: 8 processes
writing one `diffusion_pytorch_model.safetensors`, with torn or truncated files when two
writers interleave (diffusers PR 4929: "accelerate save/load model hooks execute on every
process and have to be guarded if io requires guarding -- i.e. saving models").

## How to fix it

Put the writes of the hook under `if accelerator.is_main_process:` (keep `weights.pop()`
with them), as the diffusers training scripts do.

## When preflight stays silent

* The write sits under a main-process/rank test in the hook, or passes `is_main_process=`.
* Every `save_state` call of the file is under a rank-only test (`if accelerator.is_main_process:`):
  the hook then runs on one process.
* No `save_state` call in the file (preflight cannot tell where it runs).
"""
    bad_examples = examples("preflight.rules.code._pf473_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf473_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        by_attr = calls_by_attr(ctx)  # the file's x.attr(...) calls, in source order
        registered = [(call, call.args[0].id) for call in by_attr.get("register_save_state_pre_hook", ())
                      if call.args and isinstance(call.args[0], ast.Name)]
        save_states = list(by_attr.get("save_state", ()))
        if not registered or not save_states:
            return
        everyone = [c for c in save_states if not _under_rank_test(ctx, c, ctx.enclosing_function(c))]
        if not everyone:
            return
        defs = {n.name: n for n in ctx.nodes(ast.FunctionDef)}
        for reg, name in registered:
            hook = defs.get(name)
            if hook is None:
                continue
            for write in _writes(ctx, hook):
                yield ctx.finding(
                    self, write,
                    f"`{ast.unparse(write.func)}(...)` in the save_state pre-hook `{name}` has no main-process "
                    "test, and `accelerator.save_state` runs on every process here: Accelerate runs the hook on "
                    "each of them, so every rank writes the same files concurrently. Put the writes (and "
                    "`weights.pop()`) under `if accelerator.is_main_process:`",
                    evidence=[ctx.evidence(reg, f"`{name}` is registered as a save_state pre-hook"),
                              ctx.evidence(everyone[0], "save_state is reached by every process")])
