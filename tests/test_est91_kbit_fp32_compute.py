"""est91: a bitsandbytes base prepared by PEFT (``prepare_model_for_kbit_training``: every other parameter fp32)
and trained without autocast computes its blocks in fp32 -- bitsandbytes returns each quantized linear's output in
its input's dtype, and the input is the fp32 norm output (sources in ``calibration/est91_kbit_fp32.py``,
``calibration/data/est91_kbit_fp32.json``)."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from preflight.estimate import EstimateInput, estimate
from preflight.estimate import quant_autocast as QA
from preflight.estimate.arch import from_hf_config
from preflight.estimate.step_dtypes import _dtypes

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import public_accuracy as pa  # noqa: E402

GIB = 2 ** 30
LLAMA2_7B = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 4096,
             "intermediate_size": 11008, "num_hidden_layers": 32, "num_attention_heads": 32,
             "num_key_value_heads": 32, "vocab_size": 32000, "max_position_embeddings": 4096,
             "hidden_act": "silu", "rms_norm_eps": 1e-5}


def _inp(**kw: object) -> EstimateInput:
    """llama-recipes' ``--quantization --use_peft`` run (AUB's guide, held-out-44): Llama-2-7B on LLM.int8,
    PEFT-prepared, LoRA r8 on q/v, batch 4 x 2048, checkpointing, eager attention, no autocast."""
    base = dict(arch=from_hf_config(LLAMA2_7B, name="llama-2-7b"), mode="train", precision="fp16", quant="8bit",
                kbit_prepared=True, lora_r=8, lora_targets=("q_proj", "v_proj"), lora_dropout=0.05,
                optimizer="adamw", micro_batch=4, seq_len=2048, padding="packed", grad_ckpt=True,
                attention="eager", world_size=1)
    base.update(kw)
    return EstimateInput(**base)  # type: ignore[arg-type]


def _row(split: str, prefix: str) -> dict:
    data = json.loads(Path(pa.SPLIT_FILES[split]).read_text(encoding="utf-8"))
    return next(r for r in data["rows"] if r["id"].startswith(prefix))


def test_prepared_base_without_autocast_computes_in_fp32():
    assert QA.kbit_fp32_compute(_inp())
    assert _dtypes(_inp())[0].comp == 4
    assert QA.kbit_fp32_compute(_inp(quant="4bit", precision="bf16"))


@pytest.mark.parametrize("change", [
    {"precision": "amp-fp16"},                          # autocast runs the matmuls in 16 bits (est56)
    {"precision": "amp-bf16", "quant": "4bit"},
    {"kbit_prepared": False},                           # nothing upcast: the 16-bit stream stays 16-bit
    {"model_impl": "torchtune", "quant": "4bit"},       # torchao NF4, no PEFT preparation
    {"model_impl": "litgpt", "quant": "4bit"},
    {"zero_stage": 2, "world_size": 2},                 # DeepSpeed fp16 casts the module back to 16 bits
])
def test_not_where_the_stream_is_16_bit(change):
    inp = _inp(**change)
    assert not QA.kbit_fp32_compute(inp)
    assert _dtypes(inp)[0].comp == 2


def test_the_recipe_described_as_fp16_estimates_as_the_fp32_label():
    """held-out-39's llama-recipes row (the same recipe, Llama 2 13B) was labelled fp32 by hand; described as the
    model's fp16 load it now gives the same estimate."""
    row = _row("held-out-39", "niftylius-llama-recipes99")
    as_fp16 = dict(row, setup=dict(row["setup"], precision="fp16"))
    assert pa.evaluate(as_fp16).estimate == pa.evaluate(row).estimate


def test_aub_row_moves_toward_its_logged_floor():
    """held-out-44's AUB row: 'Max CUDA memory allocated was 21 GB' (int of GiB: the peak in [21, 22) GiB).
    Before est91 the estimate was 18.11 GiB (-13.8%); the fp32 block puts it within 5% of the floor."""
    row = _row("held-out-44", "hpcaub-llama2-7b-lora-int8")
    res = pa.evaluate(row)
    assert res.estimate is not None
    assert 19.5 * GIB < res.estimate < 22 * GIB
    assert res.low is not None and res.high is not None and res.low <= row["peak_bytes"] <= res.high


def test_block_activations_grow_by_the_compute_bytes():
    """The recomputed layer and the layer's backward are charged at 4 bytes where they were at 2: the fp32
    job's own figures, the fp16 load changing only the stored weights' description."""
    on = estimate(_inp())
    as_fp32 = estimate(_inp(precision="fp32"))
    for term in ("activation_recompute", "backward_transient"):
        assert on.phases["backward"][term] == as_fp32.phases["backward"][term]
    off = estimate(replace(_inp(), precision="amp-fp16"))
    assert on.phases["backward"]["backward_transient"] > off.phases["backward"]["backward_transient"]
