"""torch.compile of a transformers causal LM given labels (est24, held-out-13's torch.compile
row): the loss is computed inside the model's forward, so it is compiled with it; before 4.46
the compiled forward also returns the fp32 logits. Recomputed here by hand."""

from __future__ import annotations

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.terms import loss_compiled, unknown_alternatives

LLAMA3_8B = {"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336,
             "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
             "vocab_size": 128256, "max_position_embeddings": 8192, "tie_word_embeddings": False}
TOKENS = 2 * 1024
TV = TOKENS * 128256


def _inp(**kw):
    base = dict(arch=from_hf_config(LLAMA3_8B, name="m"), precision="bf16", micro_batch=2,
                seq_len=1024, attention="sdpa", optimizer="adamw", grad_ckpt=True,
                lora_r=16, compiled=True)
    base.update(kw)
    return EstimateInput(**base)


def test_a_compiled_transformers_model_computing_its_own_loss_compiles_the_loss():
    assert loss_compiled(_inp()) is True
    # the script computes the loss on the returned logits: eager, as before
    assert loss_compiled(_inp(loss_in_logits_dtype=True)) is None
    # the job's own statement wins
    assert loss_compiled(_inp(compiled_loss=False)) is False
    assert loss_compiled(_inp(compiled=False)) is False


def test_from_4_46_the_compiled_forward_holds_the_16bit_logits_and_a_logsumexp():
    est = estimate(_inp(transformers_version="4.46"))
    # inductor fuses upcast + log-softmax + nll; the partitioner saves the bf16 logits and one
    # fp32 logsumexp per token; backward adds the logits' bf16 gradient
    assert est.phases["forward"]["logits_loss"] == TV * 2 + TOKENS * 4
    assert est.phases["backward"]["logits_loss"] == TV * 2 + TOKENS * 4 + TV * 2


def test_before_4_46_the_forward_also_returns_the_fp32_logits():
    new = estimate(_inp(transformers_version="4.46"))
    old = estimate(_inp(transformers_version="4.43"))
    assert (old.phases["forward"]["logits_loss"] - new.phases["forward"]["logits_loss"]
            == TV * 4)


def test_the_eager_loss_stays_in_the_interval_while_the_job_does_not_state_it():
    inferred = _inp(transformers_version="4.46")
    eager = estimate(_inp(transformers_version="4.46", compiled_loss=False))
    est = estimate(inferred)
    assert est.peak_bytes < eager.peak_bytes
    assert est.interval_bytes[1] >= eager.peak_bytes
    assert any(alt == {"compiled_loss": False} for alt, _ in unknown_alternatives(inferred))
    stated = _inp(transformers_version="4.46", compiled_loss=True)
    assert not any(alt == {"compiled_loss": False} for alt, _ in unknown_alternatives(stated))
