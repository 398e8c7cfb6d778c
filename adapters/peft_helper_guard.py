"""LoRA built by a project helper that a configuration value guards (used by
:mod:`preflight.adapters.config_object_reads`).

allenai/olmocr ``olmocr/train/train.py`` at f7cfe4c: ``def prepare_lora_model(model, model_cfg)``
builds ``LoraConfig(**lora_kwargs)`` and ``get_peft_model``; ``main`` calls it only under
``if config.model.use_lora:``, and the job's YAML says ``use_lora: false``. The guard reading of
:mod:`preflight.adapters.hydra_reads` looks for ``LoraConfig`` in the guarded statements
themselves and misses the helper; and one guard decided false is not enough to say "no PEFT"
when LoRA may be built elsewhere. Here it is: every LoRA construct of the modules read lies
in helpers that are called only in the bodies of guards the configuration decides false.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

_PEFT = ("LoraConfig", "get_peft_model")


def _name(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _peft_calls(node: ast.AST) -> list[ast.Call]:
    return [c for c in ast.walk(node) if isinstance(c, ast.Call) and _name(c) in _PEFT]


def _helpers(modules: Any) -> dict[str, ast.FunctionDef]:
    """Module-level functions, defined once in the modules read, that build a LoRA construct."""
    found: dict[str, ast.FunctionDef] = {}
    for name, defs in modules.functions.items():
        if len(defs) == 1 and defs[0][2] is None and _peft_calls(defs[0][1]):
            found[name] = defs[0][1]
    return found


def _called(stmts: list[ast.stmt], names: set[str]) -> list[ast.Call]:
    return [c for s in stmts for c in ast.walk(s)
            if isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id in names]


class HelperGuards:
    """The ``if`` statements whose body calls a LoRA-building helper, with their decided value."""

    def __init__(self, modules: Any) -> None:
        self.modules = modules
        self.helpers = _helpers(modules) if modules is not None else {}
        self.seen: list[tuple[bool, tuple, int, list[ast.Call]]] = []

    def visit(self, node: ast.If, reader: Any) -> None:
        if not self.helpers:
            return
        calls = _called(node.body, set(self.helpers))
        if not calls or _called(node.orelse, set(self.helpers)) or _peft_calls(node.test):
            return
        decided = reader.test(node.test)
        if decided is None:
            return
        path = next((p for p in map(reader.chain, ast.walk(node.test)) if p is not None), None)  # the whole key
        if path is not None:
            self.seen.append((decided, path, node.lineno, calls))

    def dead(self) -> Optional[tuple[tuple, int, str]]:
        """(key path, line, helper names) when every guard found is decided false on one key and every
        LoRA construct of the modules read sits in a helper called only inside those guards."""
        if not self.seen or any(decided for decided, *_ in self.seen) or len({s[1] for s in self.seen}) != 1:
            return None
        guarded = {id(c) for s in self.seen for c in s[3]}
        names = {c.func.id for s in self.seen for c in s[3] if isinstance(c.func, ast.Name)}
        inside = {id(c) for name in names for c in _peft_calls(self.helpers[name])}
        for _, _, tree in self.modules.trees:
            if any(id(c) not in inside for c in _peft_calls(tree)):
                return None  # LoRA built somewhere else too
            if any(id(c) not in guarded for c in _called(tree.body, names)):
                return None  # the helper called outside the guards as well
        _, path, line, _ = self.seen[0]
        return path, line, ", ".join(sorted(names))
