"""A project function that parses its own options, loads the JSON file one of them names and returns it as an
attribute dict: the configuration object of the VITS family (:mod:`preflight.adapters.config_object_files`
reads the file; its keys then flow like any other object's).

jaywalnut310/vits @ 2e561ba ``train.py:49-50,53,69,113`` and ``utils.py:144-171,229-234`` (jaywalnut310/glow-tts
the same, ``train.py:33-34,58,71``): ``hps = utils.get_hparams()``, whose body is ``parser.add_argument('-c',
'--config', type=str, default="./configs/base.json")``, ``args = parser.parse_args()``, ``config_path =
args.config``, ``if init: with open(config_path, "r") as f: data = f.read()`` (``init=True`` by default; the
other arm reads the copy it has just saved), ``config = json.loads(data)``, ``hparams = HParams(**config)``,
``return hparams``; ``HParams.__init__(self, **kwargs)`` sets every key as an attribute, wrapping a dict value in
another ``HParams``, so ``hps.train.batch_size`` is the file's ``train.batch_size``. The same ``utils.py`` is
copied into many speech repositories (so-vits-svc, Bert-VITS2, MB-iSTFT-VITS, MeloTTS, ...).

:func:`hparams_file` gives the path the call loads: the call passes no positional argument; the function (of the
script or a module it imports) has defaults for all its parameters, parses its options once, returns one name
bound once to ``W(**C)``/``W(C)`` with ``W`` an attribute-dict class of the project (the shape above, or a
``dict`` subclass, or ``self.__dict__ = d``) and ``C`` bound once to ``json.loads(D)``/``json.load(F)``/
``yaml.safe_load(...)`` of a file opened on the option's value (directly or through a name bound once to it);
``if`` tests on the function's parameters are decided by their defaults (and the call's literal keywords). The
option's value is the launch line's, else its literal default. Anything else: None (nothing is read).
"""

from __future__ import annotations

import ast
from typing import Any, Optional

_LOADERS = {("json", "loads"), ("json", "load"), ("yaml", "load"), ("yaml", "safe_load"), ("yaml", "full_load")}


def _dotted(node: ast.AST) -> str:
    from preflight.analysis.syntax import dotted_name

    return dotted_name(node) or ""


def _live(stmts: list[ast.stmt], known: dict[str, Any]) -> list[ast.stmt]:
    """The statements that run, flattened: ``if`` tests on a known parameter take one arm; other blocks are
    entered (both arms of an undecided ``if``)."""
    out: list[ast.stmt] = []
    for stmt in stmts:
        if isinstance(stmt, ast.If):
            test = stmt.test
            negate = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
            name = test.operand if negate and isinstance(test, ast.UnaryOp) else test
            if isinstance(name, ast.Name) and name.id in known:
                taken = bool(known[name.id]) != negate
                out.extend(_live(stmt.body if taken else stmt.orelse, known))
                continue
            out.extend(_live(stmt.body, known))
            out.extend(_live(stmt.orelse, known))
            continue
        out.append(stmt)
        if isinstance(stmt, (ast.With, ast.For, ast.While, ast.Try)):
            inner = list(stmt.body)
            if isinstance(stmt, ast.Try):
                inner += [s for h in stmt.handlers for s in h.body] + list(stmt.orelse) + list(stmt.finalbody)
            out.extend(_live(inner, known))
    return out


def attribute_dict(cls: ast.ClassDef) -> bool:
    """``HParams`` as the VITS family writes it: ``__init__(self, **kwargs)`` of one ``for k, v in
    kwargs.items():`` loop that may rewrap a dict value in the class itself and stores ``self[k] = v`` (with
    ``__setitem__`` calling ``setattr``) or ``setattr(self, k, v)``; no ``__getattr__``/``__getattribute__``."""
    methods = {i.name: i for i in cls.body if isinstance(i, ast.FunctionDef)}
    if "__getattr__" in methods or "__getattribute__" in methods:
        return False
    init = methods.get("__init__")
    if init is None or init.args.args[1:] or init.args.vararg or init.args.kwonlyargs or init.args.kwarg is None:
        return False
    kwargs = init.args.kwarg.arg
    body = [s for s in init.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(body) != 1 or not isinstance(body[0], ast.For):
        return False
    loop = body[0]
    if not (isinstance(loop.target, ast.Tuple) and len(loop.target.elts) == 2
            and all(isinstance(e, ast.Name) for e in loop.target.elts)
            and _dotted(loop.iter.func if isinstance(loop.iter, ast.Call) else loop.iter) == f"{kwargs}.items"):
        return False
    k, v = (e.id for e in loop.target.elts)  # type: ignore[attr-defined]
    stored = False
    for stmt in loop.body:
        if isinstance(stmt, ast.If):  # ``if type(v) == dict: v = HParams(**v)``
            if not all(isinstance(s, ast.Assign) and _dotted(s.targets[0]) == v and isinstance(s.value, ast.Call)
                       and _dotted(s.value.func) == cls.name for s in stmt.body) or stmt.orelse:
                return False
            continue
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Subscript) \
                and _dotted(stmt.targets[0].value) == "self" and _dotted(stmt.targets[0].slice) == k \
                and _dotted(stmt.value) == v:
            setitem = methods.get("__setitem__")
            if setitem is None or not any(isinstance(n, ast.Call) and _dotted(n.func) == "setattr"
                                          for n in ast.walk(setitem)):
                return False
            stored = True
            continue
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and _dotted(stmt.value.func) == "setattr" \
                and [_dotted(a) for a in stmt.value.args] == ["self", k, v]:
            stored = True
            continue
        return False
    return stored


def _wrapped(value: ast.AST, builder: Any) -> Optional[str]:
    """The name of the dict ``value`` wraps in an attribute-dict class of the project, or None."""
    from preflight.adapters.config_object_roots import wrapped_name

    wrapped = wrapped_name(value)
    if wrapped is None:
        return None
    name, arg = wrapped
    classes = builder.m.classes.get(name, [])
    if len(classes) != 1:
        return None
    cls = classes[0][1]
    from preflight.adapters.config_object_roots import _dict_as_attributes

    if attribute_dict(cls) or _dict_as_attributes(cls) or [_dotted(b) for b in cls.bases] == ["dict"]:
        return arg
    return None


def _option(fn: ast.FunctionDef, dest: str, argv: list[str]) -> Optional[str]:
    """The value of the option ``dest`` declared in ``fn``: the launch line's, else its literal default."""
    flags: list[str] = []
    longs: list[str] = []  # every long option of the parser, for argparse's unique prefixes
    default: Optional[str] = None
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument"):
            continue
        names = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        longs.extend(n for n in names if n.startswith("--"))
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        own = kw.get("dest")
        long = next((n for n in names if n.startswith("--")), names[0] if names else "")
        if (own.value if isinstance(own, ast.Constant) else long.lstrip("-").replace("-", "_")) != dest:
            continue
        if flags:
            return None  # declared twice
        flags = [n for n in names if n.startswith("-")]
        given = kw.get("default")
        if isinstance(given, ast.Constant) and isinstance(given.value, str):
            default = given.value
    if not flags:
        return None
    value: Optional[str] = None
    for i, tok in enumerate(argv):
        name, eq, val = tok.partition("=")
        if name.startswith("--") and name not in longs:
            # argparse takes a unique prefix of a long option (myshell-ai/MeloTTS ``melo/train.sh:11`` ``--c
            # $CONFIG`` for ``--config``)
            matches = [n for n in longs if n.startswith(name)]
            name = matches[0] if len(matches) == 1 else name
        if name in flags:
            value = val if eq else (argv[i + 1] if i + 1 < len(argv) else None)
    if value is None and any(tok.startswith("$") for tok in argv):
        return None  # a word not known may be the option
    return value if value is not None else default


def _bound(stmts: list[ast.stmt], name: str) -> Optional[ast.AST]:
    values = [s.value for s in stmts if isinstance(s, ast.Assign) and len(s.targets) == 1
              and isinstance(s.targets[0], ast.Name) and s.targets[0].id == name]
    return values[0] if len(values) == 1 else None


def hparams_file(call: ast.AST, builder: Any, argv: list[str]) -> Optional[str]:
    """The path of the JSON/YAML file ``call`` loads and returns as an attribute dict (see the module comment)."""
    if builder is None or not isinstance(call, ast.Call) or call.args:
        return None
    func = call.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) \
        and isinstance(func.value, ast.Name) else None
    got = builder.m.function(name) if name else None
    if got is None or got[2] is not None:
        return None
    fn = got[1]
    a = fn.args
    if a.posonlyargs or a.vararg or a.kwarg or len(a.defaults) != len(a.args) or any(d is None for d in a.kw_defaults):
        return None
    known: dict[str, Any] = {}
    for p, d in [*zip(a.args, a.defaults), *zip(a.kwonlyargs, a.kw_defaults)]:
        try:
            known[p.arg] = ast.literal_eval(d)
        except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
            known.pop(p.arg, None)
    for kw in call.keywords:
        if kw.arg is None or kw.arg not in known:
            return None
        try:
            known[kw.arg] = ast.literal_eval(kw.value)
        except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
            known.pop(kw.arg)
    stmts = _live(list(fn.body), known)
    parsed = [s.targets[0].id for s in stmts if isinstance(s, ast.Assign) and len(s.targets) == 1
              and isinstance(s.targets[0], ast.Name) and isinstance(s.value, ast.Call)
              and isinstance(s.value.func, ast.Attribute) and s.value.func.attr == "parse_args"]
    returns = [s for s in stmts if isinstance(s, ast.Return)]
    if len(parsed) != 1 or len(returns) != 1 or not isinstance(returns[0].value, ast.Name):
        return None
    made = _bound(stmts, returns[0].value.id)
    data_name = _wrapped(made, builder) if made is not None else None
    loaded = _bound(stmts, data_name) if data_name else None
    if not (isinstance(loaded, ast.Call) and len(loaded.args) >= 1
            and tuple(_dotted(loaded.func).split(".")[-2:]) in _LOADERS):
        return None
    handles: dict[str, ast.AST] = {}
    for s in stmts:
        if isinstance(s, ast.With):
            for item in s.items:
                opener = item.context_expr
                mode = opener.args[1] if isinstance(opener, ast.Call) and len(opener.args) > 1 else None
                if isinstance(opener, ast.Call) and _dotted(opener.func) == "open" and opener.args \
                        and isinstance(item.optional_vars, ast.Name) \
                        and (mode is None or (isinstance(mode, ast.Constant) and str(mode.value).startswith("r"))):
                    handles[item.optional_vars.id] = opener.args[0]
    source = loaded.args[0]
    if isinstance(source, ast.Name) and source.id not in handles:  # ``data = f.read()``
        text = _bound(stmts, source.id)
        if not (isinstance(text, ast.Call) and isinstance(text.func, ast.Attribute) and text.func.attr == "read"
                and isinstance(text.func.value, ast.Name)):
            return None
        source = text.func.value
    if isinstance(source, ast.Call) and _dotted(source.func) == "open" and source.args:
        path: Optional[ast.AST] = source.args[0]
    elif isinstance(source, ast.Name) and source.id in handles:
        path = handles[source.id]
    else:
        return None
    if isinstance(path, ast.Name):
        path = _bound(stmts, path.id)
    if not (isinstance(path, ast.Attribute) and isinstance(path.value, ast.Name) and path.value.id == parsed[0]):
        return None
    return _option(fn, path.attr, argv)
