"""``data.padding`` from the ``padding=`` keywords of the files read (the script and the project modules it
imports), when the script's own calls said nothing: every call that pads says the same.

- ``"max_length"``: a tokenizer call ``padding="max_length"`` with a ``max_length=`` (or
  ``pad_to_max_length=True``) in a local module the script builds its data with (moreh-dev/quickstart @
  6df4b1e ``train_utils.py:38-41``, ``Preprocessor.__call__``: ``self.tokenizer(chat, truncation=True,
  max_length=self.seq_length, padding="max_length")``, mapped over the dataset by ``train_llm.py:56-58``);
- ``"dynamic"``: a Hugging Face padding collator (``DataCollatorForSeq2Seq`` / ``DataCollatorWithPadding`` /
  ``DataCollatorForTokenClassification``) built with ``padding=True`` / ``"longest"`` or no ``padding``
  (its default True), and no call anywhere padding to a fixed length (Dune-Z/LLM-as-Latent-Variable-Model @
  772899f ``src/utils.py:128-134``: ``tokenizer(inputs)`` unpadded, ``DataCollatorForSeq2Seq(tokenizer,
  padding=True)``).

Unknown when the calls disagree (a condition encoder padded to the longest beside a text padded to
``max_length``: MeshchaninovViacheslav/DiffusionTextGeneration-cond-ca ``diffusion_holder.py:392,409``), when a
padding value is not a literal, or when none pads. ``medium``: which call feeds the training batches is not
followed."""

from __future__ import annotations

import ast
from typing import Any, Optional

_HF_COLLATORS = frozenset(("DataCollatorForSeq2Seq", "DataCollatorWithPadding", "DataCollatorForTokenClassification"))


def _callee(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def padding_modes(trees: list[tuple[str, ast.Module]]) -> Optional[tuple[str, str, int, str]]:
    """``(mode, file, line, what)`` when every padding call of ``trees`` says one mode, else None."""
    modes: dict[str, tuple[str, int, str]] = {}
    for shown, tree in trees:
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = _callee(node)
            kw = {k.arg: k.value for k in node.keywords if k.arg is not None}
            if any(k.arg is None for k in node.keywords) and name in _HF_COLLATORS:
                return None  # DataCollator(**kwargs): its padding not read
            pad = kw.get("padding")
            if "pad_to_max_length" in kw:
                flag = kw["pad_to_max_length"]
                if not (isinstance(flag, ast.Constant) and isinstance(flag.value, bool)):
                    return None
                if flag.value:
                    modes.setdefault("max_length", (shown, node.lineno, f"{name}(pad_to_max_length=True)"))
                continue
            if pad is None:
                if name in _HF_COLLATORS and len(node.args) < 3:
                    modes.setdefault("dynamic", (shown, node.lineno, f"{name}(...) without padding (default True)"))
                continue
            if not isinstance(pad, ast.Constant):
                return None  # a padding the job decides: not read here
            if pad.value == "max_length":
                if "max_length" not in kw and name not in _HF_COLLATORS:
                    return None  # padded to the model's own limit: not a length read here
                modes.setdefault("max_length", (shown, node.lineno, f"{name}(padding='max_length')"))
            elif pad.value in (True, "longest"):
                modes.setdefault("dynamic", (shown, node.lineno, f"{name}(padding={pad.value!r})"))
            elif pad.value in (False, "do_not_pad"):
                continue
            else:
                return None
    if len(modes) != 1:
        return None
    mode, (shown, line, what) = next(iter(modes.items()))
    return mode, shown, line, what


def module_trees(project: Any) -> list[tuple[str, ast.Module]]:
    """The scripts' trees and those of the project modules they import (as :func:`declared_options` read them)."""
    from preflight.adapters.cliargs_options import declared_options

    out: list[tuple[str, ast.Module]] = []
    for script in project.scripts:
        if isinstance(script.tree, ast.Module):
            out.append((str(script.source.display), script.tree))
        for text in declared_options(script, project).texts:
            try:
                out.append(("", ast.parse(text)))
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                continue
    return out
