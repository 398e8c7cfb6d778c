"""AdamW's step temporaries when fp32 LoRA adapters train beside 16-bit vocabulary tables
(preflight/estimate/dtype_groups.py): torch groups the parameter list by dtype and makes each
group's intermediates in its own dtype, one group after another."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import public_accuracy as pa

from preflight.estimate import estimate
from preflight.estimate.dtype_groups import grouped_foreach_peak

#: Qwen-1's finetune.py LoRA (emb) setup on Llama-2-7B's shapes: bf16 weights under the
#: Trainer's bf16 autocast, PEFT adapters in fp32, modules_to_save copies of both tables
JOB = dict(mode="train", model="Llama-2-7B", precision="amp-bf16", weights_bits=16,
           optimizer="adamw", micro_batch=1, grad_accum=8, seq_len=256, grad_ckpt=True,
           attention="flash", padding="max_length", lora_r=64,
           lora_targets=["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"],
           trained_embeddings="copy", torch_version="2.0.1", transformers_version="4.32.0",
           world_size=1)
#: embed_tokens and the untied lm_head of Llama-2-7B, 32,000 x 4,096 each
TABLE = 32000 * 4096


def _est(**over):
    inp, unknown = pa.estimate_input(dict(JOB, **over))
    assert unknown == []
    return estimate(inp)


def _temps(est):
    return est.phases["optimizer"]["optimizer_temporaries"]


def _adapters(est):
    return est.params_trainable - 2 * TABLE


def test_foreach_before_torch_2_1_two_lists_per_dtype_group():
    est = _est()
    tables, adapters = 2 * TABLE * 2, _adapters(est) * 4     # bf16 tables, fp32 adapters
    # the second group's sqrt is made while the first group's sqrt and denom are alive,
    # then its denom while the first group's denom still is
    expected = max(2 * tables + adapters, tables + 2 * adapters)
    assert _temps(est) == expected
    # the single-dtype charge it replaces: every trainable element at fp32, two lists
    assert _temps(est) < est.params_trainable * 4 * 2


def test_foreach_from_torch_2_1_one_list_per_group():
    est = _est(torch_version="2.2.0")
    assert _temps(est) == 2 * TABLE * 2 + _adapters(est) * 4


def test_for_loop_two_temporaries_of_the_largest_parameter_in_its_dtype():
    est = _est(torch_version="1.13.1")
    largest_adapter = 64 * 11008 * 4            # rank x intermediate size, fp32
    assert _temps(est) == 2 * max(TABLE * 2, largest_adapter)


def test_one_dtype_keeps_the_single_group_term():
    # no tables: the adapters alone, fp32, two lists
    plain = _est(trained_embeddings=None)
    assert _temps(plain) == plain.params_trainable * 4 * 2
    # fp32 weights: tables and adapters share fp32, one group
    fp32 = _est(precision="fp32", weights_bits=32)
    assert _temps(fp32) == fp32.params_trainable * 4 * 2


def test_grouped_peak_is_symmetric_and_reduces_to_one_group():
    assert grouped_foreach_peak([10.0], 2) == 20.0
    assert grouped_foreach_peak([10.0], 1) == 10.0
    assert grouped_foreach_peak([10.0, 3.0], 2) == grouped_foreach_peak([3.0, 10.0], 2) == 23.0
    assert grouped_foreach_peak([10.0, 3.0], 1) == 13.0
    assert grouped_foreach_peak([0.0, 3.0], 2) == 6.0
