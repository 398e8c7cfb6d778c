"""est73: autocast's weight cast cache in a pass without backward (``preflight/estimate/autocast_cache.py``),
recomputed by hand from the shapes. Traced on held-out-33's damek rows (the CS336 2.7B model's no-grad
forward under bf16 autocast, 19.18 GiB measured against 12.90 in fp32; in-sample there).

torch's ``cached_cast`` keeps the compute-dtype cast of an fp32 leaf that requires grad until the
outermost autocast region exits; ``no_grad`` does not change a parameter's ``requires_grad``, so a
forward pass under ``no_grad`` inside autocast ends holding a bf16 copy of every matmul weight."""

from __future__ import annotations

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config

# the CS336 xl / 2.7B shapes as held-out-33 writes them (untied embeddings, SwiGLU, vocab 10,000)
XL = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 2560,
      "intermediate_size": 10240, "num_hidden_layers": 32, "num_attention_heads": 32,
      "num_key_value_heads": 32, "vocab_size": 10000, "max_position_embeddings": 128,
      "tie_word_embeddings": False, "hidden_act": "silu"}
TIED = dict(XL, tie_word_embeddings=True)

# every matmul weight of the blocks (q, k, v, o; gate, up, down) and the LM head, in parameters
BLOCKS = 32 * (4 * 2560 * 2560 + 3 * 2560 * 10240)
HEAD = 10000 * 2560


def _inp(cfg=XL, **kw) -> EstimateInput:
    base = dict(arch=from_hf_config(cfg, name="m"), mode="infer", precision="amp-bf16", micro_batch=4,
                seq_len=128, attention="eager", world_size=1, torch_version="2.6.0",
                model_impl="transformers", padding="max_length")
    base.update(kw)
    return EstimateInput(**base)


def _cache(inp: EstimateInput, phase: str = "forward") -> float:
    return estimate(inp).phases[phase].get("autocast_weight_cache", 0.0)


def test_nograd_forward_under_bf16_autocast_holds_the_bf16_matmul_weights():
    # 3.38B cached parameters x 2 bytes = 6.30 GiB (damek: 19.18 - 12.90 = 6.28 GiB measured)
    assert _cache(_inp()) == (BLOCKS + HEAD) * 2
    assert round((BLOCKS + HEAD) * 2 / 2**30, 2) == 6.30


def test_the_peak_moves_by_exactly_the_cache():
    on, off = estimate(_inp()), estimate(_inp(autocast=False))
    assert on.phases["forward"]["autocast_weight_cache"] == (BLOCKS + HEAD) * 2
    assert "autocast_weight_cache" not in off.phases["forward"]
    # the same dtypes otherwise: every other term but the allocator's share of the total is unchanged
    rest = {k: v for k, v in on.phases["forward"].items() if k not in ("autocast_weight_cache", "fragmentation")}
    assert rest == {k: v for k, v in off.phases["forward"].items() if k != "fragmentation"}
    assert on.phases["forward"]["fragmentation"] > off.phases["forward"]["fragmentation"]


def test_a_tied_head_is_cast_as_the_heads_matmul_weight():
    # the embedding lookup is not on autocast's list; the tied table is cast once, as the head
    assert _cache(_inp(TIED)) == (BLOCKS + HEAD) * 2


def test_fp16_autocast_and_two_gpus():
    assert _cache(_inp(precision="amp-fp16")) == (BLOCKS + HEAD) * 2
    # weights split across two GPUs (device_map): each holds its half of the casts
    assert _cache(_inp(world_size=2)) == (BLOCKS + HEAD) * 2 / 2


def test_generation_holds_the_cache_in_every_phase():
    inp = _inp(mode="generate", max_new_tokens=16, num_beams=1, use_cache=True, transformers_version="4.57.1")
    est = estimate(inp)
    for phase in ("prefill", "decode"):
        assert est.phases[phase]["autocast_weight_cache"] == (BLOCKS + HEAD) * 2


def test_twins_stay_without_the_cache():
    # fp32 without autocast, 16-bit weights (nothing to cast), pure bf16, a 4-bit base, and a job
    # that casts by hand (autocast False: openai/whisper's Linear casts its weight at each call)
    for kw in (dict(precision="fp32"), dict(precision="amp-bf16", weights_bits=16), dict(precision="bf16"),
               dict(quant="4bit"), dict(autocast=False)):
        assert _cache(_inp(**kw)) == 0.0, kw


def test_training_charges_the_same_cached_weights():
    # the training step's forward cache (train_phase) is the same set of parameters
    inp = _inp(mode="train", optimizer="adamw", foreach=False, grad_accum=1, grad_ckpt=False)
    assert _cache(inp) == (BLOCKS + HEAD) * 2


def test_a_checkpointed_forward_still_ends_holding_every_cast():
    # torch.utils.checkpoint does not clear autocast's cache: the forward of a checkpointed model
    # ends with the same cache as one without checkpointing; its backward (outside the region)
    # holds the head's cast and the one recomputed layer's
    train = dict(mode="train", optimizer="adamw", foreach=False, grad_accum=1)
    ckpt = estimate(_inp(grad_ckpt=True, **train))
    assert ckpt.phases["forward"]["autocast_weight_cache"] == (BLOCKS + HEAD) * 2
    layer = 4 * 2560 * 2560 + 3 * 2560 * 10240 + 2 * 2560   # the block's matrices and its two RMSNorms
    # (the backward phase here is its end, once every gradient exists: the casts are gone)
    assert ckpt.phases["backward"].get("autocast_weight_cache", 0.0) <= (HEAD + layer) * 2
    # the forward's peak moved by the blocks' casts: 6.25 GiB more than the head's alone
    assert ckpt.phases["forward"]["autocast_weight_cache"] - HEAD * 2 == BLOCKS * 2
