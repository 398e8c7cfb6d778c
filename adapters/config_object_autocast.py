"""``autocast(enabled=E)`` in a function the configuration object reaches, with ``E`` a boolean key of that
object: the training step runs under fp16 autocast when the key is true, in fp32 when it is false (read by
:mod:`preflight.adapters.config_object_reads`; nothing is imported or executed).

facebookresearch/SlowFast @ 287ec00 ``tools/train_net.py:113`` ``with torch.cuda.amp.autocast(
enabled=cfg.TRAIN.MIXED_PRECISION):`` and ``:529`` ``torch.cuda.amp.GradScaler(enabled=cfg.TRAIN.MIXED_PRECISION)``,
``_C.TRAIN.MIXED_PRECISION = False`` (``slowfast/config/defaults.py:171``) not set by the launch line's YAML.
``torch.cuda.amp.autocast`` and ``torch.autocast("cuda")`` cast to fp16 unless ``dtype=`` says otherwise; a
``dtype`` not read, another device, or no ``enabled=`` key leaves the call unread.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.analysis.syntax import dotted_name

_AUTOCAST = ("torch.cuda.amp.autocast", "torch.autocast", "torch.amp.autocast", "amp.autocast")
_DTYPES = {"torch.float16": "amp_fp16", "torch.half": "amp_fp16", "torch.bfloat16": "amp_bf16"}


def _top(module: ast.Module) -> list[ast.stmt]:
    """The module's statements, those of a top-level ``try:`` body included (microsoft/FocalNet @ e8514bd
    ``main.py:29-33`` ``try: from apex import amp`` ``except ImportError: amp = None``)."""
    out: list[ast.stmt] = []
    for node in module.body:
        out.extend(node.body if isinstance(node, ast.Try) else [node])
    return out


def _imported_as(name: str, module: Optional[ast.Module]) -> str:
    """A bare ``autocast`` imported by name (jaywalnut310/vits @ 2e561ba ``train.py:14`` ``from torch.cuda.amp
    import autocast, GradScaler``): its qualified name, else ``name``."""
    if module is None:
        return name
    head, dot, rest = name.partition(".")  # ``from torch.cuda import amp``; ``amp.autocast`` (NVIDIA/flowtron train.py)
    for node in _top(module):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                if (a.asname or a.name) == head:
                    return f"{node.module}.{a.name}{dot}{rest}"
        elif isinstance(node, ast.Import) and dot:
            for a in node.names:  # ``import torch.cuda.amp as amp`` (NVlabs/FourCastNet train.py:58)
                if a.asname == head:
                    return f"{a.name}{dot}{rest}"
    return name


def reexported(name: str, modules: Any) -> str:
    """``name`` a project module's re-export of another module's name, one level (microsoft/GLIP @ 9dda955
    ``maskrcnn_benchmark/utils/amp.py:7-8`` ``try: from torch.cuda.amp import autocast, GradScaler, ...``, its
    ``except`` arm a ``nullcontext`` stand-in for a torch without amp): the name it re-exports, else ``name``."""
    mod, dot, attr = name.rpartition(".")
    if not dot or modules is None:
        return name
    rel = mod.replace(".", "/")
    paths = {p: t for _, p, t in modules.trees}
    for base in modules.bases:
        for cand in (base / f"{rel}.py", base / rel / "__init__.py"):
            tree = paths.get(cand.resolve()) if cand.is_file() else None
            if tree is not None:
                for node in _top(tree):
                    if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                        for a in node.names:
                            if (a.asname or a.name) == attr:
                                return f"{node.module}.{a.name}"
                return name
    return name


def autocast_switch(call: ast.Call, reader: Any, shown: str,
                    module: Optional[ast.Module] = None, modules: Any = None) -> Optional[tuple[str, Any, tuple, str]]:
    """(field, value, the key's path, detail), or None; ``module``: the module of the call, for its imports;
    ``modules``: the project's modules, for a re-export (:func:`reexported`)."""
    name = reexported(_imported_as(dotted_name(call.func) or "", module), modules)
    if name not in _AUTOCAST:
        return None
    kwargs = {k.arg: k.value for k in call.keywords if k.arg is not None}
    if name == "torch.cuda.amp.autocast" and call.args and "enabled" not in kwargs \
            and not isinstance(call.args[0], ast.Starred):
        # ``torch.cuda.amp.autocast(enabled=True, dtype=torch.float16, cache_enabled=True)``: the first
        # positional argument is ``enabled`` (NVlabs/FourCastNet ``train.py:272`` ``with
        # amp.autocast(self.params.enable_amp):``, ``from torch.cuda import amp``)
        kwargs["enabled"] = call.args[0]
    if any(k.arg is None for k in call.keywords) or "enabled" not in kwargs:
        return None
    device = kwargs.get("device_type", call.args[0] if call.args else None)
    if name != "torch.cuda.amp.autocast" and not (isinstance(device, ast.Constant) and device.value == "cuda"):
        return None
    dtype = kwargs.get("dtype")
    if isinstance(dtype, ast.Name) and len(reader.assigns.get(dtype.id, [])) == 1:
        dtype = reader.assigns[dtype.id][0]  # ``dtype=dtype`` bound in the arm a key took (config_object_chain_arm)
    mode = "amp_fp16" if dtype is None else _DTYPES.get(dotted_name(dtype) or "")
    got = reader.ev(kwargs["enabled"])
    if mode is None or got is None or got.path is None or not isinstance(got.value, bool):
        return None
    key = ".".join(got.path)
    if got.value:
        return "precision.mode", mode, got.path, f"{key} = True turns on {name}(...) ({shown}:{call.lineno})"
    return ("precision.mode", "fp32", got.path,
            f"{key} = False turns off {name}(...) ({shown}:{call.lineno}): the step runs in fp32")


def guarded_autocast(call: ast.Call, parents: dict[int, ast.AST], reader: Any, shown: str,
                     module: Optional[ast.Module] = None, modules: Any = None) -> Optional[tuple[str, Any, tuple, str]]:
    """``if E: with autocast(): ...`` with ``E`` a boolean key of the object (zhouhaoyi/Informer2020 @ 29f2a73
    ``exp/exp_informer.py:273-274`` ``if self.args.use_amp: with torch.cuda.amp.autocast():``, ``--use_amp``
    off by default): the key turns the autocast on or off, as ``enabled=E`` does above. Only an autocast without
    ``enabled=``, whose every enclosing ``if`` in the function is decided, one of them by a plain read of a
    boolean key; (field, value, the key's path, detail), else None."""
    name = reexported(_imported_as(dotted_name(call.func) or "", module), modules)
    if name not in _AUTOCAST or any(k.arg in (None, "enabled") for k in call.keywords) \
            or (name == "torch.cuda.amp.autocast" and call.args):  # ``enabled`` given by position
        return None
    kwargs = {k.arg: k.value for k in call.keywords if k.arg is not None}
    device = kwargs.get("device_type", call.args[0] if call.args else None)
    if name != "torch.cuda.amp.autocast" and not (isinstance(device, ast.Constant) and device.value == "cuda"):
        return None
    dtype = kwargs.get("dtype")
    mode = "amp_fp16" if dtype is None else _DTYPES.get(dotted_name(dtype) or "")
    if mode is None:
        return None
    runs = True
    key: Optional[tuple] = None
    other_arm: list[ast.stmt] = []  # the arm the key's ``if`` takes instead of the autocast's
    child: ast.AST = call
    parent = parents.get(id(call))
    while parent is not None:
        if isinstance(parent, ast.If) and child is not parent.test:
            decided = reader.test(parent.test)
            if decided is None:
                return None
            in_body = any(child is s for s in parent.body)
            runs = runs and decided == in_body
            if key is None and isinstance(parent.test, (ast.Attribute, ast.Name, ast.Subscript)):
                got = reader.ev(parent.test)
                if got is not None and got.path is not None and isinstance(got.value, bool):
                    key = got.path
                    other_arm = parent.orelse if in_body else parent.body
        child, parent = parent, parents.get(id(parent))
    if key is None:
        return None
    if not runs and any(isinstance(n, ast.Call) and (dotted_name(n.func) or "").rsplit(".", 1)[-1] == "autocast"
                        for stmt in other_arm for n in ast.walk(stmt)):
        return None  # ``if fp16: autocast(float16) else: autocast(bfloat16)``: off is not fp32
    shown_key = ".".join(key)
    if runs:
        return "precision.mode", mode, key, f"{shown_key} = True runs {name}(...) ({shown}:{call.lineno})"
    return ("precision.mode", "fp32", key,
            f"{shown_key} = False skips {name}(...) ({shown}:{call.lineno}): the step runs in fp32")


_NULLS = ("nullcontext", "contextlib.nullcontext", "null_context", "suppress", "contextlib.suppress")


def switched_context(node: ast.IfExp, reader: Any, shown: str,
                     module: Optional[ast.Module] = None) -> Optional[tuple[str, Any, tuple, str]]:
    """``partial(autocast, 'cuda') if E else null_context`` with ``E`` a boolean key of the object: the context
    the step enters is autocast (fp16 unless ``dtype=``) when the key is true, a no-op (fp32) when it is false
    (lucidrains/lightweight-gan @ efbec45 ``lightweight_gan/lightweight_gan.py:1227`` ``amp_context =
    partial(autocast, 'cuda') if self.amp else null_context``, then ``with amp_context():``, ``self.amp`` the
    fire option ``--amp`` (``cli.py:117`` default False)). One arm must be ``partial(AUTOCAST, 'cuda', ...)``
    (``device_type='cuda'``), the other a null context (a project ``null_context`` or ``contextlib.nullcontext``);
    (field, value, the key's path, detail), else None."""
    arms = [node.body, node.orelse]
    cuda = "torch.cuda.amp.autocast"  # cuda and fp16 by default; ``autocast if self.amp else null_context`` with
    # ``from torch.cuda.amp import autocast`` (lucidrains/stylegan2-pytorch, lucidrains/lightweight-gan before torch.amp)
    cast = [a for a in arms if (isinstance(a, ast.Call) and (dotted_name(a.func) or "").rsplit(".", 1)[-1] == "partial"
                                and a.args and _imported_as(dotted_name(a.args[0]) or "", module) in _AUTOCAST)
            or (isinstance(a, (ast.Name, ast.Attribute)) and _imported_as(dotted_name(a) or "", module) == cuda)]
    null = [a for a in arms if (dotted_name(a.func if isinstance(a, ast.Call) else a) or "") in _NULLS
            and not (isinstance(a, ast.Call) and (a.args or a.keywords))]
    if len(cast) != 1 or len(null) != 1:
        return None
    call = cast[0] if isinstance(cast[0], ast.Call) else ast.Call(func=ast.Name(id="partial"), args=[cast[0]], keywords=[])
    if any(k.arg is None or k.arg == "enabled" for k in call.keywords):
        return None
    kwargs = {k.arg: k.value for k in call.keywords if k.arg is not None}
    device = kwargs.get("device_type", call.args[1] if len(call.args) > 1 else None)
    on_cuda = isinstance(device, ast.Constant) and device.value == "cuda"
    if _imported_as(dotted_name(call.args[0]) or "", module) == cuda:
        on_cuda = device is None and len(call.args) == 1
    if not on_cuda or len(call.args) > 2:
        return None
    dtype = kwargs.get("dtype")
    mode = "amp_fp16" if dtype is None else _DTYPES.get(dotted_name(dtype) or "")
    got = reader.ev(node.test)
    if mode is None or got is None or got.path is None or not isinstance(got.value, bool):
        return None
    key = ".".join(got.path)
    if got.value == (node.body is cast[0]):
        return "precision.mode", mode, got.path, f"{key} = {got.value} picks autocast as the step's context ({shown}:{node.lineno})"
    return ("precision.mode", "fp32", got.path,
            f"{key} = {got.value} picks a null context over autocast ({shown}:{node.lineno}): the step runs in fp32")
