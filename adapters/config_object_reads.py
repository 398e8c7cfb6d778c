"""What the code does with a project's configuration object (:mod:`preflight.adapters.config_object`),
followed across calls inside the project: an object (or a sub-tree of it) passed to a local
function or class becomes that parameter there (``Trainer(config.trainer, ...)`` then
``self.config = config`` and, in another method, ``model, config = self.model, self.config``;
``training_function(config, args)`` then ``config["batch_size"]``). Where a value reaches a
place that decides a plan field the fact is written, medium, with the line that set the value
(class default, constructor keyword, assignment, launch line):

* the plan readings of :mod:`preflight.adapters.hydra_reads` (``from_pretrained(E)``, a data
  loader's ``batch_size=E``, ``getattr(torch.optim, E)``, guards around checkpointing or LoRA,
  sequence and accumulation keys the code reads, ``B / (P * A)`` as the global batch);
* a data loader's ``num_workers=E``;
* ``FullyShardedDataParallel(..., sharding_strategy=E)`` with ``E`` an enum member default
  (``ShardingStrategy.FULL_SHARD``), under guards the values decide.

A value the code reassigns in a way not followed (two different assignments of a local) is not
used; a call whose callee is not one project function or class is not followed.
"""

from __future__ import annotations

import ast
from collections import Counter, deque
from pathlib import Path
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
from preflight.adapters.config_object_argv import parser_trees, unset_or_list
from preflight.adapters.config_object_arms import ddp_arm, optimizer_arm, pads_to_model_max_length
from preflight.adapters.config_object_autocast import autocast_switch
from preflight.adapters.config_object_dead_rebind import rebound_only_when_dead
from preflight.adapters.config_object_hydra import hydra_roots
from preflight.adapters.config_object_loader_arms import agreeing_loaders
from preflight.adapters.config_object_model import model_count, model_name_key
from preflight.adapters.config_object_rebind import binding_at, segments
from preflight.adapters.config_object_roots import Fn, _on_cuda, _own, _roots, _written_whole
from preflight.adapters.config_object_spawn import spawn_counts
from preflight.adapters.config_object_whole import whole_count
from preflight.adapters.hydra_reads import (
    _call,
    _division,
    _dotted,
    _emit,
    _Found,
    _guard,
    _Reader,
    _Val,
)
from preflight.adapters.model_spec_table import spec_repo
from preflight.adapters.peft_helper_guard import HelperGuards
from preflight.adapters.trlx_config import trlx_train

from preflight.adapters_api import Project, ScratchAdapter
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_FSDP = {"FULL_SHARD": "fsdp_full", "SHARD_GRAD_OP": "fsdp_grad_op", "HYBRID_SHARD": "fsdp_hybrid",
         "_HYBRID_SHARD_ZERO2": "fsdp_hybrid", "NO_SHARD": "ddp"}
_MAX_STEPS = 5000  # functions read while following (a bound on pathological call graphs)
# a value read through a chain of the project's code: it fills a field no framework reading
# decides, and never outranks one (a launch-line value reached this way is still an inference)
_PRIORITY = -1
_NOT_TRAIN = ("val", "eval", "test", "valid")


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
        return super().test(node, depth)

    def chain(self, node: ast.AST) -> Optional[tuple]:
        parts: list[str] = []
        while isinstance(node, (ast.Attribute, ast.Subscript)):
            if isinstance(node, ast.Attribute):
                parts.append(node.attr)
            elif isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
                parts.append(node.slice.value)
            else:
                return None
            node = node.value
        parts.reverse()
        if isinstance(node, ast.Name):
            if node.id in self.segs:
                bound = binding_at(self.segs[node.id], node)
                return None if bound is None else bound + tuple(parts)
            if node.id in self.names and node.id not in self.rebound and (
                    parts or self.bare or not isinstance(lookup(self.combined, self.names[node.id]), dict)):
                return self.names[node.id] + tuple(parts)
            if node.id == "self" and parts and parts[0] in self.selfs:
                return self.selfs[parts[0]] + tuple(parts[1:])
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


def _only_lora_off(found: Any, modules: Modules) -> bool:
    """Every ``LoraConfig``/``get_peft_model`` call of the modules read is in the body of an ``if`` the
    configuration decides false (nomic-ai/gpt4all ``gpt4all-training/train.py:64-69``: ``if config["lora"]:
    peft_config = LoraConfig(...)``, ``configs/train/finetune_gptj.yaml:24`` ``lora: false``), or past a guard
    clause it decides taken (:mod:`preflight.adapters.guard_clause`): no LoRA."""
    from preflight.adapters.guard_clause import dead_after, ends_in_exit
    from preflight.adapters.hydra_reads import _PEFT_CALLS, _call_name, _calls_in

    if not found.peft or any(p[0] for p in found.peft):
        return False
    off_lines = {p[2] for p in found.peft}
    inside: set[int] = set()
    calls: list[ast.Call] = []
    # ``self.get_peft_model(...)``, a method of the project's own (PandaLM core/nets.py:26): its body is read
    own = {n.name for _, _, tree in modules.trees for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    for _, _, tree in modules.trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _call_name(node) in _PEFT_CALLS and not (
                    isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == "self" and node.func.attr in own):
                calls.append(node)
            elif isinstance(node, ast.If) and node.lineno in off_lines:
                inside.update(id(n) for stmt in node.body for n in ast.walk(stmt))
                if ends_in_exit(node.body) and _calls_in(node.body, _PEFT_CALLS) is None:
                    inside.update(id(n) for n in dead_after(tree, node))  # a guard clause taken
    return bool(calls) and all(id(c) in inside for c in calls)


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

    def own_of(self, fn: Fn) -> list[ast.AST]:
        if id(fn) not in self._own:
            self._own[id(fn)] = _own(fn)
        return self._own[id(fn)]

    def stores_of(self, fn: Fn) -> Counter:
        if id(fn) not in self._stores:
            self._stores[id(fn)] = Counter(n.id for n in self.own_of(fn)
                                           if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
        return self._stores[id(fn)]

    def rebound_of(self, fn: Fn) -> set[str]:
        if id(fn) not in self._rebound:
            self._rebound[id(fn)] = set(self.stores_of(fn))
        return self._rebound[id(fn)]

    def reader(self, fn: Fn, known: Any, add: Any, shown: str, null: Any) -> _ObjReader:
        klass = self.owner.get(id(fn))
        selfs = self.selfs.get(id(klass), {}) if klass is not None else {}
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
                            assign(self.combined, path, self._returned(shown, node, target, t))

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
            path = reader.chain(v)
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
        return changed

    def _into(self, call: ast.Call, reader: _ObjReader, fn_of: Optional[Fn] = None) -> list[Fn]:
        """The callees whose received objects changed (one, or each function handed to a parameter)."""
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
            path = reader.chain(kw.value)
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
        handed = self.fn_args.get(id(fn_of), {}).get(call.func.id) if isinstance(call.func, ast.Name) else None
        if handed:
            return [fn for fn in handed if self._give(call, fn, False, given, spread)]
        callee = self._callee(call, self.shown_of.get(id(fn_of)) if fn_of is not None else None)
        if callee is None:
            from preflight.adapters.callee_alias import aliased_call

            # ``f = a if c else b`` then ``f(...)``
            alias = aliased_call(fn_of, call, self._judge(fn_of).test) if fn_of is not None else None
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


def _written_back(fn: Fn, node: ast.Assign, nodes: list[ast.AST]) -> bool:
    """``args.k = obj.k`` where ``obj = C(..., k=args.k, ...)`` in the same function: the object's value
    of what it was given, written back (XLabs-AI/x-flux @ 4749542 train_flux_lora_deepspeed.py:80-82,185:
    ``accelerator = Accelerator(mixed_precision=args.mixed_precision)`` then ``args.mixed_precision =
    accelerator.mixed_precision``, as the diffusers training scripts do): not a new value."""
    value = node.value
    if len(node.targets) != 1 or not isinstance(value, ast.Attribute) or not isinstance(value.value, ast.Name):
        return False
    target = ast.dump(node.targets[0]).replace("ctx=Store()", "ctx=Load()")
    for other in nodes:
        if isinstance(other, ast.Assign) and len(other.targets) == 1 and isinstance(other.targets[0], ast.Name) \
                and other.targets[0].id == value.value.id and isinstance(other.value, ast.Call):
            given = next((k.value for k in other.value.keywords if k.arg == value.attr), None)
            if given is not None and ast.dump(given) == target:
                return True
    return False


def _skipped(node: ast.AST, parents: dict[int, ast.AST], reader: _ObjReader) -> bool:
    """An ``if`` around ``node`` is decided by the objects' values not to run it (Latte's
    ``if 'LatteT2V' in args.model: return LatteT2V.from_pretrained(...)`` with another model)."""
    child = node
    parent = parents.get(id(node))
    while parent is not None:
        if isinstance(parent, ast.If) and child is not parent.test:
            decided = reader.test(parent.test)
            if decided is not None and decided != any(child is s for s in parent.body):
                return True
        child, parent = parent, parents.get(id(parent))
    return False


def _generation(call: ast.Call) -> bool:
    """``model.generate(..., max_length=config['max_length'])`` (BLIP's caption length at evaluation)."""
    f = call.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    return name in ("generate", "sample", "beam_search", "greedy_search")


def _runs(node: ast.AST, parents: dict[int, ast.AST], reader: _ObjReader) -> bool:
    """Every ``if`` around ``node`` in its function is decided by the objects' values to run it."""
    child = node
    parent = parents.get(id(node))
    while parent is not None:
        if isinstance(parent, ast.If) and child is not parent.test:
            decided = reader.test(parent.test)
            if decided is None or decided != any(child is s for s in parent.body):
                return False
        child, parent = parent, parents.get(id(parent))
    return True


def _plain_python(project: Project) -> bool:
    """The launch line is ``python script.py ...`` (one process, no launcher or wrapper)."""
    from preflight.adapters.launchers import parse_launch

    info = parse_launch(project.argv) if project.argv else None
    return info is not None and info.launcher == "python" and info.wrapper is None


def _options(project: Project, script: Any) -> Any:
    """``name`` -> the job's option: the script's own argparse declaration read as argparse reads
    the launch line (unique prefixes, ``--x=v``, ``set_defaults``), else any other declaration
    the job makes (dataclasses, fire, click, a parser in another module)."""
    from preflight.adapters.cliargs import option_resolver

    index = project.index(script)
    other = option_resolver(project, script)

    def resolve(name: str) -> Any:
        if name in index.arguments:
            return index.argument(name)  # None when ambiguous: unknown, not the other reading
        return other(name)

    return resolve


@register_adapter
class ConfigObjectAdapter(ScratchAdapter):
    name = "value_flow"  # runs after the framework readers (adapters run by name): its facts are fallbacks
    frameworks = ()

    def wants(self, project: Project) -> bool:
        return any(s.tree is not None and s.source.path is not None for s in project.scripts)

    def work(self, project: Project, plan: TrainingPlan) -> None:
        for script in self.scripts(project):
            path = Path(str(script.source.path))
            modules = Modules(path, script.tree, script.source.display,
                              Path(str(project.root)) if project.root else None)
            builder = Builder(modules, project.script_args(script))
            applied: set[int] = set()
            namespace = Namespace(_options(project, script), script.source.display)
            namespace.unset = unset_or_list(project, script, parser_trees(modules))
            combined, scopes = _roots(script.tree, script.source.display, builder, modules,
                                      project.script_args(script), namespace, applied, project)
            hydra_roots(project, script, combined, scopes)  # the composed config of @hydra.main
            if not combined:
                continue
            self._read(project, plan, modules, combined, scopes, applied)

    def _read(self, project: Project, plan: TrainingPlan, modules: Modules, combined: Tree,
              scopes: dict[int, dict[str, tuple]], applied: set[int]) -> None:
        flow = _Flow(modules, combined)
        for key, names in scopes.items():
            flow.names[key] = dict(names)
            if key in flow.by_id:
                flow.rebound_of(flow.by_id[key]).difference_update(names)  # the roots are bound there
        module_level = scopes.get(id(modules.trees[0][2]), {})
        for shown, fn in flow.fns:  # module-level objects of the entry are seen by its functions
            if module_level and shown == modules.trees[0][0] and isinstance(fn, ast.FunctionDef):
                params = {a.arg for a in fn.args.args + fn.args.kwonlyargs}
                for var, path in module_level.items():
                    if var not in params:
                        flow.names.setdefault(id(fn), {}).setdefault(var, path)
        flow.propagate()
        flow.invalidate(applied)

        def known(path: tuple) -> Any:
            got = lookup(combined, path)
            return got.value if isinstance(got, Leaf) else got

        def null(path: tuple) -> bool:
            got = lookup(combined, path)
            return isinstance(got, Leaf) and got.value is None

        sole_off = [False]  # every LoRA construct read is under a guard decided false (set below)

        def add(field: str, value: Any, path: tuple, detail: str, conf: str) -> None:
            if field == "peft.method" and value == "none" and not sole_off[0]:
                return  # one guard decided false around a LoRA construct: LoRA may be built elsewhere
            if field == "precision.mode" and detail.startswith("the model is loaded in"):
                return  # a 16-bit load says nothing of autocast when a Trainer or accelerate owns the loop
            got = lookup(combined, path)
            if not isinstance(got, Leaf) or isinstance(value, Enum):
                return
            key = ".".join(path)
            if got.how == "launch line" and field == "model.ref" and isinstance(value, str) \
                    and value.startswith((".", "~", "/")):
                return  # a local folder on the launch line: the cliargs adapter notes it (no architecture)
            if got.how == "launch line":
                src = Source("cli", None, None, got.key or f"--{'.'.join(path[1:])}", f"{detail} (the launch line)")
            else:
                src = Source("code", got.file or None, got.line, key, f"{detail} ({got.how})")
            # the guard around the very torch.compile call (or every LoRA construct) a framework reading could
            # not decide
            self.add_checked(plan, field, value, src, conf,
                             1 if (field == "compile.enabled" and "guards torch.compile" in detail)
                             or (field == "peft.method" and value == "none") else _PRIORITY)

        found = _Found()
        helper_guards = HelperGuards(modules)  # peft_helper_guard.py
        models: list[tuple[tuple[int, str, str], Source]] = []
        specs: list[tuple[str, tuple, str]] = []
        model_names: list[tuple[str, tuple, str]] = []
        trees = {shown: tree for shown, _, tree in modules.trees}
        plain = _plain_python(project)
        from preflight.adapters.hydra_reads import rebound_parameters

        rebinds: dict[str, set[str]] = {}  # a switch handed to a callable that reassigns it is not read
        for tree in trees.values():
            for callee, params in rebound_parameters(tree).items():
                rebinds.setdefault(callee, set()).update(params)
        for shown, fn in flow.fns:
            reader = flow.reader(fn, known, add, shown, null)
            if not reader.names and not reader.selfs:
                continue
            reader.param_rebinds = rebinds
            reader.entry = shown == modules.trees[0][0]
            nodes = flow.own_of(fn)
            for node in nodes:
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    reader.assigns.setdefault(node.targets[0].id, []).append(node.value)
            parents = {id(child): node for node in [fn, *nodes] for child in ast.iter_child_nodes(node)}
            generated = {id(sub) for node in nodes if isinstance(node, ast.Call) and _generation(node)
                         for arg in [*node.args, *(k.value for k in node.keywords)] for sub in ast.walk(arg)}
            for got in agreeing_loaders(nodes, reader, shown, lambda n, p=parents, r=reader: _skipped(n, p, r),
                                        lambda n, p=parents, r=reader: _runs(n, p, r)):  # config_object_loader_arms
                self._leaf_fact(plan, combined, *got)
            for node in nodes:
                if isinstance(node, ast.Call):
                    if not _skipped(node, parents, reader):
                        _call(node, reader, found)
                    if _runs(node, parents, reader):
                        self._extra(node, reader, plan, combined, shown, modules)
                        counted = model_count(node, fn, nodes, parents, reader, modules,
                                              lambda n, p=parents, r=reader: _runs(n, p, r)) \
                            or whole_count(node, fn, modules, reader, nodes, parents,
                                           lambda n, p=parents, r=reader: _runs(n, p, r), flow.names)
                        if counted is not None:
                            models.append((counted, Source("code", shown, node.lineno, None, counted[2])))
                            named = model_name_key(node, reader)
                            if named is not None:
                                model_names.append(named)
                        for arm in (ddp_arm, optimizer_arm):  # config_object_arms.py
                            got = arm(node, parents, reader, shown)
                            if got is not None:
                                self._leaf_fact(plan, combined, *got)
                        for got in spawn_counts(node, reader, shown, trees.get(shown), plain):  # config_object_spawn
                            self._leaf_fact(plan, combined, *got)
                        switch = autocast_switch(node, reader, shown)  # config_object_autocast.py
                        if switch is not None:
                            self._leaf_fact(plan, combined, *switch)
                        for field, value, leaf, key, detail, conf in trlx_train(node, nodes, reader, shown,
                                                                                flow.dropped, project):
                            if leaf.how == "launch line":  # trlx_config.py
                                src = Source("cli", None, None, leaf.key or key, f"{detail} (the launch line)")
                            else:
                                src = Source("code", leaf.file or None, leaf.line, key, f"{detail} ({leaf.how})")
                            self.add_checked(plan, field, value, src, conf, _PRIORITY)
                elif isinstance(node, ast.If):
                    _guard(node, reader, found)
                    helper_guards.visit(node, reader)
                elif isinstance(node, ast.Assign) and isinstance(node.value, ast.BinOp):
                    _division(node.value, reader, found)
                elif isinstance(node, (ast.Attribute, ast.Subscript)) and not isinstance(node.ctx, ast.Store) \
                        and id(node) not in generated:  # a generation length is no training length
                    spec = spec_repo(node, fn, reader, trees.get(shown))  # model_spec_table.py
                    if spec is not None:
                        specs.append(spec)
                    reader.ev(node)
            found.read |= reader.read_paths
        if len({m[0][0] for m in models}) == 1:  # one model built from the configuration (config_object_model.py)
            (total, cls, _), src = models[0]
            self.add_checked(plan, "model.num_parameters", total, src, "medium", _PRIORITY)
            self.add_checked(plan, "model.class_name", cls, src, "medium", _PRIORITY)
            if len({n[0] for n in model_names}) == 1:  # the model section's NAME (config_object_model.py)
                add("model.ref", *model_names[0], "medium")
        if len({spec[0] for spec in specs}) == 1:  # a key selecting a model spec's repo_id (model_spec_table.py)
            add("model.ref", *specs[0], "medium")
        found.padded = pads_to_model_max_length(modules)
        sole_off[0] = _only_lora_off(found, modules)
        _emit(found, known, add, modules.trees[0][0])
        dead = helper_guards.dead() if not found.peft else None
        if dead is not None:
            self._no_lora(plan, combined, *dead)

    def _no_lora(self, plan: TrainingPlan, combined: Tree, path: tuple, line: int, helpers: str) -> None:
        """Every LoRA construct is in a helper called only under a guard the configuration decides
        false: no PEFT, above the construct's own reading that cannot see the guard."""
        got = lookup(combined, path)
        if not isinstance(got, Leaf):
            return
        detail = f"{'.'.join(path)} false guards the only calls of {helpers} (line {line}), where LoRA is built"
        src = Source("cli", None, None, got.key or f"--{'.'.join(path[1:])}", f"{detail} (the launch line)") \
            if got.how == "launch line" else Source("code", got.file or None, got.line, ".".join(path),
                                                     f"{detail} ({got.how})")
        self.add_checked(plan, "peft.method", "none", src, "medium", 1)

    def _extra(self, call: ast.Call, reader: _ObjReader, plan: TrainingPlan, combined: Tree, shown: str,
               modules: Optional[Modules] = None) -> None:
        f = call.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        if "loader" in name.lower() and modules is not None:
            self._loader_kwargs(call, reader, plan, modules, shown)
        if name == "DataLoader" and modules is not None:
            self._loader_defaults(call, reader, plan, modules, shown)
        elif modules is not None and name and modules.klass(name) is not None:
            from preflight.adapters.loader_subclass import config_subclass_loader

            config_subclass_loader(self, call, reader, plan, combined, shown, modules.klass(name))
        for kw in call.keywords:
            if kw.arg == "pin_memory" and "loader" in name.lower():
                got = reader.ev(kw.value)
                if got is not None and got.path is not None and isinstance(got.value, bool):
                    self._leaf_fact(plan, combined, "data.pin_memory", got.value, got.path,
                                    f"{'.'.join(got.path)} given to a data loader as pin_memory ({shown}:{call.lineno})")
                elif got is not None and got.path is None and isinstance(got.value, bool):
                    fed = [reader.ev(k.value) for k in call.keywords if k.arg in ("batch_size", "num_workers")]
                    path = next((g.path for g in fed if g is not None and g.path is not None), None)
                    if path is not None:  # a literal in the loader the config feeds (F5-TTS trainer.py:301-309)
                        self._leaf_fact(plan, combined, "data.pin_memory", got.value, path,
                                        f"pin_memory={got.value} in the data loader that {'.'.join(path)} feeds "
                                        f"({shown}:{call.lineno})")
            if kw.arg == "num_workers" and "loader" in name.lower():
                got = reader.ev(kw.value)
                if got is not None and got.path is not None and isinstance(got.value, int) \
                        and not isinstance(got.value, bool) and got.value >= 0:
                    self._leaf_fact(plan, combined, "data.num_workers", got.value, got.path,
                                    f"{'.'.join(got.path)} given to a data loader as num_workers ({shown}:{call.lineno})")
            elif kw.arg == "sharding_strategy" and name in ("FSDP", "FullyShardedDataParallel"):
                got = reader.ev(kw.value)
                if got is not None and got.path is not None and isinstance(got.value, Enum):
                    member = got.value.name.rsplit(".", 1)[-1]
                    if member in _FSDP and got.value.name.startswith("ShardingStrategy."):
                        self._leaf_fact(plan, combined, "dist.sharding", _FSDP[member], got.path,
                                        f"FullyShardedDataParallel(sharding_strategy={'.'.join(got.path)}) = "
                                        f"{got.value.name} ({shown}:{call.lineno})")

    def _loader_defaults(self, call: ast.Call, reader: _ObjReader, plan: TrainingPlan, modules: Modules,
                         shown: str) -> None:
        """torch's ``DataLoader(ds, batch_size=config["batch_size"], ...)`` in project code the config
        object reaches, written without ``num_workers``/``pin_memory``: torch's defaults, 0 and False
        (nomic-ai/gpt4all ``gpt4all-training/data.py:110-114`` at cd70db2). Only for the loader the
        config's batch size feeds (so it is the job's, not one of a helper never called), never with
        ``**kwargs`` (any keyword may be in the dict), a dataset named for evaluation, or a project
        class of that name."""
        if any(k.arg is None for k in call.keywords) or any(isinstance(a, ast.Starred) for a in call.args) \
                or modules.klass("DataLoader") is not None or not call.args:
            return
        first = call.args[0]
        if isinstance(first, ast.Name) and any(word in first.id.lower() for word in _NOT_TRAIN):
            return
        batch = next((k.value for k in call.keywords if k.arg == "batch_size"), None)
        if batch is None and len(call.args) > 1:
            batch = call.args[1]
        got = reader.ev(batch) if batch is not None else None
        if got is None or got.path is None or not isinstance(got.value, int) or isinstance(got.value, bool):
            return
        given = {k.arg for k in call.keywords}
        for kw, field, default, position in (("num_workers", "data.num_workers", 0, 5),
                                             ("pin_memory", "data.pin_memory", False, 7)):
            if kw in given or len(call.args) > position:
                continue
            self.add_checked(plan, field, default,
                             Source("code", shown, call.lineno, None,
                                    f"DataLoader(...) without {kw}: torch's default {kw}={default} (the loader "
                                    f"{'.'.join(got.path)} gives its batch size to, {shown}:{call.lineno})"),
                             "medium", _PRIORITY)

    def _loader_kwargs(self, call: ast.Call, reader: _ObjReader, plan: TrainingPlan, modules: Modules,
                       shown: str) -> None:
        """``DataLoader(ds, **kw)`` with ``kw`` the dict a project helper builds from the object."""
        from preflight.adapters.config_object_helpers import helper_dict

        given = {k.arg for k in call.keywords if k.arg}
        for kw in call.keywords:
            if kw.arg is not None or not isinstance(kw.value, ast.Name):
                continue
            bound = reader.assigns.get(kw.value.id, [])
            if len(bound) != 1 or not isinstance(bound[0], ast.Call):
                continue
            split = [a.value for a in bound[0].args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if any(word in str(v).lower() for v in split for word in _NOT_TRAIN) or \
                    any(word in kw.value.id.lower() for word in _NOT_TRAIN):
                continue  # the evaluation loader (llama-cookbook get_dataloader_kwargs(..., "val"))
            got = helper_dict(bound[0], modules, reader, reader.known)
            if got is None:
                continue
            values, lines, where, helper = got
            for key, field in (("batch_size", "batch.micro"), ("num_workers", "data.num_workers")):
                value = values.get(key)
                if key in given or not isinstance(value, int) or isinstance(value, bool) or value < 0 \
                        or (key == "batch_size" and value == 0):
                    continue
                self.add_checked(plan, field, value,
                                 Source("code", where, lines.get(key), key,
                                        f"{kw.value.id}[{key!r}] set by {helper}() from the config object it is "
                                        f"given ({shown}:{bound[0].lineno}), passed to {ast.unparse(call.func)}"
                                        f"(**{kw.value.id}) at line {call.lineno}"), "medium", _PRIORITY)

    def _leaf_fact(self, plan: TrainingPlan, combined: Tree, field: str, value: Any, path: tuple, detail: str) -> None:
        got = lookup(combined, path)
        if not isinstance(got, Leaf):
            return
        if got.how == "launch line":
            src = Source("cli", None, None, got.key or f"--{'.'.join(path[1:])}", f"{detail} (the launch line)")
        else:
            src = Source("code", got.file or None, got.line, ".".join(path), f"{detail} ({got.how})")
        self.add_checked(plan, field, value, src, "medium", _PRIORITY)
