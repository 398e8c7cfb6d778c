"""Attention written out by hand in a project model: ``eager``.

karpathy/ng-video-lecture @ the benchmark's commit ``gpt.py:64-90``: ``Head.forward`` computes
``wei = q @ k.transpose(-2,-1) * ...``, ``wei = F.softmax(wei, dim=-1)``, ``out = wei @ v``, reached from
the trained ``GPTLanguageModel`` (defined in the script, ``gpt.py:199``) through ``Block`` and
``MultiHeadAttention``. No fused kernel runs: the attention matrix is materialised, PyTorch's eager
attention (``model.attn_implementation`` ``eager``, medium).

Read over the classes and functions the model reaches by name (as :func:`.model_attention.attention_of`):
stated when a reached function computes attention by hand (a softmax and two matrix products in one
function: scores, then the weighted values; a softmax over one product, a contrastive loss or sampling,
is no attention) and nothing reached calls a fused or library attention (``scaled_dot_product_attention``,
flash-attn, xformers, ``nn.MultiheadAttention``, ``nn.Transformer*``, anything named ``*attention``
that is not the project's own definition). Nothing is imported or executed.
"""

from __future__ import annotations

import ast
from typing import Optional, Union

from preflight.adapters_api import Project, ScratchAdapter
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter

_MATMUL = frozenset({"matmul", "bmm", "baddbmm", "einsum", "mm"})
_LIBRARY = frozenset({"MultiheadAttention", "Transformer", "TransformerEncoder", "TransformerEncoderLayer",
                      "TransformerDecoder", "TransformerDecoderLayer"})
_Def = Union[ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef]


def _last(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


def by_hand(fn: ast.AST) -> bool:
    """A softmax and two matrix products in one function: scores, weights, weighted values."""
    soft = False
    products = 0
    for node in ast.walk(fn):
        if isinstance(node, ast.Call):
            name = _last(node.func)
            soft = soft or name in ("softmax", "Softmax")
            products += name in _MATMUL
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            products += 1
    return soft and products >= 2


def reached(tree: ast.Module, name: str) -> tuple[dict[str, _Def], list[str]]:
    """The module's top-level definitions and those ``name`` reaches by name, transitively."""
    defs: dict[str, _Def] = {}
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            defs[node.name] = node
    reach: list[str] = []
    todo = [name]
    while todo:
        current = todo.pop()
        if current in reach or current not in defs:
            continue
        reach.append(current)
        todo.extend(n.id for n in ast.walk(defs[current]) if isinstance(n, ast.Name) and n.id in defs)
    return defs, reach


def eager_of(tree: ast.Module, name: str) -> Optional[tuple[str, str]]:
    """(``eager``, what was read) for the model ``name`` of ``tree``, or None."""
    defs, reach = reached(tree, name)
    manual: Optional[str] = None
    for current in reach:
        body = defs[current]
        functions: list[ast.AST] = [body] if not isinstance(body, ast.ClassDef) else \
            [n for n in ast.walk(body) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        for fn in functions:
            if manual is None and by_hand(fn):
                manual = f"{current}.{getattr(fn, 'name', current)}" if isinstance(body, ast.ClassDef) else current
        for sub in ast.walk(body):
            if isinstance(sub, ast.Call):
                called = _last(sub.func)
                if called in _LIBRARY or (called.lower().endswith("attention") and called not in defs) \
                        or called.startswith("flash_attn") or called == "scaled_dot_product_attention":
                    return None
    if manual is None:
        return None
    return "eager", (f"{manual} computes attention by hand (softmax of a matrix product, times the values), "
                     f"reached from the model {name}; no fused attention kernel")


def _script_model(tree: ast.Module) -> Optional[tuple[ast.Assign, str]]:
    """The one class defined in the script that the script builds (``model = GPT(...)``) and trains
    (its ``parameters()`` handed to a call), with the assignment; None when none or several."""
    from preflight.adapters.model_attention import _trained

    classes = {n.name for n in tree.body if isinstance(n, ast.ClassDef) and n.bases}
    found: list[tuple[ast.Assign, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value: ast.expr = node.value
            while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
                value = value.func.value  # GPT(...).to(device)
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in classes \
                    and _trained(tree, node.targets[0].id):
                found.append((node, value.func.id))
    return found[0] if len({f[1] for f in found}) == 1 else None


@register_adapter
class ScriptModelAttentionAdapter(ScratchAdapter):
    """The attention of a model class defined in the script itself and trained there, when written by
    hand (``eager``); a fused kernel's call in such a class is read by ``module_params_nested``."""

    name = "model_attention_script"
    frameworks = ()

    def wants(self, project: Project) -> bool:
        return any(".parameters()" in s.source.text
                   and ("softmax" in s.source.text.lower() or "attention" in s.source.text)
                   for s in self.scripts(project))

    def work(self, project: Project, plan: TrainingPlan) -> None:
        found = []
        for script in self.scripts(project):
            got = _script_model(script.tree)
            if got is not None:
                found.append((script, *got))
        if len(found) != 1:
            return
        script, node, cls = found[0]
        attn = eager_of(script.tree, cls)  # (a fused kernel there is read by module_params_nested)
        if attn is not None:
            self.add_checked(plan, "model.attn_implementation", attn[0],
                             project.source(script, node, "code", detail=f"{cls} (defined in the script): {attn[1]}"),
                             "medium")
