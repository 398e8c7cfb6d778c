"""PF532 train-loader-on-unsplit-dataset: a DataModule splits a dataset in ``setup`` but
``train_dataloader`` wraps the whole, unsplit dataset."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_SPLITTERS = frozenset({"random_split", "train_test_split"})
_LOADERS = frozenset({"DataLoader"})


def _datamodule(cls: ast.ClassDef) -> bool:
    return any(ast.unparse(b).rsplit(".", 1)[-1] == "LightningDataModule" for b in cls.bases)


def _self_attr(node: Optional[ast.AST]) -> Optional[str]:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def _splits(setup: ast.AST) -> dict[str, tuple[ast.Call, list[str]]]:
    """``self.<whole>`` split by ``random_split``/``train_test_split`` into ``self.<part>`` targets."""
    out: dict[str, tuple[ast.Call, list[str]]] = {}
    for node in ast.walk(setup):
        if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.Call):
            continue
        call = node.value
        func = ast.unparse(call.func).rsplit(".", 1)[-1]
        if func not in _SPLITTERS or not call.args:
            continue
        whole = _self_attr(call.args[0])
        parts = [a for t in node.targets for sub in ast.walk(t) for a in [_self_attr(sub)] if a is not None]
        if whole is not None and len(parts) >= 2 and whole not in parts:
            out.setdefault(whole, (call, parts))
    return out


@register
class TrainLoaderOnUnsplitDataset(PlanRule):
    code = "PF532"
    name = "train-loader-on-unsplit-dataset"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("A LightningDataModule splits `self.<data>` into train/val in `setup`, but `train_dataloader` "
               "wraps the whole `self.<data>`: the validation samples are trained on")
    explanation = """
## What it finds

A `LightningDataModule` whose `setup` splits `self.<whole>` into two or more attributes
(`self.train_set, self.val_set = random_split(self.<whole>, ...)`, or `train_test_split`),
while `train_dataloader` returns `DataLoader(self.<whole>, ...)`, the dataset before the
split, and does not bind `self.<whole>` anew.

## Why it matters

The training loader then iterates every sample, the validation split included: the
validation loss and any checkpoint or early stopping chosen on it are optimistic (the
model has seen those samples), and the split is ignored. Reported for AESTETIK's
DataModule ("train_dataloader wraps self.dataset (the full set), so validation samples
leak into training").

## How to fix it

`DataLoader(self.train_set, ...)` (the split's training part).

## When preflight stays silent

* `train_dataloader` builds its loader on a split part, or `setup` rebinds `self.<whole>`
  (e.g. `self.dataset = self.train_set`).
* The split is not of a `self.` attribute.
"""
    bad_examples = examples("preflight.rules.plan._pf532_examples", "PF532_BAD")
    good_examples = examples("preflight.rules.plan._pf532_examples", "PF532_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if "train_dataloader" not in (text or "") or not any(s in (text or "") for s in _SPLITTERS):
                continue
            for cls in ast.walk(script.tree):
                if not isinstance(cls, ast.ClassDef) or not _datamodule(cls):
                    continue
                methods = {f.name: f for f in cls.body if isinstance(f, ast.FunctionDef)}
                setup, train = methods.get("setup"), methods.get("train_dataloader")
                if setup is None or train is None:
                    continue
                splits = _splits(setup)
                # bound again after the split (in setup) or in another hook
                rebound = {a for m in methods.values() if m.name != "__init__" for n in ast.walk(m)
                           if isinstance(n, ast.Assign) for t in n.targets for sub in ast.walk(t)
                           for a in [_self_attr(sub)] if a is not None
                           and (m is not setup or (a in splits and n.lineno > splits[a][0].lineno))}
                for node in ast.walk(train):
                    if not isinstance(node, ast.Call) or ast.unparse(node.func).rsplit(".", 1)[-1] not in _LOADERS:
                        continue
                    first = node.args[0] if node.args else next(
                        (k.value for k in node.keywords if k.arg == "dataset"), None)
                    whole = _self_attr(first)
                    if whole is None or whole not in splits or whole in rebound:
                        continue
                    call, parts = splits[whole]
                    message = (f"`train_dataloader` wraps `self.{whole}`, the whole dataset, although `setup` "
                               f"splits it into {', '.join(f'`self.{p}`' for p in parts)} (line {call.lineno}): "
                               "every validation sample is trained on, so the validation metrics (and the "
                               f"checkpoints chosen on them) are optimistic. Use `self.{parts[0]}`")
                    evidence = [pctx.code_evidence(script, call, "the train/validation split")]
                    yield pctx.code_finding(self, script, node, message, evidence=evidence)
