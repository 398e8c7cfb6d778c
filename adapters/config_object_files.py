"""A YAML/JSON file the job loads into a plain dict or an OmegaConf object, as a configuration
object of :mod:`preflight.adapters.config_object` (its keys then flow across the project's calls
like any other object's: :mod:`preflight.adapters.config_object_reads`). Real shapes, each pinned
by a test in ``tests/test_config_object_files.py``:

* salesforce/BLIP ``train_caption.py:197`` (056a169): ``config = yaml.load(open(args.config, 'r'),
  Loader=yaml.Loader)`` with ``--config`` defaulting to ``./configs/caption_coco.yaml``, then
  ``main(args, config)`` and ``create_loader(..., batch_size=[config['batch_size']]*3)``;
* Vchitect/Latte ``train.py:285`` (b27c24a): ``main(OmegaConf.load(args.config))``: every ``args.X``
  inside ``main`` is a key of the YAML the launch line names (``--config ./configs/ffs/ffs_train.yaml``);
* ``with open(args.config) as f: config = yaml.safe_load(f)`` (the common spelling);
* jik876/hifi-gan ``train.py:248-252`` (4769534): ``with open(a.config) as f: data = f.read()``, then
  ``json_config = json.loads(data)`` and ``h = AttrDict(json_config)`` (a ``dict`` subclass of the project
  whose attributes are its keys, ``env.py:5-8``; likewise ``SimpleNamespace(**d)``, ``EasyDict(d)``,
  ``Munch(d)``: :func:`preflight.adapters.config_object_roots.dict_wrapper`).

The path must be a literal or an option of the job (the launch line's value, else the declared
default), or joined from them (ermongroup/ddim ``main.py:94`` (e8df66c) ``open(os.path.join("configs",
args.config))``; an f-string ``f"configs/{args.config}"``); a path computed otherwise, a file that is not there, too large or not readable, leaves
the object unknown (never guessed). A value that is an OmegaConf interpolation (``${...}``) is
unknown. Nothing is imported or executed.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.config_object import Leaf, Namespace, Tree

_LOADS = {("yaml", "load"), ("yaml", "safe_load"), ("yaml", "full_load"), ("yaml", "unsafe_load"),
          ("json", "load"), ("json", "loads"), ("OmegaConf", "load"), ("Config", "fromfile")}
_KINDS = {".yaml": "yaml", ".yml": "yaml", ".json": "json"}
_JOINS = ("os.path.join", "osp.join", "path.join")  # a path joined from literals and options
_ABSPATH = ("os.path.abspath", "osp.abspath", "path.abspath")  # the same file, from the job's folder
# the same path under another type (DALLE2-pytorch train_decoder.py:646-647 ``str(Path(config_file))``)
_SAME = ("Path", "pathlib.Path", "str", "os.fspath")
_PY_CONFIG = ".py"  # an MMEngine/mmcv Python config (``Config.fromfile``), read as literals with its _base_


def _dotted(node: ast.AST) -> str:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


def _clone_file(raw: str, bases: tuple[Path, ...], project: Any) -> Optional[Path]:
    """An absolute path on the author's machine into their clone of the project, not on this one: the project's
    file at the longest same ending of at least a folder and the file name (ZhenyuLU-Heliodore/Customized-ViT
    @ dab44fd ``shells/train_vit_default.sh:3`` ``--kwargs_path /home/ubuntu/projects/vit-for-cifar100/configs/
    default.yml``, the repository's ``configs/default.yml``; the launcher's own ``_find_by_tail`` reads a script
    so). A path whose endings name no file of the project stays unread."""
    p = Path(raw)
    if not p.is_absolute() or p.exists():
        return None
    parts = p.parts
    for k in range(1, len(parts) - 1):
        for base in bases:
            cand = base.joinpath(*parts[k:])
            try:
                if cand.is_file() and project.may_read(cand):
                    return cand
            except OSError:
                continue
    return None


def opened(stmt: ast.With) -> dict[str, ast.AST]:
    """``with open(E) as f`` -> {"f": E}."""
    out: dict[str, ast.AST] = {}
    for item in stmt.items:
        call = item.context_expr
        if isinstance(call, ast.Call) and _dotted(call.func) == "open" and call.args \
                and isinstance(item.optional_vars, ast.Name):
            out[item.optional_vars.id] = call.args[0]
    return out


def loader_aliases(trees: Any) -> dict[str, str]:
    """The names the project's modules give a config loader at their top (mindslab-ai/nuwave @ 88aba86
    ``trainer.py:4`` ``from omegaconf import OmegaConf as OC`` then ``hparams = OC.load('hparameter.yaml')``,
    ``:62``; ``import yaml as y``): alias -> the loader's own name. An alias two modules bind differently is
    left out."""
    out: dict[str, str] = {}
    clash: set[str] = set()
    for tree in trees:
        for node in getattr(tree, "body", []):
            pairs: list[tuple[str, str]] = []
            if isinstance(node, ast.ImportFrom) and node.module == "omegaconf" and not node.level:
                pairs = [(a.asname, a.name) for a in node.names if a.asname and a.name == "OmegaConf"]
            elif isinstance(node, ast.Import):
                pairs = [(a.asname, a.name) for a in node.names if a.asname and a.name in ("yaml", "json")]
            for alias, name in pairs:
                if alias != name and out.setdefault(alias, name) != name:
                    clash.add(alias)
    return {k: v for k, v in out.items() if k not in clash}


def path_expr(call: ast.AST, handles: dict[str, ast.AST],
              aliases: Optional[dict[str, str]] = None) -> Optional[ast.AST]:
    """The expression naming the file a config-loading call reads, or None when ``call`` is not
    one (``yaml.load(open(E))``, ``yaml.safe_load(f)`` with ``f`` opened on ``E``,
    ``OmegaConf.load(E)``, ``json.load(open(E))``; the loader imported under another name, see
    :func:`loader_aliases`)."""
    if not isinstance(call, ast.Call) or not call.args:
        return None
    name = _dotted(call.func).split(".")
    if aliases and len(name) == 2 and name[0] in aliases and name[0] not in ("yaml", "json", "OmegaConf"):
        name[0] = aliases[name[0]]
    if len(name) < 2 or (name[-2], name[-1]) not in _LOADS:
        return None
    arg = call.args[0]
    if name[-2] in ("OmegaConf", "Config"):
        return arg
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "read" \
            and not arg.args:
        arg = arg.func.value  # ``json.loads(f.read())`` / ``json.loads(open(E).read())``
    if isinstance(arg, ast.Call) and _dotted(arg.func) == "open" and arg.args:
        return arg.args[0]
    if isinstance(arg, ast.Name) and arg.id in handles:
        return handles[arg.id]
    return None


def path_form(expr: ast.AST) -> bool:
    """Whether a value bound to a name may be a config file's path that :func:`_path_value` can read: an
    option (``config_yaml_path = args.config_yaml``) or the option joined or made absolute
    (``config_yaml_path = os.path.join(config_yaml)``: haoheliu/AudioLDM-training-finetuning @ 702a638
    ``audioldm_train/train/latent_diffusion.py:236-237``), besides a literal or ``sys.argv[i]``."""
    if isinstance(expr, (ast.Subscript, ast.Constant)):
        return True
    if isinstance(expr, ast.Attribute):
        return isinstance(expr.value, ast.Name)
    return isinstance(expr, ast.Call) and _dotted(expr.func) in (*_JOINS, *_ABSPATH, *_SAME) and bool(expr.args) \
        and not expr.keywords


def _path_value(expr: ast.AST, local: dict[str, Any], argv: list[str], paths: dict[str, ast.AST],
                depth: int = 0) -> Optional[str]:
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return expr.value
    if isinstance(expr, ast.Name) and expr.id in paths and depth < 4:
        return _path_value(paths[expr.id], local, argv, paths, depth + 1)
    if isinstance(expr, ast.Subscript) and _dotted(expr.value) == "sys.argv" and isinstance(expr.slice, ast.Constant) \
            and isinstance(expr.slice.value, int) and 1 <= expr.slice.value <= len(argv):
        raw = argv[expr.slice.value - 1]  # OLMo ``yaml_path, args_list = sys.argv[1], sys.argv[2:]``
        return None if raw.startswith("-") else raw
    if isinstance(expr, ast.Call) and _dotted(expr.func) in (*_ABSPATH, *_SAME) and len(expr.args) == 1 \
            and not expr.keywords and depth < 4:
        return _path_value(expr.args[0], local, argv, paths, depth + 1)  # FourCastNet ``YParams(os.path.abspath(p), ...)``
    if isinstance(expr, ast.Call) and _dotted(expr.func) in _JOINS and expr.args and not expr.keywords \
            and depth < 4:
        # ``open(os.path.join("configs", args.config))``: ermongroup/ddim main.py:94 (e8df66c)
        parts = [_path_value(a, local, argv, paths, depth + 1) for a in expr.args]
        return None if any(p is None for p in parts) else str(Path(*[p for p in parts if p is not None]))
    if isinstance(expr, ast.JoinedStr) and depth < 4:  # ``open(f"configs/{args.config}")``
        out = ""
        for part in expr.values:
            if isinstance(part, ast.FormattedValue) and part.conversion == -1 and part.format_spec is None:
                got = _path_value(part.value, local, argv, paths, depth + 1)
            else:
                got = part.value if isinstance(part, ast.Constant) and isinstance(part.value, str) else None
            if got is None:
                return None
            out += got
        return out
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
        owner = local.get(expr.value.id)
        if isinstance(owner, Namespace):
            got = owner.get(expr.attr)
            if isinstance(got, Leaf) and isinstance(got.value, str):
                return got.value
    return None


def _to_tree(data: Any, lines: dict, display: str, path: tuple) -> Any:
    if isinstance(data, dict):
        out: Tree = {}
        for key, value in data.items():
            sub = _to_tree(value, lines, display, (*path, key))
            if sub is not None:
                out[str(key)] = sub
        return out
    if isinstance(data, str) and "${" in data:
        return None  # an OmegaConf interpolation: not resolved here
    return Leaf(data, display, lines.get(path), "config file")


def file_tree(call: ast.AST, handles: dict[str, ast.AST], local: dict[str, Any], project: Any,
              script: Path, argv: Optional[list[str]] = None, paths: Optional[dict[str, ast.AST]] = None,
              builder: Any = None) -> Optional[Tree]:
    """The tree of the config file ``call`` loads, or None (not a load, or the file is not known).
    ``Cls.load(path)`` of a project config class (OLMo ``TrainConfig.load(yaml_path, overrides)``,
    allenai/OLMo scripts/train.py:426, olmo/config.py:127-146) is the class's defaults with the
    file's keys over them."""
    klass = _class_load(call, builder)
    typed = klass is None and _own_class_load(call, builder) is not None
    if typed:
        klass = _own_class_load(call, builder)
    modules = getattr(builder, "m", None)
    aliases = loader_aliases(t for _, _, t in modules.trees) if modules is not None else None
    expr = klass[1] if klass is not None else path_expr(call, handles, aliases)
    suffixes: Optional[tuple[str, ...]] = None
    if expr is None and klass is None:
        expr = helper_path(call, builder)
        suffixes = dispatch_suffixes(call, builder) if expr is not None else None
    if expr is None and klass is None:
        from preflight.adapters.config_object_yaml_class import yaml_class_path

        expr = yaml_class_path(call, builder)  # ``Config(yaml_path=args.yaml_path)`` (vectorlm)
    section: Optional[ast.AST] = None
    if expr is None and klass is None:
        from preflight.adapters.config_object_yaml_section import yaml_section_call

        pair = yaml_section_call(call, builder)  # ``YParams(yaml_path, config_name)`` (FourCastNet)
        if pair is not None:
            expr, section = pair
    if expr is None and klass is None:
        from preflight.adapters.config_object_hparams import hparams_file

        named = hparams_file(call, builder, argv or [])  # ``hps = utils.get_hparams()`` (the VITS family)
        expr = ast.Constant(value=named) if named is not None else None
    cli_key: Optional[str] = None
    if expr is None and klass is None:
        from preflight.adapters.config_object_cli import cli_merged_key

        cli_key = cli_merged_key(call, builder)
        given = [a.partition("=")[2] for a in (argv or []) if a.startswith(f"{cli_key}=")] if cli_key else []
        if len(given) == 1 and given[0]:
            expr = ast.Constant(value=given[0])
    if expr is None or project is None:
        return None
    if klass is not None and isinstance(call, ast.Call) and len(call.args) > 1 and any(a.startswith("-") or "=" in a for a in (argv or [])[1:]):
        return None  # overrides given on the launch line: applied by the class's own code, not read here
    raw = _path_value(expr, local, argv or [], paths or {})
    if raw is None and isinstance(expr, ast.Call):
        raw = returned_option(expr, builder, argv or [])
    if raw is not None and suffixes is not None and not str(raw).endswith(suffixes):
        return None  # the helper's arm for this suffix is another loader (Hallo ``import_filename(p).cfg``)
    python = bool(raw) and Path(str(raw)).suffix.lower() == _PY_CONFIG and _dotted_load(call, handles, builder)
    if not raw or (Path(raw).suffix.lower() not in _KINDS and not python):
        return None
    root = Path(str(project.root))
    for base in (root, script.parent):
        cand = (base / raw) if not Path(raw).is_absolute() else Path(raw)
        try:
            if cand.is_file() and project.may_read(cand):
                break
        except OSError:
            continue
    else:
        clone = _clone_file(raw, (root, script.parent), project)
        if clone is None:
            return None
        cand = clone
    if python:
        from preflight.adapters.config_object_mm import python_config_tree

        return python_config_tree(project, cand)
    loaded = _load(project, cand, root)
    if loaded is None or not isinstance(loaded.data, dict):
        return None
    data: Any = loaded.data
    where: tuple = ()
    if section is not None:  # ``YParams(path, name)``: that section of the file (config_object_yaml_section.py)
        name = _path_value(section, local, argv or [], paths or {})
        data = data.get(name) if name is not None else None
        if not isinstance(data, dict):
            return None
        where = (name,)
    tree = _to_tree(data, loaded.lines, loaded.path, where)
    if cli_key is not None:
        from preflight.adapters.config_object_cli import cli_overrides

        cli_overrides(tree, argv or [], cli_key)
    if klass is not None:
        base = builder.class_tree(klass[0][0], klass[0][1])
        if typed:  # pydantic/dataclass nesting: a field's class defaults under the file's keys
            from preflight.adapters.config_object_classload import typed_merge

            typed_merge(base, tree, klass[0][1], builder)
        else:
            _merge(base, tree)
        return base
    return tree


def _dotted_load(call: Any, handles: dict[str, ast.AST], builder: Any) -> bool:
    """Whether ``call`` is ``Config.fromfile(E)``, directly or through a project helper that returns it."""
    def fromfile(node: Any) -> bool:
        return isinstance(node, ast.Call) and _dotted(node.func).split(".")[-2:] == ["Config", "fromfile"]

    if fromfile(call):
        return True
    if builder is None or not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
        return False
    got = builder.m.function(call.func.id)
    return got is not None and any(fromfile(n) for n in ast.walk(got[1]))


def _merge(base: Tree, over: Tree) -> None:
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _merge(base[key], value)
        else:
            base[key] = value


def helper_path(call: ast.AST, builder: Any) -> Optional[ast.AST]:
    """``read_config(E)`` with ``read_config`` a project function (of the script or a module it
    imports) that only returns the file its parameter names, loaded (nomic-ai/gpt4all
    ``gpt4all-training/read.py:4-9`` at cd70db2: ``with open(path, 'r') as file: return
    yaml.safe_load(file)``; ``def load_config(p): return yaml.safe_load(open(p))``;
    ``cfg = json.load(f); return cfg``): the argument given for that parameter, else None. A helper
    that changes what it loaded (``cfg["x"] = ...``, ``update``) or returns anything else is not one."""
    from preflight.adapters.config_object_helper_fn import helper_function, unwrapped_return

    if builder is None or not isinstance(call, ast.Call) or not isinstance(call.func, (ast.Name, ast.Attribute)) \
            or call.keywords or len(call.args) != 1 or isinstance(call.args[0], ast.Starred):
        return None
    got = helper_function(call, builder.m)  # ``load_config(p)``, ``misc.load_config(p)``
    if got is None:
        return None
    shown, fn = got
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    if len(params) != 1 or fn.args.vararg or fn.args.kwarg or fn.args.kwonlyargs:
        return None
    if dispatch_suffixes(call, builder) is not None:
        return call.args[0]  # ``if p.endswith(".yaml"): return OmegaConf.load(p)`` arms (Hallo)
    handles: dict[str, ast.AST] = {}
    bound: dict[str, list[ast.AST]] = {}
    returns: list[Optional[ast.AST]] = []
    for node in ast.walk(fn):
        if isinstance(node, ast.With):
            handles.update(opened(node))
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    bound.setdefault(t.id, []).append(node.value)
                else:
                    return None  # writes into what it loaded
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) or (
                isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("update", "setdefault", "pop", "merge", "merge_with")):
            return None
        elif isinstance(node, ast.Return):
            returns.append(node.value)
        elif isinstance(node, (ast.FunctionDef, ast.Lambda, ast.ClassDef)) and node is not fn:
            return None
    if not returns:
        return None
    for value in returns:
        if isinstance(value, ast.Name) and len(bound.get(value.id, [])) == 1:
            value = bound[value.id][0]
        if value is not None:
            value = unwrapped_return(value, shown, builder.m)  # ``return EasyDict(yaml.safe_load(f))``
        expr = path_expr(value, handles) if value is not None else None
        if isinstance(expr, ast.Name) and expr.id == params[0]:
            continue
        from preflight.adapters.config_object_helper_fn import joined_in_directory

        joined = joined_in_directory(expr, params[0], bound, shown, builder.m) if expr is not None else None
        if joined is None or len(returns) != 1:
            return None
        # ``os.path.join(experiment_directory, "specs.json")`` with the call's argument for the parameter
        return ast.Call(func=joined.func, args=[call.args[0], *joined.args[1:]], keywords=[])  # type: ignore[attr-defined]
    return call.args[0]


def dispatch_suffixes(call: ast.AST, builder: Any) -> Optional[tuple[str, ...]]:
    """The suffixes under which the project helper ``call`` names loads the file its one argument names,
    when the helper dispatches on the path's suffix (:mod:`config_object_suffix_helper`); else None."""
    from preflight.adapters.config_object_helper_fn import helper_function, unwrapped_return
    from preflight.adapters.config_object_suffix_helper import loading_suffixes

    if builder is None or not isinstance(call, ast.Call) or call.keywords or len(call.args) != 1 \
            or isinstance(call.args[0], ast.Starred):
        return None
    got = helper_function(call, builder.m)
    if got is None:
        return None
    shown, fn = got
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    if len(params) != 1 or fn.args.vararg or fn.args.kwarg or fn.args.kwonlyargs:
        return None

    def loads_param(value: ast.AST) -> bool:
        expr = path_expr(unwrapped_return(value, shown, builder.m), {})
        return isinstance(expr, ast.Name) and expr.id == params[0]

    return loading_suffixes(fn, params[0], loads_param)


def returned_option(call: ast.Call, builder: Any, argv: list[str]) -> Optional[str]:
    """``OmegaConf.load(parse_args())`` with ``parse_args`` a project function, without arguments,
    whose every return is ``args.X`` of ``args = parser.parse_args()`` in it (XLabs-AI/x-flux
    ``train_flux_lora_deepspeed.py:58-74`` at the manifest's commit: ``return args.config``, launched
    ``--config train_configs/test_lora.yaml``): the value of the option ``X`` on the launch line, else
    its literal ``default=``; None for any other shape or when the line's value is not known."""
    if builder is None or not isinstance(call.func, ast.Name) or call.args or call.keywords:
        return None
    got = builder.m.function(call.func.id)
    if got is None or got[2] is not None:
        return None
    fn = got[1]
    parsed: set[str] = set()
    returns: list[Optional[ast.AST]] = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "parse_args":
            parsed.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.Return):
            returns.append(node.value)
    attrs = {r.attr for r in returns if isinstance(r, ast.Attribute) and isinstance(r.value, ast.Name)
             and r.value.id in parsed}
    if not returns or len(attrs) != 1 or not all(isinstance(r, ast.Attribute) and isinstance(r.value, ast.Name)
                                                 and r.value.id in parsed for r in returns):
        return None
    dest = next(iter(attrs))
    flags: list[str] = []
    default: Optional[str] = None
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument"):
            continue
        names = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        own = kw.get("dest")
        long = next((n for n in names if n.startswith("--")), names[0] if names else "")
        if (own.value if isinstance(own, ast.Constant) else long.lstrip("-").replace("-", "_")) != dest:
            continue
        flags = [n for n in names if n.startswith("-")]
        given = kw.get("default")
        if isinstance(given, ast.Constant) and isinstance(given.value, str):
            default = given.value
    if not flags:
        return None
    value: Optional[str] = None
    for k, tok in enumerate(argv):
        name, eq, val = tok.partition("=")
        if name in flags:
            value = val if eq else (argv[k + 1] if k + 1 < len(argv) else None)
    if any(tok.startswith("$") for tok in argv) and value is None:
        return None
    return value if value is not None else default


_CLASS_LOADS = ("load", "from_yaml", "from_file", "from_json", "parse_file", "load_yaml")


def _class_load(call: ast.AST, builder: Any) -> Optional[tuple[Any, ast.AST]]:
    """``Cls.load(path, ...)`` with ``Cls`` a class of the project: ((shown, ClassDef), path)."""
    if builder is None or not isinstance(call, ast.Call) or not call.args:
        return None
    f = call.func
    if not (isinstance(f, ast.Attribute) and f.attr in _CLASS_LOADS and isinstance(f.value, ast.Name)
            and f.value.id[:1].isupper()):
        return None
    got = builder.m.klass(f.value.id)
    return None if got is None else (got, call.args[0])


def _own_class_load(call: ast.AST, builder: Any) -> Optional[tuple[Any, ast.AST]]:
    """``Cls.from_json_path(path)`` with a loader classmethod of the class (config_object_classload.py)."""
    from preflight.adapters.config_object_classload import loader_classmethod

    if builder is None or not isinstance(call, ast.Call) or len(call.args) != 1 or call.keywords:
        return None
    f = call.func
    if not (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id[:1].isupper()):
        return None
    got = builder.m.klass(f.value.id)
    if got is None or loader_classmethod(got[1], f.attr, builder.m) is None:
        return None
    return got, call.args[0]


def _load(project: Any, path: Path, root: Path) -> Any:
    import os

    from preflight.diagnostics import FileError
    from preflight.loaders import load_config
    from preflight.sources import read_source

    real = path.resolve()
    for source, loaded in getattr(project, "configs", []):
        try:
            if Path(str(source.path)).resolve() == real:
                return loaded
        except OSError:
            continue
    cache = project.cache.setdefault("config_object_files.loaded", {})
    if real in cache:
        return cache[real]
    try:
        display = os.path.relpath(real, root.resolve())
    except ValueError:
        display = str(real)
    source = read_source(real, display, _KINDS[real.suffix.lower()])
    loaded = None if isinstance(source, FileError) else load_config(source, skip_python_tags=True)  # absent: unknown
    cache[real] = None if isinstance(loaded, FileError) else loaded
    return cache[real]
