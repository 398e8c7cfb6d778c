"""The cost-model terms fixed against public measurements (calibration/public/devset.json),
each recomputed here by hand from its first principles."""

from __future__ import annotations

import textwrap

import pytest

from preflight.audit import build_plan
from preflight.cli import main
from preflight.estimate import EstimateInput, InputError, estimate, input_from_plan
from preflight.estimate import constants as C
from preflight.estimate.arch import from_hf_config
from preflight.estimate.params import count_params

LLAMA3_8B = {"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336,
             "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
             "vocab_size": 128256, "max_position_embeddings": 8192, "tie_word_embeddings": False}
BERT_LARGE = {"model_type": "bert", "hidden_size": 1024, "intermediate_size": 4096,
              "num_hidden_layers": 24, "num_attention_heads": 16, "vocab_size": 30522,
              "max_position_embeddings": 512}


def _llama(**kw):
    base = dict(arch=from_hf_config(LLAMA3_8B, name="llama3-8b"), precision="bf16", micro_batch=1,
                seq_len=4096, lora_r=8, grad_ckpt=True)
    base.update(kw)
    return EstimateInput(**base)


# -- 1. loss implementation -------------------------------------------------------------------

def test_standard_loss_holds_logits_and_an_fp32_copy():
    est = estimate(_llama())
    tv = 4096 * 128256
    # bf16 logits (2 bytes) + fp32 upcast (4) + fp32 log-softmax output (4)
    assert est.phases["forward"]["logits_loss"] == round(tv * (2 + 4 + 4))


def test_chunked_loss_holds_logits_once_and_fp32_log_probs():
    est = estimate(_llama(loss="chunked"))
    tv = 4096 * 128256
    assert est.phases["forward"]["logits_loss"] == round(tv * (2 + 4))
    std = estimate(_llama())
    assert std.peak_bytes - est.peak_bytes >= tv * 4  # at least the full-size fp32 copy saved


def test_fused_loss_never_holds_the_logits():
    est = estimate(_llama(loss="fused"))
    # only the head input's gradient, computed in the forward: tokens x hidden x 2 bytes
    assert est.phases["forward"]["logits_loss"] == 4096 * 4096 * 2


def test_loss_flag_and_bad_value(capsys):
    assert main(["estimate", "--model", "Llama-3-8B", "--seq-len", "4096", "--lora-r", "8",
                 "--loss", "fused", "--format", "json"]) == 0
    with pytest.raises(InputError, match="unknown loss implementation"):
        input_from_plan(None, {"loss": "tiled", "seq_len": 8})


def test_use_liger_kernel_makes_the_loss_fused(tmp_path):
    (tmp_path / "train.py").write_text(textwrap.dedent("""
        from transformers import TrainingArguments
        args = TrainingArguments(output_dir="o", use_liger_kernel=True)
    """), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path)
    assert plan.value("loss.implementation") == "fused"
    assert input_from_plan(plan, {"seq_len": 8}).loss == "fused"
    # and the Trainer's apply_liger_kernel_to_* swaps RMSNorm and SwiGLU too
    assert plan.value("model.liger_kernels") is True
    assert plan.resolve("model.liger_kernels").source.line == 3
    assert input_from_plan(plan, {"seq_len": 8}).liger_kernels is True


def test_without_liger_the_loss_stays_standard(tmp_path):
    (tmp_path / "train.py").write_text(textwrap.dedent("""
        from transformers import TrainingArguments
        args = TrainingArguments(output_dir="o", use_liger_kernel=False)
    """), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path)
    assert plan.value("loss.implementation") is None
    assert input_from_plan(plan, {"seq_len": 8}).loss == "standard"
    assert plan.value("model.liger_kernels") is None


# -- 4. ZeRO-3 parameter offload on one GPU -----------------------------------------------------

def test_zero3_param_offload_on_one_gpu_gathers_the_live_parameters():
    arch = from_hf_config(LLAMA3_8B, name="llama3-8b")
    inp = EstimateInput(arch=arch, precision="bf16", micro_batch=1, seq_len=512, lora_r=8,
                        zero_stage=3, offload_params="cpu", offload_optimizer="cpu", world_size=1)
    est = estimate(inp)
    total = count_params(arch).total
    emb = arch.vocab_size * arch.hidden_size
    layer = (total - 2 * emb) // arch.num_layers
    # one layer, the prefetch bucket, and the LM head kept for its reuse in backward
    # (128256 x 4096 = 525M elements > 1e9 / 2: no block is kept beside it)
    live = emb + layer + C.DS_PREFETCH_BUCKET
    # (plus the GPU staging copy of the host partitions being gathered: a prefetch bucket in
    # backward, the head at the end of forward; est22, terms.zero3_offload_gather_staging)
    assert est.phases["backward"]["gathered_params"] == round((min(live, total) + C.DS_PREFETCH_BUCKET) * 2)
    head_stage = max((emb - C.DS_PREFETCH_BUCKET) * 2 - est.phases["forward"].get("logits_loss", 0), 0)
    assert est.phases["forward"]["gathered_params"] == round((min(live, total) + C.DS_PREFETCH_BUCKET) * 2
                                                             + head_stage)
    assert "weights" not in est.phases["forward"]


# -- 6. heads: a classification encoder has no vocabulary logits ----------------------------------

def test_sequence_classification_encoder_has_no_lm_logits():
    cls = from_hf_config(dict(BERT_LARGE, architectures=["BertForSequenceClassification"]), name="b")
    mlm = from_hf_config(dict(BERT_LARGE, architectures=["BertForMaskedLM"]), name="b")
    kw = dict(precision="fp32", micro_batch=4, seq_len=512, attention="eager")
    assert "logits_loss" not in estimate(EstimateInput(arch=cls, **kw)).phases["forward"]
    assert estimate(EstimateInput(arch=mlm, **kw)).phases["forward"]["logits_loss"] == \
        4 * 512 * 30522 * (4 + 4)   # fp32 logits + fp32 log-softmax (no upcast copy)


# -- 7. versions: zero_grad before torch 2.0, eager CUDA context before 1.13 ----------------------

def test_kept_zeroed_gradients_are_live_in_forward_and_backward():
    arch = from_hf_config(dict(BERT_LARGE, architectures=["BertForSequenceClassification"]), name="b")
    kw = dict(arch=arch, precision="fp32", micro_batch=1, seq_len=512, attention="eager")
    kept = estimate(EstimateInput(zero_grad_keeps=True, **kw))
    none = estimate(EstimateInput(**kw))
    grads = count_params(arch).total * 4   # fp32 gradients of every parameter
    assert kept.phases["forward"]["gradients"] == pytest.approx(grads, rel=1e-6)
    assert kept.phases["backward"]["gradients"] == pytest.approx(grads, rel=1e-6)
    assert "gradients" not in none.phases["forward"]


def test_torch_before_1_13_loads_every_kernel():
    arch = from_hf_config(BERT_LARGE, name="b")
    old = estimate(EstimateInput(arch=arch, seq_len=128, torch_version="1.11.0"))
    new = estimate(EstimateInput(arch=arch, seq_len=128, torch_version="2.3.1"))
    # the published figures less the caching allocator's segment each holds (est26): a 4-byte
    # tensor's 2 MiB small-pool segment (1343 MiB, nvidia-smi on a V100) and a 6,400,000-byte
    # tensor's 20 MiB kLargeBuffer segment (287,047,680 bytes, pytorch/pytorch#86509)
    assert old.phases["forward"]["cuda_context"] == (1343 - 2) * 2 ** 20
    assert new.phases["forward"]["cuda_context"] == 287_047_680 - 20 * 2 ** 20 == 266_076_160


# -- remediations ----------------------------------------------------------------------------------

def _remedies(inp, gpu="RTX-4090-24GB"):
    from preflight import hardware
    from preflight.estimate import remediate

    return remediate(inp, hardware.find(gpu))


def test_fused_loss_is_offered_when_the_logits_weigh_and_not_when_already_fused():
    inp = _llama(seq_len=8192)
    offered = [r for r in _remedies(inp) if r.flags == ["--loss fused"]]
    assert offered and offered[0].saved_bytes > 8192 * 128256 * 8   # the fp32 copies go
    assert not [r for r in _remedies(_llama(loss="fused", seq_len=8192)) if "--loss fused" in r.flags]


def test_no_change_saving_under_one_percent_of_the_peak():
    inp = _llama(lora_r=None, seq_len=32, attention="eager")
    base = estimate(inp).peak_bytes
    for r in _remedies(inp, "T4-16GB"):
        assert r.saved_bytes >= 0.01 * base, r
    assert not [r for r in _remedies(inp, "T4-16GB") if r.flags == ["--attention sdpa"]]


def test_qlora_suggestion_does_not_offer_lora_to_a_lora_job():
    inp = _llama(precision="bf16", seq_len=2048)
    texts = [r.description for r in _remedies(inp, "T4-16GB")]
    assert any("quantize the frozen base" in t for t in texts)
    assert not any("LoRA adapters (r=16)" in t for t in texts)


def test_cheapest_instance_as_configured_keeps_the_world_size():
    from preflight.estimate import cheapest_targets

    inp = _llama(lora_r=None, world_size=8, zero_stage=3, seq_len=2048)
    _, inst = cheapest_targets(inp)
    assert inst is None or inst.count >= 8


# -- 2. QLoRA: kbit preparation only when the job does it --------------------------------------------

_QLORA = """
    import torch
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig, Trainer, TrainingArguments
    from peft import LoraConfig, get_peft_model{extra_import}
    bnb = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_compute_dtype=torch.bfloat16)
    model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.1-8B", quantization_config=bnb)
    {prepare}model = get_peft_model(model, LoraConfig(r=16))
    trainer = Trainer(model=model, args=TrainingArguments(output_dir="o"))
    trainer.train()
"""


def _qlora_plan(tmp_path, prepare):
    code = _QLORA.format(extra_import=", prepare_model_for_kbit_training" if prepare else "",
                         prepare="model = prepare_model_for_kbit_training(model)\n    " if prepare else "")
    (tmp_path / "train.py").write_text(textwrap.dedent(code), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path)
    return plan


def test_kbit_preparation_read_from_the_call(tmp_path):
    plan = _qlora_plan(tmp_path, prepare=True)
    assert plan.value("peft.kbit_prepared") is True
    inp = input_from_plan(plan, {"seq_len": 512})
    assert inp.quant == "4bit" and inp.kbit_prepared is True and inp.grad_ckpt is True


def test_no_kbit_preparation_without_the_call(tmp_path):
    plan = _qlora_plan(tmp_path, prepare=False)
    assert plan.value("peft.kbit_prepared") is None
    inp = input_from_plan(plan, {"seq_len": 512})
    assert inp.quant == "4bit" and inp.kbit_prepared is False and inp.grad_ckpt is False


def test_kbit_preparation_keeps_non_quantized_parts_in_fp32():
    arch = from_hf_config(LLAMA3_8B, name="llama3-8b")
    kw = dict(arch=arch, precision="bf16", micro_batch=1, seq_len=512, lora_r=16, quant="4bit",
              grad_ckpt=True)
    prepared = estimate(EstimateInput(kbit_prepared=True, **kw)).phases["forward"]["weights"]
    plain = estimate(EstimateInput(kbit_prepared=False, **kw)).phases["forward"]["weights"]
    parts = count_params(arch).by_part
    not_quantized = parts["embeddings"] + parts["lm_head"] + parts["norms"]
    assert prepared - plain == pytest.approx(not_quantized * (4 - 2), rel=1e-6)


# -- 5. attention kernel by GPU: bf16 before Ampere takes SDPA's math path ---------------------------

def test_bf16_sdpa_on_a_pre_ampere_gpu_stores_the_scores():
    base = dict(precision="bf16", seq_len=2048, lora_r=8, grad_ckpt=False)
    v100 = estimate(_llama(gpu_bf16=False, **base)).phases["forward"]["activations"]
    a100 = estimate(_llama(gpu_bf16=True, **base)).phases["forward"]["activations"]
    eager = estimate(_llama(gpu_bf16=True, attention="eager", **base)).phases["forward"]["activations"]
    assert v100 == eager and v100 > a100
    # the difference is at least the bf16 scores and probabilities, per layer
    assert v100 - a100 >= 32 * 32 * 2048 * 2048 * 2


def test_fp16_sdpa_on_a_pre_ampere_gpu_keeps_the_memory_efficient_kernel():
    fp16 = estimate(_llama(precision="fp16", gpu_bf16=False, seq_len=2048)).phases["forward"]
    fp16_a100 = estimate(_llama(precision="fp16", gpu_bf16=True, seq_len=2048)).phases["forward"]
    assert fp16["activations"] == fp16_a100["activations"]


def test_estimate_command_takes_the_kernel_from_the_target(capsys):
    import json

    args = ["estimate", "--model", "Llama-3-8B", "--seq-len", "2048", "--lora-r", "8",
            "--precision", "bf16", "--format", "json", "--gpu"]
    main([*args, "T4-16GB"])
    t4 = json.loads(capsys.readouterr().out)
    main([*args, "A100-SXM-80GB"])
    a100 = json.loads(capsys.readouterr().out)
    assert any("math path" in n for n in t4["notes"])
    assert not any("math path" in n for n in a100["notes"])


# -- 3. FSDP with a frozen or quantized base --------------------------------------------------------

def test_fsdp_qlora_gathers_stored_4bit_units_and_the_root_unit_without_frozen_gradients():
    arch = from_hf_config(LLAMA3_8B, name="llama3-8b")
    inp = EstimateInput(arch=arch, precision="bf16", micro_batch=1, seq_len=2048, lora_r=16,
                        quant="4bit", kbit_prepared=False, grad_ckpt=True, fsdp="full", world_size=8)
    est = estimate(inp)
    parts = count_params(arch).by_part
    total = sum(parts.values())
    emb, head, norms = parts["embeddings"], parts["lm_head"], parts["norms"]
    layers = arch.num_layers
    layer = (total - emb - head) // layers
    layer_q = (total - emb - head - norms) / layers          # the linear weights bnb quantizes
    unit = (layer_q * C.NF4_BYTES_PER_PARAM + (layer - layer_q) * 2) * C.FSDP_UNSHARDED_UNITS
    root = (emb + head) * 2 * (1 - 1 / 8)
    assert est.phases["forward"]["gathered_params"] == round(unit + root)
    # backward adds the LoRA gradients of one layer, not a layer of frozen-weight gradients
    from preflight.estimate.model import lora_params, lora_targets

    lora_layer = lora_params(arch, 16, lora_targets(inp, arch)) / layers
    assert est.phases["backward"]["gathered_params"] == round(unit + root + lora_layer * 4)
    assert est.phases["backward"]["gathered_params"] < est.phases["forward"]["gathered_params"] + layer


def test_a_cached_model_whose_type_has_no_reader_says_so(monkeypatch):
    from preflight import hub
    from preflight.estimate import resolve_architecture

    def unreadable(name, online=False, **_):
        raise hub.ConfigError(f"{name}: cannot read its config.json: {name}: model_type 'xglm' "
                              "is not supported (supported: bart, bert, ...)")

    monkeypatch.setattr(hub, "resolve_architecture", unreadable)
    with pytest.raises(InputError, match=r"model_type 'xglm' is not supported.*--params N"):
        resolve_architecture("facebook/xglm-564M", online=False)


def test_zero_grad_default_follows_the_torch_version():
    arch = from_hf_config(dict(BERT_LARGE, architectures=["BertForSequenceClassification"]), name="b")
    kw = dict(arch=arch, precision="fp32", micro_batch=1, seq_len=512, attention="eager")
    old = estimate(EstimateInput(torch_version="1.13.1", **kw)).phases["forward"]
    new = estimate(EstimateInput(torch_version="2.1.0", **kw)).phases["forward"]
    told = estimate(EstimateInput(torch_version="1.13.1", zero_grad_keeps=False,
                                  sources={"zero_grad_keeps": "train.py:9"}, **kw)).phases["forward"]
    assert old["gradients"] == pytest.approx(count_params(arch).total * 4, rel=1e-6)
    assert "gradients" not in new and "gradients" not in told


# -- torchtune memory levers ---------------------------------------------------------------------------

def test_optimizer_in_backward_keeps_one_gradient_at_a_time():
    arch = from_hf_config(LLAMA3_8B, name="llama3-8b")
    kw = dict(arch=arch, precision="bf16", micro_batch=1, seq_len=2048, grad_ckpt=True,
              optimizer="adamw")
    fused = estimate(EstimateInput(optimizer_in_backward=True, **kw)).phases["optimizer"]
    plain = estimate(EstimateInput(**kw)).phases["optimizer"]
    largest = arch.vocab_size * arch.hidden_size          # the embedding / LM head matrix
    assert fused["gradients"] == largest * 2             # one bf16 gradient
    assert plain["gradients"] == count_params(arch).total * 2


def test_activation_offload_keeps_two_layers_of_checkpoints():
    arch = from_hf_config(LLAMA3_8B, name="llama3-8b")
    kw = dict(arch=arch, precision="bf16", micro_batch=2, seq_len=4096, grad_ckpt=True, lora_r=8,
              loss="fused")
    on = estimate(EstimateInput(activation_offload=True, **kw)).phases["forward"]["activations"]
    off = estimate(EstimateInput(**kw)).phases["forward"]["activations"]
    per_layer_input = 2 * 4096 * 4096 * 2                 # one layer's bf16 input, batch 2
    assert off - on == pytest.approx(30 * per_layer_input, rel=1e-6)


def test_fsdp_mixed_precision_computes_in_16_bits():
    arch = from_hf_config(LLAMA3_8B, name="llama3-8b")
    kw = dict(arch=arch, precision="amp-bf16", micro_batch=1, seq_len=2048, grad_ckpt=True,
              lora_r=8, loss="fused", world_size=8)
    fsdp = estimate(EstimateInput(fsdp="full", **kw)).phases["forward"]
    ddp = estimate(EstimateInput(**kw)).phases["forward"]
    # checkpointed layer inputs: bf16 under FSDP's param_dtype, fp32 under plain autocast
    tokens = 2048
    assert ddp["activations"] - fsdp["activations"] == pytest.approx(32 * tokens * 4096 * (4 - 2), rel=0.02)
    assert "autocast_weight_cache" not in fsdp and "autocast_weight_cache" in ddp


def test_adamw_temporaries_follow_the_torch_version():
    arch = from_hf_config(LLAMA3_8B, name="llama3-8b")
    kw = dict(arch=arch, precision="bf16", micro_batch=1, seq_len=256, grad_ckpt=True,
              optimizer="adamw")
    new = estimate(EstimateInput(torch_version="2.4.0", **kw)).phases["optimizer"]
    old = estimate(EstimateInput(torch_version="1.12.1", **kw)).phases["optimizer"]
    total = count_params(arch).total
    largest = arch.vocab_size * arch.hidden_size
    assert new["optimizer_temporaries"] == total * 2          # foreach: one sqrt(exp_avg_sq) for all
    assert old["optimizer_temporaries"] == 2 * largest * 2    # for-loop: two of the largest tensor


def test_declared_torch_version_reaches_the_estimate(tmp_path):
    (tmp_path / "requirements.txt").write_text("torch==1.12.1\ntransformers==4.21.0\n", encoding="utf-8")
    (tmp_path / "train.py").write_text(textwrap.dedent("""
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments
        model = AutoModelForCausalLM.from_pretrained("gpt2")
        Trainer(model=model, args=TrainingArguments(output_dir="o")).train()
    """), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path)
    fact = plan.resolve("framework.torch_version")
    assert fact.value == "1.12.1" and fact.source.path.endswith("requirements.txt") and fact.source.line == 1
    inp = input_from_plan(plan, {"seq_len": 128})
    assert inp.torch_version == "1.12.1" and inp.torch_before == (1, 12)
