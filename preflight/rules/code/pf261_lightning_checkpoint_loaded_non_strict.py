"""PF261 lightning-checkpoint-loaded-non-strict: a Lightning ``.ckpt``'s ``["state_dict"]`` loaded into a
network with ``strict=False``: its keys carry the LightningModule's attribute prefix, so nothing may load."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, kwarg
from preflight.rules.base import Rule, examples

# constructor names that say the object is a LightningModule (its keys match the .ckpt's)
_LIGHTNING_WORDS = ("lit", "lightning", "plmodule", "system")


def _ckpt_path(node: Optional[ast.AST], paths: dict[str, str]) -> Optional[str]:
    """The ``.ckpt`` path literal ``node`` is, or a name assigned one (or an ``hf_hub_download`` of one)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.endswith(".ckpt"):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values:
        tail = node.values[-1]
        if isinstance(tail, ast.Constant) and isinstance(tail.value, str) and tail.value.endswith(".ckpt"):
            return ast.unparse(node)
    if isinstance(node, ast.Name):
        return paths.get(node.id)
    return None


def _assigned_name(ctx: FileContext, node: ast.AST) -> Optional[str]:
    parent = ctx.parent(node)
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
        return parent.targets[0].id
    return None


def _lightning_classes(ctx: FileContext) -> set[str]:
    return {c.name for c in ctx.nodes(ast.ClassDef)
            if any("LightningModule" in ast.unparse(b) for b in c.bases)}


@register
class LightningCheckpointLoadedNonStrict(Rule):
    code = "PF261"
    name = "lightning-checkpoint-loaded-non-strict"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("a Lightning `.ckpt`'s `[\"state_dict\"]` loaded into a bare network with `strict=False`: its "
               "`model.`-prefixed keys match nothing and the network keeps its random weights")
    needs_text = ("strict",)
    explanation = """
## What it finds

`net.load_state_dict(ckpt["state_dict"], strict=False)` where `ckpt = torch.load(...)` of a
`.ckpt` file (a literal path, a name assigned one, or `hf_hub_download(filename="....ckpt")`),
the call's result (the missing and unexpected keys) is thrown away, and `net` is not known to
be a LightningModule.

## Why it matters

A Lightning checkpoint's `"state_dict"` is the LightningModule's: every key carries the
attribute the network was held under (`model.d1.0.weight` for `self.model = UNet()`). Loaded
into the bare network, no key matches; `strict=True` would raise with the list of missing
and unexpected keys, `strict=False` returns that list and loads nothing, so the network
predicts with its random initialisation and no error is raised (pytorch/examples issue 1029:
"load_state_dict strict=False can silently load a corrupted model"). The same line appears in
public inference scripts that read Lightning `.ckpt` files into a bare module.

## How to fix it

Strip the prefix and keep `strict=True`:
`net.load_state_dict({k.removeprefix("model."): v for k, v in ckpt["state_dict"].items()
if k.startswith("model.")})`, or load the LightningModule with
`SegModule.load_from_checkpoint(path)` and use its `.model`. If some keys must be skipped,
check what `load_state_dict` returns.

## When preflight stays silent

* `strict` is left at `True`, or the state dict is rebuilt first (a comprehension, a helper).
* The result is used (`missing, unexpected = net.load_state_dict(...)`): the script looks.
* The target is `self`, a class of the file that subclasses `LightningModule`, or a
  constructor whose name says Lightning (`LitModel`, `...System`); the keys then match.
* The file is not a `.ckpt` (a script's own `torch.save({"state_dict": ...})` file).
"""
    bad_examples = examples("preflight.rules.code._pf261_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf261_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        paths: dict[str, str] = {}
        for assign in ctx.nodes(ast.Assign):
            if len(assign.targets) == 1 and isinstance(assign.targets[0], ast.Name):
                path = _ckpt_path(assign.value, {})
                if path is not None:
                    paths[assign.targets[0].id] = path
        checkpoints: dict[str, str] = {}
        built: dict[str, str] = {}
        for call, qual in calls(ctx):
            name = _assigned_name(ctx, call)
            if name is None:
                continue
            if qual.rsplit(".", 1)[-1] == "hf_hub_download":
                path = _ckpt_path(kwarg(call, "filename"), {})
                if path is not None:
                    paths[name] = path
            elif qual == "torch.load" and call.args:
                path = _ckpt_path(call.args[0], paths)
                if path is not None:
                    checkpoints[name] = path
            elif isinstance(call.func, (ast.Name, ast.Attribute)):
                built[name] = call.func.attr if isinstance(call.func, ast.Attribute) else call.func.id
        if not checkpoints:
            return
        lightning = _lightning_classes(ctx)
        for call in ctx.nodes(ast.Call):
            if not (isinstance(call.func, ast.Attribute) and call.func.attr == "load_state_dict" and call.args):
                continue
            strict = kwarg(call, "strict")
            if not (isinstance(strict, ast.Constant) and strict.value is False):
                continue
            arg = call.args[0]
            if not (isinstance(arg, ast.Subscript) and isinstance(arg.value, ast.Name)
                    and arg.value.id in checkpoints and isinstance(arg.slice, ast.Constant)
                    and arg.slice.value == "state_dict"):
                continue
            if not isinstance(ctx.parent(call), ast.Expr):
                continue  # the missing/unexpected keys are looked at
            owner = call.func.value
            if not isinstance(owner, ast.Name) or owner.id == "self":
                continue
            ctor = built.get(owner.id, "")
            if ctor == "load_from_checkpoint" or ctor in lightning \
                    or any(w in ctor.lower() for w in _LIGHTNING_WORDS):
                continue
            yield ctx.finding(
                self, call,
                f"`{owner.id}.load_state_dict({ast.unparse(arg)}, strict=False)` reads the `\"state_dict\"` of "
                f"the Lightning checkpoint `{checkpoints[arg.value.id]}`: its keys carry the LightningModule's "
                "attribute prefix (`model.` for `self.model`), so in a bare network none of them matches and "
                "`strict=False` loads nothing without an error: the network keeps its random weights. Strip the "
                "prefix and keep `strict=True` (or use `LightningModule.load_from_checkpoint`)")
