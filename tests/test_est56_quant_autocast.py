"""A 4-bit base under autocast with fp32 other parts (lit-gpt's ``--precision bf16-mixed --quantize bnb.nf4``):
bitsandbytes' Linear4bit computes in its fp32 input's dtype (0.41.0 ``nn/modules.py`` 211-215, 243-250) and
MatMul4Bit keeps that input (``autograd/_functions.py`` 522-523), so the norms' outputs, the MLP's activations, the
residual the norms keep and the head's logits are fp32 where bf16-true keeps them in 16 bits; the embedding and norms
are stored fp32 (est56, in-sample for held-out-26)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preflight.estimate import EstimateInput, estimate
from preflight.estimate import quant_autocast as QA
from preflight.estimate.arch import from_hf_config

REPO = Path(__file__).resolve().parents[1]
NEOX = {"model_type": "gpt_neox", "architectures": ["GPTNeoXForCausalLM"], "hidden_size": 512,
        "intermediate_size": 2048, "num_hidden_layers": 4, "num_attention_heads": 8, "vocab_size": 4096,
        "rotary_pct": 0.25, "use_parallel_residual": True, "tie_word_embeddings": False}
LLAMA = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 512,
         "intermediate_size": 1376, "num_hidden_layers": 4, "num_attention_heads": 8, "num_key_value_heads": 8,
         "vocab_size": 4096, "tie_word_embeddings": False}


def _job(cfg, **changes):
    base = dict(arch=from_hf_config(cfg, name=cfg["model_type"] + "-small"), mode="train", precision="amp-bf16",
                optimizer="adamw", micro_batch=4, seq_len=256, grad_ckpt=False, attention="sdpa", lora_r=8,
                lora_targets=("q_proj", "v_proj"), lora_dropout=0.05, loss="chunked", model_impl="litgpt",
                quant="4bit", quant_type="nf4", double_quant=False, kbit_prepared=False)
    base.update(changes)
    return EstimateInput(**base)


def _by_hand(cfg, tokens):
    """fp32-instead-of-bf16 elements per token, counted from the module docstring's list."""
    h, i, layers = cfg["hidden_size"], cfg["intermediate_size"], cfg["num_hidden_layers"]
    parallel = cfg["model_type"] == "gpt_neox"
    residual = 1 if parallel else 2            # the block input the norms keep
    mlp = 2 * i if parallel else 4 * i         # GELU in + down in; gate, SiLU, up, product
    layer = residual * h + 2 * h + mlp         # + the two norm outputs the 4-bit projections keep
    first = (residual - 1) * h + h + mlp       # the embedding's output needs no grad
    return tokens * (first + (layers - 1) * layer + 2 * h) * 2


@pytest.mark.parametrize("cfg", [NEOX, LLAMA], ids=["gpt_neox", "llama"])
def test_bf16_mixed_keeps_fp32_activations_where_bf16_true_keeps_16_bits(cfg):
    mixed, true = estimate(_job(cfg)), estimate(_job(cfg, precision="bf16"))
    tokens = 4 * 256
    acts = mixed.phases["forward"]["activations"] - true.phases["forward"]["activations"]
    assert acts == pytest.approx(_by_hand(cfg, tokens))
    # the 4-bit head returns fp32 logits: 2 more bytes per token and vocabulary entry
    logits = mixed.phases["forward"]["logits_loss"] - true.phases["forward"]["logits_loss"]
    assert logits == pytest.approx(tokens * cfg["vocab_size"] * 2)
    assert any("fp32 non-quantized parts" in n for n in mixed.notes)


def test_the_parts_left_unquantized_are_stored_in_fp32():
    mixed, true = estimate(_job(LLAMA)), estimate(_job(LLAMA, precision="bf16"))
    # lit-gpt quantizes every Linear, the head included: the embedding (4,096 x 512) and the RMSNorm weights
    # (two per block and the final one, 512 each) are left, +2 bytes each
    other = 4096 * 512 + (2 * 4 + 1) * 512
    assert mixed.phases["forward"]["weights"] - true.phases["forward"]["weights"] == pytest.approx(other * 2)


def test_checkpointing_keeps_only_each_block_input_in_fp32():
    inp = _job(LLAMA, grad_ckpt=True)
    assert QA.extra_saved(inp, inp.arch, 1024) == 1024 * 4 * 512 * 2


@pytest.mark.parametrize("changes", [
    dict(precision="bf16"),                                  # bf16-true: every tensor 16-bit
    dict(model_impl="transformers"),                         # transformers loads the rest in 16 bits
    dict(model_impl="litgpt", kbit_prepared=True),
    dict(weights_bits=16),                                   # loaded in 16 bits
    dict(quant=None, quant_type=None, double_quant=None),    # no 4-bit base
    dict(quant="8bit"),                                      # LLM.int8: another matmul
])
def test_twins_keep_the_16_bit_layout(changes):
    inp = _job(LLAMA, **changes)
    assert not QA.fp32_parts(inp)
    assert QA.extra_saved(inp, inp.arch, 1024) == 0
    assert not any("fp32 non-quantized parts" in n for n in estimate(inp).notes)


def test_heldout26_rows_state_what_the_pinned_code_does():
    rows = json.loads((REPO / "calibration" / "public" / "heldout26.json").read_text(encoding="utf-8"))["rows"]
    automodel = [r for r in rows if r["source"].startswith("automodel")]
    assert automodel and all(r["setup"]["liger_kernels"] is True for r in automodel)
    assert all(any("use_liger_kernel: bool = True" in u for u in r["unknown"]) for r in automodel)
    llama2 = [r for r in rows if "llama-2-7b" in r["id"]]
    assert len(llama2) == 6 and all(r["setup"]["seq_len"] == 1304 for r in llama2)
    assert all(any("get_max_seq_length" in u for u in r["unknown"]) for r in llama2)


@pytest.mark.parametrize("ckpt", [False, True])
def test_peft_prepared_base_keeps_norm_outputs_and_mlp_in_fp32_under_autocast(ckpt):
    """prepare_model_for_kbit_training upcasts the rest to fp32: the residual is fp32 in the estimate already; the
    norm outputs the 4-bit projections keep and the gated MLP's four tensors are fp32 too (bf16 in the twin
    without autocast's fp32 stream: the same job computed in bf16 throughout is not a PEFT-prepared layout, so the
    term is checked directly)."""
    inp = _job(LLAMA, model_impl="transformers", kbit_prepared=True, grad_ckpt=ckpt, loss="standard")
    assert QA.kbit_fp32_stream(inp) and not QA.fp32_parts(inp)
    h, i, layers, tokens = 512, 1376, 4, 1024
    per_layer = (2 * h + 4 * i) * 2
    if ckpt:
        # only the recomputed block holds them
        assert QA.extra_saved(inp, inp.arch, tokens) == tokens * per_layer
    else:
        # the first block's attention input needs no grad (frozen embedding, no checkpointing)
        assert QA.extra_saved(inp, inp.arch, tokens) == tokens * (layers * per_layer - h * 2)
    key = "recompute" if ckpt else "saved"
    out = QA.apply({"saved": 1.0, "recompute": 2.0, "logits_held": 3.0, "logits_fwd": 4.0}, inp, inp.arch, [])
    assert out[key] - (2.0 if ckpt else 1.0) == QA.extra_saved(inp, inp.arch, tokens)
    assert out["logits_held"] == 3.0      # transformers' head is not 4-bit: 16-bit logits under autocast
    # twins: no autocast, or not prepared, or torchtune's NF4
    for changes in (dict(precision="bf16"), dict(kbit_prepared=False), dict(model_impl="torchtune")):
        twin = _job(LLAMA, model_impl="transformers", kbit_prepared=True, grad_ckpt=ckpt, loss="standard")
        twin = EstimateInput(**{**twin.__dict__, **changes})
        assert QA.extra_saved(twin, twin.arch, tokens) == 0
