"""A Hugging Face ``Trainer`` built inside a project module the training script imports, when the
script itself never imports transformers/TRL (so :mod:`preflight.adapters.transformers` reads
nothing of it).

georgesung/llm_qlora ``train.py`` at its pinned commit: ``from QloraTrainer import QloraTrainer``,
``trainer = QloraTrainer(config)``, ``trainer.train()``; the module ``QloraTrainer.py`` builds
``transformers.Trainer(args=transformers.TrainingArguments(per_device_train_batch_size=...,
fp16=True, ...))`` and calls its ``train()``. The entry's own reading sees a class and a method
call; the Trainer's settings were missing (precision, optimizer, workers).

This reads (never imports) the local modules the entry script imports, one level, beside it
(``pytorch_local._imported_local``), and runs the transformers reading over each one that imports
transformers or TRL and both builds a ``...TrainingArguments``/TRL ``...Config`` and calls a
Trainer's ``train()``. Every fact is capped at ``medium``: that the script reaches the module's
Trainer is inferred from the import, not followed call by call.

Silent: the entry script imports transformers/TRL itself (its own pass reads it); no local module
both builds training arguments and trains.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

from preflight.adapters.pytorch_local import _imported_local
from preflight.adapters.transformers import TransformersAdapter, _ScriptPass

from preflight.adapters_api import Project
from preflight.local_trees import nodes_of
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter
from preflight.script_index import ScriptIndex
from preflight.sources import ParsedPython, SourceText, parse_python, read_source, read_text_limited

_MAX_BYTES = 500_000
_MAX_MODULES = 12
_ARGS = re.compile(r"\b\w*(?:TrainingArguments|SFTConfig|DPOConfig|GRPOConfig|KTOConfig|ORPOConfig|RewardConfig)\s*\(")
_TRAINS = re.compile(r"\.train\s*\(")


def _modules(project: Project) -> list[tuple[ParsedPython, ScriptIndex]]:
    out: list[tuple[ParsedPython, ScriptIndex]] = []
    root = Path(str(project.root)).resolve() if project.root else None
    for script in project.scripts:
        if not isinstance(script.tree, ast.Module) or script.source.path is None:
            continue
        entry = project.index(script)
        here = Path(str(script.source.path)).resolve().parent
        if entry.imports_any("transformers", "trl"):
            # the entry imports transformers but a helper of a local module builds the arguments
            # (OpenFedLLM config.py get_training_args: training_args_helper.py)
            out.extend(_helper_built(project, script, entry, here, root))
            continue
        for path in _with_reexports(script.tree, _imported_local(script.tree, here)[:_MAX_MODULES]):
            parsed = _load(project, path, root)
            if parsed is None:
                continue
            idx = ScriptIndex(parsed)
            idx.options = entry.options
            if idx.imports_any("transformers", "trl") and _ARGS.search(parsed.source.text) \
                    and _TRAINS.search(parsed.source.text):
                out.append((parsed, idx))
    return out


def _with_reexports(tree: ast.Module, paths: list[Path]) -> list[Path]:
    """``paths`` with, after each package ``__init__.py``, the sibling modules it re-exports by a relative
    import for a name the entry imports from that package (sotopia-lab/sotopia-rl @ 2ebb14e
    ``scripts/train_sft.py:5`` ``from sotopia_rl import SotopiaSFTTrainer``; ``sotopia_rl/__init__.py:4``
    ``from .sft_trainer import SotopiaSFTTrainer``). Only names the entry asks for: the package's other
    re-exported trainers are not this job's."""
    wanted: dict[str, set[str]] = {}
    for node in nodes_of(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            wanted.setdefault(node.module.rsplit(".", 1)[-1], set()).update(a.name for a in node.names)
    out: list[Path] = []
    for path in paths:
        if path not in out:
            out.append(path)
        names = wanted.get(path.parent.name, set()) if path.name == "__init__.py" else set()
        if not names or "*" in names:
            continue
        try:
            init = ast.parse(read_text_limited(path, _MAX_BYTES, errors="replace"))
        except (OSError, SyntaxError, ValueError):
            continue
        for node in init.body:
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module \
                    and any((a.asname or a.name) in names for a in node.names):
                cand = path.parent / (node.module.replace(".", "/") + ".py")
                if cand.is_file() and cand not in out:
                    out.append(cand)
    return out[:_MAX_MODULES + 4]


def _helper_built(project: Project, script: ParsedPython, entry: ScriptIndex, here: Path,
                  root: Any) -> list[tuple[ParsedPython, ScriptIndex]]:
    from preflight.adapters.training_args_helper import helper_module

    if not _TRAINS.search(script.source.text) or not isinstance(script.tree, ast.Module):
        return []
    loaded = [(path, parsed) for path in _imported_local(script.tree, here)[:_MAX_MODULES]
              for parsed in [_load(project, path, root)] if parsed is not None]
    path = helper_module(script.tree, script.source.text, [(p, m.tree) for p, m in loaded])
    if path is None:
        return []
    parsed = next(m for p, m in loaded if p == path)
    idx = ScriptIndex(parsed)
    idx.options = entry.options
    return [(parsed, idx)]


def _load(project: Project, path: Path, root: Any) -> Any:
    if not project.may_read(path):
        return None
    try:
        if path.stat().st_size > _MAX_BYTES:
            return None
    except OSError:
        return None
    shown = str(path.relative_to(root)) if root is not None and path.is_relative_to(root) else str(path)
    source = read_source(path, shown, "python")
    if not isinstance(source, SourceText):
        return None
    parsed = parse_python(source)
    return parsed if isinstance(parsed, ParsedPython) and isinstance(parsed.tree, ast.Module) else None


@register_adapter
class TransformersLocalAdapter(TransformersAdapter):
    name = "transformers_local"
    frameworks = ("transformers",)

    def detect(self, project: Project) -> bool:
        found = _modules(project)
        project.cache[f"{self.name}.modules"] = found
        return bool(found)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        found = project.cache.pop(f"{self.name}.modules", None)
        for parsed, idx in found if isinstance(found, list) else _modules(project):
            _ScriptPass(self, project, plan, idx).run()
            self._checkpointing(project, plan, parsed, idx)

    def _checkpointing(self, project: Project, plan: TrainingPlan, parsed: ParsedPython, idx: ScriptIndex) -> None:
        """``model.gradient_checkpointing_enable()`` or PEFT's ``prepare_model_for_kbit_training(model)``
        (``use_gradient_checkpointing=True`` by default) in the module: checkpointing on, above the
        TrainingArguments default (the entry script's own pass has the pytorch adapter for this)."""
        for site in idx.calls:
            if idx.runs(site) is False:
                continue
            off = site.kwarg("use_gradient_checkpointing")
            if site.last == "gradient_checkpointing_enable" or (
                    site.last == "prepare_model_for_kbit_training"
                    and (off is None or (isinstance(off, ast.Constant) and off.value is True))):
                self.add_checked(plan, "memory.gradient_checkpointing", True,
                                 project.source(parsed, site.call, detail=f"{site.label}(): activation checkpointing "
                                                                          "on the model the Trainer trains"), "medium")
                return

    def add_checked(self, plan: TrainingPlan, field: str, value: Any, source: Source,
                    confidence: str = "high", priority: int = 0) -> bool:
        return super().add_checked(plan, field, value, source, "medium" if confidence == "high" else confidence,
                                   priority)
