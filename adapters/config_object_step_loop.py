"""Three shapes of a hand-written (nanoGPT-family) training loop whose sizes come from a configuration
object the value_flow adapter follows (:mod:`preflight.adapters.config_object_reads`), each read
medium with the key's line; nothing is imported or executed.

vayvi/modded-nanogpt-SOAP-pom @ 7b5d2ff ``train.py`` under ``@hydra.main`` (``config/config.yaml``
``training:``/``hardware:`` sections, overridden on the launch line ``training.batch_size=48
training.accumulation=2``):

- **micro-step loop**: ``for _ in range(cfg.training.accumulation): ... loss.backward()`` (:478-483)
  inside the step loop, no optimizer step / ``zero_grad`` / ``no_sync`` in it (the shape
  :mod:`preflight.adapters.micro_loop` reads when the count is a script value):
  ``batch.grad_accum`` = the key's value;
- **positional loader batch**: ``DistributedDataLoader(cfg.data.train.input_bin, cfg.training.batch_size,
  cfg.training.sequence_length, rank, world)`` (:275-281), a project class named ``...Loader`` whose
  ``__init__`` takes the batch as ``B`` or ``batch_size`` (``data/distributed_loader.py:41``, the
  KellerJordan/modded-nanogpt and karpathy/llm.c ``train_gpt2.py`` loader): ``batch.micro`` per process;
- **autocast dtype from a key**: ``torch.amp.autocast(device_type='cuda', dtype=getattr(torch,
  cfg.hardware.dtype))`` (:323) with the key ``"bfloat16"``/``"float16"``: ``precision.mode``
  ``amp_bf16``/``amp_fp16``, unless the same expression also casts something (``.to(...)``), which
  would make the weights 16-bit too.

- **a Lightning Trainer built in a project module** the object reaches (williamconvertino/icl-for-language-modeling
  @ c230466 ``src/util/training.py:55-64`` ``Trainer(max_epochs=..., strategy=strategy, precision=precision, ...)``
  with ``precision=args.precision``, called from ``main.py:74`` ``train_model(model, args, splits, tokenizer)``; the
  Lightning adapter reads the entry script's own Trainer only): ``precision=E`` with ``E`` a key ->
  ``precision.mode`` as Lightning maps it; no ``accumulate_grad_batches`` (and no ``**kwargs``, no
  ``GradientAccumulationScheduler`` named in the module) -> ``batch.grad_accum`` 1, Lightning's default; the
  ``LightningModule`` of the project that the same function builds and hands to ``trainer.fit`` (``:24,69``
  ``LightningWrapper(...)``, ``src/util/lightning.py:57`` ``torch.optim.AdamW`` in ``configure_optimizers``) ->
  ``optimizer.name`` when that method builds one optimizer class.

- **an optimizer-class selector**: a function every ``return`` of which gives a ``torch.optim`` class
  (KangHoML/VLSI @ 239d59d ``2024-03-22/train.py:76-84`` ``def get_optimizer(): if args.optimizer == 'SGD':
  return SGD elif ... 'RMSprop': return RMSprop else: raise``, then ``:130-131`` ``optimizer_type(net.parameters(),
  ...)``): the one ``return`` the object's values take -> ``optimizer.name``.

A loop or call under an ``if`` the values do not decide to run is not read (the caller checks).
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.analysis.syntax import dotted_name

_AUTOCAST = ("torch.autocast", "torch.amp.autocast", "torch.cuda.amp.autocast")
_KEY_DTYPES = {"bfloat16": "amp_bf16", "bf16": "amp_bf16", "float16": "amp_fp16", "half": "amp_fp16",
               "fp16": "amp_fp16"}
_BATCH_PARAMS = ("B", "batch_size")


def _int(got: Any) -> bool:
    return got is not None and got.path is not None and isinstance(got.value, int) \
        and not isinstance(got.value, bool) and got.value >= 1


def micro_step_count(fn: ast.AST, reader: Any, runs: Any) -> Optional[tuple[int, tuple, int]]:
    """(K, the key's path, line) of the micro-step loops of ``fn`` that run, all counting by one key."""
    from preflight.adapters.micro_loop import _micro_loops

    found = []
    for loop in _micro_loops(fn):
        if not runs(loop):
            continue
        assert isinstance(loop.iter, ast.Call)
        got = reader.ev(loop.iter.args[0])
        if not _int(got):
            return None  # a loop counting by something else: which one trains is not read
        found.append((got.value, tuple(got.path), loop.lineno))
    if not found or len({(f[0], f[1]) for f in found}) != 1:
        return None
    return found[-1]


def positional_loader_batch(call: ast.Call, reader: Any, modules: Any, shown: str) -> Optional[tuple[int, tuple]]:
    """(B, the key's path) when ``call`` builds a project ``...Loader`` class positionally with its batch."""
    name = dotted_name(call.func) or ""
    short = name.rsplit(".", 1)[-1]
    if not short.endswith("Loader") or any(k.arg in ("batch_size", "B", None) for k in call.keywords):
        return None
    got_cls = modules.klass_seen(short, shown) if hasattr(modules, "klass_seen") else modules.klass(short)
    if got_cls is None:
        return None
    init = next((n for n in got_cls[1].body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if init is None or init.args.vararg is not None:
        return None
    params = [a.arg for a in init.args.posonlyargs + init.args.args][1:]
    index = next((i for i, p in enumerate(params) if p in _BATCH_PARAMS), None)
    if index is None or index >= len(call.args) or any(isinstance(a, ast.Starred) for a in call.args[:index + 1]):
        return None
    got = reader.ev(call.args[index])
    if not _int(got):
        return None
    return got.value, tuple(got.path)


def autocast_key_dtype(call: ast.Call, fn_nodes: list, reader: Any) -> Optional[tuple[str, tuple, str]]:
    """(mode, the key's path, key value) for ``autocast(device_type='cuda', dtype=getattr(torch, E))``
    (or ``dtype=E``) with ``E`` a key naming a 16-bit dtype, no ``enabled=`` (read elsewhere)."""
    if (dotted_name(call.func) or "") not in _AUTOCAST:
        return None
    kwargs = {k.arg: k.value for k in call.keywords}
    if None in kwargs or "enabled" in kwargs or "dtype" not in kwargs:
        return None
    device = kwargs.get("device_type", call.args[0] if call.args else None)
    if (dotted_name(call.func) or "") != "torch.cuda.amp.autocast" \
            and not (isinstance(device, ast.Constant) and device.value == "cuda"):
        return None
    dtype = kwargs["dtype"]
    if isinstance(dtype, ast.Call) and isinstance(dtype.func, ast.Name) and dtype.func.id == "getattr" \
            and len(dtype.args) == 2 and isinstance(dtype.args[0], ast.Name) and dtype.args[0].id == "torch":
        key = dtype.args[1]
    else:
        key = dtype
    got = reader.ev(key)
    if got is None or got.path is None or not isinstance(got.value, str) or got.value not in _KEY_DTYPES:
        return None
    text = ast.unparse(key)
    for node in fn_nodes:  # the same key also casts the model (``model.to(getattr(torch, cfg.dtype))``)
        if isinstance(node, ast.Call) and node is not call and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("to", "type") \
                and any(text in ast.unparse(a) for a in [*node.args, *(k.value for k in node.keywords)]):
            return None
    return _KEY_DTYPES[got.value], tuple(got.path), got.value


_TRAINERS = ("pytorch_lightning.Trainer", "lightning.pytorch.Trainer", "lightning.Trainer",
             "pytorch_lightning.trainer.Trainer", "lightning.pytorch.trainer.Trainer",
             "pytorch_lightning.trainer.trainer.Trainer")


def lightning_trainer(call: ast.Call, reader: Any, module: Optional[ast.Module]) -> list[tuple[str, Any, Any, str]]:
    """(field, value, the key's path or None, detail) of a Lightning ``Trainer(...)`` call in a project module."""
    from preflight.adapters.import_names import import_names
    from preflight.adapters.lightning_pass import _PRECISION

    if module is None:
        return []
    name = dotted_name(call.func) or ""
    head, dot, rest = name.partition(".")
    imports = import_names(module.body)
    qualified = f"{imports.get(head, head)}{dot}{rest}"
    if qualified not in _TRAINERS or call.args or any(k.arg is None for k in call.keywords):
        return []
    kwargs = {k.arg: k.value for k in call.keywords}
    out: list[tuple[str, Any, Any, str]] = []
    if "precision" in kwargs:
        got = reader.ev(kwargs["precision"])
        accel = reader.ev(kwargs["accelerator"]) if "accelerator" in kwargs else None
        on_cpu = accel is not None and accel.value == "cpu"
        if got is not None and got.path is not None and not isinstance(got.value, bool) \
                and isinstance(got.value, (str, int)) and _PRECISION.get(got.value) is not None and not on_cpu:
            out.append(("precision.mode", _PRECISION[got.value], tuple(got.path),
                        f"Trainer(precision={'.'.join(map(str, got.path))}) = {got.value!r} (line {call.lineno})"))
    text = ast.unparse(module)
    if "accumulate_grad_batches" not in kwargs and "GradientAccumulationScheduler" not in text \
            and "accumulate_grad_batches" not in text:
        out.append(("batch.grad_accum", 1, None,
                    f"Trainer(...) without accumulate_grad_batches (line {call.lineno}): Lightning's default 1"))
    return out


def fit_module_optimizer(nodes: list, modules: Any, shown: str) -> Optional[tuple[str, str, int, str]]:
    """(optimizer class, module shown, line, class name) of the project ``LightningModule`` built in the
    function (``m = Cls(...)``, bound once) and given to ``X.fit(m, ...)``, whose ``configure_optimizers``
    builds one optimizer class."""
    from preflight.adapters.import_names import import_names
    from preflight.adapters.lightning_local import _BASES, _LIGHTNING, _optimizer

    binds: dict[str, list[ast.AST]] = {}
    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            binds.setdefault(node.targets[0].id, []).append(node.value)
    fitted = set()
    for node in nodes:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "fit":
            first = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "model"), None)
            if isinstance(first, ast.Name):
                fitted.add(first.id)
    found = set()
    for name in fitted:
        bound = binds.get(name, [])
        if len(bound) != 1 or not isinstance(bound[0], ast.Call) or not isinstance(bound[0].func, ast.Name):
            return None
        got = modules.klass_seen(bound[0].func.id, shown)
        if got is None:
            return None
        where, cls = got
        tree = next((t for s, _, t in modules.trees if s == where), None)
        if tree is None:
            return None
        imports = import_names(tree.body)
        bases = []
        for base in cls.bases:
            text = dotted_name(base) or ""
            head, dot, rest = text.partition(".")
            bases.append(f"{imports.get(head, head)}{dot}{rest}")
        if not any(b.rsplit(".", 1)[-1] in _BASES and b.split(".")[0] in _LIGHTNING for b in bases):
            return None
        opt = _optimizer(tree, cls)
        if opt is None:
            return None
        found.add((opt[0], where, opt[1], cls.name))
    return next(iter(found)) if len(found) == 1 else None


def optimizer_selector(fn: ast.AST, nodes: list, parents: dict, reader: Any, runs: Any,
                       module: Optional[ast.Module]) -> Optional[tuple[str, tuple, str, int]]:
    """(class, the deciding key's path, its value, line) of the ``return`` taken in a function whose every
    ``return`` gives a ``torch.optim`` class (two at least), each under an ``if``."""
    from preflight.adapters.config_object_arms import _OPTIMIZERS
    from preflight.adapters.import_names import import_names

    if module is None or not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    returns = [n for n in nodes if isinstance(n, ast.Return)]
    if len(returns) < 2:
        return None
    imports = import_names(module.body)
    names = []
    for ret in returns:
        text = dotted_name(ret.value) if ret.value is not None else None
        if not text:
            return None
        head, dot, rest = text.partition(".")
        qualified = f"{imports.get(head, head)}{dot}{rest}"
        parts = qualified.split(".")
        if parts[-1] not in _OPTIMIZERS or parts[:2] != ["torch", "optim"]:
            return None
        names.append(parts[-1])
    taken = [(ret, name) for ret, name in zip(returns, names) if runs(ret)]
    if len(taken) != 1:
        return None
    ret, name = taken[0]
    guard = parents.get(id(ret))
    while guard is not None and not isinstance(guard, ast.If):
        guard = parents.get(id(guard))
    if guard is None:
        return None
    for sub in ast.walk(guard.test):
        got = reader.ev(sub) if isinstance(sub, (ast.Name, ast.Attribute, ast.Subscript)) else None
        if got is not None and got.path is not None and isinstance(got.value, str):
            return name, tuple(got.path), got.value, ret.lineno
    return None
