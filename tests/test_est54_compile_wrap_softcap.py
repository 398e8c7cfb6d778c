"""est54 (issue 17, held-out-25 in-sample): what a torch.compiled step saves for backward
(compiled_acts.py), FSDP units under a policy that wraps every module (fsdp_wrap.py), and litgpt's
soft-capped attention and logits (softcap.py). Each term recomputed by hand."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import public_accuracy as pa

from preflight import hardware  # type: ignore[attr-defined]
from preflight.estimate import EstimateInput, estimate, verdict
from preflight.estimate import activations as A
from preflight.estimate.arch import from_hf_config
from preflight.estimate.inputs import InputError, input_from_plan
from preflight.estimate.terms import attention_kernel

ROOT = Path(__file__).resolve().parent.parent
ROWS = {r["id"].split("/")[1]: r for r in json.loads(
    (ROOT / "calibration" / "public" / "heldout25.json").read_text(encoding="utf-8"))["rows"]}


def llama13(layers: int) -> dict:
    return {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 5120,
            "num_attention_heads": 40, "num_key_value_heads": 40, "intermediate_size": 13824,
            "num_hidden_layers": layers, "vocab_size": 32000, "max_position_embeddings": 4096,
            "tie_word_embeddings": False}


def gemma2(**over) -> dict:
    cfg = {"model_type": "gemma2", "architectures": ["Gemma2ForCausalLM"], "hidden_size": 4608,
           "num_attention_heads": 32, "num_key_value_heads": 16, "head_dim": 128, "intermediate_size": 36864,
           "num_hidden_layers": 4, "vocab_size": 256000, "max_position_embeddings": 8192,
           "attn_logit_softcapping": 50.0, "final_logit_softcapping": 30.0, "tie_word_embeddings": True}
    cfg.update(over)
    return cfg


def _layer(arch, *, compiled: bool, trains: bool = True, liger: bool = False, impl: str = "litgpt"):
    d = A.Dtypes(res=2, comp=2, weights=2)
    return A.transformer_layer(arch, d, tokens=8192, seq=4096, batch=2, attention="sdpa", train_weights=trains,
                               lora_targets=frozenset(), lora_r=0, lora_dropout=0.0, dropout=0.0, impl=impl,
                               liger=liger, compiled=compiled)


# ------------------------------------------------------------------ 1. compiled activations

def test_a_compiled_llama_layer_keeps_the_norm_inputs_and_drops_the_silu_output():
    arch = from_hf_config(llama13(2), name="llama2-13b-2l")
    eager, compiled = _layer(arch, compiled=False), _layer(arch, compiled=True)
    h, width = 5120, 13824
    # per norm: eagerly the fp32 input (4h) and the bf16 normalised value (2h); compiled the bf16
    # input (2h) and one fp32 rsqrt per token; the MLP drops one bf16 width (SiLU's output)
    per_token = 2 * ((4 * h + 2 * h) - (2 * h + 4)) + width * 2
    assert eager.saved - compiled.saved == pytest.approx(per_token * 8192)
    # the result: 1.42 GiB per layer at 2 x 4,096 tokens where the eager count is 1.94 GiB
    assert compiled.saved / 2 ** 30 == pytest.approx(1.415, abs=0.005)
    assert eager.saved / 2 ** 30 == pytest.approx(1.939, abs=0.005)


def test_frozen_weights_drop_only_the_fp32_upcast():
    arch = from_hf_config(llama13(2), name="llama2-13b-2l")
    eager = _layer(arch, compiled=False, trains=False, impl="transformers")
    compiled = _layer(arch, compiled=True, trains=False, impl="transformers")
    h, width = 5120, 13824
    assert eager.saved - compiled.saved == pytest.approx((2 * (4 * h - (2 * h + 4)) + width * 2) * 8192)


def test_twins_that_compile_does_not_change():
    # LayerNorm (its input and per-row statistics either way) and a plain MLP (the activation's
    # output is the second linear's input)
    gpt2 = from_hf_config({"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_embd": 768,
                           "n_head": 12, "n_layer": 2, "vocab_size": 50257, "n_positions": 1024,
                           "activation_function": "gelu_pytorch_tanh"}, name="gpt2")
    assert _layer(gpt2, compiled=True, impl="transformers").saved == _layer(gpt2, compiled=False,
                                                                            impl="transformers").saved
    # Liger's kernels already keep only the norm's input and the SwiGLU's two inputs
    arch = from_hf_config(llama13(2), name="llama2-13b-2l")
    assert (_layer(arch, compiled=True, liger=True, impl="transformers").saved
            == _layer(arch, compiled=False, liger=True, impl="transformers").saved)
    # inference saves nothing either way
    arch = from_hf_config(llama13(2), name="llama2-13b-2l")
    common = dict(arch=arch, mode="inference", precision="bf16", micro_batch=1, seq_len=512)
    assert estimate(EstimateInput(**common)).peak_bytes == estimate(EstimateInput(compiled=True, **common)).peak_bytes


def test_the_twenty_layer_row_that_ran_on_one_h100_is_no_longer_likely_oom():
    row = ROWS["llama2-13b-20l-litgpt-bf16-inductor-b2-s4096-h100"]
    gpu = hardware.find(row["gpu"])
    inp, _ = pa.estimate_input(row["setup"], gpu)
    assert verdict(estimate(inp), gpu) in ("fits", "tight")
    eager = estimate(replace(inp, compiled=False))
    assert verdict(eager, gpu) in ("likely-oom", "oom")


# ------------------------------------------------------------------ 2. FSDP units of one module

def _fsdp(wrap):
    arch = from_hf_config(llama13(2), name="llama2-13b-2l")
    return estimate(EstimateInput(arch=arch, mode="train", precision="bf16", optimizer="adamw", micro_batch=2,
                                  seq_len=4096, model_impl="litgpt", fsdp="full", fsdp_version=1, world_size=8,
                                  devices_per_node=8, fsdp_wrap=wrap))


def test_a_policy_wrapping_every_module_gathers_the_largest_module_twice():
    est = _fsdp("module")
    head = 32000 * 5120          # the LM head, larger than litgpt's fused qkv (5,120 x 15,360)
    assert head > 5120 * 15360 > 5120 * 13824
    # running and prefetched unit, bf16; no root unit (it keeps no parameters)
    assert est.phases["forward"]["gathered_params"] == pytest.approx(2 * head * 2)
    # backward: the running unit's unsharded gradient besides
    assert est.phases["backward"]["gathered_params"] == pytest.approx(2 * head * 2 + head * 2)


def test_block_wrapping_is_the_default_and_gathers_blocks_and_the_root():
    default, block = _fsdp(None), _fsdp("block")
    assert default.phases == block.phases
    layer = 4 * 5120 * 5120 + 3 * 5120 * 13824 + 2 * 5120    # qkv + proj, the MLP, two norms
    root = 2 * 32000 * 5120
    assert block.phases["forward"]["gathered_params"] == pytest.approx(2 * layer * 2 + root * 2 * 7 / 8, rel=1e-5)
    assert _fsdp("module").peak_bytes < block.peak_bytes


def test_an_unknown_wrap_policy_is_refused_with_its_name():
    with pytest.raises(InputError, match="wrap policy 'layer'"):
        input_from_plan(None, {"seq_len": 8, "fsdp": "full", "world_size": 8, "fsdp_wrap": "layer"})


def test_issue_474_rows_say_the_scripts_default_policy():
    fsdp = [r for name, r in ROWS.items() if "-fsdp-zero3-b2-" in name]
    assert len(fsdp) == 4 and all(r["setup"]["fsdp_wrap"] == "module" for r in fsdp)
    assert all("nonwrapped_numel >= 0" in " ".join(r["unknown"]) for r in fsdp)
    long = [r for name, r in ROWS.items() if "-ckpt-" in name]
    assert len(long) == 6 and all(r["setup"]["fsdp_wrap"] == "block" for r in long)


# ------------------------------------------------------------------ 3. soft-capped attention and logits

def _gemma(impl="litgpt", **over):
    arch = from_hf_config(gemma2(**over), name="gemma-2")
    return EstimateInput(arch=arch, mode="train", precision="bf16", optimizer="adamw", micro_batch=1,
                         seq_len=2048, model_impl=impl, attention="sdpa", loss="standard",
                         loss_in_logits_dtype=True)


def test_litgpt_computes_soft_capped_attention_by_hand():
    assert attention_kernel(_gemma()) == "eager"
    # twins: transformers follows the job's attention; litgpt without a cap uses SDPA
    assert attention_kernel(_gemma(impl="transformers")) == "sdpa"
    assert attention_kernel(_gemma(attn_logit_softcapping=None)) == "sdpa"
    arch = from_hf_config(gemma2(), name="gemma-2")
    assert arch.extra["attn_softcap"] == 50.0 and arch.extra["final_softcap"] == 30.0
    # Gemma2Config's defaults when the config omits them
    bare = {k: v for k, v in gemma2().items() if "softcapping" not in k}
    assert from_hf_config(bare, name="gemma-2").extra["attn_softcap"] == 50.0


def test_the_tanh_cap_keeps_one_more_score_tensor_and_one_more_logits_tensor():
    arch = from_hf_config(gemma2(), name="gemma-2")
    d = A.Dtypes(res=2, comp=2, weights=2)
    common = dict(tokens=2048, seq=2048, batch=1, attention="eager", train_weights=True, lora_targets=frozenset(),
                  lora_r=0, lora_dropout=0.0, dropout=0.0, impl="litgpt")
    capped = A.transformer_layer(arch, d, scores_capped=True, **common)
    plain = A.transformer_layer(arch, d, **common)
    assert capped.saved - plain.saved == pytest.approx(32 * 2048 * 2048 * 2)    # heads x seq^2, bf16
    with_cap = estimate(_gemma())
    no_final = estimate(_gemma(final_logit_softcapping=None))
    assert (with_cap.phases["forward"]["logits_loss"] - no_final.phases["forward"]["logits_loss"]
            == pytest.approx(2048 * 256000 * 2))


def test_the_gemma_2_27b_row_that_ran_out_of_memory_is_no_longer_said_to_fit():
    row = ROWS["gemma-2-27b-litgpt-bf16-inductor-fsdp-zero3-ckpt-b1-s8192-8xh100"]
    gpu = hardware.find(row["gpu"])
    inp, _ = pa.estimate_input(row["setup"], gpu)
    assert verdict(estimate(inp), gpu) != "fits"


def test_the_wrap_policy_is_a_command_line_input(cli):
    common = ("estimate", "--model", "llama-2-7b", "--seq-len", "2048", "--batch-size", "1", "--fsdp", "full",
              "--world-size", "8", "--gpu", "H100-SXM-80GB", "--format", "json")
    block, module = cli(*common, "--fsdp-wrap", "block"), cli(*common, "--fsdp-wrap", "module")
    assert block.code == module.code == 0
    gathered = [json.loads(r.out)["phases"]["forward"]["gathered_params"] for r in (block, module)]
    assert gathered[1] < gathered[0]
    assert cli(*common, "--fsdp-wrap", "layer").code == 2
