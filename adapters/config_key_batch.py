"""A plain ``batch_size`` key of a job's config, read as the micro or the global batch from how the project's
code uses it (for :mod:`preflight.adapters.config_key_families`, which refuses the bare name by itself: it is
per process in one project and global in the next).

The key's read sites in the code (``X["data"]["batch_size"]``, ``cfgs_data.get("batch_size")`` with
``cfgs_data = args.get("data")``, ``config.training.batch_size``, ``cfg.TRAIN.BATCH_SIZE``; a key under a
section only through that section's name) and a local name bound once from one of them in the same function
say what the number is:

* **per process** when the code multiplies it by a process count (huggingface/open-muse @ 64e1afe
  ``training/train_maskgit_imagenet.py:268`` ``config.training.batch_size * accelerator.num_processes``), hands
  it to a keyword or key named like a per-process batch (``per_gpu_batch_size=``, ``:161``
  ``["train_micro_batch_size_per_gpu"] = config.training.batch_size``), or hands it as ``batch_size=`` to a data
  loader, directly or through project functions whose ``batch_size`` parameter reaches one
  (facebookresearch/ijepa @ 52c1ae9 ``src/train.py:93,192-194`` ``batch_size = args['data']['batch_size']`` ->
  ``make_imagenet1k(batch_size=batch_size)`` -> ``src/datasets/imagenet1k.py:52-56`` ``DataLoader(batch_size=
  batch_size)``; facebookresearch/vjepa2 ``init_data`` -> ``make_videodataset`` -> ``DataLoader``);
* **global** when the code divides it by a process count (facebookresearch/SlowFast
  ``slowfast/datasets/loader.py:98`` ``int(cfg.TRAIN.BATCH_SIZE / max(1, cfg.NUM_GPUS))``, Pointcept
  ``pointcept/engines/defaults.py:138`` ``cfg.batch_size // world_size``, prime-rl ``config.data.batch_size //
  dp_size``) or hands it to a name or keyword of a global batch (``global_batch_size=``).

A key read as an attribute chain (``config.training.batch_size``) and handed straight to a data loader is the
value-flow readers' shape, not evidence here: they follow the object's provenance and leave the batch unknown on
purpose where they cannot (tests/test_jobs48_hparams.py). Both kinds of evidence, or neither: nothing. A process count is a name or attribute spelled like one
(``num_processes``, ``world_size``, ``get_world_size()``, ``NUM_GPUS``, ``dp_size``, ...). Read, never run.
"""

from __future__ import annotations

import ast
import re
from typing import Any, Iterator, Optional

from preflight.analysis.syntax import walk

#: plain batch keys whose meaning only their use tells (lower case)
PLAIN = ("batch_size", "train_batch_size")
_PROCS = re.compile(r"^(num_processes|world_size|get_world_size|num_gpus|n_gpus|ngpus|ngpus_per_node|nprocs|"
                    r"num_replicas|dp_size|dp_world_size|data_parallel_size|data_parallel_world_size|num_devices|"
                    r"device_count|gpus|n_gpu|num_gpu|world)$", re.I)
_PER = re.compile(r"^(per_gpu_batch_size|per_device_batch_size|batch_size_per_gpu|batch_size_per_device|"
                  r"micro_batch_size|micro_batch_size_per_gpu|train_micro_batch_size_per_gpu|device_batch_size|"
                  r"per_device_train_batch_size|local_batch_size)$", re.I)
_GLOBAL = re.compile(r"^(global_batch_size|total_batch_size|global_train_batch_size)$", re.I)
#: an accumulation count's name (``gradient_accumulation_steps``, ``grad_accum``, ``accum_iter``, ``update_freq``)
_ACCUM = re.compile(r"^(grad(ient)?_?acc(um(ulation)?)?(_?(steps?|iters?|batches))?|accum(ulation)?(_?(steps?|iters?"
                    r"|grad_iters))?|(gradient_)?accumulate_grad_batches|update_freq)$", re.I)
#: a name that holds the batch of one optimizer step over all processes: DeepSpeed's ``train_batch_size``
_STEP_TARGET = re.compile(r"^(train_batch_size|global_batch_size|total_batch_size|global_train_batch_size|"
                          r"effective_batch_size|total_train_batch_size)$", re.I)
_MAX_DEPTH = 3
_CACHE = "config_key_batch.trees"


def _last(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Call):
        return _last(node.func)
    return ""


def _mentions_procs(node: ast.AST) -> bool:
    return any(isinstance(n, (ast.Name, ast.Attribute, ast.Call)) and _PROCS.match(_last(n)) for n in ast.walk(node))


def _const(node: ast.AST) -> Optional[str]:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _section_of(node: ast.AST, binds: dict[str, list[ast.expr]]) -> Optional[str]:
    """The section a config object expression names last: ``X["data"]``, ``X.get("data")``, ``X.data``, or a
    local name bound once to one of those."""
    if isinstance(node, ast.Subscript):
        return _const(node.slice)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and node.args:
        return _const(node.args[0])
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name) and len(binds.get(node.id, [])) == 1:
        return _section_of(binds[node.id][0], {})
    return None


def _is_read(node: ast.AST, key: str, parent: Optional[str], binds: dict[str, list[ast.expr]]) -> bool:
    """``node`` reads the config key ``key`` (under the section ``parent``)."""
    owner: Optional[ast.AST] = None
    if isinstance(node, ast.Subscript) and _const(node.slice) == key:
        owner = node.value
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("get", "pop") \
            and node.args and _const(node.args[0]) == key:
        owner = node.func.value
    elif isinstance(node, ast.Attribute) and node.attr == key and isinstance(node.ctx, ast.Load):
        owner = node.value
        if parent is None and not (isinstance(owner, ast.Name) and owner.id not in ("self", "cls", "args")) \
                and not _self_config(owner):
            return False  # a top-level key read as ``cfg.batch_size`` (argparse's ``args.batch_size`` is not it)
    if owner is None:
        return False
    return parent is None or _section_of(owner, binds) == parent


def _self_config(owner: ast.AST) -> bool:
    """``self.config`` / ``self.cfg``: the config object a trainer class keeps (Stability-AI/StableCascade @
    7a7d341 ``train/base.py:117`` ``self.config.batch_size // (self.world_size * self.config.grad_accum_steps)``,
    the WarpCore ``Config`` dataclass filled from the YAML the launch line names)."""
    return isinstance(owner, ast.Attribute) and owner.attr in ("config", "cfg") \
        and isinstance(owner.value, ast.Name) and owner.value.id == "self"


def _read_key(node: ast.AST) -> Optional[str]:
    """The key ``node`` would read were its owner the right section (:func:`_is_read` is true for no other)."""
    if isinstance(node, ast.Subscript):
        return _const(node.slice)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("get", "pop") \
            and node.args:
        return _const(node.args[0])
    if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
        return node.attr
    return None


def _scopes_reading(nodes: list[ast.AST], key: str, parents: dict[int, ast.AST]) -> set[int]:
    """The ids of the module and functions among a tree's ``nodes`` whose body holds a node that may read ``key``
    (the others hold no read, and :func:`plain_batch_use` need not walk them)."""
    out: set[int] = set()
    for node in nodes:
        if _read_key(node) != key:
            continue
        child, up = node, parents.get(id(node))
        while up is not None:
            if isinstance(up, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)) \
                    and any(stmt is child for stmt in up.body):
                out.add(id(up))
            child, up = up, parents.get(id(up))
    return out


def _loader_call(call: ast.Call) -> bool:
    name = _last(call.func).lower()
    return name.endswith("dataloader") or name.endswith("loader")


class _Code:
    """The project's parsed files that may hold the evidence, and its functions by name."""

    def __init__(self, code: list[tuple[str, str]], needle: str = "batch_size") -> None:
        self.trees: list[tuple[str, ast.AST]] = []
        self.functions: dict[str, list[tuple[str, ast.FunctionDef]]] = {}
        self.imports: dict[str, dict[str, str]] = {}  # file -> imported name -> its module
        #: per tree (as in ``trees``), the keys some node of it may read (see :func:`_read_key`): a tree without
        #: the key reads it nowhere, and :func:`plain_batch_use` skips it without walking it again
        self.read_keys: list[set[str]] = []
        for display, text in code:
            if needle not in text.lower():
                continue
            try:
                tree = ast.parse(text)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                continue
            self.trees.append((display, tree))
            names = self.imports.setdefault(display, {})
            keys: set[str] = set()
            self.read_keys.append(keys)
            for node in walk(tree):  # ast.walk's nodes in its order, faster
                if isinstance(node, ast.FunctionDef):
                    self.functions.setdefault(node.name, []).append((display, node))
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    for alias in node.names:
                        names[alias.asname or alias.name] = node.module
                else:
                    key = _read_key(node)
                    if key is not None:
                        keys.add(key)

    def function(self, name: str, caller: str) -> Optional[tuple[str, ast.FunctionDef]]:
        """The project function ``name`` a call in ``caller`` reaches: the one its ``from M import name`` names,
        else the one defined in ``caller``, else the only one of that name."""
        found = self.functions.get(name, [])
        module = self.imports.get(caller, {}).get(name)
        if module is not None:
            tail = module.replace(".", "/")
            found = [f for f in found if f[0].replace("\\", "/").endswith((f"{tail}.py", f"{tail}/__init__.py"))]
        elif any(f[0] == caller for f in found):
            found = [f for f in found if f[0] == caller]
        return found[0] if len(found) == 1 else None

    def reaches_loader(self, name: str, param: str, caller: str, depth: int = 0) -> bool:
        """The project function ``name`` hands its parameter ``param`` to a data loader's ``batch_size``,
        itself or through project functions it calls."""
        got = self.function(name, caller) if depth <= _MAX_DEPTH else None
        if got is None:
            return False
        display, fn = got
        if param not in {a.arg for a in (*fn.args.args, *fn.args.kwonlyargs)}:
            return False
        for call in (n for n in ast.walk(fn) if isinstance(n, ast.Call)):
            for kw in call.keywords:
                if not (isinstance(kw.value, ast.Name) and kw.value.id == param) or kw.arg is None:
                    continue
                if kw.arg == "batch_size" and _loader_call(call):
                    return True
                if self.reaches_loader(_last(call.func), kw.arg, display, depth + 1):
                    return True
        return False


def _evaluation(call: ast.Call, parents: dict[int, ast.AST]) -> bool:
    """A loader for evaluation data: its first argument or the name it is bound to says so (ming024/FastSpeech2
    ``dataset.py:225-230`` ``val_loader = DataLoader(val_dataset, batch_size=train_config["optimizer"]
    ["batch_size"])``: not the training loader, whose batch is that key times ``group_size``)."""
    names = [_last(call.args[0])] if call.args else []
    up = parents.get(id(call))
    if isinstance(up, ast.Assign):
        names += [_last(t) for t in up.targets]
    return any(re.match(r"_?(val|valid|eval|test|dev)(_|$|idation|set|loader|data)", n.lower()) for n in names if n)


def _step_product(use: ast.AST, parents: dict[int, ast.AST]) -> Optional[str]:
    """The accumulation key when ``use`` times an accumulation count, and no process count, is handed to a name of
    the whole step's batch (nomic-ai/contrastors @ 613ddfd ``src/contrastors/trainers/base.py:151-152``
    ``ds_config["train_batch_size"] = data_args.batch_size * ds_config["gradient_accumulation_steps"]``, the
    batch one micro-step feeds all processes times the accumulation): the number is that micro-step's batch over
    every process, not the optimizer step's. A product with a process count in it (``args.batch_size *
    args.grad_accum * world_size``) is the per-process reading's."""
    top, factors = use, []
    up = parents.get(id(top))
    while isinstance(up, ast.BinOp) and isinstance(up.op, ast.Mult):
        factors.append(up.right if up.left is top else up.left)
        top, up = up, parents.get(id(up))
    if not factors or any(_mentions_procs(f) for f in factors):
        return None
    accum = [k for f in factors for k in [_read_key(f) if not isinstance(f, ast.Name) else f.id] if k and _ACCUM.match(k)]
    if len(accum) != 1 or len(factors) != 1:
        return None
    if isinstance(up, ast.Assign) and up.value is top and len(up.targets) == 1:
        target = up.targets[0]
        name = _const(target.slice) if isinstance(target, ast.Subscript) else _last(target)
        if name and _STEP_TARGET.match(name):
            return accum[0]
    return None


def _kind_of_use(use: ast.AST, parents: dict[int, ast.AST], code: _Code, display: str, loaders: bool = True
                 ) -> Optional[str]:
    """``per`` / ``global`` / ``step:KEY`` (:func:`_step_product`) / None for one place the number is used;
    ``loaders`` False: a data loader's ``batch_size=`` is no evidence."""
    up = parents.get(id(use))
    if isinstance(up, ast.BinOp) and isinstance(up.op, ast.Mult):
        other = up.right if up.left is use else up.left
        if _mentions_procs(other):
            return "per"
        accum = _step_product(use, parents)
        return f"step:{accum}" if accum is not None else None
    if isinstance(up, ast.BinOp) and isinstance(up.op, (ast.Div, ast.FloorDiv)) and up.left is use:
        return "global" if _mentions_procs(up.right) else None
    if isinstance(up, ast.AugAssign) and up.target is use and isinstance(up.op, (ast.Div, ast.FloorDiv)):
        return "global" if _mentions_procs(up.value) else None
    if isinstance(up, ast.keyword) and up.arg is not None:
        call = parents.get(id(up))
        if _PER.match(up.arg):
            return "per"
        if _GLOBAL.match(up.arg):
            return "global"
        if loaders and up.arg == "batch_size" and isinstance(call, ast.Call) and not _evaluation(call, parents) and (
                _loader_call(call) or code.reaches_loader(_last(call.func), "batch_size", display)):
            return "per"
        return None
    if isinstance(up, ast.Assign) and up.value is use:
        for target in up.targets:
            name = _const(target.slice) if isinstance(target, ast.Subscript) else _last(target)
            if name and _PER.match(name):
                return "per"
            if name and _GLOBAL.match(name):
                return "global"
    return None


def plain_batch_use(code_files: list[tuple[str, str]], key: str, parent: Optional[str], cache: Any = None
                    ) -> Optional[tuple[str, ...]]:
    """(``batch.micro`` or ``batch.global``, ``file:line`` of the deciding use) for a plain batch key, or None;
    (``batch.step``, ``file:line``, the accumulation key) where the code multiplies it by an accumulation count
    into the step's batch (:func:`_step_product`)."""
    code = cache.get(_CACHE) if isinstance(cache, dict) else None
    if code is None:
        code = _Code(code_files)
        if isinstance(cache, dict):
            cache[_CACHE] = code
    kinds: dict[str, str] = {}
    for display, node, uses, parents in _key_uses(code, key, parent):
        # an attribute chain handed to a loader is the value-flow readers' shape: they follow the object's
        # provenance and leave the batch unknown on purpose where they cannot (an attribute class that
        # computes its attributes, a file no option names, spawn arguments packed in a tuple:
        # tests/test_jobs48_hparams.py); a key read by its string, or used with a process count, is not
        loaders = not isinstance(node, ast.Attribute)
        for use in uses:
            kind = _kind_of_use(use, parents, code, display, loaders)
            if kind is not None:
                kinds.setdefault(kind, f"{display}:{getattr(use, 'lineno', 0)}")
    steps = [k for k in kinds if k.startswith("step:")]
    if steps and "per" not in kinds:  # the batch of one micro-step over all processes: a division by a process
        if len(steps) != 1:  # count agrees with it, a per-process use would not
            return None
        return "batch.step", kinds[steps[0]], steps[0][len("step:"):]
    kinds = {k: v for k, v in kinds.items() if not k.startswith("step:")}
    if len(kinds) != 1:
        return None
    kind, at = next(iter(kinds.items()))
    return ("batch.micro" if kind == "per" else "batch.global"), at


def plain_workers_use(code_files: list[tuple[str, str]], key: str, parent: Optional[str], cache: Any = None
                      ) -> Optional[str]:
    """``file:line`` where the code hands the plain config key ``key`` (``workers``: loader workers in one
    project, Ray or pool workers in the next) as ``num_workers=`` to a training data loader, directly or through a
    local name bound once from it, else None (``DataLoader(dataset, batch_size=cfg.data.batch_size,
    num_workers=cfg.data.workers)``, ``DataLoader(..., num_workers=config["workers"])``: many public training
    scripts, found with the search tools). An evaluation loader's (:func:`_evaluation`) or any other use is no
    evidence."""
    code = cache.get(_CACHE + ".num_workers") if isinstance(cache, dict) else None
    if code is None:
        code = _Code(code_files, "num_workers")
        if isinstance(cache, dict):
            cache[_CACHE + ".num_workers"] = code
    for display, _node, uses, parents in _key_uses(code, key, parent):
        for use in uses:
            kw = parents.get(id(use))
            call = parents.get(id(kw)) if isinstance(kw, ast.keyword) else None
            if isinstance(kw, ast.keyword) and kw.arg == "num_workers" and isinstance(call, ast.Call) \
                    and _loader_call(call) and not _evaluation(call, parents):
                return f"{display}:{getattr(use, 'lineno', 0)}"
    return None


def _key_uses(code: Any, key: str, parent: Optional[str]
              ) -> Iterator[tuple[str, ast.AST, list[ast.AST], dict[int, ast.AST]]]:
    """(file shown, the node reading ``key``, that node and the loads of a local name bound once from it, the
    file's parent map) for every read of the plain config key ``key`` in a function (or module) body of the
    code: ``batch_size = args['data']['batch_size']`` then ``DataLoader(..., batch_size=batch_size)``."""
    for (display, tree), keys in zip(code.trees, code.read_keys):
        if key not in keys:
            continue  # no node of this file reads the key
        nodes = walk(tree)
        parents = {id(child): node for node in nodes for child in ast.iter_child_nodes(node)}
        reading = _scopes_reading(nodes, key, parents)
        for fn in [tree, *(n for n in nodes if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))]:
            if id(fn) not in reading:
                continue  # its body reads the key nowhere: nothing below would be found
            body = [n for stmt in getattr(fn, "body", []) for n in walk(stmt)]
            binds: dict[str, list[ast.expr]] = {}
            for n in body:
                if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
                    binds.setdefault(n.targets[0].id, []).append(n.value)
            for node in body:
                if not _is_read(node, key, parent, binds):
                    continue
                uses: list[ast.AST] = [node]
                up = parents.get(id(node))
                if isinstance(up, ast.Assign) and len(up.targets) == 1 and isinstance(up.targets[0], ast.Name) \
                        and len(binds.get(up.targets[0].id, [])) == 1:
                    local = up.targets[0].id
                    uses += [n for n in body if isinstance(n, ast.Name) and n.id == local
                             and isinstance(n.ctx, ast.Load)]
                yield display, node, uses, parents
