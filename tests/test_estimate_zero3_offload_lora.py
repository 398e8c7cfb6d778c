"""ZeRO-3 terms traced on the PEFT README's DeepSpeed offload rows (issue 17, docs/calibration.md
"est22"; in-sample for those rows):

* ``LinearFunctionForZeroStage3`` (installed as ``F.linear`` by ``zero.Init`` and never
  restored) saves every linear's input, frozen weight or not (``terms.zero3_linear_saves_input``);
* under parameter offload each gather stages through a GPU copy of the host partitions: a
  prefetch bucket's, and at the end of forward the LM head's (``terms.zero3_offload_gather_staging``).

Each recomputed by hand, with twins that must not move.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.terms import (
    zero3_linear_saves_input,
    zero3_live_params,
    zero3_offload_gather_staging,
)

H, FF, L, V = 1024, 2816, 8, 128256
LLAMA = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": H,
         "intermediate_size": FF, "num_hidden_layers": L, "num_attention_heads": 16,
         "num_key_value_heads": 16, "vocab_size": V, "tie_word_embeddings": False}
ARCH = from_hf_config(LLAMA, name="llama-small")


def job(**changes):
    base = dict(arch=ARCH, mode="train", precision="bf16", optimizer="adamw", micro_batch=2,
                seq_len=256, grad_ckpt=False, attention="sdpa", zero_stage=3, world_size=1,
                lora_r=8, lora_targets=("q_proj", "v_proj"), lora_dropout=0.1,
                offload_params="cpu", offload_optimizer="cpu")
    base.update(changes)
    return EstimateInput(**base)


def test_the_wrapper_saves_every_frozen_linears_input():
    with_wrapper = job()                                          # built under zero.Init (unknown: the same)
    without = job(load_placement="gpu", deepspeed_version="0.14.2")   # built outside, before 0.19.4
    assert zero3_linear_saves_input(with_wrapper) and not zero3_linear_saves_input(without)
    extra = (estimate(with_wrapper).phases["forward"]["activations"]
             - estimate(without).phases["forward"]["activations"])
    tokens, bf16 = 2 * 256, 2
    # per layer and token, the tensors nothing else saves: the attention norm's output (read by
    # q, k, v), o_proj's input (with an unknown transformers, the model's contiguous copy of
    # SDPA's output: terms.sdpa_output_copied), the MLP norm's output (gate, up) and the gated
    # product (down). The first layer's q/k/v input does not require grad (frozen embeddings
    # and norm): the Function saves nothing there.
    by_hand = tokens * bf16 * (L * (H + H + H + FF) - H)
    assert extra == pytest.approx(by_hand, abs=64)


def test_the_wrapper_adds_nothing_when_the_weights_train():
    full = job(lora_r=None, lora_targets=(), lora_dropout=0.0)
    full_outside = replace(full, load_placement="gpu", deepspeed_version="0.14.2")
    a = estimate(full).phases["forward"]["activations"]
    b = estimate(full_outside).phases["forward"]["activations"]
    assert a == b                     # a trained linear saved its input already


@pytest.mark.parametrize("changes", [
    dict(zero_stage=2, offload_params=None),          # no ZeRO-3, no wrapper
    dict(quant="4bit", kbit_prepared=False),          # bitsandbytes' linears do not call F.linear
    dict(compiled=True),
    dict(mode="inference"),
])
def test_wrapper_twins(changes):
    assert not zero3_linear_saves_input(job(**changes))


def test_the_wrapper_from_deepspeed_0_19_4_on_a_built_model():
    assert zero3_linear_saves_input(job(load_placement="host", deepspeed_version="0.19.4"))
    assert zero3_linear_saves_input(job(load_placement="host"))      # unknown release: the latest


def test_gather_staging_recomputed_by_hand():
    inp = job()
    est = estimate(inp)
    from preflight.estimate.model import _params

    prm = _params(ARCH, None)
    bucket, group = zero3_offload_gather_staging(inp, prm)
    # one GPU: the whole partition is the parameter; a prefetch bucket is 5e7 elements, the
    # largest group the LM head (32,000 x 1,024, larger than a bucket)
    assert bucket == 5e7 and group == V * H
    live = zero3_live_params(inp, prm)
    bf16 = 2
    # backward: the live set plus one bucket's staging copy
    assert est.phases["backward"]["gathered_params"] == pytest.approx((live + 5e7) * bf16, abs=2)
    # forward: the head's staging copy at the end of forward (before the logits exist), in
    # place of the bucket's
    logits_fwd = est.phases["forward"].get("logits_loss", 0)
    head_extra = max((V * H - 5e7) * bf16 - logits_fwd, 0)
    assert est.phases["forward"]["gathered_params"] == pytest.approx((live + 5e7) * bf16 + head_extra, abs=2)


def test_staging_is_a_partition_when_sharded_and_absent_without_offload():
    from preflight.estimate.model import _params

    prm = _params(ARCH, None)
    assert zero3_offload_gather_staging(job(world_size=4), prm) == (5e7 / 4, V * H / 4)
    assert zero3_offload_gather_staging(job(offload_params=None), prm) == (0.0, 0.0)
    # the same job without parameter offload: the gathered set has no staging copy
    on = estimate(job(world_size=4)).phases["backward"]["gathered_params"]
    off = estimate(job(world_size=4, offload_params=None)).phases["backward"]["gathered_params"]
    assert on - off == pytest.approx(5e7 / 4 * 2, abs=2)


def _row(rid):
    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root / "bench"))
    import public_accuracy as pa

    rows = json.loads((root / "calibration" / "public" / "devset.json").read_text())["rows"]
    return pa.evaluate(next(r for r in rows if r["id"] == rid))


def test_peft_readme_offload_rows_in_sample():
    """In-sample (the rows both terms were traced on; -32%, -46% and -37% before est22). Still
    under: the rest of the gap is not traced (docs/calibration.md, est22)."""
    errors = {rid: _row(f"peft-readme/{rid}").error
              for rid in ("t0-3b-lora-ds-offload", "mt0-xxl-lora-ds-offload", "bloomz-7b1-lora-ds-offload")}
    assert -0.26 < errors["t0-3b-lora-ds-offload"] < 0
    assert -0.25 < errors["mt0-xxl-lora-ds-offload"] < 0
    assert -0.15 < errors["bloomz-7b1-lora-ds-offload"] < 0
