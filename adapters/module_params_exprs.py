"""The expression half of the module counter's interpreter (``module_params_nested._Frame``): values
of names, attributes, items, arithmetic, comparisons, comprehensions and calls (layers, local
classes and dataclasses, timm layers, builtins), read from the source, never run."""

from __future__ import annotations

import ast
from typing import Any

from preflight.adapters.module_params import _layer_name, _Unknown
from preflight.adapters.module_params_builtins import NOT_BUILTIN, builtin_call
from preflight.adapters.module_params_layers import _LayerExprs
from preflight.adapters.module_params_norms import norm_call, shaped_tensor
from preflight.adapters.module_params_optim import optimizer_call
from preflight.adapters.module_params_timm import _TIMM_FREE, _TIMM_LAYERS, timm_layer, vit
from preflight.adapters.module_params_torchvision import tv_call
from preflight.adapters.module_params_values import (
    _BINOPS,
    _CMPS,
    _PLAIN_CALLS,
    _TENSOR_FACTORIES,
    _UNK,
    _builds,
    _Ctx,
    _Factory,
    _holds_module,
    _Mod,
    _number,
    _Tensor,
    _WeightRef,
    layer_factory,
)

from preflight.analysis.syntax import dotted_name


class _Function:
    """A function of the file held as a value (an entry of a constructor table)."""

    def __init__(self, fn: ast.FunctionDef) -> None:
        self.fn = fn


class _Functional:
    """A function of ``torch.nn.functional`` held as a value (an activation handed on): no parameters."""

    def __init__(self, name: str) -> None:
        self.name = name


def _names_only(target: ast.expr) -> bool:
    """``i`` or ``(a, (b, c))``: names, possibly in tuples."""
    if isinstance(target, ast.Name):
        return True
    return isinstance(target, (ast.Tuple, ast.List)) and all(_names_only(e) for e in target.elts)


class _Exprs(_LayerExprs):
    """One ``__init__`` being interpreted (``module_params_nested._Frame`` adds the statements): its
    locals and what it put on ``self``."""

    ctx: _Ctx
    env: dict[str, Any]
    depth: int
    attrs: dict[str, Any]
    total: int
    layers: list[str]
    taken: dict[int, _Mod]
    returning: bool
    returned: Any

    def __init__(self, ctx: _Ctx, env: dict[str, Any], depth: int) -> None:
        self.ctx = ctx
        self.env = env
        self.depth = depth
        self.attrs = {}  # self.x -> value (a _Mod for submodules)
        self.total = 0
        self.layers = []
        self.taken = {}  # modules read from a local, each once (kept alive: ids stay unique)
        self.returning = False  # a function's frame: ``return x`` hands ``x`` back (``returned``)
        self.returned: Any = None

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
                    if id(held) in self.taken and (held.n or "container" in held.facts):
                        # (a parameter-free one, ``nn.ReLU(False)`` handed to two blocks, shares nothing countable)
                        raise _Unknown("a module used twice")
                    self.taken[id(held)] = held
                return self.known(held)
            if node.id in self.ctx.consts:
                return self.known(self.ctx.consts[node.id])
            if node.id in self.ctx.classes and self.ctx.is_module(node.id):
                return _Factory(node, [])  # a local layer class handed on (Swin ``downsample=PatchMerging``)
            if node.id in self.ctx.functions:
                return _Function(self.ctx.functions[node.id])  # a constructor in a table (``{"vitl": vit_large}``)
            if node.id in ("True", "False", "None"):
                return {"True": True, "False": False, "None": None}[node.id]
            if node.id in self.ctx.nn_layers and self.imported_by_name(node.id):
                return _Factory(node, [])  # ``norm_layer=LayerNorm`` after ``from torch.nn import LayerNorm``
            if node.id in self.ctx.plain_functions:
                return _Functional(node.id)  # ``self.rearrange = rearrange`` (consistency_models ``cm/unet.py:362``)
            raise _Unknown(f"name {node.id}")
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id == "self":
                if node.attr in self.attrs and not isinstance(self.attrs[node.attr], _Mod):
                    return self.known(self.attrs[node.attr])
                if node.attr not in self.attrs and self.env.get("__cls__"):
                    return self.ctx.class_attr(str(self.env["__cls__"]), node.attr)  # ``self.expansion``
                raise _Unknown(f"self.{node.attr}")
            if isinstance(node.value, ast.Attribute) and isinstance(node.value.value, ast.Name) \
                    and node.value.value.id == "self" and isinstance(self.attrs.get(node.value.attr), _Mod) \
                    and node.attr in self.attrs[node.value.attr].facts:
                return self.attrs[node.value.attr].facts[node.attr]  # self.x_embedder.num_patches
            if _layer_name(node) is not None:
                return _Factory(node, [])  # ``norm_layer=nn.LayerNorm``
            if isinstance(node.value, ast.Name) and node.value.id in self.ctx.functional \
                    and node.value.id not in self.env:
                return _Functional(node.attr)  # ``F.relu`` handed on as an activation: no parameters
            if node.attr == "weight":
                tied = self.weight_of(node.value)
                if tied is not None:
                    return _WeightRef(tied)
            if isinstance(node.value, ast.Name) and isinstance(self.env.get(node.value.id), _Mod) \
                    and node.attr not in ("weight", "bias"):
                # a plain attribute of a module held in a local (facebookresearch/detr ``models/backbone.py:118``
                # ``model.num_channels = backbone.num_channels``): read, the module not taken by it
                held_facts = self.env[node.value.id].facts
                return self.known(held_facts[node.attr]) if node.attr in held_facts else _UNK
            owner = self.ev(node.value)
            if isinstance(owner, dict) and node.attr in owner:
                return self.known(owner[node.attr])
            if isinstance(owner, _Factory) and isinstance(owner.func, ast.Name):
                # a class attribute (pytorch/vision ``resnet.py``: ``planes * block.expansion``, ``expansion = 4``)
                return self.ctx.class_attr(owner.func.id, node.attr)
            raise _Unknown(f"attribute {node.attr}")
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            seq = self.ev(node.value)  # ``list(enumerate(channel_mult))[::-1]``
            bounds = [None if b is None else self.ev(b) for b in (node.slice.lower, node.slice.upper, node.slice.step)]
            if not isinstance(seq, (tuple, str)) or not all(b is None or (isinstance(b, int) and not isinstance(b, bool))
                                                             for b in bounds) or bounds[2] == 0:
                raise _Unknown("slice")
            return seq[slice(*bounds)]
        if isinstance(node, ast.Subscript):
            owner, key = self.ev(node.value), self.ev(node.slice)
            if isinstance(owner, dict) and key in owner:
                return self.known(owner[key])
            if isinstance(owner, (tuple, list)) and isinstance(key, int) and -len(owner) <= key < len(owner):
                return self.known(owner[key])
            raise _Unknown("subscript")
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            a, b = self.ev(node.left), self.ev(node.right)
            if isinstance(node.op, ast.Mult) and isinstance(a, (tuple, list)) != isinstance(b, (tuple, list)):
                seq, times = (a, b) if isinstance(a, (tuple, list)) else (b, a)
                if isinstance(times, int) and not isinstance(times, bool) and len(seq) * max(times, 0) <= 10_000 \
                        and not any(_holds_module(v) for v in seq):
                    return tuple(seq) * times  # ``[hidden_dim] * (num_layers - 1)`` (detr ``models/detr.py:294``)
            if isinstance(node.op, ast.Add) and isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)) \
                    and not any(_holds_module(v) for v in (*a, *b)):
                return tuple(a) + tuple(b)  # ``[input_dim] + h``
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

    def imported_by_name(self, name: str) -> bool:
        """``name`` is a torch layer or tuple helper imported by name, not shadowed by a local, class or function."""
        return (name in self.ctx.nn_layers or name in self.ctx.ntuples) and name not in self.env \
            and name not in self.ctx.classes and name not in self.ctx.functions

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
        if gen.ifs or gen.is_async or not _names_only(gen.target):
            raise _Unknown("comprehension")
        values = self.iterate(gen.iter)
        out = []
        names = [n.id for n in ast.walk(gen.target) if isinstance(n, ast.Name)]
        saved = {n: self.env.get(n, _UNK) for n in names}
        for v in values:
            self.bind_target(gen.target, v)
            out.append(self.ev(node.elt))
        self.env.update(saved)
        return out

    def bind_target(self, target: ast.expr, value: Any) -> None:
        """A loop's ``i`` or ``(level, mult)`` bound to one item."""
        if isinstance(target, ast.Name):
            self.env[target.id] = value
            return
        if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (tuple, list)) \
                and len(value) == len(target.elts):
            for t, v in zip(target.elts, value):
                self.bind_target(t, v)
            return
        raise _Unknown("loop target")

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
        name = dotted_name(node.func) if isinstance(node, ast.Call) else None
        if isinstance(node, ast.Call) and name in ("enumerate", "zip", "reversed", "list", "tuple") \
                and node.args and not any(isinstance(a, ast.Starred) for a in node.args):
            # ``for level, mult in enumerate(channel_mult)`` (openai/improved-diffusion ``unet.py``), ``zip(a, b)``
            if name == "enumerate" and len(node.args) == 1 and all(k.arg == "start" for k in node.keywords):
                start = self.ev(node.keywords[0].value) if node.keywords else 0
                if isinstance(start, int) and not isinstance(start, bool):
                    return list(enumerate(self.iterate(node.args[0]), start))
            elif name == "zip" and not node.keywords:
                return list(zip(*[self.iterate(a) for a in node.args]))
            elif len(node.args) == 1 and not node.keywords:
                items = self.iterate(node.args[0])
                return items[::-1] if name == "reversed" else items
            raise _Unknown(str(name))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in (
                "parameters", "named_parameters", "modules", "named_modules", "children", "named_children"):
            # a walk over a module's parameters (facebookresearch/detr ``models/backbone.py:62-64`` freezing
            # layers): not iterated here, and the module is not taken by it
            raise _Unknown("iteration over a module")
        from preflight.adapters.module_params_idioms import string_sizes

        parsed = string_sizes(self, node, name)
        if parsed is not None:
            return parsed
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
        # a library's version string (zhouhaoyi/Informer2020 models/embed.py:29 ``padding = 1 if
        # torch.__version__>='1.5.0' else 2``) is a plain value
        called |= {id(a.value) for a in ast.walk(node) if isinstance(a, ast.Attribute) and a.attr == "__version__"}
        # a plain value kept on ``self`` and not known (only plain values are kept so: ``assign``; OpenDiT
        # ``opendit/models/dit.py:69,108`` ``self.sequence_parallel_group = sequence_parallel_group`` handed on)
        kept = {id(a) for a in ast.walk(node) if isinstance(a, ast.Attribute) and isinstance(a.value, ast.Name)
                and a.value.id == "self" and self.attrs.get(a.attr, None) is _UNK}
        called |= {id(a.value) for a in ast.walk(node) if isinstance(a, ast.Attribute) and id(a) in kept}
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load) and id(sub) not in called:
                if sub.id in self.env and self.env[sub.id] is not _UNK:
                    if _holds_module(self.env[sub.id]):
                        return False
                elif not (sub.id in plain or sub.id in bound or sub.id in self.ctx.consts or sub.id in self.ctx.plain_roots
                          or sub.id in ("list", "tuple", "dict", "int", "float", "str", "bool", "None", "True", "False")):
                    return False
            elif isinstance(sub, ast.Call):
                name = dotted_name(sub.func) or ""
                last = name.rsplit(".", 1)[-1]
                if not (name in _PLAIN_CALLS or name.startswith("math.") or name.split(".")[0] in self.ctx.plain_roots
                        or (name.startswith("torch.") and last in _TENSOR_FACTORIES | {"linspace"})
                        or (isinstance(sub.func, ast.Attribute) and sub.func.attr in ("item", "tolist"))):
                    return False
            elif isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id == "self" \
                    and id(sub) not in kept:
                return False
        return True

    def call(self, node: ast.Call) -> Any:
        name = dotted_name(node.func) or ""
        last = name.rsplit(".", 1)[-1]
        optimizer = optimizer_call(self.ctx, node)  # module_params_optim.py
        if optimizer is not None:
            return optimizer
        if name in self.ctx.classes and self.ctx.is_module(name):
            args, kwargs = self.bound_args(node)
            return self.instance(name, args, kwargs)
        if name in self.ctx.dataclasses:
            args, kwargs = self.bound_args(node)
            return self.dataclass(self.ctx.dataclasses[name], args, kwargs)
        shaped = shaped_tensor(self, node, name)  # module_params_norms.py: a tensor of a known shape
        if shaped is not None:
            return shaped
        if name.startswith(("nn.init.", "torch.nn.init.", "init.")) and last.endswith("_") and node.args:
            # an in-place initialiser returns the tensor it fills (bytedance/1d-tokenizer ``modeling/rar.py``
            # ``self.pos_embed = nn.init.trunc_normal_(nn.Parameter(torch.zeros(...)), 0., 0.02)``)
            return self.ev(node.args[0])
        if _layer_name(node.func) is not None or name in ("Parameter", "torch.nn.Parameter"):
            return self.layer(last, node)
        if isinstance(node.func, ast.Name) and self.imported_by_name(node.func.id):
            if node.func.id in self.ctx.nn_layers:  # ``Conv2d(...)`` after ``from torch.nn import Conv2d``
                return self.layer(self.ctx.nn_layers[node.func.id], node)
            if len(node.args) == 1 and not node.keywords:  # ``_pair(img_size)``: torch/nn/modules/utils.py ``_ntuple``
                v = self.ev(node.args[0])
                if isinstance(v, (list, tuple)):
                    return tuple(v)
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    return (v,) * self.ctx.ntuples[node.func.id]
            raise _Unknown(name)
        if name in ("nn.quantized.FloatFunctional", "torch.nn.quantized.FloatFunctional") and not node.args:
            return _Mod(0, {}, [f"{name}@{node.lineno}=0"])  # a parameter-free wrapper of ``+``/``*`` (MiDaS/DPT)
        normed = norm_call(self, node, name)  # module_params_norms.py: ``weight_norm(layer)``
        if normed is not None:
            return normed
        if name.startswith("torch.") and last in _TENSOR_FACTORIES:
            return _Tensor()
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("to", "float", "half", "detach", "clone", "contiguous") \
                and isinstance(node.func.value, ast.Call) and (dotted_name(node.func.value.func) or "").startswith("torch.") \
                and isinstance(self.ev(node.func.value), _Tensor):
            return _Tensor()  # ``torch.sqrt(...).to(dtype)``: still a plain tensor
        if name in self.ctx.timm and self.ctx.timm[name] in _TIMM_LAYERS:
            return self.timm_layer(self.ctx.timm[name], node)
        if name in self.ctx.param_free and name not in self.ctx.classes:
            return _Mod(0, {}, [f"{name}@{node.lineno}=0"])  # a library module without parameters
        if self.ctx.tv or self.ctx.tv_models:
            from_tv = tv_call(self, node, name)  # module_params_torchvision.py
            if from_tv is not None:
                return from_tv
        if not name or (isinstance(node.func, ast.Name) and isinstance(self.env.get(node.func.id), _Function)):
            # a callee that is a value: ``model_zoo[model_name](...)`` (DepthAnything/Depth-Anything-V2
            # ``metric_depth/depth_anything_v2/dinov2.py:398-412``), a function handed in
            target = self.ev(node.func)
            if isinstance(target, _Function):
                return self.local_function(target.fn, node)
            if isinstance(target, _Factory):
                if any(k.arg is None or any(k.arg == m.arg for m in target.keywords) for k in node.keywords):
                    raise _Unknown("factory keywords")
                return self.call(ast.copy_location(ast.Call(func=target.func, args=node.args,
                                                            keywords=[*target.keywords, *node.keywords]), node))
            raise _Unknown("a call of a value")
        if isinstance(node.func, ast.Name) and isinstance(self.env.get(node.func.id), _Factory):
            made: _Factory = self.env[node.func.id]
            if any(k.arg is None or any(k.arg == m.arg for m in made.keywords) for k in node.keywords):
                raise _Unknown("factory keywords")
            return self.call(ast.copy_location(ast.Call(func=made.func, args=node.args,
                                                        keywords=[*made.keywords, *node.keywords]), node))
        if name in ("partial", "functools.partial"):
            made_now = layer_factory(node)
            if made_now is _UNK:
                made_now = self.local_partial(node)
            return made_now
        if self.ctx.timm_vit(name):
            args, kwargs = self.bound_args(node)
            return self.vit(args, kwargs, node.lineno)
        if name in self.ctx.timm and self.ctx.timm[name] == "to_2tuple" and len(node.args) == 1 and not node.keywords:
            v = self.ev(node.args[0])  # timm/layers/helpers.py: an iterable as a tuple, else (x, x)
            return tuple(v) if isinstance(v, (list, tuple)) else (v, v)
        if name in self.ctx.timm and self.ctx.timm[name] in _TIMM_FREE:
            return _Mod(0, {}, [f"timm.{self.ctx.timm[name]}@{node.lineno}=0"])
        done = builtin_call(self, node, name)  # module_params_builtins.py
        if done is not NOT_BUILTIN:
            return done
        if isinstance(node.func, ast.Name) and node.func.id in self.ctx.functions and node.func.id not in self.env:
            return self.local_function(self.ctx.functions[node.func.id], node)
        if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
                and node.func.value.id == "self":
            method = self.method(node.func.attr)
            if method is not None:
                return self.local_method(method, node)
        raise _Unknown(f"call {name or ast.dump(node.func)[:40]}")

    def local_partial(self, node: ast.Call) -> _Factory:
        """``partial(Block, attn_class=MemEffAttention)`` of a local class (DepthAnything-V2 ``dinov2.py:373``):
        the keywords are module-level names or constants, so they mean the same wherever it is called."""
        if len(node.args) != 1 or not isinstance(node.args[0], ast.Name) \
                or not (node.args[0].id in self.ctx.classes and self.ctx.is_module(node.args[0].id)):
            raise _Unknown("partial")
        keywords = []
        for k in node.keywords:
            v = k.value
            if k.arg is not None and isinstance(v, ast.Name) and v.id in self.env \
                    and isinstance(self.env[v.id], (int, float, str, bool, type(None))):
                # a plain local fixed now (open-muse ``partial(LayerNorm, use_bias=use_bias)``)
                v = ast.copy_location(ast.Constant(self.env[v.id]), v)
            elif k.arg is None or not (isinstance(v, ast.Constant) or _layer_name(v) is not None or (
                    isinstance(v, ast.Name) and v.id not in self.env
                    and (v.id in self.ctx.classes or v.id in self.ctx.functions or v.id in self.ctx.consts))):
                raise _Unknown("partial keywords")
            keywords.append(ast.keyword(arg=k.arg, value=v))
        return _Factory(node.args[0], keywords)

    def instance(self, name: str, args: list[Any], kwargs: dict[str, Any]) -> _Mod:
        raise _Unknown("a class")  # ``module_params_nested._Frame`` builds it

    def local_function(self, fn: ast.FunctionDef, node: ast.Call) -> Any:
        raise _Unknown("a function")  # ``module_params_nested._Frame`` runs it

    def local_method(self, fn: ast.FunctionDef, node: ast.Call) -> Any:
        raise _Unknown("a method")  # ``module_params_nested._Frame`` runs it

    @staticmethod
    def unknown(what: str) -> Any:
        raise _Unknown(what)

    def timm_layer(self, name: str, node: ast.Call) -> _Mod:
        return timm_layer(self, name, node)

    def vit(self, args: list[Any], kwargs: dict[str, Any], line: int) -> _Mod:
        return vit(args, kwargs, line)
