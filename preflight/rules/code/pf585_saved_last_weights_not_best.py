"""PF585 saved-last-weights-not-best: the in-memory model exported after ``fit`` although a
``ModelCheckpoint`` tracked the best epoch."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples
from preflight.rules.code._best_checkpoint import method_on, tracks_best

_BEST_WORDS = ("best_model_path", "load_from_checkpoint", "best_model_score", "ckpt_path", "best_k_models",
               "load_state_dict", "restore")


def _root(node: ast.AST) -> Optional[str]:
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _export(node: ast.AST, model: str) -> Optional[str]:
    """``torch.save(model[.net].state_dict(), path)`` / ``model[.net].save_pretrained(path)``
    -> the path's text; None when ``node`` exports something else."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return None
    if node.func.attr == "save_pretrained" and _root(node.func.value) == model:
        return ast.unparse(node.args[0]) if node.args else ""
    if ast.unparse(node.func) == "torch.save" and node.args:
        first = node.args[0]
        if isinstance(first, ast.Call) and isinstance(first.func, ast.Attribute) \
                and first.func.attr == "state_dict" and _root(first.func.value) == model:
            return ast.unparse(node.args[1]) if len(node.args) > 1 else ""
    return None


@register
class SavedLastWeightsNotBest(Rule):
    code = "PF585"
    name = "saved-last-weights-not-best"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = "After fit the script exports the in-memory (last-epoch) model although a ModelCheckpoint tracked the best one"
    frameworks = ("lightning",)
    needs_text = ("ModelCheckpoint",)
    explanation = """
## What it finds

In one function: a `ModelCheckpoint(monitor=...)` that keeps at least one checkpoint,
`trainer.fit(model, ...)`, and after it the model handed to `fit` exported from memory
(`torch.save(model.net.state_dict(), path)`, `model.save_pretrained(path)`), with nothing
in the function that reads the best checkpoint back (`best_model_path`,
`load_from_checkpoint`, `ckpt_path`, `load_state_dict`), where either an
`EarlyStopping` callback is built in the function or the export path says `best`.

## Why it matters

`fit` leaves the model with the weights of the last epoch that ran. The
`ModelCheckpoint` writes the best epoch by its monitored metric to
`best_model_path` but does not load it back. With early stopping the last weights
are `patience` epochs past the best; a file named `best_model` then holds the worst
model of the tail (pytorch_tempest issue 13, "Save best model weights instead of the
last": the fix loads `checkpoint_callback.best_model_path` before saving).

## How to fix it

`model = LitModel.load_from_checkpoint(checkpoint_callback.best_model_path)` before
exporting (or export from `trainer.checkpoint_callback.best_model_path`).

## When preflight stays silent

* The function reads the best checkpoint back in any way listed above, or exports
  something else than the model given to `fit`.
* No `EarlyStopping` in the function and no `best` in the export path: exporting the
  last weights next to the kept best checkpoints may be meant.
* The `ModelCheckpoint` has no `monitor` (it keeps the last epoch) or `save_top_k=0`.
"""
    bad_examples = examples("preflight.rules.code._pf585_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf585_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        done: set[ast.AST] = set()
        for ckpt in ctx.nodes(ast.Call):
            if call_last(ckpt) != "ModelCheckpoint" or not tracks_best(ckpt):
                continue
            fn = ctx.enclosing_function(ckpt)
            if fn is None or fn in done or getattr(fn, "name", "").startswith("test_"):
                continue
            done.add(fn)
            text = ast.unparse(fn)
            if any(word in text for word in _BEST_WORDS):
                continue
            early = any(isinstance(n, ast.Call) and call_last(n) == "EarlyStopping" for n in ast.walk(fn))
            fits = [n for n in ast.walk(fn) if isinstance(n, ast.Call) and method_on(n, "fit") is not None
                    and "trainer" in (method_on(n, "fit") or "").lower()]
            for fit in fits:
                model = fit.args[0] if fit.args else next((k.value for k in fit.keywords if k.arg == "model"), None)
                if not isinstance(model, ast.Name):
                    continue
                for node in ast.walk(fn):
                    if getattr(node, "lineno", 0) <= fit.lineno:
                        continue
                    path = _export(node, model.id)
                    if path is None or not (early or "best" in path.lower()):
                        continue
                    why = ("an `EarlyStopping` callback stops `patience` epochs past the best" if early
                           else f"the path `{path}` says best")
                    yield ctx.finding(
                        self, node,
                        f"`{model.id}` is exported after `{ast.unparse(fit.func)}(...)` with the weights of the last "
                        f"epoch, although `ModelCheckpoint(monitor=...)` tracked the best epoch ({why}): the exported "
                        f"model is not the best one. Load `checkpoint_callback.best_model_path` "
                        f"(`{model.id} = LitModel.load_from_checkpoint(...)`) before exporting",
                        evidence=[ctx.evidence(ckpt, "the best checkpoint is tracked here, never read back")])
                    return
