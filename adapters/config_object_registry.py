"""The model a project's builder function makes with timm's ``create_model`` from a name its configuration
object gives, counted: a reading of :mod:`preflight.adapters.config_object_reads` beside
:mod:`preflight.adapters.config_object_model` (which counts ``Cls(key=config.X, ...)`` called directly).

microsoft/FocalNet @ e8514bd ``main.py:22,85`` ``from classification import build_model`` ... ``model =
build_model(config)``, ``classification/build.py:1-23``: ``from timm.models import create_model``, ``from . import
focalnet``, ``model_type = config.MODEL.TYPE`` and ``if "focal" in model_type: model = create_model(model_type,
pretrained=is_pretrained, img_size=config.DATA.IMG_SIZE, num_classes=config.MODEL.NUM_CLASSES, ...,
focal_levels=config.MODEL.FOCAL.FOCAL_LEVELS, ...)`` then ``return model``; ``classification/focalnet.py:576-583``
``@register_model def focalnet_tiny_srf(pretrained=False, **kwargs): model = FocalNet(depths=[2, 2, 6, 2],
embed_dim=96, **kwargs); if pretrained: ...; return model``. The same shape: facebookresearch/ConvNeXt @ 048efce
``main.py:278-284`` (``create_model(args.model, ...)`` over ``models/convnext.py``'s registered constructors,
read with argparse values by :mod:`preflight.adapters.model_by_name`), sail-sg/poolformer, OpenGVLab's
InternImage classification (``create_model(config.MODEL.TYPE)`` forms of the Swin-Transformer training code).

Read where the call runs (every ``if`` around it decided by the configuration, ``"focal" in model_type``
included): ``create_model`` imported from timm (``timm.create_model``, ``timm.models.create_model``), its first
argument a string the configuration gives (a key, or a local bound once to one), every other argument a
keyword; the name a ``@register_model`` function of exactly one project module the builder's module imports
(or the builder's module itself), of the shape :func:`model_by_name._constructor` reads (``Cls(...,
**kwargs)``, an ``if pretrained:`` the configuration makes false, timm's metadata), else run by the counter as
:func:`model_by_name._run_constructor` does. Each keyword is the configuration's value, a literal, or unknown
(fine until a size needs it), timm's own options (``pretrained``, ``checkpoint_path``, ...) and ``None`` values
not passed on, as timm does; the class counted by ``module_params_nested.count_class`` with the classes its
module imports. Anything else (a name not known or registered twice, a positional option, a call not
returned) states nothing.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.analysis.syntax import dotted_name


def _timm_factory(call: ast.Call, tree: ast.Module) -> bool:
    """``create_model(...)`` imported from timm in ``tree``, or ``timm[.models].create_model(...)``."""
    name = dotted_name(call.func) or ""
    if name in ("timm.create_model", "timm.models.create_model"):
        return any(isinstance(n, ast.Import) and any(a.name == "timm" for a in n.names) for n in ast.walk(tree))
    if name != "create_model":
        return False
    return any(isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] == "timm" and not n.level
               and any(a.name == "create_model" and a.asname is None for a in n.names) for n in ast.walk(tree))


def registry_count(call: ast.Call, fn: Any, parents: dict[int, ast.AST], reader: Any, modules: Any,
                   shown: str) -> Optional[tuple[int, str, str]]:
    """(parameters, class, detail) of the model ``create_model(<configured name>, ...)`` builds, or None."""
    from preflight.adapters.config_object_model import _a_part, _returned
    from preflight.adapters.model_by_name import (
        _FACTORY_OWN,
        _constructor,
        _parse,
        _registered,
        _run_constructor,
        _with_siblings,
    )
    from preflight.adapters.module_params_nested import UNKNOWN, count_class

    if len(call.args) != 1 or any(k.arg is None for k in call.keywords) or not isinstance(fn, ast.FunctionDef):
        return None
    home = next(((p, t) for s, p, t in modules.trees if s == shown), None)
    if home is None or not _timm_factory(call, home[1]) or not _returned(fn, call) or _a_part(fn.name, modules):
        return None
    got = reader.ev(call.args[0])
    if got is None or got.path is None or not isinstance(got.value, str) or not got.value:
        return None
    key = got.value
    candidates = []
    seen = {home[0]}
    for path in [home[0], *modules._imports(home[0], home[1])]:
        tree = home[1] if path == home[0] else _parse(path)
        if tree is not None:
            seen.add(path)
            candidates.extend(_registered(path, tree, key, seen))
    if len({(str(p), f.lineno) for p, _, f in candidates}) != 1:
        return None
    path, tree, ctor = candidates[0]
    given: dict[str, Any] = {}
    from_config = 0
    for kw in call.keywords:
        val = reader.ev(kw.value)
        if val is not None and val.path is not None and not isinstance(val.value, dict):
            given[str(kw.arg)] = val.value
            from_config += kw.arg not in _FACTORY_OWN
            continue
        try:
            given[str(kw.arg)] = ast.literal_eval(kw.value)
        except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
            given[str(kw.arg)] = UNKNOWN
    pretrained = given.get("pretrained", False)
    if pretrained is UNKNOWN:
        return None  # pretrained weights may be loaded over the model: its sizes stay, but read no further
    given = {k: v for k, v in given.items() if k not in _FACTORY_OWN and v is not None}
    given["pretrained"] = pretrained  # timm calls the constructor with ``pretrained=...``
    built = _constructor(ctor, given, frozenset(n.name for n in tree.body if isinstance(n, ast.ClassDef)))
    if built is None:
        built, counted = _run_constructor(path, tree, ctor, given)
    else:
        counted = count_class(_with_siblings(path, tree), built.cls, built.keywords, built.args)
    if counted is None or built is None:
        return None
    total, layers = counted
    detail = (f"create_model({key!r}) built by {fn.name}() and returned: {ctor.name}() ({path.name}:{ctor.lineno}) "
              f"registered with timm, {built.cls}(...) with {from_config} keyword(s) from the configuration: "
              f"{total:,} parameters of {len(layers)} layers")
    return total, built.cls, detail

