"""Hydra config sections a script hands to its own classes: ``TrainerConfig(**cfg['trainer_config'])``
(pytorch/examples' minGPT-DDP). The script's ``Name(**cfg[key])`` / ``Name(**cfg.key)`` calls say
which section configures what; the section's keys then give the plan's facts by their names:
``batch_size`` (per process: a ``DataLoader`` batch), ``block_size``/``seq_len``/``max_seq_len``,
``num_workers``/``data_loader_workers``, ``use_amp`` (with the ``autocast`` dtype of the local
code that reads it), and a GPT-shaped section (``n_layer``, ``n_embd``) a parameter count of
``12*n_layer*n_embd^2`` plus position embeddings. The vocabulary embedding is counted only when
the vocabulary size is a literal of the section; where the code sets it from the data
(``gpt_cfg.vocab_size = dataset.vocab_size``) it is left out and the detail says so (low).
Nothing is imported or executed; all facts are ``medium`` at most.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any, Callable, Optional

from preflight.sources import read_text_limited

_BATCH = ("batch_size",)
_SEQ = ("block_size", "seq_len", "max_seq_len", "seq_length", "max_seq_length")
_WORKERS = ("num_workers", "data_loader_workers", "dataloader_workers")
_AMP = ("use_amp", "amp")


def handed_sections(tree: ast.AST) -> dict[str, tuple[str, int]]:
    """section key -> (class name, line) for each ``Name(**cfg['key'])`` / ``Name(**cfg.key)``."""
    out: dict[str, tuple[str, int]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, (ast.Name, ast.Attribute)):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
        for kw in node.keywords:
            if kw.arg is not None:
                continue
            v = kw.value
            key = None
            if isinstance(v, ast.Subscript) and isinstance(v.slice, ast.Constant) and isinstance(v.slice.value, str):
                key = v.slice.value
            elif isinstance(v, ast.Attribute) and isinstance(v.value, ast.Name):
                key = v.attr
            if key:
                out.setdefault(key, (name, node.lineno))
    return out


def _amp_dtype(root: Path, key: str) -> Optional[tuple[str, str]]:
    """(mode, file:line) of an ``autocast(... dtype=torch.float16/bfloat16 ...)`` line of a local
    module that reads ``key``."""
    pattern = re.compile(r"autocast\([^\n]*\b" + re.escape(key) + r"\b")
    for path in sorted(root.glob("*.py"))[:200]:
        try:
            text = read_text_limited(path, errors="replace")
        except OSError:
            continue
        for m in pattern.finditer(text):
            line_text = text[text.rfind("\n", 0, m.start()) + 1:text.find("\n", m.end())]
            mode = "amp_bf16" if "bfloat16" in line_text else "amp_fp16" if "float16" in line_text else None
            if mode:
                return mode, f"{path.name}:{text.count(chr(10), 0, m.start()) + 1}"
    return None


def _int(v: Any) -> Optional[int]:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def section_facts(script_tree: ast.AST, script_dir: Path, script_display: str, value: Callable[[tuple], Any],
                  add: Callable[..., None]) -> None:
    """Add the facts of each handed section; ``value(path)`` reads the composed config,
    ``add(field, value, path, detail, confidence)`` writes the fact."""
    handed = handed_sections(script_tree)
    seq: Optional[int] = None
    gpt: Optional[tuple[str, dict]] = None
    for key, (cls, line) in sorted(handed.items()):
        section = value((key,))
        if not isinstance(section, dict):
            continue
        how = f"{script_display}:{line} {cls}(**cfg[{key!r}])"
        for k in section:
            v = value((key, k))
            if k in _BATCH and _int(v):
                add("batch.micro", v, (key, k), f"{key}.{k} handed to {how} (per process)", "medium")
            elif k in _SEQ and _int(v):
                seq = v
                add("data.seq_len", v, (key, k), f"{key}.{k} handed to {how}", "medium")
            elif k in _WORKERS and _int(v) is not None:
                add("data.num_workers", v, (key, k), f"{key}.{k} handed to {how}", "medium")
            elif k in _AMP and v is True:
                found = _amp_dtype(script_dir, k)
                if found:
                    add("precision.mode", found[0], (key, k), f"{key}.{k} handed to {how}; autocast at {found[1]}",
                        "medium")
        if _int(section.get("n_layer")) and _int(section.get("n_embd")):
            gpt = (key, section)
    if gpt is not None:
        key, section = gpt
        layers, embd = section["n_layer"], section["n_embd"]
        block = _int(section.get("block_size")) or seq or 1024
        vocab = _int(section.get("vocab_size"))
        count = 12 * layers * embd ** 2 + block * embd + (vocab * embd if vocab else 0)
        detail = (f"12*n_layer*n_embd^2 + block*n_embd with n_layer={layers}, n_embd={embd}, block={block}"
                  + (f" + vocab {vocab}*n_embd" if vocab else
                     "; the vocabulary embedding (vocab*n_embd) is not counted: its size is set in code or "
                     "from the data, unknown statically"))
        add("model.num_parameters", count, (key, "n_layer"), detail, "medium" if vocab else "low")
