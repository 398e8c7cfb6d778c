"""A model built from a local Hugging Face config file: its size from the file's numbers.

Pretraining scripts build their model from scratch out of a ``config.json`` of the repository,
named on the launch line (jiaweizzhao/GaLore ``torchrun_main.py:198-202`` @ 2cc66f8:
``model_config = AutoConfig.from_pretrained(args.model_config)`` then
``AutoModelForCausalLM.from_config(model_config)`` or ``LlamaForCausalLM(model_config)``, launched
with ``--model_config configs/llama_350m.json``, ``scripts/benchmark_c4/llama_350m.sh:3``). Read:

- ``cfg = <Something>Config.from_pretrained(X)`` bound once, where ``X`` resolves (code, launch
  line, declared default) to a ``.json`` file or a folder holding ``config.json`` beside the job;
- the config handed to a model construction that runs: ``Auto*.from_config(cfg)``,
  ``SomeModel(cfg)`` or ``SomeModel(config=cfg)``;
- the file read as JSON (never executed) into the architecture reader the estimator uses for Hub
  configs: ``model.num_parameters`` from its formula, medium. A config the code changes after
  loading it (``cfg.vocab_size += 1``) gives the count at low; one that gives it keys the file
  lacks (``config.share_embedding = ...``) for the project's own model class, which reads them,
  gives none. A model type the reader does not know, a file that is not there, a Hub id, or a
  config given to ``from_pretrained`` of a checkpoint (the checkpoint's weights decide) state
  nothing.

A project's own config class built in code counts the same way (baichuan-inc/Baichuan-7B
``train.py:114`` @ 6f3ef46: ``model = BaiChuanForCausalLM(BaiChuanConfig())``, the class in
``models/configuration_baichuan.py:41-84``). Read:

- ``Model(C(...))``, or ``cfg = C(...)`` bound once and given to ``Model(cfg)``/``from_config(cfg)``;
  ``C`` a class of the script or of the module beside it that the script imports it from
  (``from models.configuration_baichuan import BaiChuanConfig``);
- ``C`` subclasses ``PretrainedConfig``, says ``model_type = "<literal>"`` in its body, and its
  ``__init__`` only copies its parameters (``self.x = x``, ``super().__init__(x=x, **kwargs)``):
  the literal defaults of those parameters, replaced by the call's literal keywords, are the
  config. Any other statement, a positional argument, a keyword that is not a literal, or
  ``**`` in the call state nothing. The count is medium (low when the code changes the config).
"""

from __future__ import annotations

import ast
import json
import os
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_MAX_BYTES = 200_000


def _config_load(site: Any) -> bool:
    """``AutoConfig.from_pretrained(...)``, ``LlamaConfig.from_pretrained(...)``."""
    name = site.name or ""
    parts = name.split(".")
    return len(parts) >= 2 and parts[-1] in ("from_pretrained", "from_json_file") and parts[-2].endswith("Config")


def _builds_from(call: ast.Call, var: str) -> bool:
    """``X.from_config(var)``, ``Model(var)``, ``Model(config=var)``: a model made from the config."""
    func = call.func
    given = [*call.args[:1], *(k.value for k in call.keywords if k.arg == "config")]
    if not any(isinstance(a, ast.Name) and a.id == var for a in given):
        return False
    if isinstance(func, ast.Attribute) and func.attr == "from_config":
        return True
    last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return last[:1].isupper() and not last.endswith(("Config", "Tokenizer", "Processor"))


def _changed(tree: ast.AST, var: str) -> bool:
    """``var.attr = ...``/``var.attr += ...``/``setattr(var, ...)``/``var.update(...)`` anywhere."""
    for node in ast.walk(tree):
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Name) and f.id == "setattr" and node.args \
                    and isinstance(node.args[0], ast.Name) and node.args[0].id == var:
                return True
            if isinstance(f, ast.Attribute) and f.attr == "update" and isinstance(f.value, ast.Name) \
                    and f.value.id == var:
                return True
        for t in targets:
            if isinstance(t, (ast.Attribute, ast.Subscript)) and isinstance(t.value, ast.Name) and t.value.id == var:
                return True
    return False


def _new_keys(tree: ast.AST, var: str, config: dict) -> list[str]:
    """The attributes ``var.attr = ...`` sets that the loaded file does not have (``config.share_embedding =
    model_args.share_embedding``, facebookresearch/MobileLLM @ 8b9769d ``pretrain.py:166-171``)."""
    out: list[str] = []
    for node in ast.walk(tree):
        for t in node.targets if isinstance(node, ast.Assign) else []:
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == var \
                    and t.attr not in config and t.attr not in out:
                out.append(t.attr)
    return out


def _project_class(tree: ast.Module, call: ast.Call) -> Optional[str]:
    """The model class built, when the script imports it from a module other than ``transformers``
    (``from utils.modeling_llama import LlamaForCausalLM``): the project's own class, which may read keys
    of the config that the architecture reader does not know."""
    func = call.func
    name = func.id if isinstance(func, ast.Name) else None
    if name is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and any((a.asname or a.name) == name for a in node.names):
            module = "." * node.level + (node.module or "")
            return None if module.split(".")[0] == "transformers" else f"{name} (from {module})"
    return None


def _is_config_call(call: ast.Call) -> bool:
    return isinstance(call.func, ast.Name) and call.func.id.endswith("Config")


def _builds_from_config_call(call: ast.Call) -> Optional[ast.Call]:
    """``Model(C(...))``/``Model(config=C(...))``/``X.from_config(C(...))``: the inner ``C(...)``."""
    given = [*call.args[:1], *(k.value for k in call.keywords if k.arg == "config")]
    inner = next((a for a in given if isinstance(a, ast.Call) and _is_config_call(a)), None)
    if inner is None:
        return None
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "from_config":
        return inner
    last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if last[:1].isupper() and not last.endswith(("Config", "Tokenizer", "Processor")):
        return inner
    return None


def _config_class(script: Any, name: str) -> Optional[tuple[Path, ast.ClassDef]]:
    """Class ``name`` defined in the script, or in the module beside it it is imported from."""
    if not name or script.tree is None:
        return None

    def find(tree: ast.Module) -> Optional[ast.ClassDef]:
        hits = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name]
        return hits[0] if len(hits) == 1 else None

    own = find(script.tree)
    if own is not None and script.source.path is not None:
        return Path(str(script.source.path)), own
    from preflight.adapters.model_registry import _module_of

    home = _module_of(script, name)
    if home is None:
        return None
    cls = find(home[1])
    return (home[0], cls) if cls is not None else None


def _class_defaults(cls: ast.ClassDef) -> Optional[dict[str, Any]]:
    """A ``PretrainedConfig`` subclass whose ``__init__`` only copies its parameters: the
    parameters' literal defaults plus ``model_type``; None for anything else."""
    if not any((b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else "")
               == "PretrainedConfig" for b in cls.bases):
        return None
    model_type: Optional[str] = None
    init: Optional[ast.FunctionDef] = None
    for node in cls.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and node.targets[0].id == "model_type" and isinstance(node.value, ast.Constant) \
                and isinstance(node.value.value, str):
            model_type = node.value.value
        elif isinstance(node, ast.FunctionDef) and node.name == "__init__":
            if init is not None:
                return None
            init = node
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.decorator_list:
            continue  # other methods do not build the config
        elif isinstance(node, ast.Assign) or (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
            continue  # class attributes (keys_to_ignore_at_inference), docstring
        else:
            return None
    if model_type is None or init is None:
        return None
    a = init.args
    if a.posonlyargs or a.kwonlyargs or a.vararg is not None:
        return None
    params = a.args[1:]
    if len(a.defaults) != len(params):
        return None  # a parameter without default: the call must give it
    config: dict[str, Any] = {}
    for param, default in zip(params, a.defaults):
        try:
            config[param.arg] = ast.literal_eval(default)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return None
    names = set(config)
    for stmt in init.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            t = stmt.targets[0]
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self" \
                    and isinstance(stmt.value, ast.Name) and stmt.value.id == t.attr and t.attr in names:
                continue
            return None
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            call = stmt.value
            f = call.func
            if isinstance(f, ast.Attribute) and f.attr == "__init__" and isinstance(f.value, ast.Call) \
                    and isinstance(f.value.func, ast.Name) and f.value.func.id == "super" and not call.args \
                    and all((k.arg is None and isinstance(k.value, ast.Name) and k.value.id == a.kwarg.arg
                             if a.kwarg is not None else False)
                            or (k.arg in names and isinstance(k.value, ast.Name) and k.value.id == k.arg)
                            for k in call.keywords):
                continue
        return None
    config["model_type"] = model_type
    return config


def _literal_keywords(call: ast.Call) -> Optional[dict[str, Any]]:
    """The call's keywords, every one a literal; None for positional arguments, ``**`` or any other value."""
    if call.args:
        return None
    out: dict[str, Any] = {}
    for k in call.keywords:
        if k.arg is None:
            return None
        try:
            out[k.arg] = ast.literal_eval(k.value)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return None
    return out


@register_adapter
class ModelConfigFileAdapter(Adapter):
    name = "model_config_file"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any(s.tree is not None and "Config" in s.source.text for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            if script.tree is not None and "Config.from_" in script.source.text:
                self._script(project, plan, script)
            if script.tree is not None and "Config(" in script.source.text:
                self._class_config(project, plan, script)

    def _class_config(self, project: Project, plan: TrainingPlan, script: Any) -> None:
        """``Model(C())`` / ``cfg = C(...)``; ``Model(cfg)`` with ``C`` a project ``PretrainedConfig``."""
        idx = project.index(script)
        for site in idx.calls:
            if idx.runs(site) is False:
                continue
            var: Optional[str] = None
            inner = _builds_from_config_call(site.call)
            if inner is not None:
                made, build = inner, site
            elif site.target and "." not in site.target and _is_config_call(site.call):
                var = site.target
                if len(idx.assigns.get(var, [])) != 1:
                    continue
                builds = [s for s in idx.calls if s is not site and _builds_from(s.call, var)
                          and idx.runs(s) is not False]
                if not builds:
                    continue
                made, build = site.call, builds[0]
            else:
                continue
            name = made.func.id if isinstance(made.func, ast.Name) else ""
            found = _config_class(script, name)
            if found is None:
                continue
            path, cls = found
            config = _class_defaults(cls)
            if config is None:
                continue
            given = _literal_keywords(made)
            if given is None:
                continue
            config.update(given)
            from preflight.estimate.arch import ArchitectureError, from_hf_config

            shown = os.path.relpath(path, project.root) if str(path).startswith(str(project.root)) else str(path)
            try:
                arch = from_hf_config(config, name=name, source=f"{shown}:{cls.lineno}")
            except ArchitectureError as exc:
                self.note(plan, f"{script.source.display}:{made.lineno}: {name}() read from {shown}, "
                                f"its size not counted ({exc})")
                continue
            total = arch.params_total
            if not isinstance(total, int) or total <= 0:
                continue
            changed = var is not None and _changed(script.tree, var)
            detail = (f"{name}() at line {made.lineno}, given to {build.label}() at line {build.line}: "
                      f"the class's defaults ({shown}:{cls.lineno}, model_type {config.get('model_type')})"
                      f"{' with the call' + chr(39) + 's keywords' if given else ''} count {total:,} parameters")
            if changed:
                detail += "; the code changes the config after building it"
            self.add_checked(plan, "model.num_parameters", total,
                             Source("code", str(script.source.display), made.lineno, None, detail),
                             "low" if changed else "medium")
            return

    def _script(self, project: Project, plan: TrainingPlan, script: Any) -> None:
        idx = project.index(script)
        for site in idx.calls:
            if not _config_load(site) or not site.target or "." in site.target:
                continue
            var = site.target
            if len(idx.assigns.get(var, [])) != 1 or idx.runs(site) is False:
                continue  # rebound elsewhere, or on a branch that does not run
            builds = [s for s in idx.calls if s is not site and _builds_from(s.call, var) and idx.runs(s) is not False]
            if not builds:
                continue
            got = idx.resolve(site.arg(0, "pretrained_model_name_or_path") or site.arg(0, "json_file"))
            if got is None or not isinstance(got.value, str) or not got.value.strip():
                continue
            found = self._file(project, script, got.value.strip())
            if found is None:
                continue
            from preflight.sources import read_text_limited

            try:
                config = json.loads(read_text_limited(found, _MAX_BYTES))
            except (OSError, ValueError, UnicodeDecodeError):
                continue
            from preflight.estimate.arch import ArchitectureError, from_hf_config

            try:
                arch = from_hf_config(config, name=got.value.strip(), source=str(found))
            except ArchitectureError as exc:
                self.note(plan, f"{script.source.display}:{site.line}: {got.value} read, its size not counted ({exc})")
                continue
            total = arch.params_total
            if not isinstance(total, int) or total <= 0:
                continue
            changed = _changed(script.tree, var)
            own = _project_class(script.tree, builds[0].call) if changed else None
            added = _new_keys(script.tree, var, config) if own else []
            if own and added:
                self.note(plan, f"{script.source.display}:{site.line}: {got.value} is given {', '.join(added)} (keys the "
                                f"file lacks) and handed to the project's {own}, which reads them: the file's "
                                "count is not that model's, not stated")
                continue
            shown = os.path.relpath(found, project.root) if str(found).startswith(str(project.root)) else str(found)
            how = f" ({got.detail})" if got.kind == "cli" and got.detail else ""
            detail = (f"{site.label}({got.value}){how} at line {site.line}, given to {builds[0].label}() at line "
                      f"{builds[0].line}: {shown} ({config.get('model_type')}) counts {total:,} parameters")
            if changed:
                detail += "; the code changes the config after loading it"
            self.add_checked(plan, "model.num_parameters", total,
                             Source("code", str(script.source.display), site.line, None, detail),
                             "low" if changed or got.cap == "low" else "medium")
            return

    def _file(self, project: Project, script: Any, value: str) -> Optional[Path]:
        """The ``.json`` file, or the folder's ``config.json``, of that name beside the job."""
        if value.startswith(("http:", "https:")):
            return None
        bases = [project.root, Path(os.getcwd())]
        if script.source.path is not None:
            bases.append(Path(str(script.source.path)).parent)
        for base in bases:
            path = Path(value).expanduser() if os.path.isabs(value) else Path(base) / value
            if path.is_dir():
                path = path / "config.json"
            if path.is_file() and path.suffix == ".json" and project.may_read(path):
                return path
        return None
