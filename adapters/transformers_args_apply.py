"""Writing TrainingArguments / TRL config values into the plan: precision, FSDP, DeepSpeed, and the framework defaults with the release range they hold for.

Part of :mod:`preflight.adapters.transformers_args` (its ``ArgsPass``), split by concern."""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from preflight.adapters._cache import cache_stays_on
from preflight.adapters.deepspeed import deepspeed_block

from preflight.adapters_api import CallSite
from preflight.plan import FIELDS, Source
from preflight.sources import read_text_limited

if TYPE_CHECKING:
    from preflight.adapters.transformers import _ScriptPass


TRL_CONFIGS = ("SFTConfig", "DPOConfig", "GRPOConfig", "ORPOConfig", "KTOConfig", "CPOConfig", "PPOConfig",
               "RewardConfig", "RLOOConfig", "OnlineDPOConfig", "GKDConfig", "PRMConfig", "BCOConfig",
               "XPOConfig", "NashMDConfig")


ARG_CLASSES = ("TrainingArguments", "Seq2SeqTrainingArguments", *TRL_CONFIGS)


# TrainingArguments keys read, with their value type (frameworks.md §1.3).
TRAINING_KEYS: dict[str, str] = {
    "per_device_train_batch_size": "int", "gradient_accumulation_steps": "int", "bf16": "bool", "fp16": "bool",
    "optim": "str", "gradient_checkpointing": "bool", "activation_checkpointing": "bool", "deepspeed": "any",
    "fsdp": "any", "torch_compile": "bool", "max_length": "int", "max_seq_length": "int",
    "use_liger_kernel": "bool", "fsdp_config": "any", "dataloader_num_workers": "int", "dataloader_pin_memory": "bool",
    "label_smoothing_factor": "any", "loss_type": "str", "group_by_length": "bool",
    "packing": "bool",  # TRL SFTConfig: est69 (no data.truncation claimed for packed rows)
}


_FSDP = {"full_shard": "fsdp_full", "shard_grad_op": "fsdp_grad_op", "hybrid_shard": "fsdp_hybrid",
         "hybrid_shard_zero2": "fsdp_hybrid", "no_shard": "ddp"}


_SEQ_KEYS = ("max_length", "max_seq_length")


def _statements(body: list[ast.stmt], plain: bool) -> Any:
    """Each statement of ``body`` and of the blocks nested in it (not nested functions or classes),
    with whether it runs unconditionally (a plain statement of ``body`` itself)."""
    for stmt in body:
        yield stmt, plain
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for field_name in ("body", "orelse", "finalbody", "handlers"):
            inner = getattr(stmt, field_name, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                yield from _statements(inner, plain and isinstance(stmt, (ast.With, ast.Try)) and field_name == "body")
            elif isinstance(inner, list):
                for h in inner:
                    if isinstance(h, ast.ExceptHandler):
                        yield from _statements(h.body, False)


def record_fp16_and_bf16(add: Any, fp16: Source, bf16: Source, conf: str) -> None:
    """The pair of ``precision.fp16_and_bf16`` facts of one setting (PF503 reads them): the
    fp16 key's source, then the bf16 key's. Only settings with a file line (a call, a file)."""
    if "precision.fp16_and_bf16" not in FIELDS or not (fp16.path and fp16.line and bf16.path and bf16.line):
        return
    for src, other in ((fp16, bf16), (bf16, fp16)):
        add("precision.fp16_and_bf16", True,
            Source(src.kind, src.path, src.line, src.key,
                   f"{src.detail or src.key}; the other 16-bit mode is on at {other.location()}"), conf)


def _hf(site: CallSite) -> bool:
    q = site.qualified or ""
    return q.startswith(("transformers.", "trl."))


_RANK = {"low": 0, "medium": 1, "high": 2}


class _ArgsApply:
    def __init__(self, owner: _ScriptPass) -> None:
        self.o = owner
        self.trl_used = False
        self.priority = 0  # 1 for values written on the arguments object after it is built
        self.deepspeed_unread = False  # deepspeed="FILE" names a config preflight did not read
        self.caps: dict[int, str] = {}  # id(source) -> the most a value found below high may claim

    def add(self, field: str, value: Any, source: Source, confidence: str = "high") -> None:
        cap = self.caps.get(id(source))
        if cap is not None and _RANK.get(cap, 2) < _RANK.get(confidence, 2):
            confidence = cap  # a value decided by what the launcher sets (preflight.script_env)
        self.o.add(field, value, source, confidence, self.priority)

    # -- facts -----------------------------------------------------------------
    def where(self, line: Optional[int]) -> str:
        return f"{self.o.script.source.display}:{line}" if line else self.o.script.source.display

    def apply(self, values: dict[str, tuple[Any, Source]], conf: str, trl: bool, *, complete: bool,
              label: str) -> None:
        """Facts for one group of values (one call, one file, the command line)."""
        add = self.add
        for key, field in (("per_device_train_batch_size", "batch.micro"),
                           ("gradient_accumulation_steps", "batch.grad_accum")):
            if key in values:
                add(field, values[key][0], values[key][1], conf)
        for key in ("gradient_checkpointing", "activation_checkpointing"):
            if key in values:
                add("memory.gradient_checkpointing", values[key][0], values[key][1], conf)
        if "torch_compile" in values:
            add("compile.enabled", values["torch_compile"][0], values["torch_compile"][1], conf)
        if values.get("use_liger_kernel", (False,))[0] is True and "loss.implementation" in FIELDS:
            # Liger's fused linear cross-entropy replaces the LM head + loss (never full logits)
            add("loss.implementation", "fused", values["use_liger_kernel"][1], conf)
            if "model.liger_kernels" in FIELDS:
                # the Trainer applies apply_liger_kernel_to_<model> with its defaults: RMSNorm,
                # SwiGLU and RoPE are Liger's too (estimate: activations.liger_norm)
                add("model.liger_kernels", True, values["use_liger_kernel"][1], conf)
        for key in ("label_smoothing_factor", "loss_type"):
            if key in values:
                self.o.loss_args[key] = values[key][0]
        if "optim" in values:
            add("optimizer.name", values["optim"][0], values["optim"][1], conf)
            self.trainer_step_path(values["optim"][0], values["optim"][1], conf)
        if "group_by_length" in values and isinstance(values["group_by_length"][0], bool):
            add("data.group_by_length", values["group_by_length"][0], values["group_by_length"][1], conf)
        if "dataloader_num_workers" in values:
            add("data.num_workers", values["dataloader_num_workers"][0], values["dataloader_num_workers"][1], conf)
        if "dataloader_pin_memory" in values and isinstance(values["dataloader_pin_memory"][0], bool):
            add("data.pin_memory", values["dataloader_pin_memory"][0], values["dataloader_pin_memory"][1], conf)
        if trl or label in TRL_CONFIGS:
            for key in _SEQ_KEYS:
                if key in values:
                    add("data.seq_len", values[key][0], values[key][1], conf)
                    if label == "SFTConfig" and values[key][0] is not None \
                            and values.get("packing", (False,))[0] is False:
                        # SFTTrainer cuts each sample to it: tokenizer(truncation=True, max_length=
                        # max_seq_length) (trl v0.7.4 sft_trainer.py:352), truncate_dataset (v0.19.0 :792)
                        source = values[key][1]
                        add("data.truncation", "cut", Source(source.kind, source.path, source.line, source.key,
                                                             f"SFTTrainer cuts samples to {key}"), "medium")
        if "deepspeed" in values and self.unread_deepspeed(values["deepspeed"][0]):
            # the DeepSpeed config decides precision and optimizer; not read, so --bf16 says little
            self.deepspeed_unread = True
        self.precision(values, "low" if self.deepspeed_unread else conf, trl, complete)
        if "fsdp" in values:
            self.fsdp(*values["fsdp"], conf)
        if "fsdp_config" in values:
            self.fsdp_config(*values["fsdp_config"], conf)
        if "deepspeed" in values:
            self.deepspeed(*values["deepspeed"])

    def precision(self, values: dict[str, tuple[Any, Source]], conf: str, trl: bool, complete: bool) -> None:
        bf16 = values.get("bf16")
        fp16 = values.get("fp16")
        for key, field in (("fp16", "precision.hf_fp16"), ("bf16", "precision.hf_bf16")):
            # the switch the HF DeepSpeed integration compares with `<key>.enabled` (fill_match)
            item, full_eval = values.get(key), values.get(f"{key}_full_eval")
            if field in FIELDS and item is not None and isinstance(item[0], bool) and not (
                    full_eval is not None and full_eval[0] is not False):
                self.add(field, item[0], item[1], conf)
        on = [(mode, item[1]) for mode, item in (("amp_bf16", bf16), ("amp_fp16", fp16))
              if item is not None and item[0] is True]
        if bf16 is not None or fp16 is not None:
            from preflight.adapters.training_args_bag import precision_flags_unused

            unused = precision_flags_unused(self.o.script.tree, self.o.calls)
            if unused is not None:
                self.o.note(unused)
                return
        for mode, source in on:
            self.add("precision.mode", mode, source, conf)
        if len(on) == 2:
            self.o.note(f"{on[0][1].location()}: bf16=True and fp16=True together: TrainingArguments raises "
                        "ValueError (\"At most one of fp16 and bf16 can be True\")")
            record_fp16_and_bf16(self.add, fp16[1], bf16[1], conf)  # type: ignore[index]
        off = [item for item in (bf16, fp16) if item is not None and item[0] is False]
        # All explicit False, or (in a call) the missing one defaults to False too.
        if not on and off and (len(off) == 2 or (complete and not (trl and bf16 is None))):
            source = off[0][1]
            if self.o.loads_non_fp32():
                self.o.note(f"{source.location()}: bf16/fp16 off: no autocast; the model is not loaded in fp32, "
                            "so it computes in the dtype of its weights")
                return
            self.add("precision.mode", "fp32",
                       Source(source.kind, source.path, source.line, source.key,
                              (source.detail or "") + ": neither bf16 nor fp16, the Trainer computes in fp32"), conf)

    def fsdp_config(self, value: Any, source: Source, conf: str) -> None:
        """``fsdp_config``: a dict, or a JSON file named on the line (relative to the working
        directory or the script): its ``activation_checkpointing`` turns checkpointing on."""
        data, where = value, source
        if isinstance(value, str) and value.endswith(".json"):
            import json

            for base in (Path(self.o.project.root), Path(str(self.o.script.source.path)).parent):
                path = base / value
                if os.path.isfile(path) and self.o.project.may_read(path):
                    try:
                        data = json.loads(read_text_limited(path, errors="replace"))
                    except (OSError, ValueError):
                        return
                    where = Source("config", value, None, "activation_checkpointing",
                                   f"{value} (fsdp_config named by {source.location()})")
                    break
        if not isinstance(data, dict):
            return
        from preflight.adapters.fsdp_wrap_policy import wrap_from_block

        wrap = wrap_from_block(data)
        if wrap is not None:
            self.add("dist.fsdp_wrap", wrap[0], Source(where.kind, where.path, where.line, wrap[1], wrap[2]), conf)
        for key in ("activation_checkpointing", "fsdp_activation_checkpointing"):
            if isinstance(data.get(key), bool):
                self.add("memory.gradient_checkpointing", data[key], where, conf)
                if data[key]:
                    self.add("model.use_cache", True, cache_stays_on(where), "medium")
                return

    def fsdp(self, value: Any, source: Source, conf: str) -> None:
        words = value.split() if isinstance(value, str) else value if isinstance(value, list) else []
        words = [w.lower() for w in words if isinstance(w, str)]
        for word in words:
            if word in _FSDP:
                self.add("dist.sharding", _FSDP[word], source, conf)
        if words and not any(w in _FSDP for w in words):
            self.add("dist.sharding", "fsdp_full", Source(source.kind, source.path, source.line, source.key,
                                                            (source.detail or "") + ": FULL_SHARD by default"), conf)
        if "auto_wrap" in words:
            # the Trainer wraps model._no_split_modules (or transformer_layer_cls_to_wrap) unless
            # fsdp_config sets min_num_params (read there)
            self.add("dist.fsdp_wrap", "block", Source(source.kind, source.path, source.line, source.key,
                                                       (source.detail or "") + ": auto_wrap, one unit per block"),
                     "medium")
        if "offload" in words:
            for field in ("dist.offload_params", "dist.offload_optimizer"):
                self.add(field, "cpu", source, conf)
        elif words and not self.accelerate_launch():
            # the Trainer offloads only for the ``offload`` word (CPUOffload(offload_params=True)); without
            # it FSDP keeps parameters and optimizer state on the GPU (OpenGVLab/RRHF train.sh:9 ``--fsdp
            # "full_shard auto_wrap"``). An accelerate config could still set fsdp_offload_params: not
            # under ``accelerate launch``
            off = Source(source.kind, source.path, source.line, source.key,
                         (source.detail or "") + ": no `offload` word, so no CPU offload")
            for field in ("dist.offload_params", "dist.offload_optimizer"):
                self.add(field, "none", off, "medium" if conf == "high" else conf)

    def accelerate_launch(self) -> bool:
        from preflight.adapters.launchers import parse_launch

        argv = self.o.project.argv
        return bool(argv) and parse_launch(argv).launcher == "accelerate"

    def loaded_deepspeed(self, value: str) -> list[str]:
        name = Path(value).name
        return [c.path for _, c in self.o.project.configs
                if Path(c.path).name == name and deepspeed_block(c) is not None]

    def unread_deepspeed(self, value: Any) -> bool:
        """``deepspeed="FILE"`` names a file that no loaded DeepSpeed config is."""
        return isinstance(value, str) and bool(value) and not self.loaded_deepspeed(value)

    def deepspeed(self, value: Any, source: Source) -> None:
        if not isinstance(value, str):
            return
        where = source.location() if source.path else f"cli {source.key}"
        loaded = self.loaded_deepspeed(value)
        if loaded:
            self.o.note(f"{where}: deepspeed=\"{value}\": the Trainer runs DeepSpeed with {loaded[0]}, which is "
                        "read by the deepspeed adapter (its \"auto\" values are filled from TrainingArguments)")
        else:
            self.o.note(f"{where}: deepspeed=\"{value}\": the Trainer runs DeepSpeed with that file; pass it with "
                        "--config to have the deepspeed adapter read it (until then precision and optimizer are "
                        "read at low confidence: that file decides them)")

    def defaults(self, site: CallSite, trl: bool, given: set[str], conf: str, label: Optional[str] = None,
                 fp16_on: Optional[bool] = False) -> None:
        """Framework defaults of the keys the call leaves out (kind ``default``)."""
        label = label or site.last or "TrainingArguments"
        sft = label == "SFTConfig"
        conf = "medium" if conf == "high" and not self.deepspeed_unread else "low"

        def default(field: str, value: Any, key: str, detail: str, confidence: str = conf) -> None:
            self.o.add(field, value, self.o.src(site.call, f"{label} default: {detail}", "default", key), confidence)

        span = "transformers 4.35-5.24"
        if "per_device_train_batch_size" not in given:
            default("batch.micro", 8, "per_device_train_batch_size", f"per_device_train_batch_size=8 ({span})")
        if "gradient_accumulation_steps" not in given:
            default("batch.grad_accum", 1, "gradient_accumulation_steps", f"gradient_accumulation_steps=1 ({span})")
        from preflight.adapters.training_args_bag import precision_flags_unused

        if precision_flags_unused(self.o.script.tree, self.o.calls) is not None:
            pass  # the script's own Accelerator sets the precision, not these fields (training_args_bag.py)
        elif sft and "bf16" not in given and fp16_on is False and self.o.trl_at_least(0, 19):
            default("precision.mode", "amp_bf16", "bf16",
                    f"bf16=None -> True unless fp16 (TRL >= 0.19; {self.o.trl_text()})")
        elif "bf16" not in given and "fp16" not in given and not self.o.loads_non_fp32():
            default("precision.mode", "fp32", "bf16", f"bf16=False, fp16=False: fp32 ({span})")
        if "gradient_checkpointing" not in given and "activation_checkpointing" not in given:
            if sft and self.o.trl_at_least(0, 22):
                default("memory.gradient_checkpointing", True, "gradient_checkpointing",
                        f"gradient_checkpointing=True (TRL >= 0.22; {self.o.trl_text()})")
            else:
                default("memory.gradient_checkpointing", False, "gradient_checkpointing",
                        f"gradient_checkpointing=False ({span})")
        if "torch_compile" not in given:
            default("compile.enabled", False, "torch_compile", f"torch_compile=False ({span})")
        if "dataloader_num_workers" not in given:
            # the Trainer's DataLoader takes num_workers=args.dataloader_num_workers (default 0 in
            # every release: the batches are loaded in the main process)
            default("data.num_workers", 0, "dataloader_num_workers", f"dataloader_num_workers=0 ({span})")
        tv = getattr(self.o, "transformers", None)
        if "dataloader_pin_memory" not in given and tv is not None and not tv.at_least(4, 3):
            # before 4.3.0 the Trainer's DataLoader passes no pin_memory (the field came with
            # huggingface/transformers#9857/#9874, January 2021): torch's default False (voidism/DiffCSE's
            # vendored 4.2.1, trainer.py:473-480)
            default("data.pin_memory", False, "dataloader_pin_memory",
                    f"no pin_memory before transformers 4.3: torch's default False ({tv.describe()})")
        elif "dataloader_pin_memory" not in given:
            # the Trainer's DataLoader takes pin_memory=args.dataloader_pin_memory (default True)
            default("data.pin_memory", True, "dataloader_pin_memory", f"dataloader_pin_memory=True ({span})")
        if sft and not given & set(_SEQ_KEYS) and self.o.trl_at_least(0, 16):
            default("data.seq_len", 1024, "max_length", f"max_length=1024 (TRL >= 0.16; {self.o.trl_text()})")
        if sft and not given & set(_SEQ_KEYS) and self.o.trl_at_least(0, 16) and "packing" not in given:
            default("data.truncation", "cut", "max_length",
                    f"SFTTrainer cuts samples to max_length=1024 (truncate_dataset; {self.o.trl_text()})")
        if "optim" not in given:
            self.default_optim(site, label, conf)

    def default_optim(self, site: CallSite, label: str, conf: str) -> None:
        from preflight.adapters.transformers_version import default_optim

        name, detail = default_optim(self.o.transformers, self.o.torch)
        if name is None:
            from preflight.adapters.transformers_version import default_optim_algorithm

            self.o.note(f"{self.where(site.line)}: {label} {detail}")
            algorithm, why = default_optim_algorithm(detail)
            self.o.add("optimizer.name", algorithm, self.o.src(site.call, f"{label} default: {why}", "default", "optim"),
                       "low")
            return
        source = self.o.src(site.call, f"{label} default: {detail}", "default", "optim")
        self.o.add("optimizer.name", name, source, conf)
        self.trainer_step_path(name, source, conf)

    def trainer_step_path(self, name: Any, source: Source, conf: str) -> None:
        """``optimizer.foreach`` False for an ``optim`` the Trainer builds as a per-parameter or
        fused optimizer (adapters/optimizer_foreach.py); nothing for torch's AdamW (the release decides)."""
        from preflight.adapters.optimizer_foreach import trainer_optim_step_path

        why = trainer_optim_step_path(name)
        if why is not None and "optimizer.foreach" in FIELDS:
            detail = "; ".join(d for d in (source.detail, why) if d)
            self.o.add("optimizer.foreach", False,
                       Source(source.kind, source.path, source.line, source.key, detail), conf)
