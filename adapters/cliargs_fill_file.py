"""A YAML/JSON file whose keys fill the parsed options left ``None`` (read by
:mod:`preflight.adapters.cliargs_pass`; nothing is imported or run).

Hannibal046/xRAG @ 121fa41 ``src/language_modeling/train.py:234-241``, inside the script's ``parse_args()``::

    args = parser.parse_args()
    yaml_config = get_yaml_file(args.config)
    ## priority: CLI > YAML (with all default value set to None in argument parser)
    for k,v in yaml_config.items():
        assert hasattr(args,k), f"{k} not in parsed arguments"
        if getattr(args,k) is None:
            setattr(args,k,v)

launched with ``--config config/language_modeling/pretrain.yaml``, whose ``gradient_accumulation_steps: 4``
reaches ``Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps)`` (:384).

Read when: a loop ``for K, V in Y.items():`` whose body sets ``setattr(NS, K, V)`` only under ``if
getattr(NS, K) is None:``, with ``NS`` bound in the same function to ``<parser>.parse_args(...)`` and ``Y``
bound there once to a call that takes ``NS.X``, an option whose value the launch line gives as a
``.yaml``/``.yml``/``.json`` file the job reads. A key fills option ``K`` only where the line does not give
``K`` and ``K`` is declared with no default or ``default=None`` (what the ``None`` test lets through); an
option of another value keeps it. An unguarded ``setattr`` loop (the file over the line) is not read here.
"""

from __future__ import annotations

import ast
import os
from typing import Any, Callable, Optional

from preflight.plan import Source

_SUFFIXES = (".yaml", ".yml", ".json")


def _is_none_test(test: ast.expr, ns: str, key: str) -> bool:
    """``getattr(ns, key) is None``."""
    return (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Is)
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None
            and isinstance(test.left, ast.Call) and isinstance(test.left.func, ast.Name)
            and test.left.func.id == "getattr" and len(test.left.args) == 2
            and isinstance(test.left.args[0], ast.Name) and test.left.args[0].id == ns
            and isinstance(test.left.args[1], ast.Name) and test.left.args[1].id == key)


def _setattr(stmt: ast.stmt, ns: str, key: str, val: str) -> bool:
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    return (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "setattr"
            and len(call.args) == 3 and all(isinstance(a, ast.Name) for a in call.args)
            and [a.id for a in call.args] == [ns, key, val])  # type: ignore[attr-defined]


def _fill_loop(loop: ast.For) -> Optional[tuple[str, str]]:
    """(namespace, dict name) of ``for k, v in d.items(): [assert ...] if getattr(ns, k) is None:
    setattr(ns, k, v)``; None for any other loop (an unguarded ``setattr`` included)."""
    it, target = loop.iter, loop.target
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "items"
            and not it.args and isinstance(it.func.value, ast.Name) and isinstance(target, ast.Tuple)
            and len(target.elts) == 2 and all(isinstance(e, ast.Name) for e in target.elts)):
        return None
    key, val = (e.id for e in target.elts)  # type: ignore[attr-defined]
    found: Optional[str] = None
    for stmt in loop.body:
        if isinstance(stmt, ast.Assert):
            continue
        if not (isinstance(stmt, ast.If) and not stmt.orelse and len(stmt.body) == 1
                and isinstance(stmt.test, ast.Compare) and isinstance(stmt.test.left, ast.Call)
                and stmt.test.left.args and isinstance(stmt.test.left.args[0], ast.Name)):
            return None
        ns = stmt.test.left.args[0].id
        if not (_is_none_test(stmt.test, ns, key) and _setattr(stmt.body[0], ns, key, val)) or found:
            return None
        found = ns
    return (found, it.func.value.id) if found else None


def _bound(fn: ast.AST, name: str) -> list[ast.expr]:
    return [n.value for n in ast.walk(fn) if isinstance(n, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)]


def fill_values(project: Any, script: Any, cli: dict[str, Any], declared: Callable[[str], Any]) \
        -> dict[str, tuple[Any, Source]]:
    """``name -> (value, source)`` of the options a fill loop sets from a file (module docstring).
    ``cli`` holds the options the line gives; ``declared(name)`` is the declared option or None."""
    if "setattr" not in script.source.text or "items()" not in script.source.text:
        return {}
    out: dict[str, tuple[Any, Source]] = {}
    scopes = [n for n in ast.walk(script.tree) if isinstance(n, (ast.FunctionDef, ast.Module))]
    for scope in scopes:
        for loop in (n for n in ast.walk(scope) if isinstance(n, ast.For)):
            got = _fill_loop(loop)
            if got is None:
                continue
            ns, dname = got
            parsed = _bound(scope, ns)
            if len(parsed) != 1 or not (isinstance(parsed[0], ast.Call) and isinstance(parsed[0].func, ast.Attribute)
                                        and parsed[0].func.attr == "parse_args"):
                continue
            made = _bound(scope, dname)
            if len(made) != 1 or not isinstance(made[0], ast.Call):
                continue
            options = [n.attr for n in ast.walk(made[0]) if isinstance(n, ast.Attribute)
                       and isinstance(n.value, ast.Name) and n.value.id == ns]
            if len(options) != 1 or options[0] not in cli:
                continue
            given = cli[options[0]][0]
            if not isinstance(given, str) or not given.lower().endswith(_SUFFIXES):
                continue
            loaded = _config(project, given)
            if loaded is None:
                continue
            at = f"{script.source.display}:{loop.lineno}"
            for key, value in loaded.data.items():
                if not isinstance(key, str) or isinstance(value, (dict, list)) or key in cli:
                    continue
                opt = declared(key)
                if opt is None or (opt.has_default and opt.default is not None):
                    continue  # not an option, or one the None test keeps
                detail = (f"{loaded.path} fills --{key}, left None by the line and its declaration, "
                          f"by the loop at {at} (setattr where getattr(...) is None)")
                out.setdefault(key, (value, Source("config", loaded.path, loaded.lines.get((key,)), key, detail)))
    return out


def _config(project: Any, name: str) -> Any:
    """The loaded config of the job whose path ends with ``name``."""
    want = os.path.normpath(name).lstrip("./")
    for _, cfg in project.configs:
        if os.path.normpath(cfg.path).endswith(want) and isinstance(cfg.data, dict):
            return cfg
    return None


def typer_config_values(project: Any, script: Any, cli: dict[str, Any], declared: Callable[[str], Any]) \
        -> dict[str, tuple[Any, Source]]:
    """``name -> (value, source)`` of the parameters of a typer command decorated with typer_config's
    ``@use_yaml_config(param_name="config")`` (or ``use_json_config``/``use_toml_config``) that the file
    given to that option on the line fills: typer_config puts the file's keys in the command's default
    map, so a key wins over the function's default and the line's own options win over the key
    (amazon-science/chronos-forecasting @ 95185d1 scripts/training/train.py:504-545, ``torchrun ...
    training/train.py --config training/configs/chronos-t5-small.yaml``, whose
    ``per_device_train_batch_size: 32`` reaches ``TrainingArguments(per_device_train_batch_size=...)``)."""
    if "typer_config" not in script.source.text:
        return {}
    from preflight.adapters.cliargs_frontends import typer_config_param

    out: dict[str, tuple[Any, Source]] = {}
    for fn in (n for n in ast.walk(script.tree) if isinstance(n, ast.FunctionDef)):
        param = typer_config_param(fn)
        if param is None or param not in cli:
            continue
        given = cli[param][0]
        if not isinstance(given, str) or not given.lower().endswith((*_SUFFIXES, ".toml")):
            continue
        loaded = _config(project, given)
        if loaded is None:
            continue
        names = {a.arg for a in fn.args.args + fn.args.kwonlyargs}
        at = f"{script.source.display}:{fn.lineno}"
        for key, value in loaded.data.items():
            if not isinstance(key, str) or key not in names or key in cli or isinstance(value, dict) \
                    or declared(key) is None:
                continue
            detail = f"{loaded.path} fills --{key} of the typer command at {at} (typer_config --{param} {given})"
            out.setdefault(key, (value, Source("config", loaded.path, loaded.lines.get((key,)), key, detail)))
    return out
