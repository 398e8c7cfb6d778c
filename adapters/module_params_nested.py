"""The parameter count of project models of several classes (GPT-style: blocks repeated, sizes
from a config dict), read from their source, never imported or executed.

``count_module`` interprets a class's ``__init__`` statement by statement, never running it: the
layers ``module_params`` counts, ``nn.MultiheadAttention``/``nn.RMSNorm``, ``nn.Parameter(torch.zeros(...))``, other
``nn.Module`` classes of the same file (recursively, with their arguments bound), repeats
(``nn.Sequential(*[Block(cfg) for _ in range(cfg["n_layers"])])``, ``nn.ModuleList([...])``,
``for i in range(n): self.blocks.append(...)``), ``nn.ModuleDict(dict(...))``, ``setattr(self, f"stage{i + 1}", m)`` with a known name (jobs78), sizes read from a
config dict (``cfg["emb_dim"]``, ``cfg.get(k, d)``) or computed into locals, ``if`` tests decided
from these values, and one tied weight (``self.head.weight = self.emb.weight``). Also (jobs29): functions
of the file and methods of the class run with their arguments for what they return (``conv_nd(dims, ...)``,
``self._make_layer(...)`` updating ``self.inplanes``), ``copy.deepcopy`` clones, subclasses of a torch
layer (``class GroupNorm32(nn.GroupNorm)``), class attributes (``block.expansion``), ``enumerate``/``zip``/
slices/``list.pop()`` in size loops, timm's ``Block``; ``module_params_imports`` adds the classes of the
project modules a model module imports. Anything it cannot follow (a call it does not know, a layer under
an undecided test, a module handed in as an argument) makes the whole count unknown.
"""

from __future__ import annotations

import ast
from typing import Any, Optional, Sequence

from preflight.adapters.module_params import _Unknown
from preflight.adapters.module_params_args import argument_value
from preflight.adapters.module_params_binding import bind_arguments, plain_parameters
from preflight.adapters.module_params_idioms import local_dict_update, setattr_on_self
from preflight.adapters.module_params_lists import augmented, local_list_append
from preflight.adapters.module_params_store import _StoreFrame
from preflight.adapters.module_params_torch import torch_layer
from preflight.adapters.module_params_values import (
    _DEPTH,
    _NOOP_CALLS,
    _UNK,
    _builds,
    _Ctx,
    _holds_module,
    _in_place_init,
    _Mod,
    _names_set,
    _sets_self,
    _Tensor,
    _WeightRef,
    layer_factory,
    torch_layer_base,
)

from preflight.analysis.syntax import dotted_name

__all__ = ["UNKNOWN", "argument_value", "count_class", "count_module", "layer_factory"]


class _Frame(_StoreFrame):
    """One ``__init__`` being interpreted: the statements (the expressions are ``_Exprs``'s, the stores
    ``module_params_store._StoreFrame``'s)."""

    env: dict[str, Any]
    returning: bool
    taken: dict[int, _Mod]

    # -- statements ----------------------------------------------------------------------------------
    def run(self, body: list[ast.stmt]) -> bool:
        """Interpret ``body``; False when a ``return`` ended it."""
        for stmt in body:
            self.ctx.tick()
            if isinstance(stmt, (ast.Pass, ast.Assert, ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal)):
                continue
            if isinstance(stmt, (ast.Break, ast.Continue)):
                raise _Break("break") if isinstance(stmt, ast.Break) else _Continue("continue")
            if isinstance(stmt, ast.Return):
                if self.returning:
                    self.returned = self.ev(stmt.value) if stmt.value is not None else None
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
                        self.env[stmt.target.id] = augmented(self, stmt)  # a list of layers: module_params_lists
                    except _Unknown:
                        if _builds(stmt.value, self.ctx):
                            raise
                        self.env[stmt.target.id] = _UNK
                elif isinstance(stmt.target, ast.Subscript) and isinstance(stmt.target.value, ast.Name) \
                        and (self.env.get(stmt.target.value.id, None) is _UNK
                             or isinstance(self.env.get(stmt.target.value.id), _Tensor)) \
                        and not _builds(stmt.value, self.ctx):
                    continue  # a write into a tensor being computed (Swin's relative position index)
                elif isinstance(stmt.target, ast.Attribute) and isinstance(stmt.target.value, ast.Name) \
                        and stmt.target.value.id == "self" and stmt.target.attr in self.attrs \
                        and not _holds_module(self.attrs[stmt.target.attr]) and not _builds(stmt.value, self.ctx):
                    # a plain size kept on ``self`` (openai/guided-diffusion ``unet.py:512`` ``self._feature_size += ch``)
                    try:
                        self.attrs[stmt.target.attr] = self.ev(ast.BinOp(stmt.target, stmt.op, stmt.value))
                    except _Unknown:
                        self.attrs[stmt.target.attr] = _UNK
                else:
                    raise _Unknown("augmented assignment")
            elif isinstance(stmt, ast.With) and len(stmt.items) == 1 and stmt.items[0].optional_vars is None \
                    and isinstance(stmt.items[0].context_expr, ast.Call) \
                    and (dotted_name(stmt.items[0].context_expr.func) or "") in _NO_GRAD:
                if not self.run(stmt.body):  # ``with torch.no_grad():`` around an initialisation
                    return False
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
                if not isinstance(stmt.target, (ast.Name, ast.Tuple, ast.List)):
                    raise _Unknown("for target")
                for v in values:
                    self.bind_target(stmt.target, v)
                    try:
                        if not self.run(stmt.body):
                            return False
                    except _Continue:
                        continue
                    except _Break:  # poolformer ``models/poolformer.py:289-290``: ``if i >= len(layers) - 1: break``
                        break
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
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                and isinstance(self.env.get(func.value.id), _Mod) and func.attr in _MOVES:
            return  # ``criterion.to(device)``: a local module moved or switched, its parameters unchanged
        if local_dict_update(self, value) or setattr_on_self(self, value):  # module_params_idioms.py
            return
        if local_list_append(self, value):  # module_params_lists.py
            return
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
            if func.attr in ("apply", "register_buffer", "register_to_config", "save_hyperparameters"):
                return  # diffusers-style ``ConfigMixin.register_to_config``, Lightning's: a record of the arguments
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
            if method is not None:
                self.local_method(method, value)  # a method that builds layers onto ``self``
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
        if _in_place_init(func, lambda name: isinstance(self.env.get(name), _Mod)):
            return
        if isinstance(func, ast.Name) and func.id in self.env.get("__plain__", ()) \
                and not any(isinstance(n, ast.Name) and (n.id == "self" or isinstance(self.env.get(n.id), _Mod))
                            for n in ast.walk(value)):
            # a function handed in as a plain value, its result dropped, given neither ``self`` nor a module
            # (Tencent/HunyuanDiT ``hydit/modules/models.py:297,362`` ``log_fn(f"    Number of tokens: ...")``)
            return
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Attribute) \
                and isinstance(func.value.value, ast.Name) and func.value.value.id == "self" \
                and self.attrs.get(func.value.attr, None) is _UNK and not _builds(value, self.ctx):
            return  # a method of a plain object held on self (llm.c ``self.init_rng.manual_seed(42)``)
        if name in self.ctx.timm and self.ctx.timm[name] in ("trunc_normal_", "lecun_normal_", "variance_scaling_"):
            return  # timm's in-place initialisers (``timm/layers/weight_init.py``): values, never shapes
        if isinstance(func, ast.Name) and func.id in ("trunc_normal_", "lecun_normal_") and func.id in self.ctx.functions:
            return  # a project's copy of timm's initialiser (baofff/U-ViT ``libs/timm.py:41``, ``libs/uvit.py:185``)
        if ".init." in f".{name}" or name.startswith(("init.", "nn.init.", "torch.nn.init.")) \
                or name.rsplit(".", 1)[-1] in _NOOP_CALLS or name.startswith(("logger.", "logging.", "warnings.")) \
                or name in self.ctx.inits:
            return
        raise _Unknown(f"call {name}")

    def super_init(self, call: ast.Call, args: list[ast.expr], base: Optional[str] = None) -> None:
        cls_bases = self.env.get("__bases__", ())
        layer = torch_layer_base(cls_bases[0]) if cls_bases else None
        if layer is not None and base in (None, cls_bases[0]):
            # a subclass of a torch layer (karpathy/nanochat ``nanochat/gpt.py`` ``class Linear(nn.Linear)``):
            # the layer its ``super().__init__`` builds
            fake = ast.Call(func=call.func, args=args, keywords=call.keywords)
            posargs, kwargs = self.bound_args(fake)
            built = torch_layer(layer, posargs, kwargs, call.lineno)
            self.add(built)
            if "" in built.weights:
                self.attrs.setdefault("weight", _WeightRef(built.weights[""]))
            return
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
        for handed in [*posargs, *kwargs.values()]:
            if isinstance(handed, _Mod):  # handed to the base's __init__ in this same frame: used there, once
                self.taken.pop(id(handed), None)
        _run_init(self.ctx, local[0], posargs, kwargs, self)

    def instance(self, name: str, args: list[Any], kwargs: dict[str, Any]) -> _Mod:
        return _instance(self.ctx, name, args, kwargs, self.depth + 1)

    def local_function(self, fn: ast.FunctionDef, node: ast.Call) -> Any:
        """What a function of the file (or of a project module it imports) returns, run with these arguments
        in a frame of its own (openai/improved-diffusion ``improved_diffusion/nn.py``: ``def conv_nd(dims, *args,
        **kwargs): if dims == 1: return nn.Conv1d(*args, **kwargs) ...``, ``def zero_module(module): for p in
        module.parameters(): p.detach().zero_(); return module``): the modules it returns are counted where
        they reach ``self``. One that sets attributes, or ends without deciding its ``return``: unknown."""
        if fn.decorator_list or isinstance(fn, ast.AsyncFunctionDef):
            raise _Unknown("a decorated function")
        args, kwargs = self.bound_args(node)
        if self.depth + 1 > _DEPTH:
            raise _Unknown("too deep")
        frame = _Frame(self.ctx, {}, self.depth + 1)
        env = _bind(self.ctx, fn, args, kwargs, 0)
        env["__plain__"] = {k for k, v in env.items() if v is _UNK}
        frame.env = env
        frame.returning = True
        if frame.run(fn.body) or frame.attrs or frame.total:
            raise _Unknown("a function without a return, or one that sets attributes")
        return frame.returned

    def local_method(self, fn: ast.FunctionDef, node: ast.Call) -> Any:
        """What a method of the class returns, run on this ``self`` (pytorch/vision ``resnet.py`` style
        ``self.layer1 = self._make_layer(block, 64, layers[0])``, which reads and sets ``self.inplanes``):
        the attributes it sets are this module's; the modules it returns count where they reach ``self``."""
        if fn.decorator_list:
            raise _Unknown("a decorated method")
        args, kwargs = self.bound_args(node)
        env = _bind(self.ctx, fn, args, kwargs, 1)
        env["__plain__"] = {k for k, v in env.items() if v is _UNK}
        for key in ("__bases__", "__cls__"):
            if key in self.env:
                env[key] = self.env[key]
        saved = (self.env, self.returning, self.returned, self.taken)
        self.env = env
        self.returning = True
        self.returned = None
        self.taken = {}
        try:
            if self.run(fn.body):
                self.returned = None  # ran to its end: returns None
            return self.returned
        finally:
            self.env = saved[0]
            self.returning = saved[1]
            self.returned = saved[2]
            self.taken = saved[3]



_NO_GRAD = ("torch.no_grad", "no_grad", "torch.inference_mode", "torch.enable_grad")
_MOVES = ("to", "cuda", "cpu", "train", "eval", "float", "half", "bfloat16", "double", "requires_grad_")


class _Break(_Unknown):
    """``break`` in a loop body (outside a loop: an unknown)."""


class _Continue(_Unknown):
    """``continue`` in a loop body (outside a loop: an unknown)."""


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
        layer = torch_layer_base(bases[0]) if bases else None
        if layer is not None and all(_no_init(ctx, b) for b in bases[1:]):
            # a torch layer with a forward of its own (openai/improved-diffusion ``unet.py:35``
            # ``class TimestepEmbedSequential(nn.Sequential, TimestepBlock)``, ``nn.py:17`` ``class
            # GroupNorm32(nn.GroupNorm)``): the layer's ``__init__``, the other bases adding none
            frame.add(torch_layer(layer, args, kwargs, cls.lineno))
            return
        raise _Unknown("no __init__")
    env = _bind_init(ctx, init, args, kwargs)
    # arguments not known, from a call this interpreter made: plain values (``soft`` checked them); the
    # caller of ``count_module`` may hand in anything as UNKNOWN, so its arguments are not
    env["__plain__"] = {k for k, v in env.items() if v is _UNK} if frame.depth > 0 \
        else {k for k in ctx.top_plain | plain_parameters(init) if env.get(k) is _UNK}
    env["__bases__"] = tuple(b for b in (dotted_name(x) for x in cls.bases) if b is not None)
    env["__cls__"] = name
    saved = frame.env
    frame.env = env
    try:
        frame.run(init.body)
    finally:
        frame.env = saved


def _no_init(ctx: _Ctx, name: Optional[str]) -> bool:
    """A base class that sets nothing up: ``nn.Module``, or a local class with no ``__init__`` whose bases
    are such classes (improved-diffusion ``TimestepBlock``: an abstract ``forward`` only)."""
    if name in ("nn.Module", "torch.nn.Module", "Module"):
        return True
    cls = ctx.classes.get(name or "")
    if cls is None or any(isinstance(n, ast.FunctionDef) and n.name == "__init__" for n in cls.body):
        return False
    return all(_no_init(ctx, dotted_name(b)) for b in cls.bases)


def _bind_init(ctx: _Ctx, init: ast.FunctionDef, args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    return _bind(ctx, init, args, kwargs, 1)


def _bind(ctx: _Ctx, init: ast.FunctionDef, args: list[Any], kwargs: dict[str, Any], skip: int) -> dict[str, Any]:
    """The locals a call binds (:func:`preflight.adapters.module_params_binding.bind_arguments`); defaults are
    evaluated in a fresh frame of this interpreter."""
    return bind_arguments(init, args, kwargs, skip, _Frame(ctx, {}, _DEPTH).ev)


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
                 kwargs: Optional[dict[str, Any]] = None,
                 plain: Sequence[str] = ()) -> Optional[tuple[int, list[str]]]:
    """(parameter count, layer descriptions) of the local ``nn.Module`` class ``name`` of ``tree``
    built with these arguments (``UNKNOWN`` for one not known), interpreted as the module comment
    above says; None when anything on the way is not followed. ``plain``: keywords the caller knows
    hold no module (a logging function handed in), though their values are not known."""
    ctx = _Ctx(tree)
    ctx.top_plain = frozenset(plain)
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
