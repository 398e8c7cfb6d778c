"""The three traced causes of held-out-8's first scoring (docs/calibration.md, "An eighth
held-out set"), each term recomputed by hand; the rows are in-sample for these fixes.

1. The MLP activation of GPT-2 (and GPT-J, CodeGen, GPTBigCode, Phi) is the one its config
   names (``activation_function`` / ``hidden_act``), not a default by model type:
   ``gelu_pytorch_tanh`` is torch's one-kernel ``F.gelu(approximate="tanh")`` (2 MLP-width
   tensors), ``gelu_new`` the Python formula (5). Measured on transformers' ``GPT2MLP`` by
   ``calibration/mlp_act_saved.py``.
2. ``compiled`` no longer means "the loss is compiled too": ``model = torch.compile(model)``
   with ``F.cross_entropy`` on the returned logits keeps the eager loss's logits copies. Where
   the loss runs is its own fact (``compiled_loss``, plan ``compile.loss_inside``); unknown is
   estimated eager (the larger) with the interval covering the compiled loss; torchtune's
   recipes compile the loss with the model.
3. With gradient accumulation the earlier micro-batches' gradients live through the next
   forward and backward (``terms.accumulated_grads``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preflight.estimate import EstimateInput, estimate
from preflight.estimate import activations as A
from preflight.estimate import constants as C
from preflight.estimate.arch import from_hf_config
from preflight.estimate.terms import loss_compiled, unknown_alternatives

ROOT = Path(__file__).resolve().parents[1]
H, INTER, TOKENS = 768, 3072, 8 * 1024
BF16 = A.Dtypes(res=2, comp=2, weights=2.0)


def gpt2(**extra):
    cfg = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_embd": H, "n_layer": 12,
           "n_head": 12, "n_positions": 1024, "vocab_size": 50257, "resid_pdrop": 0.1,
           "embd_pdrop": 0.1, "attn_pdrop": 0.1, "tie_word_embeddings": False}
    cfg.update(extra)
    return from_hf_config(cfg, name="gpt2-124m")


def layer_saved(arch, *, train=True, fused_gelu=False):
    return A.transformer_layer(arch, BF16, tokens=TOKENS, seq=1024, batch=8, attention="sdpa",
                               train_weights=train, lora_targets=frozenset(), lora_r=0,
                               lora_dropout=0.0, dropout=0.1, fused_gelu=fused_gelu).saved


# ------------------------------------------------------------------ 1. the config's activation

def test_the_measured_file_is_the_source_of_every_constant():
    doc = json.loads((ROOT / "calibration" / "data" / "mlp_act_saved.json").read_text())
    measured = {(r["act"], r["dtype"], r["proj_trains"]): r["mlp_width_units"] for r in doc["rows"]}
    for act, units in C.MLP_ACT_SAVED.items():
        for dtype in ("float32", "bfloat16"):
            assert measured[(act, dtype, True)] == units, act
            assert measured[(act, dtype, False)] == units - 1, act
    assert measured[("relu", "bfloat16", True)] == measured[("relu", "bfloat16", False)] \
        == C.RELU_MLP_SAVED
    assert C.MLP_ACT_SAVED["gelu_new"] == C.PY_GELU_MLP_SAVED
    assert C.MLP_ACT_SAVED["gelu_pytorch_tanh"] == C.PLAIN_MLP_SAVED


def test_gpt2_reads_activation_function_from_its_config():
    assert gpt2().extra["mlp_act"] == "gelu_new"            # GPT2Config's default
    assert gpt2(activation_function="gelu_pytorch_tanh").extra["mlp_act"] == "gelu_pytorch_tanh"
    phi = from_hf_config({"model_type": "phi", "hidden_size": 2048, "num_hidden_layers": 24,
                          "num_attention_heads": 32, "intermediate_size": 8192, "vocab_size": 51200,
                          "hidden_act": "gelu_new"}, name="phi")
    assert phi.extra["mlp_act"] == "gelu_new"


def test_gelu_pytorch_tanh_keeps_two_mlp_width_tensors_not_five():
    # LLMs-from-scratch step 6 (nn.GELU(approximate="tanh")), bf16, 8 x 1,024 tokens: F.gelu
    # keeps its input (c_fc's output), c_proj its output; gelu_new's tanh, 0.5*x and 1+tanh
    # are not made: 3 x 3,072 x 2 B = 18,432 B a token and layer fewer
    new = layer_saved(gpt2(activation_function="gelu_new"))
    tanh = layer_saved(gpt2(activation_function="gelu_pytorch_tanh"))
    assert new - tanh == 3 * INTER * 2 * TOKENS == 150_994_944
    # twelve layers: 1.6875 GiB, the gap between the estimate and the measured step 6
    assert 12 * (new - tanh) / 2**30 == 1.6875


@pytest.mark.parametrize("act,units", [("gelu", 2), ("quick_gelu", 3), ("gelu_fast", 8),
                                       ("gelu_python", 4)])
def test_other_named_activations_by_the_measured_count(act, units):
    base = layer_saved(gpt2(activation_function="gelu_pytorch_tanh"))
    assert layer_saved(gpt2(activation_function=act)) - base == (units - 2) * INTER * 2 * TOKENS


def test_relu_keeps_its_output_only():
    # GPT2MLP: c_proj(act(c_fc(x))), no dropout between: ReLU's saved output is c_proj's input
    base = layer_saved(gpt2(activation_function="gelu_pytorch_tanh"))
    assert layer_saved(gpt2(activation_function="relu")) - base == -1 * INTER * 2 * TOKENS


def test_unchanged_twins():
    # no activation named: GPT2Config's gelu_new, as before; named gelu_new: the same
    assert layer_saved(gpt2()) == layer_saved(gpt2(activation_function="gelu_new"))
    # litgpt's GptNeoxMLP calls torch's gelu whatever the config says
    assert layer_saved(gpt2(), fused_gelu=True) == \
        layer_saved(gpt2(activation_function="gelu_pytorch_tanh"), fused_gelu=True) == \
        layer_saved(gpt2(activation_function="gelu_pytorch_tanh"))
    # a frozen c_proj does not keep the activation's output: one fewer for either name
    frozen_new = layer_saved(gpt2(), train=False)
    frozen_tanh = layer_saved(gpt2(activation_function="gelu_pytorch_tanh"), train=False)
    assert frozen_new - frozen_tanh == 3 * INTER * 2 * TOKENS


# ------------------------------------------------------------------ 2. where the compile applies

def scratch_gpt2(**changes):
    # LLMs-from-scratch step 9: bf16, SDPA, vocabulary 50,304, 8 x 1,024 tokens, its own
    # F.cross_entropy on the logits (no upcast), torch.compile(model)
    base = dict(arch=gpt2(activation_function="gelu_pytorch_tanh", vocab_size=50304),
                mode="train", precision="bf16", optimizer="adamw-fused", attention="sdpa",
                micro_batch=8, seq_len=1024, dropout=0.1, torch_version="2.6",
                loss_in_logits_dtype=True, padding="max_length")
    base.update(changes)
    return EstimateInput(**base)


TV = 8 * 1024 * 50304   # logits elements


def test_model_compiled_loss_eager_holds_the_eager_loss_tensors():
    eager = estimate(scratch_gpt2(compiled=False))
    outside = estimate(scratch_gpt2(compiled=True, compiled_loss=False))
    assert outside.phases == eager.phases and outside.peak_bytes == eager.peak_bytes
    # forward: the bf16 logits, the flattened copy the loss reads and log_softmax's bf16
    # output (3 x 2 B); backward's start: the saved output and two gradients (3 x 2 B)
    assert outside.phases["forward"]["logits_loss"] == 3 * 2 * TV


def test_loss_inside_the_compiled_region_keeps_logits_and_logsumexp():
    inside = estimate(scratch_gpt2(compiled=True, compiled_loss=True))
    # inductor's fused cross-entropy: the bf16 logits and a fp32 logsumexp per token
    assert inside.phases["forward"]["logits_loss"] == 2 * TV + 4 * 8 * 1024
    eager = estimate(scratch_gpt2(compiled=True, compiled_loss=False))
    assert inside.peak_bytes < eager.peak_bytes


def test_unknown_is_the_eager_loss_and_the_interval_covers_the_compiled_one():
    unknown = estimate(scratch_gpt2(compiled=True))
    eager = estimate(scratch_gpt2(compiled=True, compiled_loss=False))
    inside = estimate(scratch_gpt2(compiled=True, compiled_loss=True))
    assert unknown.peak_bytes == eager.peak_bytes
    assert unknown.interval_bytes[0] <= inside.interval_bytes[0]
    assert any("compiled region" in n for n in unknown.notes)
    assert tuple(c for c, _ in unknown_alternatives(
        scratch_gpt2(compiled=True)) if "compiled_loss" in c) == ({"compiled_loss": True}, )


def test_unchanged_twins_for_the_compiled_loss():
    # torchtune's recipes call training.compile_loss with the model but drop its return value:
    # only the chunked loss, compiled in place, runs compiled (est54; terms.loss_compiled)
    assert loss_compiled(scratch_gpt2(compiled=True, model_impl="torchtune")) is False
    assert loss_compiled(scratch_gpt2(compiled=True, model_impl="torchtune", loss="chunked")) is True
    assert loss_compiled(scratch_gpt2(compiled=False, compiled_loss=True)) is False
    assert not [c for c, _ in unknown_alternatives(scratch_gpt2(compiled=True, model_impl="torchtune"))
                if "compiled_loss" in c]
    # a torchtune job with the standard loss is estimated as a job said to run its loss eagerly
    said = estimate(scratch_gpt2(compiled=True, compiled_loss=False))
    tt = estimate(scratch_gpt2(compiled=True, model_impl="torchtune"))
    assert said.phases["forward"]["logits_loss"] == tt.phases["forward"]["logits_loss"]


def test_the_plan_fact_reaches_the_input():
    from preflight.estimate.inputs import input_from_plan
    from preflight.plan import FIELDS

    assert "compile.loss_inside" in FIELDS
    assert "compiled_loss" in EstimateInput.__dataclass_fields__
    assert input_from_plan(None).compiled_loss is None


# ------------------------------------------------------------------ 3. accumulated gradients

VIT = {"model_type": "vit", "architectures": ["ViTForImageClassification"], "hidden_size": 1024,
       "num_hidden_layers": 24, "num_attention_heads": 16, "intermediate_size": 4096,
       "image_size": 224, "patch_size": 16, "num_channels": 3, "qkv_bias": True,
       "hidden_act": "gelu", "hidden_dropout_prob": 0.0, "attention_probs_dropout_prob": 0.0,
       "layer_norm_eps": 1e-06, "num_labels": 10}


def vit(**changes):
    # held-out-8's ViT-L/16 SGD row: bf16-true, micro-batch 4 x 4 accumulation
    base = dict(arch=from_hf_config(VIT, name="vit-l16"), mode="train", precision="bf16",
                optimizer="sgd", micro_batch=4, image_size=224, attention="sdpa",
                torch_version="2.1", dropout=0.0, grad_accum=4)
    base.update(changes)
    return EstimateInput(**base)


def test_accumulated_gradients_live_through_forward_and_backward():
    est = estimate(vit())
    grads = 2 * est.params_total                       # bf16 gradients of every weight
    assert est.phases["optimizer"]["gradients"] == grads
    assert est.phases["forward"]["gradients"] == grads
    assert est.phases["backward"]["gradients"] == grads
    one = estimate(vit(grad_accum=1))
    assert "gradients" not in one.phases["forward"]
    # the SGD row's peak (backward's start) gains them: 0.57 GiB of bf16 gradients
    assert round(grads / 2**30, 3) == 0.565
    assert est.phases["forward"]["activations"] == one.phases["forward"]["activations"]


def test_accumulation_twins():
    # no accumulation: unchanged; zero_grad keeping them: the same term, not twice
    keeps = estimate(vit(grad_accum=4, zero_grad_keeps=True))
    assert keeps.phases["forward"]["gradients"] == estimate(vit()).phases["forward"]["gradients"]
    # a step inside backward keeps nothing across micro-batches
    assert "gradients" not in estimate(vit(optimizer_in_backward=True)).phases["forward"]
    # FSDP with no_sync: the unsharded gradients only (charged by fsdp_accumulated_grads)
    fsdp = dict(fsdp="full", world_size=4, precision="fp32", optimizer="adamw")
    nosync = estimate(vit(fsdp_unsharded_accum=True, **fsdp))
    assert nosync.phases["forward"]["gradients"] == 4 * nosync.params_total
    # FSDP without no_sync: the sharded gradients accumulate (a quarter each)
    synced = estimate(vit(fsdp_unsharded_accum=False, **fsdp))
    assert synced.phases["forward"]["gradients"] == synced.phases["optimizer"]["gradients"]
    # LoRA: the adapters' fp32 gradients, not the base model's
    lora = estimate(vit(lora_r=8, lora_targets=("query", "value")))
    assert lora.phases["forward"]["gradients"] == 4 * lora.params_trainable


# ------------------------------------------------------------------ the plan facts, read from code

def plan_of(tmp_path, code, name="train.py"):
    import textwrap

    from preflight.audit import build_plan

    (tmp_path / name).write_text(textwrap.dedent(code), encoding="utf-8")
    plan, project = build_plan([tmp_path / name], [], root=tmp_path, argv=(), strict=True)
    assert project.errors == []
    return plan


SCRATCH_LOOP = """\
    import torch
    import torch.nn.functional as F
    from gpt import GPTModel

    model = GPTModel(cfg).to("cuda")
    model = torch.compile(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4, fused=True)


    def calc_loss_batch(input_batch, target_batch, model):
        logits = model(input_batch)
        return F.cross_entropy(logits.flatten(0, 1), target_batch.flatten())


    for x, y in loader:
        calc_loss_batch(x, y, model).backward()
        optimizer.step()
"""


def test_must_fire_loss_computed_outside_the_compiled_model(tmp_path):
    # LLMs-from-scratch ch05/10 01_opt_single_gpu.py's shape: compile the model, loss outside
    plan = plan_of(tmp_path, SCRATCH_LOOP)
    fact = plan.resolve("compile.loss_inside")
    assert fact.value is False and fact.source.line == 12 and fact.confidence == "medium"
    assert plan.value("compile.enabled") is True
    from preflight.estimate.inputs import input_from_plan

    assert input_from_plan(plan).compiled_loss is False


def test_must_fire_a_compiled_loss_function(tmp_path):
    plan = plan_of(tmp_path, """\
        import torch
        import torch.nn as nn

        model = build()
        loss_fn = torch.compile(nn.CrossEntropyLoss())
        for x, y in loader:
            loss_fn(model(x), y).backward()
    """)
    fact = plan.resolve("compile.loss_inside")
    assert fact.value is True and fact.source.line == 5


def test_must_fire_when_the_model_returns_its_own_loss(tmp_path):
    # nanoGPT: F.cross_entropy inside GPT.forward, logits, loss = model(X, Y): the loss is
    # compiled with the model (est15; tests/test_compile_loss_inside.py)
    plan = plan_of(tmp_path, """\
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class GPT(nn.Module):
            def forward(self, idx, targets):
                logits = self.lm_head(self.blocks(idx))
                return logits, F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))

        model = GPT()
        model = torch.compile(model)
        for X, Y in loader:
            logits, loss = model(X, Y)
            loss.backward()
    """)
    assert plan.value("compile.enabled") is True
    fact = plan.resolve("compile.loss_inside")
    assert fact.value is True and fact.source.line == 13


def test_silent_without_compile(tmp_path):
    plan = plan_of(tmp_path, SCRATCH_LOOP.replace("    model = torch.compile(model)\n", ""))
    assert plan.resolve("compile.loss_inside") is None


def test_must_fire_activation_set_by_from_pretrained(tmp_path):
    plan = plan_of(tmp_path, """\
        from transformers import AutoModelForCausalLM

        model = AutoModelForCausalLM.from_pretrained("gpt2", activation_function="gelu_pytorch_tanh")
    """)
    fact = plan.resolve("model.activation_function")
    assert fact.value == "gelu_pytorch_tanh" and fact.source.line == 3
    from preflight.estimate.inputs import input_from_plan

    inp = input_from_plan(plan, arch=gpt2())
    assert inp.mlp_act == "gelu_pytorch_tanh"
    # the job's activation wins over the config's gelu_new: 3 MLP-width tensors fewer
    kw = dict(micro_batch=8, seq_len=1024, precision="bf16", dropout=0.1)
    said = estimate(EstimateInput(arch=gpt2(), mlp_act="gelu_pytorch_tanh", **kw))
    config = estimate(EstimateInput(arch=gpt2(activation_function="gelu_pytorch_tanh"), **kw))
    default = estimate(EstimateInput(arch=gpt2(), **kw))
    assert said.phases["forward"]["activations"] == config.phases["forward"]["activations"]
    assert default.phases["forward"]["activations"] - said.phases["forward"]["activations"] \
        == 12 * 3 * INTER * 2 * TOKENS


def test_must_fire_activation_in_a_config_call_and_silent_twins(tmp_path):
    plan = plan_of(tmp_path, """\
        from transformers import GPT2Config, GPT2LMHeadModel, LoraConfig

        cfg = GPT2Config(n_layer=12, activation_function="relu")
        model = GPT2LMHeadModel(cfg)
    """)
    assert plan.value("model.activation_function") == "relu"
    loaded = plan_of(tmp_path, """\
        from transformers import AutoConfig, AutoModelForCausalLM

        cfg = AutoConfig.from_pretrained("gpt2", activation_function="gelu_pytorch_tanh")
        model = AutoModelForCausalLM.from_config(cfg)
    """, name="loaded.py")
    assert loaded.resolve("model.activation_function").source.line == 3
    silent = plan_of(tmp_path, """\
        from transformers import AutoModelForCausalLM, AutoTokenizer

        tok = AutoTokenizer.from_pretrained("gpt2", hidden_act="x")
        model = AutoModelForCausalLM.from_pretrained("gpt2")
    """, name="other.py")
    assert silent.resolve("model.activation_function") is None
