"""A module that only defines a LoRA/adapter class nobody builds names no PEFT the job runs.

kzl/decision-transformer @ e2d82e68 ``gym/decision_transformer/models/trajectory_gpt2.py:262-274`` defines
``class AdapterMLP(nn.Module)``; its one use is commented out (``:290 # self.adapter_mlp = AdapterMLP(512,
config)  # ADAPTER``), and ``:367 ... # KL: Adapter change`` is a comment after code. :func:`without_unused_classes`
blanks, in one module's text, comments after code and the name of each class the words match whose name the
text uses nowhere else; a use in another module still names it there (that module's text holds the name).
"""

from __future__ import annotations

import re

# a comment after code, without a quote after the ``#`` (a ``#`` inside a string is left)
_TRAILING_COMMENT = re.compile(r"(?m)(?<=\S)[ \t]+#[^\n'\"]*$")
_COMMENT_LINE = re.compile(r"^[ \t]*#.*$", re.M)
_CLASS = re.compile(r"(?m)^[ \t]*class[ \t]+([A-Za-z_]\w*)")


def without_unused_classes(text: str, words: re.Pattern[str]) -> str:
    """``text`` with comments removed and each unused class name the ``words`` match blanked."""
    text = _COMMENT_LINE.sub("", _TRAILING_COMMENT.sub("", text))
    for name in {m.group(1) for m in _CLASS.finditer(text)}:
        if words.search(name) is None:
            continue
        if len(re.findall(rf"\b{re.escape(name)}\b", text)) == 1:
            text = re.sub(rf"(?m)^([ \t]*class[ \t]+){re.escape(name)}\b", r"\1_", text)
    return text
