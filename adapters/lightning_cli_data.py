"""The training DataLoader of a ``LightningCLI`` data module and the optimizer LightningCLI builds, read from the
job's config sections and launch flags: one reader with two entry points (nothing imported or instantiated).

**The config's sections** (:class:`LightningCliDataAdapter`, a registered adapter). gemelo-ai/vocos @ c859e3b7
``train.py:5-6`` ``cli = LightningCLI(run=False)``, launched as ``python train.py -c configs/vocos.yaml``, whose
``configs/vocos.yaml:4-12``::

    data:
      class_path: vocos.dataset.VocosDataModule
      init_args:
        train_params:
          batch_size: 16
          num_workers: 8

and ``vocos/dataset.py:21-35``: ``__init__(self, train_params, val_params)`` keeps ``self.train_config =
train_params``; ``train_dataloader`` returns ``self._get_dataloder(self.train_config, train=True)``, whose
``DataLoader(dataset, batch_size=cfg.batch_size, num_workers=cfg.num_workers, shuffle=train, pin_memory=True)``.
LightningCLI (jsonargparse) builds the class with the section's ``init_args``, so the train loader takes
``batch_size`` 16 (per process), ``num_workers`` 8 and ``pin_memory`` True. The class is the one its
``class_path`` imports; a keyword left out is the DataLoader's default (``num_workers`` 0, ``pin_memory`` False)
unless the loader spreads ``**kwargs``; a launch line that sets anything under ``--data`` leaves it all to the
flags' reading. ``model: class_path``: the LightningModule's ``configure_optimizers`` building one
``torch.optim`` class.

**The flags** (:func:`cli_sections`, called by :mod:`preflight.adapters.lightning_cli` after it read the
Trainer). LightningCLI adds ``--optimizer`` (a ``torch.optim`` class by name or ``class_path``) and, when a data
module is not fixed, ``--data`` (a ``LightningDataModule`` subclass by name or ``class_path``);
``--data.KEY=VALUE`` (``--data.init_args.KEY``) and a loaded config's ``data:`` section are that class's
``__init__`` arguments. krasserm/perceiver-io @ 46c6325 ``examples/training/img_clf/train.sh``:
``--data=MNISTDataModule --data.batch_size=128 --optimizer=AdamW``; ``perceiver/data/vision/mnist.py:17-70``
``MNISTDataModule.__init__(..., batch_size=64, num_workers=3, pin_memory=True, ...)`` with
``self.save_hyperparameters()`` and ``train_dataloader()`` returning ``DataLoader(..., batch_size=
self.hparams.batch_size, ...)``. The class is the one class of that name in the project's files; a parameter
the flags and configs do not give is the ``__init__``'s literal default. ``optimizer.name`` is medium:
LightningCLI's ``configure_optimizers`` replaces the model's when ``--optimizer`` is given.

**The one reading both share** (:func:`train_loader`, :func:`init_key`, :func:`value_ok`): the class's
``train_dataloader`` building one ``DataLoader`` itself or returning ``self.<method>(...)`` that does (the
flags' entry: itself only); each keyword of that loader a literal, or an ``__init__`` argument (and a key
inside it; the flags' entry: the argument only): ``self.<a>`` / ``self.<a>.<key>`` / ``self.<a>[<key>]``, or
``<p>.<key>`` / ``<p>[<key>]`` of the method's parameter ``p`` handed ``self.<a>``, where ``__init__`` stores
one of its parameters as ``self.<a>`` (once in the class); or ``self.hparams.K`` / ``self.hparams["K"]``
after ``self.save_hyperparameters()``. Every fact is medium.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.lightning_cli_sections import (
    _called_init_optimizer,
    _cli_section,
    _kept_constant,
    _same_file_base,
    _self_attr,
    fixed_classes,
    method,
)

from preflight.adapters_api import Adapter, Project
from preflight.analysis.syntax import dotted_name
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter
from preflight.sources import read_text_limited

FIELDS = (("batch_size", "batch.micro"), ("num_workers", "data.num_workers"), ("pin_memory", "data.pin_memory"))
_DEFAULTS = {"num_workers": 0, "pin_memory": False}
_SKIP_DIRS = {"node_modules", "site-packages", "build", "dist", "venv", "__pycache__"}
_MAX_FILES = 3000


# --------------------------------------------------------------------------- the one reading of a data module


def _stored(cls: ast.ClassDef) -> dict[str, str]:
    """``self.<a> = <p>`` in ``__init__`` for a parameter ``p``, each ``self.<a>`` stored once: a -> p."""
    init = method(cls, "__init__")
    if init is None:
        return {}
    params = {a.arg for a in (*init.args.args, *init.args.kwonlyargs)}
    stores: dict[str, list[ast.expr]] = {}
    for node in ast.walk(cls):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                name = dotted_name(t) or ""
                if name.startswith("self.") and name.count(".") == 1 and node.value is not None:
                    stores.setdefault(name[5:], []).append(node.value)
    return {a: v[0].id for a, v in stores.items() if len(v) == 1 and isinstance(v[0], ast.Name) and v[0].id in params
            and any(isinstance(n, ast.Assign) and n.value is v[0] for n in ast.walk(init))}


def train_loader(cls: ast.ClassDef, through_helper: bool = True) -> Optional[tuple[ast.Call, dict[str, str]]]:
    """The train DataLoader call and what its method's parameters hold (param -> ``self`` attribute); with
    ``through_helper`` False, only a loader ``train_dataloader`` builds itself."""
    train = method(cls, "train_dataloader")
    if train is None:
        return None
    fn, bound = train, {}
    returns = [n for n in ast.walk(train) if isinstance(n, ast.Return)]
    if through_helper and len(returns) == 1 and isinstance(returns[0].value, ast.Call) \
            and (dotted_name(returns[0].value.func) or "").startswith("self."):
        call = returns[0].value
        helper = method(cls, (dotted_name(call.func) or "")[5:])
        if helper is None or any(isinstance(a, ast.Starred) for a in call.args):
            return None
        params = [a.arg for a in helper.args.args][1:]
        given = list(zip(params, call.args)) + [(k.arg, k.value) for k in call.keywords if k.arg is not None]
        bound = {p: (dotted_name(v) or "")[5:] for p, v in given if (dotted_name(v) or "").startswith("self.")}
        fn = helper
    loaders = [n for n in ast.walk(fn) if isinstance(n, ast.Call)
               and (dotted_name(n.func) or "").rsplit(".", 1)[-1] == "DataLoader"]
    return (loaders[0], bound) if len(loaders) == 1 else None


def init_key(node: ast.expr, cls: ast.ClassDef, bound: dict[str, str]) -> Optional[tuple[str, ...]]:
    """The ``__init__`` argument (and the key inside it) a loader keyword reads, or None."""
    init = method(cls, "__init__")
    hparams = _hparams_key(node)
    if hparams is not None:
        params = {a.arg for a in init.args.args + init.args.kwonlyargs} if init is not None else set()
        saves = init is not None and any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                                         and n.func.attr == "save_hyperparameters" and not n.args
                                         for n in ast.walk(init))
        return (hparams,) if saves and hparams in params else None
    key: tuple[str, ...] = ()
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        key, node = (node.slice.value,), node.value
    elif isinstance(node, ast.Attribute) and not (isinstance(node.value, ast.Name) and node.value.id == "self"):
        key, node = (node.attr,), node.value
    name = dotted_name(node) or ""
    attr = name[5:] if name.startswith("self.") and name.count(".") == 1 else bound.get(name, "")
    stored = _stored(cls)
    return (stored[attr], *key) if attr in stored else None


def _hparams_key(node: ast.expr) -> Optional[str]:
    """``K`` of ``self.hparams.K`` / ``self.hparams["K"]``."""
    owner = node.value if isinstance(node, (ast.Attribute, ast.Subscript)) else None
    if not (isinstance(owner, ast.Attribute) and owner.attr == "hparams" and isinstance(owner.value, ast.Name)
            and owner.value.id == "self"):
        return None
    if isinstance(node, ast.Attribute):
        return node.attr
    sub = node.slice if isinstance(node, ast.Subscript) else None
    return sub.value if isinstance(sub, ast.Constant) and isinstance(sub.value, str) else None


def spread_param(cls: ast.ClassDef, call: ast.Call) -> Optional[str]:
    """The ``__init__`` parameter whose dict the loader spreads whole: ``DataLoader(ds, **self.<a>)``, ``self.<a>``
    stored from that parameter in ``__init__`` or in a method ``__init__`` calls once with it (Ruunyox/pytorch-hpc
    @ c5848148 ``pytorch_hpc/pl/pl_data.py:117,134-138,214-216``: ``self._initialize_loaders(train_dataloader_opts,
    ...)`` keeps it, or ``{}`` when it is None). Every other store must be an empty dict or None, and the attribute
    is read nowhere but in a ``**`` spread (an ``.update(...)``, a key written or read elsewhere: None)."""
    spreads = [k.value for k in call.keywords if k.arg is None]
    attr = _self_attr(spreads[0]) if len(spreads) == 1 else None
    init = method(cls, "__init__")
    if attr is None or init is None:
        return None
    spread_values = {id(k.value) for n in ast.walk(cls) if isinstance(n, ast.Call) for k in n.keywords
                     if k.arg is None}
    fed: list[str] = []
    for fn in (n for n in cls.body if isinstance(n, ast.FunctionDef)):
        params = [a.arg for a in fn.args.args]
        for node in ast.walk(fn):
            if isinstance(node, ast.Attribute) and _self_attr(node) == attr:
                if isinstance(node.ctx, ast.Load) and id(node) not in spread_values:
                    return None
                if isinstance(node.ctx, ast.Del):
                    return None
            if not isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if not any(_self_attr(t) == attr for t in targets):
                continue
            if isinstance(node, ast.AugAssign) or len(targets) != 1 or node.value is None:
                return None
            value = node.value
            if (isinstance(value, ast.Dict) and not value.keys) or \
                    (isinstance(value, ast.Constant) and value.value is None):
                continue
            if not isinstance(value, ast.Name) or value.id not in params[1:]:
                return None
            if any(isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and any(
                    isinstance(t, ast.Name) and t.id == value.id for t in
                    (n.targets if isinstance(n, ast.Assign) else [n.target])) for n in ast.walk(fn)):
                return None  # the parameter is rebound before it is kept
            if fn is init:
                fed.append(value.id)
                continue
            calls = [n for n in ast.walk(init) if isinstance(n, ast.Call) and dotted_name(n.func) == f"self.{fn.name}"]
            if len(calls) != 1 or any(isinstance(a, ast.Starred) for a in calls[0].args):
                return None
            given = dict(zip(params[1:], calls[0].args))
            given.update({k.arg: k.value for k in calls[0].keywords if k.arg is not None})
            arg = given.get(value.id)
            if not isinstance(arg, ast.Name) or arg.id not in {a.arg for a in (*init.args.args, *init.args.kwonlyargs)}:
                return None
            fed.append(arg.id)
    return fed[0] if len(fed) == 1 else None


def value_ok(key: str, value: Any) -> bool:
    """A value the loader keyword can take: a bool pin_memory, a positive batch, a count of workers."""
    if key == "pin_memory":
        return isinstance(value, bool)
    return isinstance(value, int) and not isinstance(value, bool) and value >= (1 if key == "batch_size" else 0)


def _dig(value: Any, keys: tuple[str, ...]) -> Any:
    for k in keys:
        value = value.get(k) if isinstance(value, dict) else None
    return value


# --------------------------------------------------------------------------- the config's sections (an adapter)


def _configs(project: Project) -> list[Any]:
    """The project's configs, a subcommand's section (``fit:``) as a config of its own when the launch line
    gives the config before the subcommand (:func:`preflight.adapters.lightning_cli._subcommand_section`)."""
    from preflight.adapters.lightning_cli import _subcommand_section

    argv = [str(a) for a in (project.argv or [])]
    return [_subcommand_section(cfg, argv) for _, cfg in project.configs]


@register_adapter
class LightningCliDataAdapter(Adapter):
    name = "lightning_cli_data"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        if not any("LightningCLI" in s.source.text for s in project.scripts):
            return False
        fixed = fixed_classes(project)
        return any(_cli_section(cfg.data, fixed, "data") is not None or _cli_section(cfg.data, fixed, "model") is not None
                   for cfg in _configs(project))

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        if any(str(a).startswith("--data") for a in (project.argv or [])):
            return
        fixed = fixed_classes(project)
        from preflight.adapters.pytorch_local import _import_bases
        from preflight.adapters.target_params_data import _class_of

        bases = [Path(str(project.root))] if project.root else []
        for script in project.scripts:
            if script.source.path is not None:
                # the script's own package roots too (a console script's package outside the audited folder)
                bases += [b for b in _import_bases(Path(str(script.source.path)).resolve().parent) if b not in bases]
        models = [cfg for cfg in _configs(project) if _cli_section(cfg.data, fixed, "model") is not None]
        if len(models) == 1:
            self._optimizer(project, plan, models[0], bases, fixed)
        found = [cfg for cfg in _configs(project) if _cli_section(cfg.data, fixed, "data") is not None]
        if len(found) != 1:
            return
        cfg = found[0]
        got_sec = _cli_section(cfg.data, fixed, "data")
        assert got_sec is not None
        sec, at, cp = got_sec
        dotted = ".".join(at)
        got = _class_of(sec["class_path"], bases)
        if got is None:
            return
        path, cls = got
        picked = train_loader(cls)
        if picked is None and method(cls, "train_dataloader") is None:
            # the loader a base class of the same file builds (vi_latent_action genie/dataset.py:48,88-101,166:
            # LightningOpenX(LightningDataset), whose train_dataloader reads self.batch_size and self.num_workers)
            base = _same_file_base(path, cls)
            picked = train_loader(base) if base is not None else None
        if picked is None:
            return
        call, bound = picked
        spread = any(k.arg is None for k in call.keywords)
        shown = f"{sec['class_path']} ({path.name}:{call.lineno})"
        opts = spread_param(cls, call) if spread else None
        given_opts = sec["init_args"].get(opts) if opts is not None else None
        for key, field in FIELDS:
            given = next((k.value for k in call.keywords if k.arg == key), None)
            if given is None and isinstance(given_opts, dict) and all(isinstance(k, str) for k in given_opts):
                # the loader spreads the dict the config gives one argument: its keys are the loader's keywords
                if key in given_opts:
                    value = given_opts[key]
                    src = project.config_source(cfg, (*at, opts, key),
                                                detail=f"{dotted}.{opts}.{key}, given by LightningCLI to "
                                                       f"{shown}: its train DataLoader(**self.{opts})")
                elif key in _DEFAULTS:
                    value = _DEFAULTS[key]
                    src = project.config_source(cfg, (*at, opts),
                                                detail=f"{dotted}.{opts} (spread into {shown}'s train "
                                                       f"DataLoader) leaves {key} out (the default {value})")
                else:
                    continue
                if value_ok(key, value):
                    self.add_checked(plan, field, value, src, "medium")
                continue
            if given is None:
                if key in _DEFAULTS and not spread:
                    src = project.config_source(cfg, cp,
                                                detail=f"{shown}: its train DataLoader leaves {key} out "
                                                       f"(the default {_DEFAULTS[key]})")
                    self.add_checked(plan, field, _DEFAULTS[key], src, "medium")
                continue
            if isinstance(given, ast.Constant):
                value, src = given.value, project.config_source(
                    cfg, cp, detail=f"{shown}: its train DataLoader({key}={given.value!r})")
            else:
                keys = init_key(given, cls, bound)
                value = _dig(sec["init_args"], keys or ())
                kept = _kept_constant(cls, given) if keys is None else None
                if kept is not None:
                    value, src = kept.value, project.config_source(
                        cfg, cp, detail=f"{shown}: its train DataLoader({key}={ast.unparse(given)}), "
                                        f"{sec['class_path'].rsplit('.', 1)[-1]}.__init__ sets "
                                        f"{ast.unparse(given)} = {kept.value!r} (line {kept.lineno})")
                    if value_ok(key, value):
                        self.add_checked(plan, field, value, src, "medium")
                    continue
                if keys is None or value is None:
                    continue
                src = project.config_source(cfg, (*at, *keys),
                                            detail=f"{dotted}.{'.'.join(keys)}, given by LightningCLI to "
                                                   f"{shown}: its train DataLoader({key}={ast.unparse(given)})")
            if value_ok(key, value):
                self.add_checked(plan, field, value, src, "medium")

    def _optimizer(self, project: Project, plan: TrainingPlan, cfg: Any, bases: list[Path],
                   fixed: dict[str, str]) -> None:
        """``model: class_path``: the LightningModule's ``configure_optimizers`` building ``torch.optim.<X>(...)``,
        every optimizer it builds of that one class (vocos ``experiment.py:81-82``: two ``AdamW``); or calling
        the optimizer an ``__init__`` argument holds, which the section gives as ``class_path: torch.optim.X``
        (jsonargparse's ``OptimizerCallable``: vi_latent_action ``config/lam.yaml:15-19`` and
        ``genie/model.py:45,68,279-280``: ``self.optimizer = optimizer``, ``self.optimizer(self.parameters())``)."""
        from preflight.adapters.target_params_data import _class_of

        got_sec = _cli_section(cfg.data, fixed, "model")
        sec = got_sec[0] if got_sec is not None else None
        got = _class_of(sec["class_path"], bases) if sec is not None else None
        hook = method(got[1], "configure_optimizers") if got is not None else None
        if got_sec is None or sec is None or got is None or hook is None:
            return
        called = _called_init_optimizer(got[1], hook, sec["init_args"])
        if called is not None:
            key, name = called
            src = project.config_source(cfg, (*got_sec[1], key, "class_path"),
                                        detail=f"{'.'.join(got_sec[1])}.{key}.class_path torch.optim.{name}, given "
                                               f"by LightningCLI to {sec['class_path']} ({got[0].name}:{hook.lineno}): "
                                               f"its configure_optimizers calls self.{key}(...)")
            self.add_checked(plan, "optimizer.name", name, src, "medium")
            return
        built = {(dotted_name(n.func) or "").rsplit(".", 1)[-1] for n in ast.walk(hook) if isinstance(n, ast.Call)
                 and (dotted_name(n.func) or "").startswith("torch.optim.")
                 and "lr_scheduler" not in (dotted_name(n.func) or "")}
        if len(built) == 1 and not any(isinstance(n, ast.Call) and "optim" in (dotted_name(n.func) or "").lower()
                                       and not (dotted_name(n.func) or "").startswith("torch.optim.")
                                       for n in ast.walk(hook)):
            name = next(iter(built))
            src = project.config_source(cfg, got_sec[2],
                                        detail=f"{sec['class_path']} ({got[0].name}:{hook.lineno}): its "
                                               f"configure_optimizers builds torch.optim.{name}")
            self.add_checked(plan, "optimizer.name", name, src, "medium")


# --------------------------------------------------------------------------- the flags (lightning_cli.py calls)


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


def _defaults(init: ast.FunctionDef) -> dict[str, ast.expr]:
    args = init.args
    out = dict(zip([a.arg for a in args.args][len(args.args) - len(args.defaults):], args.defaults))
    out.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
    return out


def _fixed_datamodule(site: Any) -> Optional[tuple[str, str]]:
    """The data module class the ``LightningCLI`` call fixes (``datamodule_class=GlobalForecastDataModule``, its
    second positional argument), when no config or flag names one: microsoft/ClimaX @ its pinned commit
    ``src/climax/global_forecast/train.py:13-21``, whose ``configs/global_forecast_climax.yaml`` ``data:`` section
    and ``--data.batch_size=16`` are that class's ``__init__`` arguments (no ``class_path``). A
    ``subclass_mode_data=True`` call takes a class from the config or flags only: not read here."""
    call = getattr(site, "call", None)
    if not isinstance(call, ast.Call):
        return None
    if any(k.arg == "subclass_mode_data" and not (isinstance(k.value, ast.Constant) and k.value.value is False)
           for k in call.keywords):
        return None
    expr = next((k.value for k in call.keywords if k.arg == "datamodule_class"), None)
    if expr is None and len(call.args) >= 2:
        expr = call.args[1]
    name = dotted_name(expr) if isinstance(expr, (ast.Name, ast.Attribute)) else None
    return (name, f"LightningCLI(datamodule_class={name})") if name else None


def _names_datamodule(site: Any) -> bool:
    """The ``LightningCLI`` call names a data module (its second positional argument, ``datamodule_class=``,
    or ``subclass_mode_data=True``, which takes one from the config or the flags)."""
    call = getattr(site, "call", None)
    if not isinstance(call, ast.Call):
        return True
    return len(call.args) >= 2 or any(k.arg in ("datamodule_class", "subclass_mode_data") or k.arg is None
                                      for k in call.keywords)


def _fixed_model(site: Any) -> Optional[tuple[str, str]]:
    """The LightningModule class the ``LightningCLI`` call fixes (``LightningCLI(SiameseModel, ...)``, its first
    positional argument, or ``model_class=``) when neither config nor flags name one: with no data module, the
    Trainer calls that class's own ``train_dataloader``, built from the config's ``model:`` section and the
    ``--model.*`` flags (davidguzmanr/siamese-neural-networks @ f5ab87c ``siamese/train_lightning.py:103-113,
    159`` with ``config.yml:2-6`` ``model: batch_size: 128``). ``subclass_mode_model=True``: not read."""
    call = getattr(site, "call", None)
    if not isinstance(call, ast.Call):
        return None
    if any(k.arg == "subclass_mode_model" and not (isinstance(k.value, ast.Constant) and k.value.value is False)
           for k in call.keywords):
        return None
    expr = next((k.value for k in call.keywords if k.arg == "model_class"), None)
    if expr is None and call.args:
        expr = call.args[0]
    name = dotted_name(expr) if isinstance(expr, (ast.Name, ast.Attribute)) else None
    return (name, f"LightningCLI(model_class={name})") if name else None


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
    section = "data"
    if klass is None:
        klass = _fixed_datamodule(site)
    if klass is None and not args and not _names_datamodule(site):
        # no data module at all: the Trainer takes the model's own train_dataloader
        section = "model"
        klass, args = _section(argv, loaded, "model")
        if klass is None:
            klass = _fixed_model(site)
    if klass is None or pass_.project.root is None:
        return
    found = _find_class(Path(str(pass_.project.root)), klass[0].rsplit(".", 1)[-1])
    if found is None:
        return
    cls, path = found
    # the loader ``train_dataloader`` builds itself, keywords of top-level init arguments (a data section whose
    # loader a helper builds, or that reads a key inside an argument, is the config adapter's reading above)
    init, picked = method(cls, "__init__"), train_loader(cls, through_helper=False)
    if init is None or picked is None or any(k.arg is None for k in picked[0].keywords):
        return
    call, bound = picked  # bound is empty: no helper
    try:
        shown = str(path.resolve().relative_to(Path(str(pass_.project.root)).resolve()))
    except (ValueError, OSError):
        shown = str(path)
    defaults = _defaults(init)
    for key, field in FIELDS:
        expr = next((k.value for k in call.keywords if k.arg == key), None)
        if expr is None:
            continue
        what = f"{klass[0]} ({klass[1]}): {cls.name}.train_dataloader()'s DataLoader({key}=...) ({shown}:{call.lineno})"
        source: Optional[Source] = None
        value: Any = None
        if isinstance(expr, ast.Constant):
            value, source = expr.value, Source("code", shown, expr.lineno, None, what)
        else:
            keys = init_key(expr, cls, bound)
            if keys is None or len(keys) != 1:
                continue
            param = keys[0]
            if param in args:
                value, how, line, where = args[param]
                source = Source(how, None if how == "cli" else where, line, where if how == "cli" else
                                f"{section}.{param}", f"{what}, {param} from {where}")
            elif param in defaults and isinstance(defaults[param], ast.Constant):
                value = defaults[param].value  # type: ignore[attr-defined]
                source = Source("code", shown, defaults[param].lineno, None,
                                f"{what}, {param} not given: {cls.name}.__init__'s default")
        if source is not None and value_ok(key, value):
            pass_.add(field, value, source, "medium")
