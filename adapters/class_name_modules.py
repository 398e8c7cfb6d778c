"""Local modules a script names by a dotted ``class_name``/``func_name`` string (the NVlabs ``dnnlib`` shape):
code the job builds from a string, as visible as an import.

NVlabs/stylegan3 ``train.py`` writes ``c.G_kwargs.class_name = 'training.networks_stylegan3.Generator'`` and
``c.loss_kwargs = dnnlib.EasyDict(class_name='training.loss.StyleGAN2Loss')``; ``training/training_loop.py``
builds them with ``dnnlib.util.construct_class_by_name(**loss_kwargs)``, and the backward pass is in
``training/loss.py``, which nothing imports (the same line in stylegan2-ada-pytorch and its forks: ten hits
for it in the public corpus). NVlabs/edm ``train.py`` (``c.network_kwargs.class_name =
'training.networks.EDMPrecond'``, ``c.loss_kwargs.class_name = 'training.loss.EDMLoss'``, ten hits too) and
autonomousvision/stylegan-t @ 36ab80c ``train.py`` (``class_name='training.loss.ProjectedGANLoss'``) follow it. A string counts where it is the value of a ``class_name`` /
``func_name`` keyword or of an assignment to such an attribute or key, every dotted part is a folder or file
under the project root, and the module defines the last part as a class or function. A name that resolves to
nothing local (``torch.optim.Adam``) adds nothing.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Optional

from preflight.sources import read_text_limited

_KEYS = ("class_name", "func_name")
_DOTTED = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")
_DEFINES = "^(?:class|def)[ \t]+{}\\b"


def _named_strings(tree: ast.AST) -> list[str]:
    out: list[str] = []
    for node in ast.walk(tree):
        value: Optional[ast.expr] = None
        if (isinstance(node, ast.keyword) and node.arg in _KEYS) or (isinstance(node, ast.Assign) and any(
                (isinstance(t, ast.Attribute) and t.attr in _KEYS)
                or (isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Constant) and t.slice.value in _KEYS)
                for t in node.targets)):
            value = node.value
        if isinstance(value, ast.Constant) and isinstance(value.value, str) and _DOTTED.match(value.value):
            out.append(value.value)
    return out


def class_name_module_files(texts: list[str], root: Optional[Path]) -> list[Path]:
    """The local module files the ``class_name``/``func_name`` strings of ``texts`` name (in order, once each)."""
    if root is None or not root.is_dir():
        return []
    out: list[Path] = []
    for text in texts:
        if not any(k in text for k in _KEYS):
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for dotted in _named_strings(tree):
            *parts, last = dotted.split(".")
            path = root.joinpath(*parts).with_suffix(".py")
            if path in out or not path.is_file():
                continue
            try:
                module = read_text_limited(path, errors="replace")
            except (OSError, ValueError):
                continue
            if re.search(_DEFINES.format(re.escape(last)), module, re.M):
                out.append(path)
    return out
