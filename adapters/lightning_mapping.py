"""The mapping a Lightning ``Trainer(**mapping)`` unpacks, followed to where the script builds it.

Part of :mod:`preflight.adapters.lightning` (its ``_ScriptPass.unpacked``). Each ``**expr`` of the
call is read as the keys it holds, found one of these ways (real shapes, each pinned by a test in
``tests/test_lightning_mapping.py``):

* a section of the one config file given to the audit, named by an attribute/string-subscript
  chain (``Trainer(**config['trainer_params'])``, AntixK/PyTorch-VAE ``run.py:45-54``), its root
  possibly reached through plain aliases in the same function (TencentARC/InstantMesh
  ``train.py:169-171,262``: ``config = OmegaConf.load(opt.base)``, ``lightning_config =
  config.lightning``, ``trainer_config = lightning_config.trainer``,
  ``Trainer(**trainer_config, ...)``);
* a node of the Hydra config composed for the script's app, kept on ``self`` by the one
  ``self.attr = cfg.section`` of the class (jasonkyuyim/multiflow
  ``multiflow/experiments/train_se3_flows.py:25,102``: ``self._exp_cfg = cfg.experiment``,
  ``Trainer(**self._exp_cfg.trainer, devices=...)``); a key of it written anywhere in the class,
  or a mutating method called on it, leaves it unknown;
* a dict the function builds itself: ``{...}``, ``dict(k=v, ...)`` or ``dict()``
  (InstantMesh ``train.py:185``: ``trainer_kwargs = dict()``);
* then the keys the function writes before the call, in order: ``m["key"] = value`` or
  ``m.key = value`` at the top level of the function (InstantMesh ``train.py:173-176,258-259``:
  ``trainer_config['devices'] = ngpu``, ``trainer_kwargs['precision'] = '32-true'``,
  ``trainer_kwargs["strategy"] = DDPStrategy(...)``). A key written under an ``if``, a loop, a
  ``try`` or a ``with`` becomes unknown (the value may be either) except the idiom ``if m is
  None: m = {}`` over a mapping that is known (jwohlwend/boltz ``scripts/train/train.py:106-108``).

* (also read by :mod:`preflight.adapters.splat_call` for ``training_loop(**c)``) an ``EasyDict(...)`` /
  ``edict(...)`` built in place is a dict literal, ``m.update(k=v, ...)`` writes named keys (NVlabs/edm
  ``train.py:96,152``), a tuple target ``m.k, name = helper()`` makes ``k`` unknown, a key's value handed
  to a call leaves the key as it was, and a mapping that is a parameter of the function is followed to the
  one call of that function in the file (at most three functions up; NVlabs/stylegan3 ``train.py``:
  ``main`` -> ``launch_training(c=c, ...)`` -> ``subprocess_fn(rank=0, c=c, ...)``), then this
  function's writes before the call.

* (jobs95) a declaration without a value (``cfg: ExperimentConfig``) is no binding, and a mapping handed
  to a class the script imports by name from the project is followed into that class's ``__init__`` as
  into a function of the file (threestudio @ 28d9d80 ``launch.py:163,195-200,228-235``: ``cfg =
  load_config(args.config, ...)``, ``ConfigSnapshotCallback(args.config, cfg, ...)`` only stores it,
  ``Trainer(..., **cfg.trainer)`` reads the ``trainer:`` section of the ``--config`` file).

Anything else leaves the whole mapping unknown and the call's absent arguments are not given
Lightning's defaults: a mapping returned by a function (``Trainer(**get_kwargs(args))``), one
``update``-d, ``pop``-ped, ``del``-eted, written with a computed key, or handed to a call that
may change it (``configure(kwargs)``), or rebound more than once in the function.

How a mapping was found is the ``how`` of the result: ``"config"`` (a config section named
straight), ``"followed"`` (aliases or writes followed: the caller lowers its confidence to
medium), ``"literal"`` (a dict built in place and not written after).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Union

from preflight.analysis.syntax import config_at, dotted_name, keyed_chain, root_name

_READ_ONLY_CALLS = {"print", "len", "str", "repr", "isinstance", "bool", "list", "sorted", "dict", "Namespace",
                    "to_yaml", "to_container", "save", "info", "debug", "warning", "rank_zero_print",
                    "rank_zero_info", "deepcopy", "copy", "dump", "dumps"}

_MUTATORS = {"update", "pop", "popitem", "setdefault", "clear", "__setitem__", "merge_with", "__delitem__"}

_EASYDICTS = {"EasyDict", "edict"}
_MAX_HOPS = 3

Fn = Union[ast.FunctionDef, ast.AsyncFunctionDef, ast.Module]


@dataclass
class Mapping:
    """The keys of one unpacked mapping: key -> an expression of the script (its value), a config value
    (``("config", value, config, key_path)``), or None (written where its value is not known)."""

    keys: dict[str, Any] = field(default_factory=dict)
    origin: str = ""  # what was unpacked and where it came from, for the note
    how: str = "literal"  # "config", "followed" or "literal"


def _enclosing(tree: ast.Module, line: int) -> Fn:
    around = [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
              and node.lineno <= line <= (node.end_lineno or node.lineno)]
    return max(around, key=lambda node: node.lineno) if around else tree


def _own_statements(fn: Fn) -> list[tuple[ast.stmt, bool]]:
    """Every statement of ``fn`` outside nested functions/classes, with whether it sits at the
    function's top level (False: under an ``if``, a loop, a ``try`` or a ``with``)."""
    out: list[tuple[ast.stmt, bool]] = []

    def walk(body: list[ast.stmt], top: bool) -> None:
        for stmt in body:
            out.append((stmt, top))
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if _main_guard(stmt):  # ``if __name__ == "__main__":`` runs when the script is launched
                walk(stmt.body, top)  # type: ignore[attr-defined]
                walk(stmt.orelse, False)  # type: ignore[attr-defined]
                continue
            for name in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, name, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    walk(inner, False)
            for handler in getattr(stmt, "handlers", []) or []:
                walk(handler.body, False)

    walk(fn.body, True)
    return out


def _own_nodes(stmt: ast.stmt) -> list[ast.AST]:
    """The nodes of ``stmt`` itself, not those of the statements nested in it (listed on their own)."""
    out: list[ast.AST] = [stmt]
    todo: list[ast.AST] = list(ast.iter_child_nodes(stmt))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.stmt, ast.excepthandler)):
            continue
        out.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return out


def _main_guard(stmt: ast.stmt) -> bool:
    test = stmt.test if isinstance(stmt, ast.If) else None
    return isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__" \
        and len(test.comparators) == 1 and isinstance(test.comparators[0], ast.Constant) \
        and test.comparators[0].value == "__main__"


def _is_none_guard(stmt: ast.stmt, name: str) -> bool:
    """``if name is None: name = {}`` (nothing else in it)."""
    return isinstance(stmt, ast.If) and not stmt.orelse and isinstance(stmt.test, ast.Compare) \
        and isinstance(stmt.test.left, ast.Name) and stmt.test.left.id == name \
        and len(stmt.test.ops) == 1 and isinstance(stmt.test.ops[0], ast.Is) \
        and isinstance(stmt.test.comparators[0], ast.Constant) and stmt.test.comparators[0].value is None \
        and len(stmt.body) == 1 and isinstance(stmt.body[0], ast.Assign) \
        and isinstance(stmt.body[0].value, ast.Dict) and not stmt.body[0].value.keys


def _literal(value: ast.expr) -> Optional[dict[str, Any]]:
    maker = dotted_name(value.func) or "" if isinstance(value, ast.Call) else ""
    if (maker.endswith("OmegaConf.create") or maker.rsplit(".", 1)[-1] == "DictConfig") \
            and isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords:
        value = value.args[0]  # ``OmegaConf.create(dict(devices=1, ...))`` (a NeMo speaker fine-tuning script)
        maker = dotted_name(value.func) or "" if isinstance(value, ast.Call) else ""
    if isinstance(value, ast.Dict):
        out: dict[str, Any] = {}
        for k, v in zip(value.keys, value.values):
            if k is None or not isinstance(k, ast.Constant) or not isinstance(k.value, str):
                return None  # ``{**other}`` or a computed key
            out[k.value] = v
        return out
    if isinstance(value, ast.Call) and (
            (isinstance(value.func, ast.Name) and value.func.id == "dict") or maker.rsplit(".", 1)[-1] in _EASYDICTS) \
            and not value.args and all(kw.arg is not None for kw in value.keywords):
        # ``dnnlib.EasyDict()`` / ``EasyDict(k=v)`` / ``edict()``: a dict whose keys are also attributes
        # (NVlabs/stylegan3 ``train.py:176``: ``c = dnnlib.EasyDict()``, then ``c.batch_size = opts.batch``)
        return {str(kw.arg): kw.value for kw in value.keywords}
    return None


class _Follow:
    def __init__(self, tree: ast.Module, configs: list[Any], line: int, hops: int = 0,
                 path: Optional[Path] = None) -> None:
        self.hops = hops
        self.path = path  # the script's file: classes it imports from the project are read
        self.configs = configs
        self.tree = tree
        self.line = line
        self.fn = _enclosing(tree, line)
        self.stmts = _own_statements(self.fn)

    def self_attribute(self, attr: str) -> Optional[tuple[ast.Name, tuple[str, ...]]]:
        """The chain of the one ``self.attr = chain`` of the class around the call."""
        classes = [c for c in ast.walk(self.tree) if isinstance(c, ast.ClassDef)
                   and c.lineno <= self.line <= (c.end_lineno or c.lineno)]
        if not classes:
            return None
        klass = max(classes, key=lambda c: c.lineno)
        values = [n.value for n in ast.walk(klass) if isinstance(n, ast.Assign) for t in n.targets
                  if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"
                  and t.attr == attr] + [n for n in ast.walk(klass) if isinstance(n, (ast.AugAssign, ast.AnnAssign))
                                          and isinstance(n.target, ast.Attribute) and n.target.attr == attr]
        if len(values) != 1 or not isinstance(values[0], ast.expr):
            return None
        for node in ast.walk(klass):  # a key written or a method changing it anywhere in the class
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target] if isinstance(
                node, ast.AugAssign) else [node.func.value] if isinstance(node, ast.Call) and isinstance(
                node.func, ast.Attribute) and node.func.attr in _MUTATORS else []
            for t in targets:
                got = keyed_chain(t)
                if got is not None and got[0].id == "self" and got[1][:1] == (attr,) and (
                        len(got[1]) > 1 or isinstance(node, ast.Call)):
                    return None
        return keyed_chain(values[0])

    def binding(self, name: str) -> Optional[tuple[int, ast.expr]]:
        """The one plain top-level assignment of ``name`` in the function before the call (the ``if name
        is None: name = {}`` idiom aside): its line and value; None when there is none, several, or one
        under a test or loop."""
        found: list[tuple[int, ast.expr, bool]] = []
        guarded = {id(s.body[0]) for s, _ in self.stmts if isinstance(s, ast.If) and _is_none_guard(s, name)}
        for stmt, top in self.stmts:
            if stmt.lineno >= self.line or id(stmt) in guarded or (isinstance(stmt, ast.AnnAssign)
                                                                    and stmt.value is None):
                continue  # ``cfg: ExperimentConfig`` only declares the name's type (threestudio ``launch.py:163``)
            if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
                if len(stmt.targets) != 1:
                    return None
                found.append((stmt.lineno, stmt.value, top))
            elif any(isinstance(t, ast.Name) and t.id == name and isinstance(t.ctx, ast.Store)
                     for t in ast.walk(stmt) if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                    ast.ClassDef, ast.If, ast.Try))
                     and isinstance(t, ast.Name)):
                return None  # bound by a loop, a with, a tuple, an augmented assignment
        if len(found) != 1 or not found[0][2]:
            return None
        return found[0][0], found[0][1]

    def mapping(self, expr: ast.expr) -> Optional[Mapping]:
        chain = keyed_chain(expr)
        if chain is None:
            return None
        root, path = chain
        self_followed = False
        if root.id == "self" and path:
            # ``self._exp_cfg.trainer`` with one ``self._exp_cfg = cfg.experiment`` in the class
            # (jasonkyuyim/multiflow ``multiflow/experiments/train_se3_flows.py:25,102``)
            stored = self.self_attribute(path[0])
            if stored is None:
                return None
            root, path = stored[0], (*stored[1], *path[1:])
            self_followed = True
            self.stmts = []  # the root is a name of another method: its aliases are not followed
        # the aliases up to the root: ``trainer_config = lightning_config.trainer``,
        # ``lightning_config = config.lightning``
        names, keys_of, since = [root.id], [], {root.id: 0}
        terminal: Optional[tuple[int, ast.expr]] = None
        for _hop in range(8):
            bound = self.binding(names[-1])
            if bound is None:
                break
            since[names[-1]] = bound[0]
            inner = keyed_chain(bound[1])
            if inner is None or inner[0].id in since:
                terminal = bound
                break
            keys_of.append(inner[1])
            names.append(inner[0].id)
            since.setdefault(inner[0].id, 0)
        prefix: dict[str, tuple[str, ...]] = {names[-1]: ()}
        for k in range(len(names) - 2, -1, -1):
            prefix[names[k]] = (*prefix[names[k + 1]], *keys_of[k])
        section = (*prefix[names[0]], *path)
        followed = len(names) > 1 or self_followed
        literal = _literal(terminal[1]) if terminal is not None else None
        if terminal is None and not section and len(names) == 1 and not self_followed:
            return self.through_parameter(root.id, expr)
        keys: dict[str, Any]
        if literal is not None:
            if section:
                return None  # a key of a dict built in place: not followed
            keys, origin, how = dict(literal), f"{ast.unparse(expr)} (line {terminal[0]})", "literal"  # type: ignore[index]
        else:
            if not section:
                return None  # a name bound to a call, a parameter, ...: not followed
            found = [(c, d) for c in self.configs if (d := config_at(c.data, section)) is not None]
            if len(found) != 1:
                return None
            config, data = found[0]
            keys = {k: ("config", v, config, (*section, k)) for k, v in data.items()
                    if isinstance(k, str) and k.isidentifier()}
            origin, how = f"{ast.unparse(expr)} ({'.'.join(section)} of {config.path})", "config"
        written = self.writes(prefix, since, section, keys)
        if written is None:
            return None
        if followed or written:
            how = "followed"
        return Mapping(keys, origin, how)

    def through_parameter(self, name: str, expr: ast.expr) -> Optional[Mapping]:
        """``name`` is a parameter of the function around the call: the mapping its one caller in the
        file passes (by keyword or position, a name or chain followed there in turn, at most
        ``_MAX_HOPS`` functions up), then the writes this function makes before the call (NVlabs/stylegan3
        ``train.py``: ``main`` builds ``c``, ``launch_training(c=c, ...)``, ``subprocess_fn(rank=0, c=c,
        ...)``, ``training_loop.training_loop(rank=rank, **c)``). None when the function has no such
        caller, several, or one that spreads ``*args``/``**kwargs`` into it."""
        fn = self.fn
        if self.hops >= _MAX_HOPS or not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                or any(isinstance(s, ast.Name) and s.id == name and isinstance(s.ctx, ast.Store)
                       for stmt, _ in self.stmts for s in _own_nodes(stmt)):
            return None
        positional = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
        if name not in positional and name not in [a.arg for a in fn.args.kwonlyargs]:
            return None
        calls = [n for n in ast.walk(self.tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                 and n.func.id == fn.name]
        if len(calls) != 1 or any(isinstance(a, ast.Starred) for a in calls[0].args) \
                or any(k.arg is None for k in calls[0].keywords):
            return None
        call = calls[0]
        given = next((k.value for k in call.keywords if k.arg == name), None)
        if given is None and name in positional and positional.index(name) < len(call.args):
            given = call.args[positional.index(name)]
        if given is None:
            return None
        outer = _Follow(self.tree, self.configs, call.lineno, self.hops + 1, self.path).mapping(given)
        if outer is None:
            return None
        keys = dict(outer.keys)
        if self.writes({name: ()}, {name: 0}, (), keys) is None:
            return None
        return Mapping(keys, f"{ast.unparse(expr)} (from {outer.origin}, through {fn.name}())", "followed")

    def writes(self, prefix: dict[str, tuple[str, ...]], since: dict[str, int], section: tuple[str, ...],
               keys: dict[str, Any]) -> Optional[bool]:
        """Apply the writes of the section's keys before the call (through any alias); None when the
        mapping may change in a way not followed, else whether a write was applied."""
        applied = False  # (a branch found dead below counts as followed)

        def place(node: ast.AST, node_line: int) -> Optional[tuple[str, ...]]:
            got = keyed_chain(node)
            if got is None or got[0].id not in prefix or node_line <= since[got[0].id]:
                return None
            return (*prefix[got[0].id], *got[1])

        def touches(full: tuple[str, ...]) -> bool:  # the section, a key in it, or a mapping holding it
            n = min(len(full), len(section))
            return full[:n] == section[:n]

        dead = self.dead_branches(place, section, keys)
        applied = bool(dead)
        for stmt, top in self.stmts:
            if stmt.lineno >= self.line or id(stmt) in dead:
                continue
            for node in _own_nodes(stmt):
                node_line = getattr(node, "lineno", 0)
                if isinstance(node, (ast.Assign, ast.AugAssign, ast.Delete)):
                    targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
                    # ``c.training_set_kwargs, name = helper(...)``: each element is a write of a value not known
                    targets = [e for t in targets for e in (t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t])]
                    for t in targets:
                        if isinstance(t, ast.Name):
                            continue  # (re)binding a name: the binding the aliases were read from
                        full = place(t, node_line)
                        if full is None:
                            if root_name(t) in prefix and node_line > since.get(root_name(t) or "", 0) \
                                    and keyed_chain(t) is None:
                                return None  # ``m[key] = ...`` with a computed key
                            continue
                        if not touches(full):
                            continue
                        if isinstance(node, ast.Delete):
                            return None
                        if len(full) <= len(section):
                            value = node.value if isinstance(node, ast.Assign) else None
                            if value is not None and place(value, node_line) == full:
                                continue  # ``lightning_config.trainer = trainer_config``: the same object
                            return None
                        key = full[len(section)]
                        plain = isinstance(node, ast.Assign) and top and node is stmt and len(full) == len(section) + 1 \
                            and t in node.targets
                        keys[key] = node.value if plain else None
                        applied = True
                elif isinstance(node, ast.Call):
                    func = node.func
                    if isinstance(func, ast.Attribute) and func.attr in _MUTATORS:
                        full = place(func.value, node_line)
                        if full is not None and full == section and func.attr == "update" and not node.args \
                                and all(k.arg is not None for k in node.keywords):
                            # ``c.update(batch_size=opts.batch, batch_gpu=opts.batch_gpu)`` (NVlabs/edm
                            # ``train.py:152``): named keys written, plain where the call is a statement of its own
                            plain = top and isinstance(stmt, ast.Expr) and stmt.value is node
                            for k in node.keywords:
                                keys[str(k.arg)] = k.value if plain else None
                            applied = True
                            continue
                        if full is not None and touches(full):
                            if len(full) <= len(section):
                                return None
                            keys[full[len(section)]] = None  # ``c.G_kwargs.update(...)``: that key's value changes
                            applied = True
                    last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(
                        func, ast.Name) else ""
                    if last in _READ_ONLY_CALLS:
                        continue
                    for arg in [*node.args, *(k.value for k in node.keywords if k.arg is not None)]:
                        full = place(arg, node_line)
                        # a key's value handed over (``spawn(nprocs=c.num_gpus)``): the key still holds it
                        if full is not None and touches(full) and len(full) <= len(section) \
                                and not self.reads_only(node, arg, full, section, keys):
                            return None  # handed to a function that may change it
        return applied


    def dead_branches(self, place: Any, section: tuple[str, ...], keys: dict[str, Any]) -> set[int]:
        """The statements under ``if m.flag:`` (no ``else``) where ``flag`` is a key of the section whose
        config value is ``False``: never run (the grok-ai/nn-template debug branch, txie-93/cdvae @ f857f59
        ``cdvae/run.py:67-73``: ``if cfg.train.pl_trainer.fast_dev_run:`` ... ``cfg.train.pl_trainer.gpus = 0``
        with ``conf/train/default.yaml`` ``fast_dev_run: False``)."""
        dead: set[int] = set()
        for stmt, _ in self.stmts:
            if not isinstance(stmt, ast.If) or stmt.orelse or stmt.lineno >= self.line:
                continue
            full = place(stmt.test, stmt.lineno)
            if full is None or len(full) != len(section) + 1 or full[:len(section)] != section:
                continue
            held = keys.get(full[-1])
            if isinstance(held, tuple) and len(held) == 4 and held[0] == "config" and held[1] is False:
                dead.update(id(n) for inner in stmt.body for n in ast.walk(inner) if isinstance(n, ast.stmt))
        return dead

    def reads_only(self, call: ast.Call, arg: ast.expr, full: tuple[str, ...], section: tuple[str, ...],
                   keys: dict[str, Any]) -> bool:
        """Whether the function of this file that ``call`` calls (by a plain name, one definition) only reads
        the mapping handed to it as ``arg``: no key of it written, no mutating method called on it, not handed
        on to a call that may change it (checked the same way, at most ``_MAX_HOPS`` deep). txie-93/cdvae @
        f857f59 ``cdvae/run.py:21-58,127``: ``build_callbacks(cfg=cfg)`` reads ``cfg.train`` keys before
        ``pl.Trainer(**cfg.train.pl_trainer)``."""
        if self.hops >= _MAX_HOPS or not isinstance(call.func, ast.Name) \
                or any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return False
        defs = [n for n in self.tree.body if isinstance(n, ast.FunctionDef) and n.name == call.func.id]
        tree, skip = self.tree, 0
        if not defs:
            found = self.imported_init(call.func.id)
            if found is None:
                return False
            tree, defs, skip = found[0], [found[1]], 1  # a class's ``__init__``: ``self`` is not passed
        if len(defs) != 1:
            return False
        fn = defs[0]
        params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)][skip:]
        name = next((k.arg for k in call.keywords if k.value is arg), None)
        if name is None and arg in call.args and call.args.index(arg) < len(params):
            name = params[call.args.index(arg)]
        if name is None or name not in [*params, *(a.arg for a in fn.args.kwonlyargs)]:
            return False
        if any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store) for n in ast.walk(fn)):
            return False  # rebound: what it names after is not followed
        inner = _Follow(tree, self.configs, fn.lineno, self.hops + 1)
        inner.fn, inner.stmts, inner.line = fn, _own_statements(fn), (fn.end_lineno or fn.lineno) + 1
        return inner.writes({name: full}, {name: 0}, section, dict(keys)) is False

    def imported_init(self, name: str) -> Optional[tuple[ast.Module, ast.FunctionDef]]:
        """The ``__init__`` of the class ``name`` that the script imports by name from one of the project's
        modules (``from pkg.callbacks import ConfigSnapshotCallback``, at the top or inside the function;
        threestudio @ 28d9d80 ``launch.py:140-145,195-200``: ``ConfigSnapshotCallback(args.config, cfg, ...)``
        before ``Trainer(**cfg.trainer)``, whose ``__init__`` only stores the config): its module's tree and
        the method. None when the script has no path, the name is imported otherwise or not at all, or the
        class is not found once with an ``__init__`` of its own."""
        from preflight.adapters.module_params_imports import imported_files

        from preflight.local_trees import parse_project_file

        if self.path is None:
            return None
        imports = [n for n in ast.walk(self.tree) if isinstance(n, ast.ImportFrom)
                   and any((a.asname or a.name) == name and a.name == name for a in n.names)]
        if len(imports) != 1:
            return None
        inits: list[tuple[ast.Module, ast.FunctionDef]] = []
        for file in imported_files(self.path, ast.Module(body=[imports[0]], type_ignores=[])):
            sub = parse_project_file(file)
            for klass in (sub.body if sub is not None else []):
                if isinstance(klass, ast.ClassDef) and klass.name == name:
                    inits += [(sub, f) for f in klass.body if isinstance(f, ast.FunctionDef)  # type: ignore[misc]
                              and f.name == "__init__"]
        return inits[0] if len(inits) == 1 else None


def unpacked_mapping(tree: Optional[ast.Module], configs: list[Any], call: ast.Call,
                     expr: ast.expr, path: Optional[Path] = None) -> Optional[Mapping]:
    """The keys ``**expr`` of ``call`` unpacks, or None when they are not known (see the module doc);
    ``path``, the script's file, lets a class the script imports from the project be read."""
    if tree is None:
        return None
    return _Follow(tree, configs, call.lineno, path=path).mapping(expr)
