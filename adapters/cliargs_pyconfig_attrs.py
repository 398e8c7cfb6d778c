"""A Python config file whose top-level names the script ``setattr``s onto the parsed options as new
attributes (read by :mod:`preflight.adapters.cliargs_pass`; nothing is imported or run).

IDEA-Research/DINO @ faa8520 ``main.py:29-31,91-106`` (SLConfig, the mmcv ``Config`` copied into the
DETR family)::

    parser.add_argument('--config_file', '-c', type=str, required=True)
    parser.add_argument('--options', nargs='+', action=DictAction, ...)
    ...
    cfg = SLConfig.fromfile(args.config_file)
    if args.options is not None:
        cfg.merge_from_dict(args.options)
    cfg_dict = cfg._cfg_dict.to_dict()
    args_vars = vars(args)
    for k,v in cfg_dict.items():
        if k not in args_vars:
            setattr(args, k, v)
        else:
            raise ValueError("Key {} can used by args only".format(k))

launched with ``-c config/DINO/DINO_4scale.py --options dn_scalar=100 ...``, whose ``batch_size = 2``
(:12) reaches ``BatchSampler(sampler_train, args.batch_size, drop_last=True)`` (:177-178). The same
loop is in longzw1997/Open-GroundingDino @ e2e61fc ``main.py`` (``SLConfig.fromfile(args.config_file)``,
``merge_from_dict(args.options)``, the same ``setattr`` loop) and the other SLConfig projects of
IDEA-Research (DN-DETR, ``util/slconfig.py``) and their forks (Michel-liu/GroupPose).

Read when: in one function (or the module), a name bound once to ``<X>.fromfile(NS.opt)`` where the
launch line gives ``--opt`` a ``.py`` file of the job, and a loop ``for k, v in D.items():`` whose body
is ``setattr(NS, k, v)``, alone or as the body of ``if k not in ...:`` (its ``else`` may only raise),
with ``D`` bound once in that scope to an expression over the config name. The file is read as
literals with its ``_base_`` files (:func:`preflight.adapters.config_key_pyfile.merged_python_config`);
``<cfg>.merge_from_dict(NS.opt2)`` applies the line's ``--opt2 key=value`` words over it (a value
``literal_eval`` cannot read is left unknown unless it spells a boolean). Only keys the parser does
not declare become options here (a declared one is the parser's, or an error in DINO); only scalar
values. Any other shape, a line the reader cannot expand, or a file not read states nothing.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Callable, Optional

from preflight.plan import Source

_SCALARS = (bool, int, float, str)


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _setattr_of(stmt: ast.stmt, key: str, val: str) -> Optional[str]:
    """``NS`` of ``setattr(NS, key, val)``; None for any other statement."""
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "setattr" \
            and len(call.args) == 3 and not call.keywords and all(isinstance(a, ast.Name) for a in call.args):
        names = [a.id for a in call.args]  # type: ignore[attr-defined]
        if names[1:] == [key, val]:
            return names[0]
    return None


def _loop(loop: ast.For) -> Optional[tuple[str, str]]:
    """(namespace, dict name) of ``for k, v in D.items(): setattr(NS, k, v)`` (or that ``setattr`` under
    ``if k not in ...:`` whose ``else`` only raises)."""
    it, target = loop.iter, loop.target
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "items"
            and not it.args and isinstance(it.func.value, ast.Name) and isinstance(target, ast.Tuple)
            and len(target.elts) == 2 and all(isinstance(e, ast.Name) for e in target.elts)
            and len(loop.body) == 1 and not loop.orelse):
        return None
    key, val = (e.id for e in target.elts)  # type: ignore[attr-defined]
    stmt = loop.body[0]
    if isinstance(stmt, ast.If):
        test = stmt.test
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.NotIn)
                and isinstance(test.left, ast.Name) and test.left.id == key and len(stmt.body) == 1
                and all(isinstance(s, ast.Raise) for s in stmt.orelse)):
            return None
        stmt = stmt.body[0]
    ns = _setattr_of(stmt, key, val)
    return (ns, it.func.value.id) if ns else None


def _bound(scope: ast.AST, name: str) -> list[ast.expr]:
    return [n.value for n in ast.walk(scope) if isinstance(n, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)]


def _option_of(expr: ast.AST, ns: str) -> Optional[str]:
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == ns:
        return expr.attr
    return None


def _words_after(args: list[str], option: str) -> Optional[list[str]]:
    """The words after ``--option`` up to the next ``-`` word; None when the line does not give it."""
    for i, tok in enumerate(args):
        if tok == f"--{option}" or tok == f"--{option.replace('_', '-')}":
            out: list[str] = []
            for more in args[i + 1:]:
                if more.startswith("-") and not more[1:2].isdigit():
                    break
                out.append(more)
            return out
    return None


def _word_value(text: str) -> Any:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, RecursionError, MemoryError, TypeError):
        if text.lower() in ("true", "false"):
            return text.lower() == "true"
        return None


def config_attrs(project: Any, script: Any, cli: dict[str, Any], declared: Callable[[str], Any],
                 args: list[str]) -> dict[str, tuple[Any, Source]]:
    """``name -> (value, source)`` of the attributes the file adds to the parsed options (module docstring).
    ``cli`` holds the options the line gives, ``declared(name)`` the declared option or None, ``args``
    the script's words on the line."""
    text = script.source.text
    if script.tree is None or "fromfile" not in text or "setattr" not in text:
        return {}
    from preflight.adapters.cliargs_override_file import project_file
    from preflight.adapters.config_key_pyfile import merged_python_config

    scopes = [n for n in ast.walk(script.tree) if isinstance(n, (ast.FunctionDef, ast.Module))]
    for scope in scopes:
        for loop in (n for n in ast.walk(scope) if isinstance(n, ast.For)):
            got = _loop(loop)
            if got is None:
                continue
            ns, dname = got
            made = _bound(scope, dname)
            if len(made) != 1:
                continue
            loads = [(name, value) for name in _names(made[0]) for value in _bound(scope, name)
                     if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                     and value.func.attr == "fromfile" and len(value.args) == 1]
            if len(loads) != 1 or len(_bound(scope, loads[0][0])) != 1:
                continue
            cfg_name, load = loads[0]
            option = _option_of(load.args[0], ns)
            given = cli[option][0] if option is not None and option in cli else None
            if not isinstance(given, str) or not given.endswith(".py"):
                continue
            path = project_file(project, script, given)
            merged = merged_python_config(project, Path(str(path))) if path is not None else None
            if merged is None:
                continue
            data, lines = merged
            over: dict[str, Any] = {}
            more: Optional[str] = None
            for node in ast.walk(scope):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                        and node.func.attr == "merge_from_dict" and isinstance(node.func.value, ast.Name) \
                        and node.func.value.id == cfg_name and len(node.args) == 1:
                    more = _option_of(node.args[0], ns)
                    words = _words_after(args, more) if more else None
                    for word in words or []:
                        key, sep, value = word.partition("=")
                        if sep and key:
                            over[key] = _word_value(value)
            at = f"{script.source.display}:{loop.lineno}"
            out: dict[str, tuple[Any, Source]] = {}
            for key, value in data.items():
                if not isinstance(key, str) or key.startswith("_") or declared(key) is not None or key in cli:
                    continue
                if key in over:
                    if not isinstance(over[key], _SCALARS):
                        continue
                    detail = (f"--{more} {key}={over[key]!r} over {given} (cfg.merge_from_dict), set on the options "
                              f"by the loop at {at}")
                    out[key] = (over[key], Source("cli", None, None, f"--{more}", detail))
                    continue
                if not isinstance(value, _SCALARS):
                    continue
                shown, line = lines.get((key,), (given, None))
                detail = f"{given} (fromfile of --{option}) sets {key} on the options by the loop at {at}"
                out[key] = (value, Source("config", shown, line, key, detail))
            return out
    return {}
