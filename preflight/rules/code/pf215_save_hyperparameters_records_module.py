"""PF215 save-hyperparameters-records-module: ``self.save_hyperparameters()`` in a LightningModule
whose ``__init__`` receives an ``nn.Module``, without ``ignore=`` for it."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

# annotations that say "a module": nn.Module, torch.nn.Module, LightningModule, PreTrainedModel, ...
_MODULE_WORDS = ("Module", "PreTrainedModel", "PreTrainedModelBase")


def _module_annotation(arg: ast.arg) -> bool:
    if arg.annotation is None:
        return False
    for node in ast.walk(arg.annotation):
        name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
        if name.endswith(_MODULE_WORDS) and not name.endswith(("DataModule", "ModuleType", "ModuleDict")):
            return True
    return False


def _module_params(init: ast.FunctionDef) -> list[ast.arg]:
    """Parameters annotated as modules (a ``LightningDataModule`` is not one)."""
    args = [a for a in (*init.args.posonlyargs, *init.args.args, *init.args.kwonlyargs) if a.arg != "self"]
    return [a for a in args if _module_annotation(a)]


def _bare_save(init: ast.FunctionDef) -> Optional[ast.Call]:
    """``self.save_hyperparameters()`` with no names and no ``ignore=``."""
    for node in ast.walk(init):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "save_hyperparameters" and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "self" and not node.args and not node.keywords):
            return node
    return None


@register
class SaveHyperparametersRecordsModule(Rule):
    code = "PF215"
    needs_text = ("save_hyperparameters",)
    name = "save-hyperparameters-records-module"
    severity = Severity.WARNING
    category = Category.MEMORY
    frameworks = ("lightning",)
    summary = ("`self.save_hyperparameters()` in a LightningModule whose `__init__` receives an `nn.Module`: "
               "the module is deep-copied into the hyperparameters and written into every checkpoint")
    explanation = """
## What it finds

A `LightningModule.__init__` with a parameter annotated as a module (`encoder: nn.Module`,
`backbone: PreTrainedModel`, `model: LightningModule`) that calls `self.save_hyperparameters()`
with no arguments and no `ignore=`.

## Why it matters

With no arguments `save_hyperparameters` records **every** `__init__` argument. Lightning then
deep-copies the recorded values (`copy.deepcopy(obj._hparams)`, `utilities/parsing.py`
`save_hyperparameters`) and stores them with every checkpoint under `hyper_parameters`: a
pretrained encoder is copied once more in memory at start-up (minutes and gigabytes for a large
model), pickled into each checkpoint on top of its weights in the state dict (checkpoints twice
as large), and loading a checkpoint needs the module's class importable. Lightning itself only
warns ("Attribute 'encoder' is an instance of `nn.Module` and is already saved during
checkpointing. It is recommended to ignore them using `self.save_hyperparameters(ignore=['encoder'])`";
Lightning issue 11494).

## How to fix it

`self.save_hyperparameters(ignore=["encoder"])`, or list the plain hyperparameters to keep.

## When preflight stays silent

* `save_hyperparameters` is called with names, a dict, or `ignore=`.
* No parameter of `__init__` is annotated as a module (an unannotated one may be a config or a
  callable; preflight does not guess).
* The class is not a LightningModule.
"""
    bad_examples = examples("preflight.rules.code._pf215_examples", "PF215_BAD")
    good_examples = examples("preflight.rules.code._pf215_examples", "PF215_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for cls in scope_index(ctx).classes.values():
            if not cls.is_lightning:
                continue
            init = cls.methods.get("__init__")
            if init is None or not isinstance(init.node, ast.FunctionDef):
                continue
            save = _bare_save(init.node)
            if save is None:
                continue
            modules = _module_params(init.node)
            if not modules:
                continue
            names = ", ".join(f"`{a.arg}`" for a in modules)
            ignore = ", ".join(repr(a.arg) for a in modules)
            yield ctx.finding(
                self, save,
                f"`self.save_hyperparameters()` records every `__init__` argument, including {names} (an "
                "`nn.Module`): Lightning deep-copies it into `self.hparams` and writes it into every checkpoint "
                "on top of its weights in the state dict (a second copy in memory at start-up, checkpoints about "
                f"twice as large). Use `self.save_hyperparameters(ignore=[{ignore}])`",
                evidence=[ctx.evidence(modules[0], f"`{modules[0].arg}` is a module")])
