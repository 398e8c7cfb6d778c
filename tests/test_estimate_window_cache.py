"""A sliding-window model's KV cache by release and attention path (est49, held-out-23's
Mistral-7B FlashAttention-2 generation rows, transformers 4.34): recomputed here by hand from
``MistralFlashAttention2.forward`` / ``MistralAttention.forward`` of the 4.34.0 wheel."""

from __future__ import annotations

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.window_cache import cache_positions

MISTRAL_7B = {"model_type": "mistral", "hidden_size": 4096, "intermediate_size": 14336,
              "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
              "vocab_size": 32000, "max_position_embeddings": 32768, "sliding_window": 4096,
              "tie_word_embeddings": False}
KV_PER_POSITION = 32 * 2 * 8 * 128 * 2   # layers x (K, V) x KV heads x head_dim x fp16 bytes
WINDOW = 4096


def _generate(**kw):
    base = dict(arch=from_hf_config(MISTRAL_7B, name="m"), mode="generate", precision="fp16",
                micro_batch=2, seq_len=11000, max_new_tokens=512, attention="flash",
                transformers_version="4.34.0")
    base.update(kw)
    return EstimateInput(**base)


def test_flash_attention_4_34_holds_the_whole_prompt_then_decodes_in_the_window():
    est = estimate(_generate())
    # the prompt's forward has no past: every layer keeps all 11,000 positions of both sequences
    assert est.phases["prefill"]["kv_cache"] == 2 * 11000 * KV_PER_POSITION
    assert est.phases["head"]["kv_cache"] == 2 * 11000 * KV_PER_POSITION
    # the first decoding forward slices the past to 4,095 positions and appends one: 4,096,
    # while generate's legacy tuples still reference the prompt's 11,000
    first = est.phases["first_decode"]
    assert first["kv_cache"] == 2 * WINDOW * KV_PER_POSITION
    assert first["prefill_transient"] == 2 * 11000 * KV_PER_POSITION
    # later steps stay at the window (and the previous step's window-sized copy)
    assert est.phases["decode"]["kv_cache"] == 2 * WINDOW * KV_PER_POSITION
    assert est.phases["decode"]["prefill_transient"] == 2 * (WINDOW - 2) * KV_PER_POSITION
    assert any("slices it to the 4096-position window" in n for n in est.notes)


def test_the_peak_grows_per_sequence_by_the_prompts_cache_and_its_logits():
    one, two = estimate(_generate(micro_batch=1)), estimate(_generate(micro_batch=2))
    assert one.phase == two.phase == "head"

    def held(e):
        return e.phases["head"]["kv_cache"] + e.phases["head"]["logits_loss"]

    # one more (padding) sequence: its 11,000-position cache and the head's fp16 logits plus
    # their fp32 copy (Mistral's logits.float()): 1.34 + 0.66 + 1.31 GiB, not a second cache
    assert held(two) - held(one) == 11000 * (KV_PER_POSITION + 32000 * (2 + 4))


def test_eager_attention_keeps_every_position():
    # MistralAttention.forward (4.34.0): torch.cat with the past, the window only in the mask
    est = estimate(_generate(attention="eager", seq_len=6000))
    assert est.phases["decode"]["kv_cache"] == 2 * (6000 + 512) * KV_PER_POSITION
    assert est.phases["first_decode"]["kv_cache"] == 2 * 6001 * KV_PER_POSITION
    assert any("in the mask only" in n for n in est.notes)


def test_inside_the_window_nothing_is_sliced():
    pos = cache_positions(_generate(seq_len=12), from_hf_config(MISTRAL_7B, name="m"), 12)
    assert (pos.prompt, pos.first, pos.context, pos.note) == (12, 13, 524, "")


def test_releases_not_read_keep_the_earlier_reading():
    # 4.40 (DynamicCache, not read here): the decoding cache capped at the window, as before est49
    arch = from_hf_config(MISTRAL_7B, name="m")
    pos = cache_positions(_generate(transformers_version="4.40.0"), arch, 11000)
    assert (pos.prompt, pos.first, pos.context) == (WINDOW, 11001, WINDOW)
    assert cache_positions(_generate(transformers_version=None), arch, 11000).context == WINDOW
    # a model without a window is never cut
    llama = from_hf_config(dict(MISTRAL_7B, model_type="llama", sliding_window=None), name="l")
    assert cache_positions(_generate(arch=llama), llama, 11000).context == 11512
