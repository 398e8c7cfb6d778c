"""PF294 wrapper-state-dict-loaded-unwrapped: the state_dict of an ``nn.DataParallel``/DDP wrapper
(every key prefixed ``module.``) is saved, and a script beside it loads it strictly into a plain model."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.project_imports import sibling_modules
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import qualify
from preflight.rules.base import Rule, examples
from preflight.rules.code._parallel_wrappers import wrapped_names, wrapper_call

# texts that show a file handles the "module." prefix or the wrapper itself
_PREFIX_AWARE = ("module.", "[7:]", "consume_prefix_in_state_dict_if_present", "removeprefix", "DataParallel",
                 "DDP(", "prepare(", "unwrap_model")


def _saved_wrapper_state(ctx: FileContext, names: dict[str, ast.Assign]) -> Optional[tuple[ast.AST, str]]:
    """A ``torch.save(...)`` whose argument holds ``W.state_dict()`` for a wrapper name ``W``: in the
    argument itself (the finding is on the save), or in the value bound earlier in the same function
    to the name saved (``state = dict(state_dict=W.state_dict(), ...)``; the finding is on that
    ``W.state_dict()``)."""
    for call in ctx.nodes(ast.Call):
        if qualify(ctx, call.func) != "torch.save" or not call.args:
            continue
        saved = call.args[0]
        for node in ast.walk(saved):
            if _wrapper_state(node, names):
                return call, node.func.value.id  # type: ignore[attr-defined]
        if not isinstance(saved, ast.Name):
            continue
        scope = ctx.enclosing_function(call) or ctx.tree
        for assign in ast.walk(scope):
            if isinstance(assign, ast.Assign) and assign.lineno < call.lineno \
                    and any(isinstance(t, ast.Name) and t.id == saved.id for t in assign.targets):
                for node in ast.walk(assign.value):
                    if _wrapper_state(node, names):
                        return node, node.func.value.id  # type: ignore[attr-defined]
    return None


def _wrapper_state(node: ast.AST, names: dict[str, ast.Assign]) -> bool:
    """``W.state_dict()`` for a wrapper name ``W``."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
        and node.func.attr == "state_dict" and isinstance(node.func.value, ast.Name) \
        and node.func.value.id in names


_PREFIX_TEXTS = ("module.", "[7:]", "consume_prefix_in_state_dict_if_present", "removeprefix")


def _path_texts(node: ast.AST) -> set[str]:
    """The file-like string constants under ``node`` (``"net.pth"``, ``"ckpt/best.pt"``)."""
    return {c.value for c in ast.walk(node) if isinstance(c, ast.Constant) and isinstance(c.value, str)
            and len(c.value) >= 4 and ("." in c.value or "/" in c.value)}


def _saved_paths(ctx: FileContext) -> set[str]:
    """The file-like constants of every ``torch.save(obj, path)`` path in the file."""
    out: set[str] = set()
    for call in ctx.nodes(ast.Call):
        if qualify(ctx, call.func) == "torch.save":
            for arg in [*call.args[1:], *(k.value for k in call.keywords if k.arg == "f")]:
                out |= _path_texts(arg)
    return out


def _loaded_paths(ctx: FileContext, load: ast.Call) -> set[str]:
    """The file-like constants the loaded state comes from: in ``load_state_dict``'s argument, or, when it
    is a name (or a key of one), in the ``torch.load(...)`` bound to that name earlier in the same function."""
    arg = load.args[0]
    out = _path_texts(arg)
    while isinstance(arg, ast.Subscript):  # ``ckpt["state_dict"]``
        arg = arg.value
    if isinstance(arg, ast.Name):
        scope = ctx.enclosing_function(load) or ctx.tree
        for assign in ast.walk(scope):
            if isinstance(assign, ast.Assign) and assign.lineno < load.lineno \
                    and any(isinstance(t, ast.Name) and t.id == arg.id for t in assign.targets) \
                    and "torch.load" in ast.unparse(assign.value):
                out |= _path_texts(assign.value)
    return out


def _rebound_plain(ctx: FileContext, load: ast.Call, owner: str) -> bool:
    """``owner`` is bound in the loading function itself to a call that is not a parallel wrapper (an
    ``evaluate()`` that builds ``model = Net().cuda()`` while ``train()`` wraps its own ``model``)."""
    fn = ctx.enclosing_function(load)
    if fn is None:
        return False
    binds = [a for a in ast.walk(fn) if isinstance(a, ast.Assign) and a.lineno < load.lineno
             and any(isinstance(t, ast.Name) and t.id == owner for t in a.targets)]
    return bool(binds) and all(isinstance(a.value, ast.Call) and not any(
        w in ast.unparse(a.value) for w in ("DataParallel", "DDP", "prepare(", "FSDP", "wrap")) for a in binds)


def _non_strict_plain_load(ctx: FileContext, wrapped: set[str]) -> Optional[ast.Call]:
    """In the training script itself: ``m.load_state_dict(torch.load(path), strict=False)`` of a file
    this script writes with ``torch.save`` into a model that is not wrapped (a name never wrapped, or
    one rebound to a plain network in the loading function). No key matches, nothing is loaded."""
    text = ctx.parsed.source.text
    if any(t in text for t in _PREFIX_TEXTS) or "torch.load" not in text:
        return None
    saved = _saved_paths(ctx)
    for call in ctx.nodes(ast.Call):
        if not (isinstance(call.func, ast.Attribute) and call.func.attr == "load_state_dict" and call.args
                and isinstance(call.func.value, ast.Name)):
            continue
        strict = next((k.value for k in call.keywords if k.arg == "strict"), None)
        if not (isinstance(strict, ast.Constant) and strict.value is False):
            continue
        owner = call.func.value.id
        if owner in wrapped and not _rebound_plain(ctx, call, owner):
            continue
        if any(word in owner.lower() for word in ("optim", "sched", "ema")) or _caller_given(ctx, call):
            continue
        if saved & _loaded_paths(ctx, call):
            return call
    return None


def _strict_plain_load(other: FileContext, wrapped: Optional[set[str]] = None) -> Optional[ast.Call]:
    """``m.load_state_dict(...)`` without ``strict=False`` of something read with ``torch.load``, into a
    model that is not wrapped: in a script beside (``wrapped`` None) that never wraps a model nor handles
    the prefix, or in the training script itself on a name that is never wrapped (``wrapped``: the
    wrapper names and the names handed to a wrapper)."""
    text = other.parsed.source.text
    aware = _PREFIX_TEXTS if wrapped is not None else _PREFIX_AWARE
    if any(t in text for t in aware) or "torch.load" not in text:
        return None
    own = _saved_own_state(other)
    for call in other.nodes(ast.Call):
        if not (isinstance(call.func, ast.Attribute) and call.func.attr == "load_state_dict" and call.args):
            continue
        strict = next((k.value for k in call.keywords if k.arg == "strict"), None)
        if strict is not None and not (isinstance(strict, ast.Constant) and strict.value is True):
            continue
        owner = ast.unparse(call.func.value)
        if any(word in owner.lower() for word in ("optim", "sched", "ema")):
            continue  # an optimizer, a scheduler, an EMA helper: its state is not the network's keys
        if _caller_given(other, call):
            continue
        rebound = wrapped is not None and owner in wrapped and _rebound_plain(other, call, owner)
        if wrapped is not None and not (isinstance(call.func.value, ast.Name) and (owner not in wrapped or rebound)):
            continue
        if owner in own and not rebound:
            continue  # the script saves this object's own state: it loads its own checkpoint back
        return call
    return None


def _caller_given(ctx: FileContext, load: ast.Call) -> bool:
    """The loaded model is a parameter of the function that loads it (``def load_checkpoint(encoder,
    ...)``): the caller may hand in the wrapper itself (I-JEPA's training script does)."""
    fn = ctx.enclosing_function(load)
    owner = load.func.value  # type: ignore[attr-defined]
    return isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and isinstance(owner, ast.Name) and owner.id in {
        a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]}


def _saved_own_state(ctx: FileContext) -> set[str]:
    """The objects whose own ``X.state_dict()`` the file hands to ``torch.save`` (a script that saves
    and reloads ``model``, or a ``stream``/``ema`` saved beside the wrapper)."""
    out: set[str] = set()
    for call in ctx.nodes(ast.Call):
        if qualify(ctx, call.func) != "torch.save" or not call.args:
            continue
        for node in ast.walk(call.args[0]):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "state_dict":
                out.add(ast.unparse(node.func.value))
    return out


@register
class WrapperStateDictLoadedUnwrapped(Rule):
    code = "PF294"
    name = "wrapper-state-dict-loaded-unwrapped"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("the state_dict of an nn.DataParallel/DDP wrapper (keys prefixed `module.`) is saved, and a "
               "script beside it loads it strictly into the plain model")
    needs_text = ("DataParallel", "DDP")
    explanation = """
## What it finds

A training script that binds a model wrapped in `nn.DataParallel(...)` or
`DistributedDataParallel(...)`/`DDP(...)` and saves `wrapper.state_dict()` with `torch.save`,
while another script in the same folder (an `eval.py`, a `test.py`) loads a `torch.load`
checkpoint with `model.load_state_dict(...)` (strict, the default) and neither wraps its model
nor handles the prefix (or the training script itself loads a `torch.load` checkpoint strictly
into a model name that is never wrapped, or one rebound to a plain network in the loading
function, such as an `evaluate()` that builds a fresh `model = Net()` while `train()` wraps its own `model`) (no `module.` string, no `[7:]`, no
`consume_prefix_in_state_dict_if_present`, no `removeprefix`).

The training script itself may also load a file it writes with `torch.save` (the same path
string) with `load_state_dict(..., strict=False)` into a plain model (a name never wrapped, or
one rebound to a plain network in the loading function, such as `evaluate()` building
`model = Net()` while `train()` wraps its own `model`): that case is reported too, and it is
the worse one, because nothing raises (det143).

## Why it matters

A wrapper registers the network as its submodule `module`, so every key of its
`state_dict()` starts with `module.` (`torch/nn/parallel/data_parallel.py`,
`distributed.py`). The plain network's keys have no prefix: a strict
`load_state_dict` raises `Missing key(s) ... Unexpected key(s) "module.fc.weight"` in the
evaluation script, after the whole training run
(menzelab/implicit-shape-reconstruction#2). With `strict=False` nothing raises: no key
matches, nothing is loaded and the model evaluates with its random initial weights (the
"use strict=False" dead end of https://deadends.dev/pytorch/state-dict-key-mismatch/torch2-linux,
and the "results different on each run with strict=False" question answered at
https://taourl.com/read-1959892.html). When the wrapper is conditional
(`if torch.cuda.device_count() > 1`), the checkpoint format even depends on the machine the
training ran on.

## How to fix it

Save the inner network: `torch.save(net.module.state_dict(), path)` (or
`(net.module if isinstance(net, nn.DataParallel) else net).state_dict()`), or strip the
prefix when loading (`torch.nn.modules.utils.consume_prefix_in_state_dict_if_present(sd,
"module.")`).

## When preflight stays silent

* The saved state is `net.module.state_dict()`, or of a name that is not a wrapper.
* A `strict=False` load of a file the script does not write (pretrained backbone weights), or
  into the wrapper itself (the same keys).
* No script beside it loads a checkpoint strictly: `strict=False`, or it wraps its own model
  in the same wrapper, or it handles the prefix.
* The training script itself mentions `module.` prefixes (it strips or adds them).
* The load is into a parameter of the function that loads (`def load_checkpoint(encoder,
  ...)`: the caller may pass the wrapper), or into an optimizer, scheduler or EMA helper.
"""
    bad_examples = examples("preflight.rules.code._pf294_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf294_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        names = wrapped_names(ctx)
        if not names:
            return
        got = _saved_wrapper_state(ctx, names)
        if got is None or "module." in ctx.parsed.source.text:
            return
        save, wrapper = got
        wrapped = set(names) | {a.id for assign in names.values() for a in wrapper_call(assign).args[:1]  # type: ignore[attr-defined]
                                if isinstance(a, ast.Name)}
        loose = _non_strict_plain_load(ctx, wrapped)
        if loose is not None:
            yield ctx.finding(
                self, save,
                f"`{wrapper}` is an `{ast.unparse(wrapper_call(names[wrapper]).func)}` wrapper (line "  # type: ignore[attr-defined]
                f"{names[wrapper].lineno}), so the saved `{wrapper}.state_dict()` has every key prefixed "
                f"`module.`; line {loose.lineno} loads that file into a plain model with "
                f"`{ast.unparse(loose.func)}(..., strict=False)`: no key matches, nothing is loaded and the model "
                f"keeps its random weights without an error. Save `{wrapper}.module.state_dict()` (or strip the "
                f"prefix when loading) and load strictly",
                evidence=[ctx.evidence(names[wrapper], "the model is wrapped here"),
                          ctx.evidence(loose, "loaded non-strictly here")])
            return
        here = [(ctx, "")] if _strict_plain_load(ctx, wrapped) is not None else []
        for other, display in [*here, *sibling_modules(ctx, "load_state_dict")]:
            load = _strict_plain_load(other, wrapped if other is ctx else None)
            if load is None:
                continue
            yield ctx.finding(
                self, save,
                f"`{wrapper}` is an `{ast.unparse(wrapper_call(names[wrapper]).func)}` wrapper (line "  # type: ignore[attr-defined]
                f"{names[wrapper].lineno}), so the saved `{wrapper}.state_dict()` has every key prefixed "
                f"`module.`; {f'`{display}:{load.lineno}`' if display else f'line {load.lineno}'} loads a checkpoint into a plain model with a strict "
                f"`{ast.unparse(load.func)}(...)`, which fails with missing and unexpected keys after training. "
                f"Save `{wrapper}.module.state_dict()` (or strip the prefix when loading)",
                evidence=[ctx.evidence(names[wrapper], "the model is wrapped here")])
            return
