"""Reserved memory of a loss on 16-bit logits under autocast (preflight/estimate/logits_blocks.py):
the 16-bit logits' freed block is the one the backward's fp32 requests cannot reuse."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import public_accuracy as pa

from preflight.estimate import constants as C
from preflight.estimate import estimate

#: Qwen-1's single-GPU LoRA setup (the model computes CrossEntropyLoss on its bf16 logits,
#: the Trainer's --bf16 autocasts) on Llama-3-8B's shapes: 128,256-token vocabulary
JOB = dict(mode="train", model="Llama-3-8B", precision="amp-bf16", weights_bits=16,
           optimizer="adamw", micro_batch=1, grad_accum=8, seq_len=8192, grad_ckpt=True,
           attention="flash", padding="max_length", loss="standard", loss_in_logits_dtype=True,
           lora_r=64, lora_targets=["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj",
                                    "down_proj"],
           torch_version="2.0.1", transformers_version="4.32.0", world_size=1)
E = 8192 * 128256          # tokens x vocabulary


def _est(**over):
    inp, unknown = pa.estimate_input(dict(JOB, **over))
    assert unknown == []
    return estimate(inp)


def _allocated(terms):
    return sum(v for t, v in terms.items() if t not in ("cuda_context", "fragmentation"))


def test_backward_start_reserves_the_16bit_logits_block():
    est = _est()
    bwd = est.phases["backward"]
    # log_softmax's saved output, nll's gradient, log_softmax's input gradient: fp32 each
    assert bwd["logits_loss"] == 12 * E
    # A (2E, freed before backward) is too small for F (4E): a new segment, A stays reserved
    assert bwd["fragmentation"] == 2 * E
    assert est.phase == "backward"
    # the generic median share it replaces
    assert bwd["fragmentation"] < round(12 * E * C.STEP_CACHE_RATIO)


def test_forward_leaves_no_logits_remainder():
    fwd = _est().phases["forward"]
    assert abs(fwd["fragmentation"] - _allocated(fwd) * C.FRAGMENTATION) <= 2


def test_other_layouts_keep_the_generic_share():
    for over in (dict(micro_batch=2),                       # the shift makes a copy
                 dict(loss_in_logits_dtype=False),          # transformers' fp32 upcast
                 dict(precision="bf16")):                   # no autocast: no fp32 copies
        est = _est(**over)
        bwd = est.phases["backward"]
        step = bwd["logits_loss"]
        assert abs(bwd["fragmentation"] - max(step * C.STEP_CACHE_RATIO,
                                              _allocated(bwd) * C.FRAGMENTATION)) <= 2, over
