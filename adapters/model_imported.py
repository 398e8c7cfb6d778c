"""A model class of the project, imported from another module of it and built in the script, counted.

The common shape of research training scripts: ``from models.mar import MAR`` (or ``import model`` then
``model.Net(...)``) and ``model = MAR(img_size=args.img_size, depth=args.depth, ...)``, the sizes from
the launch line or the argparse defaults (openai/improved-diffusion, LTH14/mar, karpathy/minGPT style
projects; the pytorch adapter counts only classes the script itself defines). Read, never imported:

- the class: a name the script imports from a project file (beside the script or in a folder above it,
  ``module_params_imports.imported_files``), an ``nn.Module`` there;
- the call: where it runs (no ``if`` the values decide against it); each argument resolved as the script
  index resolves values (launch line, argparse defaults, literals), the parsed options handed in whole
  (``RWKV(args)``) as the options known, anything else unknown (fine until a size needs it);
- the model: the one such class built, or among several the one whose ``.parameters()`` the script
  reads (an optimizer's), all its calls agreeing;
- the count: ``module_params_nested.count_class`` over the class's module with the project classes it
  imports (``module_params_imports.with_imports``): ``model.num_parameters`` and ``model.class_name``,
  medium. Anything it cannot follow states nothing.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter

if TYPE_CHECKING:
    from preflight.adapters.star_imports import Memo


def _imported_classes(script: Any) -> dict[str, tuple[Path, str]]:
    """The names the script binds to something of a project file: ``from m import X`` -> X: (m.py, X);
    ``import pkg.m as m`` -> m: (m.py, "") for ``m.X(...)``."""
    from preflight.adapters.module_params_imports import _file_of, imported_files
    from preflight.adapters.star_imports import star_names

    if script.tree is None or script.source.path is None:
        return {}
    path = Path(str(script.source.path))
    roots = [path.parent, *list(path.parents)[1:4]]
    out: dict[str, tuple[Path, str]] = {}
    memo: Memo = {}  # each package's star imports read once for every name imported from it
    for node in ast.walk(script.tree):
        if isinstance(node, ast.ImportFrom):
            single = ast.Module(body=[node], type_ignores=[])
            files = imported_files(path, single)
            for a in node.names:
                if a.name == "*":
                    if files:  # ``from models import *`` (adapters/star_imports.py)
                        out.update(star_names(files[0], memo=memo))
                    continue
                own = [f for f in files if f.stem == a.name or (f.name == "__init__.py" and f.parent.name == a.name)]
                if own:
                    out[a.asname or a.name] = (own[0], "")  # ``from models import mar``: a module
                elif files:
                    out[a.asname or a.name] = _defined(files[0], a.name, memo)
        elif isinstance(node, ast.Import):
            for a in node.names:
                for root in roots:
                    found = _file_of(root, a.name)
                    if found is not None:
                        out[a.asname or a.name] = (found, "")
                        break
    return out


def imported_classes(project: Project, script: Any) -> dict[str, tuple[Path, str]]:
    """:func:`_imported_classes` of ``script``, computed once per audit (``project.cache``) for the adapters
    that ask for it (this one's detect and contribute, model_tuple_builder, model_attention): a package
    with many star imports (timm's) is otherwise followed again by each. The dict is shared: callers must
    not change it."""
    memo = project.cache.setdefault("model_imported.classes", {})
    held = memo.get(id(script))
    if held is None or held[0] is not script:
        held = memo[id(script)] = (script, _imported_classes(script))
    return held[1]


def _defined(path: Path, name: str, memo: Optional[Memo] = None) -> tuple[Path, str]:
    """Where ``name`` imported from the module at ``path`` is defined: that module, or the module its package
    ``__init__.py`` re-exports it from (``from .utils import get_model``; ``from .x import *``), followed as a
    star import is (adapters/star_imports.py: a literal ``__all__`` obeyed, three files deep)."""
    from preflight.adapters.star_imports import star_names

    tree = _parse(path)
    if tree is None or any(isinstance(n, (ast.ClassDef, ast.FunctionDef)) and n.name == name for n in tree.body):
        return path, name
    return star_names(path, memo=memo).get(name, (path, name))


_ARITH = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
          ast.FloorDiv: lambda a, b: a // b, ast.Pow: lambda a, b: a ** b if abs(b) <= 64 else None}


def _bound_once(tree: ast.Module, function: Optional[str], name: str) -> Optional[ast.expr]:
    """The expression ``name`` is assigned in ``function`` (the module when None), when it is stored
    exactly once there and that store is a plain ``name = expr``."""
    scope: list[ast.stmt] = list(tree.body)
    if function is not None:
        fns = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == function]
        if len(fns) != 1:
            return None
        scope = list(fns[0].body)
    stores = [n for st in scope for n in ast.walk(st) if isinstance(n, ast.Name) and n.id == name
              and isinstance(n.ctx, ast.Store)]
    binds = [n for st in scope for n in ast.walk(st) if isinstance(n, ast.Assign) and len(n.targets) == 1
             and isinstance(n.targets[0], ast.Name) and n.targets[0].id == name]
    return binds[0].value if len(stores) == 1 and len(binds) == 1 else None


def _changed(tree: ast.Module, function: Optional[str], name: str) -> bool:
    """``name`` may change after it is bound in ``function`` (the module when None): an attribute or item of it
    set or deleted (Beckschen/TransUNet ``train.py:83-84`` ``config_vit.n_classes = args.num_classes``), a method
    of it called but for reading ones, or it handed to a function of the script."""
    scope: list[ast.AST] = list(tree.body)
    if function is not None:
        scope = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and n.name == function]
    local = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for node in (n for st in scope for n in ast.walk(st)):
        if isinstance(node, (ast.Attribute, ast.Subscript)) and isinstance(node.ctx, (ast.Store, ast.Del)) \
                and _root(node) == name:
            return True
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute) and _root(node.func.value) == name \
                    and node.func.attr not in ("get", "keys", "items", "values", "to_dict", "copy"):
                return True
            if isinstance(node.func, ast.Name) and node.func.id in local \
                    and any(isinstance(a, ast.Name) and a.id == name
                            for a in [*node.args, *(k.value for k in node.keywords)]):
                return True
    return False


def _moved_target(tree: ast.Module, call: ast.Call) -> str:
    """``model = Tacotron2(hparams).cuda()`` (NVIDIA/tacotron2 ``train.py:74``): the name the moved model is
    bound to, when the call is the receiver of ``.cuda()``/``.to(...)``/``.train()``; else ""."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute) \
                and node.value.func.value is call and node.value.func.attr in ("cuda", "to", "train", "float"):
            return node.targets[0].id
    return ""


def _root(node: ast.AST) -> Optional[str]:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _table_entry(tree: ast.Module, name: str, key: Any) -> Optional[str]:
    """``NAME = {'key': func_or_class, ...}`` bound once at the top of the module: the entry's name."""
    bound = [n for n in tree.body if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name
                                                                          for t in n.targets)]
    if len(bound) != 1 or not isinstance(bound[0].value, ast.Dict):
        return None
    hits = [v.id for k, v in zip(bound[0].value.keys, bound[0].value.values)
            if isinstance(k, ast.Constant) and k.value == key and isinstance(v, ast.Name)]
    return hits[-1] if hits else None


def _trained(tree: ast.Module) -> set[str]:
    """The names whose ``.parameters()`` / ``.named_parameters()`` the script reads."""
    return {n.func.value.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr in ("parameters", "named_parameters") and isinstance(n.func.value, ast.Name)}


def _parse(p: Path) -> Optional[ast.Module]:
    from preflight.adapters.module_params_imports import _parse as parse

    return parse(p)


@register_adapter
class ModelImportedAdapter(Adapter):
    name = "model_imported"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        """A script that calls something it imports from a file of the project."""
        for s in project.scripts:
            if s.tree is None:
                continue
            names = imported_classes(project, s)
            if names and any(isinstance(n, ast.Call) and _root(n.func) in names for n in ast.walk(s.tree)):
                return True
        return False

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            if script.tree is not None:
                self._script(project, plan, script)

    def _namespace(self, idx: Any, node: ast.expr) -> Any:
        """The parsed options handed in whole (``RWKV(args)``): their known values by name, else UNKNOWN."""
        from preflight.adapters.module_params_nested import UNKNOWN

        if not isinstance(node, ast.Name):
            return UNKNOWN
        known: dict[str, Any] = {}
        # the options' names, and the attribute names the counted classes read (NVIDIA/tacotron2 ``model.py``
        # ``Tacotron2(hparams)`` reading ``hparams.n_symbols``: an HParams object, not argparse options)
        for dest in dict.fromkeys([*(getattr(idx, "arguments", {}) or {}), *getattr(self, "_read_attrs", ())]):
            got = idx.resolve(ast.copy_location(ast.Attribute(value=ast.Name(node.id, ast.Load()), attr=dest,
                                                              ctx=ast.Load()), node))
            known[dest] = got.value if got is not None else UNKNOWN
        return known if any(v is not UNKNOWN for v in known.values()) else UNKNOWN

    def _value(self, idx: Any, script: Any, site: Any, node: ast.expr, depth: int = 0) -> Any:
        from preflight.adapters.module_params_nested import UNKNOWN, argument_value, layer_factory

        got = idx.resolve(node)
        if got is not None:
            return got.value
        if depth < 4 and isinstance(node, ast.BinOp) and type(node.op) in _ARITH:
            # sizes computed from options (LlamaGen ``train_c2i_fsdp.py:164,167``: ``latent_size =
            # args.image_size // args.downsample_size`` then ``block_size=latent_size ** 2``)
            a = self._value(idx, script, site, node.left, depth + 1)
            b = self._value(idx, script, site, node.right, depth + 1)
            if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (a, b)):
                try:
                    return _ARITH[type(node.op)](a, b)
                except (ZeroDivisionError, OverflowError, ValueError):
                    return UNKNOWN
            return UNKNOWN
        if depth < 4 and isinstance(node, ast.Name):
            bound = _bound_once(script.tree, site.function, node.id)
            if isinstance(bound, ast.Subscript):
                picked = self._config_table(idx, script, bound)
                if picked is not None:  # ``config = CONFIGS[args.model_type]``, used as it was built
                    return UNKNOWN if _changed(script.tree, site.function, node.id) else picked
            got = self._value(idx, script, site, bound, depth + 1) if bound is not None else UNKNOWN
            if got is not UNKNOWN:
                return got
            # else the options rebound through a call that hands them back (``args = backend.adjust(args)``,
            # preflight/script_passthrough.py): read below as the namespace they are
        if isinstance(node, ast.Subscript):
            picked = self._config_table(idx, script, node)
            if picked is not None:
                return picked
        factory = layer_factory(node)
        if factory is not UNKNOWN:
            return factory
        literal = argument_value(script.tree, site.function, node)
        if literal is not UNKNOWN:
            return literal
        if isinstance(node, ast.Call) and script.source.path is not None:
            # ``SynthesizerTrn(len(symbols), ...)`` (jaywalnut310/vits ``train.py:88``): the length of a symbol
            # table the project builds from module constants (preflight/module_constants.py)
            from preflight.module_constants import MISSING, constant_value

            got = constant_value(Path(str(script.source.path)), node)
            if got is not MISSING and isinstance(got, int) and not isinstance(got, bool):
                return got
        return self._namespace(idx, node)

    @staticmethod
    def _config_table(idx: Any, script: Any, node: ast.Subscript) -> Optional[dict[str, Any]]:
        """``CONFIGS[args.model_type]``: the entry of a module-level table of config functions (defined in the
        script or imported from a project module), built as ``adapters/config_builder_fn.py`` reads it."""
        from preflight.adapters.config_builder_fn import config_table_entry

        if not isinstance(node.value, ast.Name) or script.source.path is None:
            return None
        key = idx.resolve(node.slice)
        if key is None or not isinstance(key.value, str):
            return None
        imported = _imported_classes(script)
        name = node.value.id
        if name in imported and imported[name][1]:
            path, table = imported[name]
            tree = _parse(path)
        else:
            path, table, tree = Path(str(script.source.path)), name, script.tree
        return config_table_entry(path, tree, table, key.value) if tree is not None else None

    def _mapping(self, idx: Any, script: Any, site: Any, node: ast.expr) -> Optional[dict[str, Any]]:
        """The keywords ``**node`` spreads: a dict literal (its ``**`` parts too), or an entry of a table
        bound once to a literal, picked by a resolved key (DepthAnything/Depth-Anything-V2 @ a561b84
        ``metric_depth/train.py:82-88``: ``DepthAnythingV2(**{**model_configs[args.encoder], 'max_depth':
        args.max_depth})``); None when not known."""
        from preflight.adapters.module_params_nested import UNKNOWN, argument_value

        if isinstance(node, ast.Dict):
            out: dict[str, Any] = {}
            for k, v in zip(node.keys, node.values):
                if k is None:
                    inner = self._mapping(idx, script, site, v)
                    if inner is None:
                        return None
                    out.update(inner)
                elif isinstance(k, ast.Constant) and isinstance(k.value, str):
                    out[k.value] = self._value(idx, script, site, v)
                else:
                    return None
            return out
        if isinstance(node, ast.Subscript):
            table = argument_value(script.tree, site.function, node.value)
            key = idx.resolve(node.slice)
            if isinstance(table, dict) and key is not None and key.value in table \
                    and isinstance(table[key.value], dict):
                return {str(k): v for k, v in table[key.value].items()}
            return None
        found = argument_value(script.tree, site.function, node)
        return {str(k): v for k, v in found.items()} if found is not UNKNOWN and isinstance(found, dict) else None

    def _arguments(self, idx: Any, script: Any, site: Any, tree: ast.Module,
                   path: Path) -> Optional[tuple[list[Any], dict[str, Any]]]:
        """The call's arguments resolved; the options handed in whole hold the attributes ``tree`` and the
        project modules it imports read. None when a ``**`` spread is not known."""
        from preflight.adapters.module_params_imports import with_imports

        self._read_attrs = sorted({n.attr for n in ast.walk(with_imports(path, tree)) if isinstance(n, ast.Attribute)})
        args = [self._value(idx, script, site, a) for a in site.call.args]
        kwargs: dict[str, Any] = {}
        for k in site.call.keywords:
            if k.arg is not None:
                kwargs[k.arg] = self._value(idx, script, site, k.value)
                continue
            spread = self._mapping(idx, script, site, k.value)
            if spread is None or any(key in kwargs for key in spread):
                return None
            kwargs.update(spread)
        return args, kwargs

    def _holder(self, project: Project, plan: TrainingPlan, script: Any, idx: Any,
                held: tuple[Any, str, Path]) -> bool:
        """A plain class of the project holding the network its optimizer trains (adapters/model_holder.py):
        that network's class counted where it is defined; True when counted."""
        from types import SimpleNamespace

        from preflight.adapters.model_holder import held_network
        from preflight.adapters.module_params_imports import with_imports
        from preflight.adapters.module_params_nested import UNKNOWN, count_class

        site, cls, path = held
        tree = _parse(path)
        if tree is None:
            return False
        got = self._arguments(idx, script, site, tree, path)
        found = held_network(tree, cls, *got, UNKNOWN) if got is not None else None
        if found is None:
            return False
        attr, call, env = found
        if not isinstance(call.func, ast.Name):
            return False
        net = call.func.id
        if any(isinstance(n, ast.ClassDef) and n.name == net for n in tree.body):
            where: Optional[tuple[Path, str]] = (path, net)
        else:
            where = _imported_classes(SimpleNamespace(tree=tree, source=SimpleNamespace(path=path))).get(net)
        net_tree = _parse(where[0]) if where is not None and where[1] else None
        if where is None or net_tree is None:
            return False

        def value(node: ast.expr) -> Any:
            if isinstance(node, ast.Constant):
                return node.value
            return env.get(node.id, UNKNOWN) if isinstance(node, ast.Name) else UNKNOWN

        if any(k.arg is None for k in call.keywords) or any(isinstance(a, ast.Starred) for a in call.args):
            return False
        counted = count_class(with_imports(where[0], net_tree), where[1], {k.arg: value(k.value) for k in
                                                                          call.keywords if k.arg},
                              [value(a) for a in call.args])
        if counted is None:
            return False
        total, layers = counted
        detail = (f"{cls}(...) of the project ({path.name}) is a plain holder whose optimizer takes "
                  f"self.{attr}: {where[1]}(...) ({where[0].name}, line {call.lineno}), {total:,} parameters of "
                  f"{len(layers)} layers counted from their sizes")
        src = project.source(script, site.call, "code", detail=detail)
        self.add_checked(plan, "model.class_name", where[1], src, "medium")
        self.add_checked(plan, "model.num_parameters", total, src, "medium")
        return True

    def _script(self, project: Project, plan: TrainingPlan, script: Any) -> None:
        from preflight.adapters.module_params_calls import count_call
        from preflight.adapters.module_params_imports import with_imports
        from preflight.adapters.module_params_nested import UNKNOWN, count_class
        from preflight.adapters.module_params_values import _Ctx

        imported = imported_classes(project, script)
        if not imported:
            return
        idx = project.index(script)
        built: list[tuple[Any, str, Path, str]] = []  # (site, class, file, target)
        factories: list[tuple[Any, str, Path, str]] = []  # project functions called: model factories maybe
        holders: list[tuple[Any, str, Path]] = []  # plain classes of the project built: holders of a network maybe
        for site in idx.calls:
            call = site.call
            func = call.func
            table = False
            if isinstance(func, ast.Name) and func.id in imported and imported[func.id][1]:
                path, cls = imported[func.id]
            elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                    and func.value.id in imported and not imported[func.value.id][1]:
                path, cls = imported[func.value.id][0], func.attr
            elif isinstance(func, ast.Subscript) and isinstance(func.value, ast.Name) and func.value.id in imported \
                    and imported[func.value.id][1]:
                # a table of constructors (FoundationVision/LlamaGen @ ce98ec4 ``autoregressive/train/
                # train_c2i_fsdp.py:165`` ``GPT_models[args.gpt_model](...)``, ``models/gpt.py:451-466``)
                path = imported[func.value.id][0]
                key = idx.resolve(func.slice)
                tree = _parse(path)
                entry = _table_entry(tree, imported[func.value.id][1], key.value) \
                    if tree is not None and key is not None else None
                if entry is None:
                    continue
                cls = entry
                table = True
            else:
                continue
            if idx.runs(site) is False or any(isinstance(a, ast.Starred) for a in call.args):
                continue
            tree = _parse(path)
            if tree is not None and not table and not _Ctx(tree).is_module(cls) and cls in _Ctx(tree).functions:
                factories.append((site, cls, path, site.target or _moved_target(script.tree, call)))
                continue
            if tree is not None and not table and cls in _Ctx(tree).classes and not _Ctx(tree).is_module(cls):
                if all(isinstance(b, ast.Name) and b.id == "object" for b in _Ctx(tree).classes[cls].bases):
                    holders.append((site, cls, path))  # a plain class: a holder of the network maybe
                continue
            if tree is None or not (_Ctx(tree).is_module(cls) or (table and cls in _Ctx(tree).functions)):
                continue
            built.append((site, cls, path, site.target or _moved_target(script.tree, call)))
        if not built and len({(h[1], h[2]) for h in holders}) == 1 and self._holder(project, plan, script, idx,
                                                                                   holders[0]):
            return
        factory = not built
        if factory:
            # no class of the project built in the script: a function of it that returns the trained model
            # (``model = get_model(args)``, adapters/model_factory.py), the one whose result is optimized
            built = [f for f in factories if f[3] in _trained(script.tree)]
        if not built:
            return
        if len({b[1] for b in built}) > 1:
            built = [b for b in built if b[3] in _trained(script.tree)]
            if len({b[1] for b in built}) != 1:
                return
        counts = []
        for site, cls, path, _target in built:
            tree = _parse(path)
            if tree is None:
                return
            if factory:  # the arms the call takes (adapters/model_factory.py), read with the options it hands in
                from preflight.adapters.model_factory import factory_module

                first = self._arguments(idx, script, site, factory_module(tree, cls, [], {}, UNKNOWN, True) or tree,
                                        path)
                reduced = factory_module(tree, cls, *first, UNKNOWN) if first is not None else None
                if reduced is None:
                    return
                tree = reduced
            got = self._arguments(idx, script, site, tree, path)
            if got is None:
                return
            args, kwargs = got
            merged = with_imports(path, tree)
            counted = count_call(merged, cls, args, kwargs) if cls in _Ctx(tree).functions \
                else count_class(merged, cls, kwargs, args)
            if counted is None:
                return
            counts.append((site, cls, path, counted, tree if factory else None))
        if len({c[3][0] for c in counts}) != 1:
            return  # calls that disagree
        functions = {c[1] for c in counts if ((parsed_c := _parse(c[2])) is not None and c[1] in _Ctx(parsed_c).functions)}
        site, cls, path, (total, layers), reduced = counts[0]
        parsed = reduced or _parse(path)
        picked = ""
        if reduced is not None:  # a factory: the class its taken arm builds, when it names one
            from preflight.adapters.model_factory import built_class

            picked = built_class(reduced, cls) or ""
            functions.add(cls)
            if not (picked and _Ctx(with_imports(path, reduced)).is_module(picked)):
                functions.add(picked)  # a constructor function (``vgg16_bn()``): no class name
        detail = (f"{cls}(...) of the project ({path.name}){f' builds {picked}(...)' if picked else ''}, {total:,} "
                  f"parameters of {len(layers)} layers counted from their sizes with the call's arguments")
        src = project.source(script, site.call, "code", detail=detail)
        named = picked or cls
        if named not in functions:  # a constructor function is no class name
            self.add_checked(plan, "model.class_name", named, src, "medium")
        self.add_checked(plan, "model.num_parameters", total, src, "medium")
        from preflight.adapters.model_attention import attention_of

        attn = attention_of(with_imports(path, parsed), named) if parsed is not None else None
        if attn is not None:
            self.add_checked(plan, "model.attn_implementation", attn[0],
                             project.source(script, site.call, "code", detail=attn[1]), "medium")
