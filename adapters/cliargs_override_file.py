"""A YAML/JSON file whose keys a project helper ``setattr``s over the parsed options after the
launch line was parsed (read by :mod:`preflight.adapters.cliargs_pass`; nothing is imported or run).

THUDM/GraphMAE @ the benchmark's commit, ``main_graph.py:199-202``: ``args = build_args()``, ``if
args.use_cfg: args = load_best_configs(args, "configs.yml")``, whose body (``graphmae/utils.py:187-201``)
is ``configs = yaml.load(open(path))``, ``if args.dataset not in configs: return args``, ``configs =
configs[args.dataset]``, ``for k, v in configs.items(): setattr(args, k, v)``. With ``--use_cfg`` on the
line (``scripts/run_graph.sh``) every key of the dataset's section replaces the option's value, the
line's own included (REDDIT-BINARY ``batch_size: 8`` over the argparse default 32). The same helper is
copied across the GraphMAE family (GraphMAE2 and others: ``load_best_configs(args, "configs.yml")``).

Read when: the call's arguments are the parsed namespace and a literal path; the helper (in the script
or a module beside it) takes two parameters, loads the path with yaml/json, optionally narrows to
``cfg[args.X]`` (X an option whose value is known), and ``setattr(args, k, v)`` over ``cfg.items()``;
the ``if`` tests around the call are options whose value is known (a flag on the line, else its
default). A section not in the file applies nothing (the helper returns early). Anything else is not
read (the option values stay as they were).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Callable, Optional

from preflight.plan import Source

_LOADERS = ("load", "safe_load", "full_load", "unsafe_load")


def _setattr_loop(fn: ast.FunctionDef, target: str) -> Optional[str]:
    """The dict name whose ``.items()`` a loop ``setattr(target, k, v)``s, or None."""
    for node in ast.walk(fn):
        if not (isinstance(node, ast.For) and isinstance(node.iter, ast.Call)
                and isinstance(node.iter.func, ast.Attribute) and node.iter.func.attr == "items"
                and isinstance(node.iter.func.value, ast.Name) and isinstance(node.target, ast.Tuple)
                and len(node.target.elts) == 2 and all(isinstance(e, ast.Name) for e in node.target.elts)):
            continue
        key = node.target.elts[0].id  # type: ignore[attr-defined]
        for call in ast.walk(node):
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "setattr" \
                    and len(call.args) == 3 and isinstance(call.args[0], ast.Name) and call.args[0].id == target \
                    and isinstance(call.args[1], ast.Name) and call.args[1].id == key:
                return node.iter.func.value.id
    return None


def _loads_path(fn: ast.FunctionDef, path_param: str, cfg: str) -> bool:
    """``cfg = yaml.load(f, ...)`` / ``json.load(f)`` with ``f`` from ``open(path_param)`` in ``fn``."""
    opens = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "open" and n.args
                and isinstance(n.args[0], ast.Name) and n.args[0].id == path_param for n in ast.walk(fn))
    if not opens:
        return False
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and node.targets[0].id == cfg and isinstance(node.value, ast.Call) \
                and isinstance(node.value.func, ast.Attribute) and node.value.func.attr in _LOADERS \
                and isinstance(node.value.func.value, ast.Name) and node.value.func.value.id in ("yaml", "json"):
            return True
    return False


def _section(fn: ast.FunctionDef, target: str, cfg: str) -> tuple[bool, Optional[str]]:
    """(shape ok, option name X) of ``cfg = cfg[target.X]``; (True, None) without one; (False, None) when
    ``cfg`` is rebound otherwise."""
    option: Optional[str] = None
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == cfg for t in node.targets):
            value = node.value
            if isinstance(value, ast.Call):
                continue  # the load itself
            if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name) and value.value.id == cfg \
                    and isinstance(value.slice, ast.Attribute) and isinstance(value.slice.value, ast.Name) \
                    and value.slice.value.id == target and option is None:
                option = value.slice.attr
                continue
            return False, None
    return True, option


def _helper(idx: Any, script: Any, call: ast.Call) -> Optional[tuple[ast.FunctionDef, str]]:
    """The helper's ``def`` and where it is (display)."""
    func = call.func
    if isinstance(func, ast.Name) and func.id in idx.functions and func.id not in idx.imports:
        defs = [d for d in idx.functions[func.id] if isinstance(d, ast.FunctionDef)]
        return (defs[0], str(script.source.display)) if len(defs) == 1 else None
    from preflight.analysis.syntax import dotted_name
    from preflight.script_helper_writes import local_module_function

    name = dotted_name(func) or ""
    if not name or name.partition(".")[0] not in idx.imports:
        return None
    found = local_module_function(idx, idx.qualify(name) or "")
    if found is None or not isinstance(found[0], ast.FunctionDef):
        return None
    return found[0], str(found[1])


def _guards(tree: ast.AST, call: ast.Call) -> Optional[list[ast.expr]]:
    """The ``if`` tests the call sits in the body of (outermost first); None when it sits in an
    ``else`` or another compound statement's body."""
    out: list[ast.expr] = []

    def walk(stmts: list[ast.stmt]) -> bool:
        for stmt in stmts:
            if any(n is call for n in ast.walk(stmt)):
                if isinstance(stmt, ast.If):
                    if stmt.test is not None and any(n is call for n in ast.walk(stmt.test)):
                        return False
                    if any(any(n is call for n in ast.walk(s)) for s in stmt.body):
                        out.append(stmt.test)
                        return walk(stmt.body)
                    return False
                return isinstance(stmt, (ast.Expr, ast.Assign))
        return False

    return out if walk(getattr(tree, "body", [])) else None


def override_values(project: Any, script: Any, option: Callable[[str], Any]) -> dict[str, tuple[Any, Source]]:
    """``name -> (value, source)`` of the options an override file replaces (module docstring).
    ``option(name)`` gives an option's value (line, else default), or None."""
    from preflight.adapters.cliargs_override_option import option_file_values

    idx = project.index(script)
    out: dict[str, tuple[Any, Source]] = option_file_values(project, script, idx, option)
    if not any(ext in script.source.text for ext in (".yml", ".yaml", ".json")):
        return out
    parsed = set(idx.parsed_args)
    for node in ast.walk(script.tree):
        if not (isinstance(node, ast.Call) and len(node.args) == 2 and not node.keywords
                and isinstance(node.args[0], ast.Name) and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
                and node.args[1].value.lower().endswith((".yml", ".yaml", ".json"))):
            continue
        ns = node.args[0].id
        if parsed and ns not in parsed and not _from_parser_helper(idx, ns):
            continue
        found = _helper(idx, script, node)
        if found is None:
            continue
        fn, where = found
        params = [a.arg for a in fn.args.args]
        if len(params) != 2:
            continue
        target, path_param = params
        cfg = _setattr_loop(fn, target)
        if cfg is None or not _loads_path(fn, path_param, cfg):
            continue
        ok, section = _section(fn, target, cfg)
        if not ok:
            continue
        guards = _guards(script.tree, node)
        if guards is None or not all(_taken(t, ns, option) for t in guards):
            continue
        values = _file_values(project, script, node.args[1].value, section, option)
        if values is None:
            continue
        shown, loaded, data, key_prefix = values
        call_at = f"{script.source.display}:{node.lineno}"
        for key, value in data.items():
            if not isinstance(key, str) or isinstance(value, (dict, list)):
                continue
            detail = (f"{fn.name}({ns}, {node.args[1].value!r}) ({call_at}; {where}:{fn.lineno}) sets every key "
                      f"of {shown}{' section ' + repr(key_prefix[0]) if key_prefix else ''} over the parsed "
                      "options, the launch line's included")
            out[key] = (value, Source("config", shown, loaded.lines.get((*key_prefix, key)), key, detail))
    return out


def _from_parser_helper(idx: Any, name: str) -> bool:
    """``args = build_args()`` where the helper returns ``parser.parse_args()`` (GraphMAE ``utils.py``)."""
    bound = idx.assigns.get(name) or []
    return bool(bound) and all(isinstance(b, ast.Call) for b in bound if b is not None)


def _taken(test: ast.expr, ns: str, option: Callable[[str], Any]) -> bool:
    """Whether ``if args.flag:`` (or ``if not args.flag:``) is taken by the option's known value."""
    neg = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    inner = test.operand if isinstance(test, ast.UnaryOp) and neg else test
    if isinstance(inner, ast.Compare) and isinstance(inner.left, ast.Name) and inner.left.id == "__name__":
        return not neg
    if not (isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name) and inner.value.id == ns):
        return False
    value = option(inner.attr)
    if not isinstance(value, bool):
        return False
    return value != neg


def project_file(project: Any, script: Any, name: str) -> Optional[Path]:
    """The readable file ``name`` names, looked up under the project root, then beside the script; else None."""
    root = Path(str(project.root))
    here = Path(str(script.source.path)).parent if script.source.path else root
    for base in (root, here):
        cand = base / name
        try:
            if cand.is_file() and project.may_read(cand):
                return cand
        except OSError:
            continue
    return None


def _file_values(project: Any, script: Any, name: str, section: Optional[str],
                 option: Callable[[str], Any]) -> Optional[tuple[str, Any, dict, tuple]]:
    from preflight.adapters.config_object_files import _load

    root = Path(str(project.root))
    cand = project_file(project, script, name)
    if cand is None:
        return None
    loaded = _load(project, cand, root)
    if loaded is None or not isinstance(loaded.data, dict):
        return None
    data = loaded.data
    prefix: tuple = ()
    if section is not None:
        key = option(section)
        if not isinstance(key, str):
            return None
        if key not in data:
            return loaded.path, loaded, {}, (key,)  # the helper returns early: nothing applied
        data = data[key]
        prefix = (key,)
        if not isinstance(data, dict):
            return None
    return loaded.path, loaded, data, prefix
