"""ZeRO-3's gradient partitions live in one buffer allocated with the optimizer (issue 17,
docs/calibration.md "est20"; traced on held-out-9's and held-out-10's ZeRO-3 rows, in-sample).

``DeepSpeedZeroOptimizer_Stage3`` (deepspeed v0.14.2 ``runtime/zero/stage3.py`` lines 494-508)
allocates ``grad_partitions_flat_buffer = torch.zeros(<the rank's partition>,
dtype=gradient_accumulation_dtype, device=self.device)`` once and never frees it: the rank's
gradient partition is allocated in forward too, not only from backward on. Under optimizer
offload ``self.device`` is the host.
"""

from __future__ import annotations

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config

LLAMA = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 1024,
         "intermediate_size": 2816, "num_hidden_layers": 8, "num_attention_heads": 16,
         "num_key_value_heads": 16, "vocab_size": 32000, "tie_word_embeddings": False}
ARCH = from_hf_config(LLAMA, name="llama-small")
# by hand: 8 blocks of 4 x 1024^2 + 3 x 1024 x 2816 + 2 x 1024, the embedding and the untied
# head (32,000 x 1,024 each) and the final norm
P = 8 * (4 * 1024 * 1024 + 3 * 1024 * 2816 + 2 * 1024) + 2 * 32000 * 1024 + 1024


def run(**changes):
    base = dict(arch=ARCH, mode="train", precision="amp-fp16", optimizer="adamw", micro_batch=1,
                seq_len=128, grad_ckpt=False, zero_stage=3, world_size=4)
    base.update(changes)
    e = estimate(EstimateInput(**base))
    assert e.params_trainable == P
    return e


def test_partition_allocated_in_forward_recomputed_by_hand():
    e = run()
    # fp16 gradients (2 bytes), a quarter of the model per rank: in every phase
    assert e.phases["forward"]["gradients"] == P / 4 * 2
    assert e.phases["backward"]["gradients"] == P / 4 * 2
    assert e.phases["optimizer"]["gradients"] == P / 4 * 2


def test_one_gpu_and_bf16():
    assert run(world_size=1).phases["forward"]["gradients"] == P * 2
    assert run(precision="amp-bf16", world_size=8).phases["forward"]["gradients"] == P / 8 * 2


def test_the_zero3_rows_it_was_traced_on():
    """In-sample (est20): the held-out-9/-10 ZeRO-3 rows with both est20 terms, and the
    out-of-memory row no longer reads as fitting."""
    import json
    import sys
    from pathlib import Path

    from preflight import hardware
    from preflight.estimate import verdict

    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root / "bench"))
    import public_accuracy as pa

    rows = {r["id"]: r for name in ("heldout9.json", "heldout10.json")
            for r in json.loads((root / "calibration" / "public" / name).read_text())["rows"]}
    for rid, lo, hi in (("deepspeed-examples-bf16-master-weight/6.86b-zero3-b1-4gpu", -0.03, 0.03),
                        ("gpjt-fine-tune-2024-04/llama-3-8b-zero3-fp16-b2-s2048-8gpu", -0.05, 0.0),
                        ("gpjt-fine-tune-2024-04/qwen1.5-0.5b-zero3-fp16-b2-s2048-1gpu", -0.05, 0.0)):
        res = pa.evaluate(rows[rid])
        assert lo <= res.error <= hi, (rid, res.error)
    oom = rows["gpjt-fine-tune-2024-04/llama-3-8b-zero3-fp16-b3-s2048-8gpu"]
    inp, _ = pa.estimate_input(oom["setup"], hardware.find(oom["gpu"]))
    assert verdict(estimate(inp), hardware.find(oom["gpu"])) in ("likely-oom", "oom")


def test_twins_without_the_buffer_in_forward():
    # optimizer offload: the buffer is host memory
    assert "gradients" not in run(offload_optimizer="cpu").phases["forward"]
    # ZeRO-2 builds its averaged partitions during backward
    assert "gradients" not in run(zero_stage=2).phases["forward"]
    # plain data parallel: gradients appear in backward
    assert "gradients" not in run(zero_stage=0).phases["forward"]
    # inference has no gradients
    e = estimate(EstimateInput(arch=ARCH, mode="inference", precision="fp16", micro_batch=1,
                               seq_len=128, zero_stage=3, world_size=4))
    assert all("gradients" not in terms for terms in e.phases.values())


def test_accumulation_not_counted_twice():
    # gradient accumulation accumulates into the same buffer: one partition, not two
    assert run(grad_accum=4).phases["forward"]["gradients"] == P / 4 * 2
