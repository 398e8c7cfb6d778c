"""LLM.int8 keeps its input itself for backward under bitsandbytes 0.39-0.44 (est83), charged only
when the job's release is known (``EstimateInput.bitsandbytes_version``), by hand on the
configuration of held-out-39's llama-recipes row (Llama 2 13B, 8-bit base prepared by PEFT, fp32,
LoRA r 8 on q / v with dropout 0.05, eager attention, checkpointing, batch 16 x 224).

``MatMul8bitLt.forward`` ends with ``ctx.tensors = (CAt, subA, A)`` from 0.39.1 to 0.44.0
(``(CAt, subA)`` in 0.37 / 0.38); llama-recipes at 41ffbca pins ``bitsandbytes==0.39.1``. q, k
and v read one tensor (kept once), o_proj the eager attention's contiguous copy (its own tensor;
under SDPA the kernel's output, already kept by the kernel), gate and up the second norm's output
(once), down the MLP product (already kept by the product's backward).
"""

from __future__ import annotations

import json
from pathlib import Path

from preflight.estimate import EstimateInput, estimate
from preflight.estimate import int8_matmul as I8
from preflight.estimate.arch import from_hf_config

H, FFN, L = 5120, 13824, 40
LLAMA13B = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": H,
            "intermediate_size": FFN, "num_hidden_layers": L, "num_attention_heads": 40,
            "vocab_size": 32000, "max_position_embeddings": 4096, "tie_word_embeddings": False}
TOKENS = 16 * 224
ROOT = Path(__file__).resolve().parents[1]


def _inp(**kw):
    base = dict(arch=from_hf_config(LLAMA13B, name="m"), mode="train", precision="fp32",
                optimizer="adamw", micro_batch=16, seq_len=224, attention="eager", grad_ckpt=True,
                lora_r=8, lora_targets=("q_proj", "v_proj"), lora_dropout=0.05, quant="8bit",
                kbit_prepared=True)
    base.update(kw)
    return EstimateInput(**base)


def _added(phase_key, **kw):
    before = estimate(_inp(**kw)).phases["backward"][phase_key]
    after = estimate(_inp(bitsandbytes_version="0.39.1", **kw)).phases["backward"][phase_key]
    return after - before


def test_the_recomputed_layer_keeps_three_fp32_inputs():
    # q/k/v's input, o_proj's (eager: the contiguous copy), gate/up's: 3 x H fp32 per token
    assert _added("activation_recompute") == TOKENS * 3 * H * 4


def test_under_sdpa_o_proj_reads_what_the_kernel_keeps():
    assert _added("activation_recompute", attention="sdpa") == TOKENS * 2 * H * 4


def test_without_checkpointing_every_layer_but_the_first_qkv():
    # the first layer's q / k / v read the frozen embeddings' output: no autograd node
    assert _added("activations", grad_ckpt=False) == TOKENS * (L * 3 * H - H) * 4


def test_an_unprepared_16_bit_base_keeps_16_bit_inputs():
    assert _added("activation_recompute", kbit_prepared=False, precision="amp-fp16") == TOKENS * 3 * H * 2


def test_only_the_releases_that_keep_it():
    none = estimate(_inp()).phases
    for version in ("0.37.2", "0.38.1", "0.45.0", "1.0.0", None):
        assert estimate(_inp(bitsandbytes_version=version)).phases == none, version
    for version in ("0.39.0", "0.41.1", "0.43.0", "0.44.1"):
        assert I8.kept_input_bytes(_inp(bitsandbytes_version=version)) == 4, version


def test_4bit_bases_and_inference_are_unchanged():
    for kw in (dict(quant="4bit", kbit_prepared=False), dict(quant=None, kbit_prepared=False)):
        assert estimate(_inp(bitsandbytes_version="0.39.1", **kw)).phases == estimate(_inp(**kw)).phases
    assert I8.kept_input_bytes(_inp(mode="inference", bitsandbytes_version="0.39.1")) == 0


def test_the_rows_carry_the_release_their_requirements_name():
    def setup(split, row_id):
        rows = json.loads((ROOT / "calibration" / "public" / f"{split}.json").read_text())["rows"]
        return next(r for r in rows if r["id"].endswith(row_id))["setup"]
    assert setup("heldout39", "llama2-13b-chat-8bit-lora-r8-qv-fp32-b16-s224-rtx3090")["bitsandbytes_version"] == "0.39.1"
    assert setup("heldout15", "llama2-7b-lora8bit-r32-s4096-packed-b2-rtx4090")["bitsandbytes_version"] == "0.39.0"
    assert setup("heldout15", "llama2-7b-lora8bit-r32-s4096-packed-b2")["bitsandbytes_version"] == "0.43.0"
