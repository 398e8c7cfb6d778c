"""More training recipes run by a tool, recognised by their keys (see :mod:`recipes` for
axolotl, LitGPT and GPT-NeoX):

- torchtune (``tune run RECIPE --config NAME``): ``model._component_`` (``lora_``/``qlora_``
  builders are LoRA, ``qlora_`` on 4-bit NF4 weights; the model size from the architecture
  catalog, by the builder's name), ``model.lora_rank``, ``batch_size``,
  ``gradient_accumulation_steps``, ``dtype`` (the recipe builds the model in it: ``bf16`` is
  bf16 weights), ``enable_activation_checkpointing``, ``compile``, ``optimizer._component_``,
  ``loss._component_`` (``LinearCrossEntropyLoss``/``CEWithChunkedOutputLoss``: logits in
  chunks), ``tokenizer.max_seq_len``; a ``*_single_device`` recipe is one process, a
  ``*_distributed`` one shards with FSDP (``fsdp_cpu_offload``). ``key=value`` overrides on
  the command line win. The model runs torchtune's own modules (``model.implementation``);
  the release a job pins is ``framework.torchtune_version`` (:mod:`torchtune_version`).
- LLaMA-Factory (``llamafactory-cli train cfg.yaml``): ``model_name_or_path``,
  ``finetuning_type`` (lora / full / freeze), ``lora_rank`` (default 8), ``quantization_bit``
  (bitsandbytes by default, ``quantization_type`` nf4 and ``double_quantization`` on by
  default: hparams/model_args.py), ``cutoff_len`` (default 2048), the TrainingArguments keys,
  ``disable_gradient_checkpointing`` (checkpointing is on by default), ``bf16``/``fp16``
  (autocast; ``pure_bf16`` keeps bf16 weights). ``deepspeed:`` names a JSON read as a config.
- nanotron (``run_train.py --config-file cfg.yaml``): ``tokens.micro_batch_size``,
  ``tokens.batch_accumulation_per_replica``, ``tokens.sequence_length``, ``model.dtype`` with
  ``optimizer.accumulate_grad_in_fp32`` (16-bit weights, fp32 master copies),
  ``optimizer.zero_stage`` over ``parallelism.dp``, ``optimizer.optimizer_factory.name``,
  ``data_stages[0].data.num_loading_workers`` and a Llama ``model.model_config`` parameter count.
- diffusion-pipe (``deepspeed train.py --deepspeed --config cfg.toml``, tdrussell/diffusion-pipe
  examples/main_example.toml): ``micro_batch_size_per_gpu`` (a number, or ``[[size, batch], ...]``
  whose first batch train.py:420 takes), ``gradient_accumulation_steps`` (default 1),
  ``activation_checkpointing`` (``true`` or ``'unsloth'``), ``[adapter] type``/``rank`` (LoRA;
  no ``[adapter]`` is a full fine-tune), ``[model] dtype`` with the adapter's ``dtype`` (the
  trained weights' dtype: train.py:423-428 gives DeepSpeed no fp16/bf16 section, so nothing is
  autocast and no fp32 master copy is kept), ``transformer_dtype = 'float8'`` (8-bit base
  weights), ``[optimizer] type``, ``compile`` (default False).
"""

from __future__ import annotations

import re
from typing import Any, Optional

from preflight.adapters.recipes import _bool, _is_int, _Pass
from preflight.adapters.torchtune_version import before_fully_shard, torchtune_version

from preflight.adapters_api import Adapter, Project
from preflight.loaders import LoadedConfig
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_TUNE_DTYPE = {"bf16": "bf16", "fp32": "fp32", "fp16": "fp16"}
_CHUNKED = ("LinearCrossEntropyLoss", "CEWithChunkedOutputLoss")


def _component(d: Any) -> str:
    return d.get("_component_", "") if isinstance(d, dict) and isinstance(d.get("_component_"), str) else ""


def _is_torchtune(cfg: LoadedConfig) -> bool:
    d = cfg.data
    return isinstance(d, dict) and _component(d.get("model")).startswith("torchtune.") and (
        "checkpointer" in d or "tokenizer" in d)


def _is_llamafactory(cfg: LoadedConfig) -> bool:
    d = cfg.data
    return isinstance(d, dict) and isinstance(d.get("model_name_or_path"), str) and "finetuning_type" in d \
        and ("stage" in d or "template" in d)


def _is_diffusion_pipe(cfg: LoadedConfig) -> bool:
    d = cfg.data
    return isinstance(d, dict) and getattr(cfg, "kind", None) == "toml" and "micro_batch_size_per_gpu" in d \
        and isinstance(d.get("model"), dict) and isinstance(d["model"].get("type"), str) \
        and ("pipeline_stages" in d or "dataset" in d)


def _is_nanotron(cfg: LoadedConfig) -> bool:
    d = cfg.data
    return isinstance(d, dict) and isinstance(d.get("tokens"), dict) and isinstance(d.get("parallelism"), dict) \
        and isinstance(d.get("model"), dict)


def catalog_params(name: str) -> Optional[tuple[str, int]]:
    """(catalog name, total parameters) of an architecture the catalog knows by ``name``."""
    try:
        from preflight import architectures

        arch = architectures.lookup(name)
    except (ImportError, AttributeError, ValueError):
        return None
    total = getattr(arch, "params_total", 0) if arch is not None else 0
    return (arch.name, int(total)) if arch is not None and total else None


@register_adapter
class ToolRecipesAdapter(Adapter):
    name = "recipes_tools"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any(f(cfg) for _, cfg in project.configs
                   for f in (_is_torchtune, _is_llamafactory, _is_nanotron, _is_diffusion_pipe))

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for _, cfg in project.configs:
            if _is_torchtune(cfg):
                _Torchtune(self, project, plan, cfg).run()
            elif _is_llamafactory(cfg):
                _LlamaFactory(self, project, plan, cfg).run()
            elif _is_nanotron(cfg):
                _Nanotron(self, project, plan, cfg).run()
            elif _is_diffusion_pipe(cfg):
                _DiffusionPipe(self, project, plan, cfg).run()


def _tune_recipe(argv: list[str]) -> str:
    """RECIPE of ``tune run [TORCHRUN OPTIONS] RECIPE --config C``: the last word before
    ``--config`` that is not an option (``tune run --nproc_per_node 2 lora_finetune_distributed``)."""
    if "run" not in argv[:-1]:
        return ""
    start = argv.index("run") + 1
    end = argv.index("--config") if "--config" in argv[start:] else len(argv)
    words = [w for w in argv[start:end] if not w.startswith("-")]
    if end < len(argv) and words:
        return words[-1]
    return argv[start]


class _Torchtune(_Pass):
    def __init__(self, *a: Any) -> None:
        super().__init__(*a)
        # overrides: `tune run R --config C key=value model.lora_rank=16`
        for tok in self.project.argv:
            key, eq, value = tok.partition("=")
            if eq and not key.startswith("-") and re.fullmatch(r"[A-Za-z_][\w.]*", key):
                self.cli[key] = value

    def run(self) -> None:
        argv = list(self.project.argv)
        recipe = _tune_recipe(argv)
        builder, bsrc = self.value("model", "_component_")
        short = builder.rsplit(".", 1)[-1] if isinstance(builder, str) else ""
        base = re.sub(r"^q?lora_", "", short)
        if short.startswith(("lora_", "qlora_")):
            self.add("peft.method", "lora", bsrc)
            four = short.startswith("qlora_")
            self.add("task.mode", "qlora" if four else "lora", bsrc)
            if four:
                self.add("precision.weights_bits", 4, bsrc)
                self.add("precision.quant_type", "nf4", bsrc)
            rank, rsrc = self.int_value("model", "lora_rank")
            if rank:
                self.add("peft.rank", rank, rsrc)
        elif short:
            self.add("peft.method", "none", bsrc, "medium")
        if isinstance(builder, str) and builder.startswith("torchtune.models.") and bsrc is not None:
            self.add("model.implementation", "torchtune",
                     Source(bsrc.kind, bsrc.path, bsrc.line, bsrc.key, f"{builder}: torchtune's own modules"))
        pinned = torchtune_version(self.project, self.plan, self.cfg, self.adapter)
        if base:
            # llama3_2_1b: version 3.2, size 1b; llama2_7b: version 2, size 7b
            name = re.sub(r"(\d)_(\d+)(?=_)", r"\1.\2", base).replace("_", "-")
            found = catalog_params(name)
            if found is not None:
                self.add("model.ref", found[0], self.src("model", "_component_", detail=f"{short}: {found[0]}"),
                         "medium")
                self.add("model.num_parameters", found[1],
                         self.src("model", "_component_", detail=f"{short}: {found[0]} in the architecture catalog"),
                         "medium")
        for keys, field in ((("batch_size",), "batch.micro"), (("gradient_accumulation_steps",), "batch.grad_accum"),
                            (("tokenizer", "max_seq_len"), "data.seq_len")):
            value, src = self.int_value(*keys)
            if value:
                self.add(field, value, src)
        dtype, dsrc = self.value("dtype")
        if isinstance(dtype, str) and dtype in _TUNE_DTYPE:
            self.add("precision.mode", _TUNE_DTYPE[dtype],
                     dsrc if dsrc is not None and dsrc.kind == "cli" else
                     self.src("dtype", detail=f"dtype {dtype}: the recipe builds the model in it"))
        for keys, field in ((("enable_activation_checkpointing",), "memory.gradient_checkpointing"),
                            (("compile",), "compile.enabled")):
            value, src = self.value(*keys)
            if _bool(value) is not None:
                self.add(field, _bool(value), src)
        opt, osrc = self.value("optimizer", "_component_")
        if isinstance(opt, str) and opt:
            self.add("optimizer.name", opt.rsplit(".", 1)[-1], osrc)
        loss, lsrc = self.value("loss", "_component_")
        if isinstance(loss, str) and loss.rsplit(".", 1)[-1] in _CHUNKED:
            self.add("loss.implementation", "chunked", lsrc)
        if recipe.endswith("_single_device"):
            self.add("dist.world_size", 1, Source("cli", None, None, recipe,
                                                  f"{recipe}: a single-device recipe (launch line: {self.line})"))
        elif recipe.endswith("_distributed"):
            self.add("dist.sharding", "fsdp_full", Source("cli", None, None, recipe,
                                                          f"{recipe}: torchtune shards with FSDP (fully_shard)"),
                     "medium")
            if pinned is not None and before_fully_shard(pinned[0]):
                # the release the job pins wraps the model in FSDP1 (torchtune_version.before_fully_shard)
                at = pinned[1]
                self.add("dist.fsdp_version", 1, Source(at.kind, at.path, at.line, None,
                                                        f"{recipe} of torchtune {pinned[0]}: model = FSDP(...) "
                                                        "(fully_shard from 0.3.0)"))
            else:
                self.add("dist.fsdp_version", 2, Source("cli", None, None, recipe,
                                                        f"{recipe}: torchtune shards with fully_shard (FSDP2)"),
                         "medium")
            off, osrc2 = self.value("fsdp_cpu_offload")
            if _bool(off) is not None:
                self.add("dist.offload_params", "cpu" if _bool(off) else "none", osrc2)


class _LlamaFactory(_Pass):
    def default(self, key: str, detail: str) -> Source:
        return Source("default", self.cfg.path, None, key, f"LLaMA-Factory default: {detail}")

    def run(self) -> None:
        model, src = self.value("model_name_or_path")
        if isinstance(model, str) and re.fullmatch(r"[\w.-]+/[\w.-]+", model):
            self.add("model.ref", model, src)
        kind, ksrc = self.value("finetuning_type")
        bits, qsrc = self.int_value("quantization_bit")
        method, _ = self.value("quantization_method")
        bnb = method in (None, "bnb", "bitsandbytes")
        if bits in (4, 8) and bnb:
            self.add("precision.weights_bits", bits, qsrc)
            if bits == 4:
                qt, qtsrc = self.value("quantization_type")
                self.add("precision.quant_type", qt if qt in ("nf4", "fp4") else "nf4",
                         qtsrc or self.default("quantization_type", "nf4 (hparams/model_args.py)"), "medium")
                dq, dqsrc = self.value("double_quantization")
                self.add("precision.double_quant", _bool(dq) if _bool(dq) is not None else True,
                         dqsrc or self.default("double_quantization", "true (hparams/model_args.py)"), "medium")
        if kind == "lora":
            self.add("peft.method", "lora", ksrc)
            self.add("task.mode", "qlora" if bits == 4 and bnb else "lora", ksrc)
            rank, rsrc = self.int_value("lora_rank")
            self.add("peft.rank", rank or 8, rsrc or self.default("lora_rank", "8"), "high" if rank else "medium")
        elif kind in ("full", "freeze"):
            self.add("peft.method", "none", ksrc)
        for key, field in (("per_device_train_batch_size", "batch.micro"),
                           ("gradient_accumulation_steps", "batch.grad_accum"),
                           ("dataloader_num_workers", "data.num_workers")):
            value, vsrc = self.int_value(key)
            if value is not None and (value or field == "data.num_workers"):
                self.add(field, value, vsrc)
        cutoff, csrc = self.int_value("cutoff_len")
        self.add("data.seq_len", cutoff or 2048, csrc or self.default("cutoff_len", "2048"),
                 "high" if cutoff else "medium")
        # the supervised processor cuts source and target to fit cutoff_len (infer_seqlen,
        # data/processor/processor_utils.py:76-86 and supervised.py:73-77 at ff6d4d12): nothing dropped
        cut = "LLaMA-Factory cuts samples to cutoff_len (infer_seqlen)"
        self.add("data.truncation", "cut", Source(csrc.kind, csrc.path, csrc.line, csrc.key, cut) if csrc
                 else self.default("cutoff_len", cut), "medium")
        off, osrc = self.value("disable_gradient_checkpointing")
        if _bool(off) is not None:
            self.add("memory.gradient_checkpointing", not _bool(off), osrc)
        else:
            self.add("memory.gradient_checkpointing", True,
                     self.default("disable_gradient_checkpointing", "false: checkpointing is on "
                                                                    "(model_utils/checkpointing.py)"), "medium")
        pure, _ = self.value("pure_bf16")
        for key, mode in (("bf16", "amp_bf16"), ("fp16", "amp_fp16")):
            on, psrc = self.value(key)
            if _bool(on):
                self.add("precision.mode", "bf16" if key == "bf16" and _bool(pure) else mode, psrc)
                break
        optim, opsrc = self.value("optim")
        if isinstance(optim, str) and optim:
            self.add("optimizer.name", optim, opsrc)
        elif optim is None:
            # the recipe is parsed into transformers' Seq2SeqTrainingArguments: its defaults hold
            self.add("optimizer.name", "adamw_torch", self.default("optim", "TrainingArguments optim adamw_torch "
                                                                            "(adamw_torch_fused in the newest)"),
                     "medium")
        workers, _ = self.value("dataloader_num_workers")
        if workers is None:
            self.add("data.num_workers", 0, self.default("dataloader_num_workers", "TrainingArguments default 0 "
                                                                                   "(preprocessing_num_workers is "
                                                                                   "for datasets.map)"), "medium")
        compiled, csrc = self.value("torch_compile")
        if _bool(compiled) is not None:
            self.add("compile.enabled", _bool(compiled), csrc)
        elif compiled is None:
            self.add("compile.enabled", False, self.default("torch_compile", "TrainingArguments torch_compile "
                                                                             "False"), "medium")


_DP_DTYPE = {"bfloat16": "bf16", "float16": "fp16", "float32": "fp32"}


class _DiffusionPipe(_Pass):
    def run(self) -> None:
        micro, msrc = self.value("micro_batch_size_per_gpu")
        if isinstance(micro, list) and micro and isinstance(micro[0], list) and len(micro[0]) == 2:
            micro = micro[0][1]  # per-resolution [[size, batch], ...]: train.py:420 takes the first
        if _is_int(micro) and micro >= 1:
            self.add("batch.micro", micro, msrc)
        accum, asrc = self.int_value("gradient_accumulation_steps")
        if accum is None:
            self.add("batch.grad_accum", 1, self.src(kind="default", detail="diffusion-pipe: gradient_accumulation_steps "
                                                                           "defaults to 1 (train.py:425)"), "medium")
        elif accum >= 1:
            self.add("batch.grad_accum", accum, asrc)
        ckpt, csrc = self.value("activation_checkpointing")
        if ckpt is True or ckpt == "unsloth":
            self.add("memory.gradient_checkpointing", True, csrc)
        elif ckpt is False:
            self.add("memory.gradient_checkpointing", False, csrc)
        kind, ksrc = self.value("adapter", "type")
        if isinstance(kind, str) and kind.lower() == "lora":
            self.add("peft.method", "lora", ksrc)
            self.add("task.mode", "lora", ksrc)
            rank, rsrc = self.int_value("adapter", "rank")
            if rank is not None and rank >= 1:
                self.add("peft.rank", rank, rsrc)
        elif not self.cfg.has(("adapter",)):
            self.add("peft.method", "none", self.src(kind="default", detail="diffusion-pipe: no [adapter] table is "
                                                                           "a full fine-tune"), "medium")
        base, bsrc = self.value("model", "dtype")
        trained, tsrc = self.value("adapter", "dtype") if isinstance(kind, str) else (base, bsrc)
        mode = _DP_DTYPE.get(trained) if isinstance(trained, str) else None
        if mode is not None:
            self.add("precision.mode", mode, tsrc if tsrc is not None else bsrc)
        tdtype, tdsrc = self.value("model", "transformer_dtype")
        if isinstance(tdtype, str) and tdtype.startswith("float8"):
            self.add("precision.weights_bits", 8, tdsrc)
        name, nsrc = self.value("optimizer", "type")
        if isinstance(name, str) and name:
            self.add("optimizer.name", name, nsrc)
        compiled, csrc2 = self.value("compile")
        if not isinstance(compiled, bool) or csrc2 is None:
            compiled, csrc2 = False, self.src(kind="default", detail="diffusion-pipe: compile defaults to False "
                                                                     "(train.py:142)")
        # the key decides train.py:620 `if config['compile']: pipeline_model.compile()`, which a
        # reading of the code alone cannot (priority over that construct's fact)
        self.adapter.add_checked(self.plan, "compile.enabled", compiled, csrc2,
                                 "high" if csrc2.kind != "default" else "medium", 1)
        stages, ssrc = self.int_value("pipeline_stages")
        if stages is None or stages == 1:
            # no pipeline split and no zero_optimization in the DeepSpeed dict train.py:423-428 builds:
            # every rank holds the whole model (ZeRO stage 0, plain data parallelism)
            self.add("dist.sharding", "ddp", ssrc if ssrc is not None else self.src(
                kind="default", detail="diffusion-pipe: pipeline_stages defaults to 1"), "medium")


class _Nanotron(_Pass):
    def run(self) -> None:
        for keys, field in ((("tokens", "micro_batch_size"), "batch.micro"),
                            (("tokens", "batch_accumulation_per_replica"), "batch.grad_accum"),
                            (("tokens", "sequence_length"), "data.seq_len")):
            value, src = self.int_value(*keys)
            if value:
                self.add(field, value, src)
        stages = self.cfg.data.get("data_stages")
        if isinstance(stages, list) and stages and isinstance(stages[0], dict):
            data = stages[0].get("data")
            workers = data.get("num_loading_workers") if isinstance(data, dict) else None
            if _is_int(workers):
                self.add("data.num_workers", workers, self.src("data_stages", 0, "data", "num_loading_workers"))
        dtype, dsrc = self.value("model", "dtype")
        fp32_grads, _ = self.value("optimizer", "accumulate_grad_in_fp32")
        if dtype in ("bfloat16", "float16"):
            mode = "bf16" if dtype == "bfloat16" else "fp16"
            master = " with fp32 master copies (accumulate_grad_in_fp32)" if _bool(fp32_grads) else ""
            self.add("precision.mode", mode, self.src("model", "dtype", detail=f"{dtype} weights{master}"))
        elif dtype == "float32":
            self.add("precision.mode", "fp32", dsrc)
        zero, zsrc = self.int_value("optimizer", "zero_stage")
        dp, _ = self.int_value("parallelism", "dp")
        if zero is not None and dp:
            sharding = f"zero{zero}" if zero else ("ddp" if dp > 1 else "none")
            self.add("dist.sharding", sharding, zsrc)
        name, nsrc = self.value("optimizer", "optimizer_factory", "name")
        if isinstance(name, str) and name:
            self.add("optimizer.name", name, nsrc)
        self.params()

    def params(self) -> None:
        mc = self.cfg.get(("model", "model_config")) if self.cfg.has(("model", "model_config")) else None
        if not isinstance(mc, dict) or not (mc.get("is_llama_config") or "intermediate_size" in mc):
            return
        keys = ("hidden_size", "num_hidden_layers", "intermediate_size", "num_attention_heads", "vocab_size")
        if not all(_is_int(mc.get(k)) for k in keys):
            return
        h, layers, inter, heads, vocab = (mc[k] for k in keys)
        kv = mc.get("num_key_value_heads") if _is_int(mc.get("num_key_value_heads")) else heads
        head_dim = h // heads
        per_layer = 2 * h * h + 2 * h * kv * head_dim + 3 * h * inter + 2 * h
        embed = vocab * h * (1 if mc.get("tie_word_embeddings") else 2)
        total = layers * per_layer + embed + h
        self.add("model.num_parameters", total,
                 self.src("model", "model_config", detail=f"Llama shape: {layers} layers x {h}, MLP {inter}, "
                                                          f"{heads}/{kv} heads, vocabulary {vocab}"
                                                          f"{' tied' if mc.get('tie_word_embeddings') else ''}"),
                 "medium")
