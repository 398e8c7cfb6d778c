"""A config file splatted into a project function's keyword parameters: ``main(**OmegaConf.load(path))``.

showlab/Tune-A-Video ``train_tuneavideo.py:39-69,362-367`` (7d4a89a)::

    def main(pretrained_model_path: str, output_dir: str, train_data: Dict, ...,
             train_batch_size: int = 1, gradient_accumulation_steps: int = 1,
             mixed_precision: Optional[str] = "fp16", use_8bit_adam: bool = False, ...):
        accelerator = Accelerator(gradient_accumulation_steps=gradient_accumulation_steps, ...)
    ...
    main(**OmegaConf.load(args.config))          # --config configs/man-skiing.yaml

Each top-level key of the loaded file is the parameter of that name; a parameter the file lacks keeps
its default (the file is read whole, so its keys are known); a keyword written in the call wins over
both. The parameters then flow like any configuration object's values
(:mod:`preflight.adapters.config_object_reads`, medium). Read only when the callee is one module-level
``def`` the entry sees, with no ``*args``, and the call has no positional argument or second splat;
a file key that names no parameter of a function without ``**kwargs`` (the call would fail) leaves the
whole call unread. The file is found as :func:`preflight.adapters.config_object_files.file_tree` finds
it (a literal path or an option of the job); nothing is imported or executed.
"""

from __future__ import annotations

import ast
from typing import Any, Callable, Optional

from preflight.adapters.config_object import Leaf, Tree


def splatted_file(call: ast.Call, load: Callable[[ast.AST], Optional[Tree]], modules: Any, shown: str,
                  builder: Any) -> Optional[tuple[str, ast.FunctionDef, Tree]]:
    """(root name, the callee, parameter -> its value) for ``f(**LOAD(path))``, else None."""
    spread = [k.value for k in call.keywords if k.arg is None]
    if len(spread) != 1 or call.args or not isinstance(call.func, ast.Name):
        return None
    tree = load(spread[0])
    if not tree:
        return None
    got = modules.function(call.func.id)
    if got is None or got[2] is not None or got[0] != shown:
        return None
    fn = got[1]
    if fn.args.vararg is not None or fn.args.posonlyargs:
        return None
    positional, kwonly = fn.args.args, fn.args.kwonlyargs
    defaults: dict[str, Optional[ast.expr]] = {a.arg: None for a in (*positional, *kwonly)}
    for a, d in zip(positional[len(positional) - len(fn.args.defaults):], fn.args.defaults):
        defaults[a.arg] = d
    for a, d in zip(kwonly, fn.args.kw_defaults):
        defaults[a.arg] = d
    if fn.args.kwarg is None and any(k not in defaults for k in tree):
        return None  # the call would fail (an unexpected keyword): not this file, or not this job
    explicit = {k.arg for k in call.keywords if k.arg is not None}
    out: Tree = {}
    for param, default in defaults.items():
        if param in explicit:
            continue  # the call's own keyword: the ordinary resolution reads it
        if param in tree:
            out[param] = tree[param]
        elif default is not None:
            value = builder.value(default, shown, how="parameter default")
            if isinstance(value, Leaf):
                out[param] = value
    return f"{call.func.id}(**{shown}:{call.lineno})", fn, out


def splat_file_binder(project: Any, script: Any, index: Any) -> Callable[[ast.expr, Any, str], Any]:
    """For :class:`~preflight.script_index.ScriptIndex`: ``bind(spread, function, parameter)`` of a call
    ``function(**spread)`` in the script, with ``spread`` a config load as :func:`path_expr` knows them and
    its path resolved by the index (a literal, an option of the job): the file's top-level value of that
    key (capped at medium), :data:`~preflight.adapters.splat_call.DEFAULT` when the file lacks it, None
    when unknown (no such file, a nested value, a key the function does not take and no ``**kwargs``)."""
    from pathlib import Path

    from preflight.adapters.cliargs_override_file import project_file
    from preflight.adapters.config_object_files import _KINDS, _load, path_expr
    from preflight.adapters.splat_call import DEFAULT

    from preflight.script_index_core import Resolved

    def bind(spread: ast.expr, fn: Any, parameter: str) -> Any:
        expr = path_expr(spread, {})
        if expr is None or fn.args.vararg is not None or fn.args.posonlyargs:
            return None
        raw = index.resolve(expr)
        if raw is None or not isinstance(raw.value, str) or Path(raw.value).suffix.lower() not in _KINDS:
            return None
        root = Path(str(project.root))
        cand = project_file(project, script, raw.value)
        if cand is None:
            return None
        loaded = _load(project, cand, root)
        data = getattr(loaded, "data", None)
        if not isinstance(data, dict):
            return None
        params = {a.arg for a in (*fn.args.args, *fn.args.kwonlyargs)}
        if fn.args.kwarg is None and any(k not in params for k in data):
            return None  # the call would fail (an unexpected keyword): not read
        if parameter not in data:
            return DEFAULT
        value = data[parameter]
        if isinstance(value, (dict, list)) or (isinstance(value, str) and "${" in value):
            return None
        line = loaded.lines.get((parameter,)) if isinstance(getattr(loaded, "lines", None), dict) else None
        where = f"{loaded.path}:{line}" if line else str(loaded.path)
        return Resolved(value, "code", None, None, f"{parameter} of {where}, splatted into {fn.name}(**...)",
                        "low" if raw.cap == "low" else "medium")

    return bind
