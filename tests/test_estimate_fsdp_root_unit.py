"""FSDP's root unit (embeddings, LM head, final norm) stays gathered from the start of forward
to the end of backward; under parameter offload its shard is on the host, so the GPU holds the
whole unsharded root and the weights term charges none of it (``terms.fsdp_root_unsharded``;
docs/calibration.md, "est25"). Each figure recomputed by hand from the model's parts.
"""

from __future__ import annotations

import pytest

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.terms import fsdp_root_unsharded

SMALL = {"model_type": "llama", "hidden_size": 1024, "intermediate_size": 2816,
         "num_hidden_layers": 16, "num_attention_heads": 16, "num_key_value_heads": 16,
         "vocab_size": 32000, "tie_word_embeddings": False}
ROOT = 2 * 32000 * 1024 * 2          # embeddings and LM head, bf16


def _job(**changes):
    arch = from_hf_config(SMALL, name="small-llama")
    base = dict(arch=arch, precision="bf16", micro_batch=1, seq_len=128, grad_ckpt=True,
                fsdp="full", world_size=4, torch_version="2.5", lora_r=8,
                lora_targets=("q_proj", "v_proj"))
    base.update(changes)
    return EstimateInput(**base)


def test_the_term_from_its_parts():
    assert fsdp_root_unsharded(_job(), ROOT, 4) == pytest.approx(ROOT * 3 / 4)
    assert fsdp_root_unsharded(_job(offload_params="cpu"), ROOT, 4) == pytest.approx(ROOT)
    assert fsdp_root_unsharded(_job(offload_params="cpu"), ROOT, 1) == 0.0
    assert fsdp_root_unsharded(_job(), 0.0, 4) == 0.0


@pytest.mark.parametrize("world", [2, 4, 8])
def test_offload_keeps_the_whole_root_on_the_gpu_through_forward_and_backward(world):
    """The same LoRA job with and without parameter offload: the frozen weights leave the GPU
    (weights term: the rank's shard of everything), the gathered root grows from
    (1 - 1/n) of the root to all of it; the gathered blocks are the same."""
    on = estimate(_job(world_size=world, offload_params="cpu"))
    off = estimate(_job(world_size=world))
    for phase in ("forward", "backward"):
        gained = on.phases[phase]["gathered_params"] - off.phases[phase]["gathered_params"]
        assert gained == pytest.approx(ROOT / world, abs=4), phase
    assert "weights" not in on.phases["forward"] or on.phases["forward"]["weights"] == 0
    assert off.phases["forward"]["weights"] > 0


def test_tied_embeddings_root_is_the_embedding_alone():
    tied = dict(SMALL, tie_word_embeddings=True)
    arch = from_hf_config(tied, name="small-llama-tied")
    on = estimate(_job(arch=arch, offload_params="cpu"))
    off = estimate(_job(arch=arch))
    gained = on.phases["forward"]["gathered_params"] - off.phases["forward"]["gathered_params"]
    assert gained == pytest.approx(32000 * 1024 * 2 / 4, abs=4)


def test_one_gpu_gathers_nothing():
    """FSDP1 runs NO_SHARD on one GPU: no unit is gathered, offload or not."""
    for inp in (_job(world_size=1, offload_params="cpu"), _job(world_size=1)):
        assert "gathered_params" not in estimate(inp).phases["forward"]


def test_without_offload_the_root_beyond_the_shard_is_unchanged():
    """Without offload the rank's shard of the root is in the weights term; the gathered
    copy adds the other ranks' parts only: two GPUs add half the root, eight add 7/8."""
    two = estimate(_job(world_size=2)).phases["forward"]["gathered_params"]
    eight = estimate(_job(world_size=8)).phases["forward"]["gathered_params"]
    assert eight - two == pytest.approx(ROOT * (7 / 8 - 1 / 2), abs=4)
