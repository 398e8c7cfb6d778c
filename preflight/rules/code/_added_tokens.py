"""Shared by the rules on tokens added to a tokenizer (PF484, PF243): which calls add new tokens, which add
only a pad token."""

from __future__ import annotations

import ast
import re
from typing import Optional

from preflight.rules._pf414_support import call_last

# special tokens the usual pretrained vocabularies already hold (Llama, GPT-2, Qwen, Gemma, Llama-3): naming one
# of them in `add_special_tokens` assigns a role, it adds no row
_KNOWN = frozenset({"<s>", "</s>", "<unk>", "<pad>", "<eos>", "<bos>", "<|endoftext|>", "<|im_start|>", "<|im_end|>",
                    "<start_of_turn>", "<end_of_turn>", "<|begin_of_text|>", "<|end_of_text|>", "<|eot_id|>",
                    # Llama 3.x's own special tokens (ids 128000-128255 of its tokenizer.json; Llama 3.1 names
                    # id 128004 `<|finetune_right_pad_id|>`, the pad token its recipes select)
                    "<|start_header_id|>", "<|end_header_id|>", "<|eom_id|>", "<|python_tag|>",
                    "<|finetune_right_pad_id|>"})
# Llama 3.x's reserved rows (`<|reserved_special_token_0|>` .. `_250|>`): already in the vocabulary and the table
_LLAMA3_RESERVED = re.compile(r"<\|reserved_special_token_(\d{1,3})\|>")


def _known(token: str) -> bool:
    m = _LLAMA3_RESERVED.fullmatch(token)
    return token in _KNOWN or (m is not None and int(m.group(1)) <= 250)
# a vocabulary whose own special tokens its vendor's recipe re-registers with `add_tokens` on every load, with no
# resize (IEIT-Yuan's Yuan2 model cards and examples: `tokenizer.add_tokens(['<sep>', '<pad>', '<mask>', '<predict>',
# '<FIM_SUFFIX>', ..., '<empty_output>'], special_tokens=True)`, then generation with the checkpoint as loaded: the
# ids are rows of its embedding table, trained with Yuan2's chat and code formats). A list counts as that recipe
# when it holds one of the family's own names, not only the generic `<sep>`/`<pad>`/`<mask>`.
_YUAN2 = frozenset({"<eod>", "<sep>", "<pad>", "<mask>", "<predict>", "<FIM_SUFFIX>", "<FIM_PREFIX>", "<FIM_MIDDLE>",
                    "<commit_before>", "<commit_msg>", "<commit_after>", "<jupyter_start>", "<jupyter_text>",
                    "<jupyter_code>", "<jupyter_output>", "<empty_output>"})
_GENERIC = frozenset({"<sep>", "<pad>", "<mask>"})


def _strings(node: ast.AST) -> Optional[list[str]]:
    """The string constants of a literal value (a string or a list/tuple of them), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.List, ast.Tuple)):
        out: list[str] = []
        for elt in node.elts:
            inner = _strings(elt)
            if inner is None:
                return None
            out.extend(inner)
        return out
    return None


def _new_value(value: ast.AST) -> bool:
    if isinstance(value, ast.Attribute):
        return False  # `tokenizer.eos_token`: one of its own
    strings = _strings(value)
    if strings is None:
        return True
    added = set(strings)
    if all(_known(t) for t in added):
        return False
    return not (added <= _KNOWN | _YUAN2 and added & (_YUAN2 - _GENERIC))


def adds_new(call: ast.Call) -> bool:
    """``tok.add_tokens([...])`` or ``tok.add_special_tokens({...})`` with a value that is not one of
    the tokenizer's own tokens (``{"pad_token": tok.eos_token}`` adds nothing)."""
    if not isinstance(call.func, ast.Attribute) or not (call.args or call.keywords):
        return False
    arg: Optional[ast.AST] = call.args[0] if call.args else call.keywords[0].value
    if call.func.attr == "add_tokens":
        return arg is not None and _new_value(arg)
    if isinstance(arg, ast.Dict):
        return any(_new_value(v) for v in arg.values if v is not None)
    return True  # a dict built elsewhere


def pad_only(call: ast.Call) -> bool:
    """``tok.add_special_tokens({"pad_token": ...})`` and nothing else."""
    arg = call.args[0] if call.args else None
    return call_last(call) == "add_special_tokens" and isinstance(arg, ast.Dict) and bool(arg.keys) and all(
        isinstance(k, ast.Constant) and k.value == "pad_token" for k in arg.keys)
