"""Liger's RMSNorm and SwiGLU kernels in a layer's saved activations (est24, held-out-13's
Liger rows): what each kernel keeps for backward, recomputed here by hand."""

from __future__ import annotations

from preflight.estimate import EstimateInput, estimate
from preflight.estimate import activations as A
from preflight.estimate.arch import from_hf_config
from preflight.estimate.train_phase import _dtypes

LLAMA3_8B = {"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336,
             "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
             "vocab_size": 128256, "max_position_embeddings": 8192, "tie_word_embeddings": False}
GPT2 = {"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12, "vocab_size": 50257,
        "n_positions": 1024}


def _inp(config=LLAMA3_8B, **kw):
    base = dict(arch=from_hf_config(config, name="m"), precision="bf16", micro_batch=2,
                seq_len=1024, attention="sdpa", optimizer="adamw")
    base.update(kw)
    return EstimateInput(**base)


def _layer(inp):
    d = _dtypes(inp)[0]
    return A.transformer_layer(inp.arch, d, tokens=2048, seq=1024, batch=2, attention="sdpa",
                               train_weights=True, lora_targets=frozenset(), lora_r=0,
                               lora_dropout=0.0, dropout=0.0, liger=bool(inp.liger_kernels))


def test_liger_saves_one_mlp_tensor_and_the_norms_fp32_copies_less_per_token():
    inp = _inp()
    own, liger = _layer(inp), _layer(_inp(liger_kernels=True))
    h, width, er = 4096, 14336, 2
    # transformers: LlamaRMSNorm keeps the fp32 upcast (4 h) and the normalised value (2 h), twice;
    # LlamaMLP keeps gate, silu(gate), up and the product
    own_norms = 2 * (4 * h + h * er)
    # Liger: LigerRMSNormFunction keeps X (the first norm's X is the layer input, already held;
    # the second's is the residual sum) and an fp32 rstd per row; LigerSiLUMulFunction keeps a, b
    liger_norms = 4 + (h * er + 4)
    expected = 2048 * (own_norms - liger_norms + width * 2)
    assert own.saved - liger.saved == expected


def test_the_recomputed_layer_of_a_checkpointed_lora_job_shrinks_by_the_same_bytes():
    # LoRA: the frozen norms keep no normalised value, the frozen down projection no product
    kw = dict(grad_ckpt=True, loss="fused", micro_batch=2, seq_len=1024, lora_r=16,
              lora_targets=("q_proj", "v_proj"))
    own, liger = estimate(_inp(**kw)), estimate(_inp(liger_kernels=True, **kw))
    h, width = 4096, 14336
    per_token = 2 * (4 * h) - (4 + 2 * h + 4) + 2 * width
    assert (own.phases["backward"]["activation_recompute"]
            - liger.phases["backward"]["activation_recompute"]) == 2048 * per_token
    assert any("Liger kernels" in n for n in liger.notes)


def test_a_layernorm_model_without_a_gated_mlp_keeps_what_it_saved():
    own = _layer(_inp(GPT2))
    liger = _layer(_inp(GPT2, liger_kernels=True))
    assert own.saved == liger.saved


def test_other_modeling_code_and_an_unset_field_are_left_alone():
    kw = dict(grad_ckpt=True, loss="fused")
    base = estimate(_inp(**kw)).phases["backward"]
    assert estimate(_inp(liger_kernels=False, **kw)).phases["backward"] == base
    litgpt = dict(kw, model_impl="litgpt")
    assert (estimate(_inp(liger_kernels=True, **litgpt)).phases["backward"]
            == estimate(_inp(**litgpt)).phases["backward"])



def _plan(tmp_path, code):
    import textwrap

    from preflight.audit import build_plan

    (tmp_path / "train.py").write_text(textwrap.dedent(code), encoding="utf-8")
    return build_plan([tmp_path / "train.py"], [], root=tmp_path)[0]


def test_apply_liger_kernel_and_the_auto_class_are_plan_facts(tmp_path):
    from preflight.estimate import input_from_plan

    plan = _plan(tmp_path, """\
        from liger_kernel.transformers import apply_liger_kernel_to_llama
        apply_liger_kernel_to_llama()
    """)
    assert plan.value("model.liger_kernels") is True
    assert plan.resolve("model.liger_kernels").source.line == 2
    assert input_from_plan(plan, {"seq_len": 8}).liger_kernels is True
    plan = _plan(tmp_path, """\
        import torch
        from liger_kernel.transformers import AutoLigerKernelForCausalLM
        model = AutoLigerKernelForCausalLM.from_pretrained("m", torch_dtype=torch.bfloat16)
    """)
    assert plan.resolve("model.liger_kernels").source.line == 3


def test_kernels_switched_off_or_a_call_that_may_not_run_are_not_facts(tmp_path):
    plan = _plan(tmp_path, """\
        from liger_kernel.transformers import apply_liger_kernel_to_llama
        apply_liger_kernel_to_llama(rms_norm=False)
    """)
    assert plan.value("model.liger_kernels") is None
    plan = _plan(tmp_path, """\
        import sys
        from liger_kernel.transformers import apply_liger_kernel_to_llama
        if len(sys.argv) > 3:
            apply_liger_kernel_to_llama()
    """)
    assert plan.value("model.liger_kernels") is None
    # a function of the same name from elsewhere is not Liger's
    plan = _plan(tmp_path, """\
        from mylib import apply_liger_kernel_to_llama
        apply_liger_kernel_to_llama()
    """)
    assert plan.value("model.liger_kernels") is None
