"""A training sequence made of a source and a target truncated separately, read without running
the script: its length is the sum of the two bounds.

- An explicit sum that bounds the token list (THUDM/ChatGLM-6B ``ptuning/main.py:188,223``:
  ``max_seq_length = data_args.max_source_length + data_args.max_target_length``, then
  ``pad_len = max_seq_length - len(input_ids)``): a name bound to ``A + B [+ k]`` of known
  values (two of them not literals) and used in that function as a bound of a sequence
  (``ids[:X]``, ``X - len(ids)``, ``len(ids) > X``) is the sequence length. A sum only handed to
  ``evaluate``/``predict``/``generate(max_length=...)`` is a generation length, not this.
- Two tokenizer calls concatenated (artidoro/qlora ``qlora.py:460-480``: ``self.tokenizer(sources,
  max_length=self.source_max_len)`` and ``self.tokenizer(targets, max_length=self.target_max_len)``,
  then ``tokenized_source + tokenized_target`` over their ``zip``): the sum of the two
  ``max_length`` values; ``self.x`` of a collator is the keyword ``x=`` of the one call that
  builds it in the file. When the loop then cuts the pair together (jondurbin/qlora ``train.py:612-624``:
  ``if len(tokenized_source) + len(tokenized_target) >= self.model_max_len:`` shortening either part), the
  length is that joint bound; a joint bound not read leaves the length open.

Both medium: the bound is a maximum (a shorter example is shorter). The fact has priority 1 over
a tokenizer call's own ``max_length`` (one part of the sequence, not its length).
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.call_splat import own_nodes
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter
from preflight.script_index import Resolved

_GEN_CALLS = ("evaluate", "predict", "generate")


def _terms(expr: ast.AST) -> list[ast.AST]:
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        return _terms(expr.left) + _terms(expr.right)
    return [expr]


def _is_len(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len"


def _bounds(fn: ast.AST, name: str) -> Optional[int]:
    """Line where ``name`` bounds a sequence in ``fn``, else None."""
    def is_name(node: Optional[ast.AST]) -> bool:
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Sub, ast.Add)):
            return is_name(node.left)
        return isinstance(node, ast.Name) and node.id == name

    for node in own_nodes(fn):
        if isinstance(node, ast.Slice) and node.lower is None and is_name(node.upper):
            return node.upper.lineno if node.upper is not None else None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and is_name(node.left) and _is_len(node.right):
            return node.lineno
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and _is_len(node.left) \
                and isinstance(node.ops[0], (ast.Gt, ast.GtE)) and is_name(node.comparators[0]):
            return node.lineno
    return None


def _functions(tree: ast.AST) -> list[ast.AST]:
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _tokenizer_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    text = ast.unparse(func) if hasattr(ast, "unparse") else ""
    return text.rsplit(".", 1)[-1].lower().endswith("tokenizer") or text.endswith(("tokenizer.encode",
                                                                                       "tokenizer.__call__"))


def _joint_cut(loop: ast.AST, names: list[str]) -> Optional[ast.Compare]:
    """The ``len(a) + len(b) >= bound`` test in ``loop`` whose body shortens ``a`` or ``b`` (jondurbin/qlora
    ``train.py:612-624`` @ its pinned commit: source and target cut so that together they fit
    ``self.model_max_len``), else None."""
    for node in ast.walk(loop):
        if not (isinstance(node, ast.If) and isinstance(node.test, ast.Compare) and len(node.test.ops) == 1
                and isinstance(node.test.ops[0], (ast.Gt, ast.GtE))):
            continue
        terms = _terms(node.test.left)
        lens = {t.args[0].id for t in terms if _is_len(t) and isinstance(t, ast.Call) and len(t.args) == 1
                and isinstance(t.args[0], ast.Name)}
        if len(terms) != 2 or lens != set(names):
            continue
        if any(isinstance(a, ast.Assign) and any(isinstance(t, ast.Name) and t.id in names for t in a.targets)
               for a in ast.walk(node)):
            return node.test
    return None


@register_adapter
class SeqSumAdapter(Adapter):
    name = "seq_sum"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any("max_length" in s.source.text or "max_len" in s.source.text for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            if script.tree is None:
                continue
            idx = project.index(script)
            found = self.explicit_sum(idx) or self.concatenated(idx, script.tree)
            if found is not None:
                value, line, detail = found
                # priority 1: the assembled sequence beats a single part's tokenizer max_length
                # (the source's bound alone is not the training length)
                self.add_checked(plan, "data.seq_len", value,
                                 Source("code", script.source.display, line, None, detail), "medium", priority=1)
                return

    def explicit_sum(self, idx: Any) -> Optional[tuple[int, int, str]]:
        for fn in _functions(idx.script.tree):
            for stmt in sorted(own_nodes(fn), key=lambda n: getattr(n, "lineno", 0)):
                if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                        and isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.BinOp)):
                    continue
                terms = _terms(stmt.value)
                if len(terms) < 2 or sum(not isinstance(t, ast.Constant) for t in terms) < 2:
                    continue
                values = [idx.resolve(t) for t in terms]
                if any(v is None or not isinstance(v.value, int) or isinstance(v.value, bool) for v in values):
                    continue
                name = stmt.targets[0].id
                used = _bounds(fn, name)
                if used is None:
                    continue
                total = sum(v.value for v in values if v is not None)
                text = ast.unparse(stmt.value) if hasattr(ast, "unparse") else "a sum"
                return total, stmt.lineno, (f"{name} = {text} = {total}, the bound of the token sequence "
                                            f"(line {used})")
        return None

    def concatenated(self, idx: Any, tree: ast.AST) -> Optional[tuple[int, int, str]]:
        for fn in _functions(tree):
            calls: dict[str, ast.AST] = {}  # result name -> max_length expression
            for stmt in ast.walk(fn):
                if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                        and _tokenizer_call(stmt.value):
                    call = stmt.value
                    bound = next((k.value for k in call.keywords if k.arg == "max_length"), None) if isinstance(
                        call, ast.Call) else None
                    if bound is not None:
                        calls[stmt.targets[0].id] = bound
            if len(calls) != 2:
                continue
            for loop in ast.walk(fn):
                if not (isinstance(loop, ast.For) and isinstance(loop.iter, ast.Call)
                        and isinstance(loop.iter.func, ast.Name) and loop.iter.func.id == "zip"
                        and isinstance(loop.target, ast.Tuple) and len(loop.target.elts) == 2
                        and len(loop.iter.args) == 2):
                    continue
                sources = [next((n.id for n in ast.walk(a) if isinstance(n, ast.Name) and n.id in calls), None)
                           for a in loop.iter.args]
                if None in sources or sources[0] == sources[1]:
                    continue
                names = [t.id if isinstance(t, ast.Name) else "" for t in loop.target.elts]
                joined = any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add)
                             and {getattr(n.left, "id", None), getattr(n.right, "id", None)} == set(names)
                             for n in ast.walk(loop))
                if not joined:
                    continue
                found = [self.bound(idx, calls[s], fn) for s in sources if s is not None]
                values = [v for v in found if v is not None]
                if len(values) != len(found):
                    return None
                total = sum(v.value for v in values)
                detail = (f"two tokenizer calls (max_length {values[0].value} and {values[1].value}) concatenated: "
                          f"{names[0]} + {names[1]} = {total}")
                cut = _joint_cut(loop, names)
                if cut is not None:
                    cap = self.bound(idx, cut.comparators[0], fn)
                    if cap is None:
                        return None  # the pair is cut to a bound not read: the sum is not the length
                    if cap.value < total:
                        return cap.value, cut.lineno, (f"{detail}, then cut together to {cap.value} where "
                                                       f"`{ast.unparse(cut)}` (line {cut.lineno})")
                return total, loop.lineno, detail
        return None

    def bound(self, idx: Any, expr: ast.AST, fn: ast.AST) -> Optional[Resolved]:
        """``max_length=`` of a tokenizer call; ``self.x`` is the ``x=`` keyword of the one call
        building the method's class in this file."""
        resolved = idx.resolve(expr)
        if resolved is not None:
            return resolved if isinstance(resolved.value, int) and not isinstance(resolved.value, bool) else None
        if not (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "self"):
            return None
        klass = next((c for c in ast.walk(idx.script.tree) if isinstance(c, ast.ClassDef)
                      and any(n is fn for n in ast.walk(c))), None)
        if klass is None:
            return None
        builds = [s for s in idx.calls if s.last == klass.name]
        if len(builds) != 1:
            return None
        value = idx.resolve(builds[0].kwarg(expr.attr))
        return value if value is not None and isinstance(value.value, int) and not isinstance(value.value, bool) \
            else None
