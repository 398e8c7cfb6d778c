"""A token loader class of the script itself that cuts (B, T) batches out of a token buffer, the
nanoGPT-family shape:

- karpathy/build-nanogpt @ 6104ab1 ``train_gpt2.py:214-244``: ``class DataLoaderLite`` with
  ``__init__(self, B, T, process_rank, num_processes, split)`` storing ``self.B = B``, and
  ``next_batch`` doing ``B, T = self.B, self.T`` then ``x = (buf[:-1]).view(B, T)``; built at
  ``:325-333`` as ``B = 64`` ... ``train_loader = DataLoaderLite(B=B, T=T, ...)``;
- karpathy/llm.c @ f1e2ace ``train_gpt2.py:329-372`` ``class DistributedDataLoader`` (the same
  ``view(B, T)``), built at ``:581,676`` as ``B, T = args.batch_size, args.sequence_length`` and
  ``DistributedDataLoader(args.input_bin, B, T, ddp_rank, ddp_world_size)``.

The argument bound to the parameter that becomes the first dimension of the ``view``/``reshape`` is
the per-process batch (``batch.micro``), for the loader not named for evaluation (``val``/``eval``/
``test`` in the name it is bound to) when the call runs and the value resolves to a positive int.
The parameter that becomes the second dimension is the sequence length (``data.seq_len``: build-nanogpt
``DataLoaderLite(B=B, T=T, ...)`` with ``T = 1024``), read the same way. ``medium``; nothing is imported or executed.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_EVAL = ("val", "eval", "test", "dev")


def _self_attr(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def _batch_param(cls: ast.ClassDef) -> Optional[tuple[str, int]]:
    """(parameter, position without self) of ``__init__`` that becomes the view's first dimension."""
    return _view_param(cls, 0)


def _view_param(cls: ast.ClassDef, dim: int) -> Optional[tuple[str, int]]:
    """(parameter, position without self) of ``__init__`` that becomes the view's dimension ``dim``."""
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if init is None:
        return None
    params = [a.arg for a in init.args.args[1:]]
    stored: dict[str, str] = {}  # self.attr -> param
    for node in ast.walk(init):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Name) \
                and node.value.id in params:
            attr = _self_attr(node.targets[0])
            if attr is not None:
                stored[attr] = node.value.id
    for method in cls.body:
        if not isinstance(method, ast.FunctionDef) or method.name == "__init__":
            continue
        local: dict[str, str] = {}  # local name -> self.attr (``B, T = self.B, self.T``; ``B = self.B``)
        for node in ast.walk(method):
            if not isinstance(node, ast.Assign) or len(node.targets) != 1:
                continue
            target, value = node.targets[0], node.value
            pairs = zip(target.elts, value.elts) if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) \
                else [(target, value)]
            for t, v in pairs:
                attr = _self_attr(v)
                if isinstance(t, ast.Name) and attr is not None:
                    local[t.id] = attr
        for node in ast.walk(method):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("view", "reshape") and len(node.args) == 2:
                first = node.args[dim]
                attr = _self_attr(first) or (local.get(first.id) if isinstance(first, ast.Name) else None)
                param = stored.get(attr or "")
                if param is not None:
                    return param, params.index(param)
    return None


def _unpacked(tree: ast.AST, name: str) -> Optional[ast.AST]:
    """The element bound to ``name`` by the script's one tuple assignment ``B, T = X, Y``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple) \
                and isinstance(node.value, ast.Tuple) and len(node.targets[0].elts) == len(node.value.elts):
            for t, v in zip(node.targets[0].elts, node.value.elts):
                if isinstance(t, ast.Name) and t.id == name:
                    found.append(v)
    return found[0] if len(found) == 1 else None


@register_adapter
class TokenLoaderAdapter(Adapter):
    name = "token_loader"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any(isinstance(n, ast.ClassDef) and _batch_param(n) is not None
                   for s in project.scripts if s.tree is not None and ".view(" in s.source.text for n in s.tree.body)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            for dim, field in ((0, "batch.micro"), (1, "data.seq_len")):
                self._one(project, plan, script, dim, field)

    def _one(self, project: Project, plan: TrainingPlan, script: Any, dim: int, field: str) -> None:
        """``field`` from the argument bound to the parameter that becomes the view's dimension ``dim``."""
        loaders = {}
        for node in script.tree.body:
            if isinstance(node, ast.ClassDef) and _batch_param(node) is not None:
                found = _view_param(node, dim)
                if found is not None:
                    loaders[node.name] = found
        if not loaders:
            return
        idx = project.index(script)
        values: list[tuple[Any, int, str, str]] = []
        for site in idx.calls:
            if site.name not in loaders or idx.runs(site) is False:
                continue
            if site.target and any(w in site.target.lower() for w in _EVAL):
                continue
            param, pos = loaders[site.name]
            expr = site.kwarg(param) or (site.call.args[pos] if len(site.call.args) > pos else None)
            got = idx.resolve(expr) if expr is not None else None
            if got is None and isinstance(expr, ast.Name):
                got = idx.resolve(_unpacked(script.tree, expr.id))
            if expr is None or got is None or not isinstance(got.value, int) or isinstance(got.value, bool) \
                    or got.value < 1:
                continue
            values.append((got.value, site.line, f"{site.name}({param}={ast.unparse(expr)})", param))
        if len({v[0] for v in values}) != 1:
            return
        value, line, how, param = values[0]
        detail = f"{how} = {value}: the loader cuts {param}-row batches of tokens (a view with {param} rows)" \
            if dim == 0 else f"{how} = {value}: the loader cuts rows of {param} tokens (a view with {param} columns)"
        self.add_checked(plan, field, value, Source("code", script.source.display, line, param, detail), "medium")
