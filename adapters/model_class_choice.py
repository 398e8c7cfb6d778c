"""A transformers model class picked by a conditional expression, for the Trainer-less defaults.

huggingface/transfer-learning-conv-ai @ d4c7607 ``train.py:156-157``::

    model_class = GPT2DoubleHeadsModel if "gpt2" in args.model_checkpoint else OpenAIGPTDoubleHeadsModel
    model = model_class.from_pretrained(args.model_checkpoint)

Either arm is a transformers model class, so ``model_class.from_pretrained(...)`` loads a transformers
model with the library's defaults (fp32 weights before 5.x, the attention of the pinned release)
whichever arm runs. The name must be bound once, to ``A if c else B`` whose two arms are names
imported from ``transformers`` that read like model classes (the defaults read are the library's, the
same for both). Nothing is imported or executed.
"""

from __future__ import annotations

import ast
import re
from typing import Any, Optional


def chosen_class(idx: Any, name: str, model: re.Pattern[str], not_model: re.Pattern[str]) -> Optional[list[str]]:
    """The two classes ``name`` is bound to, or None."""
    bound = idx.assigns.get(name, [])
    if len(bound) != 1 or not isinstance(bound[0], ast.IfExp):
        return None
    arms = (bound[0].body, bound[0].orelse)
    names = [a.id for a in arms if isinstance(a, ast.Name)]
    if len(names) != 2:
        return None
    for arm in names:
        qualified = idx.qualify(arm) or ""
        if not qualified.startswith("transformers.") or not model.match(arm) or not_model.search(arm):
            return None
    return names
