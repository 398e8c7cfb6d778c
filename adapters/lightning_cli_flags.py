"""The optimizer and the data module of a ``LightningCLI`` job, read from its flags and config files (after
:mod:`preflight.adapters.lightning_cli` read its Trainer; nothing imported or executed).

LightningCLI adds ``--optimizer`` (a ``torch.optim`` class by name or ``class_path``) and, when a data module
is not fixed, ``--data`` (a ``LightningDataModule`` subclass by name or ``class_path``); ``--data.KEY=VALUE``
(``--data.init_args.KEY``) and a config's ``data:`` section (``init_args:``) are that class's ``__init__``
arguments. krasserm/perceiver-io @ 46c6325 ``examples/training/img_clf/train.sh``: ``--data=MNISTDataModule
--data.batch_size=128 --optimizer=AdamW``; ``perceiver/data/vision/mnist.py:17-70`` ``MNISTDataModule.__init__
(..., batch_size=64, num_workers=3, pin_memory=True, ...)`` with ``self.save_hyperparameters()`` and
``train_dataloader()`` returning ``DataLoader(..., batch_size=self.hparams.batch_size, num_workers=
self.hparams.num_workers, pin_memory=self.hparams.pin_memory)``.

Read: the optimizer's class name (``optimizer.name``, medium: LightningCLI's ``configure_optimizers`` replaces
the model's when ``--optimizer`` is given); the data module's training loader keywords ``batch_size``,
``num_workers`` and ``pin_memory`` when each is a literal, ``self.hparams.K`` (after ``save_hyperparameters()``)
or ``self.K`` set once from the parameter ``K`` in ``__init__``: the flag's or config's value, else the
parameter's literal default (medium). A data module class found in no file of the project, or in more than one,
is not read; so is a loader built with ``**kwargs``.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any, Optional

from preflight.plan import Source
from preflight.sources import read_text_limited

_LOADER_KEYS = (("batch_size", "batch.micro", int), ("num_workers", "data.num_workers", int),
                ("pin_memory", "data.pin_memory", bool))
_SKIP_DIRS = {"node_modules", "site-packages", "build", "dist", "venv", "__pycache__"}
_MAX_FILES = 3000


def _flag(argv: list[str], name: str) -> list[tuple[str, str]]:
    """(sub-key, raw value) of ``--NAME=V`` ('' sub-key) and ``--NAME.KEY=V`` flags, in order."""
    out: list[tuple[str, str]] = []
    for i, tok in enumerate(argv):
        flag, eq, val = tok.partition("=")
        if flag != f"--{name}" and not flag.startswith(f"--{name}."):
            continue
        if not eq:
            if i + 1 >= len(argv) or argv[i + 1].startswith("--"):
                continue
            val = argv[i + 1]
        out.append((flag[len(name) + 3:], val))
    return out


def _value(raw: str) -> Any:
    low = raw.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    if low.lstrip("-").isdigit():
        return int(low)
    return raw


def _section(argv: list[str], loaded: list[tuple[Any, Optional[str]]], name: str
             ) -> tuple[Optional[tuple[str, str]], dict[str, tuple[Any, str, Optional[int], str]]]:
    """The class (name, where) and the init arguments (value, kind, line, where) a section gets."""
    klass: Optional[tuple[str, str]] = None
    args: dict[str, tuple[Any, str, Optional[int], str]] = {}
    for config, shown in loaded:
        section = config.data.get(name) if isinstance(config.data, dict) else None
        where = shown or str(config.path)
        if isinstance(section, str):
            klass, args = (section, where), {}
        elif isinstance(section, dict):
            if isinstance(section.get("class_path"), str):
                klass, args = (section["class_path"], where), {}
            inner = section.get("init_args") if "class_path" in section else section
            for key, value in (inner or {}).items() if isinstance(inner, dict) else ():
                line = config.line_of((name, "init_args", key) if "class_path" in section else (name, key),
                                      nearest=True)
                args[str(key)] = (value, "config", line, where)
    for sub, raw in _flag(argv, name):
        if sub in ("", "class_path"):
            klass, args = (raw, f"--{name}{'.' + sub if sub else ''} {raw}"), {}
        else:
            key = sub[len("init_args."):] if sub.startswith("init_args.") else sub
            args[key] = (_value(raw), "cli", None, f"--{name}.{sub}")
    return klass, args


def _find_class(root: Path, name: str) -> Optional[tuple[ast.ClassDef, Path]]:
    from preflight.local_trees import parse_file

    needle = f"class {name}("
    hits: list[Path] = []
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS]
        for f in files:
            if not f.endswith(".py"):
                continue
            seen += 1
            if seen > _MAX_FILES:
                return None
            path = Path(folder) / f
            try:
                if path.stat().st_size < 1_000_000 and needle in read_text_limited(path, errors="replace"):
                    hits.append(path)
            except OSError:  # InputRefused included
                continue
    if len(hits) != 1:
        return None
    try:
        tree = parse_file(hits[0])
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name]
    return (classes[0], hits[0]) if len(classes) == 1 else None


def _method(cls: ast.ClassDef, name: str) -> Optional[ast.FunctionDef]:
    return next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == name), None)


def _param_of(expr: ast.expr, init: ast.FunctionDef) -> Optional[str]:
    """The ``__init__`` parameter a loader keyword reads: ``self.hparams.K`` / ``self.hparams["K"]`` after
    ``self.save_hyperparameters()``, or ``self.K`` assigned once from the parameter ``K``."""
    params = {a.arg for a in init.args.args + init.args.kwonlyargs}
    saves = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "save_hyperparameters"
                and not n.args for n in ast.walk(init))
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Attribute) and expr.value.attr == "hparams" \
            and isinstance(expr.value.value, ast.Name) and expr.value.value.id == "self":
        return expr.attr if saves and expr.attr in params else None
    if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Attribute) and expr.value.attr == "hparams" \
            and isinstance(expr.slice, ast.Constant) and isinstance(expr.slice.value, str):
        return expr.slice.value if saves and expr.slice.value in params else None
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "self":
        stores = [n for n in ast.walk(init) if isinstance(n, ast.Assign) and any(
            isinstance(t, ast.Attribute) and t.attr == expr.attr and isinstance(t.value, ast.Name)
            and t.value.id == "self" for t in n.targets)]
        if len(stores) == 1 and isinstance(stores[0].value, ast.Name) and stores[0].value.id in params:
            return stores[0].value.id
    return None


def _defaults(init: ast.FunctionDef) -> dict[str, ast.expr]:
    args = init.args
    out = dict(zip([a.arg for a in args.args][len(args.args) - len(args.defaults):], args.defaults))
    out.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
    return out


def _loader(cls: ast.ClassDef) -> Optional[ast.Call]:
    method = _method(cls, "train_dataloader")
    if method is None:
        return None
    calls = [n for n in ast.walk(method) if isinstance(n, ast.Call) and
             (getattr(n.func, "id", None) or getattr(n.func, "attr", None)) == "DataLoader"]
    return calls[0] if len(calls) == 1 and all(k.arg is not None for k in calls[0].keywords) else None


def cli_sections(pass_: Any, site: Any, argv: list[str], loaded: list[tuple[Any, Optional[str]]]) -> None:
    """Write the optimizer and the data module's loader facts of the LightningCLI at ``site``."""
    optim, _ = _section(argv, loaded, "optimizer")
    if optim is not None:
        name = optim[0].rsplit(".", 1)[-1]
        if name[:1].isupper():
            flag = optim[1].startswith("--")
            pass_.add("optimizer.name", name, Source("cli" if flag else "config", None if flag else optim[1], None,
                                                     optim[1].split(" ")[0] if flag else "optimizer",
                                                     f"{optim[1]}: LightningCLI builds this optimizer and its "
                                                     "configure_optimizers replaces the model's"), "medium")
    klass, args = _section(argv, loaded, "data")
    if klass is None or pass_.project.root is None:
        return
    found = _find_class(Path(str(pass_.project.root)), klass[0].rsplit(".", 1)[-1])
    if found is None:
        return
    cls, path = found
    init, call = _method(cls, "__init__"), _loader(cls)
    if init is None or call is None:
        return
    try:
        shown = str(path.resolve().relative_to(Path(str(pass_.project.root)).resolve()))
    except (ValueError, OSError):
        shown = str(path)
    defaults = _defaults(init)
    for key, field, kind in _LOADER_KEYS:
        expr = next((k.value for k in call.keywords if k.arg == key), None)
        if expr is None:
            continue
        what = f"{klass[0]} ({klass[1]}): {cls.name}.train_dataloader()'s DataLoader({key}=...) ({shown}:{call.lineno})"
        source: Optional[Source] = None
        value: Any = None
        if isinstance(expr, ast.Constant):
            value, source = expr.value, Source("code", shown, expr.lineno, None, what)
        else:
            param = _param_of(expr, init)
            if param is None:
                continue
            if param in args:
                value, how, line, where = args[param]
                source = Source(how, None if how == "cli" else where, line, where if how == "cli" else
                                f"data.{param}", f"{what}, {param} from {where}")
            elif param in defaults and isinstance(defaults[param], ast.Constant):
                value = defaults[param].value  # type: ignore[attr-defined]
                source = Source("code", shown, defaults[param].lineno, None,
                                f"{what}, {param} not given: {cls.name}.__init__'s default")
        if source is None or not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            continue
        pass_.add(field, value, source, "medium")
