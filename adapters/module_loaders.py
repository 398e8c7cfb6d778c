"""``pin_memory`` and ``num_workers`` of the DataLoaders a job's local modules build, when the script
builds none itself.

Many projects build their training loader in a module of their own, and the settings a user never
sees on the launch line are literals there: PixArt-alpha/PixArt-sigma @ 1ce521a
``diffusion/data/builder.py:47-55`` ``build_dataloader`` (both arms ``DataLoader(..., pin_memory=True)``),
Stability-AI/stable-audio-tools @ 50049e3 ``stable_audio_tools/data/dataset.py:852-903`` (every arm of
``create_dataloader_from_config``), bytedance/SALMONN @ a58bba7 ``utils.py:51-55`` (called from
``runner.py``, not from the script), mit-han-lab/efficientvit @ de7d773
``efficientvit/diffusioncore/data_provider/base.py:56-61`` (a method), openai/improved-diffusion @ 1bc7bbb
``improved_diffusion/image_datasets.py:45-51`` (``num_workers=1`` in both arms), thuml/Time-Series-Library
``data_provider/data_factory.py:80-85`` (no ``pin_memory``: the DataLoader default False).

Read (never imported): the local modules the script imports (:func:`preflight.adapters.pytorch_local._imported_up`,
three imports deep, at most 60 files). Each ``torch.utils.data.DataLoader(...)`` there that can run counts: one at module
level, or in a function some file of the job calls (a method counts when its name is called, an
``__init__`` when its class is, a LightningModule or LightningDataModule hook always: :mod:`preflight.adapters.implicit_calls`), outside a module's ``if __name__ == "__main__":`` demo, and neither
bound to nor built in something named for evaluation (``val``/``eval``/``test``). When every such
loader gives ``pin_memory`` the same literal (a loader that leaves it out gives the default False),
that is ``data.pin_memory``; likewise ``num_workers`` (left out: 0). One loader with another value, a
value that is not a literal, or a ``**kwargs``/``*args`` that may carry it: nothing is written.
Medium, priority -1: a fallback that any other reading outranks, written only where no adapter set
the field, and only when the script itself builds no ``DataLoader`` and no transformers/TRL
``Trainer`` (whose loader is the library's) is named in the code read.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.import_names import import_names

from preflight.adapters_api import Adapter, Project
from preflight.analysis.syntax import dotted_name
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_EVAL_NAME = re.compile(r"val|eval|test", re.I)
_MAX_BYTES = 500_000
# kohya-ss/musubi-tuner @ 30c658c: the loader is in training/trainer_base.py, the 25th-60th module the
# script's imports reach (the optimizer reader's 24 stop short of it)
_MAX_MODULES = 60
# the places of ``num_workers`` and ``pin_memory`` among DataLoader's positional parameters
_POSITION = {"num_workers": 5, "pin_memory": 7}
_DEFAULT = {"num_workers": 0, "pin_memory": False}
_HOOKS = ("train_dataloader", "setup", "prepare_data")
_CACHE = "module_loaders.found"


def _imports(tree: ast.AST) -> dict[str, str]:
    return import_names(ast.walk(tree))


def _hf_trainer(tree: ast.AST) -> bool:
    """The code imports a transformers/TRL trainer or its arguments: the training loader is the library's."""
    if any(q.split(".")[0] in ("transformers", "trl") and q.rsplit(".", 1)[-1].endswith(("Trainer", "Arguments"))
           for q in _imports(tree).values()):
        return True
    return any(isinstance(n, ast.Attribute) and n.attr.endswith(("Trainer", "TrainingArguments"))
               and isinstance(n.value, ast.Name) and n.value.id in ("transformers", "trl") for n in ast.walk(tree))


def _is_loader(call: ast.Call, imports: dict[str, str]) -> bool:
    name = dotted_name(call.func) or ""
    head, _, rest = name.partition(".")
    qualified = imports.get(head, head) + (f".{rest}" if rest else "")
    return qualified in ("torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader")


def _called(tree: ast.AST) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            out.add(f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else "")
    return out


class _Place:
    """Where a call sits: the innermost function, and the name its value is bound to."""

    def __init__(self) -> None:
        self.function: dict[int, ast.AST] = {}
        self.target: dict[int, str] = {}

    def walk(self, node: ast.AST, fn: Optional[ast.AST]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.walk(child, child)
                continue
            if isinstance(child, ast.ClassDef):
                self.walk(child, None)
                continue
            if isinstance(child, ast.Assign) and isinstance(child.value, ast.Call):
                self.target[id(child.value)] = " ".join(dotted_name(t) or "" for t in child.targets)
            if isinstance(child, ast.Call) and fn is not None:
                self.function[id(child)] = fn
            self.walk(child, fn)


def _reached(call: ast.Call, place: _Place, called: set[str], implicit: dict[int, str]) -> bool:
    fn = place.function.get(id(call))
    if fn is None:
        return True  # module-level code runs when the module is imported
    if _EVAL_NAME.search(getattr(fn, "name", "")):
        return False
    if id(call) in implicit:  # an ``__init__`` (its class built) or a Lightning hook (implicit_calls.py)
        return implicit[id(call)] in called
    return getattr(fn, "name", "") in called


def _value(call: ast.Call, kw: str) -> tuple[bool, Any]:
    """(known, value) of ``kw`` in the DataLoader call: a literal, or the default when left out. A keyword
    given by name is the value even beside a ``**kwargs`` (the dict cannot hold it again: Python refuses a
    keyword given twice); left out, a ``**kwargs``/``*args`` may carry it."""
    given = next((k.value for k in call.keywords if k.arg == kw), None)
    if given is None and (any(k.arg is None for k in call.keywords) or any(isinstance(a, ast.Starred)
                                                                          for a in call.args)):
        return False, None
    if given is None:
        if len(call.args) > _POSITION[kw]:
            given = call.args[_POSITION[kw]]
        else:
            return True, _DEFAULT[kw]
    if kw == "pin_memory" and isinstance(given, ast.Call) and not given.args and not given.keywords \
            and (dotted_name(given.func) or "") in ("torch.cuda.is_available", "cuda.is_available"):
        # ``pin_memory=torch.cuda.is_available()`` (NVlabs/FourCastNet ``utils/data_loader_multifiles.py:72``):
        # True on the CUDA machine the job is audited for
        return True, True
    if not isinstance(given, ast.Constant):
        return False, None
    value = given.value
    if kw == "pin_memory" and not isinstance(value, bool):
        return False, None
    if kw == "num_workers" and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
        return False, None
    return True, value


def module_loader_settings(project: Project) -> list[tuple[str, Any, Source]]:
    """(field, value, source) for ``data.pin_memory`` / ``data.num_workers`` from the loaders of the
    script's local modules (see the module docstring)."""
    if len(project.own_scripts()) != 1:
        return []
    script = project.scripts[0]
    if script.tree is None or script.source.path is None or "DataLoader(" in script.source.text:
        return []
    if _hf_trainer(script.tree):
        return []
    from preflight.adapters.implicit_calls import implicit_callers
    from preflight.adapters.module_main_block import main_block_nodes
    from preflight.adapters.pytorch_local import _imported_up

    from preflight.local_trees import parse_file

    root = Path(str(project.root)) if project.root else None
    trees: list[tuple[Path, ast.AST]] = []
    from preflight.adapters.taken_arms import taken_tree

    # the modules this launch imports: an ``if`` arm the launch line decides against imports none
    taken = taken_tree(project.index(script), script.tree)
    for path in _imported_up(taken, Path(str(script.source.path)).resolve().parent, root, limit=_MAX_MODULES):
        try:
            if path.stat().st_size > _MAX_BYTES:
                continue
            trees.append((path, parse_file(path)))
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            continue
    called = _called(script.tree).union(*(_called(t) for _p, t in trees))
    from preflight.adapters.implicit_calls import HOOK, hook_classes

    if sum(hook_classes(t, _HOOKS) for _p, t in trees) == 1:
        called.add(HOOK)  # one Lightning class with these hooks: Lightning calls that one
    loaders: list[tuple[Path, ast.Call]] = []
    for path, tree in trees:
        if _hf_trainer(tree):
            return []
        imports = _imports(tree)
        demo = main_block_nodes(tree)
        place = _Place()
        place.walk(tree, None)
        implicit = implicit_callers(tree, _HOOKS)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or id(node) in demo or not _is_loader(node, imports):
                continue
            if _EVAL_NAME.search(place.target.get(id(node), "")) or not _reached(node, place, called, implicit):
                continue
            loaders.append((path, node))
    if not loaders:
        return []
    out: list[tuple[str, Any, Source]] = []
    for kw in ("pin_memory", "num_workers"):
        values = [_value(call, kw) for _p, call in loaders]
        if not all(known for known, _v in values) or len({repr(v) for _k, v in values}) != 1:
            continue
        value = values[0][1]
        path, call = loaders[0]
        shown = os.path.relpath(path, root) if root is not None else path.name
        given = any(k.arg == kw for k in call.keywords) or len(call.args) > _POSITION[kw]
        how = f"{kw}={value!r}" if given else f"no {kw} (DataLoader default {value!r})"
        if given and any(isinstance(k.value, ast.Call) for _p, c in loaders for k in c.keywords if k.arg == kw):
            how = f"{kw}={value!r} (torch.cuda.is_available() is True on the CUDA machine the job is audited for)"
        detail = (f"the script builds no DataLoader; the {len(loaders)} DataLoader(...) its local modules build "
                  f"(first at {shown}:{call.lineno}) all give {how}")
        out.append((f"data.{kw}", value, Source("code" if given else "default", shown, call.lineno, None, detail)))
    return out


@register_adapter
class ModuleLoadersAdapter(Adapter):
    name = "visible_loaders"  # after the framework readers and loader_helper (adapters run by name)
    frameworks = ()

    def detect(self, project: Project) -> bool:
        found = module_loader_settings(project)
        project.cache[_CACHE] = found
        return bool(found)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        found = project.cache.pop(_CACHE, None)
        for field, value, source in found if isinstance(found, list) else module_loader_settings(project):
            if plan.value(field) is None:  # a fallback: any other reading of the field wins
                self.add_checked(plan, field, value, source, "medium", -1)
