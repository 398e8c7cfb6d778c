"""PF189 layer-built-inside-forward: a layer with weights (``nn.Linear``, ``nn.Conv2d``, ``nn.LSTM``, ...)
constructed inside a module's ``forward`` and used there without being registered: every call draws new random
weights that no optimizer ever sees, so that part of the network is never trained."""

from __future__ import annotations

import ast
from typing import Callable, Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

# torch.nn layers whose weights are randomly initialised (normalisation layers start at the identity)
_WEIGHTED = frozenset({
    "Linear", "Bilinear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d",
    "Embedding", "EmbeddingBag", "LSTM", "GRU", "RNN", "LSTMCell", "GRUCell", "RNNCell", "MultiheadAttention",
    "TransformerEncoderLayer", "TransformerDecoderLayer", "TransformerEncoder", "TransformerDecoder", "Transformer",
    "LazyLinear", "LazyConv1d", "LazyConv2d", "LazyConv3d",
})
_NOT_MODULES = ("Function",)  # torch.autograd.Function has a static forward
_REGISTERS = frozenset({"add_module", "register_module", "append", "extend", "update", "insert", "__setitem__"})


def _layer(call: ast.Call, qualify: Callable[[ast.AST], Optional[str]]) -> Optional[str]:
    qual = qualify(call.func) or ""
    if qual and not qual.startswith("torch."):
        return None  # flax.linen / haiku / a project's own ``nn`` package
    last = qual.rsplit(".", 1)[-1] if qual else ast.unparse(call.func).rsplit(".", 1)[-1]
    if last in _WEIGHTED and (qual == f"torch.nn.{last}" or qual == f"torch.nn.modules.{last}"
                              or ast.unparse(call.func) in (f"nn.{last}", f"torch.nn.{last}")):
        return last
    return None


def _is_module_class(cls: ast.ClassDef) -> bool:
    if not cls.bases:
        return False
    return not any(ast.unparse(b).rsplit(".", 1)[-1] in _NOT_MODULES for b in cls.bases)


def _parents(fn: ast.AST) -> dict[int, ast.AST]:
    out: dict[int, ast.AST] = {}
    for node in ast.walk(fn):
        for child in ast.iter_child_nodes(node):
            out[id(child)] = node
    return out


def _registered(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    """The constructed layer ends up on the module: assigned to ``self.x`` (a lazy build), or handed to
    ``add_module`` / ``register_module`` / a container's ``append``; False when it is called on the spot."""
    child: ast.AST = node
    cur = parents.get(id(node))
    while cur is not None:
        if isinstance(cur, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = cur.targets if isinstance(cur, ast.Assign) else [cur.target]
            return any(_on_self(t) for t in targets)
        if isinstance(cur, ast.Call):
            if cur.func is child and not isinstance(child, ast.Attribute):
                return False  # the layer is called right here: used, not kept
            if child is not cur.func and isinstance(cur.func, ast.Attribute) and cur.func.attr in _REGISTERS:
                return True
            if child is not cur.func and _setattr_on_self(cur):
                return True
        if isinstance(cur, (ast.stmt, ast.Lambda, ast.comprehension)):
            return False
        child, cur = cur, parents.get(id(cur))
    return False


def _past_chain(node: ast.AST, parents: dict[int, ast.AST]) -> Optional[ast.AST]:
    """The parent of ``nn.Linear(...).to(device).cuda()`` as a whole (the statement binding it)."""
    child, cur = node, parents.get(id(node))
    while (isinstance(cur, ast.Attribute) and cur.value is child) or (isinstance(cur, ast.Call) and cur.func is child):
        child, cur = cur, parents.get(id(cur))
    return cur


def _on_self(target: ast.AST) -> bool:
    return any(isinstance(n, ast.Name) and n.id == "self" for n in ast.walk(target))


def _setattr_on_self(call: ast.Call) -> bool:
    """``setattr(self, name, layer)``: the same as ``self.name = layer``."""
    return isinstance(call.func, ast.Name) and call.func.id == "setattr" and len(call.args) == 3 \
        and _on_self(call.args[0])


def _given_weights(node: ast.AST, name: str) -> bool:
    """``conv.weight = self.weight`` / ``conv.weight.data.copy_(...)`` / ``conv.load_state_dict(...)``: the
    local layer runs with the module's own (registered) weights, not random ones."""
    if isinstance(node, ast.Assign):
        return any(isinstance(t, ast.Attribute) and t.attr in ("weight", "bias", "data")
                   and ast.unparse(t).split(".", 1)[0] == name for t in node.targets)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        text = ast.unparse(node.func.value)
        return text.split(".", 1)[0] == name and (
            node.func.attr in ("load_state_dict", "copy_") or node.func.attr.startswith("register_parameter"))
    return False


def _local_registered(fn: ast.AST, name: str) -> bool:
    """A local bound to the layer is then stored on ``self`` or registered, or given the module's weights."""
    for node in ast.walk(fn):
        if _given_weights(node, name):
            return True
        if isinstance(node, ast.Call) and _setattr_on_self(node) \
                and any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node.args[2])):
            return True
        if isinstance(node, ast.Assign) and any(_on_self(t) for t in node.targets) \
                and any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node.value)):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _REGISTERS \
                and any(isinstance(n, ast.Name) and n.id == name for a in node.args for n in ast.walk(a)):
            return True
        if isinstance(node, ast.Return) and node.value is not None \
                and isinstance(node.value, ast.Name) and node.value.id == name:
            return True
    return False


@register
class LayerBuiltInsideForward(Rule):
    code = "PF189"
    name = "layer-built-inside-forward"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("A layer with weights (`nn.Linear`, `nn.Conv2d`, ...) is built inside `forward`: it is not a "
               "registered submodule, every call draws new random weights and the optimizer never trains them")
    needs_text = ("forward",)
    explanation = """
## What it finds

In the `forward` method of a class with a base class (an `nn.Module`, not an autograd
`Function`), a `torch.nn` layer that has randomly initialised weights (`Linear`, `Bilinear`,
`Conv*d`, `ConvTranspose*d`, `Embedding`, `LSTM`/`GRU`/`RNN` and their cells,
`MultiheadAttention`, the `Transformer*` layers) constructed and used there: called at once
(`nn.Linear(d, h)(x)`), or bound to a local name that is never stored on the module.

## Why it matters

Only modules assigned as attributes in `__init__` (or registered with `add_module`) become
submodules. A layer built inside `forward` is a new object on every call: its weights are drawn
at random each time, `model.parameters()` does not contain them, so the optimizer built before
training has nothing to update for that part of the network (an empty parameter list is refused
outright), the checkpoint does not hold them, and `model.to(device)` does not move them
(pytorch issue 1291; graykode/nlp-tutorial issue 29, a `nn.Linear` built in the Transformer's
attention `forward`). The loss may still fall a little through the layers that are registered,
so nothing fails.

## How to fix it

Create the layer in `__init__` (`self.fc = nn.Linear(d, h)`) and call `self.fc(x)` in
`forward`; for a size only known at the first call, use `nn.LazyLinear` in `__init__`.

## When preflight stays silent

* The layer is assigned to an attribute of `self` (a lazy build guarded by `if self.fc is
  None:`, or `setattr(self, name, layer)`), registered with `add_module` / appended to a
  `ModuleList`, or returned.
* The local layer is given the module's own weights before use (`conv.weight = self.weight`,
  `conv.load_state_dict(...)`, `conv.weight.data.copy_(...)`).
* Layers without weights (`nn.ReLU()`, `nn.Dropout(p)`, `nn.MaxPool2d`), normalisation layers
  (their affine starts at the identity), and `torch.nn.functional` calls.
* The class has no base class, or it is an autograd `Function`.
"""
    bad_examples = examples("preflight.rules.code._pf189_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf189_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        qualify = scope_index(ctx).imports.qualify
        for cls in ctx.nodes(ast.ClassDef):
            if not _is_module_class(cls):
                continue
            forward = next((f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "forward"), None)
            if forward is None:
                continue
            parents = _parents(forward)
            calls = sorted((n for n in ast.walk(forward) if isinstance(n, ast.Call)),
                           key=lambda n: (n.lineno, n.col_offset))
            for node in calls:
                layer = _layer(node, qualify)
                if layer is None or _registered(node, parents):
                    continue
                parent = _past_chain(node, parents)
                if isinstance(parent, ast.Assign) and len(parent.targets) == 1 \
                        and isinstance(parent.targets[0], ast.Name) \
                        and _local_registered(forward, parent.targets[0].id):
                    continue
                yield ctx.finding(
                    self, node,
                    f"`{ast.unparse(node)}` is built inside `{cls.name}.forward`: it is not a registered submodule, "
                    "so every call draws new random weights that `model.parameters()`, the optimizer and the "
                    "checkpoint never see: this layer is never trained; create it in `__init__` "
                    f"(`self.{layer.lower()} = nn.{layer}(...)`) and call it in `forward`")
                break
