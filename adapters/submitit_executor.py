"""A submitit executor's node and task counts, read from its ``update_parameters(...)`` call.

The Omnivision / SAM 2 launcher shape (facebookresearch/omnivore @ 1d55abd
``omnivision/train_app_submitit.py:70-95``, and the same block in facebookresearch/sam2 ``training/train.py``
and many forks of it, found with the search tools)::

    @hydra.main(config_path="config", config_name=None)
    def main(cfg) -> None:
        submitit_conf = cfg.get("submitit", None)
        if submitit_conf.use_cluster:
            executor = submitit.AutoExecutor(folder=submitit_dir)
            job_kwargs = {
                "gpus_per_node": cfg.launcher.gpus_per_node,
                "tasks_per_node": cfg.launcher.gpus_per_node,  # one task per GPU
                "nodes": cfg.launcher.num_nodes,
                ...
            }
            executor.update_parameters(**job_kwargs)

and the plain one with literals (innovator-arjun/RL-Practise ``submitit_test.py``: ``update_parameters(
gpus_per_node=num_gpus, tasks_per_node=num_gpus, ...)`` with ``num_gpus = 1``). submitit starts
``tasks_per_node`` processes on each of ``nodes`` nodes (``slurm_ntasks_per_node``/``slurm_nodes``/
``slurm_gpus_per_node`` are the Slurm executor's spellings). When the tasks per node equal the GPUs per node
(one task per GPU), ``dist.devices_per_node`` is that count and ``dist.world_size`` = nodes x tasks;
``dist.nodes`` is the node count (submitit's default 1 when ``nodes`` is not given).

Read (never imported), in a script that imports ``submitit``: the one ``update_parameters`` call, its
keywords written in the call, splatted from a dict literal bound once in the same function (later
``d["k"] = v`` writes to a count key make it unknown), or from a comprehension over such a dict's
``items()``. A value is an int literal, a local name assigned once, or a key of the job's config (an
attribute chain or ``get``/``[]`` on the Hydra ``@hydra.main`` parameter, ``cfg``/``config``, or a name
bound once to such a section), the config value coming from the composed config. An ``if`` around the call
whose test reads to false drops it; one that cannot be read lowers the facts to low. Medium, priority -1
(any other reading of the counts wins). Called by :mod:`preflight.adapters.hydra` for a Hydra app's script
(the argparse launchers are :mod:`preflight.adapters.submitit_tasks`'); a plain script of literals is read
the same way by :func:`executor_counts` but not yet hooked.
"""

from __future__ import annotations

import ast
from typing import Any, Callable, Optional, Union

from preflight.adapters.submitit_tasks import imports_submitit

from preflight.analysis.syntax import dotted_name

_NODES = ("nodes", "slurm_nodes")
_TASKS = ("tasks_per_node", "slurm_ntasks_per_node", "ntasks_per_node")
_GPUS = ("gpus_per_node", "slurm_gpus_per_node")
_FN = (ast.FunctionDef, ast.AsyncFunctionDef)

# where a value came from: a config key path, or the line of the code that writes it
Where = Union[tuple[str, ...], int]
# emit(field, value, where, detail, confidence)
Emit = Callable[[str, int, Where, str, str], None]



class _Reader:
    def __init__(self, tree: ast.Module, fn: Optional[ast.AST], roots: tuple[str, ...],
                 known: Callable[[tuple[str, ...]], Any]) -> None:
        self.tree, self.fn, self.roots, self.known = tree, fn, roots, known

    def _assigned(self, name: str) -> Optional[ast.expr]:
        """The one value ``name`` is bound to in the function (else at module level)."""
        for scope in ([self.fn] if self.fn is not None else []) + [self.tree]:
            found: list[ast.expr] = []
            bad = False
            nodes = ast.walk(scope) if scope is self.fn else iter(self.tree.body)
            for node in nodes:
                if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
                    if len(node.targets) == 1:
                        found.append(node.value)
                    else:
                        bad = True
                elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr)) and \
                        isinstance(node.target, ast.Name) and node.target.id == name:
                    bad = True
                elif scope is self.fn and isinstance(node, _FN) and node is self.fn and any(
                        a.arg == name for a in (*node.args.args, *node.args.kwonlyargs)):
                    bad = name not in self.roots
            if bad:
                return None
            if found:
                return found[0] if len(found) == 1 else None
        return None

    def path(self, expr: ast.expr, depth: int = 0) -> Optional[tuple[str, ...]]:
        """The config key path ``expr`` reads (``cfg.launcher.num_nodes``, ``conf.get("x")``), else None."""
        if depth > 4:
            return None
        if isinstance(expr, ast.Name):
            if expr.id in self.roots and self._assigned(expr.id) is None:
                return ()
            bound = self._assigned(expr.id)
            return self.path(bound, depth + 1) if bound is not None else None
        if isinstance(expr, ast.Attribute):
            base = self.path(expr.value, depth)
            return (*base, expr.attr) if base is not None else None
        key: Optional[ast.expr] = None
        owner: Optional[ast.expr] = None
        if isinstance(expr, ast.Subscript):
            owner, key = expr.value, expr.slice
        elif isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "get" \
                and expr.args and len(expr.args) <= 2:
            owner, key = expr.func.value, expr.args[0]
        if owner is not None and isinstance(key, ast.Constant) and isinstance(key.value, str):
            base = self.path(owner, depth)
            return (*base, key.value) if base is not None else None
        return None

    def value(self, expr: ast.expr, depth: int = 0) -> Optional[tuple[Any, Where]]:
        """(value, where it comes from) of an int or bool written in the code or read from the config."""
        if depth > 4:
            return None
        if isinstance(expr, ast.Constant) and isinstance(expr.value, (int, bool)):
            return expr.value, expr.lineno
        path = self.path(expr)
        if path:
            got = self.known(path)
            return (got, path) if isinstance(got, (int, bool)) else None
        if isinstance(expr, ast.Name):
            bound = self._assigned(expr.id)
            return self.value(bound, depth + 1) if bound is not None else None
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
            got = self.value(expr.operand, depth + 1)
            return (not got[0], got[1]) if got is not None else None
        return None


def _parents(tree: ast.AST) -> dict[int, ast.AST]:
    return {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _dict_entries(d: ast.expr, reader: _Reader, name: Optional[str]) -> Optional[dict[str, ast.expr]]:
    if isinstance(d, ast.Call) and dotted_name(d.func) == "dict" and not d.args:
        return {k.arg: k.value for k in d.keywords if k.arg is not None} \
            if all(k.arg is not None for k in d.keywords) else None
    if not isinstance(d, ast.Dict):
        return None
    out: dict[str, ast.expr] = {}
    for k, v in zip(d.keys, d.values):
        if k is None:
            return None  # a ``**other`` inside the literal
        if isinstance(k, ast.Constant) and isinstance(k.value, str):
            out[k.value] = v
    if name is not None and reader.fn is not None:
        for node in ast.walk(reader.fn):  # later writes to a count key: unknown
            targets = node.targets if isinstance(node, ast.Assign) else []
            for t in targets:
                if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == name:
                    key = t.slice
                    if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                        return None
                    if key.value in (*_NODES, *_TASKS, *_GPUS):
                        out.pop(key.value, None)
                        out[key.value] = ast.Constant(None)  # written twice: unknown
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "update" \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == name:
                return None
    return out


def _splatted(expr: ast.expr, reader: _Reader) -> Optional[dict[str, ast.expr]]:
    if isinstance(expr, ast.DictComp) and len(expr.generators) == 1:
        it = expr.generators[0].iter  # ``{k: v for k, v in job_kwargs.items() if v is not None}``
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "items":
            expr = it.func.value
        else:
            return None
    if isinstance(expr, ast.Name):
        bound = reader._assigned(expr.id)
        return _dict_entries(bound, reader, expr.id) if bound is not None else None
    return _dict_entries(expr, reader, None)


def _parameters(call: ast.Call, reader: _Reader) -> Optional[dict[str, ast.expr]]:
    if call.args:
        return None
    out: dict[str, ast.expr] = {}
    for kw in call.keywords:
        if kw.arg is not None:
            out[kw.arg] = kw.value
            continue
        got = _splatted(kw.value, reader)
        if got is None:
            return None
        out.update(got)
    return out


def _first(params: dict[str, ast.expr], names: tuple[str, ...], reader: _Reader) -> Any:
    """None: not given; False: given but unknown; else (value, where)."""
    given = [params[n] for n in names if n in params]
    if not given:
        return None
    if len(given) > 1:
        return False
    got = reader.value(given[0])
    if got is None or isinstance(got[0], bool) or got[0] < 1:
        return False
    return got


def _guarded(call: ast.Call, parents: dict[int, ast.AST], reader: _Reader) -> Optional[str]:
    """"medium" when every ``if`` around the call reads true on its side, "low" when one is unknown,
    None when one reads false."""
    conf = "medium"
    node: ast.AST = call
    while id(node) in parents:
        parent = parents[id(node)]
        if isinstance(parent, ast.If):
            inside = any(node is s for s in parent.body)
            if inside or any(node is s for s in parent.orelse):
                got = reader.value(parent.test)
                if got is None:
                    conf = "low"
                elif bool(got[0]) != inside:
                    return None
        if isinstance(parent, _FN):
            break
        node = parent
    return conf


def executor_counts(tree: ast.AST, roots: tuple[str, ...], known: Callable[[tuple[str, ...]], Any],
                    emit: Emit) -> bool:
    """Emit the counts of the script's one submitit ``update_parameters`` call; whether any was emitted."""
    if not isinstance(tree, ast.Module) or not imports_submitit(tree):
        return False
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr == "update_parameters"]
    if len(calls) != 1:
        return False
    call = calls[0]
    parents = _parents(tree)
    fn: Optional[ast.AST] = None
    node: ast.AST = call
    while id(node) in parents:
        node = parents[id(node)]
        if isinstance(node, _FN):
            fn = node
            break
    reader = _Reader(tree, fn, roots, known)
    params = _parameters(call, reader)
    if params is None:
        return False
    conf = _guarded(call, parents, reader)
    if conf is None:
        return False
    nodes, tasks, gpus = (_first(params, names, reader) for names in (_NODES, _TASKS, _GPUS))
    if nodes is False or not tasks or not gpus or tasks[0] != gpus[0]:
        return False
    n, n_where = (nodes if nodes else (1, call.lineno))
    how = f"submitit update_parameters (line {call.lineno}): one task per GPU"
    emit("dist.nodes", n, n_where, f"{'nodes' if nodes else 'no nodes given: submitit default'} {n}; {how}", conf)
    emit("dist.devices_per_node", gpus[0], gpus[1], f"gpus_per_node = tasks_per_node = {gpus[0]}; {how}", conf)
    emit("dist.world_size", n * tasks[0], tasks[1], f"nodes {n} x tasks_per_node {tasks[0]}; {how}", conf)
    return True
