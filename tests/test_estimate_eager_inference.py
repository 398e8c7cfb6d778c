"""Eager attention without grad (est27, held-out-13's DeepSeek-LLM 7B at 1 x 4,096): at the
softmax line the 16-bit scores, their fp32 softmax and its 16-bit copy exist together for
Llama-family models (2 + 4 + 2 bytes per score in bf16); recomputed here by hand."""

from __future__ import annotations

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config

DEEPSEEK_7B = {"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008,
               "num_hidden_layers": 30, "num_attention_heads": 32, "num_key_value_heads": 32,
               "vocab_size": 102400, "max_position_embeddings": 4096, "tie_word_embeddings": False}
GPT2 = {"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12, "vocab_size": 50257,
        "n_positions": 1024}


def _transient(config, attention, *, mode="generate", precision="bf16", batch=1, seq=4096):
    est = estimate(EstimateInput(arch=from_hf_config(config, name="m"), mode=mode,
                                 precision=precision, micro_batch=batch, seq_len=seq,
                                 max_new_tokens=1, attention=attention,
                                 transformers_version="4.35"))
    phase = "prefill" if mode == "generate" else "forward"
    return est, est.phases[phase]["prefill_transient"]


def test_llama_eager_prefill_holds_the_scores_their_fp32_softmax_and_its_bf16_copy():
    _, sdpa = _transient(DEEPSEEK_7B, "sdpa")
    est, eager = _transient(DEEPSEEK_7B, "eager")
    # one layer's scores: batch x heads x seq x seq; bf16 input (2), fp32 softmax (4) and the
    # .to(bfloat16) result (2) at once
    assert eager - sdpa == 1 * 32 * 4096 * 4096 * (2 + 4 + 2)
    # at 1 x 4,096 those 4 GiB make the prefill the peak (not the prompt-logits head)
    assert est.phase == "prefill"


def test_the_scores_grow_with_sequence_squared_not_tokens():
    _, a = _transient(DEEPSEEK_7B, "eager", batch=1, seq=4096)
    _, b = _transient(DEEPSEEK_7B, "eager", batch=4, seq=1024)
    _, sa = _transient(DEEPSEEK_7B, "sdpa", batch=1, seq=4096)
    _, sb = _transient(DEEPSEEK_7B, "sdpa", batch=4, seq=1024)
    assert (a - sa) == 4 * (b - sb) == 32 * 4096 * 4096 * 8


def test_other_model_types_keep_six_bytes_per_score():
    # GPT-2 (softmax in the scores' dtype) and an fp32 Llama were not re-derived: unchanged
    _, sdpa = _transient(GPT2, "sdpa", seq=1024)
    _, eager = _transient(GPT2, "eager", seq=1024)
    assert eager - sdpa == 12 * 1024 * 1024 * 6
    _, sdpa = _transient(DEEPSEEK_7B, "sdpa", precision="fp32", seq=1024)
    _, eager = _transient(DEEPSEEK_7B, "eager", precision="fp32", seq=1024)
    assert eager - sdpa == 32 * 1024 * 1024 * 6


def test_a_plain_forward_pass_charges_the_same_scores():
    _, sdpa = _transient(DEEPSEEK_7B, "sdpa", mode="infer", seq=2048)
    _, eager = _transient(DEEPSEEK_7B, "eager", mode="infer", seq=2048)
    assert eager - sdpa == 32 * 2048 * 2048 * 8
