"""SDPA's output copied before the output projection (``terms.sdpa_output_copied``), recomputed
by hand. CUDA's flash kernel allocates its output like the (transposed) query, so a query
contiguous in (batch, heads, seq, dim) memory gives an output in that layout and the model's
``attn_output.transpose(1, 2).contiguous()`` copies it; o_proj (when it trains) saves the copy
next to the output SDPA saves. OPT's ``_shape`` and GPT-NeoX's partial-rotary ``cat`` make such
a query in every release; transformers' shared SDPA function does from 4.48 (``.contiguous()``).
This was held-out-4's OPT SDPA gap (-2.8% to -4.3%)."""

from __future__ import annotations

from preflight.estimate import EstimateInput, estimate
from preflight.estimate import activations as A
from preflight.estimate.arch import from_hf_config
from preflight.estimate.terms import sdpa_output_copied

OPT350M = {"model_type": "opt", "architectures": ["OPTForCausalLM"], "hidden_size": 1024,
           "ffn_dim": 4096, "num_hidden_layers": 24, "num_attention_heads": 16,
           "vocab_size": 50272, "max_position_embeddings": 2048, "word_embed_proj_dim": 512,
           "do_layer_norm_before": False, "activation_function": "relu", "dropout": 0.1}
LLAMA = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 2048,
         "intermediate_size": 5632, "num_hidden_layers": 4, "num_attention_heads": 16,
         "vocab_size": 32000, "max_position_embeddings": 2048}
GPT2 = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_embd": 1280,
        "n_layer": 36, "n_head": 20, "n_positions": 1024, "vocab_size": 50257}


def _inp(cfg=OPT350M, **kw):
    base = dict(arch=from_hf_config(cfg, name="m"), mode="train", precision="fp16",
                optimizer="sgd", micro_batch=1, seq_len=1024, attention="sdpa",
                torch_version="2.4.0", transformers_version="4.46", gpu_bf16=True)
    base.update(kw)
    return EstimateInput(**base)


def test_when_the_output_is_copied():
    assert sdpa_output_copied(_inp(), _inp().arch)                          # OPT, flash
    assert not sdpa_output_copied(_inp(gpu_bf16=False), _inp().arch)        # Turing: mem-efficient
    assert not sdpa_output_copied(_inp(attention="eager"), _inp().arch)
    assert not sdpa_output_copied(_inp(precision="fp32"), _inp().arch)      # no flash in fp32
    assert not sdpa_output_copied(_inp(device="cpu"), _inp().arch)
    assert not sdpa_output_copied(_inp(model_impl="litgpt"), _inp().arch)
    llama = from_hf_config(LLAMA, name="llama")
    assert not sdpa_output_copied(_inp(LLAMA, transformers_version="4.44"), llama)  # view query
    assert sdpa_output_copied(_inp(LLAMA, transformers_version="4.48"), llama)      # .contiguous()
    assert sdpa_output_copied(_inp(LLAMA, transformers_version=None), llama)        # the latest
    gpt2 = from_hf_config(GPT2, name="gpt2")
    assert not sdpa_output_copied(_inp(GPT2, transformers_version="4.46"), gpt2)    # permute view
    assert sdpa_output_copied(_inp(GPT2, transformers_version="4.52"), gpt2)


def _layer(inp, copy):
    d = A.Dtypes(res=2, comp=2, weights=2, autocast=False, mask=1)
    return A.transformer_layer(inp.arch, d, tokens=1024, seq=1024, batch=1, attention="sdpa",
                               train_weights=True, lora_targets=frozenset(), lora_r=0,
                               lora_dropout=0.0, dropout=0.0, sdpa_out_copy=copy)


def test_one_more_output_per_layer_by_hand():
    inp = _inp()
    q_dim = 16 * 64
    assert _layer(inp, True).saved - _layer(inp, False).saved == 1024 * q_dim * 2


def test_the_estimate_carries_it_on_ampere_not_on_turing():
    ampere = estimate(_inp()).phases["forward"]["activations"]
    turing = estimate(_inp(gpu_bf16=False)).phases["forward"]["activations"]
    assert ampere - turing == 24 * 1024 * (16 * 64) * 2


def test_a_frozen_output_projection_saves_no_copy():
    frozen = dict(lora_r=8, lora_targets=("q_proj", "v_proj"), optimizer="adamw")
    a = estimate(_inp(LLAMA, transformers_version="4.48", **frozen)).phases["forward"]["activations"]
    b = estimate(_inp(LLAMA, transformers_version="4.44", **frozen)).phases["forward"]["activations"]
    assert a == b
