"""A flash-attention monkey patch applied by the job: mbzuai-oryx/Video-ChatGPT @ 659e04b
``video_chatgpt/train/train_mem.py:2-4`` ``from video_chatgpt.train.llama_flash_attn_monkey_patch import
replace_llama_attn_with_flash_attn`` then ``replace_llama_attn_with_flash_attn()``, whose module imports
``flash_attn`` (``llama_flash_attn_monkey_patch.py:8-9``) and whose body sets
``transformers.models.llama.modeling_llama.LlamaAttention.forward = forward`` (``:97-99``). The same
file is in lm-sys/FastChat, LLaVA before 1.5, MobileVLM and their forks.

The patch function is read, never imported: a function of a module of the project (found from the
script's folder upward) that the script calls with every ``if`` around the call decided taken (so an
``if training_args.flash_attn:`` it cannot decide leaves it unread), whose module imports ``flash_attn``
and whose body assigns ``<...>.<Name>Attention.forward`` (or ``<...>Attention.forward``) as one of its
own statements (not under an ``if``/``try``). That is ``model.attn_implementation`` flash_attention_2
(medium: the patched class must be the trained model's, which is not checked).

A patch function of an installed library (FastChat's ``replace_llama_attn_with_flash_attn``, read once in
its repository; see ``_LIBRARY_PATCHES``) is known by its qualified name, with the same guards and not
inside a ``try`` body.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Optional

from preflight.adapters_api import Adapter, Project
from preflight.analysis.syntax import dotted_name
from preflight.local_trees import parse_file
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_MAX_BYTES = 500_000


def _imports_flash(tree: ast.Module) -> bool:
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "flash_attn":
            return True
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "flash_attn" for a in node.names):
            return True
    return False


def _patched(fn: ast.FunctionDef) -> Optional[tuple[int, str]]:
    """The line and target of ``<...>Attention.forward = ...`` among the function's own statements."""
    for stmt in fn.body:
        if not isinstance(stmt, ast.Assign):
            continue
        for target in stmt.targets:
            name = dotted_name(target) or ""
            head, _, attr = name.rpartition(".")
            if attr == "forward" and head.rsplit(".", 1)[-1].endswith("Attention"):
                return stmt.lineno, name
    return None


def flash_patch(script_path: Path, qualified: str) -> Optional[tuple[Path, int, str]]:
    """(module file, line, patched target) when ``qualified`` (``pkg.mod.fn``) is a local function that
    patches an attention class's ``forward`` in a module importing ``flash_attn``."""
    from preflight.script_parsers import _module_file

    module, _, name = qualified.rpartition(".")
    if not module or module.split(".")[0] in ("transformers", "torch", "flash_attn"):
        return None
    path = _module_file(script_path.parent, module)
    if path is None:
        return None
    try:
        if path.stat().st_size > _MAX_BYTES:
            return None
        tree = parse_file(path)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not _imports_flash(tree):
        return None
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
    if len(defs) != 1:
        return None
    found = _patched(defs[0])
    return None if found is None else (path, found[0], found[1])


@register_adapter
class AttentionPatchAdapter(Adapter):
    name = "attn_patch"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        """The reading is done here, so that an adapter that writes nothing is not named among those detected."""
        found = _find(project) if any("attn" in s.source.text and "flash" in s.source.text
                                      for s in project.scripts) else None
        project.cache[_CACHE] = found
        return found is not None

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        found = project.cache.pop(_CACHE, None)
        if found is not None:
            self.add_checked(plan, "model.attn_implementation", "flash_attention_2", found, "medium", 0)


_CACHE = "attn_patch.found"


def _find(project: Project) -> Optional[Source]:
    for script in project.scripts:
        if script.tree is None or script.source.path is None:
            continue
        idx = project.index(script)
        for site in idx.calls:
            if not isinstance(site.call.func, ast.Name) or idx.runs(site) is not True:
                continue
            qualified = idx.imports.get(site.call.func.id)
            if not qualified or "flash" not in qualified.lower():
                continue
            got = flash_patch(Path(str(script.source.path)), qualified)
            if got is None:
                known = _LIBRARY_PATCHES.get(qualified)
                if known is None or _under_try(script.tree, site.call):
                    continue
                detail = f"{site.label}(): {known} (a flash-attention monkey patch of an installed library)"
                return project.source(script, site.call, "code", detail=detail)
            path, line, target = got
            detail = (f"{site.label}(): {path.name}:{line} sets {target} to a function of a module that "
                      "imports flash_attn (a flash-attention monkey patch)")
            return project.source(script, site.call, "code", detail=detail)
    return None


# Patch functions of a pip library, not in the project, read once at lm-sys/FastChat @ 0e6d3e4b. Each imports
# flash_attn at module level and its body assigns ``LlamaAttention.forward`` unconditionally. Projects that
# vendor nothing and call them at import: OpenMOSS/AnyGPT ``anygpt/src/train/stage1_pretrain.py:5-8`` and
# FastChat's own ``fastchat/train/train_mem.py``, copied by many fine-tuning repositories.
_LIBRARY_PATCHES = {
    "fastchat.train.llama_flash_attn_monkey_patch.replace_llama_attn_with_flash_attn":
        "fastchat/train/llama_flash_attn_monkey_patch.py:97-107 (FastChat) sets "
        "transformers.models.llama.modeling_llama.LlamaAttention.forward to a flash_attn_varlen_qkvpacked_func forward",
    "fastchat.train.llama2_flash_attn_monkey_patch.replace_llama_attn_with_flash_attn":
        "fastchat/train/llama2_flash_attn_monkey_patch.py:132-141 (FastChat) sets LlamaAttention.forward to a "
        "flash_attn_func / flash_attn_varlen_kvpacked_func forward",
}


def _under_try(tree: ast.Module, call: ast.Call) -> bool:
    """Whether the call sits in a ``try`` body (``try: ...patch() except ImportError: pass`` runs the patch
    only where flash-attn is installed: lm-sys/FastChat forks write it so)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(n is call for stmt in node.body for n in ast.walk(stmt)):
            return True
    return False
