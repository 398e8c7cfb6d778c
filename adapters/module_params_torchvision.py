"""torchvision's ResNet family as the module counter (``module_params_nested``) reads it: the parameter count of
``torchvision.models.resnet50(...)`` (or ``getattr(torchvision.models, name)(...)`` with the name known), the
norm layer it is given (``norm_layer=FrozenBatchNorm2d``: a norm whose weights are buffers adds no parameter),
and ``IntermediateLayerGetter(backbone, return_layers=...)``, which keeps the children up to the last layer
returned (the pooling and the classifier dropped). Detection models build their backbone this way
(facebookresearch/detr ``models/backbone.py:83-93``, fundamentalvision/Deformable-DETR ``models/backbone.py:
95-107``). Never imported.

The counts follow torchvision's ``models/resnet.py`` (``BasicBlock`` expansion 1, ``Bottleneck`` expansion 4
with ``width = planes * width_per_group / 64 * groups``, a 1x1 downsample and its norm where the stride or
width changes, biasless convolutions, a ``Linear(512 * expansion, num_classes)`` head); the defaults give
resnet18 11,689,512 and resnet50 25,557,032 parameters, torchvision's published figures (tests pin both).
"""

from __future__ import annotations

import ast
from typing import Any, Optional

# name -> (bottleneck?, blocks per stage, groups, width per group)
RESNETS: dict[str, tuple[bool, tuple[int, int, int, int], int, int]] = {
    "resnet18": (False, (2, 2, 2, 2), 1, 64),
    "resnet34": (False, (3, 4, 6, 3), 1, 64),
    "resnet50": (True, (3, 4, 6, 3), 1, 64),
    "resnet101": (True, (3, 4, 23, 3), 1, 64),
    "resnet152": (True, (3, 8, 36, 3), 1, 64),
    "resnext50_32x4d": (True, (3, 4, 6, 3), 32, 4),
    "resnext101_32x8d": (True, (3, 4, 23, 3), 32, 8),
    "wide_resnet50_2": (True, (3, 4, 6, 3), 1, 128),
    "wide_resnet101_2": (True, (3, 4, 23, 3), 1, 128),
}
# the children of torchvision's ResNet, in order (what IntermediateLayerGetter walks)
CHILDREN = ("conv1", "bn1", "relu", "maxpool", "layer1", "layer2", "layer3", "layer4", "avgpool", "fc")


def resnet_children(name: str, num_classes: int = 1000, norm: int = 2) -> Optional[list[tuple[str, int]]]:
    """(child, parameters) of torchvision's ``name`` in order, ``norm`` parameters per channel of each norm
    layer (2 for BatchNorm2d's weight and bias, 0 for a frozen one); None for a name not in the table."""
    if name not in RESNETS or num_classes < 1:
        return None
    bottleneck, blocks, groups, per_group = RESNETS[name]
    expansion = 4 if bottleneck else 1
    out = [("conv1", 3 * 64 * 7 * 7), ("bn1", norm * 64), ("relu", 0), ("maxpool", 0)]
    inplanes = 64
    for stage, n in enumerate(blocks):
        planes = 64 * 2 ** stage
        total = 0
        for i in range(n):
            stride = 2 if stage > 0 and i == 0 else 1
            if bottleneck:
                width = int(planes * (per_group / 64.0)) * groups
                total += inplanes * width + norm * width
                total += width * (width // groups) * 9 + norm * width
                total += width * planes * expansion + norm * planes * expansion
            else:
                total += inplanes * planes * 9 + norm * planes + planes * planes * 9 + norm * planes
            if stride != 1 or inplanes != planes * expansion:
                total += inplanes * planes * expansion + norm * planes * expansion
            inplanes = planes * expansion
        out.append((f"layer{stage + 1}", total))
    out.append(("avgpool", 0))
    out.append(("fc", 512 * expansion * num_classes + num_classes))
    return out


def kept(children: list[tuple[str, int]], returned: list[str]) -> Optional[int]:
    """The parameters ``IntermediateLayerGetter`` keeps: every child up to the last one returned."""
    names = [c for c, _ in children]
    if not returned or any(r not in names for r in returned):
        return None
    last = max(names.index(r) for r in returned)
    return sum(n for _, n in children[:last + 1])


def tv_call(frame: Any, node: ast.Call, name: str) -> Any:
    """The value of ``node`` when it calls torchvision (a ResNet constructor, ``IntermediateLayerGetter``), or
    None when it does not; a torchvision call not followed raises the counter's unknown."""
    from preflight.adapters.module_params import _Unknown
    from preflight.adapters.module_params_values import _Mod

    from preflight.analysis.syntax import dotted_name

    ctx = frame.ctx
    model: Any = None
    func = node.func
    if isinstance(func, ast.Call) and dotted_name(func.func) == "getattr" and len(func.args) == 2 \
            and not func.keywords and dotted_name(func.args[0]) in ctx.tv_models:
        model = frame.ev(func.args[1])  # ``getattr(torchvision.models, name)(...)``
        if not isinstance(model, str):
            raise _Unknown("torchvision model name")
    elif "." in name and name.rsplit(".", 1)[0] in ctx.tv_models:
        model = name.rsplit(".", 1)[1]
    elif name in ctx.tv:
        model = ctx.tv[name]
    else:
        return None
    if model == "IntermediateLayerGetter":
        return _getter(frame, node, _Mod, _Unknown)
    if model not in RESNETS or node.args:
        raise _Unknown(f"torchvision.{model}")
    num_classes, norm = 1000, 2
    for kw in node.keywords:
        if kw.arg in ("pretrained", "weights", "progress", "replace_stride_with_dilation", "zero_init_residual"):
            continue  # loading or strides: no parameter count changes
        if kw.arg == "num_classes":
            got = frame.ev(kw.value)
            if not isinstance(got, int) or isinstance(got, bool):
                raise _Unknown("num_classes")
            num_classes = got
        elif kw.arg == "norm_layer":
            norm = _norm_per_channel(frame, kw.value, _Mod, _Unknown)
        else:
            raise _Unknown(f"torchvision.{model}({kw.arg}=)")
    children = resnet_children(model, num_classes, norm)
    if children is None:
        raise _Unknown(f"torchvision.{model}")
    total = sum(n for _, n in children)
    return _Mod(total, {}, [f"torchvision.{model}@{node.lineno}={total}"], {"tv_children": children})


def _norm_per_channel(frame: Any, value: ast.expr, mod_type: Any, unknown: Any) -> int:
    """Parameters per channel of the norm layer class handed in: built once with 64 channels and counted
    (``FrozenBatchNorm2d`` registers buffers only: 0; ``nn.BatchNorm2d``: 2)."""
    factory = frame.ev(value)
    func = getattr(factory, "func", None)
    if func is None:
        raise unknown("norm_layer")
    built = frame.call(ast.copy_location(ast.Call(func=func, args=[ast.Constant(64)],
                                                  keywords=list(getattr(factory, "keywords", []))), value))
    if not isinstance(built, mod_type) or built.n not in (0, 128):
        raise unknown("norm_layer")
    return built.n // 64


def _getter(frame: Any, node: ast.Call, mod_type: Any, unknown: Any) -> Any:
    """``IntermediateLayerGetter(model, return_layers={...})``: the children up to the last one returned."""
    given = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "return_layers"),
                                                         None)
    if not node.args or given is None or len(node.args) > 2:
        raise unknown("IntermediateLayerGetter")
    layers = frame.ev(given)
    inner = frame.ev(node.args[0])
    children = getattr(inner, "facts", {}).get("tv_children") if isinstance(inner, mod_type) else None
    if not isinstance(layers, dict) or children is None:
        raise unknown("IntermediateLayerGetter")
    n = kept(children, [str(k) for k in layers])
    if n is None:
        raise unknown("IntermediateLayerGetter")
    return mod_type(n, {}, [*inner.layers, f"IntermediateLayerGetter@{node.lineno}={n}"], {})


def replace_child(frame: Any, target: ast.Attribute, value: Any) -> bool:
    """``self.backbone.fc = nn.Identity()`` on a torchvision ResNet held on ``self`` (facebookresearch/barlowtwins
    ``main.py:191-192``): the child's parameters replaced by the new module's; False for any other target."""
    from preflight.adapters.module_params_values import _Mod

    if not (isinstance(target.value, ast.Attribute) and isinstance(target.value.value, ast.Name)
            and target.value.value.id == "self" and isinstance(value, _Mod)):
        return False
    holder = frame.attrs.get(target.value.attr)
    children = holder.facts.get("tv_children") if isinstance(holder, _Mod) else None
    if not children or target.attr not in [c for c, _ in children]:
        return False
    delta = value.n - dict(children)[target.attr]
    holder.facts["tv_children"] = [(c, value.n if c == target.attr else n) for c, n in children]
    holder.n += delta
    holder.layers.append(f"{target.value.attr}.{target.attr} replaced@{target.lineno}={value.n}")
    frame.total += delta
    frame.layers.extend(value.layers)
    return True
