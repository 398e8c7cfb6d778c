"""Attributes of a hyper-parameter object built by a project function: TensorFlow's ``HParams``.

NVIDIA/tacotron2 @ 185cd24e ``hparams.py:5-95``: ``create_hparams(hparams_string=None)`` builds
``hparams = tf.contrib.training.HParams(epochs=500, fp16_run=False, distributed_run=False, ...,
batch_size=64, ...)``, applies ``hparams.parse(hparams_string)`` (a ``"name=value,name=value"`` string:
the launch line's ``--hparams=distributed_run=True,fp16_run=True``) and returns it; ``train.py:278``
binds ``hparams = create_hparams(args.hparams)`` and hands it to ``train(..., hparams)``, whose
``DataLoader(batch_size=hparams.batch_size)`` (``:57``) and ``if hparams.fp16_run:`` (``:173``) read it.

:func:`hparams_attr` gives ``NAME.attr`` when ``NAME`` is bound, once, to a call of such a function (in
the script or a module beside it; a parameter of that name in the script's functions counts when every
call of its function passes that name there), the keyword is a literal of the ``HParams(...)`` call, and the ``parse`` argument, if any, is a
parameter of that function whose value at the call is known (a string of overrides, or None/empty).
Unknown (None) when the attribute is written anywhere in the script
(``hparams.batch_size = ...``), the function is not that shape, or the override string is not known.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.analysis.syntax import dotted_name

_MAX_BYTES = 500_000


def _parsed(text: str) -> Optional[dict[str, str]]:
    out: dict[str, str] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        name, eq, value = part.partition("=")
        if not eq or not name.strip().isidentifier():
            return None
        out[name.strip()] = value.strip()
    return out


def _typed(raw: str, like: Any) -> Any:
    """``raw`` parsed as the default's type (HParams.parse casts to the declared type)."""
    if isinstance(like, bool):
        low = raw.lower()
        return True if low in ("true", "1") else False if low in ("false", "0") else None
    try:
        if isinstance(like, int):
            return int(raw)
        if isinstance(like, float):
            return float(raw)
    except ValueError:
        return None
    return raw if isinstance(like, str) else None


def _builder(idx: Any, name: str) -> Optional[tuple[ast.FunctionDef, str]]:
    """The def of the function ``name`` (the script's own, or imported from a module beside it)."""
    here = idx.functions.get(name, [])
    if len(here) == 1 and isinstance(here[0], ast.FunctionDef):
        return here[0], str(idx.script.source.display)
    from preflight.script_helper_writes import local_module_function

    found = local_module_function(idx, idx.qualify(name) or "", _MAX_BYTES)
    return (found[0], found[1].name) if found is not None else None


def _module_constant(idx: Any, builder: str, expr: ast.expr) -> Optional[tuple[ast.Constant, str]]:
    """``n_symbols=len(symbols)`` of a symbol table the project builds from literals (NVIDIA/tacotron2
    ``hparams.py:47``; ``preflight.module_constants``): the number as a constant, its computation noted."""
    from pathlib import Path

    from preflight.module_constants import MISSING, constant_value
    from preflight.script_helper_writes import local_module_function

    here = idx.functions.get(builder, [])
    if len(here) == 1:
        path = idx.script.source.path
    else:
        found = local_module_function(idx, idx.qualify(builder) or "", _MAX_BYTES)
        path = found[1] if found is not None else None
    if path is None:
        return None
    value = constant_value(Path(str(path)), expr)
    if value is MISSING or not isinstance(value, (int, float, str)) or isinstance(value, bool):
        return None
    return ast.Constant(value), f"{ast.unparse(expr)} = {value!r} from the project's module constants"


def _hparams_of(fn: ast.FunctionDef) -> Optional[tuple[ast.Call, Optional[str]]]:
    """(the ``HParams(...)`` call ``fn`` returns, the parameter its ``.parse`` reads or None)."""
    returns = [n for n in ast.walk(fn) if isinstance(n, ast.Return)]
    if len(returns) != 1 or not isinstance(returns[0].value, ast.Name):
        return None
    var = returns[0].value.id
    built = [n.value for n in ast.walk(fn) if isinstance(n, ast.Assign) and len(n.targets) == 1
             and isinstance(n.targets[0], ast.Name) and n.targets[0].id == var]
    if len(built) != 1 or not isinstance(built[0], ast.Call) \
            or not (dotted_name(built[0].func) or "").endswith("HParams") or built[0].args:
        return None
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    parsed: Optional[str] = None
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == var \
                and node.func.attr in ("parse", "parse_json", "set_hparam", "override_from_dict"):
            if node.func.attr != "parse" or len(node.args) != 1 or not isinstance(node.args[0], ast.Name) \
                    or node.args[0].id not in params or parsed is not None:
                return None
            parsed = node.args[0].id
        if isinstance(node, (ast.Assign, ast.AugAssign)) and any(
                isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == var
                for t in (node.targets if isinstance(node, ast.Assign) else [node.target])):
            return None
    return built[0], parsed


def _carried(idx: Any, name: str) -> bool:
    """Every function of the script with a parameter ``name`` is called only with ``name`` itself there
    (``train(..., hparams)`` from ``train.py:289``): the parameter is the object the script bound."""
    for fns in idx.functions.values():
        for fn in fns:
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            positional = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
            if name not in positional and name not in {a.arg for a in fn.args.kwonlyargs}:
                continue
            calls = [s.call for s in idx.calls if s.name == fn.name]
            if not calls:
                return False
            for call in calls:
                given = next((k.value for k in call.keywords if k.arg == name), None)
                if given is None and name in positional:
                    i = positional.index(name) - (1 if positional and positional[0] in ("self", "cls") else 0)
                    if any(isinstance(a, ast.Starred) for a in call.args[:i + 1]) or i >= len(call.args):
                        return False
                    given = call.args[i]
                if not (isinstance(given, ast.Name) and given.id == name):
                    return False
    return True


def _option_not_given(idx: Any, expr: ast.AST) -> bool:
    """``args.hparams`` of an argparse option declared once without a default and not on the launch line
    (argparse leaves it None: tacotron2 ``train.py:274``)."""
    from preflight.script_index import opaque_words

    if not (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name)
            and expr.value.id in getattr(idx, "parsed_args", ())):
        return False
    specs = idx.arguments.get(expr.attr, [])
    if len(specs) != 1 or specs[0].default is not None or specs[0].action is not None:
        return False
    return idx._from_argv(specs[0]) is None and not opaque_words(idx.args)


def hparams_attr(idx: Any, expr: ast.Attribute, depth: int) -> Optional[Any]:
    from preflight.script_index import Resolved

    if not isinstance(expr.value, ast.Name):
        return None
    name, attr = expr.value.id, expr.attr
    bound = [b for b in idx.assigns.get(name, []) if b is not None]
    if len(bound) != 1 or not isinstance(bound[0], ast.Call) or not isinstance(bound[0].func, ast.Name):
        return None
    call = bound[0]
    func = call.func
    assert isinstance(func, ast.Name)
    builder = func.id
    cache = idx.__dict__.setdefault("_hparams_builders", {})
    if builder not in cache:
        found = _builder(idx, builder)
        shape = _hparams_of(found[0]) if found is not None else None
        cache[builder] = (found, shape) if found is not None and shape is not None else None
    if cache[builder] is None:
        return None
    (fn, where), (built, parsed) = cache[builder]
    if not _carried(idx, name):
        return None
    tree = idx.script.tree
    if tree is None or any(isinstance(n, (ast.Assign, ast.AugAssign)) and any(
            isinstance(t, ast.Attribute) and t.attr == attr and isinstance(t.value, ast.Name) and t.value.id == name
            for t in (n.targets if isinstance(n, ast.Assign) else [n.target])) for n in ast.walk(tree)):
        return None
    default = next((k.value for k in built.keywords if k.arg == attr), None)
    if default is None or any(k.arg is None for k in built.keywords):
        return None
    computed = ""
    if not isinstance(default, ast.Constant):
        got = _module_constant(idx, builder, default)
        if got is None:
            return None
        default, computed = got
    value = default.value
    detail = f"{builder}() ({where}:{fn.lineno}) builds HParams({attr}={value!r})"
    if computed:
        detail += f", {computed}"
    kind, key = "code", None
    if parsed is not None:
        positional = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
        given = next((k.value for k in call.keywords if k.arg == parsed), None)
        if given is None and parsed in positional and positional.index(parsed) < len(call.args):
            given = call.args[positional.index(parsed)]
        if given is not None and not (isinstance(given, ast.Constant) and given.value is None) \
                and not _option_not_given(idx, given):
            text = idx.resolve(given, depth + 1)
            if text is None or not (text.value is None or isinstance(text.value, str)):
                return None
            overrides = _parsed(text.value or "")
            if overrides is None:
                return None
            if attr in overrides:
                value = _typed(overrides[attr], default.value)
                if value is None:
                    return None
                detail = f"{detail}, parsed over by {overrides[attr]!r} from the hparams string"
                kind, key = text.kind, text.key
                if text.detail:
                    detail += f" ({text.detail})"
    return Resolved(value, kind, getattr(expr, "lineno", None), key, detail)
