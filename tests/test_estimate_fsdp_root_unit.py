"""FSDP's root unit (embeddings, LM head, final norm) stays gathered from the start of forward
to the end of backward; under parameter offload its shard is on the host, so the GPU holds the
whole unsharded root and the weights term charges none of it (``terms.fsdp_root_unsharded``;
docs/calibration.md, "est25"). Each figure recomputed by hand from the model's parts.
"""

from __future__ import annotations

import pytest

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.terms import fsdp_quant_constants, fsdp_root_unsharded

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


# bitsandbytes' quantization constants under FSDP (terms.fsdp_quant_constants)

QUANTIZED = 16 * (4 * 1024 * 1024 + 3 * 1024 * 2816)     # q, k, v, o and the MLP, 16 blocks
DQ_CONSTANTS = 1 / 64 + 4 / (64 * 256)                   # 8-bit absmax + fp32 per 256 blocks
CONSTANTS = 4 / 64                                       # fp32 absmax per block of 64


def _qlora(**changes):
    return _job(quant="4bit", quant_type="nf4", **changes)


def test_constants_from_their_parts():
    from preflight.estimate import constants as C

    assert pytest.approx(DQ_CONSTANTS) == C.NF4_DQ_BYTES_PER_PARAM - 0.5
    off = fsdp_quant_constants(_qlora(double_quant=True, offload_params="cpu"),
                               QUANTIZED, C.NF4_DQ_BYTES_PER_PARAM, 4)
    assert off == pytest.approx(QUANTIZED * DQ_CONSTANTS)
    on = fsdp_quant_constants(_qlora(), QUANTIZED, C.NF4_BYTES_PER_PARAM, 4)
    assert on == pytest.approx(QUANTIZED * CONSTANTS * 3 / 4)


@pytest.mark.parametrize("offload", [None, "cpu"])
def test_the_constants_stay_whole_on_every_gpu(offload):
    """A QLoRA job on 4 GPUs: the weights term is the rank's quarter of the packed values
    (none under offload) plus every quantized weight's constants."""
    est = estimate(_qlora(offload_params=offload))
    arch = from_hf_config(SMALL, name="small-llama")
    from preflight.estimate.model import _params

    prm = _params(arch, None)
    assert prm.quantizable == QUANTIZED
    other = (prm.total - QUANTIZED) * 2                  # embeddings, head, norms in bf16
    packed = QUANTIZED * (0.5 + CONSTANTS) + other
    expected = QUANTIZED * CONSTANTS if offload else packed / 4 + QUANTIZED * CONSTANTS * 3 / 4
    assert est.phases["forward"].get("weights", 0) == pytest.approx(expected, abs=8)


@pytest.mark.parametrize("changes", [
    dict(model_impl="torchtune"),        # torchao's NF4Tensor shards its scalers with it
    dict(quant=None),                    # no 4-bit base
    dict(world_size=1),                  # nothing sharded
])
def test_twins_without_the_constants_term(changes):
    quant = changes.pop("quant", "4bit")
    inp = _job(quant=quant, quant_type="nf4" if quant else None, offload_params="cpu", **changes)
    assert fsdp_quant_constants(inp, QUANTIZED, 0.5 + CONSTANTS, inp.world_size) == 0.0
