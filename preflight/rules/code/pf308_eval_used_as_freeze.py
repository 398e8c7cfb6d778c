"""PF308 eval-used-as-freeze: a LightningModule switches a submodule to ``eval()`` in a training hook,
as if that froze it, while ``configure_optimizers`` hands the optimizer that submodule's parameters
and nothing in the file stops their gradients."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

# hooks that run while training (Lightning calls `model.train()` before each training epoch, so an
# eval() in __init__ or setup is undone: PF111/PF487's domain, not this rule's)
_TRAIN_HOOKS = frozenset({"on_train_epoch_start", "on_train_start", "on_fit_start", "on_train_batch_start",
                          "training_step", "on_epoch_start", "on_train_epoch_end"})
_OPTIMIZERS = frozenset({"Adam", "AdamW", "SGD", "Adafactor", "AdamW8bit", "Lion", "RMSprop", "Adagrad", "LAMB",
                         "Lamb", "RAdam", "NAdam", "Adamax", "FusedAdam", "DeepSpeedCPUAdam"})
# anything in the file that may stop the submodule's gradients another way
_STOPPERS = ("requires_grad", "no_grad", "inference_mode", "detach", "freeze", "Freeze", "set_grad_enabled")


def _self_path(node: ast.AST) -> Optional[tuple[str, ...]]:
    """``self.a.b`` -> ("a", "b"); None for anything else."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id == "self":
        return tuple(reversed(parts))
    return None


def _params_of(call: ast.Call) -> Optional[tuple[str, ...]]:
    """The module whose ``.parameters()`` the optimizer gets whole: ``self.parameters()`` -> (),
    ``self.net.parameters()`` -> ("net",)."""
    first = call.args[0] if call.args else kwarg(call, "params")
    if not (isinstance(first, ast.Call) and isinstance(first.func, ast.Attribute)
            and first.func.attr == "parameters" and not first.args):
        return None
    if isinstance(first.func.value, ast.Name) and first.func.value.id == "self":
        return ()
    return _self_path(first.func.value)


@register
class EvalUsedAsFreeze(Rule):
    code = "PF308"
    needs_text = ("configure_optimizers",)
    name = "eval-used-as-freeze"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("a submodule switched to `eval()` in a training hook as if frozen, while the optimizer gets its "
               "parameters: `eval()` does not stop gradients, the weights keep training")
    explanation = """
## What it finds

A LightningModule that calls `self.<submodule>.eval()` in a training hook
(`on_train_epoch_start`, `on_train_start`, `on_fit_start`, `on_train_batch_start`,
`training_step`), while `configure_optimizers` builds its optimizer on all the parameters of
a module that contains that submodule (`self.parameters()`, `self.model.parameters()` for
`self.model.backbone.eval()`), and nothing in the file stops the submodule's gradients
(`requires_grad`, `requires_grad_`, `no_grad`, `inference_mode`, `detach`, a freeze helper).

## Why it matters

`eval()` changes how dropout and batch normalization behave; it does not stop gradients.
The submodule's parameters still receive gradients through the loss, and the optimizer that
holds them updates them at every step: a pretrained backbone that the method means to keep
fixed is fine-tuned (3dvnet issue 11, "the backbone weights are still updating for each time
training_step() is called").

## How to fix it

```python
def __init__(self):
    ...
    self.model.backbone.requires_grad_(False)   # frozen weights

def on_train_epoch_start(self):
    self.model.backbone.eval()                  # frozen batch-norm statistics and no dropout

def configure_optimizers(self):
    return torch.optim.Adam(self.model.head.parameters(), lr=1e-3)
```

If the intent is only to freeze batch-norm statistics while fine-tuning the weights, the code
is right; say so by building the optimizer's parameter groups explicitly.

## When preflight stays silent

* The file stops gradients in any way (`requires_grad`, `no_grad`, `detach`, a `freeze` call),
  which may cover the submodule.
* The optimizer gets the submodule's own parameters or explicit groups or a filtered list.
* `eval()` is called on the whole module, in `__init__`/`setup`, or in evaluation hooks.
"""
    bad_examples = examples("preflight.rules.code._pf308_examples", "PF308_BAD")
    good_examples = examples("preflight.rules.code._pf308_examples", "PF308_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if not ctx.mentions("eval") or any(ctx.mentions(word) for word in _STOPPERS):
            return
        for cls in ctx.nodes(ast.ClassDef):
            evals: list[tuple[tuple[str, ...], ast.Call]] = []
            optimizers: list[tuple[tuple[str, ...], ast.Call]] = []
            for fn in cls.body:
                if not isinstance(fn, ast.FunctionDef):
                    continue
                for call in ast.walk(fn):
                    if not isinstance(call, ast.Call):
                        continue
                    if fn.name in _TRAIN_HOOKS and isinstance(call.func, ast.Attribute) \
                            and call.func.attr == "eval" and not call.args and not call.keywords:
                        path = _self_path(call.func.value)
                        if path:
                            evals.append((path, call))
                    elif fn.name == "configure_optimizers" and call_last(call) in _OPTIMIZERS:
                        owner = _params_of(call)
                        if owner is not None:
                            optimizers.append((owner, call))
            for path, call in evals:
                for owner, optimizer in optimizers:
                    if len(owner) < len(path) and path[:len(owner)] == owner:
                        dotted = "self." + ".".join(path)
                        yield ctx.finding(self, optimizer, (
                            f"the optimizer gets every parameter of `{'self.' + '.'.join(owner) if owner else 'self'}`"
                            f", which includes `{dotted}`, switched to `eval()` (line {call.lineno}) as if that "
                            "froze it: `eval()` only changes dropout and batch-norm behaviour, gradients still "
                            f"reach `{dotted}` and the optimizer updates its weights at every step. Freeze it with "
                            f"`{dotted}.requires_grad_(False)` and optimize only the other parameters (if only the "
                            "batch-norm statistics are meant to stay fixed, give the optimizer explicit groups)"),
                            evidence=[ctx.evidence(call, "switched to eval() here, its gradients still flow")])
                        break
