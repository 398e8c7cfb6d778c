"""Activation checkpointing a model class keeps off behind its own flag (the Hugging Face /
diffusers shape): not a use until something turns the flag on.

XLabs-AI/x-flux @ 4749542 ``src/flux/model.py``: ``__init__`` sets ``self.gradient_checkpointing =
False`` (line 78), ``_set_gradient_checkpointing(self, module, value=False)`` is the hook diffusers'
``enable_gradient_checkpointing()`` calls (80-82), and ``forward`` checkpoints its blocks only
``if self.training and self.gradient_checkpointing:`` (168-180, 205-217). The script never enables
it, so the job does not checkpoint; the absence readers look for checkpointing by any spelling, and
this blanks, in a class whose ``__init__`` sets ``self.gradient_checkpointing = False``: the
``_set_gradient_checkpointing`` hook and the body of each ``if`` whose test reads
``self.gradient_checkpointing`` (its ``else`` stays). A call that turns it on
(``enable_gradient_checkpointing()``, ``gradient_checkpointing_enable()``, ``.gradient_checkpointing =
True`` anywhere) is left as written and still counts. The body of an ``if getattr(obj,
"gradient_checkpointing", False):`` is blanked too, in any module: the flag is off unless something sets it.
"""

from __future__ import annotations

import ast

_FLAG = "gradient_checkpointing"


def _reads_flag(test: ast.expr) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr == _FLAG and isinstance(n.value, ast.Name)
               and n.value.id == "self" for n in ast.walk(test))


def _getattr_off(test: ast.expr) -> bool:
    """``getattr(obj, "gradient_checkpointing", False)``: a flag off unless something sets it (kzl/decision-transformer
    @ e2d82e68 gym/decision_transformer/models/trajectory_gpt2.py:714, a copy of transformers' GPT-2 whose config
    the project builds without the flag)."""
    return isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "getattr" \
        and len(test.args) == 3 and not test.keywords and isinstance(test.args[1], ast.Constant) \
        and test.args[1].value == _FLAG and isinstance(test.args[2], ast.Constant) and test.args[2].value is False


def _off_in_init(cls: ast.ClassDef) -> bool:
    init = next((b for b in cls.body if isinstance(b, ast.FunctionDef) and b.name == "__init__"), None)
    if init is None:
        return False
    return any(isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant) and n.value.value is False
               and any(isinstance(t, ast.Attribute) and t.attr == _FLAG and isinstance(t.value, ast.Name)
                       and t.value.id == "self" for t in n.targets) for n in ast.walk(init))


def blank_flag_guarded(text: str) -> str:
    """``text`` with the flag-guarded checkpointing of such classes blanked (same lines); unchanged
    when it does not parse or holds no such class."""
    if _FLAG not in text:
        return text
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return text
    spans: list[tuple[int, int]] = []
    for node in ast.walk(tree):  # ``if getattr(self.config, "gradient_checkpointing", False):`` off by default
        if isinstance(node, ast.If) and _getattr_off(node.test) and node.body and node.body[-1].end_lineno:
            spans.append((node.lineno, node.body[-1].end_lineno or node.lineno))
    off = [cls for cls in ast.walk(tree) if isinstance(cls, ast.ClassDef) and _off_in_init(cls)]
    for cls in off:
        for node in ast.walk(cls):
            if isinstance(node, ast.If) and _reads_flag(node.test) and node.body and node.body[-1].end_lineno:
                spans.append((node.lineno, node.body[-1].end_lineno or node.lineno))
    if off:
        # the ``_set_gradient_checkpointing`` hook only runs when the enabling call does (which still counts);
        # transformers 4.2x modeling files define it on the ``PreTrainedModel`` base, not on the model class whose
        # ``__init__`` sets the flag False (Guitaricet/relora @ 176f376 peft_pretraining/modeling_pythia.py:81-83
        # ``module.gradient_checkpointing = value`` over GPTNeoXModel's :533; OpenLMLab/MOSS @ c810e0b
        # models/modeling_moss.py:323,405 and PKU-YuanGroup/Video-LLaVA @ 984e65b languagebind/image/
        # modeling_image.py:232,350 keep the same layout)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == f"_set_{_FLAG}" and node.end_lineno:
                spans.append((node.lineno, node.end_lineno))
    return blank_spans(text, spans)


def blank_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with the lines of each (first, last) 1-based span replaced by spaces of the same length (line
    numbers and columns of the rest stay where they were)."""
    if not spans:
        return text
    lines = text.split("\n")
    for start, end in spans:
        for i in range(start - 1, min(end, len(lines))):
            lines[i] = " " * len(lines[i])
    return "\n".join(lines)
