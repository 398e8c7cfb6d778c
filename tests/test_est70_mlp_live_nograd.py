"""est70: the MLP-width tensors alive at once in a no-grad forward (the inference / prefill transient,
``preflight/estimate/inference.py``), recomputed by hand from the shapes. Traced on held-out-32's
distilgpt2 fp16 generation rows (josedavp/Assignment_2_EE5453_Jose: 128 one-token ``generate`` calls
on a growing sequence; in-sample there).

transformers' ``NewGELUActivation`` (``gelu_new``, GPT-2's default) is the tanh formula written in
Python ops; without autograd its input, ``0.5 * input`` and two chain temporaries are alive at every
step of it: 4 MLP-width tensors, where a gated MLP holds 3 (``calibration/mlp_live_nograd.py``)."""

from __future__ import annotations

import json
from pathlib import Path

from preflight.estimate import EstimateInput, estimate
from preflight.estimate import constants as C
from preflight.estimate.activations import mlp_live_nograd
from preflight.estimate.arch import from_hf_config

DISTILGPT2 = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_embd": 768, "n_layer": 6,
              "n_head": 12, "n_positions": 1024, "n_ctx": 1024, "vocab_size": 50257, "n_inner": None}
LLAMA = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 512,
         "intermediate_size": 1376, "num_hidden_layers": 4, "num_attention_heads": 8,
         "num_key_value_heads": 8, "vocab_size": 32000, "max_position_embeddings": 4096}
DATA = Path(__file__).resolve().parents[1] / "calibration" / "data" / "mlp_live_nograd.json"


def _inp(cfg=DISTILGPT2, **kw):
    base = dict(arch=from_hf_config(cfg, name="m"), mode="generate", precision="fp16", micro_batch=4,
                num_beams=1, seq_len=64 + 127, max_new_tokens=1, attention="sdpa", world_size=1,
                torch_version="2.6.0", transformers_version="4.57.1", use_cache=True)
    base.update(kw)
    return EstimateInput(**base)


def _transient(inp: EstimateInput) -> float:
    return estimate(inp).phases["prefill"]["prefill_transient"]


def test_constants_are_the_measured_live_peaks():
    live = json.loads(DATA.read_text())["live_peak"]
    assert C.PY_GELU_MLP_LIVE == live["gelu_new"] == 4.0
    # the gated MLP's 3 is the count every other MLP keeps being charged
    assert C.MLP_LIVE_NOGRAD_DEFAULT == live["swiglu"] == 3.0


def test_distilgpt2_prefill_transient_by_hand():
    # held-out-32's batch-4 row: 4 x (64 + 127) tokens; per token 4 fp16 MLP-width (3,072) tensors,
    # the residual and the block output (2 x 768 fp16) and the attention output (768 fp16)
    tokens = 4 * (64 + 127)
    assert _transient(_inp()) == tokens * (4 * 3072 * 2 + 2 * 768 * 2 + 768 * 2)
    # 4.5 MiB more than the 3 widths charged before est70
    assert round(tokens * 3072 * 2 / 2**20, 1) == 4.5


def test_named_one_kernel_gelu_keeps_the_default_count():
    # activation_function 'gelu_pytorch_tanh' (torch's one-kernel tanh GELU) is not the Python
    # formula: the default 3 widths stay (twin)
    tanh = dict(DISTILGPT2, activation_function="gelu_pytorch_tanh")
    tokens = 4 * (64 + 127)
    assert _transient(_inp()) - _transient(_inp(tanh)) == tokens * 3072 * 2
    assert mlp_live_nograd(from_hf_config(tanh, name="m")) == C.MLP_LIVE_NOGRAD_DEFAULT


def test_gated_mlp_unchanged_by_hand():
    # twin: Llama's SwiGLU holds 3 widths (act(gate), up, product), as before est70
    inp = _inp(LLAMA, micro_batch=1, seq_len=100)
    assert mlp_live_nograd(inp.arch) == 3.0
    assert _transient(inp) == 100 * (3 * 1376 * 2 + 2 * 512 * 2 + 512 * 2)


def test_phi_named_gelu_new_counts_four():
    phi = {"model_type": "phi", "architectures": ["PhiForCausalLM"], "hidden_size": 256,
           "intermediate_size": 1024, "num_hidden_layers": 2, "num_attention_heads": 4,
           "vocab_size": 1000, "hidden_act": "gelu_new", "max_position_embeddings": 2048}
    assert mlp_live_nograd(from_hf_config(phi, name="m")) == 4.0

