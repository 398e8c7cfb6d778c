"""The three traced causes of held-out-8's first scoring (docs/calibration.md, "An eighth
held-out set"), each term recomputed by hand; the rows are in-sample for these fixes.

1. The MLP activation of GPT-2 (and GPT-J, CodeGen, GPTBigCode, Phi) is the one its config
   names (``activation_function`` / ``hidden_act``), not a default by model type:
   ``gelu_pytorch_tanh`` is torch's one-kernel ``F.gelu(approximate="tanh")`` (2 MLP-width
   tensors), ``gelu_new`` the Python formula (5). Measured on transformers' ``GPT2MLP`` by
   ``calibration/mlp_act_saved.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preflight.estimate import constants as C
from preflight.estimate import activations as A
from preflight.estimate.arch import from_hf_config

ROOT = Path(__file__).resolve().parents[1]
H, INTER, TOKENS = 768, 3072, 8 * 1024
BF16 = A.Dtypes(res=2, comp=2, weights=2.0)


def gpt2(**extra):
    cfg = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_embd": H, "n_layer": 12,
           "n_head": 12, "n_positions": 1024, "vocab_size": 50257, "resid_pdrop": 0.1,
           "embd_pdrop": 0.1, "attn_pdrop": 0.1, "tie_word_embeddings": False}
    cfg.update(extra)
    return from_hf_config(cfg, name="gpt2-124m")


def layer_saved(arch, *, train=True, fused_gelu=False):
    return A.transformer_layer(arch, BF16, tokens=TOKENS, seq=1024, batch=8, attention="sdpa",
                               train_weights=train, lora_targets=frozenset(), lora_r=0,
                               lora_dropout=0.0, dropout=0.1, fused_gelu=fused_gelu).saved


# ------------------------------------------------------------------ 1. the config's activation

def test_the_measured_file_is_the_source_of_every_constant():
    doc = json.loads((ROOT / "calibration" / "data" / "mlp_act_saved.json").read_text())
    measured = {(r["act"], r["dtype"], r["proj_trains"]): r["mlp_width_units"] for r in doc["rows"]}
    for act, units in C.MLP_ACT_SAVED.items():
        for dtype in ("float32", "bfloat16"):
            assert measured[(act, dtype, True)] == units, act
            assert measured[(act, dtype, False)] == units - 1, act
    assert measured[("relu", "bfloat16", True)] == measured[("relu", "bfloat16", False)] \
        == C.RELU_MLP_SAVED
    assert C.MLP_ACT_SAVED["gelu_new"] == C.PY_GELU_MLP_SAVED
    assert C.MLP_ACT_SAVED["gelu_pytorch_tanh"] == C.PLAIN_MLP_SAVED


def test_gpt2_reads_activation_function_from_its_config():
    assert gpt2().extra["mlp_act"] == "gelu_new"            # GPT2Config's default
    assert gpt2(activation_function="gelu_pytorch_tanh").extra["mlp_act"] == "gelu_pytorch_tanh"
    phi = from_hf_config({"model_type": "phi", "hidden_size": 2048, "num_hidden_layers": 24,
                          "num_attention_heads": 32, "intermediate_size": 8192, "vocab_size": 51200,
                          "hidden_act": "gelu_new"}, name="phi")
    assert phi.extra["mlp_act"] == "gelu_new"


def test_gelu_pytorch_tanh_keeps_two_mlp_width_tensors_not_five():
    # LLMs-from-scratch step 6 (nn.GELU(approximate="tanh")), bf16, 8 x 1,024 tokens: F.gelu
    # keeps its input (c_fc's output), c_proj its output; gelu_new's tanh, 0.5*x and 1+tanh
    # are not made: 3 x 3,072 x 2 B = 18,432 B a token and layer fewer
    new = layer_saved(gpt2(activation_function="gelu_new"))
    tanh = layer_saved(gpt2(activation_function="gelu_pytorch_tanh"))
    assert new - tanh == 3 * INTER * 2 * TOKENS == 150_994_944
    # twelve layers: 1.6875 GiB, the gap between the estimate and the measured step 6
    assert 12 * (new - tanh) / 2**30 == 1.6875


@pytest.mark.parametrize("act,units", [("gelu", 2), ("quick_gelu", 3), ("gelu_fast", 8),
                                       ("gelu_python", 4)])
def test_other_named_activations_by_the_measured_count(act, units):
    base = layer_saved(gpt2(activation_function="gelu_pytorch_tanh"))
    assert layer_saved(gpt2(activation_function=act)) - base == (units - 2) * INTER * 2 * TOKENS


def test_relu_keeps_its_output_only():
    # GPT2MLP: c_proj(act(c_fc(x))), no dropout between: ReLU's saved output is c_proj's input
    base = layer_saved(gpt2(activation_function="gelu_pytorch_tanh"))
    assert layer_saved(gpt2(activation_function="relu")) - base == -1 * INTER * 2 * TOKENS


def test_unchanged_twins():
    # no activation named: GPT2Config's gelu_new, as before; named gelu_new: the same
    assert layer_saved(gpt2()) == layer_saved(gpt2(activation_function="gelu_new"))
    # litgpt's GptNeoxMLP calls torch's gelu whatever the config says
    assert layer_saved(gpt2(), fused_gelu=True) == \
        layer_saved(gpt2(activation_function="gelu_pytorch_tanh"), fused_gelu=True) == \
        layer_saved(gpt2(activation_function="gelu_pytorch_tanh"))
    # a frozen c_proj does not keep the activation's output: one fewer for either name
    frozen_new = layer_saved(gpt2(), train=False)
    frozen_tanh = layer_saved(gpt2(activation_function="gelu_pytorch_tanh"), train=False)
    assert frozen_new - frozen_tanh == 3 * INTER * 2 * TOKENS
