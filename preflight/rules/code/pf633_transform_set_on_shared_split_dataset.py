"""PF633 transform-set-on-shared-split-dataset: ``split.dataset.transform = ...`` on one split of a
``random_split``/``Subset`` whose other split reads the same dataset object."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_SPLITS = frozenset({"torch.utils.data.random_split", "torch.utils.data.dataset.random_split"})
_SUBSETS = frozenset({"torch.utils.data.Subset", "torch.utils.data.dataset.Subset"})
_TRANSFORM_ATTRS = frozenset({"transform", "transforms", "target_transform", "augment", "augmentation"})


def _statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of one scope in source order, descending into if/with/try blocks (not into
    functions, classes or loops)."""
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


def _base_key(node: ast.AST) -> Optional[str]:
    return ast.unparse(node) if isinstance(node, (ast.Name, ast.Attribute)) else None


@register
class TransformSetOnSharedSplitDataset(Rule):
    code = "PF633"
    needs_text = ("random_split", "Subset")
    name = "transform-set-on-shared-split-dataset"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "lightning", "accelerate", "fabric")
    summary = ("`val_set.dataset.transform = ...` on a `random_split`/`Subset` split: the dataset object is "
               "shared with the other split, whose transform changes too; or `val_set.transform = ...` on the "
               "Subset itself, an attribute nothing reads")
    explanation = """
## What it finds

Two splits made from one dataset object (`train_set, val_set = random_split(full, ...)`, or
`Subset(full, train_idx)` and `Subset(full, val_idx)`), and then an assignment to the
`transform` (`transforms`, `target_transform`) of one split's `.dataset`:
`val_set.dataset.transform = test_tf`.

Or the transform assigned to the split itself, `val_set.transform = test_tf` (torchgeo PR 257:
`self.val_dataset.transforms = test_transforms` after `random_split`).

## Why it matters

A `Subset` holds a reference to the dataset and a list of indices; `random_split` returns
Subsets that all reference the same object. `val_set.dataset` *is* `train_set.dataset`,
so the assignment changes the transform of every split: the training set loses its
augmentation (or gets the evaluation preprocessing), silently (gromo PR 58: "the
augmentation was not applied to the training set"; "Definitely a well hidden one").

A `Subset` has no transform of its own: it stores `dataset` and `indices`, and
`subset[i]` returns `dataset[indices[i]]`. `val_set.transform = test_tf` just creates a new
attribute on the Subset that nothing reads; validation items still go through the dataset's
training augmentation, so the validation metric (and the checkpoint chosen by it) is measured on
randomly augmented inputs.

## How to fix it

Build one dataset object per split (two `CIFAR10(...)` with their own transforms, each
wrapped in a `Subset` of the split's indices), or wrap the split in a small dataset that
applies its own transform in `__getitem__`.

## When preflight stays silent

* The split's `.dataset` is replaced by its own object first (`val_set.dataset =
  copy.deepcopy(full)`), so the assignment reaches only that split.
* The splits come from different dataset objects.
* The attribute set is not a transform.
* `split.transform = ...` where the split name was rebound first (`val_set = Wrapped(val_set)`), or
  where the split is later handed to a call other than a DataLoader (a project wrapper that may
  read the attribute).
* Reported once per dataset: when each split's transform is set in turn
  (`train_set.dataset.transform = aug` then `val_set.dataset.transform = plain`), at the
  last assignment, the one every split ends up with.
"""
    bad_examples = examples("preflight.rules.code._pf633_examples", "PF633_BAD")
    good_examples = examples("preflight.rules.code._pf633_examples", "PF633_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        imports = scope_index(ctx).imports
        bodies: list[list[ast.stmt]] = [ctx.tree.body]
        bodies += [fn.body for fn in ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef)]
        for body in bodies:
            yield from self._scope(ctx, imports, _statements(body))

    def _scope(self, ctx: FileContext, imports, stmts: list[ast.stmt]) -> Iterable[Finding]:
        # split key (``val_set`` or ``self.val_set``) -> (the dataset it reads, the call that made it)
        splits: dict[str, tuple[str, ast.Call]] = {}
        last: dict[tuple[str, str], Finding] = {}  # one finding per dataset/split and attribute: the last assignment wins
        for index, stmt in enumerate(stmts):
            if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call):
                qual = imports.qualify(stmt.value.func) or ""
                call = stmt.value
                base = _base_key(call.args[0]) if call.args else None
                if qual in _SPLITS and base is not None:
                    target = stmt.targets[0]
                    if isinstance(target, (ast.Tuple, ast.List)) and len(target.elts) >= 2:
                        for elt in target.elts:
                            key = _base_key(elt)
                            if key is not None:
                                splits[key] = (base, call)
                    continue
                key = _base_key(stmt.targets[0])
                if qual in _SUBSETS and base is not None and key is not None:
                    splits[key] = (base, call)
                    continue
            if not isinstance(stmt, ast.Assign):
                continue
            for target in stmt.targets:
                for elt in (target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]):
                    key = _base_key(elt)
                    if key in splits:  # the split name is rebound to something else (a wrapper dataset)
                        splits.pop(key, None)
                # ``split.dataset = own_copy``: that split no longer shares the object
                if isinstance(target, ast.Attribute) and target.attr == "dataset" and isinstance(target.value, ast.Name):
                    splits.pop(target.value.id, None)
                    continue
                owner = _base_key(target.value) if isinstance(target, ast.Attribute) else None
                if isinstance(target, ast.Attribute) and target.attr in _TRANSFORM_ATTRS and owner in splits \
                        and not _wrapped_later(stmts[index + 1:], owner):
                    # ``val_set.transform = ...`` on the Subset itself: an attribute nothing reads
                    base, made = splits[owner]
                    last[(owner, target.attr)] = ctx.finding(
                        self, stmt,
                        f"`{owner}` is a `Subset` of `{base}` (made here by `{call_name(made)}`): a Subset only holds "
                        f"`.dataset` and `.indices` and its `__getitem__` returns `{base}[i]`, so assigning "
                        f"`{ast.unparse(target)}` creates an attribute nothing reads: `{owner}`'s items still go "
                        f"through `{base}`'s own `{target.attr}` (the training augmentation, for a validation split). "
                        "Build the split from its own dataset object with this transform, e.g. "
                        f"`Subset(Dataset(..., {target.attr}=...), {owner}.indices)`",
                        evidence=[ctx.evidence(made, f"`{owner}` is made here from `{base}`")])
                    continue
                if not (isinstance(target, ast.Attribute) and target.attr in _TRANSFORM_ATTRS
                        and isinstance(target.value, ast.Attribute) and target.value.attr == "dataset"
                        and isinstance(target.value.value, ast.Name) and target.value.value.id in splits):
                    continue
                name = target.value.value.id
                base, made = splits[name]
                others = sorted(n for n, (b, _) in splits.items() if b == base and n != name)
                if not others:
                    continue
                last[(base, target.attr)] = ctx.finding(
                    self, stmt,
                    f"`{name}.dataset` is the same `{base}` object as `{others[0]}.dataset` (both are Subsets of "
                    f"it): assigning `{ast.unparse(target)}` changes the `{target.attr}` of every split, so "
                    f"`{others[0]}` is no longer loaded with its own `{target.attr}` (a training split loses its "
                    "augmentation). Build one dataset object per split, each with its own transform",
                    evidence=[ctx.evidence(made, f"`{name}` is made here from `{base}`")])
        yield from last.values()


def _wrapped_later(later: list[ast.stmt], key: str) -> bool:
    """The split is later handed to a call other than a DataLoader (a wrapper dataset of the project's, which may
    read the attribute just set): preflight cannot see what that call does with it."""
    for stmt in later:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Call) and "loader" not in ast.unparse(node.func).lower() and any(
                    _base_key(arg) == key for arg in [*node.args, *(kw.value for kw in node.keywords)]):
                return True
    return False


def call_name(call: ast.Call) -> str:
    return ast.unparse(call.func)
