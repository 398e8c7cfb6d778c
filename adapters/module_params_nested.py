"""The parameter count of project models of several classes (GPT-style: blocks repeated, sizes
from a config dict), read from their source, never imported or executed.

``count_module`` interprets a class's ``__init__`` statement by statement, never running it: the
layers ``module_params`` counts, ``nn.MultiheadAttention``/``nn.RMSNorm``, ``nn.Parameter(torch.zeros(...))``, other
``nn.Module`` classes of the same file (recursively, with their arguments bound), repeats
(``nn.Sequential(*[Block(cfg) for _ in range(cfg["n_layers"])])``, ``nn.ModuleList([...])``,
``for i in range(n): self.blocks.append(...)``), ``nn.ModuleDict(dict(...))``, sizes read from a
config dict (``cfg["emb_dim"]``, ``cfg.get(k, d)``) or computed into locals, ``if`` tests decided
from these values, and one tied weight (``self.head.weight = self.emb.weight``). Anything it cannot
follow (a call it does not know, a layer under an undecided test, a module handed in as an
argument) makes the whole count unknown.
"""

from __future__ import annotations

import ast
from typing import Any, Optional, Sequence

from preflight.adapters.module_params import (
    _FREE,
    _LOSSES_OK,
    _kernel,
    _layer_name,
    _prod,
    _Unknown,
)

from preflight.analysis.syntax import dotted_name

_UNK = object()  # a value not known statically: fine until something uses it
_STEPS = 200_000  # statements and expressions interpreted for one count, at most
_DEPTH = 12  # nested classes
_TENSOR_FACTORIES = {"zeros", "ones", "randn", "rand", "empty", "full", "Tensor", "FloatTensor", "tensor",
                     "arange", "linspace", "tril", "triu", "eye", "zeros_like", "ones_like"}
_SIZE_FACTORIES = {"zeros", "ones", "randn", "rand", "empty", "FloatTensor", "Tensor"}
_NOOP_CALLS = {"print", "isinstance", "hasattr", "getattr", "len", "super", "warn", "info", "debug", "warning"}
_BUILDS_ATTR = {"append", "extend", "add_module", "register_parameter", "register_module", "insert"}


# timm layers: (positional order, size-relevant defaults, arguments that change no size)
_TIMM_LAYERS: dict[str, tuple[list[str], dict[str, Any], set[str]]] = {
    "PatchEmbed": (["img_size", "patch_size", "in_chans", "embed_dim", "norm_layer", "flatten"],
                   {"img_size": 224, "patch_size": 16, "in_chans": 3, "embed_dim": 768, "norm_layer": None,
                    "bias": True}, {"flatten", "output_fmt", "strict_img_size", "dynamic_img_pad"}),
    "Attention": (["dim", "num_heads", "qkv_bias"],
                  {"dim": None, "num_heads": 8, "qkv_bias": False, "qk_norm": False, "scale_norm": False,
                   "proj_bias": True}, {"num_heads", "attn_drop", "proj_drop", "norm_layer", "fused_attn"}),
    "Mlp": (["in_features", "hidden_features", "out_features"],
            {"in_features": None, "hidden_features": None, "out_features": None, "norm_layer": None, "bias": True,
             "use_conv": False}, {"act_layer", "drop"}),
}

# timm's ``VisionTransformer`` (``timm/models/vision_transformer.py``; the same count in 0.3.2, the
# version DeiT and MAE pin, and in 1.0): the arguments that set sizes with their defaults, and those
# that change no size. An argument outside both (``representation_size``, ``init_values``,
# ``reg_tokens``, ``block_fn``...) adds or changes layers: the count is not followed.
_TIMM_VIT: dict[str, Any] = {"img_size": 224, "patch_size": 16, "in_chans": 3, "num_classes": 1000, "embed_dim": 768,
                             "depth": 12, "num_heads": 12, "mlp_ratio": 4.0, "qkv_bias": True, "class_token": True,
                             "global_pool": "token", "norm_layer": None, "representation_size": None,
                             "distilled": False, "hybrid_backbone": None, "fc_norm": None}
_TIMM_VIT_FREE = {"qk_scale", "drop_rate", "attn_drop_rate", "drop_path_rate", "proj_drop_rate", "pos_drop_rate",
                  "patch_drop_rate", "weight_init", "act_layer", "dynamic_img_size", "dynamic_img_pad", "fix_init",
                  "num_heads"}


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


def _vit_count(a: dict[str, Any]) -> tuple[int, int]:
    """(parameters, embed_dim) of timm's ``VisionTransformer`` with these arguments: patch
    embedding (a conv with bias), the class token, the learnt position table (patches + 1 rows),
    ``depth`` blocks (two LayerNorms, qkv and proj, the MLP), the final norm (``fc_norm`` instead
    with average pooling: the same size) and the head."""
    for key in ("representation_size", "hybrid_backbone", "fc_norm"):
        if a[key] is not None:
            raise _Unknown(f"VisionTransformer {key}")
    if a["distilled"] or a["class_token"] is not True or a["global_pool"] not in ("token", "avg", ""):
        raise _Unknown("VisionTransformer pooling")
    norm = a["norm_layer"]
    if norm is not None and not (isinstance(norm, _Factory) and norm.layer() == "LayerNorm"
                                 and all(k.arg in ("eps",) for k in norm.keywords)):
        raise _Unknown("VisionTransformer norm_layer")
    img, patch = a["img_size"], a["patch_size"]
    if not (isinstance(img, int) and isinstance(patch, int) and patch > 0) or isinstance(img, bool):
        raise _Unknown("VisionTransformer img_size")
    d, depth, c, chans = a["embed_dim"], a["depth"], a["num_classes"], a["in_chans"]
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in (d, depth, c, chans)) \
            or not isinstance(a["mlp_ratio"], (int, float)) or not isinstance(a["qkv_bias"], bool):
        raise _Unknown("VisionTransformer sizes")
    hidden = int(d * a["mlp_ratio"])
    tokens = (img // patch) ** 2 + 1
    block = 4 * d + 3 * d * d + (3 * d if a["qkv_bias"] else 0) + d * d + d + d * hidden + hidden + hidden * d + d
    n = chans * d * patch * patch + d + d + tokens * d + depth * block + 2 * d + (d * c + c if c > 0 else 0)
    return n, d


# timm layers without parameters (``timm/layers/drop.py`` ``DropPath``: stochastic depth)
_TIMM_FREE = {"DropPath"}


class _Tensor:
    """A plain tensor (a buffer, a mask): no parameters."""


class _Mod:
    """A module value: its parameter count and the weight sizes of its layers by attribute path."""

    def __init__(self, n: int, weights: Optional[dict[str, int]] = None, layers: Optional[list[str]] = None,
                 facts: Optional[dict[str, Any]] = None) -> None:
        self.n = n
        self.weights = weights or {}
        self.layers = layers or []
        self.facts = facts or {}  # attributes a library layer exposes (timm PatchEmbed.num_patches)


class _Ctx:
    def __init__(self, tree: ast.Module) -> None:
        self.classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
        self.functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
        self.dataclasses = {n.name: n for n in self.classes.values()
                            if any((dotted_name(d.func if isinstance(d, ast.Call) else d) or "").endswith("dataclass")
                                   for d in n.decorator_list)}
        self.consts: dict[str, Any] = {}
        self.steps = 0
        # names imported from timm (``from timm.models.vision_transformer import PatchEmbed, Attention, Mlp``)
        self.timm = {a.asname or a.name: a.name for n in tree.body if isinstance(n, ast.ImportFrom)
                     and (n.module or "").split(".")[0] == "timm" and n.level == 0 for a in n.names}
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
            if base in ("nn.Module", "torch.nn.Module", "Module") or self.timm_vit(base):
                return True
            if base is not None and self.is_module(base, seen):
                return True
        return False


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
           ast.Pow: lambda a, b: a ** b}
_CMPS = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
         ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b,
         ast.Is: lambda a, b: a is b, ast.IsNot: lambda a, b: a is not b, ast.In: lambda a, b: a in b,
         ast.NotIn: lambda a, b: a not in b}


class _Frame:
    """One ``__init__`` being interpreted: its locals and what it put on ``self``."""

    def __init__(self, ctx: _Ctx, env: dict[str, Any], depth: int) -> None:
        self.ctx = ctx
        self.env = env
        self.depth = depth
        self.attrs: dict[str, Any] = {}  # self.x -> value (a _Mod for submodules)
        self.total = 0
        self.layers: list[str] = []
        self.taken: dict[int, _Mod] = {}  # modules read from a local, each once (kept alive: ids stay unique)

    # -- expressions ---------------------------------------------------------------------------------
    def known(self, value: Any) -> Any:
        if value is _UNK:
            raise _Unknown("a value not known")
        return value

    def ev(self, node: ast.AST) -> Any:
        self.ctx.tick()
        if isinstance(node, ast.Lambda):
            return _UNK  # an activation factory (DiT ``approx_gelu = lambda: nn.GELU(...)``): unknown until used
        if isinstance(node, ast.Constant):
            if isinstance(node.value, (int, float, bool, str, type(None))):
                return node.value
            raise _Unknown("constant")
        if isinstance(node, ast.Name):
            if node.id in self.env:
                held = self.env[node.id]
                if isinstance(held, _Mod):
                    # a module built into a local, then handed on (facebookresearch/ConvNeXt ``models/convnext.py``
                    # ``downsample_layer = nn.Sequential(...)``; ``self.downsample_layers.append(downsample_layer)``):
                    # counted where it is handed to; a second use could share it, so it is not followed
                    if id(held) in self.taken:
                        raise _Unknown("a module used twice")
                    self.taken[id(held)] = held
                return self.known(held)
            if node.id in self.ctx.consts:
                return self.known(self.ctx.consts[node.id])
            if node.id in self.ctx.classes and self.ctx.is_module(node.id):
                return _Factory(node, [])  # a local layer class handed on (Swin ``downsample=PatchMerging``)
            if node.id in ("True", "False", "None"):
                return {"True": True, "False": False, "None": None}[node.id]
            raise _Unknown(f"name {node.id}")
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id == "self":
                if node.attr in self.attrs and not isinstance(self.attrs[node.attr], _Mod):
                    return self.known(self.attrs[node.attr])
                raise _Unknown(f"self.{node.attr}")
            if isinstance(node.value, ast.Attribute) and isinstance(node.value.value, ast.Name) \
                    and node.value.value.id == "self" and isinstance(self.attrs.get(node.value.attr), _Mod) \
                    and node.attr in self.attrs[node.value.attr].facts:
                return self.attrs[node.value.attr].facts[node.attr]  # self.x_embedder.num_patches
            if _layer_name(node) is not None:
                return _Factory(node, [])  # ``norm_layer=nn.LayerNorm``
            if node.attr == "weight":
                tied = self.weight_of(node.value)
                if tied is not None:
                    return _WeightRef(tied)
            owner = self.ev(node.value)
            if isinstance(owner, dict) and node.attr in owner:
                return self.known(owner[node.attr])
            raise _Unknown(f"attribute {node.attr}")
        if isinstance(node, ast.Subscript):
            owner, key = self.ev(node.value), self.ev(node.slice)
            if isinstance(owner, dict) and key in owner:
                return self.known(owner[key])
            if isinstance(owner, (tuple, list)) and isinstance(key, int) and -len(owner) <= key < len(owner):
                return self.known(owner[key])
            raise _Unknown("subscript")
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            a, b = self.ev(node.left), self.ev(node.right)
            if _number(a) and _number(b):
                try:
                    return _BINOPS[type(node.op)](a, b)
                except (ZeroDivisionError, OverflowError):
                    raise _Unknown("arithmetic") from None
            if isinstance(a, _Tensor) or isinstance(b, _Tensor):
                return _Tensor()
            if isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)) and (_number(a) or _number(b)) \
                    and all(_number(v) or isinstance(v, bool) for v in (a, b)):
                # a count plus a flag (DiT ``LabelEmbedder``: ``num_classes + use_cfg_embedding``): True is 1
                return _BINOPS[type(node.op)](int(a) if isinstance(a, bool) else a, int(b) if isinstance(b, bool) else b)
            raise _Unknown("arithmetic")
        if isinstance(node, ast.UnaryOp):
            value = self.ev(node.operand)
            if isinstance(node.op, ast.Not):
                return not value
            if isinstance(node.op, ast.USub) and _number(value):
                return -value
            raise _Unknown("unary")
        if isinstance(node, ast.BoolOp):
            last: Any = None
            for v in node.values:  # short-circuit, as Python does
                last = self.ev(v)
                if isinstance(last, (_Mod, _Tensor)):
                    raise _Unknown("truth of a module")
                if bool(last) is isinstance(node.op, ast.Or):
                    return last
            return last
        if isinstance(node, ast.Compare):
            left = self.ev(node.left)
            for op, comp in zip(node.ops, node.comparators):
                right = self.ev(comp)
                if isinstance(left, (_Mod, _Tensor)) or isinstance(right, (_Mod, _Tensor)):
                    raise _Unknown("compare")
                try:
                    if not _CMPS[type(op)](left, right):
                        return False
                except TypeError:
                    raise _Unknown("compare") from None
                left = right
            return True
        if isinstance(node, ast.IfExp):
            try:
                taken = self.truth(node.test)
            except _Unknown:
                # an undecided test whose two arms are modules without parameters (ConvNeXt ``Block``:
                # ``DropPath(drop_path) if drop_path > 0. else nn.Identity()``): either adds nothing
                a, b = self.ev(node.body), self.ev(node.orelse)
                if isinstance(a, _Mod) and isinstance(b, _Mod) and a.n == b.n == 0:
                    return a
                raise
            return self.ev(node.body if taken else node.orelse)
        if isinstance(node, (ast.Tuple, ast.List)):
            return tuple(self.items(node.elts))
        if isinstance(node, ast.Dict):
            out: dict[Any, Any] = {}
            for k, v in zip(node.keys, node.values):
                if k is None:
                    merged = self.ev(v)
                    if not isinstance(merged, dict):
                        raise _Unknown("**")
                    out.update(merged)
                else:
                    out[self.ev(k)] = self.ev(v)
            return out
        if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
            return tuple(self.comprehension(node))
        if isinstance(node, ast.Call):
            return self.call(node)
        raise _Unknown(type(node).__name__)

    def truth(self, test: ast.AST) -> bool:
        value = self.ev(test)
        if isinstance(value, (_Mod, _Tensor)):
            raise _Unknown("truth of a module")
        return bool(value)

    def items(self, elts: list[ast.expr]) -> list[Any]:
        out: list[Any] = []
        for e in elts:
            if isinstance(e, ast.Starred):
                value = self.ev(e.value)
                if not isinstance(value, (tuple, list)):
                    raise _Unknown("*")
                out.extend(value)
            else:
                out.append(self.ev(e))
        return out

    def comprehension(self, node: ast.ListComp | ast.GeneratorExp) -> list[Any]:
        if len(node.generators) != 1:
            raise _Unknown("comprehension")
        gen = node.generators[0]
        if gen.ifs or gen.is_async or not isinstance(gen.target, ast.Name):
            raise _Unknown("comprehension")
        values = self.iterate(gen.iter)
        out = []
        saved = self.env.get(gen.target.id, _UNK)
        for v in values:
            self.env[gen.target.id] = v
            out.append(self.ev(node.elt))
        self.env[gen.target.id] = saved
        return out

    def iterate(self, node: ast.AST) -> list[Any]:
        if isinstance(node, ast.Call) and dotted_name(node.func) == "range" and not node.keywords:
            bounds = [self.ev(a) for a in node.args]
            if not bounds or len(bounds) > 3 or not all(isinstance(b, int) and not isinstance(b, bool)
                                                        for b in bounds):
                raise _Unknown("range")
            values = list(range(*bounds)) if len(bounds) > 1 else list(range(bounds[0]))
            if len(values) > 10_000:
                raise _Unknown("range too long")
            return values
        value = self.ev(node)
        if isinstance(value, (tuple, list)):
            return list(value)
        raise _Unknown("iteration")

    def bound_args(self, call: ast.Call) -> tuple[list[Any], dict[str, Any]]:
        if any(isinstance(a, ast.Starred) for a in call.args):
            args = self.items(list(call.args))
        else:
            args = [self.soft(a) for a in call.args]
        kwargs: dict[str, Any] = {}
        for kw in call.keywords:
            if kw.arg is None:
                value = self.ev(kw.value)
                if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
                    raise _Unknown("**kwargs")
                kwargs.update(value)
            else:
                kwargs[kw.arg] = self.soft(kw.value)
        return args, kwargs

    def soft(self, node: ast.AST) -> Any:
        """An argument's value, or ``UNKNOWN`` when it cannot be worked out but is surely no module
        (``_plain_value``: ConvNeXt's ``drop_path=dp_rates[cur + j]``, ``dp_rates`` from
        ``torch.linspace(...)``): the callee fails only if a size depends on it."""
        try:
            return self.ev(node)
        except _Unknown:
            if not self.plain_value(node):
                raise
            return _UNK

    def plain_value(self, node: ast.AST) -> bool:
        """``node`` can only be a plain value: arithmetic, items and comparisons of literals, of locals
        known to hold plain values (``__plain__``), of constants, and calls that return numbers or
        tensors (builtins, ``math``, torch's tensor factories, ``.item()``); never a module."""
        if _builds(node, self.ctx):
            return False
        plain = self.env.get("__plain__", set())
        bound = {t.id for c in ast.walk(node) if isinstance(c, ast.comprehension) for t in ast.walk(c.target)
                 if isinstance(t, ast.Name)}
        called = {id(n) for c in ast.walk(node) if isinstance(c, ast.Call) and dotted_name(c.func)
                  for n in ast.walk(c.func)}  # the names of the functions called (``torch`` of ``torch.linspace``)
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load) and id(sub) not in called:
                if sub.id in self.env and self.env[sub.id] is not _UNK:
                    if _holds_module(self.env[sub.id]):
                        return False
                elif not (sub.id in plain or sub.id in bound or sub.id in self.ctx.consts
                          or sub.id in ("list", "tuple", "dict", "int", "float", "str", "bool", "None", "True", "False")):
                    return False
            elif isinstance(sub, ast.Call):
                name = dotted_name(sub.func) or ""
                last = name.rsplit(".", 1)[-1]
                if not (name in _PLAIN_CALLS or name.startswith("math.")
                        or (name.startswith("torch.") and last in _TENSOR_FACTORIES | {"linspace"})
                        or (isinstance(sub.func, ast.Attribute) and sub.func.attr in ("item", "tolist"))):
                    return False
            elif isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id == "self":
                return False
        return True

    def call(self, node: ast.Call) -> Any:
        name = dotted_name(node.func) or ""
        last = name.rsplit(".", 1)[-1]
        if name in self.ctx.classes and self.ctx.is_module(name):
            args, kwargs = self.bound_args(node)
            return _instance(self.ctx, name, args, kwargs, self.depth + 1)
        if name in self.ctx.dataclasses:
            args, kwargs = self.bound_args(node)
            return self.dataclass(self.ctx.dataclasses[name], args, kwargs)
        if _layer_name(node.func) is not None or name in ("Parameter", "torch.nn.Parameter"):
            return self.layer(last, node)
        if name.startswith("torch.") and last in _TENSOR_FACTORIES:
            return _Tensor()
        if name in self.ctx.timm and self.ctx.timm[name] in _TIMM_LAYERS:
            return self.timm_layer(self.ctx.timm[name], node)
        if isinstance(node.func, ast.Name) and isinstance(self.env.get(node.func.id), _Factory):
            made: _Factory = self.env[node.func.id]
            if any(k.arg is None or any(k.arg == m.arg for m in made.keywords) for k in node.keywords):
                raise _Unknown("factory keywords")
            return self.call(ast.copy_location(ast.Call(func=made.func, args=node.args,
                                                        keywords=[*made.keywords, *node.keywords]), node))
        if name in ("partial", "functools.partial"):
            made_now = layer_factory(node)
            if made_now is _UNK:
                raise _Unknown("partial")
            return made_now
        if self.ctx.timm_vit(name):
            args, kwargs = self.bound_args(node)
            return self.vit(args, kwargs, node.lineno)
        if name in self.ctx.timm and self.ctx.timm[name] == "to_2tuple" and len(node.args) == 1 and not node.keywords:
            v = self.ev(node.args[0])  # timm/layers/helpers.py: an iterable as a tuple, else (x, x)
            return tuple(v) if isinstance(v, (list, tuple)) else (v, v)
        if name in self.ctx.timm and self.ctx.timm[name] in _TIMM_FREE:
            return _Mod(0, {}, [f"timm.{self.ctx.timm[name]}@{node.lineno}=0"])
        if name == "len" and len(node.args) == 1 and not node.keywords:
            seq = self.ev(node.args[0])
            if not isinstance(seq, (list, tuple, str, dict)):
                raise _Unknown("len")
            return len(seq)
        if name in ("int", "max", "min", "abs", "round", "float", "bool", "sum"):
            args = self.items(list(node.args))
            if node.keywords or not args:
                raise _Unknown(name)
            if name in ("max", "min", "sum") and len(args) == 1 and isinstance(args[0], (tuple, list)):
                args = list(args[0])
            if not all(_number(a) or isinstance(a, bool) for a in args):
                raise _Unknown(name)
            return {"int": lambda: int(args[0]), "float": lambda: float(args[0]), "bool": lambda: bool(args[0]),
                    "abs": lambda: abs(args[0]), "round": lambda: round(*args), "max": lambda: max(args),
                    "min": lambda: min(args), "sum": lambda: sum(args)}[name]()
        if name in ("math.sqrt", "math.ceil", "math.floor", "math.log2"):
            import math
            arg = self.ev(node.args[0]) if len(node.args) == 1 else _UNK
            if not _number(arg):
                raise _Unknown(name)
            try:
                return getattr(math, last)(arg)
            except ValueError:
                raise _Unknown(name) from None
        if name == "dict" and not node.args:
            return {kw.arg: self.ev(kw.value) for kw in node.keywords if kw.arg is not None} \
                if all(kw.arg is not None for kw in node.keywords) else self.unknown(name)
        if isinstance(node.func, ast.Attribute) and node.func.attr == "get" and 1 <= len(node.args) <= 2 \
                and not node.keywords:
            owner = self.ev(node.func.value)
            if isinstance(owner, dict):
                key = self.ev(node.args[0])
                if key in owner:
                    return self.known(owner[key])
                return self.ev(node.args[1]) if len(node.args) == 2 else None
        raise _Unknown(f"call {name or ast.dump(node.func)[:40]}")

    @staticmethod
    def unknown(what: str) -> Any:
        raise _Unknown(what)

    def dataclass(self, cls: ast.ClassDef, args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any]:
        """A local ``@dataclass`` instance as a dict of its fields (read as ``config.n_embd``): the
        class's defaults, then the arguments; a field with no default and no argument, or a
        ``default_factory``, is unknown. A class with a ``__post_init__`` is not read."""
        if cls.bases or any(isinstance(n, ast.FunctionDef) and n.name == "__post_init__" for n in cls.body):
            raise _Unknown("a dataclass with bases or a __post_init__")
        fields: list[str] = []
        out: dict[str, Any] = {}
        for stmt in cls.body:
            if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
                continue
            if "ClassVar" in ast.unparse(stmt.annotation):
                continue
            fields.append(stmt.target.id)
            value: Any = _UNK
            default: Optional[ast.AST] = stmt.value
            if isinstance(default, ast.Call) and (dotted_name(default.func) or "").endswith("field"):
                default = next((k.value for k in default.keywords if k.arg == "default"), None)
            if default is not None:
                try:
                    value = _Frame(self.ctx, {}, self.depth).ev(default)
                except _Unknown:
                    value = _UNK
            out[stmt.target.id] = value
        if len(args) > len(fields) or set(kwargs) - set(fields):
            raise _Unknown("dataclass arguments")
        out.update(zip(fields, args))
        out.update(kwargs)
        return out

    def layer(self, name: str, node: ast.Call) -> Any:
        if name in ("Sequential", "ModuleList"):
            args, kwargs = self.bound_args(node)
            parts = list(args[0]) if name == "ModuleList" and len(args) == 1 and isinstance(args[0], (tuple, list)) \
                else args
            if name == "ModuleList" and not args:
                parts = []
            if kwargs or not all(isinstance(p, _Mod) for p in parts):
                raise _Unknown(name)
            return _merge(parts, {})
        if name == "ModuleDict":
            args, kwargs = self.bound_args(node)
            if kwargs or len(args) > 1 or (args and not isinstance(args[0], dict)):
                raise _Unknown(name)
            named: dict[str, Any] = dict(args[0]) if args else {}
            if not all(isinstance(p, _Mod) for p in named.values()):
                raise _Unknown(name)
            return _merge(list(named.values()), named)
        if name == "Parameter":
            # a frozen one (``requires_grad=False``, DiT's fixed sin-cos position table) is still in parameters()
            if len(node.args) != 1 or any(k.arg != "requires_grad" for k in node.keywords):
                raise _Unknown("Parameter")
            n = self.tensor_size(node.args[0])
            return _Mod(n, {"": n}, [f"Parameter@{node.lineno}={n}"])
        args, kwargs = self.bound_args(node)
        n = _counted_layer(name, args, kwargs)
        weight = n - _bias_of(name, args, kwargs)
        return _Mod(n, {"": weight}, [f"{name}@{node.lineno}={n}"] if n else [])

    def method(self, name: str) -> Optional[ast.FunctionDef]:
        """The method ``name`` of the class whose ``__init__`` runs (or of its local bases)."""
        todo = [str(self.env.get("__cls__", ""))]
        seen: set = set()
        while todo:
            cls = self.ctx.classes.get(todo.pop())
            if cls is None or cls.name in seen:
                continue
            seen.add(cls.name)
            for item in cls.body:
                if isinstance(item, ast.FunctionDef) and item.name == name:
                    return item
            todo.extend(b for b in (dotted_name(x) for x in cls.bases) if b in self.ctx.classes)
        return None

    def timm_layer(self, name: str, node: ast.Call) -> _Mod:
        """timm's ``PatchEmbed``, ``Attention`` and ``Mlp`` (``timm/models/vision_transformer.py``,
        ``timm/layers/{patch_embed,attention,mlp}.py``), the blocks project ViTs and DiTs build from:
        their parameters from the arguments, the ones that change no size (activations, dropouts)
        not evaluated; an option that adds layers (a norm, ``qk_norm``) or one not listed: unknown."""
        order, defaults, ignored = _TIMM_LAYERS[name]
        if len(node.args) > len(order) or any(isinstance(a, ast.Starred) for a in node.args):
            raise _Unknown(name)
        a: dict[str, Any] = dict(defaults)
        for key, arg in zip(order, node.args):
            a[key] = self.ev(arg)
        for kw in node.keywords:
            if kw.arg is None:
                extra = self.ev(kw.value)
                if not isinstance(extra, dict) or any(k not in defaults and k not in ignored for k in extra):
                    raise _Unknown("**kwargs")
                a.update({k: v for k, v in extra.items() if k not in ignored})
            elif kw.arg in ignored:
                continue
            elif kw.arg in defaults:
                a[kw.arg] = self.ev(kw.value)
            else:
                raise _Unknown(f"{name}({kw.arg}=...)")
        if any(isinstance(v, (_Mod, _Tensor)) or v is _UNK for v in a.values()):
            raise _Unknown(name)
        if name == "PatchEmbed":
            if a["norm_layer"] is not None:
                raise _Unknown("PatchEmbed norm_layer")
            img, patch = a["img_size"], a["patch_size"]
            img = (img, img) if isinstance(img, int) else tuple(img)
            patch = (patch, patch) if isinstance(patch, int) else tuple(patch)
            dim = _prod(a["embed_dim"])
            n = _prod(a["in_chans"]) * dim * patch[0] * patch[1] + (dim if a["bias"] else 0)
            grid = (img[0] // patch[0]) * (img[1] // patch[1])
            return _Mod(n, {"": n}, [f"timm.PatchEmbed@{node.lineno}={n}"], {"num_patches": grid})
        if name == "Attention":
            if a["qk_norm"] or a["scale_norm"]:
                raise _Unknown("Attention norms")
            dim = _prod(a["dim"])
            n = dim * 3 * dim + (3 * dim if a["qkv_bias"] else 0) + dim * dim + (dim if a["proj_bias"] else 0)
            return _Mod(n, {"": n}, [f"timm.Attention@{node.lineno}={n}"])
        # Mlp
        if a["norm_layer"] is not None or a["use_conv"]:
            raise _Unknown("Mlp norm_layer")
        d_in = _prod(a["in_features"])
        hidden = _prod(a["hidden_features"]) if a["hidden_features"] else d_in
        d_out = _prod(a["out_features"]) if a["out_features"] else d_in
        bias = a["bias"]
        b1, b2 = (bias, bias) if isinstance(bias, bool) else tuple(bias)
        n = d_in * hidden + (hidden if b1 else 0) + hidden * d_out + (d_out if b2 else 0)
        return _Mod(n, {"": n}, [f"timm.Mlp@{node.lineno}={n}"])

    def tensor_size(self, node: ast.AST) -> int:
        """The number of elements of ``torch.zeros(a, b)`` / ``torch.randn((a, b)) * 0.02`` ..."""
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div, ast.Add, ast.Sub)):
            for tensor, other in ((node.left, node.right), (node.right, node.left)):
                if isinstance(tensor, ast.Call) and _number(self.ev(other)):
                    return self.tensor_size(tensor)
            raise _Unknown("tensor")
        if not isinstance(node, ast.Call):
            raise _Unknown("tensor")
        name = dotted_name(node.func) or ""
        if not name.startswith("torch.") or name.rsplit(".", 1)[-1] not in _SIZE_FACTORIES:
            raise _Unknown("tensor")
        if any(kw.arg in ("size",) or kw.arg is None for kw in node.keywords):
            raise _Unknown("tensor")
        dims = self.items(list(node.args))
        if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
            dims = list(dims[0])
        return _prod(tuple(dims)) if dims else 1

    # -- statements ----------------------------------------------------------------------------------
    def run(self, body: list[ast.stmt]) -> bool:
        """Interpret ``body``; False when a ``return`` ended it."""
        for stmt in body:
            self.ctx.tick()
            if isinstance(stmt, (ast.Pass, ast.Assert, ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal)):
                continue
            if isinstance(stmt, ast.Return):
                return False
            if isinstance(stmt, ast.Expr):
                self.expr_stmt(stmt.value)
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                if stmt.value is not None:
                    self.assign(targets, stmt.value)
            elif isinstance(stmt, ast.AugAssign):
                if isinstance(stmt.target, ast.Name):
                    try:
                        self.env[stmt.target.id] = self.ev(ast.BinOp(ast.Name(stmt.target.id, ast.Load()),
                                                                    stmt.op, stmt.value))
                    except _Unknown:
                        if _builds(stmt.value, self.ctx):
                            raise
                        self.env[stmt.target.id] = _UNK
                elif isinstance(stmt.target, ast.Subscript) and isinstance(stmt.target.value, ast.Name) \
                        and (self.env.get(stmt.target.value.id, None) is _UNK
                             or isinstance(self.env.get(stmt.target.value.id), _Tensor)) \
                        and not _builds(stmt.value, self.ctx):
                    continue  # a write into a tensor being computed (Swin's relative position index)
                else:
                    raise _Unknown("augmented assignment")
            elif isinstance(stmt, ast.Delete):
                for t in stmt.targets:
                    if not (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"
                            and isinstance(self.attrs.get(t.attr), _Mod)):
                        raise _Unknown("del")
                    gone = self.attrs.pop(t.attr)
                    self.total -= gone.n  # ``del self.norm``: its parameters leave the module
            elif isinstance(stmt, ast.If):
                try:
                    taken = self.truth(stmt.test)
                except _Unknown:
                    if any(_builds(s, self.ctx) or _sets_self(s) for s in stmt.body + stmt.orelse):
                        raise
                    for name in _names_set(stmt.body + stmt.orelse):
                        self.env[name] = _UNK
                    continue
                if not self.run(stmt.body if taken else stmt.orelse):
                    return False
            elif isinstance(stmt, ast.For):
                if stmt.orelse:
                    raise _Unknown("for-else")
                try:
                    values = self.iterate(stmt.iter)
                except _Unknown:
                    if any(_builds(s, self.ctx) or _sets_self(s) for s in stmt.body):
                        raise
                    continue  # a loop over parameters that only initialises them
                if not isinstance(stmt.target, ast.Name):
                    raise _Unknown("for target")
                for v in values:
                    self.env[stmt.target.id] = v
                    if not self.run(stmt.body):
                        return False
            else:
                raise _Unknown(type(stmt).__name__)
        return True

    def expr_stmt(self, value: ast.AST) -> None:
        if isinstance(value, ast.Constant):
            return
        if not isinstance(value, ast.Call):
            raise _Unknown("expression")
        func = value.func
        name = dotted_name(func) or ""
        if isinstance(func, ast.Attribute) and func.attr == "__init__":
            owner = func.value
            if isinstance(owner, ast.Call) and dotted_name(owner.func) == "super":
                self.super_init(value, list(value.args))
                return
            base = dotted_name(owner)
            if base is not None and value.args and isinstance(value.args[0], ast.Name) and value.args[0].id == "self":
                self.super_init(value, list(value.args[1:]), base)
                return
            raise _Unknown("__init__")
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Attribute) \
                and isinstance(func.value.value, ast.Name) and func.value.value.id == "self" \
                and func.attr in ("append", "extend"):
            holder = self.attrs.get(func.value.attr)
            if not isinstance(holder, _Mod) or len(value.args) != 1 or value.keywords:
                raise _Unknown(func.attr)
            added = self.ev(value.args[0])
            parts = list(added) if func.attr == "extend" and isinstance(added, (tuple, list)) else [added]
            if not all(isinstance(p, _Mod) for p in parts):
                raise _Unknown(func.attr)
            for p in parts:
                self.add(p)
            return
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
            if func.attr in ("apply", "register_buffer"):
                return
            method = self.method(func.attr)
            if method is not None and not value.keywords and not _sets_self(method) \
                    and not _builds(method, self.ctx) \
                    and not any(isinstance(n, ast.Call) and dotted_name(n.func) == "setattr" for n in ast.walk(method)):
                # a method that only initialises weights (DiT ``self.initialize_weights()``): it sets no
                # attribute of ``self`` and builds or registers nothing, so it changes no count
                return
            if func.attr in ("register_parameter", "add_module", "register_module") and len(value.args) == 2:
                added = self.ev(value.args[1])
                if not isinstance(added, _Mod):
                    raise _Unknown(func.attr)
                key = self.ev(value.args[0])
                self.add(added)
                if isinstance(key, str):
                    self.attrs[key] = added
                return
            raise _Unknown(f"self.{func.attr}")
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                and isinstance(self.env.get(func.value.id), (list, tuple)) \
                and func.attr in ("append", "extend", "reverse") \
                and not value.keywords and len(value.args) == (0 if func.attr == "reverse" else 1):
            # a local list the layers are collected in (AntixK/PyTorch-VAE ``models/vanilla_vae.py:20-35``:
            # ``modules.append(nn.Sequential(...))`` then ``self.encoder = nn.Sequential(*modules)``):
            # counted when the list reaches ``self``, as a list comprehension is (lists are held as
            # tuples here: the name is bound to the new value)
            held = tuple(self.env[func.value.id])
            if func.attr == "reverse":
                self.env[func.value.id] = held[::-1]
                return
            added = self.ev(value.args[0])
            if func.attr == "extend":
                if not isinstance(added, (list, tuple)):
                    raise _Unknown("extend")
                self.env[func.value.id] = held + tuple(added)
            else:
                self.env[func.value.id] = (*held, added)
            return
        if _in_place_init(func):
            return
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Attribute) \
                and isinstance(func.value.value, ast.Name) and func.value.value.id == "self" \
                and self.attrs.get(func.value.attr, None) is _UNK and not _builds(value, self.ctx):
            return  # a method of a plain object held on self (llm.c ``self.init_rng.manual_seed(42)``)
        if name in self.ctx.timm and self.ctx.timm[name] in ("trunc_normal_", "lecun_normal_", "variance_scaling_"):
            return  # timm's in-place initialisers (``timm/layers/weight_init.py``): values, never shapes
        if ".init." in f".{name}" or name.startswith(("init.", "nn.init.", "torch.nn.init.")) \
                or name.rsplit(".", 1)[-1] in _NOOP_CALLS or name.startswith(("logger.", "logging.", "warnings.")):
            return
        raise _Unknown(f"call {name}")

    def super_init(self, call: ast.Call, args: list[ast.expr], base: Optional[str] = None) -> None:
        cls_bases = self.env.get("__bases__", ())
        if base is None and len(cls_bases) == 1 and self.ctx.timm_vit(cls_bases[0]):
            # a project subclass of timm's ViT (facebookresearch/mae ``models_vit.py:20-35``:
            # ``super(VisionTransformer, self).__init__(**kwargs)``, then ``fc_norm`` and ``del self.norm``)
            fake = ast.Call(func=call.func, args=args, keywords=call.keywords)
            posargs, kwargs = self.bound_args(fake)
            vit = self.vit(posargs, kwargs, call.lineno)
            self.add(vit)
            self.attrs.update(vit.facts["attrs"])
            return
        local = [b for b in cls_bases if b in self.ctx.classes and self.ctx.is_module(b)]
        if base is not None and base not in local:
            if base in ("nn.Module", "torch.nn.Module", "Module"):
                return
            raise _Unknown("base __init__")
        if not local:
            return  # nn.Module.__init__
        fake = ast.Call(func=call.func, args=args, keywords=call.keywords)
        posargs, kwargs = self.bound_args(fake)
        _run_init(self.ctx, local[0], posargs, kwargs, self)

    def vit(self, args: list[Any], kwargs: dict[str, Any], line: int) -> _Mod:
        if args or any(k not in _TIMM_VIT and k not in _TIMM_VIT_FREE for k in kwargs):
            raise _Unknown("VisionTransformer arguments")
        a = dict(_TIMM_VIT)
        a.update({k: v for k, v in kwargs.items() if k in _TIMM_VIT})
        if any(v is _UNK or isinstance(v, (_Mod, _Tensor)) for v in a.values()):
            raise _Unknown("VisionTransformer argument not known")
        n, d = _vit_count(a)
        norm = _Mod(2 * d, {"weight": d}, [f"timm.VisionTransformer.norm@{line}={2 * d}"])
        return _Mod(n, {}, [f"timm.VisionTransformer@{line}={n}"], {"attrs": {"norm": norm}})

    def plain_helper(self, node: ast.AST) -> bool:
        """A call of a function of the file that builds no layer or parameter, with plain arguments: a
        tensor or a value, never a module (MCG-NJU/VideoMAE ``modeling_finetune.py``: ``self.pos_embed =
        get_sinusoid_encoding_table(num_patches, embed_dim)``, a fixed table)."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            return False
        fn = self.ctx.functions.get(node.func.id)
        if fn is None or _builds(fn, self.ctx) or any(
                isinstance(n, ast.Name) and (n.id in self.ctx.classes or n.id == "Parameter") for n in ast.walk(fn)):
            return False
        return not any(_builds(a, self.ctx) for a in [*node.args, *(k.value for k in node.keywords)])

    def add(self, mod: _Mod) -> None:
        self.total += mod.n
        self.layers.extend(mod.layers)

    def assign(self, targets: Sequence[ast.expr], value_node: ast.AST) -> None:
        try:
            value = self.ev(value_node)
        except _Unknown:
            if _builds(value_node, self.ctx):
                raise
            for t in targets:
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self" \
                        and (_plain(value_node) or self.plain_helper(value_node)
                             or (isinstance(value_node, ast.Name) and value_node.id in self.env.get("__plain__", ()))) \
                        and not isinstance(self.attrs.get(t.attr), _Mod):
                    self.attrs[t.attr] = _UNK  # a flag or a size not known (nanoGPT ``self.flash = hasattr(...)``)
                elif not isinstance(t, (ast.Name, ast.Tuple)):
                    raise
            plain = self.plain_value(value_node)
            for t in targets:
                if isinstance(t, (ast.Name, ast.Tuple)):
                    for name in _names_set([ast.Assign(targets=[t], value=ast.Constant(0))]):
                        self.env[name] = _UNK
                        if "__plain__" in self.env:
                            if plain:
                                self.env["__plain__"].add(name)
                            else:
                                self.env["__plain__"].discard(name)
            return
        for target in targets:
            self.store(target, value)

    def store(self, target: ast.expr, value: Any) -> None:
        if isinstance(target, ast.Name):
            self.env[target.id] = value  # a module: counted once, when it reaches ``self`` (see ``ev``)
            return
        if isinstance(target, ast.Tuple) and isinstance(value, (tuple, list)) and len(value) == len(target.elts):
            for t, v in zip(target.elts, value):
                self.store(t, v)
            return
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
            if target.attr in self.attrs and isinstance(self.attrs[target.attr], _Mod):
                raise _Unknown("a submodule replaced")
            if isinstance(value, _Mod):
                self.add(value)
            self.attrs[target.attr] = value
            return
        if isinstance(target, ast.Attribute) and target.attr not in ("weight", "bias") \
                and isinstance(value, (int, float, str, bool, type(None))) and isinstance(target.value, ast.Attribute) \
                and isinstance(target.value.value, ast.Name) and target.value.value.id == "self" \
                and isinstance(self.attrs.get(target.value.attr), _Mod):
            return  # a flag set on a layer (karpathy/llm.c ``train_gpt2.py:141`` ``self.lm_head.LLMC_SKIP_INIT = 1``)
        if isinstance(target, ast.Attribute) and target.attr == "weight" and isinstance(value, _WeightRef):
            tied = self.weight_of(target.value)
            if tied is None or tied != value.size:
                raise _Unknown("tied weight")
            self.total -= tied
            return
        raise _Unknown("assignment target")

    def weight_of(self, node: ast.AST) -> Optional[int]:
        """The weight size of ``self.a`` or ``self.a.b`` (a layer of a ModuleDict)."""
        path = dotted_name(node) or ""
        parts = path.split(".")
        if len(parts) < 2 or parts[0] != "self":
            return None
        mod = self.attrs.get(parts[1])
        if not isinstance(mod, _Mod):
            return None
        return mod.weights.get(".".join(parts[2:]))


class _WeightRef:
    def __init__(self, size: int) -> None:
        self.size = size


# in-place writes into a tensor that exists already: they change values, never shapes
_IN_PLACE = {"zero_", "fill_", "normal_", "uniform_", "copy_", "mul_", "div_", "add_", "clamp_"}


def _in_place_init(func: ast.AST) -> bool:
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
    return isinstance(node, ast.Name) and node.id == "self"


def _merge(parts: list[_Mod], named: dict[str, Any]) -> _Mod:
    weights: dict[str, int] = {}
    for key, part in named.items():
        if isinstance(key, str) and isinstance(part, _Mod):
            for sub, size in part.weights.items():
                weights[f"{key}.{sub}" if sub else key] = size
    return _Mod(sum(p.n for p in parts), weights, [line for p in parts for line in p.layers])


def _bias_of(name: str, args: list[Any], kwargs: dict[str, Any]) -> int:
    """The bias part of a layer's count (what a tied weight does not share)."""
    if name in ("Linear",):
        a = _bound(args, kwargs, ["in_features", "out_features", "bias"], {"bias": True})
        return _prod(a["out_features"]) if a["bias"] else 0
    return 0


def _bound(args: list[Any], kwargs: dict[str, Any], names: list[str], defaults: dict[str, Any]) -> dict[str, Any]:
    if len(args) > len(names):
        raise _Unknown("too many arguments")
    out = dict(defaults)
    out.update(zip(names, args))
    out.update(kwargs)
    if any(n not in out for n in names) or any(v is _UNK for v in out.values()):
        raise _Unknown("arguments")
    return out


def _counted_layer(name: str, args: list[Any], kwargs: dict[str, Any]) -> int:
    """The parameter count of ``nn.<name>(*args, **kwargs)`` from evaluated arguments."""
    if any(isinstance(v, (_Mod, _Tensor)) for v in list(args) + list(kwargs.values())):
        raise _Unknown(f"nn.{name} of a module")
    for key in ("device", "dtype"):
        kwargs = {k: v for k, v in kwargs.items() if k != key}
    if name == "Linear":
        a = _bound(args, kwargs, ["in_features", "out_features", "bias"], {"bias": True})
        return _prod(a["in_features"]) * _prod(a["out_features"]) + (_prod(a["out_features"]) if a["bias"] else 0)
    if name in ("Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"):
        dims = int(name[-2])
        order = (["in_channels", "out_channels", "kernel_size", "stride", "padding", "output_padding", "groups",
                  "bias", "dilation"] if "Transpose" in name else
                 ["in_channels", "out_channels", "kernel_size", "stride", "padding", "dilation", "groups", "bias"])
        a = _bound(args, kwargs, order, {"bias": True, "groups": 1, "stride": 1, "padding": 0, "dilation": 1,
                                         "output_padding": 0, "padding_mode": "zeros"})
        cin, cout, groups = _prod(a["in_channels"]), _prod(a["out_channels"]), _prod(a["groups"])
        return cout * (cin // groups) * _kernel(a["kernel_size"], dims) + (cout if a["bias"] else 0)
    if name in ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d"):
        a = _bound(args, kwargs, ["num_features", "eps", "momentum", "affine"],
                   {"affine": True, "eps": 1e-5, "momentum": 0.1, "track_running_stats": True})
        return 2 * _prod(a["num_features"]) if a["affine"] else 0
    if name == "LayerNorm":
        a = _bound(args, kwargs, ["normalized_shape", "eps", "elementwise_affine", "bias"],
                   {"elementwise_affine": True, "bias": True, "eps": 1e-5})
        n = _prod(a["normalized_shape"])
        return (n + (n if a["bias"] else 0)) if a["elementwise_affine"] else 0
    if name == "RMSNorm":
        a = _bound(args, kwargs, ["normalized_shape", "eps", "elementwise_affine"],
                   {"elementwise_affine": True, "eps": None})
        return _prod(a["normalized_shape"]) if a["elementwise_affine"] else 0
    if name == "GroupNorm":
        a = _bound(args, kwargs, ["num_groups", "num_channels", "eps", "affine"], {"affine": True, "eps": 1e-5})
        return 2 * _prod(a["num_channels"]) if a["affine"] else 0
    if name == "Embedding":
        a = _bound(args, kwargs, ["num_embeddings", "embedding_dim", "padding_idx"], {"padding_idx": None})
        if set(kwargs) - {"num_embeddings", "embedding_dim", "padding_idx"}:
            raise _Unknown("Embedding options")
        return _prod(a["num_embeddings"]) * _prod(a["embedding_dim"])
    if name == "MultiheadAttention":
        a = _bound(args, kwargs, ["embed_dim", "num_heads", "dropout", "bias", "add_bias_kv", "add_zero_attn",
                                  "kdim", "vdim", "batch_first"],
                   {"dropout": 0.0, "bias": True, "add_bias_kv": False, "add_zero_attn": False, "kdim": None,
                    "vdim": None, "batch_first": False})
        if a["kdim"] not in (None, a["embed_dim"]) or a["vdim"] not in (None, a["embed_dim"]) or a["add_bias_kv"]:
            raise _Unknown("MultiheadAttention options")
        e = _prod(a["embed_dim"])
        return 4 * e * e + (4 * e if a["bias"] else 0)
    if name in _FREE or name.endswith(_LOSSES_OK):
        return 0
    raise _Unknown(f"nn.{name}")


def _builds(node: ast.AST, ctx: _Ctx) -> bool:
    """Whether ``node`` may build or register parameters (a layer, a Parameter, a local module,
    a call on ``self`` that adds one, or a call of something unknown assigned nowhere safe)."""
    for sub in ast.walk(node):
        if not isinstance(sub, ast.Call):
            continue
        name = dotted_name(sub.func) or ""
        last = name.rsplit(".", 1)[-1]
        if _layer_name(sub.func) is not None or last == "Parameter" or name in ctx.classes:
            return True
        if isinstance(sub.func, ast.Attribute) and sub.func.attr in _BUILDS_ATTR:
            return True
    return False


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
                    name.startswith("torch.") and not name.startswith("torch.nn.") and name.rsplit(".", 1)[-1]
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


def _run_init(ctx: _Ctx, name: str, args: list[Any], kwargs: dict[str, Any], frame: _Frame) -> None:
    """Interpret ``name.__init__`` with these arguments into ``frame`` (its own or a subclass's)."""
    cls = ctx.classes[name]
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if init is None:
        bases = [dotted_name(x) for x in cls.bases]
        local = [b for b in bases if b is not None and b in ctx.classes and ctx.is_module(b)]
        if len(bases) == 1 and local:
            _run_init(ctx, local[0], args, kwargs, frame)  # the base's ``__init__``, inherited
            return
        if bases and all(b in ("nn.Module", "torch.nn.Module", "Module") for b in bases) and not args and not kwargs:
            return  # ``nn.Module.__init__``: an activation written as a class (llm.c ``NewGELU``), no parameters
        raise _Unknown("no __init__")
    env = _bind_init(ctx, init, args, kwargs)
    # arguments not known, from a call this interpreter made: plain values (``soft`` checked them); the
    # caller of ``count_module`` may hand in anything as UNKNOWN, so its arguments are not
    env["__plain__"] = {k for k, v in env.items() if v is _UNK} if frame.depth > 0 else set()
    env["__bases__"] = tuple(b for b in (dotted_name(x) for x in cls.bases) if b is not None)
    env["__cls__"] = name
    saved = frame.env
    frame.env = env
    try:
        frame.run(init.body)
    finally:
        frame.env = saved


def _bind_init(ctx: _Ctx, init: ast.FunctionDef, args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    a = init.args
    positional = [p.arg for p in a.posonlyargs + a.args][1:]
    env: dict[str, Any] = {}
    defaults_frame = _Frame(ctx, {}, _DEPTH)
    for pname, default in zip(positional[len(positional) - len(a.defaults):], a.defaults):
        try:
            env[pname] = defaults_frame.ev(default)
        except _Unknown:
            env[pname] = _UNK
    for arg, kw_default in zip(a.kwonlyargs, a.kw_defaults):
        if kw_default is not None:
            try:
                env[arg.arg] = defaults_frame.ev(kw_default)
            except _Unknown:
                env[arg.arg] = _UNK
    if len(args) > len(positional):
        if a.vararg is None:
            raise _Unknown("too many arguments")
        env[a.vararg.arg] = tuple(args[len(positional):])
    elif a.vararg is not None:
        env[a.vararg.arg] = ()
    env.update(zip(positional, args))
    names = set(positional) | {p.arg for p in a.kwonlyargs}
    extra = {k: v for k, v in kwargs.items() if k not in names}
    if extra and a.kwarg is None:
        raise _Unknown("unexpected keyword")
    env.update({k: v for k, v in kwargs.items() if k in names})
    if a.kwarg is not None:
        env[a.kwarg.arg] = extra
    for pname in names:
        env.setdefault(pname, _UNK)
    return env


def _instance(ctx: _Ctx, name: str, args: list[Any], kwargs: dict[str, Any], depth: int) -> _Mod:
    if depth > _DEPTH:
        raise _Unknown("too deep")
    frame = _Frame(ctx, {}, depth)
    _run_init(ctx, name, args, kwargs, frame)
    weights: dict[str, int] = {}
    for attr, value in frame.attrs.items():
        if isinstance(value, _Mod):
            for sub, size in value.weights.items():
                weights[f"{attr}.{sub}" if sub else attr] = size
    # its plain attributes, read by the module holding it (Swin ``self.patch_embed.patches_resolution``)
    facts = {k: v for k, v in frame.attrs.items() if v is not _UNK and not _holds_module(v)}
    return _Mod(frame.total, weights, frame.layers, facts)


def count_module(tree: ast.Module, name: str, args: Optional[list[Any]] = None,
                 kwargs: Optional[dict[str, Any]] = None) -> Optional[tuple[int, list[str]]]:
    """(parameter count, layer descriptions) of the local ``nn.Module`` class ``name`` of ``tree``
    built with these arguments (``UNKNOWN`` for one not known), interpreted as the module comment
    above says; None when anything on the way is not followed."""
    ctx = _Ctx(tree)
    if not ctx.is_module(name):
        return None
    try:
        mod = _instance(ctx, name, list(args or []), dict(kwargs or {}), 0)
    except (_Unknown, RecursionError):
        return None
    return (mod.n, mod.layers) if mod.layers and mod.n > 0 else None


UNKNOWN = _UNK


def count_class(tree: ast.Module, name: str, kwargs: dict[str, Any],
                args: Optional[list[Any]] = None) -> Optional[tuple[int, list[str]]]:
    """``count_module`` for a class of ``tree``, or timm's ``VisionTransformer`` imported there
    (facebookresearch/deit ``models.py:7,79-81``), built with these keywords."""
    ctx = _Ctx(tree)
    if ctx.timm_vit(name) and not ctx.is_module(name):
        try:
            mod = _Frame(ctx, {}, 0).vit(list(args or []), dict(kwargs), 0)
        except (_Unknown, RecursionError):
            return None
        return mod.n, mod.layers
    return count_module(tree, name, list(args or []), kwargs)


def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}


def _walk_own(stmts: Sequence[ast.AST]) -> list[ast.AST]:
    """Every node of ``stmts``, not descending into functions or classes they define."""
    out: list[ast.AST] = []
    stack = list(reversed(stmts))
    while stack:
        node = stack.pop()
        out.append(node)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))
    return out


def _single_literal(stmts: Sequence[ast.AST], name: str, tree: Optional[ast.Module] = None) -> Any:
    """The literal ``name`` is bound to by the one assignment among ``stmts`` (walked), else _UNK;
    a name also written by item or ``update`` is not a literal."""
    found: list[ast.AST] = []
    for sub in _walk_own(stmts):
        if isinstance(sub, ast.Assign):
            for t in sub.targets:
                if isinstance(t, ast.Name) and t.id == name:
                    found.append(sub.value)
                elif (isinstance(t, (ast.Subscript, ast.Attribute)) and isinstance(t.value, ast.Name)
                      and t.value.id == name) \
                        or (isinstance(t, ast.Tuple) and any(isinstance(e, ast.Name) and e.id == name for e in t.elts)):
                    return _UNK
        elif isinstance(sub, (ast.AugAssign, ast.AnnAssign, ast.For, ast.With)):
            for part in ast.walk(getattr(sub, "target", sub)):
                if isinstance(part, ast.Name) and part.id == name and isinstance(part.ctx, ast.Store):
                    return _UNK
        elif isinstance(sub, ast.Call) and ((
                isinstance(sub.func, ast.Attribute) and isinstance(sub.func.value, ast.Name)
                and sub.func.value.id == name and sub.func.attr in ("update", "pop", "setdefault", "clear"))
                or (dotted_name(sub.func) == "setattr" and sub.args and isinstance(sub.args[0], ast.Name)
                    and sub.args[0].id == name)):
            return _UNK
    if len(found) != 1:
        return _UNK
    return _static(found[0], tree)


def _static(node: ast.AST, tree: Optional[ast.Module]) -> Any:
    """A literal, or (with ``tree``) an expression of literals, module constants and calls of the
    file's ``@dataclass`` classes (``GPTConfig(vocab_size=50304)``); else _UNK."""
    try:
        return _literal(node)
    except _Unknown:
        pass
    if tree is None or not any(isinstance(n, ast.Call) for n in ast.walk(node)):
        return _UNK
    ctx = _Ctx(tree)
    if not ctx.dataclasses:
        return _UNK
    try:
        return _Frame(ctx, {}, 0).ev(node)
    except (_Unknown, RecursionError):
        return _UNK


def argument_value(tree: ast.Module, function: Optional[str], expr: ast.AST, depth: int = 0) -> Any:
    """The literal an argument written in ``function`` (None: the module level) stands for: a
    literal, a name bound once to a literal (in the function, else at the top level of the file),
    or a parameter of ``function`` that every call of it in the file passes the same literal for;
    ``UNKNOWN`` otherwise. Read, never run."""
    if not isinstance(expr, ast.Name):
        return _static(expr, tree) if depth <= 3 else _UNK
    if depth > 3:
        return _UNK
    funcs = _functions(tree)
    fn = funcs.get(function or "")
    if fn is not None:
        params = [p.arg for p in fn.args.posonlyargs + fn.args.args]
        if expr.id in params + [p.arg for p in fn.args.kwonlyargs]:
            if _stored(fn.body, expr.id):
                return _UNK  # rebound inside
            return _passed(tree, funcs, fn.name, params, expr.id, depth)
        local = _single_literal(fn.body, expr.id, tree)
        if local is not _UNK:
            return local
        if _stored(fn.body, expr.id):
            return _UNK
    return _single_literal(tree.body, expr.id, tree)


def _stored(stmts: Sequence[ast.AST], name: str) -> bool:
    return any(isinstance(s, ast.Name) and s.id == name and isinstance(s.ctx, ast.Store) for s in _walk_own(stmts))


def _passed(tree: ast.Module, funcs: dict[str, ast.FunctionDef], fname: str, params: list[str], pname: str,
            depth: int) -> Any:
    """The one value every call ``fname(...)`` of the file passes for ``pname``."""
    values: list[Any] = []
    for caller in [None, *funcs]:
        body = tree.body if caller is None else funcs[caller].body
        for sub in _walk_own(list(body)):
            if not (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id == fname):
                continue
            if any(isinstance(a, ast.Starred) for a in sub.args) or any(k.arg is None for k in sub.keywords):
                return _UNK
            arg = next((k.value for k in sub.keywords if k.arg == pname), None)
            if arg is None and params.index(pname) < len(sub.args):
                arg = sub.args[params.index(pname)]
            if arg is None:
                return _UNK
            values.append(argument_value(tree, caller, arg, depth + 1))
    if not values or any(v is _UNK for v in values) or any(v != values[0] for v in values[1:]):
        return _UNK
    return values[0]
