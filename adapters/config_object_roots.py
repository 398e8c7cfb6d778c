"""The roots of :mod:`preflight.adapters.config_object_reads`: the configuration objects the entry
script builds or loads (a project class, a builder, a dict literal, the parsed options, a YAML/JSON
file: :mod:`preflight.adapters.config_object_files`), updated as the code and the launch line say,
and the statement readings the flow shares (a function's own nodes, stores that make a whole object
unknown, device tests decided for the CUDA target). Nothing is imported or executed."""

from __future__ import annotations

import ast
from functools import partial
from typing import Any, Optional

from preflight.adapters.config_object import (
    Builder,
    Leaf,
    Modules,
    Namespace,
    Tree,
    assign,
    attr_path,
    launch_options,
    leaves,
    lookup,
)
from preflight.adapters.config_object_dict2ns import converted_name, unwrapped_load
from preflight.adapters.config_object_files import file_tree, opened, path_form
from preflight.adapters.config_object_fire_dict import fire_dict, fire_entry
from preflight.adapters.config_object_first_pass import first_pass
from preflight.adapters.config_object_module_hparams import imported_objects
from preflight.adapters.config_object_options import decided_by_options, option_leaf
from preflight.adapters.config_object_overrides import apply_overrides
from preflight.adapters.config_object_returns import bind_returned, returned
from preflight.adapters.config_object_rewrites import root_rewrite
from preflight.adapters.config_object_splat_file import splatted_file
from preflight.adapters.config_object_started import started_call
from preflight.adapters.config_object_yacs import Yacs

from preflight.analysis.syntax import own_nodes_in_order

_PARSE = ("parse_args", "parse_args_into_dataclasses")
Fn = Any  # ast.FunctionDef | ast.Module


def _written_whole(node: ast.AST) -> Optional[ast.AST]:
    """The object whose keys a statement may set, not one by name: ``config[k] = v`` with ``k``
    computed (an override loop over the options) or ``config.update(...)``; else None."""
    if isinstance(node, ast.Assign):
        for t in node.targets:
            if isinstance(t, ast.Subscript) and not isinstance(t.slice, ast.Constant):
                return t.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "update" \
            and (node.args or node.keywords):
        return node.func.value
    return None


def _on_cuda(test: ast.AST) -> Optional[bool]:
    """A test of the device the job runs on, decided for the CUDA target (``not torch.cuda.is_available()
    and not torch.backends.mps.is_available()``: false), else None."""
    from preflight.adapters.guarded import _device

    if isinstance(test, ast.BoolOp):
        got = [_on_cuda(v) for v in test.values]
        stop = isinstance(test.op, ast.Or)  # one true decides an ``or``, one false an ``and``
        if stop in got:
            return stop
        return None if None in got else not stop
    return _device(test) if isinstance(test, ast.expr) else None


def _namespace_function(call: ast.Call, modules: Modules, shown: str) -> bool:
    """``args = parse_args()`` with ``parse_args`` a function of the entry, without arguments, that returns
    ``parser.parse_args()`` (PixArt-alpha/PixArt-sigma @ 1ce521a ``train_scripts/train.py:244-283``)."""
    from preflight.script_parsers import _returns_namespace

    if not isinstance(call.func, ast.Name) or call.args or call.keywords:
        return False
    got = modules.function(call.func.id)
    # the entry's own, or one the entry imports from a project module (facebookresearch/SlowFast @ 287ec00
    # tools/run_net.py:19 ``args = parse_args()`` of slowfast/utils/parser.py:13-63)
    return got is not None and got[2] is None and (got[0] == shown or _imported(call.func.id, modules)) \
        and _returns_namespace(got[1])


def _imported(name: str, modules: Modules) -> bool:
    """``from <project module> import name`` at the top of the entry."""
    return any(isinstance(node, ast.ImportFrom) and any((a.asname or a.name) == name for a in node.names)
               for node in modules.trees[0][2].body)


def _roots(script_tree: ast.Module, shown: str, builder: Builder, modules: Modules, argv: list[str],
           namespace: Optional[Namespace] = None, applied: Optional[set[int]] = None, project: Any = None
           ) -> tuple[Tree, dict[int, dict[str, tuple]]]:
    """The config objects the entry builds, updated as the code and the launch line say:
    (root name -> tree, id(function) -> root name -> (root,)); ``applied`` gets the assignments
    taken into the values."""
    applied = set() if applied is None else applied
    combined: Tree = {}
    scopes: dict[int, dict[str, tuple]] = {}
    fired = any(isinstance(n, ast.Call) and (n.func.attr if isinstance(n.func, ast.Attribute) else
                                             n.func.id if isinstance(n.func, ast.Name) else "") == "Fire"
                for n in ast.walk(script_tree))
    options = launch_options(argv)
    yacs = Yacs(modules, namespace, project, argv)
    fns: list[Fn] = [script_tree] + [n for n in ast.walk(script_tree) if isinstance(n, ast.FunctionDef)]
    top: dict[str, Tree] = {}  # the entry's module-level objects, seen by its functions
    returns: dict[str, tuple] = {}  # an entry function's name -> the objects it returns
    given: dict[int, set[str]] = {}  # id(function) -> its parameters the entry passes the parsed options to
    # id(function) -> parameter -> (the parsed options, the option the entry passes it: ``main(args.config)``)
    given_paths: dict[int, dict[str, tuple[Namespace, str]]] = {}
    for fn in fns:
        local: dict[str, Tree] = {}
        if fn is script_tree:  # ``from hparams import hparams``: a module-level HParams(...) (config_object_module_hparams)
            local.update(imported_objects(script_tree, modules, builder))
        if namespace is not None:
            for param in given.get(id(fn), ()):
                local[param] = namespace
        calls: list[ast.Call] = []
        for node in own_nodes_in_order(fn) if namespace is not None else []:  # the parsed options, in any branch
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call) \
                    and ((isinstance(node.value.func, ast.Attribute) and node.value.func.attr in _PARSE)
                         or _namespace_function(node.value, modules, shown)):
                t0 = node.targets[0]
                for name in t0.elts if isinstance(t0, (ast.Tuple, ast.List)) else [t0]:
                    if isinstance(name, ast.Name) and namespace is not None:
                        local[name.id] = namespace
            elif isinstance(node, ast.Call):
                started = started_call(node)  # ``mp.Process(target=F, args=(...))``: F called (config_object_started)
                if started is not None:
                    calls.append(started)
                elif isinstance(node.func, ast.Name) and (node.args or node.keywords):
                    calls.append(node)
        for call in calls:  # ``main(args)``: ``args`` is the parsed options inside ``main`` too (detectron2-style)
            assert isinstance(call.func, ast.Name)
            got = modules.function(call.func.id)
            if got is None or got[2] is not None or got[0] != shown:
                continue
            params = [a.arg for a in got[1].args.args]
            for i, arg in enumerate(call.args):
                if isinstance(arg, ast.Name) and isinstance(local.get(arg.id), Namespace) and i < len(params):
                    given.setdefault(id(got[1]), set()).add(params[i])
            for param, arg in [*zip(params, call.args), *((k.arg, k.value) for k in call.keywords if k.arg)]:
                # ``main(args.config)`` with ``def main(config_path)`` then ``open(config_path)``
                # (policy-gradient/GRPO-Zero train.py:53-55,268-272 at its pinned commit): the
                # parameter is the option's value, a config file's path there
                if isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name) \
                        and isinstance(passed := local.get(arg.value.id), Namespace) and param in params:
                    given_paths.setdefault(id(got[1]), {})[param] = (passed, arg.attr)
        handles: dict[str, ast.AST] = {}
        paths: dict[str, ast.AST] = {}  # names bound to a literal or ``sys.argv[i]``: a config's path
        unknown: set[str] = set()  # names bound to a call's result not known (``cfg = get_cfg()``)
        if namespace is not None and _click_command(fn):
            # a click command's parameters are the job's options (StyleTTS2 train_finetune_accelerate.py:54-57
            # at 5cedc71: ``@click.option('-p', '--config_path', default=...)`` then
            # ``yaml.safe_load(open(config_path))``): a path given by one is read like ``args.config_path``
            local[_CLICK] = namespace
            for a in fn.args.args:
                paths[a.arg] = ast.Attribute(value=ast.Name(id=_CLICK, ctx=ast.Load()), attr=a.arg, ctx=ast.Load())
        for param, (options_of, option) in given_paths.get(id(fn), {}).items():
            local[_GIVEN] = options_of
            paths[param] = ast.Attribute(value=ast.Name(id=_GIVEN, ctx=ast.Load()), attr=option, ctx=ast.Load())
        dead: list[ast.stmt] = []
        stmts = _straight(fn, handles, partial(decided_by_options, local=local), dead)
        bound: dict[str, Leaf] = {}  # a loop's name bound to the first config file (config_object_first_pass.py)

        def option_of(n: ast.AST, lo: dict[str, Tree] = local, no: set[str] = unknown,
                      up: dict[str, Tree] = top) -> Any:
            return yacs.expr(n, _yacs_env(lo, no, up), shown)

        stmts = first_pass(stmts, option_of, modules.root, bound)
        here: dict[str, Any] = {**top, **bound} if bound else top
        for stmt in stmts:
            node = stmt.value if isinstance(stmt, ast.Expr) else stmt
            applied.add(id(node))
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                pairs = [(node.targets[0], node.value)]
                t0 = node.targets[0]
                if isinstance(t0, ast.Tuple) and isinstance(node.value, ast.Tuple) \
                        and len(t0.elts) == len(node.value.elts):
                    pairs = list(zip(t0.elts, node.value.elts))
                if bind_returned(t0, node.value, returns, local):
                    continue  # ``args, config = parse_args_and_config()`` (config_object_returns.py)
                if isinstance(t0, (ast.Tuple, ast.List)) and isinstance(node.value, ast.Call) and len(pairs) == 1:
                    _yacs_bind(yacs, t0, node.value, local, unknown, shown, here)  # ``args, config = parse_option()``
                    continue
                for target, value in pairs:
                    if isinstance(value, ast.Call) and ((isinstance(value.func, ast.Attribute)
                                                        and value.func.attr in _PARSE)
                                                        or (namespace is not None
                                                        and _namespace_function(value, modules, shown))):
                        continue  # the parsed options, bound above
                    read = _read_of(value, handles)
                    if isinstance(target, ast.Name) and read is not None:
                        handles[target.id] = read  # ``data = f.read()``: the file's text
                        continue
                    wrapped = dict_wrapper(value, modules, script_tree)
                    if isinstance(target, ast.Name) and wrapped is not None and isinstance(local.get(wrapped), dict) \
                            and target.id not in local:
                        local[target.id] = local[wrapped]  # ``h = AttrDict(json_config)``: the same keys
                        continue
                    inner = unwrapped_load(value, lambda probe: dict_wrapper(probe, modules, script_tree))
                    loaded = file_tree(inner or value, handles, local, project, modules.trees[0][1], argv, paths,
                                       builder) if isinstance(target, ast.Name) else None  # ``EasyDict(yaml.load(f))``
                    if loaded is None and isinstance(target, ast.Name) and isinstance(value, ast.Call):
                        loaded = _yacs_bind(yacs, target, value, local, unknown, shown, here)
                    if isinstance(target, ast.Name) and path_form(value):
                        paths[target.id] = value
                    if isinstance(target, ast.Name) and isinstance(value, (ast.Call, ast.Dict)):
                        tree = loaded if loaded is not None else builder.value(value, shown, how="constructor keyword")
                        if loaded is None and fired and fire_entry(fn, script_tree):
                            tree = fire_dict(value, fn, namespace, tree)  # ``dict(batch_size=batch_size)``
                        if isinstance(tree, dict) and (leaves(tree) or isinstance(value, ast.Call)):
                            if target.id in local and tree is not local[target.id]:
                                # bound twice: not followed (unless a project function returned the very
                                # node it was given: SlowFast ``cfg = assert_and_infer_cfg(cfg)``)
                                local[target.id] = {}
                            else:
                                local[target.id] = tree
                        elif target.id in local:
                            local.pop(target.id)
                    else:
                        for var, tree in local.items():
                            path = attr_path(target, var)
                            if path:  # ``cfg.x = args.x``: the option's value (config_object_options)
                                from_option = option_leaf(value, local)
                                got = from_option if from_option is not None else builder.value(value, shown)
                                if got is None:  # ``args.freq = args.freq[-1:]`` (config_object_rewrites.py)
                                    got = root_rewrite(value, target, local, own_nodes_in_order(fn), shown, node.lineno)
                                    if got is not None and isinstance(tree, Namespace) and len(path) == 1:
                                        tree.memo[path[0]] = got
                                        continue
                                assign(tree, path, got)
            elif isinstance(node, ast.Call):
                if _yacs_effect(yacs, node, local, unknown, shown, here) and fn is not script_tree:
                    assert isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
                    var = node.func.value.id  # a project module's node the entry imports: a global of the entry
                    if var not in top and isinstance(local.get(var), dict):
                        combined[var] = local.pop(var)
                        scopes.setdefault(id(script_tree), {})[var] = (var,)
                _update(node, local, modules, options, fired, fn)
                apply_overrides(node, local, modules, applied, argv)  # ``update_params(config, args.params)``
                _handed(node, handles, local, project, modules, combined, scopes, argv, paths, builder)
        for stmt in dead:  # a branch that never runs sets nothing
            applied.update(id(n) for n in ast.walk(stmt))
        local.pop(_CLICK, None)
        local.pop(_GIVEN, None)
        if fn is script_tree:
            top = local
        elif fn in script_tree.body:
            got = returned(fn, local, lambda t: isinstance(t, dict) and not isinstance(t, Namespace) and bool(leaves(t)))
            if got is not None:
                returns[fn.name] = got
        for var, tree in local.items():
            if leaves(tree) or isinstance(tree, Namespace):
                combined[var] = tree
                scopes.setdefault(id(fn), {})[var] = (var,)
    return combined, scopes


_CLICK = "<click options>"
_GIVEN = "<an option the caller passes>"
# dict wrappers whose attributes are the dict's keys, by the module they come from
_WRAPPERS = {"types": ("SimpleNamespace",), "easydict": ("EasyDict",), "munch": ("Munch", "munchify", "DefaultMunch"),
             "addict": ("Dict",), "box": ("Box",), "dotmap": ("DotMap",)}


def _read_of(value: ast.AST, handles: dict[str, ast.AST]) -> Optional[ast.AST]:
    """``f.read()`` of a handle opened on ``E``: ``E``."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "read" \
            and not value.args and isinstance(value.func.value, ast.Name) and value.func.value.id in handles:
        return handles[value.func.value.id]
    return None


def wrapped_name(value: ast.AST) -> Optional[tuple[str, str]]:
    """(callee, name) of a call that wraps one name: ``Wrapper(d)`` or ``Wrapper(**d)``; None otherwise."""
    if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Name):
        return None
    if len(value.args) == 1 and not value.keywords and isinstance(value.args[0], ast.Name):
        return value.func.id, value.args[0].id
    if not value.args and len(value.keywords) == 1 and value.keywords[0].arg is None \
            and isinstance(value.keywords[0].value, ast.Name):
        return value.func.id, value.keywords[0].value.id
    return None


def dict_wrapper(value: ast.AST, modules: Modules, script_tree: ast.Module) -> Optional[str]:
    """The name of the dict ``value`` wraps into an object whose attributes are its keys, or None:
    ``AttrDict(d)`` of a project class deriving from ``dict`` (hifi-gan ``env.py:5-8``),
    ``SimpleNamespace(**d)``, ``EasyDict(d)``, ``Munch(d)``/``munchify(d)``, addict ``Dict(d)``, ``Box(d)``,
    ``DotMap(d)`` imported from their libraries."""
    wrapped = wrapped_name(value)
    if wrapped is None:
        return None
    name, arg = wrapped
    for node in script_tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    lib = _WRAPPERS.get(node.module.split(".")[0])
                    if lib is not None:
                        return arg if alias.name in lib else None
    classes = modules.classes.get(name, [])
    if len(classes) == 1 and [dotted(b) for b in classes[0][1].bases] == ["dict"] \
            and not any(isinstance(item, ast.FunctionDef) and item.name in ("__getattr__", "__getattribute__",
                                                                             "__setitem__", "__getitem__")
                        for item in classes[0][1].body):
        return arg
    if len(classes) == 1 and _dict_as_attributes(classes[0][1]):
        return arg
    if not classes:
        return converted_name(value, modules)  # ``dict2namespace(config)`` (ermongroup/ddim main.py:96)
    return None


def _dict_as_attributes(cls: ast.ClassDef) -> bool:
    """A class whose ``__init__(self, d)`` only makes ``d`` its attribute dict: ``self.__dict__ = d`` or
    ``self.__dict__.update(d)`` (facebookresearch/coconut @ its pinned commit, ``utils.py:8-11``
    ``class Config: def __init__(self, dictionary): self.__dict__ = dictionary``), no other method
    that could compute attributes."""
    init = [i for i in cls.body if isinstance(i, ast.FunctionDef) and i.name == "__init__"]
    if len(init) != 1 or cls.bases or any(isinstance(i, ast.FunctionDef) and i.name in (
            "__getattr__", "__getattribute__", "__setattr__") for i in cls.body):
        return False
    args = init[0].args.args
    if len(args) != 2 or init[0].args.vararg or init[0].args.kwarg:
        return False
    param = args[1].arg
    body = [b for b in init[0].body if not (isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant))]
    if len(body) != 1:
        return False
    stmt = body[0]
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        return dotted(stmt.targets[0]) == f"{args[0].arg}.__dict__" and dotted(stmt.value) == param
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    return isinstance(call, ast.Call) and dotted(call.func) == f"{args[0].arg}.__dict__.update" \
        and len(call.args) == 1 and dotted(call.args[0]) == param and not call.keywords


def dotted(node: ast.AST) -> str:
    from preflight.analysis.syntax import dotted_name

    return dotted_name(node) or ""


def _click_command(fn: Fn) -> bool:
    """A function decorated by ``@click.command()`` (its parameters the command line's options)."""
    if not isinstance(fn, ast.FunctionDef):
        return False
    for d in fn.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "click" \
                and target.attr == "command":
            return True
    return False


def _straight(fn: Fn, handles: Optional[dict[str, ast.AST]] = None, decide: Optional[Any] = None,
              dead: Optional[list[ast.stmt]] = None) -> list[ast.stmt]:
    """The statements of a function (or module) that always run, in order: its top level, a
    module's ``if __name__ == "__main__":`` block, and the body of a ``with open(E) as f:``
    (``handles`` gets ``f`` -> ``E``); with ``decide``, the branch an ``if`` it decides takes
    (``dead`` gets the statements of the other)."""
    out: list[ast.stmt] = []
    stack = list(fn.body)
    while stack:
        stmt = stack.pop(0)
        taken = decide(stmt.test) if decide is not None and isinstance(stmt, ast.If) else None
        if isinstance(fn, ast.Module) and isinstance(stmt, ast.If) and isinstance(stmt.test, ast.Compare) \
                and isinstance(stmt.test.left, ast.Name) and stmt.test.left.id == "__name__":
            stack[:0] = stmt.body
        elif taken is not None:
            assert isinstance(stmt, ast.If)
            stack[:0] = stmt.body if taken else stmt.orelse
            if dead is not None:
                dead.extend(stmt.orelse if taken else stmt.body)
        elif isinstance(stmt, ast.With) and handles is not None and opened(stmt):
            handles.update(opened(stmt))
            stack[:0] = stmt.body
        elif isinstance(stmt, ast.Try) and handles is not None:
            stack[:0] = stmt.body + stmt.orelse  # the path that raises nothing (OLMo ``try: p = sys.argv[1]``)
        else:
            out.append(stmt)
    return out


def _handed(call: ast.Call, handles: dict[str, ast.AST], local: dict[str, Tree], project: Any, modules: Modules,
            combined: Tree, scopes: dict[int, dict[str, tuple]], argv: list[str], paths: dict[str, ast.AST],
            builder: Builder) -> None:
    """``main(OmegaConf.load(args.config))``: the loaded file is the callee's parameter (Latte);
    ``main(**OmegaConf.load(args.config))``: its keys are the callee's parameters (config_object_splat_file)."""
    splat = splatted_file(call, lambda e: file_tree(e, handles, local, project, modules.trees[0][1], argv, paths,
                                                    builder), modules, modules.trees[0][0], builder)
    if splat is not None:
        splat_root, fn, bound = splat
        combined[splat_root] = bound
        scopes.setdefault(id(fn), {}).update({p: (splat_root, p) for p in bound})
    for i, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred):
            return
        tree = file_tree(arg, handles, local, project, modules.trees[0][1], argv, paths, builder)
        if tree is None:
            continue
        name = call.func.id if isinstance(call.func, ast.Name) else ""
        got = modules.function(name) if name else None
        if got is None or got[2] is not None:
            continue
        params = [a.arg for a in got[1].args.args]
        if i < len(params):
            root = f"{name}({params[i]})"
            combined[root] = tree
            scopes.setdefault(id(got[1]), {})[params[i]] = (root,)


def _update(call: ast.Call, local: dict[str, Tree], modules: Modules, options: list[tuple[str, Any]],
            fired: bool, fn: Fn) -> None:
    """``v.merge_from_args(sys.argv[1:])`` (dotted ``--a.b=c``) and ``update(v or (v, w), **kwargs)``
    with ``kwargs`` the fire-driven function's keywords (the launch line's ``--key value``)."""
    f = call.func
    argv = any(isinstance(n, ast.Attribute) and n.attr == "argv" and isinstance(n.value, ast.Name)
               and n.value.id == "sys" for a in call.args for n in ast.walk(a))
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in local and argv:
        tree = local[f.value.id]
        for key, value in options:
            path = tuple(key.split("."))
            if lookup(tree, path) is not None or (isinstance(lookup(tree, path[:-1]), dict) and len(path) > 1):
                assign(tree, path, Leaf(value, "", None, "launch line"))
        return
    kwargs = fn.args.kwarg.arg if isinstance(fn, ast.FunctionDef) and fn.args.kwarg else None
    if not (fired and kwargs and any(k.arg is None and isinstance(k.value, ast.Name) and k.value.id == kwargs
                                     for k in call.keywords) and call.args):
        return
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
    target = modules.function(name)
    if target is None or not any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "setattr"
                                 for n in ast.walk(target[1])):
        return
    first = call.args[0]
    objs = first.elts if isinstance(first, (ast.Tuple, ast.List)) else [first]
    for obj in objs:
        if not (isinstance(obj, ast.Name) and obj.id in local):
            continue
        tree = local[obj.id]
        for key, value in options:
            key = key.rsplit(".", 1)[-1] if "." in key else key
            if key in tree and not isinstance(tree[key], dict):
                tree[key] = Leaf(value, "", None, "launch line")


def _yacs_env(local: dict[str, Tree], unknown: set[str], top: dict[str, Tree]) -> dict[str, Any]:
    env: dict[str, Any] = {k: v for k, v in top.items() if k not in unknown}
    env.update({name: None for name in unknown})
    env.update(local)
    return env


def _yacs_bind(yacs: Yacs, target: ast.AST, value: ast.Call, local: dict[str, Tree], unknown: set[str],
               shown: str, top: dict[str, Tree]) -> Optional[Tree]:
    """A yacs ``CfgNode`` a call returns (``config = get_config(args)``; ``args, config = parse_option()``,
    bound here): :mod:`preflight.adapters.config_object_yacs`. Returns the tree bound to a name target."""
    yacs.found = False
    got = yacs.call_value(value, _yacs_env(local, unknown, top), shown)
    if not yacs.found and not (isinstance(got, dict) and any(got is v for v in local.values())):
        got = None  # neither built nor merged here, nor the node the entry holds handed back (SlowFast
        # ``cfg = assert_and_infer_cfg(cfg)``, slowfast/config/defaults.py:1263-1288 ``return cfg``)
    if isinstance(target, ast.Name):
        if got is None:
            unknown.add(target.id)
        else:
            unknown.discard(target.id)
        return got if isinstance(got, dict) and not isinstance(got, Namespace) else None
    elts = target.elts if isinstance(target, (ast.Tuple, ast.List)) else []
    for i, t in enumerate(elts):
        if not isinstance(t, ast.Name):
            continue
        sub = got[i] if isinstance(got, tuple) and len(got) == len(elts) else None
        if isinstance(sub, dict) and not isinstance(sub, Namespace) and t.id not in local:
            local[t.id] = sub
        elif not isinstance(sub, Namespace) and t.id in local and not isinstance(local[t.id], Namespace):
            local[t.id] = {}  # bound twice: not followed
    return None


def _yacs_effect(yacs: Yacs, call: ast.Call, local: dict[str, Tree], unknown: set[str], shown: str,
                 top: dict[str, Tree]) -> bool:
    """``cfg.merge_from_file(args.cfg)`` / ``merge_from_list(args.opts)`` on the entry's config (a project
    module's ``CN()`` imported, or one a library builds): the file's and the list's keys. True when a node
    not bound in this function (a project module's, pysot) was merged and is now in ``local``."""
    f = call.func
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and yacs.enabled \
            and f.attr not in ("merge_from_file", "merge_from_list"):
        env = _yacs_env(local, unknown, top)
        if yacs._project_fn(call, env) is not None:  # ``config.load_cfg(args.cfg)`` (pycls): it merges a module's node
            yacs.effect(call, env, shown, 0, True)
        return False
    if not (isinstance(f, ast.Attribute) and f.attr in ("merge_from_file", "merge_from_list")
            and isinstance(f.value, ast.Name)):
        return False
    env = _yacs_env(local, unknown, top)
    bound_here = f.value.id in unknown  # ``cfg = get_cfg()`` in this function
    yacs.effect(call, env, shown, 0, True)
    got = env.get(f.value.id)
    if isinstance(got, dict) and not isinstance(got, Namespace) and f.value.id not in local:
        local[f.value.id] = got
        unknown.discard(f.value.id)
        return not bound_here
    return False
