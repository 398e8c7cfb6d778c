"""Accelerate's FSDP under mixed precision stores a 16-bit-loaded model's parameters in fp32
(est27; accelerate ``fsdp2_prepare_model``: ``model.to(torch.float32)``, every parameter;
FSDP1 ``prepare_model``: each FlatParameter that requires grad). Recomputed by hand from the
parameter count; twins without Accelerate, without autocast, with adapters under FSDP1 and
with a 4-bit base stay at the loaded dtype."""

from __future__ import annotations

import textwrap

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config

CFG = {"model_type": "llama", "hidden_size": 1024, "intermediate_size": 2816, "num_hidden_layers": 4,
       "num_attention_heads": 8, "num_key_value_heads": 8, "vocab_size": 32000,
       "max_position_embeddings": 2048, "tie_word_embeddings": False}


def _est(**kw):
    base = dict(arch=from_hf_config(CFG, name="m"), mode="train", precision="amp-bf16", weights_bits=16,
                fsdp="full", world_size=2, micro_batch=1, seq_len=128, lora_r=8, fsdp_version=2)
    base.update(kw)
    return estimate(EstimateInput(**base))


def test_fsdp2_lora_shards_every_parameter_in_fp32():
    up = _est(fsdp_by_accelerate=True)
    # every base parameter, frozen ones too: 4 bytes, sharded over 2 GPUs
    assert up.phases["forward"]["weights"] == up.params_total * 4 // 2
    twin = _est()                       # who wraps is not known: the loaded bf16
    assert twin.phases["forward"]["weights"] == twin.params_total * 2 // 2
    # the gathered copies stay 16-bit (MixedPrecisionPolicy(param_dtype=bf16))
    assert up.phases["forward"]["gathered_params"] == twin.phases["forward"]["gathered_params"]
    assert any("upcasts" in n and "FSDP2" in n for n in up.notes)
    assert not any("upcasts" in n for n in twin.notes)


def test_fsdp1_full_fine_tune_upcasts_weights_and_gradients():
    up = _est(fsdp_by_accelerate=True, fsdp_version=1, lora_r=None)
    twin = _est(fsdp_version=1, lora_r=None)
    p = up.params_total
    assert up.phases["optimizer"]["weights"] == p * 4 // 2
    assert twin.phases["optimizer"]["weights"] == p * 2 // 2
    # the FlatParameter's gradient takes its dtype: fp32 shards
    assert up.phases["optimizer"]["gradients"] == p * 4 // 2
    assert twin.phases["optimizer"]["gradients"] == p * 2 // 2


def test_twins_that_keep_the_loaded_dtype():
    ref = _est().phases["forward"]["weights"]
    # FSDP1 with adapters: frozen and trainable weights in one unit, not decided
    assert _est(fsdp_by_accelerate=True, fsdp_version=1).phases["forward"]["weights"] == ref
    # pure bf16 (mixed_precision "no"): nothing to upcast for
    assert _est(fsdp_by_accelerate=True, precision="bf16").phases["forward"]["weights"] == ref
    # weights loaded in fp32 already: 4 bytes either way
    loaded32 = _est(fsdp_by_accelerate=True, weights_bits=None).phases["forward"]["weights"]
    assert loaded32 == _est(weights_bits=None).phases["forward"]["weights"] == 2 * ref
    # a 4-bit base is not converted
    q = _est(fsdp_by_accelerate=True, quant="4bit").phases["forward"]["weights"]
    assert q == _est(quant="4bit").phases["forward"]["weights"]


def test_read_from_an_accelerate_fsdp2_job(tmp_path):
    from preflight.audit import build_plan
    from preflight.estimate import input_from_plan

    (tmp_path / "train.py").write_text(textwrap.dedent("""\
        import torch
        from accelerate import Accelerator
        from transformers import AutoModelForCausalLM
        accelerator = Accelerator()
        model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-7B", torch_dtype=torch.bfloat16)
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
        model, optimizer = accelerator.prepare(model, optimizer)
    """), encoding="utf-8")
    (tmp_path / "fsdp2.yaml").write_text(textwrap.dedent("""\
        distributed_type: FSDP
        fsdp_config:
          fsdp_version: 2
          fsdp_reshard_after_forward: true
        mixed_precision: bf16
        num_processes: 2
    """), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [tmp_path / "fsdp2.yaml"], root=tmp_path)
    inp = input_from_plan(plan, {"seq_len": 128})
    assert (inp.fsdp_by_accelerate, inp.fsdp_version, inp.precision, inp.weights_bits) == \
        (True, 2, "amp-bf16", 16)
    # the same model sharded by the script's own fully_shard: Accelerate does not prepare it
    (tmp_path / "own.py").write_text(textwrap.dedent("""\
        import torch
        from torch.distributed.fsdp import fully_shard
        from transformers import AutoModelForCausalLM
        model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-7B", torch_dtype=torch.bfloat16)
        fully_shard(model)
    """), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "own.py"], [], root=tmp_path)
    assert input_from_plan(plan, {"seq_len": 128}).fsdp_by_accelerate is None
