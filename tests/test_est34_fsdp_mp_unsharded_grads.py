"""FSDP1 with a MixedPrecision policy: a unit's unsharded gradient is in the compute dtype
(issue 17, docs/calibration.md "est34").

Autograd computes the gradient of the gathered FlatParameter in its own dtype, the policy's
``param_dtype``; ``_post_backward_hook`` casts it only when ``handle._reduce_dtype`` differs, and
``reduce_dtype`` left unset "takes on the param_dtype value" (torch ``fsdp/api.py``
``MixedPrecision``). Accelerate's FSDP plugin (``set_mixed_precision``: ``param_dtype`` and
``reduce_dtype`` both the mixed-precision dtype) and the Trainer's own FSDP of transformers 4.x
set both to bf16/fp16. So under bf16 mixed precision over fp32 sharded weights the unsharded
gradient of a block is 2 bytes per parameter, not the 4 of the fp32 weights.
"""

from __future__ import annotations

import pytest

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.params import count_params

SMALL = {"model_type": "llama", "hidden_size": 1024, "intermediate_size": 2816,
         "num_hidden_layers": 16, "num_attention_heads": 16, "num_key_value_heads": 16,
         "vocab_size": 32000, "tie_word_embeddings": False}
ARCH = from_hf_config(SMALL, name="small-llama")
BLOCKS = 16
# one block by hand: q/k/v/o, gate/up/down, two norms; the final norm spread over the blocks
LAYER = (BLOCKS * (4 * 1024 * 1024 + 3 * 1024 * 2816 + 2 * 1024) + 1024) // BLOCKS


def _gathered(precision, torch_version):
    e = estimate(EstimateInput(arch=ARCH, precision=precision, micro_batch=2, seq_len=512,
                               grad_ckpt=True, fsdp="full", world_size=4,
                               torch_version=torch_version))
    # (without the rate limiter the blocks beyond the running ones are freed with an event
    # pending: ``pending_frees``, est37; counted with the gathered ones here)
    return tuple(e.phases[p]["gathered_params"] + e.phases[p].get("pending_frees", 0)
                 for p in ("forward", "backward"))


def test_layer_by_hand():
    parts = dict(count_params(ARCH).by_part)
    assert (sum(parts.values()) - parts["embeddings"] - parts["lm_head"]) // BLOCKS == LAYER


@pytest.mark.parametrize("torch_version, grads", [("2.1", 1), ("2.0", BLOCKS)])
def test_mixed_precision_unsharded_gradients_are_two_bytes(torch_version, grads):
    # backward holds what forward gathered plus one block's unsharded gradient (every block's
    # without the rate limiter, torch < 2.1): in bf16 under amp-bf16, in fp32 for fp32 training
    fwd, bwd = _gathered("amp-bf16", torch_version)
    assert bwd - fwd == pytest.approx(grads * LAYER * 2, abs=16 * BLOCKS)
    fwd32, bwd32 = _gathered("fp32", torch_version)
    assert bwd32 - fwd32 == pytest.approx(grads * LAYER * 4, abs=16 * BLOCKS)
