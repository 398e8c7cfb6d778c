"""A batch size handed into the project's own methods that draw the batch, without a DataLoader.

sfujim/TD3 @ the benchmark's commit: ``main.py:45`` ``--batch_size`` (default 256), ``:137``
``policy.train(replay_buffer, args.batch_size)`` in the training loop; ``TD3.py:104-108`` ``def train(self,
replay_buffer, batch_size=256): ... replay_buffer.sample(batch_size)``; ``utils.py:31-32`` ``def
sample(self, batch_size): ind = np.random.randint(0, self.size, size=batch_size)``. Each optimizer step
takes ``batch_size`` transitions drawn from the replay buffer: the per-process batch (``batch.micro``).

Read, never run: a call in a loop of the script hands a value the script's index resolves to a
positive int (a launch value, an option default, a literal) to a function or method of the job's code
(the script and the local modules it imports, :func:`preflight.adapters.pytorch_local._imported_up`); in
every definition of that name taking the argument, the parameter is the size of a draw of samples
(``numpy.random.randint(..., size=P)``, ``numpy.random.choice(n, P)``, ``torch.randint(n, (P,))``,
``random.sample(population, P)``, the slice ``x[i:i + P]``), directly or handed on to another such
function (three calls deep). The step must back-propagate (a ``.backward(`` in the loop's body or in the
definition called). Only when no other reader found a per-process batch, when the job's code builds no
``DataLoader``, and when every such call agrees; medium.
"""

from __future__ import annotations

import ast
from typing import Any, Optional, Sequence

from preflight.analysis.syntax import dotted_name
from preflight.plan import TrainingPlan

_MAX_MODULES = 40
_MAX_BYTES = 500_000
_DEPTH = 3


def _defs(trees: list[ast.AST]) -> dict[str, list[tuple[ast.AST, bool]]]:
    """name -> (definition, is a method) over the trees."""
    out: dict[str, list[tuple[ast.AST, bool]]] = {}
    for tree in trees:
        methods = {id(f) for c in ast.walk(tree) if isinstance(c, ast.ClassDef) for f in c.body
                   if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                out.setdefault(node.name, []).append((node, id(node) in methods))
    return out


def _param(fn: Any, method: bool, call: ast.Call, arg: ast.expr) -> Optional[str]:
    """The parameter of ``fn`` that ``arg`` of ``call`` binds, or None."""
    names = [a.arg for a in [*fn.args.posonlyargs, *fn.args.args]]
    if method and names and names[0] in ("self", "cls"):
        names = names[1:]
    for i, a in enumerate(call.args):
        if a is arg:
            if any(isinstance(x, ast.Starred) for x in call.args[: i + 1]):
                return None
            return names[i] if i < len(names) else None
    for k in call.keywords:
        if k.value is arg and k.arg is not None:
            known = names + [a.arg for a in fn.args.kwonlyargs]
            return k.arg if k.arg in known else None
    return None


def _is(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _draws(fn: Any, param: str) -> bool:
    """``param`` is the size of a draw of samples in ``fn``'s body."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Call):
            last = (dotted_name(node.func) or "").rsplit(".", 1)[-1]
            size = next((k.value for k in node.keywords if k.arg == "size"), None)
            if last in ("randint", "choice") and size is not None and (
                    _is(size, param) or (isinstance(size, ast.Tuple) and len(size.elts) == 1
                                         and _is(size.elts[0], param))):
                return True
            if last == "randint" and node.args and isinstance(node.args[-1], ast.Tuple) \
                    and len(node.args[-1].elts) == 1 and _is(node.args[-1].elts[0], param):
                return True  # torch.randint(high, (P,))
            if last in ("randint", "choice") and len(node.args) == (3 if last == "randint" else 2) \
                    and _is(node.args[-1], param) and "torch" not in (dotted_name(node.func) or ""):
                return True  # numpy.random.randint(low, high, P) / numpy.random.choice(n, P)
            if last == "sample" and len(node.args) == 2 and _is(node.args[1], param) \
                    and (dotted_name(node.func) or "").startswith("random."):
                return True  # random.sample(population, P)
        if isinstance(node, ast.Slice) and isinstance(node.upper, ast.BinOp) and isinstance(node.upper.op, ast.Add) \
                and (_is(node.upper.left, param) or _is(node.upper.right, param)) and node.lower is not None \
                and not _chunking(fn, node):
            return True  # x[i:i + P]
    return False


def _chunking(fn: Any, piece: ast.Slice) -> bool:
    """``piece`` is ``x[i:i + P]`` under ``for i in ...`` whose body never back-propagates: the loop runs an
    input through in pieces (nerf-pytorch ``run_nerf.py`` ``batchify_rays``: ``for i in range(0, N, chunk):
    render_rays(rays_flat[i:i + chunk])``, a memory bound of the forward), not a batch drawn per step."""
    if not isinstance(piece.lower, ast.Name):
        return False
    for loop in ast.walk(fn):
        if isinstance(loop, ast.For) and _is(loop.target, piece.lower.id) \
                and any(n is piece for stmt in loop.body for n in ast.walk(stmt)):
            return not _backward(loop.body)
        if isinstance(loop, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)) \
                and any(_is(g.target, piece.lower.id) for g in loop.generators) \
                and any(n is piece for n in ast.walk(loop)):
            return not _backward([loop])  # [x[i:i + P] for i in range(0, N, P)]
    return False


def _reaches(fn: Any, param: str, defs: dict, depth: int, seen: set) -> bool:
    """``param`` of ``fn`` is a draw's size there or in a function it is handed to."""
    if id(fn) in seen:
        return False
    seen = seen | {id(fn)}
    if _draws(fn, param):
        return True
    if depth >= _DEPTH:
        return False
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call):
            continue
        for arg in [*node.args, *(k.value for k in node.keywords)]:
            if _is(arg, param) and _callees_draw(node, arg, defs, depth + 1, seen):
                return True
    return False


def _callees_draw(call: ast.Call, arg: ast.expr, defs: dict, depth: int, seen: set) -> bool:
    """Every definition the call may reach binds ``arg`` to a parameter that is a draw's size (at least one)."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    found = [(fn, method) for fn, method in defs.get(name or "", [])
             if method == isinstance(func, ast.Attribute)]
    bound: list[tuple[Any, str]] = []
    for fn, method in found:
        p = _param(fn, method, call, arg)
        if p is not None:
            bound.append((fn, p))
    return bool(bound) and all(_reaches(fn, p, defs, depth, seen) for fn, p in bound)


def _trees(project: Any, script: Any) -> list[ast.AST]:
    from preflight.adapters.pytorch_local import script_and_imported_trees

    return script_and_imported_trees(project, script, _MAX_MODULES, _MAX_BYTES)


def _loader_named(trees: list[ast.AST]) -> bool:
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and (dotted_name(node.func) or "").rsplit(".", 1)[-1] == "DataLoader":
                return True
    return False


def _backward(nodes: Sequence[ast.AST]) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "backward"
               for top in nodes for n in ast.walk(top))


def handed_batch_micro(plan: TrainingPlan, project: Any) -> None:
    """``batch.micro`` from a batch size handed to the project's draw (see the module docstring)."""
    if project is None or plan.resolve("batch.micro") is not None or len(project.own_scripts()) != 1:
        return
    script = project.scripts[0]
    if script.tree is None or script.source.path is None:
        return
    trees = _trees(project, script)
    if _loader_named(trees):
        return
    defs = _defs(trees)
    idx = project.index(script)
    found: list[tuple[int, ast.Call, ast.expr]] = []
    for loop in ast.walk(script.tree):
        if not isinstance(loop, (ast.For, ast.While)):
            continue
        for call in (n for st in loop.body for n in ast.walk(st) if isinstance(n, ast.Call)):
            for arg in [*call.args, *(k.value for k in call.keywords)]:
                if not isinstance(arg, (ast.Name, ast.Attribute)):
                    continue
                if not _callees_draw(call, arg, defs, 1, set()):
                    continue
                func = call.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                callees = [fn for fn, _m in defs.get(name, [])]
                if not (_backward(loop.body) or _backward(callees)):
                    continue
                resolved = idx.resolve(arg)
                value = resolved.value if resolved is not None else None
                if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                    found.append((value, call, arg))
    if not found or len({f[0] for f in found}) != 1:
        return
    value, call, arg = found[0]
    detail = (f"{ast.unparse(arg)} = {value} handed to {ast.unparse(call.func)}(...), whose definitions draw that "
              "many samples (no DataLoader)")
    plan.add("batch.micro", value, project.source(script, call, "code", detail=detail), "medium",
             adapter="handed_batch")
    name = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
    callees = [fn for fn, _m in defs.get(name, [])]
    if plan.resolve("batch.grad_accum") is None and callees and all(_one_step(fn) for fn in callees):
        plan.add("batch.grad_accum", 1, project.source(script, call, "code", detail=(
            f"every definition of {name}() clears the gradients, back-propagates and steps on each call: one "
            "optimizer step per drawn batch")), "medium", adapter="handed_batch")


def _one_step(fn: Any) -> bool:
    """``zero_grad``, ``backward`` and ``step`` all called in ``fn``'s own body, none under a loop or an ``if``
    (TD3.py:128-131 the critic's step on every call; the actor's, under ``if``, is not needed)."""
    seen: set[str] = set()
    stack: list[ast.AST] = list(fn.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.For, ast.While, ast.If, ast.Try, ast.With, ast.FunctionDef, ast.AsyncFunctionDef,
                             ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("zero_grad", "backward", "step") and not node.args:
            seen.add(node.func.attr)
        stack.extend(ast.iter_child_nodes(node))
    return seen == {"zero_grad", "backward", "step"}
