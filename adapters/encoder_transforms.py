"""Image transforms that prepare the input of a conditioning encoder (CLIP), not the training images:
their crop or resize is the encoder's input size, never the data's ``data.image_size``.

Stability-AI/StableCascade @ 7a7d341 ``train/train_c_lora.py:112-118`` ``clip_preprocess =
torchvision.transforms.Compose([Resize(224, ...), CenterCrop(224), Normalize(mean=(0.48145466, 0.4578275,
0.40821073), std=(0.26862954, 0.26130258, 0.27577711))])`` (the CLIP image embedding's input) beside the data
transform ``Compose([ToTensor(), Resize(self.config.image_size, ...), SmartCrop(self.config.image_size, ...)])``
at :120-125 (768 from the YAML); the same CLIP statistics recur in Würstchen, Kandinsky and IP-Adapter training
scripts.

A ``Compose([...])`` is an encoder's when it is bound to a name (or attribute, or keyword) that names CLIP or a
conditioning input (``clip_preprocess``, ``clip_transform``, ``cond_transform``), or when one of its steps is a
``Normalize`` with the OpenAI CLIP mean. Any other Compose (ImageNet statistics, a plain name) stays the data's.
"""

from __future__ import annotations

import ast
import re

_NAME = re.compile(r"(?i)(?:^|_)(?:clip|cond|condition|conditioning)(?:_|$)")
_CLIP_MEAN = (0.48145466, 0.4578275, 0.40821073)

_CACHE: dict[int, tuple[ast.AST, frozenset[int]]] = {}


def _clip_normalize(node: ast.AST) -> bool:
    if not (isinstance(node, ast.Call) and (getattr(node.func, "attr", None) or getattr(node.func, "id", None))
            == "Normalize"):
        return False
    mean = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "mean"), None)
    if not isinstance(mean, (ast.Tuple, ast.List)) or len(mean.elts) != 3:
        return False
    vals = [e.value for e in mean.elts if isinstance(e, ast.Constant) and isinstance(e.value, float)]
    return len(vals) == 3 and all(abs(a - b) < 1e-4 for a, b in zip(vals, _CLIP_MEAN))


def _compose(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and (getattr(node.func, "attr", None) or getattr(node.func, "id", None)) \
        == "Compose"


def _bound_name(target: ast.AST) -> str:
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, ast.Attribute):
        return target.attr
    return ""


def encoder_calls(tree: ast.AST) -> frozenset[int]:
    """ids of the calls inside a conditioning encoder's ``Compose`` (module docstring)."""
    got = _CACHE.get(id(tree))
    if got is not None and got[0] is tree:
        return got[1]
    out: set[int] = set()
    composes: list[ast.Call] = []
    for node in ast.walk(tree):
        named = isinstance(node, ast.Assign) and len(node.targets) == 1 and _NAME.search(_bound_name(node.targets[0]))
        named = named or (isinstance(node, ast.keyword) and bool(node.arg) and _NAME.search(node.arg or ""))
        if named and _compose(node.value):  # type: ignore[attr-defined]
            composes.append(node.value)  # type: ignore[attr-defined]
        elif _compose(node) and any(_clip_normalize(n) for n in ast.walk(node)):
            composes.append(node)  # type: ignore[arg-type]
    for c in composes:
        out.update(id(n) for n in ast.walk(c) if isinstance(n, ast.Call))
    frozen = frozenset(out)
    _CACHE[id(tree)] = (tree, frozen)
    return frozen
