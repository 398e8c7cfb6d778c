"""calibration/alloc_trace.py: allocation traces of a training step on fake tensors, the exact
size fit in the sequence length, and the NF4 stand-in (stored bytes, dequantized copies)."""

from __future__ import annotations

import functools

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("peft")

from calibration.alloc_trace import record, shape_trace, sizes_at
from calibration.matrix import Case

TINY = dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
            num_key_value_heads=4, vocab_size=256, max_position_embeddings=128,
            tie_word_embeddings=False)


def _case(seq: int) -> Case:
    return Case(name=f"tiny-{seq}", model_type="llama", task="causal-lm", hf_config=dict(TINY),
                batch=1, seq_len=seq, precision="bf16", grad_ckpt=True, attention="sdpa",
                lora_r=4, lora_alpha=8, lora_dropout=0.0, lora_targets=("q_proj", "v_proj"))


def _well_formed(events):
    live = set()
    for kind, key, nbytes in events:
        if kind == "a":
            assert key not in live and nbytes >= 0
            live.add(key)
        else:
            live.discard(key)   # frees of setup/earlier keys are allowed
    return live


def test_a_step_frees_what_it_allocates():
    run = record(_case(16))
    assert _well_formed(run["steps"][1]) == set()   # steady state: nothing new survives a step
    # the weights: 2 layers x (4 x 64 x 64 + 3 x 64 x 128) + 2 x 256 x 64 + norms, bf16
    weights = 2 * (4 * 64 * 64 + 3 * 64 * 128) + 2 * 256 * 64 + (2 * 2 + 1) * 64
    lora = 2 * 2 * (4 * 64 + 64 * 4)   # q and v adapters per layer, fp32 A and B
    ids = 16 * 8                       # input_ids, also passed as labels: one storage
    rotary = 2 * (16 // 2) * 4         # inv_freq and original_inv_freq buffers, fp32, head_dim 16
    assert sum(n for k, _, n in run["setup"] if k == "a") == weights * 2 + lora * 4 + ids + rotary


def test_nf4_weights_and_dequantized_copies():
    plain, nf4 = record(_case(16)), record(_case(16), nf4=True)
    mlp = 64 * 128
    setup = sorted(n for k, _, n in nf4["setup"] if k == "a")
    assert setup.count(mlp // 2 + mlp // 64) == 6                  # 3 MLP weights x 2 layers
    assert setup.count(64 * 64 // 2 + 64 * 64 // 64) == 8          # q, k, v, o x 2 layers
    step = nf4["steps"][1]
    for i, (kind, key, nbytes) in enumerate(step):
        if kind == "a" and nbytes == mlp * 2 and key not in {k for _, k, _ in plain["steps"][1]}:
            # freed once the matmul's output exists
            assert ("f", key, 0) in step[i + 1:i + 4]
    assert len(step) > len(plain["steps"][1])


def test_sizes_are_fitted_exactly_in_the_length():
    trace = shape_trace(_case, [16, 32, 64], 48)
    at_24 = record(_case(24))["steps"][1]
    assert [n for _, _, n in sizes_at(trace, 24)] == [n for _, _, n in at_24]
    with pytest.raises(ValueError):
        shape_trace(functools.partial(_bad_case), [16, 32, 64], 48)


def _bad_case(seq: int) -> Case:
    # a different model at the check length: the event sequence differs
    case = _case(seq)
    if seq == 48:
        case.hf_config["num_hidden_layers"] = 3
    return case
