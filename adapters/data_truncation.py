"""``data.truncation`` from the code: what the job does with a sample longer than its cap.

With dynamic padding the allocator's length cache depends on it (est67, ``preflight/estimate/length_cache.py``):
when every long sample is cut, many batches reach the cap and the longest block is allocated early; when long
samples are dropped, the cap is reached rarely and late. Read (never run) from the training script and the local
modules it imports, once every adapter has run and only when no framework config said it already (axolotl,
LLaMA-Factory and TRL's SFTConfig say it in their own adapters):

- **cut**: a call given ``truncation=True`` (or a tokenizers strategy name): a tokenizer's
  ``tokenizer(text, truncation=True, max_length=N)`` (tatsu-lab/stanford_alpaca train.py:94-96 at 761dc5b,
  tloen/alpaca-lora finetune.py:129-135); or a token list sliced to a bound, ``input_ids[:MAX_LENGTH]`` /
  ``input_ids[-self.max_length:]`` (hquzhuguofeng/LLM-RoadMap's ``process_func``, ms-swift 3.0's template), or any
  slice to a bound assigned to such a name (``input_ids = torch.LongTensor(s + t)[:max_seq_length]``,
  ymcui/Chinese-LLaMA-Alpaca-2 scripts/training/build_dataset.py:46).
- **drop**: a ``.filter`` whose predicate keeps ``len(...) <= N`` (``lambda x: len(x["input_ids"]) <= max_len``),
  the same test in a comprehension's ``if``, or ``if len(...) > N: continue`` in a loop.

Both shapes in the files read: a filter on the token ids runs after the tokenizer that cut them, so when it tests
the same bound as every cut (databrickslabs/dolly training/trainer.py:171 at e2d664d, ``len(rec["input_ids"]) <
max_length`` after ``tokenizer(..., max_length=max_length, truncation=True)``: "Make sure we don't have any truncated
records") the samples over the cap are dropped; otherwise (a filter on raw text, another bound) nothing is said and a
note names both lines. A comparison against a literal under 16 (``len(x) > 0``: empty rows removed) and ``truncation=False`` say
nothing. Every fact is ``medium``: the shape is read, whether that dataset is the training one is not.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Any, NamedTuple, Optional

from preflight.analysis.syntax import dotted_name
from preflight.plan import FIELDS, Source, TrainingPlan

_STRATEGIES = ("longest_first", "only_first", "only_second")
_SEQUENCE = re.compile(r"ids|token|input|labels", re.I)
_BOUND = re.compile(r"max|len|cutoff|block|limit|ctx|context", re.I)
_NOT_A_CAP = re.compile(r"new_tokens|gen|min", re.I)
#: what a length test measures for it to be a sample's length (not ``len(images)``, ``len(rows)``)
_MEASURED = re.compile(r"ids|token|input|labels|text|seq|prompt|sample|example|conv|chosen|rejected|encoded", re.I)
_SMALL = 16
_MAX_FILES = 24


def _last(node: ast.AST) -> str:
    """The terminal identifier of a name, attribute or subscripted key (``x["input_ids"]`` -> input_ids)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript):
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            return key.value
        return _last(node.value)
    return ""


def _bound(node: Optional[ast.AST]) -> bool:
    """A cap: a name/attribute that reads as a length bound, or an int literal of at least 16."""
    if node is None:
        return False
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int) and not isinstance(node.value, bool) and node.value >= _SMALL
    if isinstance(node, ast.BinOp):  # CUTOFF_LEN + 1, self.max_length - 1
        return _bound(node.left) or _bound(node.right)
    name = _last(node)
    return bool(name) and bool(_BOUND.search(name)) and not _NOT_A_CAP.search(name)


def _cut_call(node: ast.Call) -> bool:
    func = dotted_name(node.func) or ""
    if func.rsplit(".", 1)[-1] == "pipeline":  # an inference pipeline, not the training data
        return False
    for kw in node.keywords:
        if kw.arg == "truncation" and isinstance(kw.value, ast.Constant):
            value = kw.value.value
            return value is True or (isinstance(value, str) and value in _STRATEGIES)
    return False


def _cut_slice(node: ast.Subscript, target: str = "") -> Optional[ast.AST]:
    """The bound of ``input_ids[:MAX_LENGTH]`` / ``input_ids[-self.max_length:]``, else None. ``target``: the
    name the slice is assigned to (``input_ids = torch.LongTensor(s + t)[:max_seq_length]``)."""
    cut = node.slice
    if (not isinstance(cut, ast.Slice) or cut.step is not None
            or not (_SEQUENCE.search(_last(node.value)) or _SEQUENCE.search(target))):
        return None
    if cut.lower is None and cut.upper is not None:
        return cut.upper if _bound(cut.upper) else None
    if cut.upper is None and isinstance(cut.lower, ast.UnaryOp) and isinstance(cut.lower.op, ast.USub):
        operand = cut.lower.operand
        return operand if not isinstance(operand, ast.Constant) and _bound(operand) else None
    return None


def _length_test(node: ast.AST, keep: bool) -> Optional[tuple[ast.AST, ast.AST]]:
    """(the len() call, the bound) of ``len(...) <= N`` (``keep``: the test keeps short samples) or
    ``len(...) > N`` (not ``keep``: the test picks the long ones), either way round."""
    if not isinstance(node, ast.Compare) or len(node.ops) != 1:
        return None
    left, op, right = node.left, node.ops[0], node.comparators[0]
    small, large = (ast.Lt, ast.LtE), (ast.Gt, ast.GtE)
    if _is_len(left) and isinstance(op, small if keep else large) and _bound(right):
        found = left, right
    elif _is_len(right) and isinstance(op, large if keep else small) and _bound(left):
        found = right, left
    else:
        return None
    measured = found[0].args[0] if isinstance(found[0], ast.Call) else found[0]
    return found if _MEASURED.search(_last(measured) or ast.unparse(measured)) else None


def _keeps_short(test: ast.AST) -> Optional[tuple[ast.AST, ast.AST]]:
    for node in ast.walk(test):
        found = _length_test(node, keep=True)
        if found is not None:
            return found
    return None


def _is_len(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len"
            and len(node.args) == 1)


def _functions(tree: ast.AST) -> dict[str, ast.AST]:
    return {n.name: n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}


class Shape(NamedTuple):
    line: int
    said: str
    bound: str  # the bound's source text ("" when the call names none)
    on_tokens: bool  # a drop: the len() is of token ids (so it runs after any tokenizer cut)


def _drop(line: int, said: str, found: tuple[ast.AST, ast.AST]) -> Shape:
    length, bound = found
    measured = length.args[0] if isinstance(length, ast.Call) and length.args else length
    return Shape(line, said, ast.unparse(bound), bool(_SEQUENCE.search(_last(measured))))


def shapes(tree: ast.AST) -> tuple[list[Shape], list[Shape]]:
    """(cut, drop): each shape read in ``tree``, with its line, what was read and its bound."""
    cut: list[Shape] = []
    drop: list[Shape] = []
    defs = _functions(tree)
    # the name a slice is assigned to (Chinese-LLaMA-Alpaca-2 build_dataset.py:46)
    targets = {id(n.value): _last(n.targets[0]) for n in ast.walk(tree)
               if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.value, ast.Subscript)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if _cut_call(node):
                limit = next((kw.value for kw in node.keywords if kw.arg == "max_length"), None)
                cut.append(Shape(node.lineno, f"{dotted_name(node.func) or 'a call'}(..., truncation=...) cuts each "
                                              "sample to max_length", ast.unparse(limit) if limit else "", False))
            elif isinstance(node.func, ast.Attribute) and node.func.attr == "filter" and node.args:
                pred = node.args[0]
                body: Optional[ast.AST] = pred.body if isinstance(pred, ast.Lambda) else None
                if isinstance(pred, ast.Name) and pred.id in defs:
                    body = defs[pred.id]
                found = _keeps_short(body) if body is not None else None
                if found is not None:
                    drop.append(_drop(node.lineno, ".filter(...) keeps samples with len(...) under the cap and "
                                                   "drops the longer ones", found))
        elif isinstance(node, ast.Subscript):
            bound = _cut_slice(node, targets.get(id(node), ""))
            if bound is not None:
                cut.append(Shape(node.lineno, f"{ast.unparse(node)} cuts each sample to the cap",
                                 ast.unparse(bound), False))
        elif isinstance(node, ast.comprehension):
            for test in node.ifs:
                found = _keeps_short(test)
                if found is not None:
                    drop.append(_drop(test.lineno, "a comprehension keeps samples with len(...) under the cap",
                                      found))
        elif isinstance(node, (ast.For, ast.While)):
            for stmt in ast.walk(node):
                if isinstance(stmt, ast.If) and stmt.body and isinstance(stmt.body[0], ast.Continue):
                    found = _length_test(stmt.test, keep=False)
                    if found is not None:
                        drop.append(_drop(stmt.lineno, "if len(...) > cap: continue skips the longer samples",
                                          found))
    return sorted(set(cut)), sorted(set(drop))


def _files(project: Any) -> list[tuple[str, ast.AST]]:
    from preflight.adapters.pytorch_local import _imported_up

    from preflight.local_trees import parse_file

    root = Path(str(project.root)) if getattr(project, "root", None) else None
    out: list[tuple[str, ast.AST]] = []
    seen: set[str] = set()
    for script in project.scripts:
        tree = getattr(script, "tree", None)
        if not isinstance(tree, ast.Module):
            continue
        shown = str(script.source.display)
        if shown not in seen:
            seen.add(shown)
            out.append((shown, tree))
        if script.source.path is None:
            continue
        here = Path(str(script.source.path)).resolve().parent
        for path in _imported_up(tree, here, root, limit=_MAX_FILES):
            try:
                if path.stat().st_size > 500_000:
                    continue
                module = parse_file(path)
            except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
                continue
            shown = os.path.relpath(path, root.resolve()) if root is not None else str(path)
            if shown not in seen:
                seen.add(shown)
                out.append((shown, module))
    return out


def decide(cuts: list[tuple[str, Shape]], drops: list[tuple[str, Shape]]) -> Optional[tuple[str, str, Shape]]:
    """(value, file, shape) of what the shapes say, or None when they disagree."""
    if cuts and drops:
        after = [(f, d) for f, d in drops if d.on_tokens and d.bound]
        if after and all(c.bound and any(c.bound == d.bound for _, d in after) for _, c in cuts):
            return ("drop", *after[0])
        return None
    if cuts:
        return ("cut", *cuts[0])
    if drops:
        return ("drop", *drops[0])
    return None


def data_truncation(plan: TrainingPlan, project: Any) -> None:
    if "data.truncation" not in FIELDS or plan.resolve("data.truncation") is not None or not project.scripts:
        return
    cuts: list[tuple[str, Shape]] = []
    drops: list[tuple[str, Shape]] = []
    for shown, tree in _files(project):
        cut, drop = shapes(tree)
        cuts += [(shown, c) for c in cut]
        drops += [(shown, d) for d in drop]
    found = decide(cuts, drops)
    if found is None:
        if cuts and drops:
            plan.note(f"derive: data.truncation not said: {cuts[0][0]}:{cuts[0][1].line} cuts long samples and "
                      f"{drops[0][0]}:{drops[0][1].line} drops them")
        return
    value, shown, shape = found
    said = shape.said
    if value == "drop" and cuts:
        said += f" (after {cuts[0][0]}:{cuts[0][1].line} cut them to {shape.bound}: the cut samples are dropped)"
    plan.add("data.truncation", value, Source("code", shown, shape.line, None, said), "medium", adapter="derive")
