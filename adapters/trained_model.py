"""Whether a model the script loads is the one it trains, read from what the script hands to its
training engine.

Tencent/HunyuanDiT @ 368280e ``hydit/train_deepspeed.py``: ``text_encoder =
BertModel.from_pretrained(...)`` (``:347``) is a frozen helper run under ``torch.no_grad()``; the
model trained is the project's own DiT, ``model = HUNYUAN_DIT_MODELS[args.model](...)`` (``:281``),
the name handed to ``deepspeed.initialize(model=model, ...)`` (``:50``). Library defaults of a
loaded model (the transformers attention default) are then not facts of the job.

A name is *handed to the engine* when it is the ``model=`` (or first) argument of
``deepspeed.initialize``, ``DistributedDataParallel``/``FullyShardedDataParallel``, an accelerate
``prepare``, a Trainer's ``model=``, or the receiver of ``.parameters()`` given to a ``torch.optim``
optimizer. A loaded name is *not trained* only when such names exist, it is none of them, and no
assignment to any of them mentions it (``model = get_peft_model(base, cfg)`` trains ``base``).
"""

from __future__ import annotations

import ast
from typing import Any, Optional

_WRAPPERS = ("DistributedDataParallel", "FullyShardedDataParallel", "DDP", "FSDP")
_TRAINERS = ("Trainer", "SFTTrainer", "DPOTrainer", "Seq2SeqTrainer")


def _name(node: Optional[ast.AST]) -> Optional[str]:
    return node.id if isinstance(node, ast.Name) else None


def engine_models(idx: Any) -> set[str]:
    """The plain names the script hands to its training engine or optimizer."""
    out: set[str] = set()
    for site in idx.calls:
        qualified = site.qualified or site.name or ""
        last = qualified.rsplit(".", 1)[-1]
        call = site.call
        first = call.args[0] if call.args else None
        if qualified.endswith("deepspeed.initialize") or last in _WRAPPERS:
            got = _name(site.kwarg("model") or site.kwarg("module") or first)
        elif last in _TRAINERS:
            got = _name(site.kwarg("model") or first)
        elif last == "prepare" and isinstance(call.func, ast.Attribute):
            out.update(n for n in (_name(a) for a in call.args) if n)
            continue
        elif qualified.startswith("torch.optim.") and isinstance(first, ast.Call) \
                and isinstance(first.func, ast.Attribute) and first.func.attr in ("parameters", "named_parameters"):
            got = _name(first.func.value)
        else:
            continue
        if got:
            out.add(got)
    return out


def not_trained(idx: Any, target: Optional[str]) -> Optional[str]:
    """A name handed to the engine, when ``target`` (a loaded model's name) is not trained by the
    script (see the module doc); None when it may be."""
    if not target:
        return None
    engine = engine_models(idx)
    if not engine or target in engine:
        return None
    for name in engine:
        for value in idx.assigns.get(name, []):
            if value is not None and any(isinstance(n, ast.Name) and n.id == target for n in ast.walk(value)):
                return None  # built from the loaded model
    if _passed_as_engine_parameter(idx, target, engine):
        return None
    return sorted(engine)[0]


def _passed_as_engine_parameter(idx: Any, target: str, engine: set[str]) -> bool:
    """``target`` is given to a function of the script whose parameter there is named like one
    handed to the engine (``def train(model): deepspeed.initialize(model=model)`` called as
    ``train(encoder)``)."""
    for site in idx.calls:
        call = site.call
        if not isinstance(call.func, ast.Name):
            continue
        for fn in idx.functions.get(call.func.id, []):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
            bound = [(params[k] if k < len(params) else None, a) for k, a in enumerate(call.args)]
            bound += [(k.arg, k.value) for k in call.keywords]
            if any(p in engine and _name(a) == target for p, a in bound):
                return True
    return False


__all__ = ["engine_models", "not_trained"]
