"""The shared part of the public dev set's transcription (build_devset.py imports it first): the
byte units, ``rows`` with ``add`` (one measured row, appended in the order the source modules are
imported), and the Hugging Face configs with ``model`` that more than one source uses."""

GB = 10**9
GIB = 2**30
MIB = 2**20
rows = []


def add(src, rid, value, unit, measured, gpu, setup, *, outcome="ran", notes="", unmodelled=(), not_scored=""):
    """One row; ``not_scored`` (est51, est55): why the setup the source states cannot have produced
    the figure (bench/public_accuracy.py then scores neither its error nor its verdict)."""
    mult = {"GB": GB, "GiB": GIB, "MiB": MIB}[unit]
    r = {
        "id": f"{src}/{rid}",
        "source": src,
        "measured": measured,
        "gpu": gpu,
        "outcome": outcome,
        "setup": setup,
    }
    if value is not None:
        r["value"] = value
        r["unit"] = unit
        r["peak_bytes"] = round(value * mult)
    if unmodelled:
        r["unmodelled"] = list(unmodelled)
    if notes:
        r["notes"] = notes
    if not_scored:
        r["not_scored"] = not_scored
    rows.append(r)


HF_CFG = {
    "T0_3B": {
        "model_type": "t5",
        "d_model": 2048,
        "d_ff": 5120,
        "d_kv": 64,
        "num_heads": 32,
        "num_layers": 24,
        "num_decoder_layers": 24,
        "vocab_size": 32128,
        "feed_forward_proj": "gated-gelu",
        "tie_word_embeddings": False,
        "architectures": ["T5ForConditionalGeneration"],
    },
    "mt0-xxl": {
        "model_type": "mt5",
        "d_model": 4096,
        "d_ff": 10240,
        "d_kv": 64,
        "num_heads": 64,
        "num_layers": 24,
        "num_decoder_layers": 24,
        "vocab_size": 250112,
        "feed_forward_proj": "gated-gelu",
        "tie_word_embeddings": False,
        "architectures": ["MT5ForConditionalGeneration"],
    },
    "bloomz-7b1": {
        "model_type": "bloom",
        "hidden_size": 4096,
        "n_layer": 30,
        "n_head": 32,
        "vocab_size": 250880,
        "architectures": ["BloomForCausalLM"],
    },
    "phi-1_5": {
        "model_type": "phi",
        "hidden_size": 2048,
        "intermediate_size": 8192,
        "num_hidden_layers": 24,
        "num_attention_heads": 32,
        "vocab_size": 51200,
        "partial_rotary_factor": 0.5,
        "max_position_embeddings": 2048,
        "tie_word_embeddings": False,
        "architectures": ["PhiForCausalLM"],
    },
    "stablelm-base-alpha-3b": {
        "model_type": "gpt_neox",
        "hidden_size": 4096,
        "intermediate_size": 16384,
        "num_hidden_layers": 16,
        "num_attention_heads": 32,
        "vocab_size": 50688,
        "max_position_embeddings": 4096,
        "tie_word_embeddings": False,
        "rotary_pct": 0.25,
        "use_parallel_residual": True,
        "architectures": ["GPTNeoXForCausalLM"],
    },
    "CodeLlama-34B": {
        "model_type": "llama",
        "hidden_size": 8192,
        "intermediate_size": 22016,
        "num_hidden_layers": 48,
        "num_attention_heads": 64,
        "num_key_value_heads": 8,
        "vocab_size": 32000,
        "max_position_embeddings": 16384,
        "rope_theta": 1000000,
        "tie_word_embeddings": False,
        "architectures": ["LlamaForCausalLM"],
    },
}


def model(name):
    return {"hf_config": HF_CFG[name], "model_name": name} if name in HF_CFG else {"model": name}
