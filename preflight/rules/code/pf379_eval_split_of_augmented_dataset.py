"""PF379 eval-split-of-augmented-dataset: ``train_set, val_set = random_split(ds, ...)`` where ``ds``
was built with a random-augmentation transform, so the validation split is augmented too."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

_SPLITS = frozenset({"torch.utils.data.random_split", "torch.utils.data.dataset.random_split"})
# torchvision transforms that draw a random change per call (Random* are matched by prefix)
_RANDOM = frozenset({"ColorJitter", "AutoAugment", "RandAugment", "TrivialAugmentWide", "AugMix"})
_EVAL = {"val", "valid", "validation", "dev", "test", "holdout", "eval"}
_SUFFIX = re.compile(r"(dataset|data|set|subset|split|ds)$")
_TRANSFORM_KW = frozenset({"transform", "transforms"})


def _statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of one scope in source order, through if/with/try blocks (not functions or loops)."""
    out: list[ast.stmt] = []
    for stmt in body:
        out.append(stmt)
        if isinstance(stmt, ast.If):
            out += _statements(stmt.body) + _statements(stmt.orelse)
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            out += _statements(stmt.body)
        elif isinstance(stmt, ast.Try):
            out += _statements(stmt.body) + _statements(stmt.orelse) + _statements(stmt.finalbody)
    return out


def _eval_name(name: str) -> bool:
    return any(t in _EVAL or _SUFFIX.sub("", t) in _EVAL for t in re.split(r"_+", name.lower()) if t)


def _augmentations(node: ast.AST) -> list[str]:
    """The random torchvision transforms listed in a ``Compose([...])`` call (or the one transform)."""
    found: list[str] = []
    if not isinstance(node, ast.Call):
        return found
    parts = node.args[0].elts if call_last(node) == "Compose" and node.args and \
        isinstance(node.args[0], (ast.List, ast.Tuple)) else [node]
    for part in parts:
        if isinstance(part, ast.Call):
            last = call_last(part)
            if (last.startswith("Random") and last not in ("RandomApply", "RandomChoice", "RandomOrder")) \
                    or last in _RANDOM:
                found.append(last)
    return found


def _kw(call: ast.Call, names: frozenset[str]) -> Optional[ast.expr]:
    return next((kw.value for kw in call.keywords if kw.arg in names), None)


@register
class EvalSplitOfAugmentedDataset(Rule):
    code = "PF379"
    name = "eval-split-of-augmented-dataset"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "lightning", "accelerate", "fabric")
    needs_text = ("random_split", "Subset", "sampler")
    summary = ("The validation split is carved (`random_split`, `Subset`, a sampler) from a dataset built with a random-augmentation "
               "transform: validation images are augmented too")
    explanation = """
## What it finds

A dataset built with a torchvision transform that augments at random
(`transforms.Compose([transforms.RandomHorizontalFlip(), transforms.RandomRotation(10), ...])`,
`ColorJitter`, `RandAugment`, ...), then split with `torch.utils.data.random_split`, where a split
other than the first is named for evaluation (`valid_set`, `val_subset`, `test_ds`):

    train_data = datasets.CIFAR10("data", train=True, transform=train_transform)
    train_set, valid_set = random_split(train_data, [n_train, n_valid])

or a `Subset(train_data, valid_idx)` / `DataLoader(train_data, sampler=SubsetRandomSampler(valid_idx))`
named for validation (the udacity CIFAR-10 notebook's samplers).

## Why it matters

`random_split` returns `Subset`s that index the *same* dataset object; every item of every split
goes through that object's `transform`. The validation split therefore gets the training
augmentation: each validation image is flipped/rotated/cropped at random, the validation loss is
noisy and biased, and the checkpoint chosen by it is picked on augmented data (udacity
deep-learning-v2-pytorch issue 132: "Augmentation of the validation dataset due to splitting").

## How to fix it

Build a second dataset over the same files with the deterministic test transform and take the
validation indices from it (`Subset(train_data, idx[:n])`, `Subset(plain_data, idx[n:])`), or wrap
the validation subset in a dataset that applies the test transform.

## When preflight stays silent

* The transform has no random torchvision transform (`ToTensor`, `Normalize`, `Resize`,
  `CenterCrop`), or preflight cannot see it (built elsewhere, a parameter).
* No split after the first is named for validation/test.
* The evaluation subset/loader reads a dataset built with another transform.
* The validation split's `.indices` are taken into a dataset other than the augmented one
  (`Subset(plain_data, val_part.indices)`: torchgeo PR 257's fix).
* The scope later assigns a `transform` attribute (PF633's territory: `val_set.dataset.transform =`),
  rebinds the validation split, or passes it to a call that also gets a transform.
"""
    bad_examples = examples("preflight.rules.code._pf379_examples", "BAD")
    good_examples = examples("preflight.rules.code._pf379_examples", "GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        imports = scope_index(ctx).imports
        module_aug = self._transforms(_statements(ctx.tree.body))
        bodies: list[list[ast.stmt]] = [ctx.tree.body]
        bodies += [fn.body for fn in ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef)]
        for body in bodies:
            yield from self._scope(ctx, imports, _statements(body), module_aug)

    @staticmethod
    def _transforms(stmts: list[ast.stmt]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for stmt in stmts:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                name = stmt.targets[0].id
                found = _augmentations(stmt.value)
                if found:
                    out[name] = found
                else:
                    out.pop(name, None)
        return out

    def _scope(self, ctx: FileContext, imports, stmts: list[ast.stmt],
               module_aug: dict[str, list[str]]) -> Iterable[Finding]:
        aug = {**module_aug, **self._transforms(stmts)}
        datasets: dict[str, tuple[str, list[str]]] = {}  # dataset name -> (transform text, augmentations)
        pending: list[tuple[str, ast.Call, str, str, list[str], int]] = []
        for index, stmt in enumerate(stmts):
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
                continue
            target, value = stmt.targets[0], stmt.value
            if isinstance(target, ast.Name) and isinstance(value, ast.Call):
                tf = _kw(value, _TRANSFORM_KW)
                found = aug.get(tf.id, []) if isinstance(tf, ast.Name) else _augmentations(tf) if tf else []
                if found and call_last(value) != "Compose":
                    datasets[target.id] = (ast.unparse(tf) if tf is not None else "", found)
                    continue
            if isinstance(target, ast.Name):
                datasets.pop(target.id, None)
                picked = self._picked(value, target.id, datasets)
                if picked is not None and isinstance(value, ast.Call):
                    tf_text, found = datasets[picked]
                    pending.append((target.id, value, picked, tf_text, found, index))
                continue
            if not (isinstance(value, ast.Call) and (imports.qualify(value.func) or "") in _SPLITS and value.args
                    and isinstance(value.args[0], ast.Name) and value.args[0].id in datasets
                    and isinstance(target, (ast.Tuple, ast.List)) and len(target.elts) >= 2):
                continue
            base = value.args[0].id
            names = [e.id for e in target.elts if isinstance(e, ast.Name)]
            evals = [n for n in names[1:] if _eval_name(n) and not n.lower().startswith("train")]
            if evals:
                tf_text, found = datasets[base]
                pending.append((evals[0], value, base, tf_text, found, index))
        for name, call, base, tf_text, found, index in pending:
            if self._handled(stmts[index + 1:], name, datasets):
                continue
            yield ctx.finding(
                self, call,
                f"`{name}` takes its items from `{base}`, which is built with `transform={tf_text}` "
                f"({', '.join(found)}): it reads that same dataset object and its transform, so every validation item is "
                "randomly augmented like the training data and the validation loss/metric (and the checkpoint it "
                "selects) is measured on augmented inputs. Take the validation indices from a second dataset "
                "built with the deterministic test transform")

    @staticmethod
    def _picked(value: ast.expr, name: str, datasets: dict[str, tuple[str, list[str]]]) -> Optional[str]:
        """``valid_set = Subset(aug_ds, idx)`` or ``valid_loader = DataLoader(aug_ds, sampler=valid_sampler)``:
        the augmented dataset an evaluation subset/loader reads."""
        if not isinstance(value, ast.Call) or name.lower().startswith("train"):
            return None
        last = call_last(value)
        source = value.args[0] if value.args else _kw(value, frozenset({"dataset"}))
        if not (isinstance(source, ast.Name) and source.id in datasets):
            return None
        if last == "Subset" and _eval_name(name):
            return source.id
        sampler = _kw(value, frozenset({"sampler"}))
        if last == "DataLoader" and sampler is not None and (
                _eval_name(name) or (isinstance(sampler, ast.Name) and _eval_name(sampler.id))):
            return source.id
        return None

    @staticmethod
    def _handled(later: list[ast.stmt], name: str, datasets: dict[str, tuple[str, list[str]]]) -> bool:
        """A later statement sets some transform, rebinds the split, wraps it with a transform, or takes only its
        indices into another dataset (``Subset(plain_ds, val_part.indices)``)."""
        for stmt in later:
            for node in ast.walk(stmt):
                if isinstance(node, ast.Call) and node.args and not (
                        isinstance(node.args[0], ast.Name) and node.args[0].id in datasets) and any(
                        isinstance(a, ast.Attribute) and a.attr == "indices" and isinstance(a.value, ast.Name)
                        and a.value.id == name for a in [*node.args[1:], *(kw.value for kw in node.keywords)]):
                    return True
                if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and \
                        node.attr in ("transform", "transforms", "dataset"):
                    return True
                if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store):
                    return True
                if isinstance(node, ast.Call) and any(isinstance(a, ast.Name) and a.id == name for a in node.args):
                    others = [*node.args, *(kw.value for kw in node.keywords)]
                    if any(kw.arg in _TRANSFORM_KW for kw in node.keywords) or any(
                            isinstance(o, ast.Name) and ("transform" in o.id.lower() or o.id.lower().endswith("tf"))
                            for o in others):
                        return True
        return False
