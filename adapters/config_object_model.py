"""The model a project's builder function makes from its configuration object, counted: a reading of
:mod:`preflight.adapters.config_object_reads`.

microsoft/Swin-Transformer @ f82860b ``main.py:87`` ``model = build_model(config)``, ``models/build.py:15-52``:
``model_type = config.MODEL.TYPE`` and ``if model_type == 'swin': model = SwinTransformer(img_size=
config.DATA.IMG_SIZE, ..., depths=config.MODEL.SWIN.DEPTHS, ..., norm_layer=layernorm, ...)`` (``layernorm =
nn.LayerNorm`` in the ``else`` of ``if config.FUSED_LAYERNORM:``), then ``return model``; the configuration
(yacs: the defaults of ``config.py`` and the launch line's YAML) decides the branch and gives the sizes.

Read where the call runs (every ``if`` around it decided by the configuration's values): a class of the
project called with keywords only, its result what the function returns; each keyword the configuration's
value, a literal, or a local whose one assignment that runs is a layer class (``nn.LayerNorm``), else
unknown (fine until a size needs it); at least one size from the configuration. The class is counted by
``module_params_nested.count_class`` in its own module; anything it cannot follow leaves the count unknown.
"""

from __future__ import annotations

import ast
from typing import Any, Callable, Optional


def _returned(fn: Any, call: ast.Call) -> bool:
    """``return Cls(...)``, or ``x = Cls(...)`` with every ``return`` of the function ``return x``."""
    own = [n for n in ast.walk(fn) if isinstance(n, ast.Return)]
    if any(r.value is call for r in own):
        return True
    bound = [n for n in ast.walk(fn) if isinstance(n, ast.Assign) and n.value is call and len(n.targets) == 1
             and isinstance(n.targets[0], ast.Name)]
    if len(bound) != 1:
        return False
    name = bound[0].targets[0]
    assert isinstance(name, ast.Name)
    return bool(own) and all(isinstance(r.value, ast.Name) and r.value.id == name.id for r in own)


def model_count(call: ast.Call, fn: Any, nodes: list[ast.AST], parents: dict[int, ast.AST], reader: Any,
                modules: Any, runs: Callable[[ast.AST], bool]) -> Optional[tuple[int, str, str]]:
    """(parameters, class, detail) of the model ``call`` builds, or None."""
    from preflight.adapters.module_params_nested import UNKNOWN, count_class, layer_factory

    if not isinstance(call.func, ast.Name) or call.args or not call.keywords \
            or any(k.arg is None for k in call.keywords) or not isinstance(fn, ast.FunctionDef):
        return None
    got = modules.klass(call.func.id)
    if got is None or not _returned(fn, call) or _a_part(fn.name, modules):
        return None
    shown, cls = got
    tree = next((t for s, _, t in modules.trees if s == shown), None)
    if tree is None:
        return None
    kwargs: dict[str, Any] = {}
    from_config = 0
    for kw in call.keywords:
        val = reader.ev(kw.value)
        if val is not None and val.path is not None and not isinstance(val.value, dict):
            kwargs[str(kw.arg)] = val.value
            from_config += 1
            continue
        try:
            kwargs[str(kw.arg)] = ast.literal_eval(kw.value)
            continue
        except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
            pass
        kwargs[str(kw.arg)] = UNKNOWN
        if isinstance(kw.value, ast.Name):
            running = [n for n in nodes if isinstance(n, ast.Assign) and len(n.targets) == 1
                       and isinstance(n.targets[0], ast.Name) and n.targets[0].id == kw.value.id and runs(n)]
            every = [n for n in nodes if isinstance(n, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == kw.value.id for t in n.targets)]
            # ``layernorm = nn.LayerNorm`` in the arm the configuration takes; the others decided not to run
            if len(running) == 1 and all(n is running[0] or not runs(n) for n in every) \
                    and all(_decided_off(n, parents, reader) for n in every if n is not running[0]):
                kwargs[str(kw.arg)] = layer_factory(running[0].value)
    if not from_config:
        return None
    counted = count_class(tree, cls.name, kwargs)
    if counted is None:
        return None
    total, layers = counted
    detail = (f"{cls.name}(...) built by {fn.name}() and returned, {from_config} size(s) from the configuration: "
              f"{total:,} parameters of {len(layers)} layers ({shown}:{cls.lineno})")
    return total, cls.name, detail


def _a_part(builder: str, modules: Any) -> bool:
    """What ``builder()`` returns is handed to another class of the project, so it is a part of the model,
    not the model (facebookresearch/detr @ 29901c5 ``models/detr.py:313-327``: ``transformer =
    build_transformer(args)`` then ``model = DETR(backbone, transformer, ...)``)."""
    for _, _, tree in modules.trees:
        held = {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                and isinstance(n.value.func, ast.Name) and n.value.func.id == builder
                for t in n.targets if isinstance(t, ast.Name)}
        for n in ast.walk(tree):
            if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and modules.klass(n.func.id) is not None):
                continue
            for a in [*n.args, *(k.value for k in n.keywords)]:
                if (isinstance(a, ast.Name) and a.id in held) or (
                        isinstance(a, ast.Call) and isinstance(a.func, ast.Name) and a.func.id == builder):
                    return True
    return False


def _decided_off(node: ast.AST, parents: dict[int, ast.AST], reader: Any) -> bool:
    """An ``if`` around ``node`` is decided by the configuration not to run it (the flow reader's test)."""
    from preflight.adapters.config_object_guards import _skipped

    return _skipped(node, parents, reader)


def model_name_key(call: ast.Call, reader: Any) -> Optional[tuple[str, tuple, str]]:
    """``(name, key path, detail)``: the ``NAME`` key of the configuration's model section that gives the
    sizes of the counted ``call`` (Swin ``configs/swin/swin_base_patch4_window7_224.yaml:3`` ``MODEL.NAME``
    beside ``MODEL.SWIN.DEPTHS``): the name the configuration gives the model, as ``--model X`` is. None
    when no keyword's value comes from a section called ``model``, or the sections disagree."""
    sections = set()
    for kw in call.keywords:
        val = reader.ev(kw.value)
        if val is None or val.path is None:
            continue
        path = tuple(val.path)
        at = next((i for i, part in enumerate(path) if str(part).lower() == "model"), None)
        if at is not None and at > 0:
            sections.add(path[:at + 1])
    if len(sections) != 1:
        return None
    section = next(iter(sections))
    for key in ("NAME", "name"):
        path = (*section, key)
        value = reader.known(path)
        if isinstance(value, str) and value.strip():
            return value, path, (f"{'.'.join(map(str, path))}: the name of the model "
                                 f"section whose sizes build {ast.unparse(call.func)}(...)")
    return None
