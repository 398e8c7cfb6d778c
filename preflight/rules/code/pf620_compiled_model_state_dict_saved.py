"""PF620 compiled-model-state-dict-saved: ``torch.save`` of the ``state_dict()`` of the module
``torch.compile`` returned, whose keys all start with ``_orig_mod.``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _target(node: ast.expr) -> Optional[str]:
    """``model`` or ``self.model`` (the names a compiled module is kept under)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return f"self.{node.attr}"
    return None


def _scope(ctx: FileContext, node: ast.AST) -> Optional[ast.AST]:
    """The function a plain name lives in (None at module level)."""
    return ctx.enclosing(node, ast.FunctionDef, ast.AsyncFunctionDef)


def _class(ctx: FileContext, node: ast.AST) -> Optional[ast.AST]:
    return ctx.enclosing(node, ast.ClassDef)


@register
class CompiledModelStateDictSaved(Rule):
    code = "PF620"
    needs_text = ("compile",)
    name = "compiled-model-state-dict-saved"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = ("`torch.save` writes the `state_dict()` of the module `torch.compile` returned: every key starts "
               "with `_orig_mod.` and the checkpoint does not load into the uncompiled model")
    explanation = """
## What it finds

`model = torch.compile(model)` (or `self.model = torch.compile(...)`, or a new name) and,
after it, `torch.save(...)` of `model.state_dict()` (directly or inside the dict that is
saved), where `model` is still the compiled wrapper.

## Why it matters

`torch.compile(module)` returns an `OptimizedModule` that registers the original module
as its child `_orig_mod` (torch/_dynamo/eval_frame.py), so its `state_dict()` names every
parameter `_orig_mod.<name>`. A checkpoint written from it does not load into the model
built by the resume branch, an evaluation script or another project before it is
compiled: `load_state_dict` fails with "Missing key(s) ... Unexpected key(s)
_orig_mod...." (nanoGPT issue 325, LLMs-from-scratch issue 580, open_clip PR 639;
pytorch issue 101107). With `strict=False` nothing loads and the run silently starts from
random weights. (pytorch PR 185752, May 2026, makes `OptimizedModule.state_dict()` return
the public keys; a torch release that carries it writes loadable checkpoints, and preflight
does not know which release that is.)

## How to fix it

Keep a handle on the uncompiled module and save its state (the weights are shared):

```python
raw_model = model
model = torch.compile(model)
...
torch.save({"model": raw_model.state_dict()}, path)   # or model._orig_mod.state_dict()
```

or compile in place with `model.compile()` (torch 2.2+), which keeps the keys, or strip
the `_orig_mod.` prefix where the checkpoint is loaded.

## When preflight stays silent

* The saved name was re-bound after the compile (to the raw module) before the save,
  or the saved object is another name (`raw_model`, `model._orig_mod`).
* The file mentions `_orig_mod` anywhere (it strips or unwraps the prefix itself, as
  nanoGPT's resume code does).
* `model.compile()` in place, or `torch.compile` applied to a function.
* The save is of something other than `torch.save` (`save_pretrained`, `accelerator.save`
  of an unwrapped model: PF415).
"""
    bad_examples = examples("preflight.rules.code._pf620_examples", "PF620_BAD")
    good_examples = examples("preflight.rules.code._pf620_examples", "PF620_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if ctx.mentions("_orig_mod"):
            return
        scopes = scope_index(ctx)
        compiled: list[tuple[str, ast.Assign]] = []
        for assign in ctx.nodes(ast.Assign):
            value = assign.value
            if isinstance(value, ast.Call) and scopes.imports.qualify(value.func) == "torch.compile" \
                    and value.args and len(assign.targets) == 1:
                name = _target(assign.targets[0])
                if name is not None:
                    compiled.append((name, assign))
        if not compiled:
            return
        for save in ctx.nodes(ast.Call):
            if scopes.imports.qualify(save.func) != "torch.save" or not save.args:
                continue
            for call in ast.walk(save.args[0]):
                if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                        and call.func.attr == "state_dict" and not call.args):
                    continue
                saved = _target(call.func.value)
                origin = self._compiled_origin(ctx, saved, save, compiled) if saved else None
                if origin is None:
                    continue
                yield ctx.finding(
                    self, save,
                    f"`{saved}` is the `torch.compile` wrapper (line {origin.lineno}): its `state_dict()` names every "
                    f"key `_orig_mod.<name>`, so this checkpoint fails to load into the uncompiled model (\"Missing "
                    "key(s) ... Unexpected key(s) _orig_mod....\"). Save the original module's state (keep "
                    f"`raw = {saved}` before compiling, or `{saved}._orig_mod.state_dict()`), or compile in place "
                    "with `.compile()`",
                    evidence=[ctx.evidence(origin, f"`{saved}` is re-bound to the compiled module here")])
                break

    @staticmethod
    def _compiled_origin(ctx: FileContext, saved: str, save: ast.Call,
                         compiled: list[tuple[str, ast.Assign]]) -> Optional[ast.Assign]:
        """The compile that the saved name holds at the save: the last assignment to the name before the
        save (in the same function, or in the same class for ``self.x``) is a ``torch.compile``."""
        pos = (save.lineno, save.col_offset)
        if saved.startswith("self."):
            cls = _class(ctx, save)
            if cls is None:
                return None
            hits = [a for n, a in compiled if n == saved and _class(ctx, a) is cls]
            if not hits:
                return None
            others = [a for a in ctx.nodes(ast.Assign, ast.AnnAssign) if _class(ctx, a) is cls
                      and any(_target(t) == saved for t in (a.targets if isinstance(a, ast.Assign) else [a.target]))
                      and not any(a is h for h in hits)]
            return hits[0] if not others else None  # re-bound elsewhere in the class: order not followed
        scope = _scope(ctx, save)
        before = [a for a in ctx.nodes(ast.Assign, ast.AnnAssign)
                  if _scope(ctx, a) is scope and (a.lineno, a.col_offset) < pos
                  and any(_target(t) == saved for t in (a.targets if isinstance(a, ast.Assign) else [a.target]))]
        if not before:
            return None
        last = max(before, key=lambda a: (a.lineno, a.col_offset))
        return last if any(a is last for n, a in compiled if n == saved) and isinstance(last, ast.Assign) else None
