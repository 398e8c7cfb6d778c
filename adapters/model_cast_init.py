"""A model whose own constructor casts its weights to 16 bits (read by the pytorch adapter's
precision pass, :mod:`preflight.adapters.pytorch`).

KellerJordan/cifar10-airbench @ f1c599c ``airbench94_muon.py:234-238``: ``CifarNet.__init__`` ends
with ``for mod in self.modules(): if isinstance(mod, BatchNorm): mod.float() else: mod.half()``,
and the script trains ``model = CifarNet().cuda()`` with no autocast: fp16 weights, no master copy.
Read: ``self.half()``/``self.bfloat16()``/``self.to(torch.float16)`` in the ``__init__`` body, or a
``.half()``/``.bfloat16()`` of the loop variable of ``for m in self.modules()`` (or
``self.children()``) in it, in a local ``nn.Module`` class the script builds and binds to a model
name. A cast of one attribute (``self.text_encoder.half()``, a frozen helper) is not the model's.
Nothing is imported or run.
"""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

_DTYPES = {"half": "fp16", "float16": "fp16", "bfloat16": "bf16"}
_LOOPS = ("modules", "children")


def _dtype_of_cast(call: ast.Call) -> Optional[str]:
    """``x.half()`` -> fp16, ``x.bfloat16()`` -> bf16, ``x.to(torch.float16)``/``x.to(dtype=...)``."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    if func.attr in ("half", "bfloat16") and not call.args and not call.keywords:
        return _DTYPES[func.attr]
    if func.attr == "to":
        values = [*call.args, *(k.value for k in call.keywords if k.arg == "dtype")]
        for value in values:
            last = value.attr if isinstance(value, ast.Attribute) else None
            if last in _DTYPES and isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) \
                    and value.value.id == "torch":
                return _DTYPES[last]
    return None


def _body_nodes(fn: ast.FunctionDef) -> Iterable[ast.AST]:
    """The nodes of ``fn``'s body, nested functions and classes left out."""
    stack: list[ast.AST] = list(fn.body)
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(ast.iter_child_nodes(node))


def init_cast(cls: ast.ClassDef) -> Optional[tuple[str, int]]:
    """The 16-bit dtype ``cls.__init__`` casts the whole module to, and the line; None if it does not."""
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if init is None or not init.args.args:
        return None
    me = init.args.args[0].arg
    for node in _body_nodes(init):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == me:
            dtype = _dtype_of_cast(node)
            if dtype is not None:
                return dtype, node.lineno
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name) and isinstance(node.iter, ast.Call) \
                and isinstance(node.iter.func, ast.Attribute) and node.iter.func.attr in _LOOPS \
                and isinstance(node.iter.func.value, ast.Name) and node.iter.func.value.id == me:
            var = node.target.id
            for inner in (n for stmt in node.body for n in ast.walk(stmt)):
                if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) \
                        and isinstance(inner.func.value, ast.Name) and inner.func.value.id == var:
                    dtype = _dtype_of_cast(inner)
                    if dtype is not None:
                        return dtype, inner.lineno
    return None


def built_model_cast(idx: Any, calls: Iterable[Any], model_names: set[str]) \
        -> Optional[tuple[str, Any, str, int]]:
    """(dtype, the call site that builds the model, its class, the cast's line) for a local class
    the script binds to one of ``model_names`` whose constructor casts it to 16 bits."""
    for site in calls:
        cls = idx.classes.get(site.name or "")
        if cls is None or (site.klass is not None and site.klass in idx.classes) \
                or (site.target or "model") not in model_names:
            continue
        if idx.runs(site) is False:
            continue
        found = init_cast(cls)
        if found is not None:
            return found[0], site, cls.name, found[1]
    return None


__all__ = ["built_model_cast", "init_cast"]


_PASSING = ("cuda", "to", "eval", "train", "float", "requires_grad_")


def chained_cast(calls: Iterable[Any], load: ast.Call) -> Optional[tuple[str, ast.Call]]:
    """The 16-bit dtype of a cast chained on a model load (THUDM/ChatGLM's
    ``ChatGLMForConditionalGeneration.from_pretrained(path, config=config).half().cuda()``,
    michael-wzhu/PromptCBLUE src/ft_chatglm_lora/main.py:129-132 @ b0753a6), and the cast call: the
    weights the job trains are 16-bit whatever dtype the load gives. Only device moves and mode
    switches may stand between the load and the cast."""
    for site in calls:
        call = site.call
        dtype = _dtype_of_cast(call)
        if dtype is None or not isinstance(call.func, ast.Attribute):
            continue
        node: ast.AST = call.func.value
        while True:
            if node is load:
                return dtype, call
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _PASSING \
                    and (node.func.attr != "to" or _dtype_of_cast(node) is None):
                node = node.func.value
                continue
            break
    return None


def later_cast(idx: Any, load: Any) -> Optional[tuple[str, Any, Optional[bool]]]:
    """A 16-bit cast of the name a load is bound to, later in the same function, and whether it runs
    (``idx.runs``: True, None undecided; casts that never run are skipped). PKU-YuanGroup/Video-LLaVA
    ``videollava/train/train.py:921-962`` @ its pinned commit (the haotian-liu/LLaVA train.py shape):
    ``model = LlavaLlamaForCausalLM.from_pretrained(path)`` with no dtype, then under ``if
    training_args.lora_enable:`` / ``if training_args.bits == 16:`` / ``if training_args.bf16:``
    ``model.to(torch.bfloat16)`` before ``get_peft_model``: the trained weights are bf16, not the fp32
    the load alone gives. Only a bare statement ``name.to(torch.X)``/``name.half()`` or ``name = name.X()``
    counts (the weights of that very object); the first such cast that may run is the answer."""
    name = load.target
    if not name:
        return None
    for site in sorted(idx.calls, key=lambda s: s.line):
        call = site.call
        if site.line <= load.line or site.function != load.function or not isinstance(call.func, ast.Attribute):
            continue
        receiver = call.func.value
        if not (isinstance(receiver, ast.Name) and receiver.id == name) or site.target not in (None, name):
            continue
        dtype = _dtype_of_cast(call)
        if dtype is None:
            continue
        runs = idx.runs(site)
        if runs is False:
            continue
        return dtype, site, runs
    return None
