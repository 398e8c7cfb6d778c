"""A project model picked by name from a registry table and handed arguments by position.

``model_registry`` reads ``REG[key](kw=...)`` with a table beside the script. Real projects also hand the
entry positional arguments, most often the parsed options whole, and keep the table in a package
(Tencent/HunyuanDiT @ 368280e ``hydit/train_deepspeed.py:32,281-285``: ``from hydit.modules.models import
HUNYUAN_DIT_MODELS`` ... ``model = HUNYUAN_DIT_MODELS[args.model](args, input_size=latent_size,
log_fn=logger.info)``, with ``hydit/modules/models.py:745-766`` ``def DiT_g_2(args, **kwargs): return
HunYuanDiT(args, depth=40, hidden_size=1408, ...)`` and ``HUNYUAN_DIT_MODELS = {"DiT-g/2": DiT_g_2, ...}``;
the class reads ``args.learn_sigma``, ``args.text_states_dim`` ... from the options). Read, never imported:

- the call ``REG[key](a, ..., kw=...)`` with at least one positional argument, or a table that is not
  beside the script; ``REG`` imported by the script from a project module (beside it, in a package above
  it), bound there once to a dict literal of names, every key written once (a name registered twice is
  not decided here);
- ``key`` resolved as any value (launch line, declared default, code) and in the table;
- the entry a class of the project, or a function whose body is one ``return Cls(p1, ..., lit=...,
  **kwargs)`` handing its own positional parameters on in order;
- each positional argument: a value resolved, the parsed options handed in whole (their known values by
  name), else unknown; each keyword: resolved, a value the enclosing function computes in straight-line
  code before the call (``image_size = args.image_size``; ``if len(image_size) == 1: image_size = [...]``;
  ``latent_size = [image_size[0] // 8, ...]``, ``registry_flow``), a logging function (``print``,
  ``logger.info``: holds no module), else unknown;
- the count: ``module_params_nested.count_module`` over the class's module with the project classes it
  imports: ``model.ref`` (the key), ``model.class_name`` and ``model.num_parameters``, medium. Calls that
  disagree, a key not in the table, a class not counted: nothing.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter

_LOG_METHODS = ("debug", "info", "warning", "warn", "error", "critical", "exception")


def _table_module(script: Any, name: str) -> Optional[tuple[Path, ast.Module, bool]]:
    """The project module the script imports ``name`` from (``from pkg.mod import NAME``), parsed, and
    whether it lies beside the script; None when not one such module."""
    from preflight.adapters.module_params_imports import _parse, imported_files

    if script.tree is None or script.source.path is None:
        return None
    path = Path(str(script.source.path))
    found: list[Path] = []
    for node in script.tree.body:
        if isinstance(node, ast.ImportFrom) and any(a.name == name and a.asname is None for a in node.names):
            files = imported_files(path, ast.Module(body=[node], type_ignores=[]))
            found.extend(f for f in files if f.name != "__init__.py" or len(files) == 1)
    if len(found) != 1:
        return None
    tree = _parse(found[0])
    if tree is None:
        return None
    return found[0], tree, found[0].parent == path.parent


def table(tree: ast.Module, name: str) -> Optional[dict[str, str]]:
    """``NAME = {'key': func, ...}`` bound once at the top of the module, each key written once."""
    bound = [n for n in tree.body if isinstance(n, ast.Assign)
             and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)]
    if len(bound) != 1 or not isinstance(bound[0].value, ast.Dict):
        return None
    out: dict[str, str] = {}
    for k, v in zip(bound[0].value.keys, bound[0].value.values):
        if not (isinstance(k, ast.Constant) and isinstance(k.value, str) and isinstance(v, ast.Name)) \
                or k.value in out:
            return None  # a key written twice: Python keeps the last, a reader should not guess which
        out[k.value] = v.id
    return None if written_elsewhere(tree, name) else out


def written_elsewhere(tree: ast.Module, name: str) -> bool:
    """Whether the module writes to the table ``name`` after binding it (``NAME[k] = ...``, ``del NAME[k]``,
    ``NAME.update``/``pop``/``setdefault``): then it is not a plain table."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == name \
                and isinstance(node.ctx, (ast.Store, ast.Del)):
            return True
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name \
                and node.attr in ("update", "pop", "setdefault", "__setitem__"):
            return True
    return False


def constructor(tree: ast.Module, name: str) -> Optional[tuple[str, int, dict[str, Any], ast.FunctionDef]]:
    """``def f(p1, ..., **kwargs): return Cls(p1, ..., lit=..., **kwargs)``: (Cls, how many positional
    parameters it hands on, its literal keywords, the def); None for any other body."""
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
    if len(defs) != 1:
        return None
    fn = defs[0]
    a = fn.args
    if a.posonlyargs or a.kwonlyargs or a.vararg or a.kwarg is None or a.defaults:
        return None
    body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(body) != 1 or not isinstance(body[0], ast.Return) or not isinstance(body[0].value, ast.Call):
        return None
    call = body[0].value
    params = [p.arg for p in a.args]
    if not isinstance(call.func, ast.Name) \
            or [x.id if isinstance(x, ast.Name) else None for x in call.args] != params:
        return None
    literals: dict[str, Any] = {}
    spread = False
    for kw in call.keywords:
        if kw.arg is None:
            if not (isinstance(kw.value, ast.Name) and kw.value.id == a.kwarg.arg) or spread:
                return None
            spread = True
            continue
        try:
            literals[kw.arg] = ast.literal_eval(kw.value)
        except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
            return None
    if not spread:
        return None
    return call.func.id, len(params), literals, fn


def _none_options(project: Project, script: Any) -> set[str]:
    """Options the job's parser declares with ``default=None`` that neither the launch line nor a file
    of the parser sets (HunyuanDiT ``hydit/config.py:85`` ``--size-cond ... default=None``, read by the
    model as ``if args.size_cond:``): their value is None. Empty when the line has words not expanded."""
    from preflight.adapters.cliargs import _Pass

    p = _Pass(None, project, None, script)  # values only (no adapter, no plan)
    if p.opaque:
        return set()
    return {name for name, opt in p.decl.options.items() if opt.origin == "argparse" and opt.has_default
            and opt.default is None and name not in p.cli and name not in p.file_values}


def _options(idx: Any, node: ast.expr, attrs: list[str], nones: set[str]) -> Any:
    """The parsed options handed in whole (``REG[k](args)``): the known value of each attribute name the
    counted classes read, as a mapping; UNKNOWN when none is known (not the options)."""
    from preflight.adapters.module_params_nested import UNKNOWN

    if not isinstance(node, ast.Name):
        return UNKNOWN
    known: dict[str, Any] = {}
    for attr in attrs:
        got = idx.resolve(ast.copy_location(ast.Attribute(value=ast.Name(node.id, ast.Load()), attr=attr,
                                                          ctx=ast.Load()), node))
        if got is not None:
            known[attr] = got.value
    if not known:
        return UNKNOWN
    known.update({attr: None for attr in attrs if attr in nones and attr not in known})
    return known


_MAX_PROBED = 2


def _doubled(value: Any) -> Any:
    """A second value of the same shape: ints (alone or in a tuple/list) doubled; None for others."""
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value * 2
    if isinstance(value, (tuple, list)) and value and all(isinstance(v, int) and not isinstance(v, bool)
                                                          and v > 0 for v in value):
        return type(value)(v * 2 for v in value)
    return None


def _probed(tree: ast.Module, cls: str, args: list[Any], kwargs: dict[str, Any],
            plain: list[str]) -> tuple[Optional[tuple[int, list[str]]], list[str]]:
    """The count when the keywords not known (two at most, not handed in as plain values) do not change
    it: counted with the class's declared integer defaults for them and with those doubled, the two counts
    equal (HunyuanDiT's ``input_size``, a latent size only its patch count reads); (None, []) otherwise."""
    from preflight.adapters.module_params_nested import UNKNOWN, count_module

    missing = sorted(k for k, v in kwargs.items() if v is UNKNOWN and k not in plain)
    klass = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls), None)
    init = next((n for n in klass.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None) \
        if klass is not None else None
    if not missing or len(missing) > _MAX_PROBED or init is None:
        return None, []
    params = init.args.args[len(init.args.args) - len(init.args.defaults):]
    defaults: dict[str, Any] = {}
    for p, d in zip(params, init.args.defaults):
        try:
            defaults[p.arg] = ast.literal_eval(d)
        except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
            continue
    if not all(k in defaults and _doubled(defaults[k]) is not None for k in missing):
        return None, []
    one = count_module(tree, cls, args, {**kwargs, **{k: defaults[k] for k in missing}}, plain=plain)
    two = count_module(tree, cls, args, {**kwargs, **{k: _doubled(defaults[k]) for k in missing}}, plain=plain)
    if one is None or two is None or one[0] != two[0]:
        return None, []
    return one, missing


def _log_function(node: ast.AST) -> bool:
    """``print`` or ``x.info`` (a logging function handed in: it builds no module)."""
    return (isinstance(node, ast.Name) and node.id == "print") \
        or (isinstance(node, ast.Attribute) and node.attr in _LOG_METHODS)


@register_adapter
class ModelRegistryArgsAdapter(Adapter):
    name = "model_registry_args"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any(s.tree is not None and "](" in s.source.text for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        if plan.value("model.num_parameters") is not None:
            return
        for script in project.scripts:
            if script.tree is not None and "](" in script.source.text:
                self._script(project, plan, script)

    def _script(self, project: Project, plan: TrainingPlan, script: Any) -> None:
        idx = project.index(script)
        nones = _none_options(project, script)
        found = []
        for site in idx.calls:
            func = site.call.func
            if not (isinstance(func, ast.Subscript) and isinstance(func.value, ast.Name)) \
                    or idx.runs(site) is False or any(isinstance(a, ast.Starred) for a in site.call.args):
                continue
            got = self._site(project, script, idx, site, nones)
            if got is not None:
                found.append(got)
        if not found or len({f[4][0] for f in found}) != 1 or len({f[1] for f in found}) != 1:
            return  # none, or calls that disagree
        site, key, where, cls, (total, layers), probed = found[0]
        detail = (f"{ast.unparse(site.call.func)}: {key!r} is {where} with {total:,} parameters of "
                  f"{len(layers)} layers counted from their sizes and the arguments handed in")
        if probed:
            detail += (f"; {', '.join(probed)} not known statically: the count is the same with {cls}'s declared "
                       f"default and with twice it")
        src = project.source(script, site.call, "code", detail=detail)
        self.add_checked(plan, "model.ref", key, src, "medium")  # the registry's name, as ``--model X`` is
        self.add_checked(plan, "model.class_name", cls, src, "medium")
        self.add_checked(plan, "model.num_parameters", total, src, "low" if probed else "medium")

    def _site(self, project: Project, script: Any, idx: Any, site: Any, nones: set[str]) -> Optional[tuple]:
        """(site, key, where, class, (count, layers), keywords probed) of one registry call; None when
        any step is not known."""
        from preflight.adapters.model_registry import _class_module
        from preflight.adapters.model_registry_config import config_value
        from preflight.adapters.module_params_imports import with_imports
        from preflight.adapters.module_params_nested import UNKNOWN, count_module
        from preflight.adapters.registry_flow import flow_value

        func = site.call.func
        module = _table_module(script, func.value.id)
        if module is None:
            return None
        path, tree, beside = module
        if beside and not site.call.args:
            return None  # ``model_registry``'s shape
        entries = table(tree, func.value.id)
        key = config_value(idx, project, func.slice)
        if entries is None or not isinstance(key, str) or key not in entries:
            return None
        made = constructor(tree, entries[key])
        if made is not None:
            cls, handed, literals, fn = made
            if handed != len(site.call.args):
                return None
            where = f"{entries[key]}() ({path.name}:{fn.lineno}), {cls}(...)"
            count_tree = with_imports(path, tree)
        else:
            home = _class_module(path, tree, entries[key])
            if home is None:
                return None
            cls, literals, count_tree = entries[key], {}, with_imports(*home)
            where = f"the class {cls} ({home[0].name})"
        around = next((f for f in idx.functions.get(site.function or "", []) if isinstance(f, ast.FunctionDef)
                       and f.lineno <= site.call.lineno <= (f.end_lineno or 0)), None)
        attrs = sorted({n.attr for n in ast.walk(count_tree) if isinstance(n, ast.Attribute)})

        def value(node: ast.expr) -> Any:
            got = config_value(idx, project, node)
            if got is UNKNOWN and around is not None:
                got = flow_value(around, node, site.call.lineno, lambda e: config_value(idx, project, e))
            if got is UNKNOWN:
                got = _options(idx, node, attrs, nones)
            return got

        args = [value(a) for a in site.call.args]
        kwargs: dict[str, Any] = dict(literals)
        plain: list[str] = []
        for kw in site.call.keywords:
            if kw.arg is None or kw.arg in kwargs:
                return None  # a spread not read, or a keyword given twice (Python refuses it)
            if _log_function(kw.value):
                kwargs[kw.arg] = UNKNOWN
                plain.append(kw.arg)
                continue
            kwargs[kw.arg] = value(kw.value)
        counted = count_module(count_tree, cls, args, kwargs, plain=plain)
        probed: list[str] = []
        if counted is None:
            counted, probed = _probed(count_tree, cls, args, kwargs, plain)
        if counted is None:
            return None
        return site, key, where, cls, counted, probed
