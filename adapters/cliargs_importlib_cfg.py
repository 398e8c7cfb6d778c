"""A config class imported by name with importlib and copied onto the parsed options attribute by attribute
(read by :mod:`preflight.adapters.cliargs_pass`; nothing is imported or run).

traptinblur/VCID_2023_3rd_place_code @ the benchmark's commit ``seg_main_finetune.py:27,443-449``::

    sys.path.append("configs")
    ...
    args = get_args_parser().parse_args()
    CFG = importlib.import_module(args.config).CFG
    for attr in dir(CFG):
        if not attr.startswith("__"):
            setattr(args, attr, getattr(CFG, attr))

launched with ``--config base_config``: ``configs/base_config.py``'s ``class CFG`` body (``batch_size = 4``,
``num_workers = 4``, ``pin_mem = True``, ...) lands on ``args``, over any declared option of that name (the
``setattr`` runs after parsing). Kaggle-style code more often keeps the loaded object itself
(``cfg = importlib.import_module(args.config).cfg``, then ``cfg.batch_size``): that form is not read here
(docs/corpus.md, jobs120). A declared option the loop overwrites is put over the parser's value for the
options reader; the script's own resolver of ``args.x`` still reads the parser's default.

Read when: in one scope, a name bound once to ``importlib.import_module(NS.opt).ATTR`` (or ``import_module``
imported from importlib), and a loop ``for a in dir(C):`` whose body is ``setattr(NS, a, getattr(C, a))``,
alone or under ``if not a.startswith("_"/"__"):``. The module is ``<opt>.py`` (dots as folders) looked up
beside the script, under the project root, and under the folders a literal ``sys.path.append/insert`` of the
script names. Only the class's plain ``name = literal`` statements are read (the last one of a name wins);
a name bound any other way in the class body is not stated. Any other shape states nothing."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.plan import Source

_SCALARS = (bool, int, float, str)


def _import_module_attr(value: ast.expr, ns: str) -> Optional[tuple[str, str]]:
    """(option, class attribute) of ``importlib.import_module(NS.opt).ATTR``."""
    if not (isinstance(value, ast.Attribute) and isinstance(value.value, ast.Call)):
        return None
    call = value.value
    func = call.func
    named = (isinstance(func, ast.Attribute) and func.attr == "import_module"
             and isinstance(func.value, ast.Name) and func.value.id == "importlib") \
        or (isinstance(func, ast.Name) and func.id == "import_module")
    if not named or len(call.args) != 1 or call.keywords:
        return None
    arg = call.args[0]
    if isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name) and arg.value.id == ns:
        return arg.attr, value.attr
    return None


def _copy_loop(loop: ast.For) -> Optional[tuple[str, str]]:
    """(namespace, class name) of ``for a in dir(C): [if not a.startswith("_"):] setattr(NS, a, getattr(C, a))``."""
    it = loop.iter
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "dir" and len(it.args) == 1
            and isinstance(it.args[0], ast.Name) and isinstance(loop.target, ast.Name)
            and len(loop.body) == 1 and not loop.orelse):
        return None
    var, cls = loop.target.id, it.args[0].id
    stmt = loop.body[0]
    if isinstance(stmt, ast.If):
        test = stmt.test
        if not (isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
                and isinstance(test.operand, ast.Call) and isinstance(test.operand.func, ast.Attribute)
                and test.operand.func.attr == "startswith" and isinstance(test.operand.func.value, ast.Name)
                and test.operand.func.value.id == var and len(test.operand.args) == 1
                and isinstance(test.operand.args[0], ast.Constant)
                and test.operand.args[0].value in ("_", "__") and len(stmt.body) == 1 and not stmt.orelse):
            return None
        stmt = stmt.body[0]
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "setattr"
            and len(call.args) == 3 and not call.keywords and isinstance(call.args[0], ast.Name)
            and isinstance(call.args[1], ast.Name) and call.args[1].id == var):
        return None
    got = call.args[2]
    if not (isinstance(got, ast.Call) and isinstance(got.func, ast.Name) and got.func.id == "getattr"
            and len(got.args) == 2 and isinstance(got.args[0], ast.Name) and got.args[0].id == cls
            and isinstance(got.args[1], ast.Name) and got.args[1].id == var):
        return None
    return call.args[0].id, cls


def _path_dirs(tree: ast.AST) -> list[str]:
    """Literal folders ``sys.path.append("x")`` / ``sys.path.insert(i, "x")`` add."""
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("append", "insert") and isinstance(node.func.value, ast.Attribute) \
                and node.func.value.attr == "path" and isinstance(node.func.value.value, ast.Name) \
                and node.func.value.value.id == "sys" and node.args:
            last = node.args[-1]
            if isinstance(last, ast.Constant) and isinstance(last.value, str):
                out.append(last.value)
    return out


def _module_path(project: Any, script: Any, module: str) -> Optional[Path]:
    root = Path(str(project.root))
    here = Path(str(script.source.path)).parent if script.source.path else root
    rel = module.replace(".", "/") + ".py"
    bases = [here, root] + [b / d for d in _path_dirs(script.tree) for b in (here, root)]
    for base in bases:
        cand = base / rel
        try:
            if cand.is_file() and project.may_read(cand):
                return cand
        except OSError:
            continue
    return None


def _class_literals(path: Path, cls: str) -> Optional[dict[str, tuple[Any, int]]]:
    from preflight.sources import read_text_limited

    try:
        tree = ast.parse(read_text_limited(path, 500_000, errors="replace"))
    except (OSError, ValueError, SyntaxError, RecursionError, MemoryError):
        return None
    found = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls]
    if len(found) != 1:
        return None
    out: dict[str, tuple[Any, int]] = {}
    for stmt in found[0].body:
        if isinstance(stmt, ast.Assign):
            targets, rhs = list(stmt.targets), stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            targets, rhs = [stmt.target], stmt.value
        else:
            continue
        for target in targets:
            if not isinstance(target, ast.Name):
                continue
            try:
                value = ast.literal_eval(rhs)
            except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
                out.pop(target.id, None)  # bound otherwise: not stated
                continue
            out[target.id] = (value, stmt.lineno)
    return out


def importlib_config_attrs(project: Any, script: Any, cli: dict[str, Any]) -> dict[str, tuple[Any, Source]]:
    """``name -> (value, source)`` of the attributes the copy loop puts on the options (module docstring)."""
    text = script.source.text
    if script.tree is None or "import_module" not in text or "setattr" not in text or "dir(" not in text:
        return {}
    scopes = [n for n in ast.walk(script.tree) if isinstance(n, (ast.FunctionDef, ast.Module))]
    for scope in scopes:
        for loop in (n for n in ast.walk(scope) if isinstance(n, ast.For)):
            got = _copy_loop(loop)
            if got is None:
                continue
            ns, cls_name = got
            bound = [n.value for n in ast.walk(scope) if isinstance(n, ast.Assign)
                     and any(isinstance(t, ast.Name) and t.id == cls_name for t in n.targets)]
            if len(bound) != 1:
                continue
            picked = _import_module_attr(bound[0], ns)
            if picked is None:
                continue
            option, attr = picked
            given = cli[option][0] if option in cli else None
            if not isinstance(given, str) or not given or "$" in given:
                continue
            module = given[:-3] if given.endswith(".py") else given
            path = _module_path(project, script, module.replace("/", "."))
            if path is None:
                continue
            values = _class_literals(path, attr)
            if values is None:
                continue
            try:
                shown = str(path.relative_to(Path(str(project.root))))
            except ValueError:
                shown = str(path)
            at = f"{script.source.display}:{loop.lineno}"
            out: dict[str, tuple[Any, Source]] = {}
            for key, (value, line) in values.items():
                if key.startswith("_") or not isinstance(value, _SCALARS):
                    continue
                detail = (f"{shown} class {attr} (importlib.import_module of --{option} {given}) copied onto the "
                          f"options by the loop at {at}")
                out[key] = (value, Source("config", shown, line, key, detail))
            return out
    return {}
