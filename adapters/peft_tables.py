"""Whether a PEFT job trains its vocabulary tables (plan ``peft.trained_embeddings``).

* ``LoraConfig(modules_to_save=[...])`` naming an embedding or LM head module: PEFT trains a
  copy of it (``ModulesToSaveWrapper``): ``"copy"``.
* ``model.resize_token_embeddings(...)`` that runs after ``get_peft_model`` /
  ``PeftModel.from_pretrained`` attached the adapter: before transformers 4.35 the new tables
  require grad (huggingface/transformers#26865), so they train: ``"resized"``. The estimator
  applies it only when the transformers version says so (``estimate/trained_embeddings.py``).
  artidoro/qlora at 0fc40da: ``train()`` calls ``get_accelerate_model`` (``get_peft_model``
  inside), then ``smart_tokenizer_and_embedding_resize`` (``model.resize_token_embeddings``).

Run order is read from the file alone: each call's chain of enclosing functions, each placed
where this file first calls it, compared line by line from the outermost call. A resize whose
chain cannot be ordered (a helper the file never calls) says nothing.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

#: module names of vocabulary tables in transformers' models (modules_to_save entries)
TABLE_NAMES = ("embed_tokens", "lm_head", "wte", "embed_out", "word_embeddings",
               "embed_in", "shared", "tok_embeddings", "output")

_ATTACH = ("get_peft_model", "prepare_model_for_kbit_training")


def _chain(site: Any, calls: list[Any], depth: int = 0) -> Optional[tuple[int, ...]]:
    """Lines from the outermost call down to ``site``: (line of the call of its enclosing
    function, ..., site's own line); None when an enclosing function is never called here."""
    if site.function is None:
        return (site.line,)
    if depth > 6:
        return None
    # the function's calls by name (``helper(...)``, a method's ``self.helper(...)``)
    callers = [s for s in calls if s.name is not None and s.call is not site.call
               and s.name.rsplit(".", 1)[-1] == site.function and s.function != site.function]
    if not callers:
        return None
    outer = _chain(min(callers, key=lambda s: s.line), calls, depth + 1)
    return None if outer is None else (*outer, site.line)


def _attaches(site: Any) -> bool:
    q = site.qualified or ""
    if not q.startswith("peft."):
        return False
    return site.last == "get_peft_model" or q.endswith("PeftModel.from_pretrained")


def _names(expr: Optional[ast.expr]) -> list[str]:
    if isinstance(expr, (ast.List, ast.Tuple, ast.Set)):
        return [e.value for e in expr.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return [expr.value]
    return []


def trained_embeddings(calls: list[Any]) -> Optional[tuple[str, Any, str]]:
    """(value, the call that decides it, why) or None."""
    for site in calls:
        if site.last == "LoraConfig" and (site.qualified or "").startswith("peft."):
            saved = [n for n in _names(site.kwarg("modules_to_save"))
                     if n.rsplit(".", 1)[-1] in TABLE_NAMES]
            if saved:
                return ("copy", site, f"{site.label}(modules_to_save={saved}): PEFT trains a copy of "
                                      "each listed table")
    attaches = [s for s in calls if _attaches(s)]
    chains = [c for c in (_chain(s, calls) for s in attaches) if c is not None]
    for site in calls:
        func = site.call.func
        if not (isinstance(func, ast.Attribute) and func.attr == "resize_token_embeddings"):
            continue
        # in the same function after the adapter, or later along the file's calls
        same = any(a.function == site.function and a.klass == site.klass and a.line < site.line
                   for a in attaches)
        chain = _chain(site, calls)
        if same or (chain is not None and chains and chain > min(chains)):
            return ("resized", site, f"{site.label}() runs after the PEFT adapter is attached: before "
                                     "transformers 4.35 the resized embeddings and LM head require grad")
    return None


def trainable_adapter_load(call: ast.Call) -> bool:
    """``PeftModel.from_pretrained(base, path, is_trainable=True)`` (or an ``AutoPeftModel*``
    class): a saved adapter loaded to be trained, which is PEFT as much as ``get_peft_model``.
    yxli2123/LoftQ @ ae33fd4 ``train_gsm8k.py:248-255`` loads the LoftQ-initialised LoRA of its 4-bit
    base this way when neither ``--lora_init`` nor ``--adapter_name_or_path`` is given. Without
    ``is_trainable`` (default False) or with anything but a literal True the adapter is frozen or
    unknown: not counted."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "from_pretrained"):
        return False
    owner = func.value
    name = owner.attr if isinstance(owner, ast.Attribute) else owner.id if isinstance(owner, ast.Name) else ""
    if not (name == "PeftModel" or name.startswith("AutoPeftModel") or name.startswith("PeftModelFor")):
        return False
    flag = next((k.value for k in call.keywords if k.arg == "is_trainable"), None)
    return isinstance(flag, ast.Constant) and flag.value is True


def loads_trainable_adapter(stmts: list[ast.stmt]) -> Optional[ast.Call]:
    """The first trainable adapter load (``trainable_adapter_load``) in ``stmts``."""
    for stmt in stmts:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Call) and trainable_adapter_load(node):
                return node
    return None


def either_arm(tree: ast.AST, test: ast.expr) -> bool:
    """The ``if`` whose test is ``test`` loads a trainable adapter in its body and in its ``else``
    (LoftQ ``elif adapter_name_or_path is not None: PeftModel.from_pretrained(model,
    adapter_name_or_path, is_trainable=True)`` ``else: PeftModel.from_pretrained(model, name,
    subfolder='loftq_init', is_trainable=True)``): whichever way the test goes, an adapter is trained."""
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and node.test is test:
            return loads_trainable_adapter(node.body) is not None and loads_trainable_adapter(node.orelse) is not None
    return False
