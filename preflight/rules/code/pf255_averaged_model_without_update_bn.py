"""PF255 averaged-model-without-update-bn: an SWA/EMA ``AveragedModel`` of a network with BatchNorm is
evaluated or saved, but ``update_bn`` never recomputes its running statistics."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, has_unpacking, kwarg
from preflight.rules.base import Rule, examples

_AVERAGED = frozenset({"torch.optim.swa_utils.AveragedModel", "torch.optim.AveragedModel"})
# torchvision / timm constructors of networks that hold BatchNorm layers
_BN_NETS = re.compile(r"^(resnet|resnext|wide_resnet|densenet|mobilenet|efficientnet|vgg\d+_bn|regnet|inception|"
                      r"googlenet|shufflenet|mnasnet|preact_?resnet|wrn|seresnet|senet|dpn|hrnet)", re.I)
# methods of the averaged model that read its weights and statistics (its outputs, or what is saved)
_MOVES = frozenset({"to", "cuda", "cpu", "float", "half", "bfloat16", "train", "eval", "requires_grad_"})
_USES = frozenset({"eval", "state_dict", "forward", "module"})


def _bn_evidence(ctx: FileContext, model: ast.AST) -> Optional[str]:
    """Why the averaged network has BatchNorm: the file builds one, or the model comes from a
    constructor of a BatchNorm network (``resnet18(...)``)."""
    if ctx.mentions("BatchNorm"):
        return "the file builds BatchNorm layers"
    name = ast.unparse(model)
    for node in ctx.nodes(ast.Assign):
        if isinstance(node.value, ast.Call) and any(ast.unparse(t) == name for t in node.targets):
            func = node.value.func
            # ``resnet18(...).to(device)``, ``.cuda()``: the constructor under the moves
            while isinstance(func, ast.Attribute) and func.attr in _MOVES and isinstance(func.value, ast.Call):
                func = func.value.func
            last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if _BN_NETS.match(last):
                return f"`{name}` is built by `{last}(...)`, a network with BatchNorm layers"
    if isinstance(model, ast.Call):
        func = model.func
        last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if _BN_NETS.match(last):
            return f"`{last}(...)` is a network with BatchNorm layers"
    return None


def _first_use(ctx: FileContext, name: str, after: int) -> Optional[ast.AST]:
    """The first place after line ``after`` where the averaged model's outputs or weights are used:
    called, ``.eval()``, ``.state_dict()``, ``.module``, or handed to a call (not a BatchNorm helper)."""
    best: Optional[ast.AST] = None
    best_at = (0, 0)
    for node in ctx.nodes(ast.Name, ast.Attribute):
        if ast.unparse(node) != name or not isinstance(node.ctx, ast.Load) or node.lineno <= after:
            continue
        parent = ctx.parent(node)
        called = isinstance(parent, ast.Call) and parent.func is node
        use = called or (isinstance(parent, ast.Attribute) and parent.value is node and parent.attr in _USES)
        if not use and isinstance(parent, ast.Call) and node in parent.args:
            callee = ast.unparse(parent.func)
            use = "bn" not in callee.lower() and "batchnorm" not in callee.lower()
        if use and (best is None or (node.lineno, node.col_offset) < best_at):
            best = parent if isinstance(parent, (ast.Call, ast.Attribute)) else node
            best_at = (node.lineno, node.col_offset)
    return best


@register
class AveragedModelWithoutUpdateBn(Rule):
    code = "PF255"
    name = "averaged-model-without-update-bn"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("An SWA/EMA `AveragedModel` of a BatchNorm network is evaluated or saved without `update_bn`: "
               "its running statistics belong to none of the weights it averages")
    frameworks = ("pytorch",)
    needs_text = ("AveragedModel",)
    explanation = """
## What it finds

`torch.optim.swa_utils.AveragedModel(model)` (SWA, or EMA through `multi_avg_fn`) without
`use_buffers=True`, over a network with BatchNorm layers (the file builds `BatchNorm`, or
the model comes from a `resnet*`/`densenet*`/`efficientnet*`/`vgg*_bn`/... constructor),
whose averaged copy is then run, put in `eval()`, saved (`state_dict()`, `.module`) or
handed to a function, in a file that never calls `update_bn` (nor a `bn_update` helper).

## Why it matters

`AveragedModel` averages the parameters only (`use_buffers=False` by default): its
BatchNorm `running_mean`/`running_var` stay those of the deep copy made when it was
built. In eval mode the averaged weights are normalised with statistics that belong to
none of them, and the SWA model's accuracy collapses. The PyTorch SWA recipe ends with
`torch.optim.swa_utils.update_bn(train_loader, swa_model)` for this reason ("Update bn
statistics for the swa_model at the end", torch/optim/swa_utils.py docstring); reported
in mosaicml/composer issue 624 ("Update SWA batch norm statistics": without it SWA "leads
to very poor performance").

## How to fix it

After the last `update_parameters`, call
`torch.optim.swa_utils.update_bn(train_loader, swa_model, device=device)` before evaluating
or saving; or build the average with `AveragedModel(model, use_buffers=True)`.

## When preflight stays silent

* `update_bn`/`bn_update` is called anywhere in the file, or `use_buffers=` is given.
* Nothing shows the network has BatchNorm (a transformer with LayerNorm needs no update).
* The averaged model is only returned or stored (its caller may update the statistics).
"""
    bad_examples = examples("preflight.rules.code._pf255_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf255_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if ctx.mentions("update_bn") or ctx.mentions("bn_update"):
            return
        for call, qual in calls(ctx):
            if qual not in _AVERAGED or not call.args or has_unpacking(call) \
                    or kwarg(call, "use_buffers") is not None:
                continue
            parent = ctx.parent(call)
            if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1
                    and isinstance(parent.targets[0], (ast.Name, ast.Attribute))):
                continue
            name = ast.unparse(parent.targets[0])
            why = _bn_evidence(ctx, call.args[0])
            if why is None:
                continue
            use = _first_use(ctx, name, call.lineno)
            if use is None:
                continue
            yield ctx.finding(
                self, use,
                f"`{name}` (an `AveragedModel`, line {call.lineno}) is used here, but `update_bn` is never called: "
                f"{why}, and AveragedModel averages parameters only (use_buffers=False), so its BatchNorm "
                "running_mean/var are still those copied when it was built and belong to none of the averaged "
                f"weights; in eval mode its accuracy collapses. Call `torch.optim.swa_utils.update_bn(train_loader, "
                f"{name})` after the last `update_parameters`, or build it with `use_buffers=True`",
                evidence=[ctx.evidence(call, "AveragedModel built here")])
