"""The assignment half of the module counter's statement interpreter (``module_params_nested._Frame``
adds the statements and calls): what a value stored into a local, onto ``self``, into a namespace module or a
config mapping does to the count, and which helpers and values are plain (never a module). Moved out of
``module_params_nested`` to keep it under the size limit; read from the source, never run."""

from __future__ import annotations

import ast
from typing import Any, Optional, Sequence

from preflight.adapters.module_params import _Unknown
from preflight.adapters.module_params_exprs import _Exprs
from preflight.adapters.module_params_idioms import initialisation_write
from preflight.adapters.module_params_lists import replaces_empty
from preflight.adapters.module_params_values import (
    _UNK,
    _builds,
    _holds_module,
    _Mod,
    _names_set,
    _plain,
    _Tensor,
    _WeightRef,
)

from preflight.analysis.syntax import dotted_name


class _StoreFrame(_Exprs):
    """An ``__init__`` being interpreted, its stores: ``module_params_nested._Frame`` adds the statements."""

    def plain_helper(self, node: ast.AST) -> bool:
        """A call of a function of the file that builds no layer or parameter, with plain arguments: a
        tensor or a value, never a module (MCG-NJU/VideoMAE ``modeling_finetune.py``: ``self.pos_embed =
        get_sinusoid_encoding_table(num_patches, embed_dim)``, a fixed table)."""
        if not isinstance(node, ast.Call):
            return False
        fn: Optional[ast.FunctionDef] = None
        if isinstance(node.func, ast.Name) and self.ctx.plain_class(node.func.id):
            return not any(_builds(a, self.ctx) for a in [*node.args, *(k.value for k in node.keywords)])
        if isinstance(node.func, ast.Name):
            fn = self.ctx.functions.get(node.func.id)
        elif isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
                and node.func.value.id in self.ctx.classes:
            # a static method of a local class (cloneofsimo/minRF ``dit.py:281,335-341``: ``self.freqs_cis =
            # DiT_Llama.precompute_freqs_cis(dim // n_heads, 4096)``, a fixed rotary table)
            fn = next((m for m in self.ctx.classes[node.func.value.id].body if isinstance(m, ast.FunctionDef)
                       and m.name == node.func.attr
                       and any(dotted_name(d) == "staticmethod" for d in m.decorator_list)), None)
        if fn is None or not self.plain_function(fn, set()):
            return False
        return not any(_builds(a, self.ctx) for a in [*node.args, *(k.value for k in node.keywords)])

    def container_of(self, target: ast.expr) -> Optional[_Mod]:
        """The empty ``nn.Module()`` that ``target`` (``scratch.x`` or ``self.scratch.x``) sets an attribute of,
        held by a local not yet handed on, or by ``self``; else None."""
        if not isinstance(target, ast.Attribute):
            return None
        owner = target.value
        held: Any = None
        if isinstance(owner, ast.Name) and owner.id in self.env:
            held = self.env[owner.id]
            if isinstance(held, _Mod) and id(held) in self.taken:
                raise _Unknown("a namespace module changed after it was handed on")
        elif isinstance(owner, ast.Attribute) and isinstance(owner.value, ast.Name) and owner.value.id == "self":
            held = self.attrs.get(owner.attr)
        return held if isinstance(held, _Mod) and "container" in held.facts else None

    def plain_function(self, fn: ast.FunctionDef, seen: set[str]) -> bool:
        """``fn`` builds no layer or parameter, names no local class, and calls only functions of the file
        that are plain too (a table of constructors, ``{"vitl": vit_large}``, is not)."""
        if fn.name in seen or len(seen) > 20:
            return fn.name in seen
        seen.add(fn.name)
        params = {a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]}
        for n in ast.walk(fn):  # something handed in is changed: ``blocks.append(m)`` may put a module into one
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("append", "extend",
                                                                                                "insert"):
                root: ast.AST = n.func.value
                while isinstance(root, (ast.Attribute, ast.Subscript)):
                    root = root.value
                if isinstance(root, ast.Name) and root.id in params:
                    return False
        if _builds(fn, self.ctx, moves=False) or any(isinstance(n, ast.Name) and ((n.id in self.ctx.classes
                                                                      and not self.ctx.plain_class(n.id))
                                                                     or n.id == "Parameter") for n in ast.walk(fn)):
            return False
        return all(self.plain_function(self.ctx.functions[n.id], seen) for n in ast.walk(fn)
                   if isinstance(n, ast.Name) and n.id in self.ctx.functions and n.id != fn.name)

    def add(self, mod: _Mod) -> None:
        self.total += mod.n
        self.layers.extend(mod.layers)

    def assign(self, targets: Sequence[ast.expr], value_node: ast.AST) -> None:
        if initialisation_write(self, targets, value_node):  # module_params_idioms.py
            return
        try:
            value = self.ev(value_node)
        except _Unknown:
            if _builds(value_node, self.ctx):
                raise
            for t in targets:
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self" \
                        and (_plain(value_node) or self.plain_helper(value_node) or self.plain_value(value_node)
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
            if target.attr in self.attrs and isinstance(self.attrs[target.attr], _Mod) \
                    and not replaces_empty(self.attrs[target.attr]):
                raise _Unknown("a submodule replaced")
            if isinstance(value, _Mod):
                self.add(value)
                if "container" in value.facts:
                    value.facts["on_self"] = True  # what is put into it later counts here at once
            self.attrs[target.attr] = value
            return
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                and isinstance(self.env.get(target.value.id), _Mod) and target.attr not in ("weight", "bias") \
                and not _holds_module(value) and not isinstance(value, _Tensor):
            self.env[target.value.id].facts[target.attr] = value  # a plain attribute set on a local module
            return
        if isinstance(target, ast.Subscript) and not isinstance(target.slice, ast.Slice) \
                and not _holds_module(value) and not isinstance(value, _Tensor):
            owner = self.ev(target.value)
            key = self.ev(target.slice)
            if isinstance(owner, dict) and isinstance(key, (str, int)):
                # a key set in a config mapping the class holds (NVIDIA/BigVGAN ``bigvgan.py:270``
                # ``self.h["use_cuda_kernel"] = use_cuda_kernel``)
                owner[key] = value
                return
            if isinstance(owner, _Tensor):
                return  # a write into a plain tensor (detr ``models/detr.py:105`` ``empty_weight[-1] = self.eos_coef``)
        holder = self.container_of(target)
        if holder is not None and isinstance(target, ast.Attribute) and isinstance(value, _Mod) \
                and target.attr not in holder.facts.get("set", ()):
            # a layer put into an empty ``nn.Module()`` used as a namespace (DepthAnything/Depth-Anything-V2
            # ``metric_depth/depth_anything_v2/util/blocks.py:5-26``: ``scratch = nn.Module()``, ``scratch.layer1_rn =
            # nn.Conv2d(...)``; ``dpt.py`` ``self.scratch.refinenet1 = FeatureFusionBlock(...)``)
            holder.facts.setdefault("set", set()).add(target.attr)
            holder.n += value.n
            holder.layers.extend(value.layers)
            if holder.facts.get("on_self"):
                self.total += value.n
                self.layers.extend(value.layers)
            return
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id != "self" \
                and target.attr not in ("weight", "bias") and isinstance(value, (int, float, str, bool, type(None))) \
                and not _holds_module(self.env.get(target.value.id)):
            return  # a flag on a local tensor (Informer models/embed.py:12 ``pe.require_grad = False``): no parameter
        if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id != "self" \
                and not _holds_module(value) and not _holds_module(self.env.get(target.value.id)) \
                and target.value.id in self.env:
            return  # a write into a local tensor (Informer models/embed.py:17 ``pe[:, 0::2] = torch.sin(...)``)
        if isinstance(target, ast.Attribute) and target.attr == "requires_grad" and isinstance(value, bool):
            inner_self: ast.AST = target.value
            while isinstance(inner_self, (ast.Attribute, ast.Subscript)):
                inner_self = inner_self.value
            if isinstance(inner_self, ast.Name) and inner_self.id == "self":
                return  # a frozen weight is still a parameter (KellerJordan/cifar10-airbench ``airbench94_muon.py:186``)
        if isinstance(target, ast.Attribute) and target.attr not in ("weight", "bias") \
                and isinstance(value, (int, float, str, bool, type(None))) and isinstance(target.value, ast.Attribute):
            inner: ast.AST = target.value
            while isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Attribute):
                inner = inner.value  # ``self.transformer.decoder.bbox_embed = None`` (Deformable-DETR :107)
            if isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name) and inner.value.id == "self" \
                    and isinstance(self.attrs.get(inner.attr), _Mod):
                return  # a flag set on a layer (karpathy/llm.c ``train_gpt2.py:141`` ``self.lm_head.LLMC_SKIP_INIT = 1``)
        if isinstance(target, ast.Attribute) and target.attr == "weight" and isinstance(value, _WeightRef):
            tied = self.weight_of(target.value)
            if tied is None or tied != value.size:
                raise _Unknown("tied weight")
            self.total -= tied
            return
        from preflight.adapters.module_params_torchvision import replace_child

        if isinstance(target, ast.Attribute) and replace_child(self, target, value):
            return
        raise _Unknown("assignment target")
