"""Quantization and LoRA configs built inside a project helper the entry script calls, under
``if param is None:`` defaults the call leaves in place:

    def build_qlora_model(model_name_or_path, quantization_config=None, lora_config=None, ...):
        if quantization_config is None:
            quantization_config = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_use_double_quant=True,
                                                     bnb_4bit_quant_type="nf4", ...)
        if lora_config is None:
            lora_config = LoraConfig(r=64, lora_alpha=16, ...)

(InternLM/xtuner @ b934f46 ``xtuner/apis/model.py:11-31``, re-exported by ``xtuner/apis/__init__.py``
and called as ``build_qlora_model(model_name_or_path=..., return_tokenizer=True)`` by
``examples/huggingface_trainer/train_qlora_hf.py:15-17``). Only the functions the entry script
calls are read (a helper beside them is not the job's), in the project's own packages; a guard is
decided only when it tests a parameter whose default is ``None`` against ``None`` and the call does
not pass that parameter (by keyword or position, nor ``**kwargs``); a construct under any other
undecided test says nothing. Facts (``medium``): ``precision.weights_bits`` from ``load_in_4bit``/
``load_in_8bit``, ``precision.quant_type``, ``precision.double_quant``, ``peft.method`` lora with
``peft.rank`` from ``r=``, ``task.mode`` qlora/lora. Nothing is imported or executed.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.guard_clause import ends_in_exit
from preflight.adapters.pytorch_local import _imported_local

from preflight.adapters_api import Adapter, Project
from preflight.analysis.syntax import dotted_name
from preflight.local_trees import parse_file
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter
from preflight.sources import read_text_limited

_MAX_BYTES = 500_000
_CONSTRUCTS = ("BitsAndBytesConfig", "LoraConfig")


def _none_params(fn: ast.FunctionDef) -> dict[str, int]:
    """Parameters defaulting to None -> position (-1 for keyword-only)."""
    out: dict[str, int] = {}
    positional = [*fn.args.posonlyargs, *fn.args.args]
    first = len(positional) - len(fn.args.defaults)
    for i, a in enumerate(positional):
        if i >= first:
            d = fn.args.defaults[i - first]
            if isinstance(d, ast.Constant) and d.value is None:
                out[a.arg] = i
    for a, kd in zip(fn.args.kwonlyargs, fn.args.kw_defaults):
        if isinstance(kd, ast.Constant) and kd.value is None:
            out[a.arg] = -1
    return out


def _decide(test: ast.AST, left_none: set[str]) -> Optional[bool]:
    """``P is None`` / ``P is not None`` / ``not P`` with P a parameter left at None."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name) \
            and test.left.id in left_none and isinstance(test.comparators[0], ast.Constant) \
            and test.comparators[0].value is None:
        if isinstance(test.ops[0], ast.Is):
            return True
        if isinstance(test.ops[0], ast.IsNot):
            return False
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and isinstance(test.operand, ast.Name) \
            and test.operand.id in left_none:
        return True
    return None


def _block(stmts: list[ast.stmt], live: bool, left_none: set[str]) -> list[tuple[ast.AST, bool]]:
    """The statements of a block with whether each runs: after a guard clause ``if test: ... return``
    (no ``else``) only when the test is decided false (taishan1994/DPO-Finetuning @ 6f19d2e9
    ``utils.py:19-23`` ``if model_args.use_peft is False: return None`` before ``LoraConfig(...)``)."""
    out: list[tuple[ast.AST, bool]] = []
    for stmt in stmts:
        out.append((stmt, live))
        if isinstance(stmt, ast.If) and not stmt.orelse and ends_in_exit(stmt.body):
            live = live and _decide(stmt.test, left_none) is False
    return out


def _live_constructs(fn: ast.FunctionDef, left_none: set[str]) -> list[ast.Call]:
    out: list[ast.Call] = []
    stack: list[tuple[ast.AST, bool]] = _block(fn.body, True, left_none)
    while stack:
        node, live = stack.pop()
        if isinstance(node, ast.If):
            value = _decide(node.test, left_none)
            stack.extend(_block(node.body, live and value is True, left_none))
            stack.extend(_block(node.orelse, live and value is False, left_none))
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Call) and live and (dotted_name(node.func) or "").rsplit(".", 1)[-1] in _CONSTRUCTS:
            out.append(node)
        stack.extend((c, live) for c in ast.iter_child_nodes(node))
    return out


def _shown(path: Path, mod_path: Path, mod_shown: str) -> str:
    """``path`` relative to the root ``mod_shown`` (the helper module's display path) is relative to."""
    parts = Path(mod_shown).parts
    if Path(mod_shown).is_absolute() or len(parts) > len(mod_path.resolve().parents):
        return str(path)
    root = mod_path.resolve().parents[len(parts) - 1]
    try:
        return str(path.resolve().relative_to(root))
    except ValueError:
        return str(path)


def _live_calls(fn: ast.FunctionDef, left_none: set[str]) -> list[ast.Call]:
    """Every call of the function that runs: outside any ``if``, or under one decided by the parameters
    left at None (an undecided test keeps nothing)."""
    out: list[ast.Call] = []
    stack: list[tuple[ast.AST, bool]] = _block(fn.body, True, left_none)
    while stack:
        node, live = stack.pop()
        if isinstance(node, ast.If):
            value = _decide(node.test, left_none)
            stack.extend(_block(node.body, live and value is True, left_none))
            stack.extend(_block(node.orelse, live and value is False, left_none))
            continue
        if isinstance(node, ast.Call) and live:
            out.append(node)
        stack.extend((c, live) for c in ast.iter_child_nodes(node))
    return out


def _literal_kw(call: ast.Call, name: str) -> Any:
    for kw in call.keywords:
        if kw.arg == name:
            try:
                return ast.literal_eval(kw.value)
            except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
                return None
    return None


def _modules(tree: ast.Module, script: Path) -> list[Path]:
    """The project modules the script imports (its folder, or the project's own package where a
    setup.py/pyproject.toml marks one: :func:`pytorch_local._imported_local`), and for a package
    the modules its ``__init__`` re-exports from (``from .model import build_qlora_model``)."""
    out = list(_imported_local(tree, script.resolve().parent))
    for found in list(out):
        if found.name != "__init__.py":
            continue
        try:
            init = parse_file(found)
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for sub in init.body:
            if isinstance(sub, ast.ImportFrom) and sub.level == 1 and sub.module:
                cand = found.parent / f"{sub.module.replace('.', '/')}.py"
                if cand.is_file() and cand not in out:
                    out.append(cand)
    return out[:24]


@register_adapter
class HelperBuildersAdapter(Adapter):
    name = "helper_builders"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        """A project module the script imports names a quantization or LoRA config (cheap: text only)."""
        for script in project.scripts:
            path = Path(str(script.source.path))
            if not path.is_file():
                continue
            for mod in _modules(script.tree, path):
                try:
                    text = read_text_limited(mod, errors="replace")[:_MAX_BYTES]
                except (OSError, ValueError):
                    continue
                if any(f"{name}(" in text for name in _CONSTRUCTS):
                    return True
        return False

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            path = Path(str(script.source.path))
            if not path.is_file():
                continue
            imported = {a.asname or a.name for n in ast.walk(script.tree) if isinstance(n, ast.ImportFrom)
                        and n.module and not n.level for a in n.names}
            calls = [n for n in ast.walk(script.tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                     and n.func.id in imported]
            if not calls:
                continue
            functions: dict[str, tuple[ast.FunctionDef, str, Path, ast.Module]] = {}
            for mod in _modules(script.tree, path):
                if not project.may_read(mod):
                    continue
                try:
                    if mod.stat().st_size > _MAX_BYTES:
                        continue
                    tree = parse_file(mod)
                except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
                    continue
                root = str(Path(project.root).resolve())
                shown = os.path.relpath(mod.resolve(), root) if str(mod.resolve()).startswith(root) else str(mod)
                for fn in tree.body:
                    if isinstance(fn, ast.FunctionDef) and "Config(" in ast.unparse(fn):
                        functions.setdefault(fn.name, (fn, shown, mod, tree))
            for call in calls:
                found = functions.get(call.func.id)  # type: ignore[attr-defined]
                if found is not None and not any(k.arg is None for k in call.keywords):
                    if not _call_runs(project, script, call):
                        continue  # under a guard not known to run (vectorlm ``if lora_peft_config is not None:``)
                    self._read(plan, script, call, *found)
                    return

    def _wrapper_checkpointing(self, plan: TrainingPlan, script: Any, call: ast.Call, fn: ast.FunctionDef,
                               left: set[str], mod_path: Path, mod_tree: ast.Module, shown: str) -> None:
        """A project model class the helper builds (``SupervisedFinetune(llm, lora=lora_config)``, InternLM/xtuner
        ``xtuner/model/sft.py:84-117``: ``use_activation_checkpointing=True`` then
        ``self.gradient_checkpointing_enable()``) that switches checkpointing on by a default it is left."""
        names = {a.asname or a.name for n in mod_tree.body if isinstance(n, ast.ImportFrom) and n.module
                 and not n.level for a in n.names}
        for node in _live_calls(fn, left):
            if not isinstance(node.func, ast.Name) or node.func.id not in names \
                    or any(k.arg is None for k in node.keywords):
                continue
            for path in _modules(mod_tree, mod_path):
                try:
                    tree = parse_file(path)
                except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
                    continue
                cls = next((c for c in tree.body if isinstance(c, ast.ClassDef) and c.name == node.func.id), None)
                if cls is None:
                    continue
                got = _enables_checkpointing(cls, {k.arg for k in node.keywords if k.arg}, len(node.args))
                if got is not None:
                    detail = (f"{cls.name}(...) built in {fn.name}(...) (called at {script.source.display}:"
                              f"{call.lineno}) leaves {got[0]}=True: its __init__ calls gradient_checkpointing_enable()")
                    self.add_checked(plan, "memory.gradient_checkpointing", True,
                                     Source("code", _shown(path, mod_path, shown), got[1], None, detail), "medium")
                return

    def _read(self, plan: TrainingPlan, script: Any, call: ast.Call, fn: ast.FunctionDef, shown: str,
              mod_path: Path, mod_tree: ast.Module) -> None:
        given = {k.arg for k in call.keywords if k.arg}
        left = {p for p, pos in _none_params(fn).items() if p not in given and not (0 <= pos < len(call.args))}
        self._wrapper_checkpointing(plan, script, call, fn, left, mod_path, mod_tree, shown)
        constructs = _live_constructs(fn, left)
        where = f"{fn.name}(...) called at {script.source.display}:{call.lineno}"
        bits = None
        lora = None
        for node in constructs:
            last = (dotted_name(node.func) or "").rsplit(".", 1)[-1]
            src = Source("code", shown, node.lineno, None, f"{last}(...) in {where}")
            if last == "BitsAndBytesConfig":
                if _literal_kw(node, "load_in_4bit") is True:
                    bits = 4
                elif _literal_kw(node, "load_in_8bit") is True:
                    bits = 8
                if bits is not None:
                    self.add_checked(plan, "precision.weights_bits", bits, src, "medium")
                if bits == 4:
                    qt, dq = _literal_kw(node, "bnb_4bit_quant_type"), _literal_kw(node, "bnb_4bit_use_double_quant")
                    if isinstance(qt, str):
                        self.add_checked(plan, "precision.quant_type", qt, src, "medium")
                    if isinstance(dq, bool):
                        self.add_checked(plan, "precision.double_quant", dq, src, "medium")
            elif last == "LoraConfig":
                lora = src
                rank = _literal_kw(node, "r")
                self.add_checked(plan, "peft.method", "lora", src, "medium")
                if isinstance(rank, int) and not isinstance(rank, bool) and rank > 0:
                    self.add_checked(plan, "peft.rank", rank, src, "medium")
        if lora is not None:
            self.add_checked(plan, "task.mode", "qlora" if bits in (4, 8) else "lora", lora, "medium")


def _call_runs(project: Project, script: Any, call: ast.Call) -> bool:
    """Whether the entry's call of the helper is known to run: every ``if`` around it decided taken, and
    its function's callers too (:mod:`preflight.adapters.caller_guards`)."""
    from preflight.adapters.caller_guards import callers_run

    idx = project.index(script)
    site = next((s for s in idx.calls if s.call is call), None)
    return site is None or (idx.runs(site) is True and callers_run(idx, site) is True)


def _enables_checkpointing(cls: ast.ClassDef, keywords: set[str], positional: int) -> Optional[tuple[str, int]]:
    """(parameter, line) when ``__init__`` calls ``gradient_checkpointing_enable()`` under ``if P:`` with P
    a parameter defaulting to True that the construction leaves in place."""
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if init is None:
        return None
    args = init.args.args[1:]
    first = len(args) - len(init.args.defaults)
    true_params = {a.arg: i for i, a in enumerate(args) if i >= first
                   and getattr(init.args.defaults[i - first], "value", None) is True
                   and isinstance(init.args.defaults[i - first], ast.Constant)}
    for node in ast.walk(init):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id in true_params \
                and node.test.id not in keywords and true_params[node.test.id] >= positional:
            for sub in (n for stmt in node.body for n in ast.walk(stmt)):
                if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) \
                        and sub.func.attr == "gradient_checkpointing_enable":
                    return node.test.id, sub.lineno
    return None
