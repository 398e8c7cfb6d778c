"""Initialisation idioms the module counter (``module_params_nested``) reads as changing no parameter count,
kept apart from the interpreter: writes into a layer's weights (``self.x.bias.data = ...``, a weight replaced by
``nn.Parameter`` of new values), one module shared by every entry of a ``nn.ModuleList``, and a local dict of
plain values updated (facebookresearch/detr and fundamentalvision/Deformable-DETR ``models/deformable_detr.py``,
``models/ops/modules/ms_deform_attn.py``). Read, never run."""

from __future__ import annotations

import ast
from typing import Any, Optional, Sequence

from preflight.adapters.module_params import _Unknown
from preflight.adapters.module_params_values import _UNK, _builds, _holds_module, _Mod

from preflight.analysis.syntax import dotted_name


def _on_self(node: ast.AST) -> bool:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return isinstance(node, ast.Name) and node.id == "self"


def initialisation_write(frame: Any, targets: Sequence[ast.expr], value_node: ast.AST) -> bool:
    """True when ``targets = value_node`` only re-initialises parameters the frame already counts."""
    if len(targets) != 1 or not isinstance(targets[0], ast.Attribute):
        return False
    t0 = targets[0]
    held = frame.attrs.get(t0.attr) if isinstance(t0.value, ast.Name) and t0.value.id == "self" else None
    if isinstance(held, _Mod) and isinstance(value_node, ast.Call) \
            and (dotted_name(value_node.func) or "") in ("nn.ModuleList", "torch.nn.ModuleList") \
            and len(value_node.args) == 1 and isinstance(value_node.args[0], ast.ListComp) \
            and ast.unparse(value_node.args[0].elt) == ast.unparse(t0):
        # one module shared by every entry of a list (Deformable-DETR ``deformable_detr.py:105``
        # ``self.class_embed = nn.ModuleList([self.class_embed for _ in range(num_pred)])``): its parameters once
        return True
    if t0.attr == "data" and isinstance(t0.value, ast.Attribute) and t0.value.attr in ("weight", "bias") \
            and not _builds(value_node, frame.ctx) and _on_self(t0.value.value):
        # values written into a layer's weight (Deformable-DETR ``deformable_detr.py:88``
        # ``self.class_embed.bias.data = torch.ones(num_classes) * bias_value``): no parameter changes
        return True
    # a layer's own weight or bias replaced by new values (Deformable-DETR ``ms_deform_attn.py:70``
    # ``self.sampling_offsets.bias = nn.Parameter(grid_init.view(-1))``): the same parameter, re-initialised
    layer = t0.value
    return t0.attr in ("weight", "bias") and isinstance(layer, ast.Attribute) and isinstance(layer.value, ast.Name) \
        and layer.value.id == "self" and isinstance(frame.attrs.get(layer.attr), _Mod) \
        and frame.attrs[layer.attr].n > 0 and isinstance(value_node, ast.Call) \
        and (dotted_name(value_node.func) or "") in ("nn.Parameter", "torch.nn.Parameter", "Parameter")


def local_dict_update(frame: Any, value: ast.Call) -> bool:
    """``d.update(...)`` of a local dict of plain values (detr ``models/detr.py:343`` the loss weights): merged
    when the update is known, else the dict is not known (fine until a size reads it); True when handled."""
    func = value.func
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.attr == "update"):
        return False
    name = func.value.id
    held = frame.env.get(name, None)
    if not (isinstance(held, dict) or held is _UNK) or len(value.args) != 1 or value.keywords \
            or _builds(value, frame.ctx):
        return False
    try:
        more = frame.ev(value.args[0])
    except _Unknown:
        more = None
    merged = {**held, **more} if isinstance(more, dict) and isinstance(held, dict) \
        and not any(_holds_module(v) for v in more.values()) else _UNK
    frame.env[name] = merged
    if merged is _UNK and "__plain__" in frame.env:
        frame.env["__plain__"].add(name)  # surely no module: handed on as an unknown value
    return True


def string_sizes(frame: Any, node: ast.AST, name: Optional[str]) -> Optional[list]:
    """Sizes parsed from a known string: ``list(map(int, args.projector.split('-')))`` (facebookresearch/barlowtwins
    ``main.py:195``): ``map(int|float, seq)`` and ``text.split(sep)`` iterated; None for other nodes, the
    counter's unknown when the string or its words are not known."""
    if isinstance(node, ast.Call) and name == "map" and len(node.args) == 2 and not node.keywords \
            and isinstance(node.args[0], ast.Name) and node.args[0].id in ("int", "float"):
        items = frame.iterate(node.args[1])
        if not all(isinstance(i, (str, int, float)) and not isinstance(i, bool) for i in items):
            raise _Unknown("map")
        try:
            return [int(i) if node.args[0].id == "int" else float(i) for i in items]
        except ValueError:
            raise _Unknown("map") from None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "split" \
            and len(node.args) == 1 and not node.keywords:
        text, sep = frame.ev(node.func.value), frame.ev(node.args[0])
        if isinstance(text, str) and isinstance(sep, str) and sep:
            return list(text.split(sep))
        raise _Unknown("split")
    return None


def _attribute_name(frame: Any, node: ast.AST) -> Optional[str]:
    """The attribute name a ``setattr`` writes: a string the frame knows, or an f-string whose pieces are
    known ints or strings without conversion or format spec (``f"block{i + 1}"``); None otherwise."""
    if isinstance(node, ast.JoinedStr):
        parts: list[str] = []
        for piece in node.values:
            if isinstance(piece, ast.Constant) and isinstance(piece.value, str):
                parts.append(piece.value)
                continue
            if not (isinstance(piece, ast.FormattedValue) and piece.conversion == -1 and piece.format_spec is None):
                return None
            try:
                got = frame.ev(piece.value)
            except _Unknown:
                return None
            if not (isinstance(got, (int, str)) and not isinstance(got, bool)):
                return None
            parts.append(str(got))
        return "".join(parts)
    try:
        got = frame.ev(node)
    except _Unknown:
        return None
    return got if isinstance(got, str) else None


def setattr_on_self(frame: Any, value: ast.Call) -> bool:
    """``setattr(self, name, module)`` with a name the frame knows (Visual-Attention-Network/VAN-Classification @
    e19779b ``models/van.py`` ``VAN.__init__``: ``for i in range(num_stages): ... setattr(self, f"patch_embed{i + 1}",
    patch_embed)``): stored as ``self.<name> = module`` is, so each stage counts once and a name written twice stays
    unknown; True when handled. A name not known raises: the layer may replace one already counted."""
    if not (isinstance(value.func, ast.Name) and value.func.id == "setattr" and len(value.args) == 3
            and not value.keywords and isinstance(value.args[0], ast.Name) and value.args[0].id == "self"):
        return False
    name = _attribute_name(frame, value.args[1])
    if name is None or not name.isidentifier():
        raise _Unknown("setattr name")
    target = ast.copy_location(ast.Attribute(value=ast.Name(id="self", ctx=ast.Load()), attr=name,
                                             ctx=ast.Store()), value)
    frame.assign([target], value.args[2])
    return True
