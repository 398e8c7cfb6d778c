"""The image side a job hands to its project's own ``Dataset`` class through a parameter named for it.

rosinality/stylegan2-pytorch @ bef283a ``train.py:520`` ``dataset = MultiResolutionDataset(args.path, transform,
args.size)`` (``--size`` default 256, ``:352``) with ``dataset.py:8-9`` ``class MultiResolutionDataset(Dataset):
def __init__(self, path, transform, resolution=256)``, the dataset then handed to ``data.DataLoader(dataset,
...)``: the images the loop trains on are ``resolution`` pixels square. The same call recurs across the many
projects built on that code (a code search finds ``MultiResolutionDataset(args.path, transform, args.size)`` then
``data.DataLoader(dataset, ...)`` in ten further files, some under ``if args.use_lmdb:``). The option's own name
(``--size``) says nothing of images: only the project class's parameter name does.

Read (never imported): a call in the script of a project class (the script's own or a local module's, parsed:
:func:`preflight.adapters.loader_subclass.project_class`) deriving from a ``...Dataset`` base, whose result is
handed as the first argument of a ``DataLoader`` call, under no ``if`` left undecided, with an argument (by position or keyword) of an
``__init__`` parameter named ``resolution``, ``image_size`` or ``img_size`` resolved to a positive int; medium.
Only when no torchvision crop or resize already gave the side.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters.loader_subclass import project_class

from preflight.analysis.syntax import dotted_name

_PARAMS = ("resolution", "image_size", "img_size")


def _dataset_class(cls: ast.ClassDef) -> bool:
    return any((dotted_name(b) or "").rsplit(".", 1)[-1].endswith("Dataset") for b in cls.bases)


def _image_arg(cls: ast.ClassDef, call: ast.Call) -> Optional[tuple[str, ast.expr]]:
    """(parameter, the argument the call gives it) for the class's image-side parameter, or None."""
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if init is None:
        return None
    params = [a.arg for a in init.args.args[1:]]
    for kw in call.keywords:
        if kw.arg in _PARAMS and kw.arg in params:
            return kw.arg, kw.value
    if any(isinstance(a, ast.Starred) for a in call.args):
        return None
    for param, arg in zip(params, call.args):
        if param in _PARAMS:
            return param, arg
    return None


def dataset_image_size(pass_: Any) -> None:
    """The pytorch adapter's reading of ``data.image_size`` from a project Dataset's image-side parameter."""
    loaded = {dotted_name(s.arg(0, "dataset")) for s in pass_.calls if s.last == "DataLoader"}
    for site in pass_.calls:
        if not site.target or site.target not in loaded or not (site.last or "")[:1].isupper():
            continue
        if any(w in site.target.lower() for w in ("val", "eval", "test")) or pass_.idx.runs(site) is not True:
            continue
        cls = project_class(pass_.script.source.path, pass_.script.tree, site.qualified or site.name or "")
        if cls is None or not _dataset_class(cls):
            continue
        got = _image_arg(cls, site.call)
        if got is None:
            continue
        resolved = pass_.value(got[1])
        if resolved is None or isinstance(resolved.value, bool) or not isinstance(resolved.value, int) \
                or resolved.value < 1:
            continue
        pass_.put("data.image_size", resolved, site, f"{site.label}({got[0]}=...): the project Dataset's image side",
                  "medium")
        return
