"""The attention kernel a project's own model runs, read from its classes (never imported).

A project model that calls PyTorch's fused attention is an SDPA model whatever ``attn_implementation``
says elsewhere (FoundationVision/LlamaGen @ ce98ec4 ``autoregressive/models/gpt.py:232``
``output = F.scaled_dot_product_attention(...)`` in ``Attention.forward``, reached from
``Transformer`` through ``TransformerBlock``); one that calls flash-attn's kernels directly is a
flash-attention model. Read over the model's module with the project classes it imports
(``module_params_imports.with_imports``):

- the classes and module functions the model reaches by name, transitively, from its class or
  constructor function;
- their attention calls: ``scaled_dot_product_attention`` -> ``sdpa``; ``flash_attn_func`` and the other
  ``flash_attn_*_func`` kernels -> ``flash_attention_2``;
- stated (medium) when every such call is of one kind (both arms of a training/inference ``if`` calling
  SDPA count once) and no reached function computes attention by hand (a ``softmax`` in a function that
  also multiplies matrices: the eager arm of a switch). A softmax over logits alone (sampling) is no
  attention. Calls of two kinds, or a hand-written arm, state nothing: which arm runs is not decided here.

Read for the model a counting adapter found (``model_imported``, ``model_by_name``), and for the one
project class a script imports, builds (``X(...)``, ``X.from_pretrained(...)``, ``X(...).train()``) and
trains (its ``parameters()`` handed to a call), counted or not (``ModelAttentionAdapter``).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional, Union

from preflight.adapters_api import Adapter, Project
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter

_SDPA = frozenset({"scaled_dot_product_attention"})
_FLASH = frozenset({"flash_attn_func", "flash_attn_varlen_func", "flash_attn_qkvpacked_func",
                    "flash_attn_kvpacked_func", "flash_attn_varlen_qkvpacked_func",
                    "flash_attn_varlen_kvpacked_func", "flash_attn_with_kvcache"})
_MATMUL = frozenset({"matmul", "bmm", "baddbmm", "einsum", "mm"})
_Def = Union[ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef]


def _last(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


def _manual(fn: ast.AST) -> bool:
    """A softmax and a matrix product in one function: attention computed by hand."""
    soft = mat = False
    for node in ast.walk(fn):
        if isinstance(node, ast.Call):
            name = _last(node.func)
            soft = soft or name in ("softmax", "Softmax")
            mat = mat or name in _MATMUL
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            mat = True
    return soft and mat


def attention_of(tree: ast.Module, name: str) -> Optional[tuple[str, str]]:
    """(``sdpa``/``flash_attention_2``, what was read) for the model ``name`` of ``tree``, or None."""
    defs: dict[str, _Def] = {}
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            defs[node.name] = node  # the module's own definitions come last in a merged tree and win
    reach: list[str] = []
    todo = [name]
    while todo:
        current = todo.pop()
        if current in reach or current not in defs:
            continue
        reach.append(current)
        todo.extend(n.id for n in ast.walk(defs[current]) if isinstance(n, ast.Name) and n.id in defs)
    kinds: dict[str, tuple[str, int]] = {}
    for current in reach:
        body = defs[current]
        functions: list[ast.AST] = [body] if not isinstance(body, ast.ClassDef) else \
            [n for n in ast.walk(body) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if any(_manual(fn) for fn in functions):
            return None
        for sub in ast.walk(body):
            if isinstance(sub, ast.Call):
                called = _last(sub.func)
                kind = "sdpa" if called in _SDPA else "flash_attention_2" if called in _FLASH else None
                if kind is not None:
                    kinds.setdefault(kind, (f"{called}() in {current}", sub.lineno))
    if len(kinds) != 1:
        return None
    kind, (where, _line) = next(iter(kinds.items()))
    return kind, f"{where}, reached from the model {name}: the only attention it computes"


def _trained(tree: ast.Module, var: str) -> bool:
    """``var.parameters()`` handed to a call (an optimizer) somewhere in the script."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "parameters" \
                        and isinstance(arg.func.value, ast.Name) and arg.func.value.id == var:
                    return True
    return False


def _built_class(value: ast.expr, names: dict) -> Optional[str]:
    """The project class at the root of ``X(...)``, ``X.from_pretrained(...)``, ``X(...).train()``."""
    node: ast.expr = value
    while isinstance(node, (ast.Call, ast.Attribute)):
        node = node.func if isinstance(node, ast.Call) else node.value
    if isinstance(node, ast.Name) and node.id in names and names[node.id][1]:
        return node.id
    return None


@register_adapter
class ModelAttentionAdapter(Adapter):
    """A project model class the script imports, builds and trains (its ``parameters()`` handed to an
    optimizer), counted or not: its attention kernel (policy-gradient/GRPO-Zero @ d41bb48 ``train.py:91``
    ``model = Transformer.from_pretrained(path, device=device).train()``, ``qwen2_model.py:139,148``
    SDPA in both the inference and the training arm)."""

    name = "model_attention"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any(isinstance(s.tree, ast.Module) and ".parameters()" in s.source.text for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        from preflight.adapters.model_imported import _parse, imported_classes
        from preflight.adapters.module_params_imports import with_imports

        found: list[tuple[Any, ast.Assign, str, Path, str]] = []
        for script in project.scripts:
            if not isinstance(script.tree, ast.Module) or ".parameters()" not in script.source.text:
                continue
            names = imported_classes(project, script)
            if not names:
                continue
            for node in ast.walk(script.tree):
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    local = _built_class(node.value, names)
                    if local is not None and _trained(script.tree, node.targets[0].id):
                        path, cls = names[local]
                        found.append((script, node, local, path, cls))
        if len({(f[3], f[4]) for f in found}) != 1:
            return  # no trained project model, or several
        script, node, local, path, cls = found[0]
        tree = _parse(path)
        if tree is None or not any(isinstance(n, ast.ClassDef) and n.name == cls and n.bases for n in tree.body):
            return
        from preflight.adapters.model_attention_eager import eager_of

        merged = with_imports(path, tree)
        attn = attention_of(merged, cls) or eager_of(merged, cls)
        if attn is not None:
            self.add_checked(plan, "model.attn_implementation", attn[0],
                             project.source(script, node, "code", detail=f"{local} ({path.name}): {attn[1]}"),
                             "medium")
