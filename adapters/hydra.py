"""Hydra / OmegaConf: the composed config of a ``@hydra.main`` app, as plan facts.

Found statically in the scripts: ``@hydra.main(config_path=..., config_name=...,
version_base=...)`` (``config_path`` relative to the script), and the compose API
(``initialize(config_path=...)`` / ``initialize_config_dir(config_dir=...)`` with
``compose(config_name=..., overrides=[...])``). The primary config and its defaults list
are composed with the launch arguments given after ``--`` (``trainer.devices=8
model=llama +x=1 ~y``, ``--config-name``/``-cn``, ``--config-path``/``-cp``) by
hydra-core when it is importable, else by preflight's own composer
(:mod:`preflight.adapters.hydra_compose`); a plan note says which. Neither imports the
user's code or instantiates a ``_target_``.

Facts, each with the file and line the value came from (the last config of the defaults
list that sets it, or ``cli`` for an override):

* a Lightning ``Trainer`` node (``_target_`` naming it, or the top-level ``trainer:``):
  ``devices``, ``num_nodes`` (and their product as the world size), ``precision``,
  ``accumulate_grad_batches``, ``strategy`` (names and ``_target_`` strategy objects);
* the data node (``data:`` / ``datamodule:``): ``batch_size`` (medium confidence: a
  DataModule may divide it by the world size), ``num_workers``, ``pin_memory``;
* an ``optimizer`` node whose ``_target_`` names an optimizer class;
* a TrainingArguments/SFTConfig node (``_target_``, or a node with several
  TrainingArguments keys): micro-batch, accumulation, bf16/fp16, ``optim``, gradient
  checkpointing, ``torch_compile``, ``max_length``;
* ``model_name_or_path`` / ``pretrained_model_name_or_path`` as the model reference.

``???`` (mandatory, unset) on such a key is not a fact: it becomes a plan note and
:func:`compositions` exposes it to rules. ``${oc.env:...}`` and Hydra runtime
interpolations are unknown (the real environment is never read).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from preflight.adapters.hydra_apps import (  # noqa: F401  (moved; re-exported)
    Composed,
    HydraApp,
    _compose_app,
    _nodes,
    compositions,
    find_apps,
    targeted_nodes,
)
from preflight.adapters.hydra_calls import (
    _args_like,
    _first_parameter,
    _is_args,
    _is_trainer,
    _trainer_like,
)
from preflight.adapters.hydra_compose import (
    MISSING,
    Unknown,
    relative,
    resolve,
)
from preflight.adapters.hydra_lightning import strategy_handed_in, trainer_node
from preflight.adapters.module_params import COMPILES, DIVIDES, count_target, source_says
from preflight.adapters.module_params_target import count_node

from preflight.adapters_api import Adapter, Project
from preflight.diagnostics import FileError
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_DATA_KEYS = ("data", "datamodule")
_MODEL_REF_KEYS = ("model_name_or_path", "pretrained_model_name_or_path")
_TA_KEYS = {"per_device_train_batch_size": "batch.micro", "gradient_accumulation_steps": "batch.grad_accum",
            "optim": "optimizer.name", "gradient_checkpointing": "memory.gradient_checkpointing",
            "activation_checkpointing": "memory.gradient_checkpointing", "torch_compile": "compile.enabled",
            "max_length": "data.seq_len", "max_seq_length": "data.seq_len"}


# --------------------------------------------------------------------------- finding apps


# --------------------------------------------------------------------------- composing


# --------------------------------------------------------------------------- the adapter


@register_adapter
class HydraAdapter(Adapter):
    name = "hydra"
    frameworks = ("hydra",)

    def detect(self, project: Project) -> bool:
        return bool(find_apps(project))

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        from preflight.adapters.hydra_added_keys import plan_compositions
        from preflight.adapters.hydra_config_store import project_entries, stored_name
        from preflight.adapters.hydra_failures import digit_key_failure, job_failure

        for app, result in zip(find_apps(project), plan_compositions(project)):
            if isinstance(result, FileError):
                if job_failure(project, app, result.message) is not None:
                    continue  # a bug of the job's configs or launch line: the plan rule PF216 reports it
                if digit_key_failure(project, result.message):
                    continue  # a launch-line key Hydra's override grammar cannot parse: PF158 reports it
                if _config_store_entry(app, result.message) or stored_name(project, result.message) or (
                        "(a ConfigStore config?)" in result.message and project_entries(project)):
                    # (the last: no config folder at all, the primary config a ConfigStore node, e.g.
                    # ``@hydra.main(config_name="config")`` over ``cs.store(name="config", node=Config)``)
                    # a defaults entry the script registers in Hydra's ConfigStore (a structured config,
                    # codebyzeb/BabyLM train.py:29-30 ``cs.store(name="base_config", node=BabyLMConfig)``):
                    # registered only when the script runs, so not composed here; no error of the job
                    where = result.path + (f":{result.line}" if result.line is not None else "")
                    self.note(plan, f"{where}: {_first_line(result.message)}: a config the script registers in "
                                    "Hydra's ConfigStore (not composed without running it); the composed "
                                    "config's values are unknown")
                    continue
                if _group_override_not_placed(result.message):
                    # a launch-line group choice the composer could not place in the defaults list:
                    # Hydra's versions disagree on such keys (`task=` for `task@_global_`: accepted by
                    # 1.1, refused by 1.2+), so the job is read on with the config's values unknown
                    where = result.path + (f":{result.line}" if result.line is not None else "")
                    self.note(plan, f"{where}: {_first_line(result.message)}: the composed config's values are "
                                    "unknown")
                    continue
                if ("Could not override '" not in result.message or "To append to your config use +" not in (
                        result.message)) and "Could not append to config. An item is already at '" not in (
                        result.message):
                    project.errors.append(result)
                # else: the launch overrides a key the config lacks (PF526), or appends with `+` a key the
                # config has (PF290): a bug of the job that the plan rule reports as a finding (not an input
                # preflight could not read)
                continue
            from preflight.adapters.hydra_resolvers import registered, using

            with using(registered(app.script.tree if app.script is not None else None)):
                _Facts(self, project, plan, result).run()


def _config_store_entry(app: HydraApp, message: str) -> bool:
    """Hydra could not load a config the app's script stores in the ConfigStore by that name."""
    import re

    found = re.search(r"Could not load '([^']+)'", message)
    if found is None or app.script is None:
        return False
    name = re.escape(found.group(1).rsplit("/", 1)[-1])
    return re.search(rf"\.store\((?:[^()]*,\s*)?name\s*=\s*[\"']{name}[\"']", app.script.source.text) is not None


def _group_override_not_placed(message: str) -> bool:
    """Hydra's refusal of a command-line group override: no defaults entry takes its key."""
    return "Could not override '" in message and (
        "No match in the defaults list" in message or "Did you mean to override" in message)


def _first_line(message: str) -> str:
    return " ".join(message.strip().splitlines()[:2])


class _Facts:
    def __init__(self, adapter: HydraAdapter, project: Project, plan: TrainingPlan, composed: Composed) -> None:
        self.adapter = adapter
        self.project = project
        self.plan = plan
        self.composed = composed
        self.cfg = composed.config
        self.method = composed.composition.method

    def note(self, text: str) -> None:
        self.adapter.note(self.plan, text)

    def value(self, path: tuple[str, ...]) -> Any:
        node: Any = self.cfg
        for part in path:
            if not isinstance(node, dict) or part not in node:
                return None
            node = node[part]
        if node == MISSING:
            return Unknown("???")
        return resolve(self.cfg, node, path[:-1])

    def add(self, field: str, value: Any, path: tuple[str, ...], detail: str, confidence: str = "high") -> None:
        if self.composed.app.guess is not None and confidence == "high":
            confidence = "medium"  # the config folder is a guess (hydra_env_root)
        raw = self.composed_raw(path)
        if isinstance(raw, str) and "${" in raw:
            detail = f"{detail}; {raw} = {value!r}"
        source = self.composed.source(path, f"{detail} (Hydra, {self.method})")
        self.adapter.add_checked(self.plan, field, value, source, confidence)

    def composed_raw(self, path: tuple[str, ...]) -> Any:
        node: Any = self.cfg
        for part in path:
            if not isinstance(node, dict):
                return None
            node = node.get(part)
        return node

    def known(self, path: tuple[str, ...]) -> Any:
        """The value at ``path``, or None (with a note) when it is unset, ??? or unknown."""
        value = self.value(path)
        if isinstance(value, Unknown):
            where = self.composed.source(path, "").location()
            if value.why != "???":  # ??? keys are noted once, in run()
                self.note(f"{where}: {'.'.join(path)} not known statically: {value.why}")
            return None
        return value

    def run(self) -> None:
        app = self.composed.app
        comp = self.composed.composition
        composed_dir = self.composed.config_dir or app.config_dir
        primary = relative(composed_dir, self.project.root) if composed_dir else "?"
        origin = f"{app.script.source.display}:{app.line}: " if app.script is not None else ""
        from preflight.adapters.hydra_paths import primary_name

        name = primary_name(app, self.project)
        shown = f"{primary}/{name}" if name is not None else f"{primary} (no primary config)"
        self.note(f"{origin}{app.how} config {shown} composed by {self.method}")
        if app.guess is not None:
            self.note(f"{origin}{app.guess}")
        for text in comp.notes:
            self.note(text)
        for display in sorted(self.composed.files):
            self.plan.add_input(display, "yaml")
        for path, file, line in self.composed.missing:
            where = f"{file}:{line}" if file else "the composed config"
            self.note(f"{where}: {'.'.join(path)} is ??? (mandatory, unset): the run fails unless "
                      "it is given on the command line")
        from preflight.adapters.hydra_ds_section import handed_ds_section, read_section

        # a section handed to deepspeed.initialize: a hand-written DeepSpeed loop, whose config holds no
        # TrainingArguments (pandallm's top-level `fp16: True` is its own key)
        handed = handed_ds_section(app.script.tree if app.script is not None else None, self.cfg)
        for path, node in _nodes(self.cfg, ()):
            target = node.get("_target_") if isinstance(node, dict) else None
            local = self.local_trainer(target) if isinstance(node, dict) and not _is_trainer(target) else None
            if _is_trainer(target) or (path == ("trainer",) and target is None and _trainer_like(node)):
                trainer_node(self, path, node)
            elif local is not None and isinstance(node, dict):
                # the project's own Trainer subclass: only the keys it hands on unchanged (hydra_local_trainer)
                trainer_node(self, path, local.trusted(node))
            elif _is_args(target) or (target is None and _args_like(node)
                                      and not (handed and handed[0][:len(path)] == path)):
                self.training_args(path, node)
        from preflight.adapters.hydra_optimizer_pick import pick_optimizer

        pick_optimizer(self)
        for key in _DATA_KEYS:
            section = self.cfg.get(key)
            if isinstance(section, dict):
                self.data((key,), section)
        from preflight.adapters.hydra_datamodule import datamodule_loader

        datamodule_loader(self)
        from preflight.adapters.hydra_target_data import (
            bolts_native_size,
            loader_class_batch,
            transform_crop,
        )

        loader_class_batch(self)
        transform_crop(self)
        bolts_native_size(self)
        for path, node in _nodes(self.cfg, ()):
            for key in _MODEL_REF_KEYS:
                if isinstance(node, dict) and key in node:
                    ref = self.known((*path, key))
                    if isinstance(ref, str) and ref:
                        self.add("model.ref", ref, (*path, key), f"{'.'.join((*path, key))}", "medium")
        from preflight.adapters.hydra_model_path import model_paths

        model_paths(_nodes(self.cfg, ()), self.known, self.add)
        from preflight.adapters.hydra_model_config import config_sizes

        config_sizes(_nodes(self.cfg, ()), self.known, self.add)
        if handed:
            read_section(self, handed)
        from preflight.adapters.hydra_compile_guard import compile_guard

        compile_guard(self)
        self.pretrained_targets()
        from preflight.adapters.hydra_model_optim import model_optimizer

        model_optimizer(self)
        self.lora_sections()
        self.local_modules()
        if app.script is not None and app.script.tree is not None:
            strategy_handed_in(self, app.script.tree)
            from preflight.adapters.hydra_trainer_defaults import trainer_defaults

            trainer_defaults(self, app.script.tree, app.script.source.display,
                             str(app.script.source.path) if app.script.source.path is not None else None)
            from preflight.adapters.hydra_sections import section_facts

            section_facts(app.script.tree, Path(str(app.script.source.path)).parent, app.script.source.display,
                          self.known, self.add)
            from preflight.adapters.hydra_reads import is_null, no_peft, read_facts

            read_facts(app.script.tree, Path(str(app.script.source.path)), app.script.source.display,
                       self.known, self.add, lambda path: is_null(self.cfg, path), self.target_module())
            no_peft(self.adapter, self.plan, self.project, app, self.cfg)
            from preflight.adapters.hydra_absences import no_ckpt_no_compile

            no_ckpt_no_compile(self.adapter, self.plan, self.project, app, self.cfg)
            self.submitit_counts(app.script)
        from preflight.adapters.hydra_target_data import trainer_wrapper
        from preflight.adapters.hydra_trainer_accum import trainer_accumulation

        trainer_wrapper(self)
        trainer_accumulation(self)
        if self.plan.value("batch.micro") is None:
            from preflight.adapters.hydra_loader_node import loader_node_batch

            loader_node_batch(self)

    def local_trainer(self, target: Any) -> Any:
        """The project's Lightning ``Trainer`` subclass a ``_target_`` names (:mod:`preflight.adapters.hydra_local_trainer`)."""
        from preflight.adapters.hydra_local_trainer import local_trainer

        script = self.composed.app.script
        if not isinstance(target, str) or script is None or script.source.path is None:
            return None
        root = Path(str(self.project.root)) if self.project.root else None
        return local_trainer(root, Path(str(script.source.path)).resolve().parent, target)

    def submitit_counts(self, script: Any) -> None:
        """The node and task counts of the script's submitit executor (:mod:`preflight.adapters.submitit_executor`),
        the config's values located in the composed config, a literal at its line of the script."""
        from preflight.adapters.hydra_reader import _ROOTS
        from preflight.adapters.hydra_reads import _main_param
        from preflight.adapters.submitit_executor import executor_counts

        main = _main_param(script.tree)
        roots = tuple(dict.fromkeys(((main,) if main else ()) + _ROOTS))

        def emit(field: str, value: int, where: Any, detail: str, confidence: str) -> None:
            if isinstance(where, tuple):
                source = self.composed.source(where, f"{'.'.join(where)}: {detail} (Hydra, {self.method})")
            else:
                source = Source("code", script.source.display, where, None, detail)
            self.adapter.add_checked(self.plan, field, value, source, confidence, -1)

        executor_counts(script.tree, roots, self.known, emit)

    def target_module(self) -> list[Path]:
        """The project module of the class the composed config's top-level ``_target_`` names
        (``hydra.utils.instantiate(cfg)`` builds it and the script runs it: Diffusion Policy's
        ``_target_: diffusion_policy.workspace.train_diffusion_unet_hybrid_workspace.X``)."""
        target = self.cfg.get("_target_") if isinstance(self.cfg, dict) else None
        if not isinstance(target, str) or "." not in target:
            return []
        module = target.rsplit(".", 1)[0].replace(".", "/")
        bases = [Path(self.project.root)]
        if self.composed.app.script is not None and self.composed.app.script.source.path is not None:
            bases.insert(0, Path(str(self.composed.app.script.source.path)).resolve().parent)
        for base in bases:
            for cand in (base / f"{module}.py", base / module / "__init__.py"):
                if cand.is_file() and self.project.may_read(cand):
                    return [cand]
        return []

    def pretrained_targets(self) -> None:
        """A ``_target_: pkg.Model.from_pretrained`` node: the path it is given is the model
        (fishaudio/fish-speech ``text2semantic_finetune.yaml:59-61``: ``BaseTransformer.from_pretrained``
        with ``path: ${pretrained_ckpt_path}``). The path is ``_args_[0]``, or the keyword of the
        method's first parameter, read from the local class (``path``) or Hugging Face's name
        (``pretrained_model_name_or_path``). A tokenizer, config, processor or a pipeline's frozen
        part is not the model; with several candidates, the ones under ``model`` are kept, and
        none is reported unless one is left."""
        from preflight.adapters.hydra_reads import _NOT_MODEL, _PARTS

        found: list[tuple[tuple[str, ...], str, str]] = []
        for path, node in _nodes(self.cfg, ()):
            target = node.get("_target_")
            if not isinstance(target, str) or not target.endswith(".from_pretrained"):
                continue
            owner = target.rsplit(".", 2)[-2] if target.count(".") >= 1 else ""
            if any(word in owner for word in _NOT_MODEL) or (path and path[-1] in _PARTS):
                continue
            args = node.get("_args_")
            key_path: Optional[tuple[str, ...]] = None
            if isinstance(args, list) and args:
                key_path = (*path, "_args_")
                ref = resolve(self.cfg, args[0], path)
            else:
                first = _first_parameter(Path(self.project.root), target)
                for key in (first, *_MODEL_REF_KEYS):
                    if key and key in node:
                        key_path = (*path, key)
                        break
                ref = self.known(key_path) if key_path is not None else None
            if key_path is not None and isinstance(ref, str) and ref:
                found.append((key_path, ref, target))
        if len(found) > 1:
            found = [f for f in found if f[0][:1] == ("model",)]
        if len(found) != 1:
            return
        key_path, ref, target = found[0]
        self.add("model.ref", ref, key_path, f"{'.'.join(key_path)} given to {target}()", "medium")

    def lora_sections(self) -> None:
        """A composed ``_target_: ...LoraConfig`` node with an integer ``r`` (a config group added
        on the command line, fishaudio/fish-speech ``+lora@model.model.lora_config=r_8_alpha_16``
        -> ``configs/lora/r_8_alpha_16.yaml:1-2``): LoRA of that rank. A ``null`` section (the
        default ``lora_config: null``) is no node and says nothing here. Only one such node."""
        found = [(path, node) for path, node in _nodes(self.cfg, ())
                 if isinstance(node.get("_target_"), str) and node["_target_"].rsplit(".", 1)[-1] == "LoraConfig"]
        if len(found) != 1:
            return
        path, node = found[0]
        rank = self.known((*path, "r")) if "r" in node else None
        if not (isinstance(rank, int) and not isinstance(rank, bool) and rank >= 1):
            return
        target = node["_target_"]
        self.add("peft.method", "lora", (*path, "_target_"), f"{'.'.join(path)}: {target}", "medium")
        self.add("peft.rank", rank, (*path, "r"), f"{'.'.join((*path, 'r'))} of {target}", "medium")
        bits = self.plan.resolve("precision.weights_bits")
        self.add("task.mode", "qlora" if bits is not None and bits.value == 4 else "lora", (*path, "_target_"),
                 f"{'.'.join(path)}: {target} on the loaded model", "medium")

    def local_modules(self) -> None:
        """A local ``nn.Module`` ``_target_`` whose layers have literal or config-given sizes: its
        parameter count (adapters/module_params.py; read, never imported)."""
        counted = []
        for path, node in _nodes(self.cfg, ()):
            target = node.get("_target_") if isinstance(node, dict) else None
            if not isinstance(target, str) or target.startswith(("torch.", "lightning.", "pytorch_lightning.")):
                continue
            kwargs = {k: self.value((*path, k)) for k in node if not k.startswith("_")}
            got = count_target(Path(self.project.root), target, kwargs)
            if got is None and isinstance(node, dict):  # built of blocks, loops, re-exported (module_params_target)
                got = count_node(Path(self.project.root), path, node, self.value, Unknown)
            if got is not None:
                counted.append((path, target, got))
            where = source_says(Path(self.project.root), target, COMPILES) if isinstance(node.get("compile"), bool) \
                else ""
            if where:
                self.add("compile.enabled", node["compile"], (*path, "compile"),
                         f"{'.'.join((*path, 'compile'))} read by {target} ({where})", "medium")
        if len(counted) > 1:
            counted = [c for c in counted if c[0][:1] == ("model",)]
        if len(counted) != 1:
            return
        path, target, (count, file, line, layers) = counted[0]
        self.add("model.num_parameters", count, (*path, "_target_"),
                 f"{target} ({relative(Path(file), self.project.root)}:{line}) built with the config's sizes: "
                 f"{', '.join(layers)}", "medium")

    # -- data, optimizer, TrainingArguments -----------------------------------
    def data(self, path: tuple[str, ...], node: dict[str, Any]) -> None:
        if "batch_size" in node:
            value = self.known((*path, "batch_size"))
            if isinstance(value, int) and not isinstance(value, bool):
                divided = source_says(Path(self.project.root), node.get("_target_"), DIVIDES)
                world = self.plan.value("dist.world_size")
                if divided and isinstance(world, int) and world > 1 and value % world == 0:
                    self.add("batch.micro", value // world, (*path, "batch_size"),
                             f"{'.'.join(path)}.batch_size {value} // world size {world}: {divided} divides it "
                             "by trainer.world_size", "medium")
                elif not divided or world == 1:
                    self.add("batch.micro", value, (*path, "batch_size"),
                             f"{'.'.join(path)}.batch_size (per device unless the DataModule divides it by the "
                             "world size)", "medium")
        for key, name in (("num_workers", "data.num_workers"), ("pin_memory", "data.pin_memory")):
            if key in node:
                value = self.known((*path, key))
                from preflight.adapters.hydra_loader_constant import loader_constant

                fixed = loader_constant(Path(self.project.root), node.get("_target_"), key)
                if fixed is not None and value is not None and fixed[0] != value:
                    self.add(name, fixed[0], (*path, key),
                             f"{'.'.join(path)}.{key} is {value!r}, but every DataLoader of the DataModule "
                             f"passes {key}={fixed[0]!r} ({fixed[1]})", "medium")
                    continue
                if value is not None:
                    self.add(name, value, (*path, key), f"{'.'.join(path)}.{key}", "medium")

    def training_args(self, path: tuple[str, ...], node: dict[str, Any]) -> None:
        for key, name in _TA_KEYS.items():
            if key not in node:
                continue
            value = self.known((*path, key))
            if value is None:
                continue
            if name == "optimizer.name" and not isinstance(value, str):
                continue
            self.add(name, value, (*path, key), f"TrainingArguments {key}={value!r}")
        for key, mode in (("bf16", "amp_bf16"), ("fp16", "amp_fp16")):
            if key in node and self.known((*path, key)) is True:
                self.add("precision.mode", mode, (*path, key), f"TrainingArguments {key}=True")

    # -- helpers -------------------------------------------------------------
    def where(self, path: tuple[str, ...]) -> str:
        return self.composed.source(path, "").location()

    def _loc(self, path: tuple[str, ...]) -> tuple[Optional[str], Optional[int]]:
        origin = self.composed.origins.get(path)
        return (origin[0], origin[1]) if origin and path not in self.composed.cli else (None, None)
