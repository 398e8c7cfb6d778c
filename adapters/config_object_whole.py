"""A project model class handed a whole configuration section, counted: a reading of
:mod:`preflight.adapters.config_object_reads` beside :mod:`preflight.adapters.config_object_model`
(which counts keyword-by-keyword builders).

Research code hands its model class the configuration object, or a section of it, and the class reads
the sizes itself: ``model = model_cls(config)`` with ``config.model.generator.hidden_size`` read in
``__init__`` (bytedance/1d-tokenizer @ the benchmark's commit ``utils/train_utils.py:101-130``,
``modeling/rar.py:186-200``), ``MaskGitTransformer(**config.model.transformer)`` (huggingface/open-muse
``training/train_maskgit_imagenet.py:222``, sizes in ``configs/imagenet.yaml``).

Read where the call runs (the ``if`` statements around it decided by the configuration's values):

- the callee a class of the project, or a local bound to one in the one assignment that runs (``if
  model_type == "rar": model_cls = RAR`` with ``model_type`` a literal every caller of the function passes);
  not built inside another ``nn.Module`` (a part), nor handed to one where that call runs;
- at least one argument, positional, keyword or ``**`` splat, that is a section of the configuration read
  from the job's config files or launch line (class defaults may fill the keys they leave out); the class
  sees it as a plain mapping (``cfg.key``, ``cfg["key"]``, ``cfg.get("key", d)`` read as the counter reads
  dicts). A key the code assigns, or that a file sets to an OmegaConf interpolation (left out of the tree,
  not resolved), is a value not known; a section changed by a call (``.update``, ``setattr``, ``del``) or
  built of values written in the code (a dict literal, a constructor's keywords: the pytorch adapter's
  counter follows those where they are written) states nothing;
- every other argument a configuration value, a literal, else unknown (fine until a size needs it);
- the class counted by ``module_params_nested.count_class`` in its own module with the project classes
  it imports: ``model.num_parameters`` and ``model.class_name``, medium. Anything the counter cannot follow
  states nothing; two different counts state nothing (:mod:`config_object_reads` keeps a count only when
  all agree).

Parsed command-line options (a namespace whose keys resolve lazily) are not a section here:
:mod:`preflight.adapters.model_imported` reads ``Model(args)``.
"""

from __future__ import annotations

import ast
from typing import Any, Callable, Optional

from preflight.adapters.config_object import Enum, Leaf, Namespace, lookup

_MAX_KEYS = 5000


class _NotPlain(Exception):
    pass


_READ = ("config file", "Hydra config", "launch line")  # values read from the job's files or its line


def _plain(node: Any, budget: list[int], hows: set[str], seen: list[tuple], rel: tuple = ()) -> Any:
    """The configuration (sub-)tree as plain values, as the model class would see it; ``hows`` gets where
    each value was set, ``seen`` the (key path in the section, file, line) of each value of a config file."""
    budget[0] -= 1
    if budget[0] < 0 or isinstance(node, Namespace):
        raise _NotPlain
    if isinstance(node, Leaf):
        hows.add(node.how)
        if node.how == "config file":
            seen.append((rel, node.file, node.line))
        node = node.value
        if isinstance(node, (Enum, Namespace)):
            raise _NotPlain
    if isinstance(node, dict):
        return {k: _plain(v, budget, hows, seen, (*rel, k)) for k, v in node.items()}
    if isinstance(node, (list, tuple)):
        return tuple(_plain(v, budget, hows, seen, rel) for v in node)
    if isinstance(node, (str, int, float, bool, type(None))):
        return node
    raise _NotPlain


def _interpolated(seen: list[tuple], modules: Any) -> Optional[list[tuple]]:
    """The key paths of the section that its config files set to an OmegaConf interpolation (``${...}``):
    the file reading leaves them out of the tree (not resolved), so the class would see its own default for
    them; they are marked not known. None when a file cannot be read again or the section not found in it."""
    from pathlib import Path

    from preflight.loaders import LoadedConfig, load_config_text
    from preflight.sources import read_text_limited

    root = Path(str(modules.root)) if modules.root else Path(".")
    out: list[tuple] = []
    for shown in {f for _, f, _ in seen}:
        path = Path(shown) if Path(shown).is_absolute() else root / shown
        try:
            text = read_text_limited(path, 2_000_000)
        except (OSError, ValueError):
            return None
        if "${" not in text:
            continue
        loaded = load_config_text(text, "json" if path.suffix.lower() == ".json" else "yaml", shown)
        if not isinstance(loaded, LoadedConfig):
            return None
        rel, _, line = next(x for x in seen if x[1] == shown)
        at = [kp for kp, ln in loaded.lines.items() if ln == line and tuple(kp[len(kp) - len(rel):]) == rel]
        if len(at) != 1 or not rel:
            return None
        prefix = tuple(at[0][:len(at[0]) - len(rel)])
        data: Any = loaded.data
        for part in prefix:
            if not isinstance(data, dict) or part not in data:
                return None
            data = data[part]
        todo: list[tuple[tuple, Any]] = [((), data)]
        while todo:
            key, value = todo.pop()
            if isinstance(value, dict):
                todo.extend(((*key, k), v) for k, v in value.items())
            elif (isinstance(value, str) and "${" in value) or (isinstance(value, list) and any(isinstance(v, str) and "${" in v for v in value)):
                out.append(key)
    return out


def _section(node: ast.AST, reader: Any, modules: Any, hows_out: Optional[set[str]] = None,
             reads: Optional[set[str]] = None, also: frozenset[str] = frozenset({"class default", "assigned"}),
             check: Optional[Callable[[dict], bool]] = None) -> Optional[tuple[dict, tuple]]:
    """(plain mapping, key path) when ``node`` names a section of the configuration read from the job's
    config files or launch line (class defaults may fill keys the files leave out; a key the code assigns
    is read as not known, :func:`_stores`); a section with values
    the code itself writes (a dict literal, a constructor's keywords) is left to the module counter of
    the pytorch adapter, which follows such values where they are written.

    ``reads`` (default: every reading of ``_READ``) are the readings at least one value must come from,
    ``also`` the others allowed beside them, and ``check`` a last test of the section's raw tree."""
    from preflight.adapters.config_object_flow import dumped

    node = dumped(node)  # ``OmegaConf.to_container(cfg.model, resolve=True)``: the same keys as a plain dict
    saved = reader.bare
    reader.bare = True  # a bare name means its object here
    try:
        path = reader.chain(node)
    finally:
        reader.bare = saved
    if path is None:
        return None
    tree = lookup(reader.combined, path)
    if not isinstance(tree, dict) or isinstance(tree, Namespace) or not tree:
        return None
    hows: set[str] = set()
    seen: list[tuple] = []
    try:
        got = _plain(tree, [_MAX_KEYS], hows, seen)
    except (_NotPlain, RecursionError):
        return None
    wanted = set(_READ) if reads is None else reads
    if not hows & wanted or hows - wanted - also or (check is not None and not check(tree)):
        return None
    if hows_out is not None:
        hows_out.update(hows)
    dropped = _interpolated(seen, modules)
    if dropped is None:
        return None
    from preflight.adapters.module_params_nested import UNKNOWN

    for key in dropped:
        if not _forget(got, key, UNKNOWN):
            return None
    return got, tuple(path)


def _stores(scoped: list[tuple[ast.AST, dict[str, set[tuple]]]]) -> list[tuple]:
    """The key paths the project's code assigns under a name bound to the configuration, in a scope where
    it is (``config.experiment.logging_dir = ...``): the class sees those keys as not known."""
    out: list[tuple] = []
    for scope, names in scoped:
        for node in ast.walk(scope):
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
            for target in targets:
                parts: list[Any] = []
                cur: Any = target
                while isinstance(cur, (ast.Attribute, ast.Subscript)):
                    if isinstance(cur, ast.Attribute):
                        parts.append(cur.attr)
                    elif isinstance(cur.slice, ast.Constant) and isinstance(cur.slice.value, (str, int)):
                        parts.append(cur.slice.value)
                    else:
                        parts = [None]  # a computed key: anything under the name
                    cur = cur.value
                if parts and isinstance(cur, ast.Name) and cur.id in names:
                    parts.reverse()
                    for base in names[cur.id]:
                        out.append((*base, *parts))
    return out


def _scoped(roots: set, fn: Any, reader: Any, modules: Any, scopes: Optional[dict[int, dict[str, tuple]]]
            ) -> list[tuple[ast.AST, dict[str, set[tuple]]]]:
    """Each scope of the project's code with its names bound to one of the configuration ``roots``: the
    entry module (the roots' own names), this function, and every function the reading followed them into."""
    nodes: dict[int, ast.AST] = {}
    for _, _, tree in modules.trees:
        nodes[id(tree)] = tree
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                nodes[id(node)] = node
    out: list[tuple[ast.AST, dict[str, set[tuple]]]] = [(modules.trees[0][2], {str(r): {(r,)} for r in roots})]
    pairs = [(id(fn), getattr(reader, "names", {})), *(scopes or {}).items()]
    for key, names in pairs:
        bound: dict[str, set[tuple]] = {}
        for n, p in names.items():
            if p and p[0] in roots:
                bound.setdefault(n, set()).add(tuple(p))
        if bound and key in nodes:
            out.append((nodes[key], bound))
    return out


def _forget(plain: Any, rel: tuple, unknown: Any) -> bool:
    """Marks the key at ``rel`` under ``plain`` unknown; False when the whole mapping is concerned."""
    if not rel or rel[0] is None:
        return False
    node = plain
    for part in rel[:-1]:
        if not isinstance(node, dict) or not isinstance(node.get(part), dict):
            return True  # a key the section does not have: added by the code, read as not known if used
        node = node[part]
    if isinstance(node, dict):
        node[rel[-1]] = unknown
    return True


_MUTATORS = ("update", "setdefault", "pop", "popitem", "clear", "merge_from_file", "merge_from_list",
             "merge_from_other_cfg", "merge_with")


def _mutated(scoped: list[tuple[ast.AST, dict[str, set[tuple]]]]) -> bool:
    """A mapping bound to the configuration changed in a way the configuration reading does not follow
    (``GPT_CONFIG.update({"n_layers": 24})``, ``setattr(cfg, k, v)``, ``del cfg["k"]``) in a scope where the
    name is bound to it: the section's values may not be the ones the class sees."""
    for scope, names in scoped:
        def rooted(node: ast.AST) -> bool:
            while isinstance(node, (ast.Attribute, ast.Subscript)):
                node = node.value
            return isinstance(node, ast.Name) and node.id in names  # noqa: B023 (used at once)

        for node in ast.walk(scope):
            if isinstance(node, ast.Call):
                f = node.func
                if isinstance(f, ast.Attribute) and f.attr in _MUTATORS and rooted(f.value):
                    return True
                if isinstance(f, ast.Name) and f.id in ("setattr", "delattr") and node.args and rooted(node.args[0]):
                    return True
            elif isinstance(node, ast.Delete) and any(rooted(t) for t in node.targets):
                return True
    return False


def _param_literals(fn: Any, modules: Any) -> dict[str, Any]:
    """The parameters of ``fn`` that every call of it in the project's modules read gives the same literal
    (its default where a call does not pass it): ``create_model_and_loss_module(config, ..., model_type="rar")``."""
    if not isinstance(fn, ast.FunctionDef):
        return {}
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    if params and params[0] in ("self", "cls"):
        params = params[1:]  # a method: its callers pass the others
    defaults = dict(zip(params[len(params) - len(fn.args.defaults):], fn.args.defaults))
    defaults.update({a.arg: d for a, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults) if d is not None})
    calls = [n for _, _, t in modules.trees for n in ast.walk(t) if isinstance(n, ast.Call) and (
        (isinstance(n.func, ast.Name) and n.func.id == fn.name)
        or (isinstance(n.func, ast.Attribute) and n.func.attr == fn.name))]
    if not calls or any(isinstance(a, ast.Starred) for c in calls for a in c.args) \
            or any(k.arg is None for c in calls for k in c.keywords):
        return {}
    out: dict[str, Any] = {}
    for name in [*params, *(a.arg for a in fn.args.kwonlyargs)]:
        seen: list[ast.Constant] = []
        for c in calls:
            given = next((k.value for k in c.keywords if k.arg == name), None)
            if given is None and name in params and params.index(name) < len(c.args):
                given = c.args[params.index(name)]
            value = given if given is not None else defaults.get(name)
            if not isinstance(value, ast.Constant):
                break
            seen.append(value)
        else:
            if len({repr(v.value) for v in seen}) == 1:
                out[name] = seen[0].value
    return out


def _decide(test: ast.AST, literals: dict[str, Any], reader: Any) -> Optional[bool]:
    got = reader.test(test)
    if got is not None:
        return bool(got)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq)) \
            and isinstance(test.left, ast.Name) and test.left.id in literals \
            and isinstance(test.comparators[0], ast.Constant):
        same = literals[test.left.id] == test.comparators[0].value
        return same if isinstance(test.ops[0], ast.Eq) else not same
    return None


def _taken(node: ast.AST, parents: dict[int, ast.AST], literals: dict[str, Any], reader: Any) -> Optional[bool]:
    """Every ``if`` around ``node`` decided toward it (True), one decided against it (False), else None."""
    child, parent = node, parents.get(id(node))
    out: Optional[bool] = True
    while parent is not None:
        if isinstance(parent, ast.If) and child is not parent.test:
            decided = _decide(parent.test, literals, reader)
            if decided is None:
                out = None
            elif decided != any(child is s for s in parent.body):
                return False
        child, parent = parent, parents.get(id(parent))
    return out


def _class_of(call: ast.Call, fn: Any, modules: Any, nodes: list[ast.AST], parents: dict[int, ast.AST],
              reader: Any) -> Optional[str]:
    """The project class ``call`` builds: its name, or a local bound to one class in the one assignment of
    it that runs, every other assignment decided off (``if model_type == "rar": model_cls = RAR`` with
    ``model_type`` a literal every caller passes)."""
    assert isinstance(call.func, ast.Name)
    name = call.func.id
    if modules.klass(name) is not None or _seen(name, fn, modules) is not None:
        return name
    every = [n for n in nodes if isinstance(n, ast.Assign) and any(
        isinstance(t, ast.Name) and t.id == name for t in n.targets)]
    if not every:
        return None
    literals = _param_literals(fn, modules)
    taken = [_taken(n, parents, literals, reader) for n in every]
    if taken.count(True) != 1 or any(t is None for t in taken):
        return None
    chosen = every[taken.index(True)]
    if len(chosen.targets) != 1 or not isinstance(chosen.value, ast.Name):
        return None
    cls = chosen.value.id
    return cls if modules.klass(cls) is not None else None


def _seen(name: str, fn: Any, modules: Any) -> Optional[tuple[str, ast.ClassDef]]:
    """The class ``name`` means in the module holding ``fn`` where several modules define one
    (``Modules.klass_seen``)."""
    shown = next((s for s, _, t in modules.trees if fn is t or any(n is fn for n in ast.walk(t))), None)
    return modules.klass_seen(name, shown) if shown is not None else None


def _inside_module(fn: Any, modules: Any, depth: int = 0) -> bool:
    """``fn`` is a method of an ``nn.Module`` class (directly, or through a class of the project): what it
    builds is a part of that module (BigVGAN's ``DiscriminatorP(h, ...)`` inside ``MultiPeriodDiscriminator``).
    A ``LightningModule`` is a training wrapper: the network it builds is the model."""
    owner = next((c for fns in modules.functions.values() for _, f, c in fns if f is fn), None)
    return owner is not None and _module_class(owner, modules, depth)


def _module_class(cls: ast.ClassDef, modules: Any, depth: int) -> bool:
    from preflight.analysis.syntax import dotted_name

    for base in cls.bases:
        name = dotted_name(base) or ""
        last = name.rsplit(".", 1)[-1]
        if last == "LightningModule":
            return False
        if name in ("nn.Module", "torch.nn.Module", "Module"):
            return True
        got = modules.klass(last) if depth < 6 else None
        if got is not None and got[1] is not cls and _module_class(got[1], modules, depth + 1):
            return True
    return False


def _handed_on(call: ast.Call, nodes: list[ast.AST], modules: Any, runs: Callable[[ast.AST], bool]) -> bool:
    """What ``call`` builds is handed to another ``nn.Module`` class of the project in the same function,
    where that call runs (facebookresearch/detr ``models/detr.py:313-327``: ``DETR(backbone, transformer,
    ...)``): a part. A wrapper in a branch the configuration decides off (allenai/OLMo ``scripts/train.py:226``
    ``SingleAccelerator(olmo_model)`` when the strategy is FSDP) is not taken."""
    held = {t.id for n in nodes if isinstance(n, ast.Assign) and n.value is call
            for t in n.targets if isinstance(t, ast.Name)}
    for n in nodes:
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n is not call) or not runs(n):
            continue
        got = modules.klass(n.func.id)
        if got is None or not _module_class(got[1], modules, 0):
            continue
        if any((isinstance(a, ast.Name) and a.id in held) or a is call for a in [*n.args, *(k.value for k in n.keywords)]):
            return True
    return False


def whole_count(call: ast.Call, fn: Any, modules: Any, reader: Any, nodes: list[ast.AST],
                parents: dict[int, ast.AST], runs: Callable[[ast.AST], bool],
                scopes: Optional[dict[int, dict[str, tuple]]] = None) -> Optional[tuple[int, str, str]]:
    """(parameters, class, detail) of the project model ``call`` builds from a configuration section."""
    from preflight.adapters.config_object_whole_args import module_class, module_of, plain_value
    from preflight.adapters.module_params_imports import with_imports
    from preflight.adapters.module_params_nested import UNKNOWN, count_class

    if not isinstance(call.func, (ast.Name, ast.Attribute)) or not runs(call) or _inside_module(fn, modules):
        return None
    if isinstance(call.func, ast.Attribute):
        got = module_class(call, fn, modules)  # ``models.FlowGenerator(...)`` after ``import models`` (glow-tts)
    else:
        name = _class_of(call, fn, modules, nodes, parents, reader)
        got = (modules.klass(name) or _seen(name, fn, modules)) if name is not None else None
    if got is None:
        return None
    here = module_of(fn, modules)
    script = here[1] if here is not None else None

    def section(expr: ast.AST, key: str) -> Optional[tuple[dict, bool]]:
        """(the section, whether a key it lacks is one the object does not have): read whole from the job's
        files, and no code of the project sets that attribute (``x.key = ...``, ``setattr(x, ...)``; an object's
        own ``self.key = ...`` and an attribute dict's ``setattr(self, k, v)`` are not the configuration's)."""
        hows: set[str] = set()
        sec = _section(expr, reader, modules, hows)
        if sec is None:
            return None
        set_in_code = any((isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store) and n.attr == key
                           and not (isinstance(n.value, ast.Name) and n.value.id == "self"))
                          or (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "setattr"
                              and not (n.args and isinstance(n.args[0], ast.Name) and n.args[0].id == "self"))
                          for _, _, t in modules.trees for n in ast.walk(t))
        return sec[0], hows <= {"config file"} and not set_in_code

    def value(expr: ast.AST) -> Any:
        return plain_value(expr, reader, UNKNOWN, section, script)
    shown, cls = got
    found = next(((p, t) for s, p, t in modules.trees if s == shown), None)
    if found is None or _handed_on(call, nodes, modules, runs):
        return None
    path, tree = found
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    placed: list[tuple[tuple, dict]] = []  # (section path, the mapping the class is handed for it)
    for arg in call.args:
        if isinstance(arg, ast.Starred):
            return None
        sec = _section(arg, reader, modules)
        if sec is not None:
            placed.append((sec[1], sec[0]))
        args.append(sec[0] if sec is not None else value(arg))
    for kw in call.keywords:
        sec = _section(kw.value, reader, modules)
        if kw.arg is None:
            if sec is None or any(k in kwargs for k in sec[0]):
                return None
            placed.append((sec[1], kwargs))
            kwargs.update(sec[0])
            continue
        if sec is not None:
            placed.append((sec[1], sec[0]))
        kwargs[kw.arg] = sec[0] if sec is not None else value(kw.value)
    if not placed:
        return None
    scoped = _scoped({p[0] for p, _ in placed if p}, fn, reader, modules, scopes)
    if _mutated(scoped):
        return None
    for stored in _stores(scoped):
        for sec_path, holder in placed:
            if stored[:len(sec_path)] == sec_path and not _forget(holder, stored[len(sec_path):], UNKNOWN):
                return None  # the section itself replaced
            if len(stored) < len(sec_path) and sec_path[:len(stored)] == stored:
                return None  # a mapping above the section replaced
    counted = count_class(with_imports(path, tree), cls.name, kwargs, args)
    if counted is None:
        return None
    total, layers = counted
    keys = ", ".join(".".join(map(str, p)) or "the configuration" for p, _ in placed)
    detail = (f"{cls.name}(...) built from the configuration section(s) {keys}: {total:,} parameters of "
              f"{len(layers)} layers ({shown}:{cls.lineno})")
    return total, cls.name, detail
