"""The sections of a LightningCLI config that are a class's ``__init__`` arguments, and what those classes do with
them (a part of :mod:`preflight.adapters.lightning_cli_data`): a ``class_path``/``init_args`` section, or the
``model:``/``data:`` section of a class the ``LightningCLI(Model, DataModule)`` call fixes (snucmlrl/vi_latent_action
@ a35a992); the train loader of a base class in the same file; a literal a subclass sets after ``super().__init__``;
an ``OptimizerCallable`` given as ``class_path: torch.optim.X``. Nothing is imported or instantiated.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Project
from preflight.analysis.syntax import dotted_name


def method(cls: ast.ClassDef, name: str) -> Optional[ast.FunctionDef]:
    """The class's own method ``name`` when it defines it once."""
    found = [n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == name]
    return found[0] if len(found) == 1 else None


def _self_attr(node: Any) -> Optional[str]:
    return node.attr if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
        and node.value.id == "self" else None


def _class_section(data: Any, name: str = "data") -> Optional[dict]:
    sec = data.get(name) if isinstance(data, dict) else None
    if isinstance(sec, dict) and isinstance(sec.get("class_path"), str) and isinstance(sec.get("init_args"), dict):
        return sec
    return None


def fixed_classes(project: Project) -> dict[str, str]:
    """``{"model": dotted path, "data": dotted path}`` of the classes a script's one ``LightningCLI(Model,
    DataModule, ...)`` fixes (positionally or as ``model_class=`` / ``datamodule_class=``), each a name the
    script imports from a module (snucmlrl/vi_latent_action @ a35a992 ``latent_action_model/main.py:1-9``:
    ``LightningCLI(DINO_LAM, LightningOpenX, seed_everything_default=42)``). A class fixed this way takes the
    config's ``model:`` / ``data:`` section itself as its ``__init__`` arguments (no ``class_path``)."""
    out: dict[str, str] = {}
    calls = 0
    for script in project.scripts:
        if "LightningCLI" not in script.source.text or script.tree is None:
            continue
        imported = {a.asname or a.name: f"{n.module}.{a.name}" for n in ast.walk(script.tree)
                    if isinstance(n, ast.ImportFrom) and n.module and not n.level for a in n.names}
        for node in ast.walk(script.tree):
            if not isinstance(node, ast.Call) or (dotted_name(node.func) or "").rsplit(".", 1)[-1] != "LightningCLI":
                continue
            calls += 1
            given = dict(zip(("model", "data"), node.args[:2]))
            given.update({"model" if k.arg == "model_class" else "data": k.value for k in node.keywords
                          if k.arg in ("model_class", "datamodule_class")})
            for name, expr in given.items():
                if isinstance(expr, ast.Name) and expr.id in imported:
                    out[name] = imported[expr.id]
    return out if calls == 1 else {}


def _cli_section(data: Any, fixed: dict[str, str], name: str) -> Optional[tuple[dict, tuple[str, ...], tuple[str, ...]]]:
    """``(section as {class_path, init_args}, key path of its init arguments, key path of its class)``: a
    ``class_path``/``init_args`` section, or the section of a class the LightningCLI call fixes."""
    sec = _class_section(data, name)
    if sec is not None:
        return sec, (name, "init_args"), (name, "class_path")
    raw = data.get(name) if isinstance(data, dict) else None
    if name in fixed and isinstance(raw, dict) and "class_path" not in raw and "init_args" not in raw:
        return {"class_path": fixed[name], "init_args": raw}, (name,), (name,)
    return None


def _same_file_base(path: Path, cls: ast.ClassDef) -> Optional[ast.ClassDef]:
    """The one base class of ``cls`` defined once in the same file (by its plain name)."""
    names = [b.id for b in cls.bases if isinstance(b, ast.Name)]
    if len(names) != 1:
        return None
    from preflight.adapters.target_params_data import parse_file

    try:
        tree = parse_file(path, 2_000_000)
    except (OSError, ValueError, SyntaxError, RecursionError, MemoryError):
        return None
    found = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == names[0]]
    return found[0] if len(found) == 1 else None


def _kept_constant(cls: ast.ClassDef, node: ast.expr) -> Optional[ast.Constant]:
    """The literal ``__init__`` sets ``self.<a>`` to, once in the class, after any ``super().__init__(...)``
    (``self.num_workers = 0`` after ``super(LightningOpenX, self).__init__(**kwargs)``: the subclass's value
    wins over the base's)."""
    attr = _self_attr(node)
    init = method(cls, "__init__")
    if attr is None or init is None:
        return None
    stores = [n for n in ast.walk(cls) if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign))
              and any(_self_attr(t) == attr for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))]
    if len(stores) != 1 or not isinstance(stores[0], ast.Assign) or not isinstance(stores[0].value, ast.Constant) \
            or stores[0] not in init.body:
        return None
    supers = [i for i, s in enumerate(init.body) if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)
              and isinstance(s.value.func, ast.Attribute) and s.value.func.attr == "__init__"]
    if any(i > init.body.index(stores[0]) for i in supers):
        return None
    return stores[0].value


def _called_init_optimizer(cls: ast.ClassDef, hook: ast.FunctionDef, init_args: dict) -> Optional[tuple[str, str]]:
    """``(init argument, torch.optim class)`` when ``configure_optimizers`` calls ``self.<a>(...)``, ``__init__``
    stores its parameter ``a`` as ``self.<a>``, and the section gives ``a`` as ``{class_path: torch.optim.X}``."""
    init = method(cls, "__init__")
    if init is None:
        return None
    params = {a.arg for a in [*init.args.args, *init.args.kwonlyargs]}
    stored = {t.attr: n.value.id for n in ast.walk(init) if isinstance(n, ast.Assign) and len(n.targets) == 1
              for t in n.targets if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
              and t.value.id == "self" and isinstance(n.value, ast.Name) and n.value.id in params}
    called = {n.func.attr for n in ast.walk(hook) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
              and isinstance(n.func.value, ast.Name) and n.func.value.id == "self" and n.func.attr in stored}
    if len(called) != 1:
        return None
    key = stored[next(iter(called))]
    given = init_args.get(key)
    path = given.get("class_path") if isinstance(given, dict) else None
    if isinstance(path, str) and path.startswith("torch.optim.") and path.count(".") == 2 \
            and path.rsplit(".", 1)[-1][:1].isupper():
        return key, path.rsplit(".", 1)[-1]
    return None
