"""Training recipes that are a YAML file run by a tool, not a script: axolotl
(``axolotl train cfg.yml``), LitGPT (``litgpt finetune lora --config cfg.yaml``) and GPT-NeoX
(``python deepy.py train.py cfg.yml ...``). Each is recognised by its keys.

- axolotl: ``base_model``, ``adapter`` (lora/qlora; none = full fine-tune),
  ``load_in_4bit``/``load_in_8bit``, ``lora_r``, ``sequence_len``, ``micro_batch_size``,
  ``gradient_accumulation_steps``, ``optimizer``, ``gradient_checkpointing``,
  ``attn_implementation``/``flash_attention``/``sdp_attention``, ``bf16``/``fp16``
  (``auto``: bf16 where the GPU has it); ``plugins:`` with Cut Cross Entropy
  (``cut_cross_entropy``, on by default) or Liger (``liger_fused_linear_cross_entropy``) is a
  fused loss; ``sample_packing``/``pad_to_sequence_len`` give the padding. ``deepspeed:`` names a
  JSON file, read as a config.
- LitGPT: ``checkpoint_dir`` (``checkpoints/<org>/<name>`` is the Hub id by LitGPT's download
  layout), ``precision`` (``bf16-true`` = bf16 weights, ``bf16-mixed`` = autocast, ...),
  ``quantize`` (``bnb.nf4``, ``bnb.nf4-dq``, ``bnb.fp4``, ``bnb.int8-training``), ``devices``,
  ``num_nodes``, ``lora_r``, ``train.micro_batch_size``, ``train.global_batch_size`` (the
  accumulation is global / (micro x devices x nodes)), ``train.max_seq_length``,
  ``data.init_args.num_workers``, ``optimizer.class_path``; ``--key value`` on the command line
  wins over the file.
- GPT-NeoX: ``num_layers``, ``hidden_size``, ``seq_length``, ``checkpoint_activations``,
  ``no_weight_tying`` and the vocabulary padding give the parameter count
  (12·L·h² + 13·L·h + V·h, twice V·h when untied); its DeepSpeed keys are read by the
  deepspeed adapter. Several files given together are merged, later files winning.
"""

from __future__ import annotations

from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.loaders import LoadedConfig
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_AXOLOTL_KEYS = ("micro_batch_size", "sequence_len", "adapter", "datasets", "lora_r", "load_in_4bit")
_LITGPT_PRECISION = {"bf16-true": "bf16", "bf16-mixed": "amp_bf16", "16-true": "fp16", "16-mixed": "amp_fp16",
                     "32-true": "fp32", "32": "fp32", "bf16": "amp_bf16", "16": "amp_fp16"}
_LITGPT_QUANT = {"bnb.nf4": (4, "nf4", False), "bnb.nf4-dq": (4, "nf4", True), "bnb.fp4": (4, "fp4", False),
                 "bnb.fp4-dq": (4, "fp4", True), "bnb.int8-training": (8, "int8", False),
                 "bnb.int8": (8, "int8", False)}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_axolotl(cfg: LoadedConfig) -> bool:
    d = cfg.data
    return isinstance(d, dict) and isinstance(d.get("base_model"), str) and any(k in d for k in _AXOLOTL_KEYS)


def _is_litgpt(cfg: LoadedConfig) -> bool:
    d = cfg.data
    return isinstance(d, dict) and "checkpoint_dir" in d and (
        isinstance(d.get("train"), dict) or "precision" in d or "devices" in d)


def _is_neox(cfg: LoadedConfig) -> bool:
    d = cfg.data
    return isinstance(d, dict) and (("num_layers" in d and "hidden_size" in d)
                                    or any(k in d for k in ("pipe_parallel_size", "model_parallel_size",
                                                            "checkpoint_activations", "vocab_file")))


def _flags(argv: list[str]) -> dict[str, str]:
    """``--key value`` / ``--key=value`` / ``--a.b value`` of a tool's command line."""
    out: dict[str, str] = {}
    i = 0
    while i < len(argv):
        tok = argv[i]
        i += 1
        if not tok.startswith("--"):
            continue
        name, eq, value = tok[2:].partition("=")
        if not eq:
            if i < len(argv) and not argv[i].startswith("--"):
                value = argv[i]
                i += 1
            else:
                value = "true"
        out[name.replace("-", "_")] = value
    return out


def _bool(text: Any) -> Optional[bool]:
    if isinstance(text, bool):
        return text
    if isinstance(text, str) and text.lower() in ("true", "false", "1", "0", "yes", "no"):
        return text.lower() in ("true", "1", "yes")
    return None


class _Pass:
    def __init__(self, adapter: Adapter, project: Project, plan: TrainingPlan, cfg: LoadedConfig) -> None:
        self.adapter, self.project, self.plan, self.cfg = adapter, project, plan, cfg
        self.cli = _flags(list(project.argv))
        self.line = " ".join(project.argv)

    def src(self, *keys: Any, detail: Optional[str] = None, kind: str = "config") -> Source:
        return self.project.config_source(self.cfg, keys, detail=detail, kind=kind)

    def cli_src(self, flag: str, detail: str = "") -> Source:
        return Source("cli", None, None, f"--{flag}", (detail + " " if detail else "") + f"(launch line: {self.line})")

    def add(self, field: str, value: Any, source: Optional[Source], confidence: str = "high") -> None:
        """``source`` is None only with a value that was not found (``value()``'s pair)."""
        if source is not None:
            self.adapter.add_checked(self.plan, field, value, source, confidence)

    def value(self, *keys: str) -> tuple[Any, Optional[Source]]:
        """The value at ``keys``: the command line's ``--a.b`` first, else the file's."""
        flag = ".".join(keys)
        if flag in self.cli:
            return self.cli[flag], self.cli_src(flag)
        if len(keys) == 1 and keys[0] in self.cli:
            return self.cli[keys[0]], self.cli_src(keys[0])
        if self.cfg.has(keys):
            return self.cfg.get(keys), self.src(*keys)
        return None, None

    def int_value(self, *keys: str) -> tuple[Optional[int], Optional[Source]]:
        value, source = self.value(*keys)
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        return (value, source) if _is_int(value) else (None, None)


class _Axolotl(_Pass):
    def run(self) -> None:
        d = self.cfg.data
        model, src = self.value("base_model")
        if isinstance(model, str) and model:
            self.add("model.ref", model, src)
        adapter, asrc = self.value("adapter")
        four = _bool(self.value("load_in_4bit")[0]) is True
        eight = _bool(self.value("load_in_8bit")[0]) is True
        if four:
            self.add("precision.weights_bits", 4, self.value("load_in_4bit")[1])
        elif eight:
            self.add("precision.weights_bits", 8, self.value("load_in_8bit")[1])
        if isinstance(adapter, str) and adapter.lower() in ("lora", "qlora"):
            self.add("peft.method", "lora", asrc)
            qlora = adapter.lower() == "qlora" or four
            self.add("task.mode", "qlora" if qlora else "lora", asrc)
            rank, rsrc = self.int_value("lora_r")
            if rank is not None:
                self.add("peft.rank", rank, rsrc)
            if four or eight:
                self.quantized_adapter(qlora and four)
        elif adapter in (None, "") and "adapter" not in self.cli:
            self.add("peft.method", "none", self.src("adapter", kind="default",
                                                    detail="axolotl: no adapter is a full fine-tune"), "medium")
            self.add("task.mode", "finetune", self.src("adapter", kind="default",
                                                      detail="axolotl: no adapter is a full fine-tune"), "medium")
        for key, field in (("sequence_len", "data.seq_len"), ("micro_batch_size", "batch.micro"),
                           ("gradient_accumulation_steps", "batch.grad_accum")):
            value, vsrc = self.int_value(key)
            if value is not None and value >= 1:
                self.add(field, value, vsrc)
        opt, osrc = self.value("optimizer")
        if isinstance(opt, str) and opt:
            self.add("optimizer.name", opt, osrc)
        gc, gsrc = self.value("gradient_checkpointing")
        if _bool(gc) is not None:
            self.add("memory.gradient_checkpointing", _bool(gc), gsrc)
        elif isinstance(gc, str) and gc:  # "unsloth", "offload": a checkpointing variant
            self.add("memory.gradient_checkpointing", True, gsrc)
        attn, atsrc = self.value("attn_implementation")
        if isinstance(attn, str) and attn in ("eager", "sdpa", "flash_attention_2", "flash_attention_3",
                                              "flex_attention"):
            self.add("model.attn_implementation", attn, atsrc)
        elif _bool(self.value("flash_attention")[0]):
            self.add("model.attn_implementation", "flash_attention_2", self.value("flash_attention")[1])
        elif _bool(self.value("sdp_attention")[0]):
            self.add("model.attn_implementation", "sdpa", self.value("sdp_attention")[1])
        self.loss()
        self.padding()
        self.truncation()
        self.precision(d)

    def truncation(self) -> None:
        """``data.truncation``: axolotl drops every sample longer than ``sequence_len``
        (``drop_long_seq``; since ``excess_length_strategy`` came, its default ``"drop"``:
        src/axolotl/utils/data/utils.py:334 at 067b021c); ``excess_length_strategy: truncate``
        cuts them, ``raise`` stops the run (nothing over the cap reaches a step: left unknown)."""
        strategy, tsrc = self.value("excess_length_strategy")
        if isinstance(strategy, str) and tsrc is not None:
            value = {"drop": "drop", "truncate": "cut"}.get(strategy.lower())
            if value is not None:
                self.add("data.truncation", value, tsrc)
            return
        _, ssrc = self.int_value("sequence_len")
        detail = ("axolotl drops samples longer than sequence_len (excess_length_strategy default 'drop', "
                  "utils/data/utils.py:334 at 067b021c)")
        where = (Source(ssrc.kind, ssrc.path, ssrc.line, ssrc.key, detail) if ssrc is not None
                 else self.src("sequence_len", kind="default", detail=detail))
        self.add("data.truncation", "drop", where, "medium")

    def padding(self) -> None:
        """``data.padding`` from axolotl's collator (``core/builders/causal.py``: ``padding=True``,
        to the longest sample, with ``pad_to_multiple_of`` the sequence length when
        ``pad_to_sequence_len``, else 64). ``sample_packing`` fills rows up to the sequence
        length and, since axolotl #2607 (2025-05-01), sets ``pad_to_sequence_len`` when it is
        unset (``hint_sample_packing_padding``): full-length rows."""
        packing = _bool(self.value("sample_packing")[0]) is True
        pad, psrc = self.value("pad_to_sequence_len")
        pad_to = _bool(pad)
        if pad_to is True and psrc is not None:
            self.add("data.padding", "packed" if packing else "max_length", psrc)
        elif packing and pad_to is None:
            self.add("data.padding", "packed", self.src(
                "sample_packing", kind="default",
                detail="axolotl sets pad_to_sequence_len with sample_packing (since May 2025)"), "medium")
        elif pad_to is False or not packing:
            detail = "axolotl's collator pads each batch to its longest sample (multiple of 64)"
            where = psrc if pad_to is False else None
            self.add("data.padding", "dynamic", where or self.src("sequence_len", kind="default", detail=detail),
                     "high" if where else "medium")

    def quantized_adapter(self, nf4: bool) -> None:
        """What axolotl's loader does to a quantized base under LoRA/QLoRA (``utils/models.py``
        ``load_model`` from #393 of August 2023; ``loaders/model.py`` in 2025):

        - QLoRA's ``BitsAndBytesConfig``: ``bnb_4bit_quant_type="nf4"``,
          ``bnb_4bit_use_double_quant=True``, unless ``bnb_config_kwargs`` overrides them;
        - ``prepare_model_for_kbit_training`` (fp32 norms, embeddings and LM head) followed by
          "converting modules to <torch_dtype>": every ``norm``, ``embed_tokens`` and
          ``lm_head`` back in the 16-bit dtype (skipped only where preparation is skipped too:
          FSDP QLoRA). Neither fp32 copy nor an fp32 residual stream is left, so for the
          estimate the model is not kbit-prepared."""
        _, asrc = self.value("adapter")
        if asrc is None:
            return
        detail = ("axolotl casts norms, embed_tokens and lm_head back to the 16-bit dtype after "
                  "prepare_model_for_kbit_training")
        self.add("peft.kbit_prepared", False, self.src("adapter", kind="default", detail=detail), "medium")
        if not nf4:
            return
        kwargs, ksrc = self.value("bnb_config_kwargs")
        kwargs = kwargs if isinstance(kwargs, dict) else {}
        qtype = kwargs.get("bnb_4bit_quant_type", "nf4")
        double = _bool(kwargs.get("bnb_4bit_use_double_quant", True))
        given = ksrc if ksrc is not None else self.src(
            "adapter", kind="default", detail="axolotl's QLoRA BitsAndBytesConfig: nf4, double quantization")
        if qtype in ("nf4", "fp4"):
            self.add("precision.quant_type", qtype, given, "high" if ksrc is not None else "medium")
        if double is not None:
            self.add("precision.double_quant", double, given, "high" if ksrc is not None else "medium")

    def loss(self) -> None:
        """A fused linear cross-entropy from an axolotl plugin (``loss.implementation``): the
        plugin's own option, read only when ``plugins:`` lists the plugin (axolotl ignores it
        otherwise). ``CutCrossEntropyPlugin``'s ``cut_cross_entropy`` defaults to true
        (``integrations/cut_cross_entropy/args.py``: ``cut_cross_entropy: Optional[bool] =
        True``); ``LigerPlugin``'s ``liger_fused_linear_cross_entropy`` defaults to None (off,
        ``integrations/liger/args.py``)."""
        plugins, psrc = self.value("plugins")
        names = [p for p in plugins if isinstance(p, str)] if isinstance(plugins, list) else []
        for suffix, key, default in ((".CutCrossEntropyPlugin", "cut_cross_entropy", True),
                                     (".LigerPlugin", "liger_fused_linear_cross_entropy", False)):
            if not any(n.strip().endswith(suffix) for n in names):
                continue
            value, vsrc = self.value(key)
            on = _bool(value)
            if on is None and value is None:
                on, vsrc = default, psrc
            if on and vsrc is not None:
                self.add("loss.implementation", "fused", vsrc)
                return

    def precision(self, d: dict) -> None:
        bf16, bsrc = self.value("bf16")
        fp16, fsrc = self.value("fp16")
        if isinstance(bf16, str) and bf16.lower() == "auto" and bsrc is not None:
            self.add("precision.mode", "amp_bf16",
                     Source(bsrc.kind, bsrc.path, bsrc.line, bsrc.key,
                            "bf16: auto -> bf16 autocast on a GPU with bf16 (Ampere or newer), else fp16"), "medium")
        elif _bool(bf16):
            self.add("precision.mode", "amp_bf16", bsrc)
        elif _bool(fp16):
            self.add("precision.mode", "amp_fp16", fsrc)
        elif _bool(bf16) is False and fp16 in (None, False, "false"):
            self.add("precision.mode", "fp32", bsrc, "medium")


class _LitGPT(_Pass):
    def run(self) -> None:
        ckpt, csrc = self.value("checkpoint_dir")
        positional = self.positional_model()
        if positional:
            self.add("model.ref", positional, Source("cli", None, None, "model", f"launch line: {self.line}"))
        elif isinstance(ckpt, str) and ckpt.strip("/").startswith("checkpoints/") and csrc is not None:
            ref = ckpt.strip("/")[len("checkpoints/"):]
            if ref.count("/") == 1:
                self.add("model.ref", ref, Source(csrc.kind, csrc.path, csrc.line, csrc.key,
                                                  "checkpoints/<org>/<name> is the Hub id (litgpt download layout)"),
                         "medium")
        prec, psrc = self.value("precision")
        if isinstance(prec, str) and prec.lower() in _LITGPT_PRECISION:
            self.add("precision.mode", _LITGPT_PRECISION[prec.lower()], psrc)
        quant, qsrc = self.value("quantize")
        q = _LITGPT_QUANT.get(quant.lower()) if isinstance(quant, str) else None
        if q is not None:
            bits, qtype, dq = q
            self.add("precision.weights_bits", bits, qsrc)
            self.add("precision.quant_type", qtype, qsrc)
            if bits == 4:
                self.add("precision.double_quant", dq, qsrc)
        devices, dsrc = self.int_value("devices")
        nodes, nsrc = self.int_value("num_nodes")
        if devices is not None:
            self.add("dist.devices_per_node", devices, dsrc)
        if nodes is not None:
            self.add("dist.nodes", nodes, nsrc)
        if devices is not None and dsrc is not None:
            world = devices * (nodes or 1)
            self.add("dist.world_size", world, Source("derived", self.cfg.path, dsrc.line, "devices",
                                                      f"devices {devices} x num_nodes {nodes or 1}"))
        lora = self.lora()
        rank, rsrc = self.int_value("lora_r")
        if lora:
            self.add("peft.method", "lora", Source("cli", None, None, "finetune lora", f"launch line: {self.line}"))
            if rank is not None:
                self.add("peft.rank", rank, rsrc)
            self.add("task.mode", "qlora" if q is not None and q[0] == 4 else "lora",
                     Source("cli", None, None, "finetune lora", f"launch line: {self.line}"))
        elif self.full():
            self.add("peft.method", "none", Source("cli", None, None, "finetune_full",
                                                   f"full fine-tuning (launch line: {self.line})"))
        micro, msrc = self.int_value("train", "micro_batch_size")
        glob, gsrc = self.int_value("train", "global_batch_size")
        if micro is not None:
            self.add("batch.micro", micro, msrc)
        if micro and glob and devices and gsrc is not None:
            per = micro * devices * (nodes or 1)
            if glob % per == 0:
                self.add("batch.grad_accum", glob // per,
                         Source("derived", self.cfg.path, gsrc.line, "train.global_batch_size",
                                f"global_batch_size {glob} / (micro_batch_size {micro} x devices {devices} x "
                                f"num_nodes {nodes or 1})"))
        seq, ssrc = self.int_value("train", "max_seq_length")
        if seq is not None:
            self.add("data.seq_len", seq, ssrc)
        workers, wsrc = self.int_value("data", "init_args", "num_workers")
        if workers is not None:
            self.add("data.num_workers", workers, wsrc)
        opt, osrc = self.value("optimizer", "class_path")
        if isinstance(opt, str) and opt:
            self.add("optimizer.name", opt.rsplit(".", 1)[-1], osrc)

    def _command(self) -> list[str]:
        argv = list(self.project.argv)
        return argv[1:] if argv and argv[0].endswith("litgpt") else argv

    def lora(self) -> bool:
        words = [w for w in self._command() if not w.startswith("-")]
        return bool(words) and (words[0] in ("finetune_lora", "finetune_qlora")
                                or words[:2] in (["finetune", "lora"], ["finetune", "qlora"]))

    def full(self) -> bool:
        words = [w for w in self._command() if not w.startswith("-")]
        return bool(words) and (words[0] in ("finetune_full", "pretrain") or words[:2] == ["finetune", "full"])

    def positional_model(self) -> Optional[str]:
        words = []
        skip = False
        for w in self._command():
            if skip:
                skip = False
                continue
            if w.startswith("--"):
                skip = "=" not in w
                continue
            words.append(w)
        rest = words[2:] if words[:1] == ["finetune"] else words[1:]
        cand = rest[0] if rest else None
        return cand if cand and cand.count("/") == 1 and not cand.endswith((".yaml", ".yml")) else None


class _NeoX(_Pass):
    def __init__(self, adapter: Adapter, project: Project, plan: TrainingPlan, cfgs: list[LoadedConfig]) -> None:
        super().__init__(adapter, project, plan, cfgs[-1])
        self.cfgs = cfgs

    def get(self, key: str) -> tuple[Any, Optional[LoadedConfig]]:
        for cfg in reversed(self.cfgs):
            if isinstance(cfg.data, dict) and key in cfg.data:
                return cfg.data[key], cfg
        return None, None

    def run(self) -> None:
        seq, scfg = self.get("seq_length")
        if _is_int(seq) and scfg is not None:
            self.add("data.seq_len", seq, self.project.config_source(scfg, ("seq_length",)))
        ckpt, ccfg = self.get("checkpoint_activations")
        if isinstance(ckpt, bool) and ccfg is not None:
            self.add("memory.gradient_checkpointing", ckpt, self.project.config_source(ccfg, ("checkpoint_activations",)))
        layers, lcfg = self.get("num_layers")
        hidden, _ = self.get("hidden_size")
        if _is_int(layers) and _is_int(hidden) and lcfg is not None:
            untied = self.get("no_weight_tying")[0] is True
            vocab = 50304  # GPT-2 BPE (50257) padded to make_vocab_size_divisible_by 128
            divisible, _ = self.get("make_vocab_size_divisible_by")
            if _is_int(divisible) and divisible > 0:
                vocab = -(-50257 // divisible) * divisible
            params = 12 * layers * hidden * hidden + 13 * layers * hidden + vocab * hidden * (2 if untied else 1)
            self.add("model.num_parameters", params,
                     Source("derived", lcfg.path, lcfg.line_of(("num_layers",)), "num_layers",
                            f"12*L*h^2 + 13*L*h + V*h{' x2 (no_weight_tying)' if untied else ''} with L={layers}, "
                            f"h={hidden}, V={vocab} (GPT-2 vocabulary padded; another tokenizer changes V)"),
                     "medium")


@register_adapter
class RecipesAdapter(Adapter):
    name = "recipes"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any(_is_axolotl(c) or _is_litgpt(c) or _is_neox(c) for _, c in project.configs)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        neox = []
        for _, cfg in project.configs:
            if _is_axolotl(cfg):
                _Axolotl(self, project, plan, cfg).run()
            elif _is_litgpt(cfg):
                _LitGPT(self, project, plan, cfg).run()
            elif _is_neox(cfg):
                neox.append(cfg)
        if neox:
            _NeoX(self, project, plan, neox).run()
