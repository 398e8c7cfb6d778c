"""Hugging Face Transformers ``Trainer`` / ``TrainingArguments`` and TRL configs (frameworks.md §1.3).

Reads, without importing anything:

* ``TrainingArguments(...)`` / ``Seq2SeqTrainingArguments`` and the TRL configs
  (``SFTConfig``, ``DPOConfig``, ``GRPOConfig``, ... all TrainingArguments subclasses):
  micro-batch, gradient accumulation, bf16/fp16, ``optim``, gradient (activation)
  checkpointing, ``deepspeed`` (a note), ``fsdp``, ``torch_compile``, ``max_length``.
  Framework defaults are kind ``default`` facts naming the version they hold for.
* ``HfArgumentParser``: a JSON/YAML file given with ``--config`` (``parse_json_file``,
  ``parse_yaml_file``, the ``sys.argv[1].endswith(".json")`` idiom), the ``<script>.args``
  file next to the script (``look_for_args_file``) and ``--key value`` flags on the launch
  command.
* ``from_pretrained`` version-dependent defaults (dtype, attention), quantized loading
  notes, ``LoraConfig`` target-module defaults, TRL trainers given a model id or a
  ``peft_config``, ``GenerationConfig(...)`` and ``trainer.train()`` (the Trainer owns the
  loop). Explicit ``from_pretrained``/``LoraConfig``/``generate`` arguments are read by the
  pytorch adapter and not repeated here.

The transformers/TRL/torch versions come from the project's requirement files
(:mod:`preflight.adapters.transformers_version`); without one, the latest (5.x) is assumed
and the plan says so.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

from preflight.adapters.transformers_args import ArgsPass
from preflight.adapters.transformers_models import _is_hf, _ModelPass

from preflight.adapters_api import Adapter, CallSite, Project, ScriptIndex
from preflight.analysis.syntax import dotted_name
from preflight.plan import FIELDS, Source, TrainingPlan
from preflight.registry import register_adapter


def _library_trainer(idx: ScriptIndex) -> bool:
    """The script builds a ``...Trainer(args=X)`` and writes a TrainingArguments key on ``X``
    (``X.per_device_train_batch_size = 8``) without importing transformers itself."""
    from preflight.adapters.transformers_args import TRAINING_KEYS

    keys = "|".join(TRAINING_KEYS)
    for s in idx.calls:
        arg = s.kwarg("args")
        if (s.last or "").endswith("Trainer") and isinstance(arg, ast.Name) \
                and re.search(rf"^\s*{re.escape(arg.id)}\.(?:{keys})\s*=[^=]", idx.script.source.text, re.M):
            return True
    return False


#: TRL trainers that keep a frozen reference model beside the policy (``model.frozen_copies``)
_REFERENCE_TRAINERS = ("DPOTrainer", "KTOTrainer")


@register_adapter
class TransformersAdapter(Adapter):
    name = "transformers"
    frameworks = ("transformers",)

    def detect(self, project: Project) -> bool:
        return any(project.index(s).imports_any("transformers", "trl") or _library_trainer(project.index(s))
                   for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            idx = project.index(script)
            if idx.imports_any("transformers", "trl"):
                _ScriptPass(self, project, plan, idx).run()
            elif _library_trainer(idx):
                # a library's Trainer built on transformers' (verifiers ``vf.GRPOTrainer(args=training_args)``):
                # only the values the script writes on its arguments object are read
                ArgsPass(_ScriptPass(self, project, plan, idx)).attribute_writes()


class _ScriptPass(_ModelPass):
    """One script's pass: versions, TrainingArguments, the model (transformers_models.py), PEFT,
    the trainers and generation."""

    # -- passes --------------------------------------------------------------
    def run(self) -> None:
        self.versions()
        args = ArgsPass(self)
        args.run()
        self.models()
        self.use_cache()
        self.activation()
        self.peft()
        self.speech()
        self.trainers(args.trl_used)
        self.generation()

    def versions(self) -> None:
        name = self.script.source.display
        if self.torch is not None and "framework.torch_version" in FIELDS:
            path, _, line = self.torch.where.rpartition(":")
            where = Source("config", path=path or self.torch.where,
                           line=int(line) if line.isdigit() and int(line) > 0 else None,
                           detail=f"torch {self.torch.text} ({self.torch.how})")
            self.add("framework.torch_version", self.torch.text, where,
                     "high" if self.torch.how == "pinned" else "medium")
        if self.transformers is not None and "framework.transformers_version" in FIELDS:
            path, _, line = self.transformers.where.rpartition(":")
            where = Source("config", path=path or self.transformers.where,
                           line=int(line) if line.isdigit() and int(line) > 0 else None,
                           detail=f"transformers {self.transformers.text} ({self.transformers.how})")
            self.add("framework.transformers_version", self.transformers.text, where,
                     "high" if self.transformers.how == "pinned" else "medium")
        for package, found in (("transformers", self.transformers), ("trl", self.trl)):
            if found is not None:
                self.note(f"{name}: {found.describe()}; version-dependent defaults follow it")
            elif package == "transformers":
                self.note(f"{name}: transformers version not found in requirements/pyproject/setup.py/"
                          "environment.yml/lock files; assumed 5.x")
            elif self.idx.imports_any("trl"):
                self.note(f"{name}: trl version not found; TRL defaults of the latest release assumed")
    def speech(self) -> None:
        """``model.freeze_feature_encoder()`` (wav2vec 2.0 and kin; ``freeze_feature_extractor``
        before): the conv feature encoder takes no gradient and saves nothing (audio_frontend.py)."""
        if "model.feature_encoder_frozen" not in FIELDS:
            return
        for site in self.calls:
            if site.last in ("freeze_feature_encoder", "freeze_feature_extractor") and self.idx.runs(site) is not False:
                self.add("model.feature_encoder_frozen", True, self.src(
                    site.call, f"{site.label}(): the conv feature encoder is frozen"), self.conf(site))
                break

    def peft(self) -> None:
        if "peft.kbit_prepared" in FIELDS:
            for site in self.calls:
                if site.last == "prepare_model_for_kbit_training":
                    self.add("peft.kbit_prepared", True, self.src(
                        site.call, f"{site.label}(): fp32 embeddings, norms and LM head"),
                        self.conf(site))
                    break
        if "peft.trained_embeddings" in FIELDS:
            from preflight.adapters.peft_tables import trained_embeddings

            found = trained_embeddings(list(self.calls))
            if found is not None:
                self.add("peft.trained_embeddings", found[0], self.src(found[1].call, found[2]),
                         "medium" if found[0] == "resized" else self.conf(found[1]))
        for site in self.calls:
            if site.last != "LoraConfig" or not _is_hf(site):
                continue
            if site.kwarg("target_modules") is None:
                self.note(f"{self.script.source.display}:{site.line}: LoraConfig(target_modules=None): PEFT picks "
                          "per-model defaults (llama/mistral/qwen2/gemma: q_proj, v_proj; gpt2: c_attn)")

    def mentions_peft(self) -> bool:
        """Whether the script or a local module it imports (beside it) names PEFT/LoRA at all."""
        from preflight.adapters.pytorch_local import names_peft

        path = self.script.source.path
        return names_peft(self.script.source.text, self.script.tree, Path(str(path)) if path else None)

    def weights_4bit(self, sure: bool = False) -> bool:
        """A 4-bit load in this file that may run (``sure``: one whose every guard is decided
        taken); a load under a guard decided false is not one."""
        for site in self.calls:
            if site.last != "BitsAndBytesConfig" and not (site.name or "").endswith(".from_pretrained"):
                continue
            runs = self.idx.runs(site)
            if runs is False or (sure and runs is not True):
                continue
            flag = self.idx.resolve(site.kwarg("load_in_4bit"))
            if flag is not None and flag.value is True:
                return True
        return False

    def trainers(self, trl_used: bool) -> None:
        trainers: dict[str, CallSite] = {}
        from preflight.adapters.caller_guards import callers_run

        # a LoRA construct inside a helper whose calls may not run is not this file's adapter (caller_guards.py)
        from preflight.adapters.peft_tables import trainable_adapter_load

        # ``PeftModel.from_pretrained(..., is_trainable=True)`` trains a saved adapter (peft_tables.py)
        peft = peft_here = any((s.last in ("LoraConfig", "get_peft_model") or trainable_adapter_load(s.call))
                               and _is_hf(s) and callers_run(self.idx, s) is True for s in self.calls)
        from preflight.adapters.trainer_subclass import local_hf_trainer

        here = Path(str(self.script.source.path)).parent
        for site in self.calls:
            if not (site.last or "").endswith("Trainer"):
                continue
            if not _is_hf(site):
                # a project subclass of the Trainer in a module the script imports: it owns the loop too
                if site.target and local_hf_trainer(site, here, self.project.root):
                    trainers[site.target] = site
                continue
            if site.target:
                trainers[site.target] = site
            if site.kwarg("peft_config") is not None and not (
                    isinstance(site.kwarg("peft_config"), ast.Constant)):
                peft = True
            model = self.idx.resolve(site.arg(0, "model"))
            if model is not None and isinstance(model.value, str) and "/" in model.value:
                self.add("model.ref", model.value, self.src(site.kwarg("model") or site.call,
                                                            f"{site.label}(model=...): a model id"), self.conf(site))
        for site in self.calls:
            func = site.call.func
            if not (isinstance(func, ast.Attribute) and func.attr == "train"):
                continue
            receiver = dotted_name(func.value)
            owner = trainers.get(receiver or "")
            if owner is None and isinstance(func.value, ast.Call):  # SFTTrainer(...).train()
                owner = next((s for s in self.calls if s.call is func.value and _is_hf(s)
                              and (s.last or "").endswith("Trainer")), None)
            if owner is None:
                continue
            if peft and not peft_here and self.plan.value("peft.method") == "none":
                peft = False  # the peft_config handed over is None: its LoraConfig is decided dead
            four = self.weights_4bit() or self.plan.value("precision.weights_bits") == 4
            mode = ("qlora" if four else "lora") if peft else "finetune"
            if (mode == "qlora" and owner.last == "SFTTrainer" and owner.kwarg("peft_config") is not None
                    and "peft.kbit_prepared" in FIELDS):
                # TRL's SFTTrainer prepares a quantized model itself before wrapping it
                self.add("peft.kbit_prepared", True, self.src(
                    owner.call, f"{owner.label}(peft_config=...): TRL calls "
                    "prepare_model_for_kbit_training for a quantized model"), self.conf(owner))
            self.frozen_copies(owner, peft)
            detail = f"{site.label}(): the {owner.last} owns the training loop"
            if peft:
                detail += " (with a PEFT adapter)"
            elif "peft.method" not in self.plan and not self.mentions_peft():
                self.add("peft.method", "none", self.src(site.call, f"{detail}; the job's code never imports peft "
                                                                    "nor builds an adapter"), "medium")
            conf = self.conf(site)
            if not peft and self.plan.value("peft.method") != "none" and self.mentions_peft():
                # the job names LoRA/PEFT where this file builds none: a project method may apply
                # it (InternVL `model.wrap_llm_lora(...)`), so full fine-tuning is a guess
                conf = "low"
            if peft and not peft_here:  # the adapter is known from other adapters' facts
                conf = self.plan.capped(conf, "peft.method")
            elif peft and not any(s.last in ("LoraConfig", "get_peft_model") for s in self.calls):
                conf = "medium" if conf == "high" else conf  # a saved adapter: its kind is in its own files
            if mode == "qlora" and not self.weights_4bit(sure=True):  # the 4-bit load may not run
                conf = self.plan.capped("medium" if conf == "high" else conf, "precision.weights_bits")
            self.add("task.mode", mode, self.src(site.call, detail), conf)
            self.compiled_loss(owner)
            break

    def grpo_reference(self, owner: Any, peft: bool) -> None:
        """TRL's ``GRPOTrainer`` keeps a reference copy only when ``beta`` (the KL coefficient)
        is not 0 and the model is no PEFT model (``grpo_trainer.py``: ``if self.beta == 0.0:
        self.ref_model = None`` / ``elif is_peft_model(model): self.ref_model = None``). The
        default changed between TRL releases (0.0 at f2cd577), so only a ``beta`` written in the
        ``GRPOConfig(...)`` the trainer receives decides it."""
        args = owner.kwarg("args")
        config = None
        if isinstance(args, ast.Call):
            config = next((s for s in self.calls if s.call is args), None)
        elif isinstance(args, ast.Name):
            config = next((s for s in self.calls if s.target == args.id and s.last == "GRPOConfig"), None)
        if config is None or config.last != "GRPOConfig":
            return
        beta = self.idx.resolve(config.kwarg("beta"))
        if beta is None or isinstance(beta.value, bool) or not isinstance(beta.value, (int, float)):
            return
        copies = 1 if beta.value != 0 and not peft else 0
        why = (f"GRPOConfig(beta={beta.value}): " + ("a PEFT model, TRL disables the adapter for the reference"
                                                     if peft and beta.value != 0 else
                                                     "no reference model" if beta.value == 0 else
                                                     "TRL builds a reference copy"))
        self.add("model.frozen_copies", copies, self.src(config.call, why), "medium")

    def frozen_copies(self, owner: Any, peft: bool) -> None:
        """``model.frozen_copies`` for TRL's preference trainers, which keep a reference model
        (trl ``DPOTrainer``/``KTOTrainer``: ``ref_model`` None and ``is_peft_model(model)`` ->
        ``self.ref_model = None``, the adapter is disabled instead; else a copy built like the
        policy). An explicit ``ref_model=`` is a copy even with an adapter."""
        if "model.frozen_copies" not in FIELDS:
            return
        if owner.last == "GRPOTrainer":
            self.grpo_reference(owner, peft)
            return
        if owner.last not in _REFERENCE_TRAINERS:
            return
        ref = owner.arg(1, "ref_model")   # DPOTrainer(model, ref_model, ...) or ref_model=...
        given = ref is not None and not (isinstance(ref, ast.Constant) and ref.value is None)
        copies = 1 if given or not peft else 0
        why = ("ref_model=... passed" if given else "a PEFT model: TRL disables the adapter for the "
               "reference, no copy" if peft else "no ref_model and no adapter: TRL builds a reference copy")
        self.add("model.frozen_copies", copies, self.src(owner.call, f"{owner.label}(): {why}"), "medium")

    def compiled_loss(self, owner: CallSite) -> None:
        """``compile.loss_inside`` True for a Trainer that compiles the model (``torch_compile``)
        and computes the loss with it (adapters/compile_loss.py: ``trainer_loss_inside``)."""
        from preflight.adapters.compile_loss import trainer_loss_inside

        compiled = self.plan.resolve("compile.enabled")
        if "compile.loss_inside" not in FIELDS or compiled is None or compiled.value is not True \
                or self.plan.value("loss.implementation") is not None:
            return
        why = trainer_loss_inside(owner, self.loss_args)
        if why is not None:
            self.add("compile.loss_inside", True, self.src(owner.call, why),
                     self.plan.capped(self.conf(owner), "compile.enabled"))

    def generation(self) -> None:
        for site in self.calls:
            if site.last != "GenerationConfig" or not _is_hf(site):
                continue
            for kw, field in (("max_new_tokens", "generation.max_new_tokens"),
                              ("num_beams", "generation.num_beams"), ("use_cache", "generation.use_cache")):
                value = self.idx.resolve(site.kwarg(kw))
                if value is not None and value.kind == "code":
                    self.add(field, value.value, self.src(value.line or site.line, f"GenerationConfig({kw}=...)"),
                             self.conf(site))
