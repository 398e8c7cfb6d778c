"""A model option that names the project's own wrapper module, whose model loads a Hub model by a
literal id: the Hub model is the job's model.

KimMeen/Time-LLM @ 0045cde: ``--model TimeLLM`` (``scripts/TimeLLM_ETTh1.sh:14``) picks
``TimeLLM.Model(args)`` (``run_main.py:130-135``, ``from models import Autoformer, DLinear, TimeLLM``), and
``models/TimeLLM.py:43-57`` loads ``LlamaModel.from_pretrained('huggyllama/llama-7b', ...)`` under ``if
configs.llm_model == 'LLAMA':`` (``--llm_model`` default ``LLAMA``). The name ``TimeLLM`` is the
wrapper's, not a catalog or Hub name.

Read when: the option's value is the stem of exactly one ``.py`` file of the project that the entry
script imports by that name; in it, ``X.from_pretrained('<owner>/<name>')`` of a class that is not a
tokenizer, processor or config (or an id without an owner, ``'gpt2'``, when ``X`` is imported from
transformers and no folder of the project has that name), whose enclosing ``if`` tests are all
``<obj>.<option> == '<literal>'`` (or ``!=``), ``<obj>.<option>`` or ``not <obj>.<option>`` decided by the
job's option values (a number, a bool or a string of one); and every such load that runs names the same id.

DAMO-DI-ML/NeurIPS2023-One-Fits-All @ 9f3875d: ``--model GPT4TS`` (``Long-term_Forecasting/scripts/
ETTh1.sh``) picks ``models/GPT4TS.py``, whose ``GPT2Model.from_pretrained('gpt2', ...)`` (``:27``) runs
under ``if configs.is_gpt:`` (``--is_gpt 1``) and ``if configs.pretrain:`` (``--pretrain`` default 1).
Anything else leaves the option's value as the model's name. Nothing is imported or executed.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Any, Callable, Optional

from preflight.sources import read_text_limited

_HUB = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")
_BARE = re.compile(r"^[A-Za-z][\w.-]*[A-Za-z0-9]$")  # a Hub id without an owner: ``gpt2``, ``bert-base-uncased``
_NOT_MODEL = ("Tokenizer", "Processor", "Config", "FeatureExtractor", "ImageProcessor")
_MAX_FILES = 4000
_SKIP = {".git", "node_modules", "venv", ".venv", "site-packages", "__pycache__", "build", "dist"}


def _module_file(root: Path, stem: str) -> Optional[Path]:
    found: list[Path] = []
    seen = 0
    for base, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP and not d.startswith("."))
        seen += len(files)
        if f"{stem}.py" in files:
            found.append(Path(base) / f"{stem}.py")
        if seen > _MAX_FILES or len(found) > 1:
            break
    return found[0] if len(found) == 1 else None


def _from_transformers(tree: ast.AST) -> set[str]:
    """The names the module imports from ``transformers`` (``from transformers.models.gpt2.modeling_gpt2
    import GPT2Model``)."""
    return {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
            and (n.module == "transformers" or n.module.startswith("transformers.")) for a in n.names}


def _loads(tree: ast.AST) -> list[tuple[str, int, list[tuple[ast.expr, bool]]]]:
    """(hub id, line, the ``if`` tests around it with the arm taken) of each literal Hub load: an
    ``owner/name`` id, or an id without an owner (``gpt2``) loaded by a class imported from transformers."""
    out: list[tuple[str, int, list[tuple[ast.expr, bool]]]] = []
    hf = _from_transformers(tree)

    def visit(node: ast.AST, guards: list[tuple[ast.expr, bool]]) -> None:
        if isinstance(node, ast.If):
            visit(node.test, guards)
            for stmt in node.body:
                visit(stmt, [*guards, (node.test, True)])
            for stmt in node.orelse:
                visit(stmt, [*guards, (node.test, False)])
            return
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "from_pretrained" and node.args:
            owner = ast.unparse(node.func.value)
            first = node.args[0]
            if not any(w in owner for w in _NOT_MODEL) and isinstance(first, ast.Constant) \
                    and isinstance(first.value, str) and (_HUB.match(first.value) or (
                        (owner in hf or owner.startswith("transformers.")) and _BARE.match(first.value))):
                out.append((first.value, node.lineno, guards))
        for child in ast.iter_child_nodes(node):
            visit(child, guards)

    visit(tree, [])
    return out


def _truthy(value: Any) -> Optional[bool]:
    """An option's value as an ``if`` tests it: a number, a bool, or a string of one (``--is_gpt 1``)."""
    if isinstance(value, (bool, int, float)):
        return bool(value)
    if isinstance(value, str):
        text = value.strip()
        if text.lower() in ("true", "false"):
            return text.lower() == "true"
        try:
            return bool(float(text))
        except ValueError:
            return None
    return None


def _decided(test: ast.expr, option: Callable[[str], Any]) -> Optional[bool]:
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _decided(test.operand, option)
        return None if inner is None else not inner
    if isinstance(test, ast.Attribute) and isinstance(test.value, ast.Name):
        # ``if configs.pretrain:`` (One-Fits-All ``models/GPT4TS.py:25-26``, ``--pretrain`` default 1)
        return _truthy(option(test.attr))
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq))
            and isinstance(test.left, ast.Attribute) and isinstance(test.comparators[0], ast.Constant)):
        return None
    value = option(test.left.attr)
    if value is None:
        return None
    same = value == test.comparators[0].value
    return same if isinstance(test.ops[0], ast.Eq) else not same


def wrapped_hub_model(root: Path, script_text: str, stem: str, option: Callable[[str], Any]
                      ) -> Optional[tuple[str, str, int, str]]:
    """(hub id, file shown, line, the guard as written) of the Hub model the wrapper module ``stem``
    loads, or None. ``option(name)`` is the job's value of an option (None when not known)."""
    if not re.fullmatch(r"[A-Za-z_]\w*", stem) or not re.search(
            rf"^\s*(from\s+[\w.]+\s+)?import\s+[^\n]*\b{re.escape(stem)}\b", script_text, re.M):
        return None
    path = _module_file(root, stem)
    if path is None:
        return None
    try:
        tree = ast.parse(read_text_limited(path, errors="replace"))
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    taken = []
    for hub, line, guards in _loads(tree):
        states = [_decided(test, option) for test, _ in guards]
        if any(s is None for s in states):
            return None  # a load under a test not decided here: which one runs is not known
        if all(s == arm for s, (_, arm) in zip(states, guards)):
            taken.append((hub, line, " and ".join(ast.unparse(t) for t, _ in guards)))
    if len({t[0] for t in taken}) != 1:
        return None
    hub, line, guard = taken[0]
    if "/" not in hub and (root / hub).exists():
        return None  # a folder of the project by that name: a local checkpoint, not the Hub's
    return hub, os.path.relpath(path, root), line, guard
