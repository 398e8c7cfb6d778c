"""A model whose own linear layers multiply by a view of the weight: ``model.weight_views`` (est75).

A project that writes its linear layers by hand as ``x @ weight.T`` (``torch.matmul(x, weight.t())``,
``weight.transpose(...)``) hands autocast the transpose, a view. torch's ``cached_cast``
(``aten/src/ATen/autocast_mode.cpp``) caches a cast only for a leaf that is not a view, so a forward
without backward under autocast keeps no 16-bit copies of such weights (``preflight/estimate/autocast_cache.py``;
measured by ``calibration/autocast_view_cache.py``). The Stanford CS336 students' assignment-1 functions are the
pattern: TobinZuo/assignment1-basics 6212e1d ``tests/adapters.py:39`` ``return in_features @ weights.T``.

Read (parsed, never run): the job's scripts and the local modules they import. True (medium) where that code
multiplies by ``<name>.T`` / ``.mT`` / ``.t()`` / ``.transpose(...)`` of a name whose last part contains
``weight`` (``self.weight``, ``w1_weight``), and builds no ``nn.Linear`` and calls no ``F.linear`` (a model
that mixes both holds the casts of its ``nn.Linear`` weights: nothing is claimed) and loads no transformers
model (``from_pretrained``: its ``nn.Linear`` layers). ``q @ k.transpose(-2, -1)`` (no weight) is not read.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Optional

from preflight.adapters_api import Adapter, Project
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_CACHE = "weight_views.found"
_LINEAR = ("torch.nn.Linear", "torch.nn.LazyLinear", "torch.nn.modules.linear.Linear",
           "torch.nn.functional.linear")
_VIEW_ATTRS = ("T", "mT", "H", "mH")
_VIEW_CALLS = ("t", "transpose", "permute")


def _aliases(tree: ast.AST) -> dict[str, str]:
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                out[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else \
                    alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                out[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return out


def _weight_view(node: ast.AST) -> bool:
    """``<...weight...>.T`` or ``<...weight...>.t()`` / ``.transpose(...)`` / ``.permute(...)``."""
    from preflight.analysis.syntax import dotted_name

    base: Optional[ast.AST] = None
    if isinstance(node, ast.Attribute) and node.attr in _VIEW_ATTRS:
        base = node.value
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _VIEW_CALLS:
        base = node.func.value
    name = dotted_name(base) if isinstance(base, (ast.Attribute, ast.Name)) else None
    return bool(name) and "weight" in str(name).rsplit(".", 1)[-1].lower()


def _read(tree: ast.AST) -> tuple[Optional[ast.AST], bool]:
    """(the first matmul by a weight's view, whether the code builds ``nn.Linear`` / calls ``F.linear``)."""
    from preflight.analysis.syntax import dotted_name

    aliases = _aliases(tree)
    first: Optional[ast.AST] = None
    linear = False
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult) and _weight_view(node.right):
            if first is None or node.lineno < getattr(first, "lineno", 0):
                first = node
        elif isinstance(node, ast.Call):
            name = dotted_name(node.func) or ""
            head, _, rest = name.partition(".")
            base = aliases.get(head)
            qualified = f"{base}.{rest}" if base and rest else base or name
            if qualified in _LINEAR:
                linear = True
            elif qualified == "torch.matmul" and len(node.args) == 2 and _weight_view(node.args[1]) and \
                    (first is None or node.lineno < getattr(first, "lineno", 0)):
                first = node
    return first, linear


def _find(project: Project) -> Optional[Source]:
    from preflight.local_trees import script_and_imported_trees, shown_path

    first: Optional[Source] = None
    root = Path(str(project.root)) if project.root else None
    for script in project.scripts:
        if script.tree is None:
            continue
        idx = project.index(script)
        if any(str(site.qualified or "").startswith("transformers.")
               and str(site.qualified).endswith("from_pretrained") for site in idx.calls):
            return None  # a transformers model: nn.Linear layers, whose weights are cached
        trees = script_and_imported_trees(project, script, idx)
        for tree, path in trees:
            node, linear = _read(tree)
            if linear:
                return None
            if node is None or first is not None:
                continue
            detail = "a linear layer multiplies by a view of its weight: autocast caches no cast of it"
            if path is None:
                first = project.source(script, node, "code", detail=detail)
            else:
                first = Source("code", shown_path(path, root), getattr(node, "lineno", None), None, detail)
    return first


@register_adapter
class WeightViewsAdapter(Adapter):
    name = "weight_views"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        """The reading is done here, so that an adapter that writes nothing is not named among those detected."""
        found = _find(project)
        project.cache[_CACHE] = found
        return found is not None

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        found = project.cache.pop(_CACHE, None)
        if found is not None:
            self.add_checked(plan, "model.weight_views", True, found, "medium", 0)
