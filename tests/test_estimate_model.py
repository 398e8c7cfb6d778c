"""The cost model on the four jobs of issue 5, each recomputed by hand from the config numbers.

Configs are the published config.json numbers of each model; the expected bytes are
computed here from those numbers with the formulas of docs/estimator.md, not copied
from the estimator's output.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from preflight.estimate import EstimateInput, estimate, remediate, verdict
from preflight.estimate import constants as C
from preflight.estimate.arch import from_hf_config

GB = 10 ** 9
GiB = 1024 ** 3

LLAMA3_8B = {"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336,
             "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
             "vocab_size": 128256, "tie_word_embeddings": False}
LLAMA2_7B = {"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008,
             "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 32,
             "vocab_size": 32000, "tie_word_embeddings": False}
LLAMA3_70B = {"model_type": "llama", "hidden_size": 8192, "intermediate_size": 28672,
              "num_hidden_layers": 80, "num_attention_heads": 64, "num_key_value_heads": 8,
              "vocab_size": 128256, "tie_word_embeddings": False}


@dataclass(frozen=True)
class Card:
    name: str
    memory_bytes: int


RTX_4090 = Card("RTX 4090", 24 * GiB - 24 * 1024 ** 2)   # what the driver reports: 24564 MiB
A100_80 = Card("A100 80GB", 85_093_072_896)
H100_80 = Card("H100 80GB", 85_045_231_616)


def arch(config: dict, name: str):
    return from_hf_config(config, name=name)


def llama_params(h: int, inter: int, layers: int, heads: int, kv: int, vocab: int) -> dict[str, int]:
    hd = h // heads
    attn = h * h * 2 + 2 * h * kv * hd
    mlp = 3 * h * inter
    return {"linear": layers * (attn + mlp), "embed": vocab * h, "head": vocab * h,
            "norms": (2 * layers + 1) * h}


# --------------------------------------------------------------------------- QLoRA 8B / 24 GB


def test_llama3_8b_qlora_r16_fits_a_24gb_card():
    inp = EstimateInput(arch=arch(LLAMA3_8B, "Llama-3-8B"), precision="bf16", seq_len=2048,
                        micro_batch=1, lora_r=16, quant="4bit", kbit_prepared=True, grad_ckpt=True)
    est = estimate(inp)
    p = llama_params(4096, 14336, 32, 32, 8, 128256)
    # NF4 linear weights (0.5 B + one fp32 absmax per 64) and fp32 embeddings, head, norms
    # (prepare_model_for_kbit_training upcasts every non-quantized parameter)
    weights = p["linear"] * (0.5 + 4 / 64) + (p["embed"] + p["head"] + p["norms"]) * 4
    assert est.phases["forward"]["weights"] == pytest.approx(weights, rel=1e-9)
    # LoRA on PEFT's default llama targets q_proj, v_proj: r * (in + out) each, per layer
    lora = 32 * 16 * ((4096 + 4096) + (4096 + 1024))
    assert est.params_trainable == lora
    assert est.phases["forward"]["lora_adapters"] == lora * 4
    assert est.phases["forward"]["optimizer_states"] == pytest.approx(lora * 8)
    # checkpointing keeps each layer's input (fp32 residual after the kbit upcast)
    tokens = 2048
    assert est.phases["forward"]["activations"] >= 32 * tokens * 4096 * 4
    assert est.phases["forward"]["activations"] < 32 * tokens * 4096 * 4 * 1.2
    assert est.peak_bytes < 16 * GiB
    assert verdict(est, RTX_4090) == "fits"
    # remediations still say what each change would save, largest first
    rems = remediate(inp, RTX_4090)
    assert rems and all(r.saved_bytes > 0 for r in rems)
    assert [r.saved_bytes for r in rems] == sorted((r.saved_bytes for r in rems), reverse=True)


def test_double_quant_saves_what_the_qlora_paper_says():
    a = arch(LLAMA3_8B, "Llama-3-8B")
    base = dict(arch=a, precision="bf16", seq_len=512, lora_r=16, quant="4bit", kbit_prepared=True)
    plain = estimate(EstimateInput(**base)).phases["forward"]["weights"]
    dq = estimate(EstimateInput(**base, double_quant=True)).phases["forward"]["weights"]
    linear = llama_params(4096, 14336, 32, 32, 8, 128256)["linear"]
    # 0.5 bits -> 0.127 bits of constants per parameter (Dettmers et al. 2023, sec. 3)
    assert (plain - dq) * 8 / linear == pytest.approx(0.5 - 0.127, abs=0.001)


# --------------------------------------------------------------------------- full FT 7B / 80 GB


def test_full_finetune_7b_on_one_80gb_card_is_oom_at_16_bytes_per_param():
    inp = EstimateInput(arch=arch(LLAMA2_7B, "Llama-2-7B"), precision="amp-bf16", seq_len=2048,
                        micro_batch=1, optimizer="adamw")
    est = estimate(inp)
    p = sum(llama_params(4096, 11008, 32, 32, 32, 32000).values())
    assert est.params_total == p == 6_738_415_616          # the published Llama-2-7B count
    opt = est.phases["optimizer"]
    # fp32 weights 4 + fp32 gradients 4 + AdamW exp_avg/exp_avg_sq 8 = 16 bytes per parameter
    assert (opt["weights"] + opt["gradients"] + opt["optimizer_states"]) / p == pytest.approx(16)
    assert est.phase == "optimizer"
    assert est.peak_bytes > 16 * p
    assert verdict(est, A100_80) == "oom"
    rems = remediate(inp, A100_80)
    by_change = {r.changes[0]: r for r in rems if len(r.changes) == 1}
    lora = next(r for c, r in by_change.items() if c.startswith("train LoRA"))
    # LoRA drops the 12 B/param of gradients and optimizer state (and the foreach temporary)
    assert lora.saved_bytes > 12 * p
    assert lora.fits
    adam8 = next(r for c, r in by_change.items() if c.startswith("use 8-bit AdamW"))
    # 8-bit AdamW: ~2 B/param of states instead of 8, no foreach temporary
    e8 = estimate(replace(inp, optimizer="adamw-8bit"))
    assert e8.phases["optimizer"]["optimizer_states"] == pytest.approx(p * C.ADAM8BIT_BYTES_PER_PARAM)
    assert "optimizer_temporaries" not in e8.phases["optimizer"]
    assert adam8.new_peak_bytes == e8.peak_bytes
    assert adam8.saved_bytes == est.peak_bytes - e8.peak_bytes >= p * (8 - C.ADAM8BIT_BYTES_PER_PARAM)


def test_foreach_adamw_temporary_is_one_fp32_copy_of_the_parameters():
    a = arch(LLAMA2_7B, "Llama-2-7B")
    foreach = estimate(EstimateInput(arch=a, seq_len=512)).phases["optimizer"]
    fused = estimate(EstimateInput(arch=a, seq_len=512, optimizer="adamw-fused")).phases["optimizer"]
    assert foreach["optimizer_temporaries"] == 4 * 6_738_415_616
    assert "optimizer_temporaries" not in fused


# --------------------------------------------------------------------------- ZeRO-3 offload


def test_zero3_with_cpu_offload_on_8_gpus():
    a = arch(LLAMA3_70B, "Llama-3-70B")
    inp = EstimateInput(arch=a, precision="bf16", seq_len=4096, micro_batch=1, grad_ckpt=True,
                        zero_stage=3, world_size=8, offload_params="cpu", offload_optimizer="cpu")
    est = estimate(inp)
    fwd = est.phases["forward"]
    # parameters and optimizer live in host memory: no weights, states or master copy on GPU
    for term in ("weights", "optimizer_states", "master_weights"):
        assert term not in fwd
    # gathered: one layer plus the prefetch bucket (5e7 elements), in bf16, plus what is
    # kept for reuse at the turn to backward: the LM head (128256 x 8192 = 1.05e9 elements,
    # more than half the 1e9 reuse distance, so no block is kept with it)
    p = llama_params(8192, 28672, 80, 64, 8, 128256)
    layer = (est.params_total - p["embed"] - p["head"]) // 80
    assert p["head"] == 128256 * 8192 > C.DS_MAX_REUSE_DISTANCE / 2
    # (under parameter offload plus the GPU staging copy of the host partitions being gathered:
    # a prefetch bucket's eighth in backward, the head's eighth at the end of forward; est22,
    # terms.zero3_offload_gather_staging)
    live = p["head"] + layer + C.DS_PREFETCH_BUCKET
    assert est.phases["backward"]["gathered_params"] == round((live + C.DS_PREFETCH_BUCKET / 8) * 2)
    head_stage = max((p["head"] - C.DS_PREFETCH_BUCKET) / 8 * 2 - fwd.get("logits_loss", 0), 0)
    assert fwd["gathered_params"] == round((live + C.DS_PREFETCH_BUCKET / 8) * 2 + head_stage)
    # the contiguous gradient bucket: 5e8 elements of bf16, allocated once, in every phase
    for phase in ("forward", "backward", "optimizer"):
        assert est.phases[phase]["zero_buckets"] == C.DS_REDUCE_BUCKET * 2
    # checkpointed activations: one bf16 hidden state per layer
    assert fwd["activations"] >= 80 * 4096 * 8192 * 2
    assert verdict(est, A100_80) == "fits"
    without = estimate(EstimateInput(arch=a, precision="bf16", seq_len=4096, grad_ckpt=True,
                                     zero_stage=3, world_size=8))
    # without offload each GPU holds 1/8 of bf16 weights + fp32 master + AdamW states (16 B/8)
    assert without.phases["optimizer"]["master_weights"] == pytest.approx(4 * est.params_total / 8)
    assert verdict(without, A100_80) in ("oom", "likely-oom")


# --------------------------------------------------------------------------- 70B generation


def test_llama3_70b_generation_with_a_32k_context():
    a = arch(LLAMA3_70B, "Llama-3-70B")
    # transformers >= 4.45: the first step computes the last position's logits only (an
    # unknown version widens the interval by the 31,744 prompt positions' logits, 24 GB)
    inp = EstimateInput(arch=a, mode="generate", precision="bf16", seq_len=31744,
                        max_new_tokens=1024, micro_batch=1, transformers_version="4.46")
    est = estimate(inp)
    kv = 80 * 2 * 8 * 128 * 32768 * 2                     # layers x K,V x kv heads x dim x ctx x bf16
    assert kv == 10 * GiB
    assert est.phases["decode"]["kv_cache"] == kv
    assert est.phases["decode"]["weights"] == est.params_total * 2
    assert verdict(est, H100_80) == "oom"
    rems = remediate(inp, H100_80)
    four = next(r for r in rems if r.changes[0].startswith("load the weights in 4 bits"))
    assert four.fits
    linear = llama_params(8192, 28672, 80, 64, 8, 128256)["linear"]
    assert four.saved_bytes == pytest.approx(
        linear * (2 - C.NF4_BYTES_PER_PARAM) * (1 + C.FRAGMENTATION), rel=0.01)
    beams = estimate(EstimateInput(arch=a, mode="generate", precision="bf16", seq_len=31744,
                                   max_new_tokens=1024, num_beams=4))
    assert beams.phases["decode"]["kv_cache"] == 4 * kv


# --------------------------------------------------------------------------- properties


def test_peak_is_the_largest_phase_not_the_sum_of_terms():
    est = estimate(EstimateInput(arch=arch(LLAMA2_7B, "Llama-2-7B"), seq_len=1024, micro_batch=2))
    every_term: dict[str, int] = {}
    for terms in est.phases.values():
        for term, value in terms.items():
            every_term[term] = max(every_term.get(term, 0), value)
    assert est.peak_bytes == max(sum(t.values()) for t in est.phases.values())
    assert est.peak_bytes < sum(every_term.values())


def test_eager_attention_stores_the_score_matrices():
    a = arch(LLAMA2_7B, "Llama-2-7B")
    # (transformers 4.44: Llama hands SDPA a query view, so flash's output needs no copy
    # before o_proj; from 4.48 it does, see test_estimate_sdpa_copy.py)
    kw = dict(arch=a, precision="bf16", seq_len=2048, micro_batch=1, transformers_version="4.44")
    sdpa = estimate(EstimateInput(**kw, attention="sdpa")).phases["forward"]["activations"]
    eager = estimate(EstimateInput(**kw, attention="eager")).phases["forward"]["activations"]
    scores = 32 * 32 * 2048 * 2048 * (4 + 2)     # layers x heads x s x s x (fp32 softmax + bf16 copy)
    # both keep q, k, v and the attention output (eager: the copy o_proj reads); SDPA also
    # keeps its logsumexp, fp32 per head and token
    lse = 32 * 2048 * 32 * 4
    assert eager - sdpa == scores - lse


def test_checkpointing_keeps_layer_inputs_only():
    a = arch(LLAMA2_7B, "Llama-2-7B")
    kw = dict(arch=a, precision="bf16", seq_len=2048, micro_batch=4)
    full = estimate(EstimateInput(**kw)).phases["forward"]["activations"]
    ckpt = estimate(EstimateInput(**kw, grad_ckpt=True)).phases["forward"]["activations"]
    assert ckpt < full / 10
    assert ckpt >= 32 * 4 * 2048 * 4096 * 2


def test_moe_counts_every_expert_in_weights_and_active_ones_in_activations():
    mixtral = {"model_type": "mixtral", "hidden_size": 4096, "intermediate_size": 14336,
               "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
               "vocab_size": 32000, "num_local_experts": 8, "num_experts_per_tok": 2}
    a = arch(mixtral, "Mixtral-8x7B")
    est = estimate(EstimateInput(arch=a, mode="infer", precision="bf16", seq_len=128))
    assert est.phases["forward"]["weights"] == a.params_total * 2
    assert a.params_total > 46e9                    # all 8 experts (published 46.7B)
    top2 = estimate(EstimateInput(arch=a, precision="bf16", seq_len=512))
    top8 = estimate(EstimateInput(arch=from_hf_config({**mixtral, "num_experts_per_tok": 8},
                                                      name="m"), precision="bf16", seq_len=512))
    assert top8.phases["forward"]["activations"] > 2 * top2.phases["forward"]["activations"]


def test_ddp_keeps_a_bucket_copy_of_the_gradients():
    a = arch(LLAMA2_7B, "Llama-2-7B")
    one = estimate(EstimateInput(arch=a, precision="bf16", seq_len=512, lora_r=8))
    ddp = estimate(EstimateInput(arch=a, precision="bf16", seq_len=512, lora_r=8, world_size=4))
    assert ddp.phases["optimizer"]["ddp_buckets"] == one.phases["optimizer"]["gradients"]


@pytest.mark.parametrize("memory, expected", [(200, "fits"), (105, "tight"), (95, "likely-oom"),
                                              (80, "oom")])
def test_verdict_thresholds_follow_the_interval(memory, expected):
    from preflight.estimate.model import Estimate

    est = Estimate(peak_bytes=100, interval_bytes=(90, 110), phase="forward", breakdown={})
    assert verdict(est, Card("x", memory)) == expected


def test_unknown_names_the_missing_fields():
    est = estimate(EstimateInput(arch=arch(LLAMA2_7B, "Llama-2-7B")))
    assert not est.ok
    assert est.missing == ["data.seq_len (--seq-len)"]
    assert verdict(est, A100_80) == "unknown"
    assert estimate(EstimateInput()).missing == ["model (--model NAME|HUB_ID, or --params 7B)"]


def test_interval_is_wider_for_a_guessed_shape():
    known = estimate(EstimateInput(arch=arch(LLAMA2_7B, "Llama-2-7B"), seq_len=4096, micro_batch=4))
    guessed = estimate(EstimateInput(params=6_738_415_616, seq_len=4096, micro_batch=4))
    assert guessed.params_total == 6_738_415_616
    def width(e):
        return ((e.interval_bytes[1] - e.interval_bytes[0]) / e.peak_bytes)
    assert width(guessed) > width(known)
    assert any("guessed" in n for n in guessed.notes)


def test_smallest_combination_that_fits_is_found():
    a = arch(LLAMA2_7B, "Llama-2-7B")
    inp = EstimateInput(arch=a, precision="amp-bf16", seq_len=2048, micro_batch=8, attention="eager")
    small = Card("40GB", 40 * GiB)
    rems = remediate(inp, small)
    assert verdict(estimate(inp), small) == "oom"
    combo = [r for r in rems if r.description.startswith("smallest combination")]
    assert len(combo) == 1 and combo[0].fits and len(combo[0].changes) >= 2
    assert not any(r.fits for r in rems if len(r.changes) == 1)
