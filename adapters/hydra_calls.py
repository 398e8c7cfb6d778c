"""How the Hydra adapter recognises what a composed config is handed to in code: the app function's
first parameter, a trainer or arguments class built from a config section, and the device count a
launcher override gives."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.analysis.syntax import dotted_name

_TRAINER_HINTS = ("devices", "precision", "accelerator", "max_epochs", "num_nodes", "strategy",
                  "accumulate_grad_batches", "max_steps")


def _first_parameter(root: Path, target: str) -> Optional[str]:
    """The first parameter (after ``self``/``cls``) of ``pkg.mod.Class.method`` defined in the
    project, read from its source; None when it is not local."""
    from preflight.adapters.module_params import local_file

    from preflight.local_trees import parse_file

    owner, _, method = target.rpartition(".")
    module, _, cls = owner.rpartition(".")
    file = local_file(root, f"{module}.{cls}") if module else None
    if file is None:
        return None
    try:
        tree = parse_file(file)
    except (OSError, SyntaxError, ValueError, RecursionError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name == method:
                    params = [a.arg for a in (*item.args.posonlyargs, *item.args.args)]
                    static = any(dotted_name(d) == "staticmethod" for d in item.decorator_list)
                    if params and not static and params[0] in ("self", "cls"):
                        params = params[1:]
                    return params[0] if params else None
    return None


def _is_trainer(target: Any) -> bool:
    from preflight.validate_kinds import target_kind

    return target_kind(target) == "lightning-trainer"


def _is_args(target: Any) -> bool:
    from preflight.validate_kinds import target_kind

    return target_kind(target) in ("training-args", "sft-config")


def _trainer_like(node: dict[str, Any]) -> bool:
    return sum(1 for k in _TRAINER_HINTS if k in node) >= 2


def _args_like(node: dict[str, Any]) -> bool:
    return sum(1 for k in ("per_device_train_batch_size", "gradient_accumulation_steps", "learning_rate",
                           "num_train_epochs", "output_dir") if k in node) >= 2


def _device_count(value: Any) -> Optional[int]:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value > 0 else None
    if isinstance(value, str):
        text = value.strip()
        if text.isdigit():
            return int(text) if int(text) > 0 else None
        if "," in text:
            ids = [p for p in text.split(",") if p.strip()]
            return len(ids) if all(p.strip().isdigit() for p in ids) else None
        return None
    if isinstance(value, list) and value and all(_device_index(v) for v in value):
        # Lightning's ``devices=[i, j]`` names device indices: the list's length is the count even
        # where an index is an interpolation (NUS-HPC-AI-Lab/Neural-Network-Parameter-Diffusion
        # configs/system/ae_ddpm.yaml:59 ``devices: [${device.id}]``)
        return len(value)
    return None


def _device_index(value: Any) -> bool:
    """One device index: an int, a digit string, or a single ``${...}`` interpolation."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value >= 0
    if isinstance(value, str):
        text = value.strip()
        return text.isdigit() or (text.startswith("${") and text.endswith("}") and text.count("${") == 1)
    return False
