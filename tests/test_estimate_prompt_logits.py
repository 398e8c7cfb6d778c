"""The first ``generate`` step's logits before transformers 4.45 (est24, held-out-13's
DeepSeek-LLM 7B rows): the head runs over every prompt position and Llama's forward upcasts
the result, recomputed here by hand."""

from __future__ import annotations

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.terms import unknown_alternatives

DEEPSEEK_7B = {"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008,
               "num_hidden_layers": 30, "num_attention_heads": 32, "num_key_value_heads": 32,
               "vocab_size": 102400, "max_position_embeddings": 4096, "tie_word_embeddings": False}
GPT2 = {"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12, "vocab_size": 50257,
        "n_positions": 1024}
KV_PER_TOKEN = 30 * 2 * 32 * 128 * 2   # layers x (K, V) x heads x head_dim x bf16 bytes


def _generate(config=DEEPSEEK_7B, **kw):
    base = dict(arch=from_hf_config(config, name="m"), mode="generate", precision="bf16",
                micro_batch=16, seq_len=1024, max_new_tokens=1, attention="sdpa")
    base.update(kw)
    return EstimateInput(**base)


def test_before_4_45_the_head_holds_every_prompt_positions_logits_and_their_fp32_copy():
    est = estimate(_generate(transformers_version="4.35"))
    head = est.phases["head"]
    # lm_head over 16 x 1,024 positions in bf16, then logits.float(): 2 + 4 bytes each
    assert head["logits_loss"] == (16 * 1024 * 102400 * (2 + 4))
    # beside the weights and the prompt's cache, after the layers' transients are freed
    assert head["kv_cache"] == round(16 * 1024 * KV_PER_TOKEN)
    assert "prefill_transient" not in head
    assert "logits_loss" not in est.phases["prefill"]
    assert est.phase == "head"
    assert any("num_logits_to_keep" in n for n in est.notes)


def test_from_4_45_only_the_last_position_reaches_the_head():
    est = estimate(_generate(transformers_version="4.45.0"))
    assert "head" not in est.phases
    assert est.phases["prefill"]["logits_loss"] == (16 * 102400 * (2 + 4))
    old = estimate(_generate(transformers_version="4.44.2"))
    # the 16 x 1,024 x 102,400 x 6 bytes (9.4 GiB) are what the version costs, less the
    # prefill's own transients that the head phase no longer carries
    gap = old.peak_bytes - est.peak_bytes
    assert 0.5 * 16 * 1024 * 102400 * 6 < gap <= 16 * 1024 * 102400 * 6


def test_a_model_without_the_upcast_holds_the_16bit_logits_only():
    est = estimate(_generate(GPT2, transformers_version="4.40", seq_len=512))
    assert est.phases["head"]["logits_loss"] == (16 * 512 * 50257 * 2)


def test_an_fp32_model_has_no_second_copy():
    est = estimate(_generate(transformers_version="4.40", precision="fp32", micro_batch=1))
    assert est.phases["head"]["logits_loss"] == (1024 * 102400 * 4)


def test_unknown_version_widens_the_interval_with_the_prompt_logits():
    unknown = estimate(_generate())
    old = estimate(_generate(transformers_version="4.40"))
    assert "head" not in unknown.phases
    assert unknown.interval_bytes[1] >= old.peak_bytes
    assert any("4.45" in why for _, why in unknown_alternatives(_generate()))


def test_other_modeling_code_and_single_token_prompts_are_left_alone():
    assert "head" not in estimate(_generate(transformers_version="4.35", model_impl="litgpt")).phases
    assert "head" not in estimate(_generate(transformers_version="4.35", seq_len=1)).phases
    assert "head" not in estimate(_generate(transformers_version="4.35", mode="infer")).phases


def test_the_first_decoding_step_still_holds_the_prompts_fp32_logits_before_4_42():
    est = estimate(_generate(transformers_version="4.41", max_new_tokens=8, micro_batch=4))
    first = est.phases["first_decode"]
    # `outputs` of the prefill (fp32 logits of every prompt position, the bf16 ones freed by
    # logits.float()) stays referenced while the next forward runs, beside its own last-position
    # logits (bf16 + fp32)
    assert first["logits_loss"] == 4 * 1024 * 102400 * 4 + 4 * 102400 * (2 + 4)
    # the cache: the prompt plus the step's new position (legacy tuples before 4.42: the
    # prompt's whole cache held beside the new one)
    assert first["kv_cache"] == 4 * 1025 * KV_PER_TOKEN
    assert first["prefill_transient"] == 4 * 1024 * KV_PER_TOKEN
    # with 8 new tokens the last decoding step holds far less than the first
    assert sum(first.values()) > sum(est.phases["decode"].values())
    # one new token: no decoding forward; 4.45: the prefill's output holds one position
    assert "first_decode" not in estimate(_generate(transformers_version="4.41")).phases
    assert "first_decode" not in estimate(_generate(transformers_version="4.45",
                                                    max_new_tokens=8)).phases


def test_from_4_42_the_loop_deletes_outputs_and_nothing_is_held():
    # est68: 4.42.4 - 4.44.2 `_sample` runs `next_token_logits = outputs.logits[:, -1, :].clone()`
    # and ends each step with `del outputs`: the prompt's logits are gone before the next forward
    for version in ("4.42", "4.43", "4.44.2"):
        est = estimate(_generate(transformers_version=version, max_new_tokens=8, micro_batch=4))
        assert "first_decode" not in est.phases
        assert est.phases["head"]["logits_loss"] == 4 * 1024 * 102400 * (2 + 4)
