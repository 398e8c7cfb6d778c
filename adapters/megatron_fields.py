"""What Megatron's parsed arguments mean for the plan, by ``dest`` (the names are shared by
NVIDIA/Megatron-LM ``megatron/training/arguments.py``, microsoft/Megatron-DeepSpeed and
epfLLM/Megatron-LLM ``megatron/arguments.py``, whether the flags are spelt with dashes or
underscores). ``values`` maps a dest to (value, what gave it); a dest missing from it is not known.

- ``micro_batch_size``, ``global_batch_size``, ``seq_length`` (else ``encoder_seq_length``),
  ``num_workers``;
- accumulation: global / (micro x data-parallel size), the data-parallel size the launcher's world
  over ``tensor_model_parallel_size`` x ``pipeline_model_parallel_size`` x ``context_parallel_size``
  (``validate_args``), when it divides exactly; no global batch (default None): micro x data-parallel,
  accumulation 1 (``validate_args``: ``global_batch_size = micro_batch_size * data_parallel_size``);
- ``bf16``/``fp16``: 16-bit parameters with fp32 main copies in the optimizer; neither: fp32;
- ``use_distributed_optimizer``: zero1, else ddp, only for pure data parallelism (tensor, pipeline and
  context sizes 1) over more than one process the launcher states, and without ``--deepspeed``
  (Megatron-DeepSpeed: the DeepSpeed config decides);
- checkpointing: ``recompute_granularity full`` or ``checkpoint_activations`` (older forks' full
  recompute): on; nothing of them: off; ``selective`` (and ``recompute_activations``, which means
  selective) recomputes only the attention core: neither, so no fact;
- ``optimizer`` (default adam), not under ``--deepspeed``;
- ``use_flash_attn`` given: flash-attention 2 where the model code calls its v2 API;
- the size of a Llama-layout decoder (SwiGLU without linear biases) with every size and the vocabulary
  stated, not under ``use_checkpoint_args`` (the sizes come from the checkpoint then)."""

from __future__ import annotations

from typing import Any, Callable, Optional

Add = Callable[[str, Any, str, str, str], None]  # field, value, key, detail, confidence


def _int(value: Any) -> Optional[int]:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    try:
        return int(value) if isinstance(value, str) else None
    except ValueError:
        return None


def contribute(values: dict[str, tuple[Any, str]], add: Add, world: Optional[int], flash_v2: bool,
               notes: list[str]) -> None:
    def val(dest: str) -> Any:
        return values[dest][0] if dest in values else None

    def why(dest: str) -> str:
        got = values.get(dest)
        return "" if got is None else (f"{dest} default {got[0]!r}" if got[1] == "default" else got[1])

    deepspeed = val("deepspeed") is True
    for dest, target in (("micro_batch_size", "batch.micro"), ("global_batch_size", "batch.global"),
                         ("num_workers", "data.num_workers")):
        number = _int(val(dest))
        if number is not None:
            add(target, number, dest, why(dest), "medium")
    seq = "seq_length" if _int(val("seq_length")) is not None else "encoder_seq_length"
    if _int(val(seq)) is not None:
        add("data.seq_len", _int(val(seq)), seq, why(seq), "medium")
    if "bf16" in values and "fp16" in values:
        mode = "bf16" if val("bf16") is True else "fp16" if val("fp16") is True else "fp32"
        add("precision.mode", mode, mode if mode != "fp32" else "bf16",
            (why(mode) + ": 16-bit parameters with fp32 main copies in the optimizer") if mode != "fp32"
            else "neither --bf16 nor --fp16: fp32 training", "medium")
    _checkpointing(values, val, why, add, notes)
    split = 1
    for dest in ("tensor_model_parallel_size", "pipeline_model_parallel_size", "context_parallel_size"):
        size = _int(val(dest))
        split *= size if size is not None and size >= 1 else 1
    if not deepspeed and "use_distributed_optimizer" in values and world is not None and world > 1:
        if split == 1:
            sharded = val("use_distributed_optimizer") is True
            add("dist.sharding", "zero1" if sharded else "ddp", "use_distributed_optimizer",
                f"{why('use_distributed_optimizer')}: optimizer states sharded over the data-parallel ranks"
                if sharded else "no --use-distributed-optimizer: every data-parallel rank holds the whole optimizer",
                "medium")
        else:
            notes.append(f"tensor x pipeline x context parallel {split}: the model is split over ranks, which no "
                         "data-parallel sharding value describes (dist.sharding not set)")
    if not deepspeed and isinstance(val("optimizer"), str):
        add("optimizer.name", val("optimizer"), "optimizer", why("optimizer"), "medium")
    if val("use_flash_attn") is True and values["use_flash_attn"][1] != "default" and flash_v2:
        add("model.attn_implementation", "flash_attention_2", "use_flash_attn",
            f"{why('use_flash_attn')}: the model calls flash-attn's v2 API", "medium")
    _accumulation(values, val, why, add, world, split, notes)
    _size(values, val, add)


def _checkpointing(values: dict, val: Callable[[str], Any], why: Callable[[str], str], add: Add,
                   notes: list[str]) -> None:
    known = [d for d in ("recompute_granularity", "recompute_activations", "checkpoint_activations") if d in values]
    if not known:
        return
    if val("recompute_granularity") == "full" or val("checkpoint_activations") is True:
        dest = "checkpoint_activations" if val("checkpoint_activations") is True else "recompute_granularity"
        add("memory.gradient_checkpointing", True, dest, f"{why(dest)}: every layer's activations recomputed",
            "medium")
    elif val("recompute_granularity") == "selective" or val("recompute_activations") is True:
        notes.append("selective recompute (--recompute-granularity selective / --recompute-activations): only the "
                     "attention core is recomputed, neither full checkpointing nor none (not set)")
    elif all(val(d) in (None, False) for d in known) and "recompute_granularity" in values:
        add("memory.gradient_checkpointing", False, "recompute_granularity",
            "no --recompute-granularity/--recompute-activations given", "medium")


def _accumulation(values: dict, val: Callable[[str], Any], why: Callable[[str], str], add: Add,
                  world: Optional[int], split: int, notes: list[str]) -> None:
    micro = _int(val("micro_batch_size"))
    if world is None or micro is None or micro < 1 or world % split or val("rampup_batch_size") not in (None, []):
        return
    dp = world // split
    confidence = "medium"
    if val("use_checkpoint_args") is True:
        confidence = "low"  # the checkpoint's tensor/pipeline sizes replace the line's (load_args_from_checkpoint)
        notes.append("--use_checkpoint_args: the tensor and pipeline sizes are taken from the checkpoint; the "
                     "launch line's are used for the data-parallel size (low confidence)")
    total = _int(val("global_batch_size"))
    if total is None:
        if "global_batch_size" in values and values["global_batch_size"][1] == "default":
            add("batch.global", micro * dp, "global_batch_size",
                f"no --global-batch-size: micro {micro} x {dp} data-parallel ranks", confidence)
            add("batch.grad_accum", 1, "global_batch_size", "no --global-batch-size: one micro batch per step",
                confidence)
        return
    if total % (micro * dp):
        return
    add("batch.grad_accum", total // (micro * dp), "global_batch_size",
        f"{why('global_batch_size')} / ({why('micro_batch_size')} x {dp} data-parallel ranks: {world} "
        f"processes over tensor x pipeline x context parallel {split})", confidence)


_KNOWN_VOCAB = {"GPT2BPETokenizer": 50257}  # Megatron's tokenizer types of a fixed vocabulary (GPT-2's BPE)


def _vocab(val: Callable[[str], Any]) -> Optional[tuple[int, str]]:
    """(padded vocabulary, how): ``--vocab-size``, else a tokenizer type of a known vocabulary, padded as
    ``_vocab_size_with_padding`` does to a multiple of ``make_vocab_size_divisible_by`` x tensor parallel."""
    vocab, how = _int(val("vocab_size")), "vocab_size"
    if vocab is None and isinstance(val("tokenizer_type"), str) and val("tokenizer_type") in _KNOWN_VOCAB:
        vocab, how = _KNOWN_VOCAB[val("tokenizer_type")], f"{val('tokenizer_type')}'s vocabulary"
    if vocab is None:
        return None
    multiple = (_int(val("make_vocab_size_divisible_by")) or 1) * (_int(val("tensor_model_parallel_size")) or 1)
    padded = -(-vocab // multiple) * multiple
    return padded, f"{how} {vocab}" + (f" padded to {padded}" if padded != vocab else "")


def _size(values: dict, val: Callable[[str], Any], add: Add) -> None:
    if val("use_checkpoint_args") is True:
        return
    layers, hidden = _int(val("num_layers")), _int(val("hidden_size"))
    heads, ffn = _int(val("num_attention_heads")), _int(val("ffn_hidden_size"))
    vocab = _vocab(val)
    if layers is None or hidden is None or heads is None or vocab is None or min(layers, hidden, heads) < 1 \
            or _int(val("num_experts")) not in (None, 0, 1) or val("multi_latent_attention") is True:
        return  # experts multiply the MLP; latent attention has its own projections: not counted here
    swiglu = val("swiglu") is True or val("glu_activation") == "swiglu"
    untied = val("untie_embeddings_and_output_weights") is True or val("tie_embed_logits") is False
    from preflight.estimate.arch import ArchitectureError, from_hf_config

    if swiglu and (val("add_bias_linear") is False or val("disable_bias_linear") is True) and ffn is not None:
        groups = _int(val("num_query_groups")) if val("group_query_attention") is True else \
            _int(val("num_attention_heads_kv")) or heads
        config: dict = {"model_type": "llama", "num_hidden_layers": layers, "hidden_size": hidden,
                        "num_attention_heads": heads, "num_key_value_heads": groups or heads,
                        "intermediate_size": ffn, "vocab_size": vocab[0], "tie_word_embeddings": not untied}
        channels = _int(val("kv_channels"))
        if channels:
            config["head_dim"] = channels
        layout = f"ffn {ffn}, heads {heads} (query groups {groups}), SwiGLU without linear biases: a Llama-layout decoder"
    elif _gpt_layout(values, val):
        positions = _int(val("max_position_embeddings")) or _int(val("seq_length"))
        if positions is None or (hidden % heads) or (_int(val("kv_channels")) not in (None, hidden // heads)):
            return
        ffn = ffn or 4 * hidden
        config = {"model_type": "gpt2", "n_layer": layers, "n_embd": hidden, "n_head": heads, "n_positions": positions,
                  "vocab_size": vocab[0], "n_inner": ffn, "tie_word_embeddings": not untied}
        layout = (f"ffn {ffn}, heads {heads}, {positions} learned positions, GeLU MLP with biases and LayerNorm: a "
                  "GPT-layout decoder")
    else:
        return
    try:
        total = from_hf_config(config, name="megatron").params_total
    except ArchitectureError:
        return
    add("model.num_parameters", total, "num_layers",
        f"num_layers {layers}, hidden {hidden}, {layout}, {vocab[1]}, {'untied' if untied else 'tied'} output "
        f"layer: {total:,} parameters", "medium")


def _gpt_layout(values: dict, val: Callable[[str], Any]) -> bool:
    """Megatron's GPT defaults, each known (given or a literal default): no GLU, linear biases, learned
    absolute positions, LayerNorm, full multi-head attention."""
    if "position_embedding_type" in values:
        positions = val("position_embedding_type") in ("learned_absolute", "absolute")
    else:
        positions = "use_rotary_position_embeddings" in values and val("use_rotary_position_embeddings") is False
    if "normalization" in values:
        norm = isinstance(val("normalization"), str) and val("normalization").lower() == "layernorm"
    else:
        norm = "use_rms_norm" in values and val("use_rms_norm") is False
    return (positions and norm and "swiglu" in values and val("swiglu") is False and val("add_bias_linear") is True
            and val("group_query_attention") is not True and val("squared_relu") is not True
            and val("no_position_embedding") is not True and val("add_position_embedding") is not False)
