"""A project model picked by name from a registry dict of the project's own constructors.

Diffusion-transformer repositories and their many descendants build the model through a table
in their model module (facebookresearch/DiT @ ed81ce2 ``train.py:141-145``:
``model = DiT_models[args.model](input_size=latent_size, num_classes=args.num_classes)`` with
``models.py:365`` ``DiT_models = {'DiT-XL/2': DiT_XL_2, ...}`` and ``:328-329`` ``def
DiT_XL_2(**kwargs): return DiT(depth=28, hidden_size=1152, patch_size=2, num_heads=16,
**kwargs)``). Read, never imported:

- the call ``REG[key](kw=...)`` in the script, ``REG`` imported from a module beside the script
  (``from models import DiT_models``) where it is bound once to a dict literal of names;
- ``key`` resolved as any value (launch line, declared default, code);
- the constructor a function of the module whose body is one ``return Cls(..literals.., **kwargs)``;
- ``Cls`` counted by ``module_params_nested.count_module`` with the constructor's literals and the
  call's keywords (each resolved, else unknown: fine until the count needs it), timm's
  ``PatchEmbed``/``Attention``/``Mlp`` included: ``model.num_parameters`` and
  ``model.class_name`` (and the key as ``model.ref``), medium. Anything else (a key not known, a
  constructor that computes, a class not counted) states nothing.

Also read: an entry in the table that is a class (AntixK/PyTorch-VAE ``vae_models[config[
'model_params']['name']](**config['model_params'])``, the config a YAML loaded once), and the table
called inside a project helper over an OmegaConf config (Vchitect/Latte ``get_models(args)``, see
``ModelRegistryAdapter._helper``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter

_MAX_BYTES = 500_000
# ``cls = REG[key]`` on a line of its own: a registry entry bound first, called after (model_registry_bound)
_BOUND = re.compile(r"^\s*\w+\s*=\s*\w+\[[^\]\n]+\]\s*(?:#.*)?$", re.M)


def _picks(text: str) -> bool:
    return "](" in text or _BOUND.search(text) is not None


def _module_of(script: Any, name: str) -> Optional[tuple[Path, ast.Module]]:
    """The module beside the script that ``from M import name`` names (or ``from M import *`` of a
    module that binds it), parsed."""
    if script.tree is None or script.source.path is None:
        return None
    folder = Path(str(script.source.path)).parent
    for node in script.tree.body:
        if not (isinstance(node, ast.ImportFrom) and node.module and node.level in (0, 1)):
            continue
        star = any(a.name == "*" for a in node.names)
        if not star and not any(a.name == name and a.asname is None for a in node.names):
            continue
        rel = node.module.replace(".", "/")
        for found in (folder / f"{rel}.py", folder / rel / "__init__.py"):
            if not found.is_file():
                continue
            try:
                if found.stat().st_size > _MAX_BYTES:
                    continue
                from preflight.local_trees import parse_file

                tree = parse_file(found)
            except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
                continue
            if not star or _table(tree, name) is not None:  # ``from models import *``: the one that binds it
                return found, tree
    return None


def _table(tree: ast.Module, name: str) -> Optional[dict[str, str]]:
    """``NAME = {'key': func, ...}``, bound once at the top of the module."""
    bound = [n for n in tree.body if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name
                                                                          for t in n.targets)]
    if len(bound) != 1 or not isinstance(bound[0].value, ast.Dict):
        return None
    out: dict[str, str] = {}
    for k, v in zip(bound[0].value.keys, bound[0].value.values):
        if not (isinstance(k, ast.Constant) and isinstance(k.value, str) and isinstance(v, ast.Name)):
            return None
        out[k.value] = v.id
    return out


def _constructor(tree: ast.Module, name: str) -> Optional[tuple[str, dict[str, Any], ast.FunctionDef]]:
    """``def f(**kwargs): return Cls(a=1, ..., **kwargs)``: (Cls, its literal keywords, the def); the
    preset shape of :func:`preflight.adapters.model_registry_args.constructor` with no positional parameter."""
    from preflight.adapters.model_registry_args import constructor

    got = constructor(tree, name)
    if got is None or got[1] != 0:
        return None
    return got[0], got[2], got[3]


_LOADS = ("yaml.safe_load", "yaml.load", "yaml.full_load", "json.load", "OmegaConf.load")


def _loaded_config(idx: Any, project: Project, expr: ast.AST) -> Any:
    """``config['model_params']['name']`` where ``config`` is bound once to ``yaml.safe_load(...)`` (or
    json/OmegaConf): the value at that key path in the one config given to the audit that has it
    (AntixK/PyTorch-VAE ``run.py:25-27,38``, ``-c configs/vae.yaml``); None otherwise."""
    from preflight.analysis.syntax import config_at, dotted_name, unpacked_key_path

    path = unpacked_key_path(expr)
    root = expr
    while isinstance(root, (ast.Subscript, ast.Attribute)):
        root = root.value
    if not path or not isinstance(root, ast.Name):
        return None
    bound = idx.assigns.get(root.id, [])
    if len(bound) != 1 or not isinstance(bound[0], ast.Call) or (dotted_name(bound[0].func) or "") not in _LOADS:
        return None
    found = []
    for _, cfg in project.configs:
        holder = config_at(cfg.data, path[:-1]) if len(path) > 1 else cfg.data
        if isinstance(holder, dict) and path[-1] in holder:
            found.append(holder[path[-1]])
    return found[0] if len(found) == 1 else None


def _local_dict(idx: Any, tree: ast.AST, expr: ast.AST) -> Optional[dict[str, Any]]:
    """``**block_kwargs`` where the script binds ``block_kwargs`` once to a dict literal with string keys
    (sihyun-yu/REPA @ 67f7145 ``train.py:164-172``: ``block_kwargs = {"fused_attn": args.fused_attn,
    "qk_norm": args.qk_norm}`` then ``SiT_models[args.model](..., **block_kwargs)``): its keys, each value
    resolved (else unknown); None for any other spread, or a dict the script changes after
    (``block_kwargs[k] = ...``, ``block_kwargs.update(...)``)."""
    from preflight.adapters.module_params_nested import UNKNOWN

    if not isinstance(expr, ast.Name):
        return None
    bound = idx.assigns.get(expr.id, [])
    if len(bound) != 1 or not isinstance(bound[0], ast.Dict):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == expr.id:
            return None  # ``block_kwargs.update(...)`` (any method: not followed)
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == expr.id \
                and isinstance(node.ctx, (ast.Store, ast.Del)):
            return None
    out: dict[str, Any] = {}
    for k, v in zip(bound[0].keys, bound[0].values):
        if not (isinstance(k, ast.Constant) and isinstance(k.value, str)) or k.value in out:
            return None
        got = idx.resolve(v)
        out[k.value] = got.value if got is not None else UNKNOWN
    return out


_MAX_DEFAULTED = 2


def _with_defaults(tree: ast.Module, cls: str, kwargs: dict[str, Any]) -> tuple[Any, list[str]]:
    """The count with the call's keywords that are not known left to the class's declared defaults
    (REPA ``z_dims = [encoder.embed_dim for encoder in encoders]``, the width of a frozen encoder
    loaded at run time; ``SiT(z_dims=[768])`` declares it): only for at most two such keywords,
    the sizes that dominate coming from the registry constructor's literals; (None, []) otherwise."""
    from preflight.adapters.module_params_nested import UNKNOWN, count_module

    missing = sorted(k for k, v in kwargs.items() if v is UNKNOWN)
    if not missing or len(missing) > _MAX_DEFAULTED:
        return None, []
    counted = count_module(tree, cls, [], {k: v for k, v in kwargs.items() if v is not UNKNOWN})
    return (counted, missing) if counted is not None else (None, [])


def _class_module(path: Path, tree: ast.Module, name: str) -> Optional[tuple[Path, ast.Module]]:
    """The module of the package that defines class ``name`` (itself, or one it imports it from
    relatively: ``from .vanilla_vae import *``), its tree extended with the classes of the local
    modules that one imports relatively (a base class in ``.base``), for counting."""
    parse = _parse

    def relative(p: Path, t: ast.Module) -> list[tuple[Path, ast.ImportFrom]]:
        return [(p.parent / (n.module.replace(".", "/") + ".py"), n) for n in t.body
                if isinstance(n, ast.ImportFrom) and n.level == 1 and n.module]

    home: Optional[tuple[Path, ast.Module]] = None
    if any(isinstance(n, ast.ClassDef) and n.name == name for n in tree.body):
        home = (path, tree)
    else:
        for sub, node in relative(path, tree):
            if not any(a.name in ("*", name) and a.asname is None for a in node.names):
                continue
            sub_tree = parse(sub)
            if sub_tree is not None and any(isinstance(n, ast.ClassDef) and n.name == name for n in sub_tree.body):
                home = (sub, sub_tree)
                break
    if home is None:
        return None
    extra: list[ast.stmt] = []
    # base classes: in the modules the class's module or the package importing it import relatively
    # (PyTorch-VAE ``models/base.py`` ``BaseVAE``, re-exported by ``models/__init__.py``)
    for sub, _node in [*relative(path, tree), *relative(*home)]:
        sub_tree = parse(sub)
        if sub_tree is not None:
            extra.extend(n for n in sub_tree.body if isinstance(n, ast.ClassDef))
    return home[0], ast.Module(body=[*extra, *home[1].body], type_ignores=[])



def _parse(p: Path) -> Optional[ast.Module]:
    from preflight.local_trees import parse_project_file

    return parse_project_file(p, _MAX_BYTES)


def _table_home(path: Path, tree: ast.Module, name: str) -> Optional[tuple[Path, ast.Module, dict[str, str]]]:
    """The registry ``name`` bound in this module, or in a sibling it imports it from relatively
    (Latte ``models/__init__.py:5`` ``from .latte import Latte_models``)."""
    table = _table(tree, name)
    if table is not None:
        return path, tree, table
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module \
                and any(a.name == name and a.asname is None for a in node.names):
            sub = path.parent / (node.module.replace(".", "/") + ".py")
            sub_tree = _parse(sub)
            table = _table(sub_tree, name) if sub_tree is not None else None
            if sub_tree is not None and table is not None:
                return sub, sub_tree, table
    return None


class _View:
    """The attributes of a config object loaded from one YAML/JSON file (``OmegaConf.load``), with the
    assignments ``param.attr = expr`` the function around the call makes before it."""

    def __init__(self, data: dict, param: str, fn: ast.AST, before: int) -> None:
        self.data, self.param = dict(data), param
        self.locals: dict[str, list[ast.expr]] = {}
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                t = node.targets[0]
                if isinstance(t, ast.Name):
                    self.locals.setdefault(t.id, []).append(node.value)
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and getattr(node, "lineno", 0) < before:
                t = node.targets[0]
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == param:
                    self.data[t.attr] = self.ev(node.value)

    def ev(self, node: ast.AST, depth: int = 0) -> Any:
        from preflight.adapters.module_params_nested import UNKNOWN

        if depth > 6:
            return UNKNOWN
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == self.param:
            return self.data.get(node.attr, UNKNOWN)
        if isinstance(node, ast.Name) and len(self.locals.get(node.id, [])) == 1:
            return self.ev(self.locals[node.id][0], depth + 1)
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
            a, b = self.ev(node.left, depth + 1), self.ev(node.right, depth + 1)
            if all(isinstance(v, int) and not isinstance(v, bool) for v in (a, b)) \
                    and not (isinstance(node.op, ast.FloorDiv) and b == 0):
                return {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b}.get(type(node.op)) \
                    if not isinstance(node.op, ast.FloorDiv) else a // b
        return UNKNOWN

    def test(self, node: ast.AST) -> Optional[bool]:
        """``'Latte' in args.model``, ``args.model == 'x'``: decided from the view, else None."""
        from preflight.adapters.module_params_nested import UNKNOWN

        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            a, b = self.ev(node.left), self.ev(node.comparators[0])
            if a is UNKNOWN or b is UNKNOWN:
                return None
            op = node.ops[0]
            try:
                if isinstance(op, ast.In):
                    return a in b
                if isinstance(op, ast.NotIn):
                    return a not in b
                if isinstance(op, ast.Eq):
                    return bool(a == b)
                if isinstance(op, ast.NotEq):
                    return bool(a != b)
            except TypeError:
                return None
        return None


def _taken_return(stmts: list[ast.stmt], view: _View) -> Optional[ast.Return]:
    """The ``return`` an if/elif chain of decided tests reaches; None when undecided or not that shape."""
    for st in stmts:
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant):
            continue
        if isinstance(st, ast.Return):
            return st
        if isinstance(st, ast.If):
            t = view.test(st.test)
            if t is None:
                return None
            got = _taken_return(st.body if t else st.orelse, view)
            if got is not None or (st.body if t else st.orelse):
                return got
            continue
        return None
    return None


@register_adapter
class ModelRegistryAdapter(Adapter):
    name = "model_registry"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any(s.tree is not None and (_picks(s.source.text) or "OmegaConf.load(" in s.source.text)
                   for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            if script.tree is not None and _picks(script.source.text):
                self._script(project, plan, script)
            if script.tree is not None and "OmegaConf.load(" in script.source.text \
                    and plan.value("model.num_parameters") is None:
                self._helper(project, plan, script)

    def _helper(self, project: Project, plan: TrainingPlan, script: Any) -> None:
        """``model = get_models(args)`` in ``main(args)``, the script calling ``main(OmegaConf.load(
        args.config))`` once (Vchitect/Latte @ 4d2a4bd ``train.py:47,88-90,285``): ``get_models`` a function
        of a module beside the script whose ``if``/``elif`` tests on the config's keys (``'Latte' in
        args.model``, ``models/__init__.py:31-50``) reach ``return REG[args.model](kw=args.x, ...)``; the
        config's keys from the file ``OmegaConf.load`` reads (given to the audit), updated by the
        ``args.x = ...`` assignments ``main`` makes before the call (``args.latent_size = image_size // 8``)."""
        from preflight.adapters.module_params_nested import UNKNOWN, count_module

        idx = project.index(script)
        loads = [s for s in idx.calls if (s.name or "").endswith("OmegaConf.load") and len(s.call.args) == 1]
        fed = [c for c in ast.walk(script.tree) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
               and len(c.args) == 1 and any(c.args[0] is s.call for s in loads)]
        if len(fed) != 1 or len(loads) != 1:
            return
        path_value = idx.resolve(loads[0].call.args[0])
        if path_value is None or not isinstance(path_value.value, str):
            return
        import os

        data = [c.data for _, c in project.configs if isinstance(c.data, dict)
                and os.path.normpath(str(c.path)).endswith(os.path.normpath(path_value.value).lstrip("./"))]
        entry = fed[0].func
        assert isinstance(entry, ast.Name)
        main_defs = [f for f in idx.functions.get(entry.id, []) if isinstance(f, ast.FunctionDef)]
        if len(data) != 1 or len(main_defs) != 1 or len(main_defs[0].args.args) != 1:
            return
        main, param = main_defs[0], main_defs[0].args.args[0].arg
        for call in ast.walk(main):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and len(call.args) == 1
                    and isinstance(call.args[0], ast.Name) and call.args[0].id == param and not call.keywords):
                continue
            module = _module_of(script, call.func.id)
            if module is None:
                continue
            defs = [f for f in module[1].body if isinstance(f, ast.FunctionDef) and f.name == call.func.id]
            if len(defs) != 1 or len(defs[0].args.args) != 1:
                continue
            view = _View(data[0], param, main, call.lineno)
            view.param = defs[0].args.args[0].arg
            ret = _taken_return(defs[0].body, view)
            made = ret.value if ret is not None else None
            if not (isinstance(made, ast.Call) and isinstance(made.func, ast.Subscript)
                    and isinstance(made.func.value, ast.Name)) or made.args \
                    or any(k.arg is None for k in made.keywords):
                continue
            assert isinstance(made, ast.Call) and isinstance(made.func, ast.Subscript) \
                and isinstance(made.func.value, ast.Name)
            home = _table_home(module[0], module[1], made.func.value.id)
            key = view.ev(made.func.slice)
            if home is None or not isinstance(key, str) or key not in home[2]:
                continue
            built = _constructor(home[1], home[2][key])
            if built is None:
                continue
            cls, literals, fn = built
            kwargs: dict[str, Any] = dict(literals)
            if any(k.arg in kwargs for k in made.keywords):
                continue
            kwargs.update({str(k.arg): view.ev(k.value) for k in made.keywords})
            counted = count_module(home[1], cls, [], kwargs)
            if counted is None:
                continue
            total, layers = counted
            given = sum(1 for v in kwargs.values() if v is not UNKNOWN)
            detail = (f"{call.func.id}({param}) at line {call.lineno}: {defs[0].name}() ({module[0].name}:"
                      f"{defs[0].lineno}) returns {ast.unparse(made.func)}(...) for {key!r} ({path_value.value}); "
                      f"{home[2][key]}() ({home[0].name}:{fn.lineno}) builds {cls}(...) with {total:,} parameters "
                      f"of {len(layers)} layers ({given} argument(s) known)")
            src = project.source(script, call, "code", detail=detail)
            self.add_checked(plan, "model.ref", key, src, "medium")  # the registry's name, as ``--model X`` is
            self.add_checked(plan, "model.class_name", cls, src, "medium")
            self.add_checked(plan, "model.num_parameters", total, src, "medium")
            return

    def _script(self, project: Project, plan: TrainingPlan, script: Any) -> None:
        from preflight.adapters.model_registry_bound import bound_entry
        from preflight.adapters.model_registry_config import config_value
        from preflight.adapters.module_params_imports import with_imports
        from preflight.adapters.module_params_nested import UNKNOWN, count_module

        idx = project.index(script)
        found = []
        entries: dict[int, ast.AST] = {}
        for site in idx.calls:
            func = site.call.func
            if isinstance(func, ast.Name) and not site.call.args and func.id in idx.assigns:
                func = bound_entry(idx, script.tree, site.call) or func  # ``cls = REG[key]`` then ``cls(...)``
            if not (isinstance(func, ast.Subscript) and isinstance(func.value, ast.Name)) or site.call.args \
                    or idx.runs(site) is False:
                continue
            module = _module_of(script, func.value.id)
            if module is None:
                continue
            entries[id(site)] = func
            path, tree = module
            table = _table(tree, func.value.id)
            key = config_value(idx, project, func.slice)
            if key is UNKNOWN:
                key = _loaded_config(idx, project, func.slice)
            if table is None or not isinstance(key, str) or key not in table:
                continue
            made = _constructor(tree, table[key])
            if made is not None:
                cls, literals, fn = made
                where = f"{table[key]}() ({path.name}:{fn.lineno}), {cls}(...)"
                count_tree = with_imports(path, tree)
            else:
                home = _class_module(path, tree, table[key])
                if home is None:
                    continue
                cls, literals, count_tree = table[key], {}, home[1]
                where = f"the class {cls} ({home[0].name})"
            kwargs: dict[str, Any] = dict(literals)
            ok = True
            for kw in site.call.keywords:
                if kw.arg is None:
                    spread = _local_dict(idx, script.tree, kw.value)
                    if spread is None:
                        spread = _loaded_config(idx, project, kw.value)
                    if not isinstance(spread, dict) or any(not isinstance(k, str) or k in kwargs for k in spread):
                        ok = False
                        break
                    kwargs.update(spread)
                    continue
                if kw.arg in kwargs:
                    ok = False
                    break  # Python refuses a keyword given twice
                kwargs[str(kw.arg)] = config_value(idx, project, kw.value)
            if ok:
                counted = count_module(count_tree, cls, [], kwargs)
                defaulted: list[str] = []
                if counted is None and made is not None:
                    counted, defaulted = _with_defaults(count_tree, cls, kwargs)
                if counted is not None:
                    found.append((site, key, where, cls, counted, defaulted))
        if len({f[4][0] for f in found}) != 1:
            return  # none, or calls that disagree
        site, key, where, cls, (total, layers), defaulted = found[0]
        shown = ast.unparse(site.call.func)
        if isinstance(site.call.func, ast.Name):
            shown += f" = {ast.unparse(entries[id(site)])}"
        detail = (f"{shown}: {key!r} is {where} with {total:,} parameters of "
                  f"{len(layers)} layers counted from their sizes")
        confidence = "medium"
        if defaulted:
            confidence = "low"
            detail += (f"; {', '.join(defaulted)} not known statically: counted with {cls}'s declared "
                       f"default{'s' if len(defaulted) > 1 else ''}")
        src = project.source(script, site.call, "code", detail=detail)
        self.add_checked(plan, "model.ref", key, src, "medium")  # the registry's name, as ``--model X`` is
        self.add_checked(plan, "model.class_name", cls, src, "medium")
        self.add_checked(plan, "model.num_parameters", total, src, confidence)
