"""A project model made by a builder function that returns it beside other objects, with the options
handed in as a dict.

OpenAI's diffusion code and its many descendants build the model with its diffusion process in one call
(openai/improved-diffusion @ 1bc7bbb ``scripts/image_train.py:22-24``: ``model, diffusion =
create_model_and_diffusion(**args_to_dict(args, model_and_diffusion_defaults().keys()))``; in
``improved_diffusion/script_util.py``: ``:11-35`` ``model_and_diffusion_defaults()`` returns a
``dict(...)`` of the model's options, ``:271-278`` ``add_dict_to_argparser`` declares one option per key,
``:281-282`` ``args_to_dict`` is ``{k: getattr(args, k) for k in keys}``, ``:38-83``
``create_model_and_diffusion`` returns ``model, diffusion``). Read, never imported:

- ``a, b = f(...)`` in a script, ``f`` a function of a project module the script imports;
- its keywords resolved as ``model_imported`` resolves them, and a ``**h(args, g().keys())`` spread where
  ``h`` returns ``{k: getattr(A, k) for k in K}`` over its two parameters and ``g`` returns a dict literal
  or ``dict(...)`` of literal keys: each key ``k`` is the option ``args.k`` (launch line, declared default);
- the count: ``module_params_calls.count_call`` of ``f`` for each item of the tuple it returns; the one item
  that is a counted module is the model: ``model.num_parameters`` (medium) and its attention kernel
  (``model_attention``). None or several items counted state nothing.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter


def _dict_keys(node: Optional[ast.AST]) -> Optional[dict[str, ast.expr]]:
    """key -> value expression of a dict literal or ``dict(...)`` of literal keys."""
    if isinstance(node, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.keys):
        return {str(k.value): v for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant)}
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" \
            and not node.args and all(k.arg is not None for k in node.keywords):
        return {str(k.arg): k.value for k in node.keywords}
    return None


def _returned_dict_keys(fn: ast.FunctionDef, tree: ast.Module, depth: int = 0) -> Optional[dict[str, ast.expr]]:
    """key -> value expression of the dict the function returns: a literal / ``dict(...)``, or a local bound to one and
    grown by ``res.update(g())`` with ``g`` a function of the same module returning such a dict
    (openai/guided-diffusion @ 22e0df8 ``script_util.py:52-65``: ``res = dict(...)``,
    ``res.update(diffusion_defaults())``, ``return res``)."""
    if depth > 3 or not fn.body or not isinstance(fn.body[-1], ast.Return) or fn.body[-1].value is None:
        return None
    value = fn.body[-1].value
    direct = _dict_keys(value)
    if direct is not None:
        return direct if len(fn.body) == 1 or all(isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                                                  for s in fn.body[:-1]) else None
    if not isinstance(value, ast.Name):
        return None
    keys: Optional[dict[str, ast.expr]] = None
    for stmt in fn.body[:-1]:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue  # the docstring
        if keys is None and isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 \
                and isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id == value.id:
            keys = _dict_keys(stmt.value)
            if keys is None and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name) \
                    and not stmt.value.args and not stmt.value.keywords:
                inner = _module_function(tree, stmt.value.func.id)
                keys = _returned_dict_keys(inner, tree, depth + 1) if inner is not None else None
            if keys is None:
                return None
            continue
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if keys is not None and isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                and call.func.attr == "update" and isinstance(call.func.value, ast.Name) \
                and call.func.value.id == value.id and len(call.args) == 1 and not call.keywords \
                and isinstance(call.args[0], ast.Call) and isinstance(call.args[0].func, ast.Name) \
                and not call.args[0].args and not call.args[0].keywords:
            inner = _module_function(tree, call.args[0].func.id)
            more = _returned_dict_keys(inner, tree, depth + 1) if inner is not None else None
            if more is None:
                return None
            keys = {**keys, **more}
            continue
        return None  # anything else may change the dict
    return keys


def _module_function(tree: ast.Module, name: str) -> Optional[ast.FunctionDef]:
    hits = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
    return hits[0] if len(hits) == 1 else None


def _getattr_comprehension(fn: ast.FunctionDef) -> bool:
    """``def h(A, K): return {k: getattr(A, k) for k in K}``."""
    params = [a.arg for a in fn.args.args]
    if len(params) != 2 or len(fn.body) != 1 or not isinstance(fn.body[0], ast.Return):
        return False
    comp = fn.body[0].value
    if not (isinstance(comp, ast.DictComp) and len(comp.generators) == 1 and not comp.generators[0].ifs):
        return False
    gen = comp.generators[0]
    if not (isinstance(gen.target, ast.Name) and isinstance(gen.iter, ast.Name) and gen.iter.id == params[1]):
        return False
    k = gen.target.id
    v = comp.value
    return isinstance(comp.key, ast.Name) and comp.key.id == k and isinstance(v, ast.Call) \
        and isinstance(v.func, ast.Name) and v.func.id == "getattr" and len(v.args) == 2 \
        and isinstance(v.args[0], ast.Name) and v.args[0].id == params[0] \
        and isinstance(v.args[1], ast.Name) and v.args[1].id == k


def _function(script: Any, imported: dict, name: str) -> Optional[tuple[ast.FunctionDef, ast.Module]]:
    """The function ``name`` of the script or of the project module it is imported from, with its module."""
    from preflight.adapters.model_imported import _parse

    if name in imported and imported[name][1]:
        tree = _parse(imported[name][0])
        wanted = imported[name][1]
    else:
        tree, wanted = script.tree, name
    if tree is None:
        return None
    fn = _module_function(tree, wanted)
    return (fn, tree) if fn is not None else None


_TRUE = ("yes", "true", "t", "y", "1")
_FALSE = ("no", "false", "f", "n", "0")


def _option(project: Any, script: Any, key: str) -> Any:
    """``--key``'s value: given on the launch line (converted as the declared default's type converts it,
    a bool through the ``str2bool`` spellings), else its declared default; UNKNOWN when not declared or not
    convertible (options declared from a dict, ``cliargs_dict_options``)."""
    from preflight.adapters.cliargs_options import _cli_values, declared_options
    from preflight.adapters.module_params_nested import UNKNOWN

    decl = declared_options(script, project)
    opt = decl.options.get(key)
    if opt is None:
        return UNKNOWN
    given = _cli_values(list(project.script_args(script)), decl).get(key)
    if given is None:
        return opt.default if opt.has_default else UNKNOWN
    raw, default = given[0], opt.default
    if not isinstance(raw, str) or isinstance(default, str) or default is None:
        return raw
    try:
        if isinstance(default, bool):
            low = raw.lower()
            return True if low in _TRUE else False if low in _FALSE else UNKNOWN
        if isinstance(default, (int, float)):
            return type(default)(raw)
    except ValueError:
        return UNKNOWN
    return UNKNOWN


def _from_dict_default(argv: list[str], key: str, default_node: ast.expr) -> Any:
    """``--key`` of an option declared from the defaults dict that the options reader did not follow: the
    launch line's value converted as the literal default's type converts it (``add_dict_to_argparser``'s
    ``type=type(v)``, ``str2bool`` for a bool), else the literal default; UNKNOWN otherwise."""
    from preflight.adapters.module_params_nested import UNKNOWN

    try:
        default = ast.literal_eval(default_node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return UNKNOWN
    raw = None
    for i, tok in enumerate(argv):
        if tok == f"--{key}" and i + 1 < len(argv):
            raw = argv[i + 1]
        elif tok.startswith(f"--{key}="):
            raw = tok.split("=", 1)[1]
    if raw is None:
        return default
    if isinstance(default, bool):
        low = raw.lower()
        return True if low in _TRUE else False if low in _FALSE else UNKNOWN
    if default is None or isinstance(default, str):
        return raw
    try:
        return type(default)(raw) if isinstance(default, (int, float)) else UNKNOWN
    except ValueError:
        return UNKNOWN


def options_spread(project: Any, idx: Any, script: Any, imported: dict, node: ast.expr) -> Optional[dict[str, Any]]:
    """``h(args, g().keys())`` (``args_to_dict``): {key: the option's value or UNKNOWN}; None when not this shape."""
    from preflight.adapters.module_params_nested import UNKNOWN


    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 2
            and not node.keywords and isinstance(node.args[0], ast.Name)):
        return None
    helper = _function(script, imported, node.func.id)
    if helper is None or not _getattr_comprehension(helper[0]):
        return None
    keys_node = node.args[1]
    if isinstance(keys_node, ast.Call) and isinstance(keys_node.func, ast.Name) and keys_node.func.id == "list" \
            and len(keys_node.args) == 1:
        keys_node = keys_node.args[0]
    if not (isinstance(keys_node, ast.Call) and isinstance(keys_node.func, ast.Attribute)
            and keys_node.func.attr == "keys" and isinstance(keys_node.func.value, ast.Call)
            and isinstance(keys_node.func.value.func, ast.Name) and not keys_node.func.value.args):
        return None
    source = _function(script, imported, keys_node.func.value.func.id)
    keys = _returned_dict_keys(*source) if source is not None else None
    if keys is None:
        return None
    out: dict[str, Any] = {}
    argv = list(project.script_args(script))
    for key, default_node in keys.items():
        option = _option(project, script, key)
        if option is UNKNOWN:
            option = _from_dict_default(argv, key, default_node)
        attr = ast.copy_location(ast.Attribute(value=ast.copy_location(ast.Name(node.args[0].id, ast.Load()),
                                                                       node.args[0]), attr=key, ctx=ast.Load()), node)
        got = idx.resolve(attr)
        out[key] = got.value if got is not None else option
    return out


@register_adapter
class ModelTupleBuilderAdapter(Adapter):
    name = "model_tuple_builder"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any(isinstance(s.tree, ast.Module) and any(
            isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Tuple) and isinstance(n.value, ast.Call)
            for n in ast.walk(s.tree)) for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            if isinstance(script.tree, ast.Module) and self._script(project, plan, script):
                return

    def _script(self, project: Project, plan: TrainingPlan, script: Any) -> bool:
        from preflight.adapters.model_attention import attention_of
        from preflight.adapters.model_imported import (
            ModelImportedAdapter,
            _parse,
            imported_classes,
        )
        from preflight.adapters.module_params_calls import count_call
        from preflight.adapters.module_params_imports import with_imports

        imported = imported_classes(project, script)
        if not imported:
            return False
        idx = project.index(script)
        helper = ModelImportedAdapter()
        found = []
        for site in idx.calls:
            call = site.call
            if not (isinstance(call.func, ast.Name) and call.func.id in imported and imported[call.func.id][1]):
                continue
            assign = next((n for n in ast.walk(script.tree) if isinstance(n, ast.Assign) and n.value is call), None)
            if assign is None or len(assign.targets) != 1 or not isinstance(assign.targets[0], ast.Tuple) \
                    or not all(isinstance(e, ast.Name) for e in assign.targets[0].elts) or idx.runs(site) is False:
                continue
            path, name = imported[call.func.id]
            tree = _parse(path)
            if tree is None or not any(isinstance(n, ast.FunctionDef) and n.name == name for n in tree.body):
                continue
            if any(isinstance(a, ast.Starred) for a in call.args):
                continue
            args = [helper._value(idx, script, site, a) for a in call.args]
            kwargs: dict[str, Any] = {}
            for k in call.keywords:
                if k.arg is not None:
                    kwargs[k.arg] = helper._value(idx, script, site, k.value)
                    continue
                spread = options_spread(project, idx, script, imported, k.value)
                if spread is None:
                    spread = helper._mapping(idx, script, site, k.value)
                if spread is None or any(key in kwargs for key in spread):
                    break
                kwargs.update(spread)
            else:
                merged = with_imports(path, tree)
                items = len(assign.targets[0].elts)
                calls = [(i, count_call(merged, name, args, kwargs, element=i)) for i in range(items)]
                counted = [(i, c) for i, c in calls if c is not None]
                if len(counted) == 1:
                    found.append((site, path, name, assign, counted[0][0], counted[0][1], merged))
        if len({f[5][0] for f in found}) != 1:
            return False
        site, path, name, assign, item, (total, layers), merged = found[0]
        var = assign.targets[0].elts[item].id  # type: ignore[attr-defined]
        detail = (f"{name}(...) of the project ({path.name}) returns {var} (item {item + 1} of "
                  f"{len(assign.targets[0].elts)}): {total:,} parameters of {len(layers)} layers counted from "  # type: ignore[attr-defined]
                  "their sizes with the call's arguments")
        src = project.source(script, site.call, "code", detail=detail)
        self.add_checked(plan, "model.num_parameters", total, src, "medium")
        attn = attention_of(merged, name)
        if attn is not None:
            self.add_checked(plan, "model.attn_implementation", attn[0],
                             project.source(script, site.call, "code", detail=attn[1]), "medium")
        return True
