"""PF260 optimizer-state-not-restored-on-resume: a resume that restores the weights and the step from a
``torch.load`` checkpoint but never loads a state into the stateful optimizer the file builds."""

from __future__ import annotations

import ast
from typing import Iterable, Optional, Union

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, qualify, stateful_optimizer, target_text
from preflight.rules.base import Rule, examples
from preflight.rules.code._pf260_weights_only import weights_only_resume

# torch.optim classes that keep per-parameter state (moments, square averages, accumulators)
_PROGRESS = ("epoch", "step", "iter")
# owners of a load_state_dict that restores no weights
_NOT_WEIGHTS = ("sched", "scaler", "sampler", "ema_state")


def _key(node: ast.AST) -> str:
    return node.value.lower() if isinstance(node, ast.Constant) and isinstance(node.value, str) else ""


def _read_key(node: ast.AST, names: set[str]) -> Optional[str]:
    """The literal key of ``ckpt["k"]`` / ``ckpt.get("k", ...)`` on a loaded checkpoint name."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in names:
        return _key(node.slice)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
            and isinstance(node.func.value, ast.Name) and node.func.value.id in names and node.args:
        return _key(node.args[0])
    return None


def _is_torch_load(ctx: FileContext, node: ast.AST) -> bool:
    """``torch.load(...)`` handed straight to ``load_state_dict`` (``model.load_state_dict(torch.load(p))``)."""
    return isinstance(node, ast.Call) and qualify(ctx, node.func) == "torch.load"


def _optimizer_loaded(ctx: FileContext, optimizers: dict[str, str]) -> bool:
    for call in ctx.nodes(ast.Call):
        if isinstance(call.func, ast.Attribute) and call.func.attr == "load_state_dict":
            owner = ast.unparse(call.func.value)
            if owner in optimizers or "optim" in owner.lower() or owner.lower().startswith("opt"):
                return True
    return False


def _strip_arith(node: ast.AST) -> ast.AST:
    while isinstance(node, ast.BinOp):
        node = node.left
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "int" and node.args:
        return node.args[0]
    return node


def _block(ctx: FileContext, node: ast.AST) -> Optional[ast.AST]:
    """The innermost ``if``, loop or function around ``node`` (a weights load in the same ``if args.resume:``
    block as the ``torch.load``, after it, loads what that checkpoint holds, however it is filtered)."""
    for anc in ctx.ancestors(node):
        if isinstance(anc, (ast.If, ast.For, ast.While, ast.With, ast.FunctionDef, ast.AsyncFunctionDef)):
            return anc
    return None


def _progress_from_path(assign: ast.Assign, paths: set[str]) -> bool:
    """``train_steps = int(os.path.basename(args.ckpt).split(".")[0])``: a step or epoch counter computed from
    the very path a checkpoint is loaded from (DiT/Latte name their checkpoints by the step)."""
    if len(assign.targets) != 1:
        return False
    target = target_text(assign.targets[0]) or ""
    if not any(w in target.lower() for w in _PROGRESS):
        return False
    value = ast.unparse(assign.value)
    return any(path in value for path in paths)


@register
class OptimizerStateNotRestoredOnResume(Rule):
    code = "PF260"
    name = "optimizer-state-not-restored-on-resume"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("a resume restores the weights and the step from a checkpoint, but the Adam-like optimizer "
               "restarts with empty moments")
    needs_text = ("load_state_dict",)
    explanation = """
## What it finds

A file that builds a `torch.optim` optimizer that keeps state (`Adam`, `AdamW`, `RMSprop`,
`Adagrad`, ..., `SGD` with a momentum) and resumes from a `torch.load` checkpoint: it loads
weights from it (`model.load_state_dict(ckpt["model"])`, or straight from a file:
`model.load_state_dict(torch.load(path))`) and restores the progress from it
(`start = ckpt["step"]`, `start_epoch = ckpt["epoch"] + 1`, or a resume helper's
`return state["step"]`), yet no optimizer ever gets a `load_state_dict`, and no optimizer
entry of the checkpoint is read. The checkpoint that saves the weights and the LR
scheduler but not the optimizer (OneVision-Encoder PR 65) is the common shape.

The weights-only checkpoint is the other: the script saves `torch.save(model.state_dict(),
path)` and, before its training loop, resumes with `model.load_state_dict(torch.load(path))`
from that same path (end-to-end-SLU issue 2: "it loads the previous state but starts at
epoch 1"). The finding is on the save.

## Why it matters

`Optimizer.state_dict()` holds each parameter's state (Adam's `exp_avg`, `exp_avg_sq` and
`step`); a freshly built optimizer has none. After the resume Adam restarts its bias
correction from step 1 with zero moments, so the first updates are close to
`lr * sign(grad)` for every weight: a kick that a fine-tuned or GAN run feels as a loss spike
at every resume (stylegan2-ada-pytorch issue 108: "the first training iteration will update
all weights with the same value, only differ in sign"). The step counter says the run
continues; the optimizer says it starts over. Public resume blocks with the optimizer's
`load_state_dict` commented out show the same shape.

## How to fix it

Save `opt.state_dict()` in the checkpoint next to the weights and call
`opt.load_state_dict(ckpt["opt"])` on resume (after the model is on its device), for every
optimizer.

## When preflight stays silent

* Any optimizer's `load_state_dict` is called, or the checkpoint's optimizer entry is read
  (`optimizer = ckpt["optimizer"]`, `if "optimizer" in ckpt`), or a helper is handed both the
  checkpoint and the optimizer (`restore(optimizer, ckpt)`).
* The checkpoint restores no step or epoch (weights loaded to fine-tune from: a fresh
  optimizer is intended), unless the weights come from the very file the script checkpoints
  its model to, loaded before the training loop.
* A weights-only file loaded after training (the best model reloaded for a test pass) or
  from another path than the one saved to (pretrained initial weights).
* The optimizer keeps no state (plain `SGD` without momentum).
"""
    bad_examples = examples("preflight.rules.code._pf260_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf260_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        optimizers: dict[str, str] = {}
        loaded: set[str] = set()
        paths: set[str] = set()  # the (non-literal) paths those checkpoints are loaded from
        load_blocks: list[tuple[Optional[ast.AST], int]] = []  # (the block of each such torch.load, its line)
        for call, qual in calls(ctx):
            parent = ctx.parent(call)
            if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1):
                continue
            text = target_text(parent.targets[0])
            if text is None:
                continue
            kind = stateful_optimizer(call, qual)
            if kind is not None:
                optimizers[text] = kind
            elif qual == "torch.load" and isinstance(parent.targets[0], ast.Name):
                loaded.add(text)
                load_blocks.append((_block(ctx, parent), parent.lineno))
                if call.args and not isinstance(call.args[0], ast.Constant):
                    paths.add(ast.unparse(call.args[0]))
        if optimizers and not _optimizer_loaded(ctx, optimizers):
            resumed = weights_only_resume(ctx)
            if resumed is not None:
                yield self._weights_only(ctx, optimizers, *resumed)
                return
        if not optimizers or not loaded:
            return
        weights: Optional[ast.Call] = None
        for call in ctx.nodes(ast.Call):
            if not (isinstance(call.func, ast.Attribute) and call.func.attr == "load_state_dict"):
                continue
            owner = ast.unparse(call.func.value)
            if owner in optimizers or "optim" in owner.lower() or owner.lower().startswith("opt"):
                return  # an optimizer gets its state back
            if weights is None and call.args and not any(w in owner.lower() for w in _NOT_WEIGHTS) \
                    and (_read_key(call.args[0], loaded) is not None or _is_torch_load(ctx, call.args[0])
                         or (isinstance(call.args[0], ast.Name) and call.args[0].id in loaded)
                         or (paths and any(block is not None and block is _block(ctx, call) and line < call.lineno
                                           for block, line in load_blocks))):
                weights = call
        if weights is None:
            return
        for node in ctx.nodes(ast.Subscript, ast.Call, ast.Compare):
            if isinstance(node, ast.Compare) and len(node.comparators) == 1 \
                    and isinstance(node.comparators[0], ast.Name) and node.comparators[0].id in loaded:
                key = _key(node.left)
            else:
                key = _read_key(node, loaded) or ""
            if "optim" in key or key.startswith("opt"):
                return  # the checkpoint's optimizer entry is read
        for call in ctx.nodes(ast.Call):
            handed = {ast.unparse(a) for a in [*call.args, *(k.value for k in call.keywords)]}
            if handed & loaded and handed & set(optimizers):
                return  # a helper is given the checkpoint and the optimizer
        progress: Optional[Union[ast.Assign, ast.Return]] = None
        for assign in ctx.nodes(ast.Assign, ast.Return):
            read = _read_key(_strip_arith(assign.value), loaded) if assign.value is not None else None
            if read and any(w in read for w in _PROGRESS):
                progress = assign
                break
            if isinstance(assign, ast.Assign) and paths and _progress_from_path(assign, paths):
                progress = assign  # the step parsed from the checkpoint's file name (``int(basename(p)[:-3])``)
                break
        if progress is None:
            return
        names = ", ".join(f"`{n}` ({k})" for n, k in optimizers.items())
        yield ctx.finding(
            self, progress,
            f"the resume restores the progress (`{ast.unparse(progress)}`) and the weights "
            f"(`{ast.unparse(weights)}`) from the checkpoint, but the optimizer{'s' if len(optimizers) > 1 else ''} "
            f"{names} never {'load' if len(optimizers) > 1 else 'loads'} a state: Adam-like optimizers restart with zero moments and step 1, so the first "
            "updates after every resume are sign-like kicks of size lr on every weight. Save `opt.state_dict()` "
            "in the checkpoint and call `opt.load_state_dict(...)` on resume")

    def _weights_only(self, ctx: FileContext, optimizers: dict[str, str], save: ast.Call, load: ast.Call,
                      loop: ast.AST) -> Finding:
        names = ", ".join(f"`{n}` ({k})" for n, k in optimizers.items())
        return ctx.finding(
            self, save,
            f"this checkpoint holds only the model's weights (`{ast.unparse(save.args[0])}`), and the script resumes "
            f"from the same file before training (line {load.lineno}: `{ast.unparse(load)}`): the optimizer "
            f"{names} restarts with an empty state (no moments, no momentum buffers) on every resume, and the "
            "checkpoint holds no epoch or step to continue from, so a resumed run does not continue the one that "
            "was interrupted. Save a dict with the optimizer's `state_dict()` and the epoch, and restore both on "
            "resume",
            evidence=[ctx.evidence(load, "the resume loads the weights alone from this file"),
                      ctx.evidence(loop, "the training loop that follows")])
