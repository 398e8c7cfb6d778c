"""Data parallelism set up in a local module the training script imports: pytorch/examples'
minGPT-DDP wraps the model in ``DistributedDataParallel`` inside ``trainer.py``'s ``Trainer``,
which ``main.py`` imports (``from trainer import Trainer``). The entry script's own pass sees
no wrapper; this reads (never imports) the local modules it imports, one level, beside the
script, and where one constructs ``torch.nn.parallel.DistributedDataParallel`` (by any import
alias) says ``dist.sharding = ddp`` (medium: the class is used by the script, the call site is
in the module). FSDP or DeepSpeed anywhere in the job take precedence through their own facts.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Optional

from preflight.sources import read_text_limited

_DDP = "torch.nn.parallel.DistributedDataParallel"
_MAX_BYTES = 500_000


def _imported_local(tree: ast.AST, here: Path) -> list[Path]:
    out: list[Path] = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            rel = name.replace(".", "/")
            for cand in (here / f"{rel}.py", here / rel / "__init__.py"):
                if cand.is_file() and cand not in out:
                    out.append(cand)
    return out


def _ddp_call(tree: ast.AST) -> Optional[int]:
    """Line of a ``DistributedDataParallel(...)`` construction, by its imported name."""
    aliases: set[str] = set()
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in ("torch.nn.parallel", "torch.nn"):
            for a in node.names:
                if a.name == "DistributedDataParallel":
                    aliases.add(a.asname or a.name)
                elif a.name == "parallel":
                    modules.add((a.asname or a.name) + ".DistributedDataParallel")
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name in ("torch", "torch.nn", "torch.nn.parallel") and a.asname is None:
                    modules.add(_DDP)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name) and f.id in aliases:
            return node.lineno
        if isinstance(f, ast.Attribute):
            text = ast.unparse(f) if hasattr(ast, "unparse") else ""
            if text in modules or text == _DDP:
                return node.lineno
    return None


def ddp_in_local_modules(script_path: Path, tree: ast.AST) -> Optional[tuple[Path, int]]:
    """(module, line) of a DDP wrapper in a local module the script imports, or None."""
    for path in _imported_local(tree, script_path.resolve().parent):
        try:
            if path.stat().st_size > _MAX_BYTES:
                continue
            sub = ast.parse(read_text_limited(path, errors="replace"))
        except (OSError, SyntaxError, ValueError):
            continue
        line = _ddp_call(sub)
        if line is not None:
            return path, line
    return None


_PEFT_WORDS = re.compile(r"\bpeft\b|lora|get_peft_model|PeftModel|adapter", re.I)


def names_peft(text: str, tree: ast.AST, script_path: Optional[Path]) -> bool:
    """Whether a script (its ``text``) or a local module it imports (beside it, one level) names
    PEFT/LoRA at all. A path that is not a file cannot be looked into further: True (claim nothing)."""
    if _PEFT_WORDS.search(text):
        return True
    if script_path is None or not script_path.is_file():
        return True
    for local in _imported_local(tree, script_path.resolve().parent)[:12]:
        try:
            if _PEFT_WORDS.search(read_text_limited(local, errors="replace")):
                return True
        except (OSError, ValueError):
            return True
    return False
