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
import os
import re
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.trained_model import not_trained
from preflight.adapters.transformers_args import ArgsPass
from preflight.adapters.transformers_version import Version, find_version

from preflight.adapters_api import Adapter, CallSite, Project, ScriptIndex
from preflight.analysis.syntax import dotted_name
from preflight.plan import FIELDS, Source, TrainingPlan
from preflight.registry import register_adapter

_MODEL_CLASS = re.compile(r"^(Auto\w*Model\w*|\w*Model|\w+For[A-Z]\w*|\w*LMHeadModel)$")
_NOT_MODEL = re.compile(r"Tokenizer|Processor|Config|FeatureExtractor|^Peft|^AutoPeft")


def _is_hf(site: CallSite) -> bool:
    q = site.qualified or ""
    return q.startswith(("transformers.", "trl.", "peft."))


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


class _ScriptPass:
    def __init__(self, adapter: TransformersAdapter, project: Project, plan: TrainingPlan,
                 idx: ScriptIndex) -> None:
        self.adapter = adapter
        self.project = project
        self.plan = plan
        self.idx = idx
        self.script = idx.script
        self.calls = [s for s in idx.calls if idx.runs(s) is not False]
        folder = Path(self.script.source.path).parent
        self.transformers = find_version("transformers", folder, project.root)
        if self.transformers is None and project.transformers_version:
            self.transformers = Version("transformers", project.transformers_version, "stated by the user",
                                        "--transformers-version / [tool.preflight] transformers-version")
        self.trl = find_version("trl", folder, project.root)
        self.torch = find_version("torch", folder, project.root)
        self.major = self.transformers.parts[0] if self.transformers else 5
        # TrainingArguments values that decide where the Trainer's loss runs (compile_loss.py)
        self.loss_args: dict[str, Any] = {}

    # -- helpers -------------------------------------------------------------
    def conf(self, site: CallSite) -> str:
        return "high" if self.idx.runs(site) else "medium"

    def src(self, node: Any, detail: Optional[str] = None, kind: str = "code", key: Optional[str] = None) -> Source:
        return self.project.source(self.script, node, kind, key=key, detail=detail)

    def add(self, field: str, value: Any, source: Source, confidence: str = "high", priority: int = 0) -> None:
        self.adapter.add_checked(self.plan, field, value, source, confidence, priority)

    def note(self, text: str) -> None:
        self.adapter.note(self.plan, text)

    def version_text(self) -> str:
        return f"transformers {self.transformers.text}" if self.transformers else "transformers 5.x (assumed)"

    def trl_at_least(self, *numbers: int) -> bool:
        return self.trl is None or self.trl.at_least(*numbers)

    def trl_text(self) -> str:
        return f"TRL {self.trl.text}" if self.trl else "TRL latest (assumed)"

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

    def models(self) -> None:
        for site in self.calls:
            name = site.name or ""
            if not name.endswith(".from_pretrained"):
                continue
            cls = name.rsplit(".", 2)[-2]
            if "." not in name[:-len(".from_pretrained")]:
                from preflight.adapters.model_class_choice import chosen_class

                chosen = chosen_class(self.idx, cls, _MODEL_CLASS, _NOT_MODEL)
                if chosen is not None:
                    self.model_defaults(site, f"{cls} (transformers' {' or '.join(chosen)})")
                    continue
            if not _MODEL_CLASS.match(cls) or _NOT_MODEL.search(cls):
                continue
            self.model_defaults(site, cls)

    def quantized(self, site: CallSite) -> Optional[int]:
        """4 or 8 when ``site`` loads quantized weights with bitsandbytes, 0 for another
        quantization config, None when not quantized."""
        for kw, bits in (("load_in_4bit", 4), ("load_in_8bit", 8)):
            flag = self.idx.resolve(site.kwarg(kw))
            if flag is not None and flag.value is True:
                if self.major >= 5:
                    self.note(f"{self.script.source.display}:{site.line}: from_pretrained({kw}=True) was removed "
                              f"in transformers 5.x ({self.version_text()}); use "
                              "quantization_config=BitsAndBytesConfig(...)")
                return bits
        qconf = site.kwarg("quantization_config")
        if qconf is None or (isinstance(qconf, ast.Constant) and qconf.value is None):
            return None
        call = qconf if isinstance(qconf, ast.Call) else None
        if isinstance(qconf, ast.Name):
            bound = self.idx.assigns.get(qconf.id, [])
            call = bound[0] if len(bound) == 1 and isinstance(bound[0], ast.Call) else None
        if call is None or not (dotted_name(call.func) or "").endswith("BitsAndBytesConfig"):
            return 0
        for keyword in call.keywords:
            value = self.idx.resolve(keyword.value)
            if keyword.arg in ("load_in_4bit", "load_in_8bit") and value is not None and value.value is True:
                return 4 if keyword.arg == "load_in_4bit" else 8
        return 0

    def own_flash_attention(self, site: CallSite) -> Optional[tuple[str, str]]:
        """(module file, function) when the project module the class comes from imports flash-attn at its
        top level and calls its ``flash_attn_*`` functions, and computes no softmax attention or sdpa
        anywhere (ProLong ``training/modeling_flash_llama.py:41,325``); else None."""
        module = (site.qualified or "").rsplit(".", 2)[0]
        if not module or "." not in (site.qualified or ""):
            return None
        rel = module.replace(".", "/")
        bases = [Path(str(self.project.root))]
        if self.script.source.path is not None:
            bases.append(Path(str(self.script.source.path)).parent)
        from preflight.local_trees import parse_file

        for base in bases:
            path = base / f"{rel}.py"
            if not path.is_file() or not self.project.may_read(path):
                continue
            try:
                if path.stat().st_size > 2_000_000:
                    return None
                tree = parse_file(path)
            except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
                return None
            imported = {a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom)
                        and (n.module or "").split(".")[0] == "flash_attn" for a in n.names}
            called = [n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                      and n.func.id in imported and n.func.id.startswith("flash_attn_")]
            named = [n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in imported
                     and n.id.startswith("flash_attn_")]
            other = any(isinstance(n, ast.Call) and (dotted_name(n.func) or "").rsplit(".", 1)[-1]
                        in ("softmax", "scaled_dot_product_attention", "Softmax") for n in ast.walk(tree))
            if (called or named) and not other:
                return os.path.relpath(path, self.project.root) if str(path).startswith(str(self.project.root)) \
                    else str(path), (called or named)[0]
            return None
        return None

    def project_class(self, site: CallSite) -> bool:
        """The class is imported from a module of the project (a file or package of that name beside
        the script or at the project's root), not from transformers."""
        qualified = site.qualified or ""
        root = qualified.split(".")[0]
        if not root or root in ("transformers", "peft", "trl", "torch") or qualified == site.name:
            return False
        bases = [Path(str(self.project.root))]
        if self.script.source.path is not None:
            bases.append(Path(str(self.script.source.path)).parent)
        return any((b / root).is_dir() or (b / f"{root}.py").is_file() for b in bases)

    def model_defaults(self, site: CallSite, cls: str) -> None:
        conf = "medium" if self.conf(site) == "high" else "low"
        where = f"{self.script.source.display}:{site.line}"
        quantized = self.quantized(site)
        given = [kw for kw in ("dtype", "torch_dtype") if site.kwarg(kw) is not None]
        from preflight.adapters.model_cast_init import chained_cast

        cast = chained_cast(self.idx.calls, site.call) if quantized is None else None
        if cast is not None:
            self.add("precision.weights_bits", 16,
                     self.src(cast[1], f"{cls}.from_pretrained(...).{getattr(cast[1].func, 'attr', '')}(): "
                              f"{cast[0]} weights"), self.conf(site))
        elif not given and quantized is None:
            if self.major < 5:
                self.add("precision.weights_bits", 32,
                         self.src(site.call, f"{cls}.from_pretrained() without dtype: {self.version_text()} "
                                  "loads fp32 (transformers 4.x default torch_dtype=None)", "default", "dtype"), conf)
            else:
                self.note(f"{where}: {cls}.from_pretrained() without dtype: {self.version_text()} defaults to "
                          "dtype=\"auto\" (the dtype in the checkpoint's config.json), so the weight size is "
                          "not known statically")
        for kw in given:
            value = self.idx.resolve(site.kwarg(kw))
            if value is not None and value.value == "auto":
                self.note(f"{where}: from_pretrained({kw}=\"auto\"): the dtype comes from the checkpoint's "
                          "config.json; not a fact")
            if kw == "torch_dtype" and self.transformers is not None and self.transformers.at_least(4, 57):
                self.note(f"{where}: torch_dtype= is deprecated since transformers 4.57 ({self.version_text()}); "
                          "use dtype=")
        if site.kwarg("attn_implementation") is None and site.kwarg("use_flash_attention_2") is None:
            if self.project_class(site):
                # a model class of the project's own modeling file, named like the library's
                # (princeton-nlp/ProLong training/train_language_model.py:16 ``from
                # training.modeling_flash_llama import LlamaForCausalLM``, whose attention calls
                # flash-attn itself): from_pretrained is the library's, the attention is not
                flash = self.own_flash_attention(site)
                if flash is not None:
                    self.add("model.attn_implementation", "flash_attention_2",
                             self.src(site.call, f"{cls} is the project's own ({flash[0]}): its attention calls "
                                      f"{flash[1]}() of flash-attn, with no softmax or sdpa path"), conf)
                    return
                self.note(f"{where}: {cls} is the project's own ({site.qualified}): its attention is its code's, "
                          "not the transformers default")
                return
            trained = not_trained(self.idx, site.target)
            if trained is not None:
                self.note(f"{where}: {cls}.from_pretrained() into {site.target}, which the job does not hand to its "
                          f"engine or optimizer ({trained} is): the library's attention default is not the trained "
                          "model's")
                return
            if self.transformers is not None and not self.transformers.at_least(4, 36):
                self.add("model.attn_implementation", "eager",
                         self.src(site.call, f"{self.version_text()}: no attn_implementation before 4.36, eager "
                                  "attention", "default", "attn_implementation"), conf)
            else:
                self.add("model.attn_implementation", "sdpa",
                         self.src(site.call, f"{self.version_text()} default (>= 4.36): sdpa when the model "
                                  "supports it, else eager", "default", "attn_implementation"), conf)

    def use_cache(self) -> None:
        """``model.use_cache`` as the script says it: ``from_pretrained(..., use_cache=X)`` on a
        model class, or ``<model>.config.use_cache = False`` (a True set back after training is
        for generation, not read). An explicit value beats the default-kind fact that FSDP
        activation checkpointing leaves the cache on (``adapters/_cache.py``)."""
        if "model.use_cache" not in FIELDS:
            return
        for site in self.calls:
            name = site.name or ""
            cls = name.rsplit(".", 2)[-2] if name.endswith(".from_pretrained") else ""
            if not cls or not _MODEL_CLASS.match(cls) or _NOT_MODEL.search(cls):
                continue
            flag = self.idx.resolve(site.kwarg("use_cache"))
            if flag is not None and isinstance(flag.value, bool) and self.idx.runs(site) is not False:
                self.add("model.use_cache", flag.value,
                         self.src(site.call, f"{cls}.from_pretrained(use_cache={flag.value})",
                                  key="use_cache"), self.conf(site))
                return
        tree = self.script.tree
        if tree is None:
            return
        for node in ast.walk(tree):
            if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.Constant) \
                    or node.value.value is not False:
                continue
            for target in node.targets:
                if isinstance(target, ast.Attribute) and target.attr == "use_cache" \
                        and isinstance(target.value, ast.Attribute) and target.value.attr == "config":
                    self.add("model.use_cache", False,
                             self.src(node, f"{ast.unparse(target)} = False", key="use_cache"), "high")
                    return

    def activation(self) -> None:
        """``model.activation_function``: the MLP activation the script builds the model with,
        ``from_pretrained(..., activation_function="gelu_pytorch_tanh")`` (or ``hidden_act=``) on
        a model class, or a config class called with it (``GPT2Config(activation_function=...)``,
        which the model is then built from). A string literal or a name bound to one only."""
        if "model.activation_function" not in FIELDS:
            return
        for site in self.calls:
            name = site.name or ""
            cls = name.rsplit(".", 2)[-2] if name.endswith(".from_pretrained") else ""
            model = bool(cls) and bool(_MODEL_CLASS.match(cls)) and not _NOT_MODEL.search(cls)
            # a config class called, or loaded (AutoConfig.from_pretrained(..., activation_function=))
            config_cls = cls or (site.last or "")
            config = config_cls.endswith("Config") and config_cls not in (
                "LoraConfig", "BitsAndBytesConfig", "GenerationConfig", "PeftConfig")
            if not (model or config) or self.idx.runs(site) is False:
                continue
            for key in ("activation_function", "hidden_act"):
                found = self.idx.resolve(site.kwarg(key))
                if found is None or not isinstance(found.value, str):
                    continue
                self.add("model.activation_function", found.value.lower(),
                         self.src(site.call, f"{site.label}({key}={found.value!r})", key=key),
                         self.conf(site))
                return

    def loads_non_fp32(self) -> bool:
        """A from_pretrained in the script loads 16-bit, "auto" or quantized weights (or,
        in 5.x, leaves dtype at its "auto" default): with AMP off the Trainer then computes
        in that dtype, not fp32."""
        for site in self.calls:
            name = site.name or ""
            if not name.endswith(".from_pretrained") or _NOT_MODEL.search(name.rsplit(".", 2)[-2]):
                continue
            if self.quantized(site) is not None:
                return True
            exprs = [e for e in (site.kwarg(kw) for kw in ("dtype", "torch_dtype")) if e is not None]
            if not exprs and self.major >= 5:
                return True
            for expr in exprs:
                text = ast.unparse(expr).lower()
                if not any(word in text for word in ("float32", "fp32")) or "auto" in text:
                    return True
        return False

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
