"""How a project's config object flows through its functions: the reader of attribute chains, the flow of the object into callees and back, and what guards a read."""

from __future__ import annotations

import ast
from collections import Counter, deque
from typing import Any, Optional

from preflight.adapters.config_object import (
    Builder,
    Enum,
    Leaf,
    Modules,
    Namespace,
    Tree,
    assign,
    lookup,
)
from preflight.adapters.config_object_casts import self_casts
from preflight.adapters.config_object_dead_rebind import rebound_only_when_dead
from preflight.adapters.config_object_guards import _written_back
from preflight.adapters.config_object_rebind import binding_at, segments
from preflight.adapters.config_object_rewrites import option_rewrite, rewritten, runs_decided
from preflight.adapters.config_object_roots import Fn, _on_cuda, _written_whole
from preflight.adapters.config_object_super import inherited, subclasses, super_callee
from preflight.adapters.hydra_reads import (
    _dotted,
    _Reader,
    _Val,
)

from preflight.analysis.syntax import keyed_chain, own_nodes_in_order

_FSDP = {"FULL_SHARD": "fsdp_full", "SHARD_GRAD_OP": "fsdp_grad_op", "HYBRID_SHARD": "fsdp_hybrid",
         "_HYBRID_SHARD_ZERO2": "fsdp_hybrid", "NO_SHARD": "ddp"}


_MAX_STEPS = 5000  # functions read while following (a bound on pathological call graphs)


# a value read through a chain of the project's code: it fills a field no framework reading
# decides, and never outranks one (a launch-line value reached this way is still an inference)
_PRIORITY = -1


_NOT_TRAIN = ("val", "eval", "test", "valid")


_DUMPS = ("model_dump", "dict")  # pydantic v2 / v1: the model's fields as a dict


_CONTAINER_KW = ("resolve", "throw_on_missing", "enum_to_str")


def _omegaconf_copy(node: ast.Call) -> Optional[ast.AST]:
    """``OmegaConf.to_container(E[, resolve=..., throw_on_missing=...])`` / ``OmegaConf.to_object(E)`` /
    ``dict(E)`` -> ``E``: a plain dict of the same keys (bigohofone/assignment1-basics-solution
    ``cs336_basics/solutions/_train_model.py:48`` ``TransformerLM(**OmegaConf.to_container(config.model,
    resolve=True))``). An interpolation left unresolved would reach the class as a ``${...}`` string, which no
    size accepts; the job's values are the ones its run can use. Other keywords (``structured_config_mode``)
    are not followed."""
    f = node.func
    if isinstance(f, ast.Name) and f.id == "dict" and len(node.args) == 1 and not node.keywords \
            and not isinstance(node.args[0], ast.Starred):
        return node.args[0]
    if isinstance(f, ast.Attribute) and f.attr in ("to_container", "to_object") and len(node.args) == 1 \
            and not isinstance(node.args[0], ast.Starred) \
            and ((isinstance(f.value, ast.Name) and f.value.id == "OmegaConf")
                 or (isinstance(f.value, ast.Attribute) and f.value.attr == "OmegaConf"
                     and isinstance(f.value.value, ast.Name) and f.value.value.id == "omegaconf")) \
            and all(k.arg in _CONTAINER_KW and isinstance(k.value, ast.Constant) for k in node.keywords) \
            and (f.attr == "to_container" or not node.keywords):
        return node.args[0]
    return None


def dumped(node: ast.AST) -> ast.AST:
    """``E.model_dump()`` / ``E.dict()`` / ``asdict(E)`` / ``vars(E)`` -> ``E``: the same keys, spread by ``**``
    (DALLE2-pytorch train_decoder.py:581-591 ``create_dataloaders(..., **config.data.model_dump())``), and an
    OmegaConf section copied into a plain dict (:func:`_omegaconf_copy`)."""
    if isinstance(node, ast.Call):
        copied = _omegaconf_copy(node)
        if copied is not None:
            return copied
    if isinstance(node, ast.Call) and not node.keywords:
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr in _DUMPS and not node.args:
            return f.value
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) and \
            isinstance(f.value, ast.Name) and f.value.id == "dataclasses" else ""
        if name in ("asdict", "vars") and len(node.args) == 1:
            return node.args[0]
    return node


def lambda_calls(nodes: list[ast.AST]) -> list[ast.Call]:
    """The calls in the body of a lambda bound to a name the function then calls, with what they pass from the
    enclosing function only: a keyword naming a parameter of the lambda is left out, and the positions from the
    first such one (DALLE2-pytorch train_decoder.py:71-86 ``create_dataloader = lambda tar_urls, shuffle=False,
    ...: create_image_embedding_dataloader(tar_url=tar_urls, num_workers=num_workers, ...)`` then
    ``create_dataloader(train_urls, ...)``)."""
    called = {n.func.id for n in nodes if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    out: list[ast.Call] = []
    for node in nodes:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Lambda) and node.targets[0].id in called):
            continue
        lam = node.value
        own = {a.arg for a in [*lam.args.posonlyargs, *lam.args.args, *lam.args.kwonlyargs]}
        own |= {a.arg for a in (lam.args.vararg, lam.args.kwarg) if a is not None}

        def free(expr: ast.AST, own: set[str] = own) -> bool:
            return not any(isinstance(n, (ast.Name, ast.Lambda)) and (isinstance(n, ast.Lambda) or n.id in own)
                           for n in ast.walk(expr))

        body = lam.body
        if not isinstance(body, ast.Call) or not free(body.func):
            continue
        args: list[ast.expr] = []
        for a in body.args:
            if not free(a):
                break
            args.append(a)
        kept = [k for k in body.keywords if free(k.value)]
        out.append(ast.Call(func=body.func, args=args, keywords=kept, lineno=body.lineno, col_offset=body.col_offset))
    return out


def _got_as_subscript(node: ast.AST) -> ast.AST:
    """``cfg.get('meta')`` (no default, or a default) as ``cfg['meta']``: a section of a loaded dict taken
    with ``.get`` (facebookresearch/jepa @ 51c59d5 ``app/vjepa/train.py:73`` ``cfgs_meta = args.get('meta')``,
    facebookresearch/ijepa ``src/train.py`` ``args['meta']`` the same way); anything else as it is."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
            and 1 <= len(node.args) <= 2 and not node.keywords and isinstance(node.args[0], ast.Constant) \
            and isinstance(node.args[0].value, str):
        return ast.Subscript(value=node.func.value, slice=node.args[0], ctx=ast.Load())
    return node


class _ObjReader(_Reader):
    """hydra_reads' reader over names that hold (a sub-tree of) a config object."""

    def __init__(self, known: Any, add: Any, display: str, null: Any,
                 names: dict[str, tuple], selfs: dict[str, tuple]) -> None:
        super().__init__((), known, add, display, null)
        self.names = names
        self.selfs = selfs
        self.bare = False  # a bare name means its object (following calls), not a value read
        self.rebound: set[str] = set()  # names the function binds itself: not the caller's value
        self.combined: Tree = {}
        self.builder: Optional[Builder] = None  # project enums' members (``DistributedStrategy.ddp``)
        self.entry: Optional[bool] = None  # whether the function is in the launched script (``__main__``)
        self.segs: dict[str, Any] = {}  # names bound more than once, in order (config_object_rebind.py)

    def test(self, node: ast.AST, depth: int = 0) -> Optional[bool]:
        on_cuda = _on_cuda(node)  # ``torch.backends.mps.is_available()`` is false on the CUDA target
        if on_cuda is not None:
            return on_cuda
        if self.entry is not None and isinstance(node, ast.Compare) and len(node.ops) == 1 \
                and isinstance(node.ops[0], ast.Eq) and isinstance(node.left, ast.Name) and node.left.id == "__name__" \
                and isinstance(node.comparators[0], ast.Constant) and node.comparators[0].value == "__main__":
            return self.entry  # the launched script runs as __main__; a module it imports does not
        if isinstance(node, ast.BoolOp) and depth < 8:
            # ``if self.args.model == 'informer' or self.args.model == 'informerstack':`` (Informer2020
            # exp/exp_informer.py:30): one true operand decides an ``or``, one false an ``and``
            got = [self.test(v, depth + 1) for v in node.values]
            stop = isinstance(node.op, ast.Or)
            if stop in got:
                return stop
            return None if None in got else not stop
        return super().test(node, depth)

    def chain(self, node: ast.AST) -> Optional[tuple]:
        got = keyed_chain(node)
        if got is None:
            return None
        root, parts = got
        if root.id in self.segs:
            bound = binding_at(self.segs[root.id], root)
            return None if bound is None else bound + parts
        if root.id in self.names and root.id not in self.rebound and (
                parts or self.bare or not isinstance(lookup(self.combined, self.names[root.id]), dict)):
            return self.names[root.id] + parts
        if root.id == "self" and parts and parts[0] in self.selfs:
            return self.selfs[parts[0]] + parts[1:]
        return None

    def ev(self, node: Optional[ast.AST], depth: int = 0) -> Optional[_Val]:
        if self.builder is not None and isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id[:1].isupper():
            member = self.builder.member(node)
            if member is not None:
                return _Val(member, None)
        if isinstance(node, ast.Subscript):
            path = self.chain(node)
            if path is None:
                return None
            value = self.known(path)
            if value is None:
                return _Val(None, path) if self.null(path) else None
            self.read_paths.add(path)
            return _Val(value, path)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) and isinstance(node.left, ast.List) \
                and len(node.left.elts) == 1 and isinstance(node.right, ast.Constant) \
                and isinstance(node.right.value, int) and node.right.value > 0:
            return self.ev(node.left.elts[0], depth + 1)  # one value for each of n loaders (BLIP [bs]*3)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 3:
            from preflight.adapters.config_object_getter import getter_call

            read = getter_call(node, self.builder)  # ``get_spec_with_default(specs, "Key", 1)`` (DeepSDF)
            if read is not None:
                node = ast.Call(func=ast.Attribute(value=read.value, attr="get", ctx=ast.Load()),
                                args=[read.slice], keywords=[])
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
                and 1 <= len(node.args) <= 2 and not node.keywords and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            # ``config.get('batch_size', 10)`` of a loaded dict (StyleTTS2 train_finetune_accelerate.py:71 at
            # 5cedc71): the key's value when the object has it; a key it lacks is left unknown (the default
            # applies, but it is no fact of the config)
            path = self.chain(ast.Subscript(value=node.func.value, slice=node.args[0], ctx=ast.Load()))
            value = self.known(path) if path is not None else None
            if path is None or value is None or isinstance(value, dict):
                return None
            self.read_paths.add(path)
            return _Val(value, path)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("int", "float", "str") \
                and len(node.args) == 1 and not node.keywords:
            got = self.ev(node.args[0], depth + 1)
            if got is None or isinstance(got.value, (dict, Enum)):
                return None
            try:
                return _Val({"int": int, "float": float, "str": str}[node.func.id](got.value), got.path)
            except (TypeError, ValueError):
                return None
        return super().ev(node, depth)


class _Flow:
    """Which names mean which part of the objects, per function (and ``self.x`` per class)."""

    def __init__(self, modules: Modules, combined: Tree) -> None:
        self.m = modules
        self.builder = Builder(modules)
        self.combined = combined
        self.names: dict[int, dict[str, tuple]] = {}
        self.selfs: dict[int, dict[str, tuple]] = {}  # id(ClassDef) -> attr -> path
        self.owner: dict[int, ast.ClassDef] = {}
        # a key the code sets elsewhere: the value it was built with, and each (function, statement) setting it
        self.dropped: dict[tuple, tuple[Leaf, list[tuple[Fn, ast.AST]]]] = {}
        self.fns: list[tuple[str, Fn]] = []
        for shown, _, tree in modules.trees:
            self.fns.append((shown, tree))
            for node in tree.body:  # module functions and class methods (not nested ones)
                if isinstance(node, ast.ClassDef):
                    for item in node.body:
                        if isinstance(item, ast.FunctionDef):
                            self.owner[id(item)] = node
                            self.fns.append((shown, item))
                elif isinstance(node, ast.FunctionDef):
                    self.fns.append((shown, node))
        self.by_id: dict[int, Fn] = {id(fn): fn for _, fn in self.fns}
        self.shown_of: dict[int, str] = {id(fn): shown for shown, fn in self.fns}
        self.methods: dict[int, list[Fn]] = {}
        for key, klass in self.owner.items():
            self.methods.setdefault(id(klass), []).append(self.by_id[key])
        self._own: dict[int, list[ast.AST]] = {}  # walked once, when first needed
        self._stores: dict[int, Counter] = {}
        self._rebound: dict[int, set[str]] = {}
        self.segs: dict[int, dict[str, Any]] = {}  # names bound more than once in order (config_object_rebind.py)
        # id(function) -> parameter -> the project functions handed to it by name
        self.fn_args: dict[int, dict[str, list[ast.FunctionDef]]] = {}
        self.bases: dict[int, list[ast.ClassDef]] = {}  # id(ClassDef) -> its project bases (config_object_super)

    def own_of(self, fn: Fn) -> list[ast.AST]:
        if id(fn) not in self._own:
            self._own[id(fn)] = own_nodes_in_order(fn)
        return self._own[id(fn)]

    def stores_of(self, fn: Fn) -> Counter:
        if id(fn) not in self._stores:
            self._stores[id(fn)] = Counter(n.id for n in self.own_of(fn)
                                           if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
        return self._stores[id(fn)]

    def rebound_of(self, fn: Fn) -> set[str]:
        if id(fn) not in self._rebound:
            # ``x = bool(x)`` keeps the caller's x (config_object_casts.py)
            self._rebound[id(fn)] = set(self.stores_of(fn)) - self_casts(self.own_of(fn))
        return self._rebound[id(fn)]

    def reader(self, fn: Fn, known: Any, add: Any, shown: str, null: Any) -> _ObjReader:
        klass = self.owner.get(id(fn))
        selfs = inherited(klass, self.selfs, self.m, self.bases) if klass is not None else {}  # config_object_super
        reader = _ObjReader(known, add, shown, null, self.names.setdefault(id(fn), {}), selfs)
        reader.segs = self.segs.get(id(fn), {})
        reader.rebound = self.rebound_of(fn) if (reader.names or selfs) else set()  # walk only what is read
        reader.combined = self.combined
        reader.builder = self.builder
        return reader

    def is_tree(self, path: Optional[tuple]) -> bool:
        return path is not None and isinstance(lookup(self.combined, path), dict)

    def is_known(self, path: Optional[tuple]) -> bool:
        return path is not None and lookup(self.combined, path) is not None

    def propagate(self) -> None:
        """Functions are read when something they hold changes (a worklist from the roots), never
        the whole project every time."""
        queue = deque(fn for _, fn in self.fns if self.names.get(id(fn)))
        queued = {id(fn) for fn in queue}
        steps = 0
        while queue and steps < _MAX_STEPS:
            fn = queue.popleft()
            queued.discard(id(fn))
            steps += 1
            reader = self.reader(fn, None, None, "", None)
            reader.bare = True
            touched: list[Fn] = []
            for node in self.own_of(fn):
                if isinstance(node, ast.Assign) and len(node.targets) == 1:
                    touched += self._alias(fn, node.targets[0], node.value, reader)
                elif isinstance(node, ast.Call):
                    touched += self._into(node, reader, fn)
            for inner in lambda_calls(self.own_of(fn)):  # ``make = lambda urls: build(n=n, ...)`` then ``make(x)``
                touched += self._into(inner, reader, fn)
            for other in touched:
                if id(other) not in queued:
                    queue.append(other)
                    queued.add(id(other))

    def invalidate(self, applied: set[int]) -> None:
        """A key the code sets anywhere else (``config["num_epochs"] = 2`` under a test of the
        environment, ``args.world_size = ...``) is not known: its value is dropped."""
        for shown, fn in self.fns:
            reader = self.reader(fn, None, None, shown, None)
            if not reader.names and not reader.selfs:
                continue
            for node in self.own_of(fn):
                if id(node) in applied:
                    option_rewrite(self, fn, node)  # an option rewritten where it is a parameter
                    continue
                whole = _written_whole(node)  # ``config[k] = v`` with k computed, ``config.update(...)``
                if whole is not None:
                    reader.bare = True
                    path = reader.chain(whole)
                    reader.bare = False
                    if self.is_tree(path) and path is not None and not self._off_target(fn, node):
                        assign(self.combined, path, None)
                    continue
                if not isinstance(node, (ast.Assign, ast.AugAssign)):
                    continue
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                reader.bare = True
                value = reader.chain(node.value) if isinstance(node, ast.Assign) else None
                reader.bare = False  # a bare name as a target rebinds the name, not a key
                if self.is_known(value):
                    continue  # an alias (``self.config = config``, ``self.lr = config.lr``), not a new value
                if isinstance(node, ast.Assign) and _written_back(fn, node, self.own_of(fn)):
                    continue
                for target in targets:
                    for t in target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]:
                        if isinstance(t, ast.Name) or (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                                                       and t.value.id == "self"):
                            continue  # rebinding a name (or ``self.size = (size, size)``) changes no key
                        path = reader.chain(t)
                        if path is not None and len(path) >= 2 and not self._off_target(fn, node):
                            before = lookup(self.combined, path)
                            if path in self.dropped:
                                self.dropped[path][1].append((fn, node))
                            elif isinstance(before, Leaf):  # what the construction said (trlx_config.py)
                                self.dropped[path] = (before, [(fn, node)])
                            leaf = self._returned(shown, node, target, t)
                            judge = self._judge(fn) if leaf is None and isinstance(node, ast.Assign) else None
                            if judge is not None and runs_decided(node, fn, judge, self.own_of(fn)):
                                assert isinstance(node, ast.Assign)  # config_object_rewrites.py
                                got = rewritten(node.value, target, t, judge, self.own_of(fn))
                                leaf = None if got is None else Leaf(got, shown, node.lineno, "assigned")
                            owner = lookup(self.combined, path[:-1])
                            if isinstance(owner, Namespace) and leaf is not None:
                                owner.memo[path[-1]] = leaf  # an option the code rewrites from known values
                            else:
                                assign(self.combined, path, leaf)

    def _returned(self, shown: str, node: ast.AST, target: ast.AST, element: ast.AST) -> Optional[Leaf]:
        """A key written from the tuple a project function returns, the literal it returns there on the
        path the objects' values decide (microsoft/Swin-Transformer @ f82860b ``data/build.py:25,129-145``:
        ``dataset_train, config.MODEL.NUM_CLASSES = build_dataset(is_train=True, config=config)``, whose
        ``if config.DATA.DATASET == 'imagenet': ... nb_classes = 1000`` chain ends ``return dataset,
        nb_classes``: model_by_name.returned_literal); None (the key unknown) otherwise."""
        from preflight.adapters.model_by_name import _compare, returned_literal
        from preflight.adapters.module_params_nested import UNKNOWN

        if not (isinstance(node, ast.Assign) and isinstance(target, ast.Tuple) and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name)):
            return None
        found = self.m.function_in(node.value.func.id, shown)
        if found is None or found[2] is not None or id(found[1]) not in self.by_id:
            return None
        callee_shown, callee, _ = found
        reader = self.reader(callee, None, None, callee_shown, None)

        def test(cond: ast.AST) -> Optional[bool]:
            if not (isinstance(cond, ast.Compare) and len(cond.ops) == 1):
                return None
            path = reader.chain(cond.left)
            got = lookup(self.combined, path) if path is not None else None
            return _compare(got.value, cond) if isinstance(got, Leaf) else None

        position = next(i for i, e in enumerate(target.elts) if e is element)
        value = returned_literal(callee, position, len(target.elts), test)
        if value is UNKNOWN:
            return None
        return Leaf(value, callee_shown, callee.lineno, f"returned by {callee.name}()")

    def _off_target(self, fn: Fn, node: ast.AST) -> bool:
        """``node`` is under an ``if`` the CUDA target decides not to run (OLMo scripts/train.py:427-436:
        ``if torch.backends.mps.is_available(): cfg.distributed_strategy = "single"``)."""
        parents = {id(c): n for n in [fn, *self.own_of(fn)] for c in ast.iter_child_nodes(n)}
        child, parent = node, parents.get(id(node))
        while parent is not None:
            if isinstance(parent, ast.If) and child is not parent.test:
                runs = _on_cuda(parent.test)
                if runs is not None and runs != any(child is s for s in parent.body):
                    return True
            child, parent = parent, parents.get(id(parent))
        return False

    def _alias(self, fn: Fn, target: ast.AST, value: ast.AST, reader: _ObjReader) -> list[Fn]:
        """The functions to read again: this one (a new local alias), a class's methods (``self.x``)."""
        pairs: list[tuple[ast.AST, ast.AST]] = [(target, value)]
        if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts):
            pairs = list(zip(target.elts, value.elts))
        changed: list[Fn] = []
        for t, v in pairs:
            path = reader.chain(_got_as_subscript(v))
            if not self.is_known(path):
                continue
            assert path is not None
            if isinstance(t, ast.Name) and not self.is_tree(path):
                continue  # a local bound to a value: read through the function's assignments
            if isinstance(t, ast.Name) and self.names.setdefault(id(fn), {}).get(t.id) != path:
                if self.stores_of(fn)[t.id] != 1:
                    # bound more than once: followed only in straight-line code (config_object_rebind.py)
                    got = segments(fn, self.own_of(fn), t.id, lambda v: (lambda p: p if self.is_tree(p) else None)(
                        reader.chain(v)))
                    if got is not None and self.segs.setdefault(id(fn), {}).get(t.id) != got:
                        self.segs[id(fn)][t.id] = got
                        changed.append(fn)
                    continue
                self.names[id(fn)][t.id] = path
                self.rebound_of(fn).discard(t.id)
                changed.append(fn)
            elif isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                klass = self.owner.get(id(fn))
                if klass is not None and self.selfs.setdefault(id(klass), {}).get(t.attr) != path:
                    self.selfs[id(klass)][t.attr] = path
                    changed.extend(self.methods.get(id(klass), []))
                    classes = list({id(c): c for c in self.owner.values()}.values())
                    for sub in subclasses(klass, classes, self.m, self.bases):  # they inherit ``self.attr``
                        changed.extend(self.methods.get(id(sub), []))
        return changed

    def _into(self, call: ast.Call, reader: _ObjReader, fn_of: Optional[Fn] = None) -> list[Fn]:
        """The callees whose received objects changed (one, or each function handed to a parameter)."""
        from preflight.adapters.config_object_d2trainer import trainer_builders
        from preflight.adapters.config_object_spawn import spawned_call

        call = spawned_call(call) or call  # ``mp.spawn(run, args=(n, hps))``: ``run(rank, n, hps)``
        given: list[tuple[object, tuple]] = []
        for i, arg in enumerate(call.args):
            if isinstance(arg, ast.Starred):
                break  # the positions after ``*args`` are not known
            path = reader.chain(arg)
            if self.is_known(path):
                assert path is not None
                given.append((i, path))
        spread: Optional[tuple] = None  # ``f(**section)``: the section's keys are the keywords
        for kw in call.keywords:
            path = reader.chain(dumped(kw.value) if kw.arg is None else kw.value)
            if kw.arg is None:
                # XLabs-AI/x-flux @ 4749542 train_flux_lora_deepspeed.py:161 ``loader(**args.data_config)`` into
                # image_datasets/dataset.py:90-92 ``def loader(train_batch_size, num_workers, **args)``
                if self.is_tree(path) and spread is None:
                    assert path is not None
                    spread = path
                    tree = lookup(self.combined, path)
                    given.extend((key, (*path, key)) for key in tree if isinstance(key, str))
                continue
            if self.is_known(path):
                assert path is not None
                given.append((kw.arg, path))
        if not given:
            return []
        builders = trainer_builders(call, self.m, self.shown_of.get(id(fn_of)) if fn_of is not None else None)
        if builders and given[0][0] == 0:  # ``Trainer(cfg)`` of detectron2: its build_* methods get ``cfg``
            one = ast.Call(func=call.func, args=call.args[:1], keywords=[])
            return [fn for fn in builders if id(fn) in self.by_id and self._give(one, fn, True, given[:1], None)]
        handed = self.fn_args.get(id(fn_of), {}).get(call.func.id) if isinstance(call.func, ast.Name) else None
        if handed:
            return [fn for fn in handed if self._give(call, fn, False, given, spread)]
        callee = super_callee(call, self.owner.get(id(fn_of)) if fn_of is not None else None, self.m, self.bases) \
            or self._callee(call, self.shown_of.get(id(fn_of)) if fn_of is not None else None)
        if callee is None:
            from preflight.adapters.callee_alias import aliased_call

            # ``f = a if c else b`` then ``f(...)``
            judge = self._judge(fn_of) if fn_of is not None else None
            if judge is not None:  # the launched script runs as __main__ (callee_alias's arms under it)
                judge.entry = self.shown_of.get(id(fn_of)) == self.m.trees[0][0]
            alias = aliased_call(fn_of, call, judge.test) if judge is not None else None
            if alias is None and judge is not None:
                from preflight.adapters.callee_dispatch import dispatched_call

                def function(name: str) -> Any:
                    got = self.m.function(name)
                    return got[1] if got is not None and got[2] is None else None

                alias = dispatched_call(call, function, judge.test)  # ``get_dataset_fn(kind)(args, ...)``
            callee = None if alias is None else self._callee(alias, self.shown_of.get(id(fn_of)))
        if callee is None:
            return []
        return [callee[0]] if self._give(call, callee[0], callee[1], given, spread) else []

    def _give(self, call: ast.Call, fn: ast.FunctionDef, skip_self: bool, given: list[tuple[object, tuple]],
              spread: Optional[tuple]) -> bool:
        """Bind the callee's parameters to what the call gives; True when that changed. A call passing a keyword
        the function does not take (and no ``**kwargs``) is not a call of it: nothing is bound (tests/
        test_jobs43_project_launch.py, a project ``launch`` of another signature)."""
        params = [a.arg for a in fn.args.args][1 if skip_self else 0:]
        takes = set(params) | {a.arg for a in fn.args.kwonlyargs}
        if fn.args.kwarg is None and any(k.arg is not None and k.arg not in takes for k in call.keywords):
            return False
        self._functions_given(call, fn, params)
        names = self.names.setdefault(id(fn), {})
        changed = False
        rest = fn.args.kwarg.arg if fn.args.kwarg is not None else None
        if spread is not None and rest is not None and rest not in self.rebound_of(fn) and names.get(rest) != spread:
            names[rest] = spread  # ``**args`` holds the keys the parameters did not take (read by key)
            changed = True
        for where, path in given:
            name = params[where] if isinstance(where, int) and where < len(params) else \
                where if isinstance(where, str) and where in params + [a.arg for a in fn.args.kwonlyargs] else None
            if name is not None and name in self.rebound_of(fn) and self.is_tree(path) and not names.get(name) \
                    and rebound_only_when_dead(fn, self.own_of(fn), name, path, self.combined, self.builder):
                self.rebound_of(fn).discard(name)  # config_object_dead_rebind.py
            if name is not None and name not in self.rebound_of(fn) and names.get(name) != path:
                names[name] = path
                changed = True
        return changed

    def _functions_given(self, call: ast.Call, fn: ast.FunctionDef, params: list[str]) -> None:
        """A project function handed to ``fn`` by name is that parameter there (SlowFast tools/run_net.py:26
        ``launch_job(cfg=cfg, ..., func=train)``, then slowfast/utils/misc.py:418 ``func(cfg=cfg)``)."""
        pairs = [*zip(params, call.args), *((k.arg, k.value) for k in call.keywords if k.arg in params)]
        for param, arg in pairs:
            got = self.m.function(arg.id) if isinstance(arg, ast.Name) and not isinstance(arg, ast.Starred) else None
            held = self.fn_args.setdefault(id(fn), {}).setdefault(param, []) if got is not None else []
            if got is not None and got[2] is None and id(got[1]) in self.by_id and not any(h is got[1] for h in held):
                held.append(got[1])

    def _judge(self, fn: Fn) -> _ObjReader:
        """A reader of ``fn`` that evaluates tests on the config's values (the propagation's reader reads none)."""
        def known(path: tuple) -> Any:
            got = lookup(self.combined, path)
            return got.value if isinstance(got, Leaf) else got

        def null(path: tuple) -> bool:
            got = lookup(self.combined, path)
            return isinstance(got, Leaf) and got.value is None

        return self.reader(fn, known, lambda *_a: None, self.shown_of.get(id(fn), ""), null)

    def _callee(self, call: ast.Call, caller: Optional[str] = None) -> Optional[tuple[ast.FunctionDef, bool]]:
        f = call.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        if not name:
            return None
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id[:1].isupper():
            owner = self.m.klass(f.value.id)  # ``Base.__init__(self, ...)``, ``Cls.build(...)``
            if owner is not None:
                meth = next((s for s in owner[1].body if isinstance(s, ast.FunctionDef) and s.name == f.attr), None)
                if meth is None:
                    return None
                explicit_self = bool(call.args) and isinstance(call.args[0], ast.Name) and call.args[0].id == "self"
                static = any(_dotted(d) == "staticmethod" for d in meth.decorator_list)
                return meth, not explicit_self and not static
        got = self.m.klass(name) if name[:1].isupper() else None
        if got is not None:
            init = next((s for s in got[1].body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
            return (init, True) if init is not None else None
        fn = self.m.function(name)
        if fn is None and isinstance(f, ast.Name) and caller is not None:
            fn = self.m.function_in(name, caller)  # two modules define it: the one the caller imports
        if fn is None:
            return None
        return fn[1], fn[2] is not None
