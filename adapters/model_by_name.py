"""A project model picked by its name at run time, counted from the constructor the name selects.

Vision repositories build the model from a name on the launch line through one of three lookups,
each ending in a function of the project that returns one class built with literal sizes:

- timm's factory over the project's own registered constructors (facebookresearch/ConvNeXt @ 048efce
  ``main.py:22,32,278-284``: ``create_model(args.model, pretrained=False, num_classes=args.nb_classes,
  ...)`` after ``import models.convnext``, whose ``models/convnext.py:167-174`` has ``@register_model
  def convnext_small(pretrained=False, in_22k=False, **kwargs): model = ConvNeXt(depths=[3, 3, 27, 3],
  dims=[96, 192, 384, 768], **kwargs); if pretrained: ...; return model``; timm calls the constructor
  with ``pretrained`` and the remaining keywords, dropping those that are None);
- the module's namespace (facebookresearch/mae @ efb2a80 ``main_finetune.py:37,227``:
  ``models_vit.__dict__[args.model](num_classes=..., drop_path_rate=..., global_pool=...)``), or
  ``getattr(module, name)(...)``.

Read, never imported: the name resolved as any value (launch line, declared default, code); the module
one the script imports from beside it; the constructor a function of it whose parameters other than
``**kwargs`` all have defaults, whose body builds ``Cls(..., **kwargs)`` once and returns it, with in
between only a branch on a parameter that is false (``if pretrained:``) and timm's metadata
(``model.default_cfg = _cfg()``); the class counted by ``module_params_nested.count_class`` (a class of
the project, or timm's ``VisionTransformer``) with the constructor's keywords and the call's. The
count, the class and the name (``model.ref``, as ``--model X`` is) at medium; anything else (a name
not known, a constructor that computes or changes the model after building it, a class not counted,
two calls that disagree) states nothing. A registered constructor of another shape (locals computed first,
``partial`` layer factories: raoyongming/HorNet ``hornet.py:226-238``) is run by the counter as any project
function is (``_run_constructor``); one that changes the model after building it still states nothing.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Callable, Optional

from preflight.adapters_api import Adapter, Project
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter

_MAX_BYTES = 500_000
# create_model's own keywords: they choose weights or scripting, never sizes, and are not passed on
_FACTORY_OWN = {"pretrained", "checkpoint_path", "pretrained_cfg", "pretrained_cfg_overlay", "scriptable",
                "exportable", "no_jit", "cache_dir"}


def _parse(p: Path) -> Optional[ast.Module]:
    from preflight.local_trees import parse_project_file

    return parse_project_file(p, _MAX_BYTES)


def _module_file(folder: Path, dotted: str) -> Optional[Path]:
    from preflight.local_trees import module_file

    return module_file(folder, dotted)


def _imported_modules(script: Any) -> dict[str, Path]:
    """The project modules the script imports from beside it, by the name the script uses for each:
    ``import models_vit`` -> ``models_vit``, ``import models.convnext`` -> ``models.convnext``,
    ``from models import mar`` -> ``mar``, ``import a.b as c`` -> ``c``."""
    if script.tree is None or script.source.path is None:
        return {}
    folder = Path(str(script.source.path)).parent
    out: dict[str, Path] = {}
    for node in script.tree.body:
        if isinstance(node, ast.Import):
            for a in node.names:
                found = _module_file(folder, a.name)
                if found is not None:
                    out[a.asname or a.name] = found
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for a in node.names:
                if a.name == "*":
                    continue
                found = _module_file(folder, f"{node.module}.{a.name}")
                if found is not None:
                    out[a.asname or a.name] = found
    return out


def _registered(path: Path, tree: ast.Module, name: str, seen: set[Path]) -> list[tuple[Path, ast.Module,
                                                                                       ast.FunctionDef]]:
    """``@register_model def name(...)`` in this module, or in the modules a package's ``__init__``
    imports relatively (``from .convnext import *``)."""
    out = [(path, tree, n) for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name
           and any(((_dotted(d.func if isinstance(d, ast.Call) else d)) or "").endswith("register_model")
                   for d in n.decorator_list)]
    if path.name == "__init__.py" and len(seen) < 20:
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
                sub = _module_file(path.parent, node.module)
                if sub is not None and sub not in seen:
                    seen.add(sub)
                    sub_tree = _parse(sub)
                    if sub_tree is not None:
                        out.extend(_registered(sub, sub_tree, name, seen))
    return out


def _dotted(node: ast.AST) -> Optional[str]:
    from preflight.analysis.syntax import dotted_name

    return dotted_name(node)


def _rebound(tree: ast.Module, expr: ast.AST) -> bool:
    """``args.nb_classes`` where the script also writes ``args.nb_classes`` (facebookresearch/deit
    ``main.py:209``: ``dataset_train, args.nb_classes = build_dataset(...)``): the option's value
    is not the one the call sees."""
    if not (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name)):
        return False
    return any(isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store) and n.attr == expr.attr
               and isinstance(n.value, ast.Name) and n.value.id == expr.value.id for n in ast.walk(tree))


def _written_after(tree: ast.Module, expr: ast.AST, call: ast.Call) -> bool:
    """Every write of the option ``args.x`` comes after the call, which no loop repeats (sail-sg/poolformer
    @ a075575 ``train.py:374,385-387``: ``create_model(..., num_classes=args.num_classes)``, then ``if
    args.num_classes is None: args.num_classes = model.num_classes``): the call sees the option's value."""
    if not (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name)):
        return False
    end = getattr(call, "end_lineno", None) or call.lineno
    around = [f for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
              and f.lineno <= call.lineno <= (f.end_lineno or 0)]
    lo, hi = (around[-1].lineno, around[-1].end_lineno or 0) if around else (0, 0)
    for n in ast.walk(tree):
        if isinstance(n, (ast.For, ast.While, ast.AsyncFor)) and n.lineno <= call.lineno <= (n.end_lineno or 0):
            return False
        if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store) and n.attr == expr.attr \
                and isinstance(n.value, ast.Name) and n.value.id == expr.value.id \
                and (n.lineno <= end or not around or not lo <= n.lineno <= hi):
            return False  # before the call, or in another function (which may run first)
    return True


def _option_value(idx: Any, dest: str) -> Any:
    """``args.<dest>`` as argparse gives it (the launch line's value converted by ``type=``, else the default),
    before any write of the script; UNKNOWN when not declared once or not converted."""
    from preflight.adapters.module_params_nested import UNKNOWN

    from preflight.script_argv import _convert

    specs = idx.arguments.get(dest, [])
    if len(specs) != 1:
        return UNKNOWN
    given = idx._from_argv(specs[0])
    if given is not None:
        converted = _convert(given[0], specs[0]) if given[0] is not None else None
        return UNKNOWN if converted is None else converted
    default = idx._default(specs[0])
    if default is not None:
        return default.value
    node = specs[0].default
    return None if node is None or (isinstance(node, ast.Constant) and node.value is None) else UNKNOWN


def _builder_value(idx: Any, script: Any, expr: ast.AST) -> Any:
    """``args.nb_classes`` rebound once by a project helper's returned tuple (facebookresearch/deit @
    7e160fe ``main.py:209``: ``dataset_train, args.nb_classes = build_dataset(is_train=True, args=args)``;
    ``datasets.py:52-73``: ``if args.data_set == 'CIFAR': ... nb_classes = 100 elif args.data_set ==
    'IMNET': ... nb_classes = 1000 ... return dataset, nb_classes``): the literal the helper returns in
    that place, on the path the job's options decide (``--data-set`` default 'IMNET'). An ``if`` the
    options do not decide may stand only where it binds nothing returned; anything else: UNKNOWN."""
    from preflight.adapters.module_params_nested import UNKNOWN

    if not (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name)) or script.tree is None:
        return UNKNOWN
    writes = []
    for node in ast.walk(script.tree):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                elts = t.elts if isinstance(t, ast.Tuple) else [t]
                for i, e in enumerate(elts):
                    if isinstance(e, ast.Attribute) and e.attr == expr.attr and isinstance(e.value, ast.Name) \
                            and e.value.id == expr.value.id:
                        writes.append((node, t, i))
    if len(writes) != 1:
        return UNKNOWN
    node, target, position = writes[0]
    call = node.value
    if not (isinstance(node, ast.Assign) and isinstance(target, ast.Tuple) and isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)) or any(isinstance(a, ast.Starred) for a in call.args) \
            or any(k.arg is None for k in call.keywords):
        return UNKNOWN
    fn = _helper_def(script, call.func.id)
    if fn is None:
        return UNKNOWN
    a = fn.args
    params = [p.arg for p in a.posonlyargs + a.args]
    passed: dict[str, ast.expr] = dict(zip(params, call.args))
    passed.update({str(k.arg): k.value for k in call.keywords})
    def test(node: ast.AST) -> Optional[bool]:
        if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
            return None
        left = node.left
        if not (isinstance(left, ast.Attribute) and isinstance(left.value, ast.Name) and left.value.id in passed):
            return None
        got = idx.resolve(ast.copy_location(ast.Attribute(value=passed[left.value.id], attr=left.attr,
                                                          ctx=ast.Load()), call))
        return None if got is None else _compare(got.value, node)

    return returned_literal(fn, position, len(target.elts), test)


def _compare(value: Any, node: ast.Compare) -> Optional[bool]:
    """``value`` against the literal on the right of ``node`` (``==``, ``!=``, ``in``, ``not in``)."""
    try:
        right = ast.literal_eval(node.comparators[0])
    except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
        return None
    op = node.ops[0]
    try:
        if isinstance(op, ast.Eq):
            return bool(value == right)
        if isinstance(op, ast.NotEq):
            return bool(value != right)
        if isinstance(op, ast.In):
            return value in right
        if isinstance(op, ast.NotIn):
            return value not in right
    except TypeError:
        return None
    return None


def returned_literal(fn: ast.FunctionDef, position: int, width: int,
                     test: Callable[[ast.AST], Optional[bool]]) -> Any:
    """The integer literal ``fn`` returns at ``position`` of its closing ``return a, b`` (``width``
    items), on the path ``test`` decides through its ``if``/``elif`` chain; an ``if`` not decided may
    stand only where it binds nothing returned. UNKNOWN otherwise."""
    from preflight.adapters.module_params_nested import UNKNOWN

    returns = [n for n in ast.walk(fn) if isinstance(n, ast.Return)]
    last = fn.body[-1] if fn.body else None
    if len(returns) != 1 or returns[0] is not last or not isinstance(last, ast.Return) \
            or not isinstance(last.value, ast.Tuple) or len(last.value.elts) != width:
        return UNKNOWN
    picked = last.value.elts[position]
    if not isinstance(picked, ast.Name):
        return UNKNOWN
    name = picked.id

    def binds(stmts: list[ast.stmt]) -> bool:
        return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
                   for s in stmts for n in ast.walk(s))

    value: Any = UNKNOWN

    def run(stmts: list[ast.stmt]) -> bool:
        nonlocal value
        for st in stmts:
            if isinstance(st, ast.If):
                decided = test(st.test)
                if decided is None:
                    if binds(st.body) or binds(st.orelse):
                        return False
                    continue
                if not run(st.body if decided else st.orelse):
                    return False
            elif isinstance(st, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in st.targets):
                if len(st.targets) != 1:
                    return False
                try:
                    value = ast.literal_eval(st.value)
                except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
                    return False
            elif binds([st]):
                return False
        return True

    if not run(fn.body[:-1]) or value is UNKNOWN or not isinstance(value, int) or isinstance(value, bool):
        return UNKNOWN
    return value


def _helper_def(script: Any, name: str) -> Optional[ast.FunctionDef]:
    """The ``def`` of ``name`` that ``from M import name`` brings from a module beside the script."""
    if script.tree is None or script.source.path is None:
        return None
    folder = Path(str(script.source.path)).parent
    for node in script.tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and any(a.name == name and a.asname is None for a in node.names):
            found = _module_file(folder, node.module)
            tree = _parse(found) if found is not None else None
            if tree is not None:
                defs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
                return defs[0] if len(defs) == 1 else None
    return None


def _with_siblings(path: Path, tree: ast.Module) -> ast.Module:
    """The module with the project classes it imports (``module_params_imports.with_imports``:
    facebookresearch/ConvNeXt-V2 ``models/convnextv2.py:12`` ``from .utils import LayerNorm, GRN``, LTH14/mar
    ``models/mar.py:13`` ``from models.diffloss import DiffLoss``), for counting."""
    from preflight.adapters.module_params_imports import with_imports

    return with_imports(path, tree)


def _falsy(value: Any) -> bool:
    return value is False or value is None or value == 0 or value == ""


class _Built:
    def __init__(self, cls: str, keywords: dict[str, Any], line: int, args: Optional[list[Any]] = None) -> None:
        self.cls, self.keywords, self.line, self.args = cls, keywords, line, list(args or [])


def _constructor(fn: ast.FunctionDef, given: dict[str, Any], classes: frozenset[str] = frozenset()) -> Optional[_Built]:
    """What ``fn(**given)`` builds, when its body is ``model = Cls(..., **kwargs)`` (or ``return
    Cls(...)``), then only metadata (``model.default_cfg = ...``) and branches on parameters that are
    false, then ``return model``; the keywords ``Cls`` receives (UNKNOWN where not known). ``classes``:
    the classes of ``fn``'s module, handed on as layer classes (facebookresearch/swav @ 06b1b7c
    ``src/resnet50.py:340-341`` ``def resnet50(**kwargs): return ResNet(Bottleneck, [3, 4, 6, 3], **kwargs)``)."""
    from preflight.adapters.module_params_nested import UNKNOWN, layer_factory
    from preflight.adapters.module_params_values import _Factory

    a = fn.args
    if a.posonlyargs or a.vararg or a.kwarg is None or len(a.defaults) != len(a.args) \
            or any(d is None for d in a.kw_defaults):
        return None
    params: dict[str, Any] = {}
    for p, d in [*zip(a.args, a.defaults), *zip(a.kwonlyargs, a.kw_defaults)]:
        if p.arg in given:
            params[p.arg] = given[p.arg]
            continue
        try:
            params[p.arg] = ast.literal_eval(d) if d is not None else UNKNOWN
        except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
            params[p.arg] = UNKNOWN
    spread = {k: v for k, v in given.items() if k not in params}
    body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if not body or not isinstance(body[-1], ast.Return) or body[-1].value is None:
        return None
    made: Optional[ast.expr] = None
    holder: Optional[str] = None
    # sizes bound to locals first (sail-sg/poolformer ``models/poolformer.py:433-440``: ``layers = [2, 2, 6, 2]``
    # ... ``model = PoolFormer(layers, embed_dims=embed_dims, ...)``): literals, each bound once
    local: dict[str, Any] = {}
    while len(body) > 2 and isinstance(body[0], ast.Assign) and len(body[0].targets) == 1 \
            and isinstance(body[0].targets[0], ast.Name) and body[0].targets[0].id not in params \
            and body[0].targets[0].id not in local and isinstance(body[1], (ast.Assign, ast.Return)):
        try:
            value = ast.literal_eval(body[0].value)
        except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
            break
        if any(isinstance(n, ast.Name) and n.id == body[0].targets[0].id and isinstance(n.ctx, ast.Store)
               for st in body[1:] for n in ast.walk(st)):
            return None
        local[body[0].targets[0].id] = value
        body = body[1:]
    if len(body) == 1:
        assert isinstance(body[0], ast.Return)
        made = body[0].value
    else:
        first, last = body[0], body[-1]
        if not (isinstance(first, ast.Assign) and len(first.targets) == 1 and isinstance(first.targets[0], ast.Name)
                and isinstance(last, ast.Return) and isinstance(last.value, ast.Name)
                and last.value.id == first.targets[0].id):
            return None
        made, holder = first.value, first.targets[0].id
        for st in body[1:-1]:
            if isinstance(st, ast.If) and isinstance(st.test, ast.Name) and st.test.id in params \
                    and params[st.test.id] is not UNKNOWN and _falsy(params[st.test.id]):
                continue  # ``if pretrained:`` with pretrained False: the weights are not loaded
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Attribute) \
                    and isinstance(st.targets[0].value, ast.Name) and st.targets[0].value.id == holder \
                    and st.targets[0].attr.endswith("_cfg"):
                continue  # timm's metadata (``model.default_cfg = _cfg()``): no layer
            return None
    if not (isinstance(made, ast.Call) and isinstance(made.func, ast.Name)) \
            or any(isinstance(x, ast.Starred) for x in made.args):
        return None

    def value_of(node: ast.expr) -> Any:
        if isinstance(node, ast.Name) and node.id in local:
            return local[node.id]
        if isinstance(node, ast.Name) and node.id in params:
            return params[node.id]
        try:
            return ast.literal_eval(node)
        except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
            if isinstance(node, ast.Name) and node.id in classes:
                return _Factory(node, [])
            return layer_factory(node)

    args = [value_of(x) for x in made.args]
    keywords: dict[str, Any] = {}
    forwarded = False
    for kw in made.keywords:
        if kw.arg is None:
            if forwarded or not (isinstance(kw.value, ast.Name) and kw.value.id == a.kwarg.arg):
                return None
            forwarded = True
            continue
        keywords[kw.arg] = value_of(kw.value)
    if not forwarded:
        return None
    if any(k in keywords for k in spread):
        return None  # a keyword given twice: Python refuses the call
    keywords.update(spread)
    return _Built(made.func.id, keywords, made.lineno, args)


def _run_constructor(path: Path, tree: ast.Module, fn: ast.FunctionDef,
                     given: dict[str, Any]) -> tuple[Optional[_Built], Optional[tuple[int, list[str]]]]:
    """A constructor that computes before it builds (raoyongming/HorNet @ ac9e210 ``hornet.py:226-238``:
    ``s = 1.0/3.0`` then ``model = HorNet(depths=[2, 3, 18, 2], base_dim=64, block=Block, gnconv=[partial(
    gnconv, order=2, s=s), ...], **kwargs); return model``), run by the counter as it runs any function of
    the project (``module_params_calls.count_call``, the registration decorator being no change): the
    class it returns (``model_factory.built_class``) and the count; (None, None) unless both are known."""
    from preflight.adapters.model_factory import built_class
    from preflight.adapters.module_params_calls import count_call

    counted_tree = _with_siblings(path, tree)
    cls = built_class(counted_tree, fn.name)
    if cls is None:
        return None, None
    counted = count_call(counted_tree, fn.name, [], dict(given))
    return (_Built(cls, given, fn.lineno), counted) if counted is not None else (None, None)


@register_adapter
class ModelByNameAdapter(Adapter):
    name = "model_by_name"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any(s.tree is not None and ("create_model" in s.source.text or "__dict__[" in s.source.text
                                           or "getattr(" in s.source.text) for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            if script.tree is not None:
                self._script(project, plan, script)

    def _script(self, project: Project, plan: TrainingPlan, script: Any) -> None:
        from preflight.adapters.module_params_nested import UNKNOWN, count_class

        idx = project.index(script)
        modules: Optional[dict[str, Path]] = None
        found = []
        for site in idx.calls:
            call = site.call
            if idx.runs(site) is False or any(isinstance(x, ast.Starred) for x in call.args) \
                    or any(k.arg is None for k in call.keywords):
                continue
            q = site.qualified or ""
            factory = (q.startswith("timm.") and q.endswith(".create_model")) or q == "timm.create_model"
            key_node: Optional[ast.expr] = None
            owner: Optional[str] = None
            if factory:
                key_node = site.arg(0, "model_name")
            elif isinstance(call.func, ast.Subscript) and isinstance(call.func.value, ast.Attribute) \
                    and call.func.value.attr == "__dict__":
                key_node, owner = call.func.slice, _dotted(call.func.value.value)
            elif isinstance(call.func, ast.Call) and _dotted(call.func.func) == "getattr" \
                    and len(call.func.args) == 2 and not call.func.keywords:
                key_node, owner = call.func.args[1], _dotted(call.func.args[0])
            else:
                continue
            got = idx.resolve(key_node) if key_node is not None else None
            if got is None or not isinstance(got.value, str):
                continue
            key = got.value
            if modules is None:
                modules = _imported_modules(script)
            candidates: list[tuple[Path, ast.Module, ast.FunctionDef]] = []
            if call.args[1 if factory else 0:]:
                continue  # positional options (``create_model(name, True)``): not read
            if factory:
                for path in dict.fromkeys(modules.values()):
                    tree = _parse(path)
                    if tree is not None:
                        candidates.extend(_registered(path, tree, key, {path}))
            elif owner in modules:
                tree = _parse(modules[owner])
                if tree is not None:
                    candidates = [(modules[owner], tree, n) for n in tree.body
                                  if isinstance(n, ast.FunctionDef) and n.name == key]
            if len(candidates) != 1:
                continue
            path, tree, fn = candidates[0]
            given: dict[str, Any] = {}
            for kw in call.keywords:
                if _rebound(script.tree, kw.value) and _written_after(script.tree, kw.value, call):
                    given[str(kw.arg)] = _option_value(idx, kw.value.attr)  # type: ignore[attr-defined]
                    continue
                if _rebound(script.tree, kw.value):
                    given[str(kw.arg)] = _builder_value(idx, script, kw.value)
                    continue
                value = idx.resolve(kw.value)
                given[str(kw.arg)] = value.value if value is not None else UNKNOWN
            if factory:
                pretrained = given.get("pretrained", False)
                given = {k: v for k, v in given.items() if k not in _FACTORY_OWN and v is not None}
                given["pretrained"] = pretrained  # timm calls the constructor with ``pretrained=...``
            built = _constructor(fn, given, frozenset(n.name for n in tree.body if isinstance(n, ast.ClassDef)))
            if built is None:
                built, counted = _run_constructor(path, tree, fn, given)
            else:
                counted = count_class(_with_siblings(path, tree), built.cls, built.keywords, built.args)
            if counted is None or built is None:
                continue
            found.append((site, key, path, fn, built, counted))
        if len({f[5][0] for f in found}) != 1:
            return  # none, or calls that disagree
        site, key, path, fn, built, (total, layers) = found[0]
        how = "create_model" if (site.qualified or "").endswith("create_model") else ast.unparse(site.call.func)
        detail = (f"{how}: {key!r} is {fn.name}() ({path.name}:{fn.lineno}), {built.cls}(...) with {total:,} "
                  f"parameters of {len(layers)} layers counted from their sizes")
        src = project.source(script, site.call, "code", detail=detail)
        self.add_checked(plan, "model.ref", key, src, "medium")  # the constructor's name, as ``--model X`` is
        self.add_checked(plan, "model.class_name", built.cls, src, "medium")
        self.add_checked(plan, "model.num_parameters", total, src, "medium")
        from preflight.adapters.model_attention import attention_of

        home = _parse(path)  # the module of the counted class (``tree`` is the loop's last one)
        attn = attention_of(_with_siblings(path, home), built.cls) if home is not None else None
        if attn is not None:
            self.add_checked(plan, "model.attn_implementation", attn[0],
                             project.source(script, site.call, "code", detail=attn[1]), "medium")
