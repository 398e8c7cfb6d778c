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
  loading it (``cfg.vocab_size += 1``) gives the count at low. A model type the reader does not
  know, a file that is not there, a Hub id, or a config given to ``from_pretrained`` of a
  checkpoint (the checkpoint's weights decide) state nothing.
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


@register_adapter
class ModelConfigFileAdapter(Adapter):
    name = "model_config_file"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any(s.tree is not None and "Config.from_" in s.source.text for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            if script.tree is not None and "Config.from_" in script.source.text:
                self._script(project, plan, script)

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
