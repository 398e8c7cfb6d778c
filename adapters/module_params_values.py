"""The values the module counter works with (``module_params_nested``): a module's count and weight
sizes (``_Mod``), a plain tensor, a layer class held as a value, the file's context (its classes,
constants, timm imports), literal reading, and the syntactic tests (does this expression build a
layer, can it hold a module); the parameter counts of ``torch.nn`` layers from evaluated arguments are
in ``module_params_torch``."""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters.module_params import (
    _layer_name,
    _Unknown,
)

from preflight.analysis.syntax import dotted_name

_UNK = object()  # a value not known statically: fine until something uses it
_STEPS = 200_000  # statements and expressions interpreted for one count, at most
_DEPTH = 12  # nested classes
_TENSOR_FACTORIES = {"zeros", "ones", "randn", "rand", "empty", "full", "Tensor", "FloatTensor", "tensor",
                     "arange", "linspace", "tril", "triu", "eye", "zeros_like", "ones_like",
                     # elementwise math on a tensor gives a plain tensor (open-muse ``modeling_transformer.py:168``
                     # ``self.scale_attn = torch.sqrt(torch.tensor(self.head_dim, ...))``)
                     "sqrt", "rsqrt", "exp", "log", "pow", "abs", "sin", "cos", "outer", "cat", "stack"}
_SIZE_FACTORIES = {"zeros", "ones", "randn", "rand", "empty", "FloatTensor", "Tensor"}
_PARAM_FREE_IMPORTS = {("flash_attn.flash_attention", "FlashAttention"),
                       # flash_attn 1.x/2.x ``modules/mha.py``: softmax(QK^T)V with a dropout, no parameters
                       ("flash_attn.modules.mha", "FlashSelfAttention"), ("flash_attn.modules.mha", "FlashCrossAttention")}
_NOOP_CALLS = {"print", "isinstance", "hasattr", "getattr", "len", "super", "warn", "info", "debug", "warning"}
_PLAIN_PACKAGES = {"numpy", "scipy", "math", "random", "itertools", "collections", "string", "re", "tiktoken"}
_BUILDS_ATTR = {"append", "extend", "add_module", "register_parameter", "register_module", "insert"}


class _Factory:
    """A layer class held as a value, with keywords bound: ``nn.LayerNorm`` or
    ``partial(nn.LayerNorm, eps=1e-6)`` (the ``norm_layer`` argument of timm-style ViTs); calling it
    builds the layer with those keywords. Keywords are literals, so the call is the same anywhere."""

    def __init__(self, func: ast.expr, keywords: list[ast.keyword]) -> None:
        self.func, self.keywords = func, keywords

    def layer(self) -> Optional[str]:
        return _layer_name(self.func)


def layer_factory(node: ast.AST) -> Any:
    """``nn.X`` or ``partial(nn.X, k=literal, ...)`` as a value (a model constructor's
    ``norm_layer=partial(nn.LayerNorm, eps=1e-6)``), else ``UNKNOWN``."""
    if _layer_name(node) is not None:
        return _Factory(node, [])  # type: ignore[arg-type]
    if isinstance(node, ast.Call) and (dotted_name(node.func) or "") in ("partial", "functools.partial") \
            and len(node.args) == 1 and _layer_name(node.args[0]) is not None \
            and all(k.arg is not None for k in node.keywords):
        try:
            for k in node.keywords:
                _literal(k.value)
        except _Unknown:
            return _UNK
        return _Factory(node.args[0], list(node.keywords))
    return _UNK


class _Tensor:
    """A plain tensor (a buffer, a mask): no parameters; ``shape`` where the counter knows it (a size factory's
    dimensions, kept by in-place initialisers and a square ``torch.qr``), else None."""

    def __init__(self, shape: Optional[tuple] = None) -> None:
        self.shape = shape


class _Mod:
    """A module value: its parameter count and the weight sizes of its layers by attribute path."""

    def __init__(self, n: int, weights: Optional[dict[str, int]] = None, layers: Optional[list[str]] = None,
                 facts: Optional[dict[str, Any]] = None) -> None:
        self.n = n
        self.weights = weights or {}
        self.layers = layers or []
        self.facts = facts or {}  # attributes a library layer exposes (timm PatchEmbed.num_patches)



# Lightning's module: an ``nn.Module`` whose parameters are those of the layers it holds
_LIGHTNING_BASES = ("pl.LightningModule", "pytorch_lightning.LightningModule", "L.LightningModule",
                    "lightning.LightningModule", "lightning.pytorch.LightningModule", "LightningModule")


def layer_alias(node: ast.stmt) -> Optional[tuple[str, str]]:
    """``Linear = nn.Linear`` at a module's top (mindslab-ai/nuwave @ 88aba86 ``model.py:12``, the lmnt-com/diffwave
    family): (the name, torch's layer); else None."""
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Attribute)):
        return None
    owner = node.value.value
    dotted = owner.id if isinstance(owner, ast.Name) else \
        f"{owner.value.id}.{owner.attr}" if isinstance(owner, ast.Attribute) and isinstance(owner.value, ast.Name) \
        else ""
    layer = node.value.attr
    if dotted not in ("nn", "torch.nn") or not layer[:1].isupper():
        return None
    return node.targets[0].id, layer


def layer_aliases(tree: ast.Module, other: set[str]) -> dict[str, str]:
    """The module's top-level ``Name = nn.Layer`` aliases bound once and by nothing else (``other``: every name
    the module's top imports or assigns, these included)."""
    found = [got for got in (layer_alias(n) for n in tree.body) if got is not None]
    names = [n for n, _ in found]
    bound = [t.id for n in tree.body if isinstance(n, (ast.Assign, ast.AnnAssign))
             for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Name)]
    imported = {a.asname or a.name.split(".")[0] for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))
                for a in n.names}
    defined = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    return {n: layer for n, layer in found if names.count(n) == 1 and bound.count(n) == 1
            and n not in imported and n not in defined and n in other}


class _Ctx:
    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
        self.functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
        self.dataclasses = {n.name: n for n in self.classes.values()
                            if any((dotted_name(d.func if isinstance(d, ast.Call) else d) or "").endswith("dataclass")
                                   for d in n.decorator_list)}
        self.consts: dict[str, Any] = {}
        self.steps = 0
        self.top_plain: frozenset[str] = frozenset()  # keywords of the counted class holding no module
        # library bases that are ``nn.Module`` subclasses adding no parameters: diffusers' ``ModelMixin``
        # (Tencent/HunyuanDiT ``hydit/modules/models.py:7,251`` ``class HunYuanDiT(ModelMixin, ConfigMixin, ...)``)
        self.library_modules = {a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom)
                                and (n.module or "").split(".")[0] == "diffusers" for a in n.names
                                if a.name == "ModelMixin"}
        # names imported from timm (``from timm.models.vision_transformer import PatchEmbed, Attention, Mlp``)
        self.timm = {a.asname or a.name: a.name for n in tree.body if isinstance(n, ast.ImportFrom)
                     and (n.module or "").split(".")[0] == "timm" and n.level == 0 for a in n.names}
        # torchvision's model constructors and ``IntermediateLayerGetter`` by the names bound here, and the
        # names of its ``models`` package (``import torchvision``, ``from torchvision import models``)
        self.tv = {a.asname or a.name: a.name for n in tree.body if isinstance(n, ast.ImportFrom) and n.level == 0
                   and (n.module or "").startswith("torchvision.models") for a in n.names}
        self.tv_models = {"torchvision.models"} if any(
            isinstance(n, ast.Import) and any(a.name.startswith("torchvision") and not a.asname for a in n.names)
            for n in tree.body) else set()
        self.tv_models |= {a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom) and n.level == 0
                           and n.module == "torchvision" for a in n.names if a.name == "models"}
        self.tv_models |= {a.asname for n in tree.body if isinstance(n, ast.Import)
                           for a in n.names if a.name == "torchvision.models" and a.asname}
        # library modules that hold no parameters, by the names they are imported under anywhere in the file
        # (openai/consistency_models ``cm/unet.py:344`` ``from flash_attn.flash_attention import FlashAttention``
        # inside ``__init__``: softmax(QK^T)V with dropout)
        self.param_free = {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                           for a in n.names if (n.module, a.name) in _PARAM_FREE_IMPORTS}
        # functions of tensor libraries held as values (``self.rearrange = rearrange`` from einops)
        self.plain_functions = {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                                and (n.module or "").split(".")[0] == "einops" for a in n.names}
        # layers imported by name from torch.nn (jeonsworld/ViT-pytorch @ 460a162 ``models/modeling.py:16`` ``from
        # torch.nn import CrossEntropyLoss, Dropout, Softmax, Linear, Conv2d, LayerNorm``): the layer of that name
        self.nn_layers = {a.asname or a.name: a.name for n in tree.body if isinstance(n, ast.ImportFrom)
                          and n.level == 0 and n.module == "torch.nn" for a in n.names if a.name[:1].isupper()}
        # torch's tuple helpers (``from torch.nn.modules.utils import _pair``, ``modeling.py:17``): a value repeated
        self.ntuples = {a.asname or a.name: _NTUPLES[a.name] for n in tree.body if isinstance(n, ast.ImportFrom)
                        and n.level == 0 and n.module == "torch.nn.modules.utils" for a in n.names
                        if a.name in _NTUPLES}
        # a name also bound otherwise (a merged module's ``from mylib import Linear``, a top-level assignment):
        # which one a call means is not decided here, so it is neither
        other = {a.asname or a.name.split(".")[0] for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))
                 and not (isinstance(n, ast.ImportFrom) and n.level == 0
                          and n.module in ("torch.nn", "torch.nn.modules.utils")) for a in n.names} \
            | {t.id for n in tree.body if isinstance(n, (ast.Assign, ast.AnnAssign))
               for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Name)}
        self.nn_layers = {k: v for k, v in self.nn_layers.items() if k not in other}
        self.nn_layers.update(layer_aliases(tree, other))
        from preflight.adapters.module_params_norms import imported_norms

        # ``weight_norm``/``spectral_norm`` imported from torch.nn.utils, unless the module also assigns the name
        assigned = {t.id for n in tree.body if isinstance(n, (ast.Assign, ast.AnnAssign))
                    for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Name)}
        self.norms = {k: v for k, v in imported_norms(tree).items() if k not in assigned}
        self.ntuples = {k: v for k, v in self.ntuples.items() if k not in other}
        # initialisers imported by name (``from torch.nn.init import xavier_uniform_, constant_``): in place
        self.inits = {a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom) and n.level == 0
                      and n.module == "torch.nn.init" for a in n.names}
        # ``import torch.nn.functional as F``: ``F.relu`` is a function, no parameters (detr ``transformer.py:292``)
        self.functional = {a.asname for n in tree.body if isinstance(n, ast.Import)
                           for a in n.names if a.name == "torch.nn.functional" and a.asname} | {
            a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom) and n.module == "torch.nn"
            for a in n.names if a.name == "functional"}
        # names bound to packages that build no ``nn.Module`` (``import scipy.stats as stats``, ``import numpy as
        # np``): a call through one returns a plain value or an object with no parameters
        self.plain_roots = {a.asname or a.name.split(".")[0] for n in tree.body if isinstance(n, ast.Import)
                            for a in n.names if a.name.split(".")[0] in _PLAIN_PACKAGES} \
            | {a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom) and n.level == 0
               and (n.module or "").split(".")[0] in _PLAIN_PACKAGES for a in n.names} \
            | {a.asname for n in tree.body if isinstance(n, ast.Import) for a in n.names
               if a.name == "torch" and a.asname}  # ``import torch as th``: ``th.float16`` (layers are caught apart)
        for node in tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                name = node.targets[0].id
                if name in self.consts:  # bound twice at top level: not a constant
                    self.consts[name] = _UNK
                    continue
                try:
                    self.consts[name] = _literal(node.value)
                except _Unknown:
                    self.consts[name] = _UNK

    def tick(self) -> None:
        self.steps += 1
        if self.steps > _STEPS:
            raise _Unknown("too long")

    def timm_vit(self, name: Optional[str]) -> bool:
        """``name`` is timm's ``VisionTransformer`` (imported from timm, or written in full)."""
        if not name:
            return False
        if name in self.timm:
            return self.timm[name] == "VisionTransformer"
        return name.startswith("timm.") and name.endswith(".VisionTransformer")

    def plain_class(self, name: str, seen: Optional[set[str]] = None) -> bool:
        """A local class that is no ``nn.Module``: no bases but ``object``/``ABC`` and such classes
        (LTH14/mar ``diffusion/respace.py`` ``SpacedDiffusion(GaussianDiffusion)``). torch registers no
        parameter of such an object held on a module; a base from elsewhere may be a module: not plain."""
        cls = self.classes.get(name)
        seen = seen or set()
        if cls is None or name in seen or cls.keywords:
            return False
        seen.add(name)
        return all((dotted_name(b) or "") in ("object", "ABC", "abc.ABC") or self.plain_class(dotted_name(b) or "", seen)
                   for b in cls.bases)

    def class_attr(self, name: str, attr: str) -> Any:
        """The literal a local class binds ``attr`` to in its body (or a local base's), once."""
        seen: set[str] = set()
        while name in self.classes and name not in seen:
            seen.add(name)
            cls = self.classes[name]
            bound = [n.value for n in cls.body if isinstance(n, ast.Assign) and len(n.targets) == 1
                     and isinstance(n.targets[0], ast.Name) and n.targets[0].id == attr] \
                + [n.value for n in cls.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
                   and n.target.id == attr and n.value is not None]
            if len(bound) == 1:
                return _literal(bound[0])
            if bound:
                break
            if any(isinstance(n, ast.FunctionDef) and n.name == attr for n in cls.body):
                # a method held as a value (jaywalnut310/vits ``attentions.py:268-271`` ``self.padding =
                # self._same_padding``): no parameter, its value not needed for a count
                return _UNK
            bases = [dotted_name(b) for b in cls.bases]
            local = [b for b in bases if b in self.classes]
            if len(local) != 1:
                break
            name = str(local[0])
        raise _Unknown(f"class attribute {attr}")

    def is_module(self, name: str, seen: Optional[set[str]] = None) -> bool:
        cls = self.classes.get(name)
        if cls is None:
            return False
        seen = seen or set()
        if name in seen:
            return False
        seen.add(name)
        for b in cls.bases:
            base = dotted_name(b)
            if base in ("nn.Module", "torch.nn.Module", "Module") or self.timm_vit(base) \
                    or torch_layer_base(base) is not None or base in self.library_modules:
                return True
            if base in _LIGHTNING_BASES:  # an nn.Module holding the network (nuwave ``lightning_model.py:24``)
                return True
            if base is not None and self.is_module(base, seen):
                return True
        return False


def torch_layer_base(base: Optional[str]) -> Optional[str]:
    """``nn.GroupNorm`` / ``torch.nn.Sequential`` as a base class -> ``GroupNorm``; else None."""
    if not base:
        return None
    parts = base.split(".")
    if len(parts) >= 2 and parts[-2] == "nn" and parts[-1][:1].isupper() and parts[-1] != "Module" \
            and (len(parts) == 2 or parts[:-2] == ["torch"]):
        return parts[-1]
    return None


def _literal(node: ast.AST) -> Any:
    """A literal value: numbers, strings, None, tuples/lists and dicts of them (keys constant)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, bool, str, type(None))):
        return node.value
    if isinstance(node, (ast.Tuple, ast.List)):
        return tuple(_literal(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        out: dict[Any, Any] = {}
        for k, v in zip(node.keys, node.values):
            if k is None or not isinstance(k, ast.Constant):
                raise _Unknown("dict key")
            out[k.value] = _literal(v)
        return out
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = _literal(node.operand)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return -value
    raise _Unknown("not a literal")


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_BINOPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
           ast.FloorDiv: lambda a, b: a // b, ast.Div: lambda a, b: a / b, ast.Mod: lambda a, b: a % b,
           ast.Pow: lambda a, b: a ** b,
           # on integers only (fundamentalvision/Deformable-DETR ``models/ops/modules/ms_deform_attn.py:27``
           # ``_is_power_of_2``: ``(n & (n - 1) == 0) and n != 0``)
           ast.BitAnd: lambda a, b: _ints(a, b) & b, ast.BitOr: lambda a, b: _ints(a, b) | b,
           ast.BitXor: lambda a, b: _ints(a, b) ^ b}


def _ints(a: Any, b: Any) -> int:
    if not (isinstance(a, int) and isinstance(b, int)):
        raise ZeroDivisionError  # not integers: read as an arithmetic the counter does not follow
    return a
_CMPS = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
         ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b,
         ast.Is: lambda a, b: a is b, ast.IsNot: lambda a, b: a is not b, ast.In: lambda a, b: a in b,
         ast.NotIn: lambda a, b: a not in b}


class _WeightRef:
    def __init__(self, size: int) -> None:
        self.size = size


# in-place writes into a tensor that exists already: they change values, never shapes
_IN_PLACE = {"zero_", "fill_", "normal_", "uniform_", "copy_", "mul_", "div_", "add_", "clamp_"}


def _in_place_init(func: ast.AST, local: Any = None) -> bool:
    """``self.adaLN_modulation.weight.data.zero_()`` (kuleshov-group/mdlm ``models/dit.py`` @ c112c52,
    ``DDiTBlock.__init__``), ``self.fc_loc[2].bias.data.copy_(...)``: one in-place write into the
    ``weight``/``bias`` of a layer of ``self``, which adds no parameter. A chain of such calls, or a
    tensor not reached from ``self``, is not this."""
    if not (isinstance(func, ast.Attribute) and func.attr in _IN_PLACE):
        return False
    node = func.value
    if isinstance(node, ast.Attribute) and node.attr == "data":
        node = node.value
    if not (isinstance(node, ast.Attribute) and node.attr in ("weight", "bias")):
        return False
    node = node.value
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    # or of a layer held in a local (glow-tts ``attentions.py:68-69`` ``end = torch.nn.Conv1d(...)``,
    # ``end.weight.data.zero_()``): ``local(name)`` says whether the local holds a module
    return isinstance(node, ast.Name) and (node.id == "self" or (local is not None and local(node.id)))


def _builds(node: ast.AST, ctx: _Ctx, moves: bool = True) -> bool:
    """Whether ``node`` may build or register parameters (a layer, a Parameter, a local module,
    a call on ``self`` that adds one, or a call of something unknown assigned nowhere safe); with
    ``moves`` False, ``append``/``extend``/``insert`` (which only move what exists) do not count."""
    for sub in ast.walk(node):
        if not isinstance(sub, ast.Call):
            continue
        name = dotted_name(sub.func) or ""
        last = name.rsplit(".", 1)[-1]
        if _layer_name(sub.func) is not None or last == "Parameter" or (name in ctx.classes
                                                                         and not ctx.plain_class(name)):
            return True
        if isinstance(sub.func, ast.Name) and sub.func.id in ctx.nn_layers:
            return True  # ``Conv2d(...)`` imported from torch.nn
        if isinstance(sub.func, ast.Attribute) and sub.func.attr in _BUILDS_ATTR \
                and (moves or sub.func.attr not in ("append", "extend", "insert")):
            return True
    return False


#: torch.nn.modules.utils's helpers: how many times each repeats a single value
_NTUPLES = {"_single": 1, "_pair": 2, "_triple": 3, "_quadruple": 4}

_PLAIN_CALLS = {"hasattr", "getattr", "isinstance", "len", "int", "float", "str", "bool", "max", "min", "abs", "sum",
                "round", "os.environ.get", "os.getenv"}


def _holds_module(value: Any) -> bool:
    if isinstance(value, _Mod):
        return True
    if isinstance(value, (list, tuple)):
        return any(_holds_module(v) for v in value)
    if isinstance(value, dict):
        return any(_holds_module(v) for v in value.values())
    return False


# torch calls that may return a whole model (``torch.hub.load('org/repo', 'critic')``, ``torch.load(path)`` of a
# pickled module, a TorchScript ``torch.jit.load``): not plain tensors
_TORCH_MODEL_LOADS = ("torch.nn.", "torch.hub.", "torch.load", "torch.jit.load")


def _plain(node: ast.AST) -> bool:
    """Whether an expression can hold no module: no call but to builtins of plain values, ``math``
    and ``torch`` functions outside ``torch.nn`` (a tensor is no parameter), no name of ``self``'s
    submodules read whole (``self.x = self.block`` would alias one): a name, an attribute, an item or
    a conditional may be a module handed in, so only a call or arithmetic is plain."""
    if not isinstance(node, (ast.Call, ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.Constant)):
        return False
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            name = dotted_name(sub.func) or ""
            if name in _PLAIN_CALLS or name.startswith("math.") or (
                    name.startswith("torch.") and not name.startswith(_TORCH_MODEL_LOADS) and name.rsplit(".", 1)[-1]
                    != "Parameter"):
                continue
            return False
    return True


def _sets_self(node: ast.AST) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target]
            for t in targets:
                for part in ast.walk(t):
                    if isinstance(part, ast.Attribute) and isinstance(part.value, ast.Name) and part.value.id == "self":
                        return True
    return False


def _names_set(stmts: list[ast.stmt]) -> set[str]:
    out: set[str] = set()
    for stmt in stmts:
        for sub in ast.walk(stmt):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                out.add(sub.id)
    return out
