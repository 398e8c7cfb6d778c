"""A framework object built in the arm of an ``if/elif`` that a configuration object's values take
(:mod:`preflight.adapters.config_object_reads` decides the arm with ``_runs``; these say what the arm
builds and which key decided it). Each returns ``(field, value, path, detail)`` or None.

* ``DDP(model)`` (allenai/OLMo @ 59a53e3 ``scripts/train.py``: ``if cfg.distributed_strategy ==
  DistributedStrategy.ddp:``) or ``FSDP(model, ...)`` (its ``sharding_strategy``, FULL_SHARD by default);
* a torch optimizer (microsoft/Swin-Transformer @ f82860b ``optimizer.py:42-47``: ``opt_lower =
  config.TRAIN.OPTIMIZER.NAME.lower()`` then ``elif opt_lower == 'adamw': optim.AdamW(...)``; SWivid/F5-TTS
  @ 2ae2c9b ``src/f5_tts/model/trainer.py:136-143``: ``if bnb_optimizer: ... else: AdamW(...)`` with the
  switch a key of the Hydra config handed to the project's ``Trainer``).
"""

from __future__ import annotations

import ast
import re
from typing import Any, Optional

from preflight.analysis.syntax import dotted_name
from preflight.sources import read_text_limited

_OPTIMIZERS = ("Adam", "AdamW", "SGD", "Adagrad", "Adadelta", "Adamax", "RMSprop", "NAdam", "RAdam", "LBFGS",
               "SparseAdam", "Rprop", "ASGD", "Adafactor")
Found = Optional[tuple[str, Any, tuple, str]]
_FSDP_MODES = {"FULL_SHARD": "fsdp_full", "SHARD_GRAD_OP": "fsdp_grad_op", "HYBRID_SHARD": "fsdp_hybrid",
               "_HYBRID_SHARD_ZERO2": "fsdp_hybrid", "NO_SHARD": "ddp"}


def _dotted(node: ast.AST) -> str:
    return dotted_name(node) or ""


def _guard(call: ast.Call, parents: dict[int, ast.AST]) -> Optional[ast.If]:
    parent = parents.get(id(call))
    while parent is not None and not isinstance(parent, ast.If):
        parent = parents.get(id(parent))
    return parent


def ddp_arm(call: ast.Call, parents: dict[int, ast.AST], reader: Any, shown: str) -> Found:
    f = call.func
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
    if name not in ("DDP", "DistributedDataParallel", "FSDP", "FullyShardedDataParallel"):
        return None
    mode = "ddp"
    if name in ("FSDP", "FullyShardedDataParallel"):
        # torch FSDP's sharding_strategy defaults to FULL_SHARD (torch/distributed/fsdp/
        # fully_sharded_data_parallel.py); facebookresearch/coconut run.py:184-190 ``if configs.only_eval:
        # DDP(...) else: FSDP(model, auto_wrap_policy=...)``
        given = next((k.value for k in call.keywords if k.arg == "sharding_strategy"), None)
        if any(k.arg is None for k in call.keywords):
            return None
        member = _dotted(given).rsplit(".", 1)[-1] if given is not None else "FULL_SHARD"
        found = _FSDP_MODES.get(member)
        if found is None:
            return None
        mode = found
    parent = _guard(call, parents)
    if parent is None:
        return None  # not guarded: the framework reading has it
    path = next((p for p in (reader.chain(n) for n in ast.walk(parent.test)) if p is not None), None)
    if path is None:
        return None
    return "dist.sharding", mode, path, f"{'.'.join(path)} takes the arm with {name}(...) ({shown}:{call.lineno})"


def _wrapped_optimizer(call: ast.Call) -> str:
    """``wrap(torch.optim.AdamW)(params, lr)`` / ``maybe_add_gradient_clipping(cfg, torch.optim.SGD)(...)``
    (detectron2's gradient-clipping subclass of the optimizer class it is given; facebookresearch/MaskFormer
    @ da3e60d ``train_net.py:196-203``): the one ``optim`` class handed to the wrapper, else ""."""
    if not isinstance(call.func, ast.Call):
        return ""
    named = [_dotted(a) for a in call.func.args]
    named = [d for d in named if d and len(d.split(".")) > 1 and d.split(".")[-2] == "optim"]
    return named[0] if len(named) == 1 else ""


def optimizer_arm(call: ast.Call, parents: dict[int, ast.AST], reader: Any, shown: str) -> Found:
    dotted = _dotted(call.func) or _wrapped_optimizer(call)
    parts = dotted.split(".") if dotted else []
    if not parts or parts[-1] not in _OPTIMIZERS or (len(parts) > 1 and parts[-2] != "optim"):
        return None
    parent = _guard(call, parents)
    if parent is None:
        return None  # not guarded: the framework reading has it
    for sub in ast.walk(parent.test):
        got = reader.ev(sub) if isinstance(sub, (ast.Name, ast.Attribute, ast.Call)) else None
        if got is not None and got.path is not None and isinstance(got.value, (str, bool)):
            return ("optimizer.name", parts[-1], got.path,
                    f"{'.'.join(got.path)} = {got.value!r} takes the arm with {dotted}(...) ({shown}:{call.lineno})")
    return None


_PADS = re.compile(r"padding\s*=\s*[\"']max_length[\"']")


def pads_to_model_max_length(modules: Any) -> bool:
    """A tokenizer call of the project pads every sample to the tokenizer's ``model_max_length``:
    ``padding="max_length"`` with no ``max_length=`` beside it (baaivision/Emu3 @ f6ea9aa
    ``emu3/train/datasets.py:44-48``). Files are searched as text first; only those that match are walked."""
    for _shown, path, tree in modules.trees:
        try:
            text = read_text_limited(path, errors="replace")
        except (OSError, ValueError):
            continue
        if _PADS.search(text) is None:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                kws = {k.arg: k.value for k in node.keywords if k.arg}
                pad = kws.get("padding")
                if isinstance(pad, ast.Constant) and pad.value == "max_length" and "max_length" not in kws:
                    return True
    return False
