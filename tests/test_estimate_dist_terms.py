"""Distributed-training terms read from the frameworks' source, each recomputed by hand:
FSDP's unsharded gradient accumulation under ``no_sync`` (with FSDP1's gradients for frozen
weights in a mixed unit), and ZeRO-3's reuse-distance live set and contiguous gradient bucket.
(The public dev set rows these explain: litgpt's FSDP LoRA table, fitting half; PEFT's
ZeRO-3 offload rows, held out.)"""

from __future__ import annotations

import json
import textwrap

import pytest

from preflight.audit import build_plan
from preflight.estimate import EstimateInput, estimate, input_from_plan
from preflight.estimate import constants as C
from preflight.estimate.arch import from_hf_config
from preflight.estimate.model import lora_params
from preflight.estimate.params import count_params

LLAMA2_7B = {"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008,
             "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 32,
             "vocab_size": 32000, "tie_word_embeddings": False}


def _litgpt_like(**changes):
    arch = from_hf_config(LLAMA2_7B, name="llama2-7b")
    base = dict(arch=arch, precision="bf16", micro_batch=1, seq_len=1304, lora_r=8,
                lora_targets=("q_proj", "v_proj"), grad_ckpt=True, fsdp="full", world_size=2,
                loss="chunked", grad_accum=128, fsdp_unsharded_accum=True, fsdp_frozen_grads=True)
    base.update(changes)
    return arch, EstimateInput(**base)


# -- FSDP: no_sync accumulation ----------------------------------------------------------------

def test_fsdp_no_sync_with_frozen_weights_in_the_unit_keeps_the_whole_model_gradient():
    arch, inp = _litgpt_like()
    est = estimate(inp)
    total = count_params(arch).total
    # every unit's unsharded gradient, frozen weights included, in the parameter dtype (bf16)
    for phase in ("forward", "backward"):
        assert est.phases[phase]["gradients"] == total * 2
    # the sharded gradient of the sync step covers the frozen weights too: 1/2 of them
    assert est.phases["optimizer"]["gradients"] >= total * 2 // 2
    # Llama-2-7B: 13.5 GB of gradients for a 4.2M-parameter LoRA: the peak is above 20 GiB
    assert est.tensor_peak()[0] > 20 * 2 ** 30


def test_fsdp_no_sync_without_frozen_gradients_keeps_only_the_adapters():
    arch, inp = _litgpt_like(fsdp_frozen_grads=False)
    est = estimate(inp)
    n_lora = lora_params(arch, 8, ("q_proj", "v_proj"))
    assert n_lora == 32 * 8 * (4096 + 4096) * 2
    # PEFT's adapters train in fp32: 4 bytes each, unsharded
    assert est.phases["forward"]["gradients"] == n_lora * 4


def test_fsdp_syncing_every_step_holds_no_unsharded_accumulated_gradient():
    # twins: accumulation with a reduce-scatter every micro-batch, or no accumulation
    for changes in ({"fsdp_unsharded_accum": False}, {"grad_accum": 1}, {"fsdp_unsharded_accum": None}):
        arch, inp = _litgpt_like(**changes)
        est = estimate(inp)
        # a reduce-scatter every micro-batch: only the SHARDED gradients accumulate (held-out-8
        # cause 3, terms.accumulated_grads): the adapters' fp32 gradients over 2 ranks; none
        # without accumulation
        n_lora = lora_params(arch, 8, ("q_proj", "v_proj"))
        sharded = n_lora * 4 // 2 if inp.grad_accum > 1 else 0
        assert est.phases["forward"].get("gradients", 0) == sharded, changes
        # one unit's unsharded gradient in backward: all of the layer's weights (bf16)
        total = count_params(arch).total
        layer = (total - 2 * 32000 * 4096) // 32
        with_lora = lora_params(arch, 8, ("q_proj", "v_proj")) // 32
        assert est.phases["backward"]["gathered_params"] >= (layer + with_lora) * 2


def test_unknown_fsdp_accumulation_widens_the_interval_to_cover_it():
    _, unknown = _litgpt_like(fsdp_unsharded_accum=None)
    _, known = _litgpt_like(fsdp_unsharded_accum=True)
    lo, hi = estimate(unknown).interval_bytes
    assert hi >= estimate(known).peak_bytes
    assert lo <= estimate(unknown).peak_bytes


def test_plan_fields_reach_the_estimator(tmp_path):
    (tmp_path / "train.py").write_text(textwrap.dedent("""\
        import deepspeed
        deepspeed.initialize(model=model, config="ds.json")
    """), encoding="utf-8")
    (tmp_path / "ds.json").write_text(json.dumps({
        "train_micro_batch_size_per_gpu": 1,
        "zero_optimization": {"stage": 3, "stage3_max_reuse_distance": 12345}}), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [tmp_path / "ds.json"], root=tmp_path)
    assert plan.value("dist.stage3_max_reuse_distance") == 12345
    assert input_from_plan(plan, {"seq_len": 8}).max_reuse_distance == 12345


# -- ZeRO-3 ------------------------------------------------------------------------------------

def _zero3(**changes):
    arch = from_hf_config(LLAMA2_7B, name="llama2-7b")
    base = dict(arch=arch, precision="fp32", micro_batch=8, seq_len=64, lora_r=8, zero_stage=3,
                offload_params="cpu", offload_optimizer="cpu", world_size=1)
    base.update(changes)
    return arch, estimate(EstimateInput(**base))


def test_zero3_keeps_the_head_and_the_blocks_within_half_the_reuse_distance():
    arch, est = _zero3()
    total = count_params(arch).total
    head = 32000 * 4096                               # 131M elements
    layer = (total - 2 * head) // 32                  # 202M elements
    kept = head + int((1e9 / 2 - head) // layer) * layer   # the head and one block
    assert int((1e9 / 2 - head) // layer) == 1
    live = kept + layer + C.DS_PREFETCH_BUCKET
    # (parameter offload: plus one prefetch bucket's staging copy of its host partitions in
    # backward; in forward the head's, larger, at the end: est22, terms.zero3_offload_gather_staging)
    staging = C.DS_PREFETCH_BUCKET
    assert est.phases["backward"]["gathered_params"] == (live + staging) * 4   # fp32
    head_stage = max((head - staging) * 4 - est.phases["forward"].get("logits_loss", 0), 0)
    assert est.phases["forward"]["gathered_params"] == (live + staging) * 4 + head_stage
    # reuse distance 0: everything is released after use
    _, none_kept = _zero3(max_reuse_distance=0)
    assert none_kept.phases["backward"]["gathered_params"] == (layer + C.DS_PREFETCH_BUCKET + staging) * 4


def test_zero3_contiguous_gradient_bucket_is_full_size_even_for_lora():
    _, est = _zero3()
    # 5e8 fp32 elements from the optimizer's construction, though LoRA trains 4M parameters
    for phase in ("forward", "backward", "optimizer"):
        assert est.phases[phase]["zero_buckets"] == 500_000_000 * 4
    _, off = _zero3(contiguous_gradients=False)
    assert "zero_buckets" not in off.phases["forward"]
    _, small = _zero3(reduce_bucket_size=4096 * 4096)   # accelerate's "auto": hidden^2
    assert small.phases["backward"]["zero_buckets"] == 4096 * 4096 * 4


# -- preflight fit: the attention kernel of each target GPU ----------------------------------

def test_fit_estimates_bf16_sdpa_on_a_t4_with_the_math_path_and_on_an_a100_without():
    from preflight import hardware
    from preflight.commands.fit import Model, Settings, build_input

    arch = from_hf_config(LLAMA2_7B, name="llama2-7b")
    t4, a100 = hardware.find("t4"), hardware.find("a100-80gb")
    s = Settings(seq_len=4096)
    on_t4, _ = build_input(Model(arch, "catalog"), s, "lora", t4)
    on_a100, _ = build_input(Model(arch, "catalog"), s, "lora", a100)
    assert on_t4.gpu_bf16 is False and on_a100.gpu_bf16 is True
    t4_est, a100_est = estimate(on_t4), estimate(on_a100)
    # the math path stores (batch x heads x seq x seq) scores per layer: fp32 softmax + bf16 copy
    scores = 32 * 32 * 4096 * 4096 * (4 + 2)
    diff = t4_est.phases["forward"]["activations"] - a100_est.phases["forward"]["activations"]
    assert diff >= 0.95 * scores   # (SDPA's own saved output and logsumexp go)
    assert any("without bf16 kernels" in n for n in t4_est.notes)


# -- bitsandbytes 4-bit: the matmul saves its input ------------------------------------------

def test_bnb_4bit_linears_save_their_inputs_which_frozen_torch_linears_do_not():
    from preflight.estimate import activations as A

    arch = from_hf_config(LLAMA2_7B, name="llama2-7b")
    common = dict(tokens=1304, seq=1304, batch=1, attention="sdpa", train_weights=False,
                  lora_targets=frozenset(("q_proj", "v_proj")), lora_r=8, lora_dropout=0.05,
                  dropout=0.0)
    bf16 = A.transformer_layer(arch, A.Dtypes(res=2, comp=2, weights=2.0, autocast=False, mask=1), **common)
    nf4 = A.transformer_layer(arch, A.Dtypes(res=2, comp=2, weights=0.5625, autocast=False, mask=1), **common)
    # MatMul4Bit keeps A for: q/k/v (one shared input), gate/up (one shared input) and
    # down_proj (the gated product); o_proj reads SDPA's output, already kept
    per_token = (4096 + 4096 + 11008) * 2
    assert nf4.saved - bf16.saved == 1304 * per_token
    # a QLoRA job without checkpointing: 32 layers of it, less the first layer's q/k/v input,
    # which does not require grad (frozen embeddings); transformers before 4.48, whose Llama
    # hands SDPA a query view (o_proj reads SDPA's own output)
    kw = dict(arch=arch, precision="bf16", seq_len=1304, lora_r=8,
              lora_targets=("q_proj", "v_proj"), transformers_version="4.44")
    q = estimate(EstimateInput(quant="4bit", kbit_prepared=False, **kw))
    b = estimate(EstimateInput(**kw))
    assert (q.phases["forward"]["activations"] - b.phases["forward"]["activations"]
            == 32 * 1304 * per_token - 1304 * 4096 * 2)
    # from 4.48 (integrations/sdpa_attention.py: q.contiguous()) flash's output is copied before
    # o_proj, and MatMul4Bit keeps that copy too: one more 4096-wide input per layer
    kw["transformers_version"] = "4.48"
    q = estimate(EstimateInput(quant="4bit", kbit_prepared=False, **kw))
    b = estimate(EstimateInput(**kw))
    assert (q.phases["forward"]["activations"] - b.phases["forward"]["activations"]
            == 32 * 1304 * (per_token + 4096 * 2) - 1304 * 4096 * 2)


# -- the load phase -----------------------------------------------------------------------------

LLAMA3_70B = {"model_type": "llama", "hidden_size": 8192, "intermediate_size": 28672,
              "num_hidden_layers": 80, "num_attention_heads": 64, "num_key_value_heads": 8,
              "vocab_size": 128256, "tie_word_embeddings": False}


def test_zero3_without_zero_init_holds_the_whole_model_on_every_gpu_at_load():
    from preflight import hardware
    from preflight.estimate import verdict

    arch = from_hf_config(LLAMA3_70B, name="llama3-70b")
    common = dict(arch=arch, precision="amp-bf16", seq_len=4096, grad_ckpt=True, zero_stage=3,
                  world_size=8, lora_r=16)
    late = estimate(EstimateInput(load_placement="gpu", **common))
    total = count_params(arch).total
    # DeepSpeed casts the module to bf16, moves it whole to the GPU, then copies each
    # parameter's partition out of it and frees its whole copy, one at a time (est40): 2 bytes
    # x P + the largest tensor's partition (the 128,256 x 8,192 embedding, bf16, over 8)
    assert late.phases["load"]["weights"] == total * 2
    assert late.phases["load"]["load_transient"] == 128256 * 8192 * 2 / 8
    assert late.phase == "load"
    h100 = hardware.find("h100-80gb")
    assert verdict(late, h100) == "oom"
    # twins: partitioned while loading (zero.Init), or unknown: no load phase, the step fits
    for placement in ("sharded", None):
        ok = estimate(EstimateInput(load_placement=placement, **common))
        assert "load" not in ok.phases and verdict(ok, h100) != "oom"


def test_quantized_load_holds_one_16bit_matrix_beside_the_quantized_weights():
    arch = from_hf_config(dict(LLAMA2_7B, intermediate_size=14336), name="x")
    est = estimate(EstimateInput(arch=arch, precision="bf16", seq_len=512, lora_r=8, quant="4bit",
                                 kbit_prepared=False))
    # the largest matrix (4096 x 14336) arrives in bf16 before bitsandbytes quantizes it
    assert est.phases["load"]["load_transient"] == 4096 * 14336 * 2
    assert est.phases["load"]["weights"] == est.phases["forward"]["weights"]


def test_load_placement_flag_and_plan_field(cli, tmp_path):
    r = cli("estimate", "--model", "llama-2-7b", "--seq-len", "512", "--zero", "3",
            "--world-size", "8", "--load-placement", "gpu", "--format", "json")
    doc = json.loads(r.out)
    assert "load" in doc["phases"] and doc["plan"]["load_placement"]["source"] == "cli"
    bad = cli("estimate", "--model", "llama-2-7b", "--seq-len", "512", "--load-placement", "disk")
    assert bad.code == 2


# -- torch.compile ------------------------------------------------------------------------------

def test_compile_saves_less_per_layer_and_lowers_the_interval_bottom(tmp_path):
    arch = from_hf_config(LLAMA2_7B, name="llama2-7b")
    # (a fused loss, which compiling does not change, isolates the activations)
    common = dict(arch=arch, precision="bf16", seq_len=2048, micro_batch=2, lora_r=8, loss="fused")
    eager, compiled = estimate(EstimateInput(**common)), estimate(EstimateInput(compiled=True, **common))
    assert compiled.phase == eager.phase == "backward"
    # est54 (compiled_acts.py): per token and layer, each of the two RMSNorms (frozen weight:
    # eagerly its fp32 input only) keeps its bf16 input and an fp32 rsqrt instead, and the
    # gated MLP drops the SiLU output (11,008 bf16 values)
    h, width, layers, tokens = 4096, 11008, 32, 2 * 2048
    per_token = 2 * (4 * h - (2 * h + 4)) + width * 2
    saved_less = eager.phases["backward"]["activations"] - compiled.phases["backward"]["activations"]
    assert saved_less == pytest.approx(per_token * tokens * layers, rel=1e-6)
    # the low end: activation-like terms at 0.9 (the calibration tolerance), then half of
    # that under compile; weights, adapters, states at 1.0; fragmentation at 0
    def acts(est):
        bwd = est.phases["backward"]
        return sum(bwd.get(t, 0) for t in ("activations", "logits_loss", "backward_transient",
                                            "activation_recompute"))
    assert eager.interval_bytes[0] - compiled.interval_bytes[0] == pytest.approx(
        acts(eager) * 0.9 - acts(compiled) * 0.9 * 0.5, rel=1e-6)
    (tmp_path / "train.py").write_text("import torch\nmodel = torch.compile(model)\n", encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path)
    assert plan.value("compile.enabled") is True
    assert input_from_plan(plan, {"seq_len": 8}).compiled is True


def test_no_backward_sync_in_the_script_is_a_plan_fact(tmp_path):
    (tmp_path / "train.py").write_text(textwrap.dedent("""\
        import torch
        import lightning as L
        fabric = L.Fabric(devices=2, strategy="fsdp")
        model = torch.nn.Linear(4, 4)
        for step in range(10):
            is_accumulating = (step + 1) % 4 != 0
            with fabric.no_backward_sync(model, enabled=is_accumulating):
                fabric.backward(model(torch.ones(4)).sum())
    """), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path)
    assert plan.value("dist.fsdp_unsharded_grad_accum") is True
    fact = plan.resolve("dist.fsdp_unsharded_grad_accum")
    assert fact.source.line == 7
    assert input_from_plan(plan, {"seq_len": 8}).fsdp_unsharded_accum is True
    # twin: enabled=False never skips the sync
    (tmp_path / "train.py").write_text(textwrap.dedent("""\
        import torch
        import lightning as L
        fabric = L.Fabric(devices=2, strategy="fsdp")
        model = torch.nn.Linear(4, 4)
        with fabric.no_backward_sync(model, enabled=False):
            fabric.backward(model(torch.ones(4)).sum())
    """), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path)
    assert plan.value("dist.fsdp_unsharded_grad_accum") is None


# -- whose modeling code: litgpt's fused gelu ---------------------------------------------------

def test_litgpt_phi_mlp_keeps_two_widths_where_transformers_gelu_new_keeps_five():
    from preflight import architectures
    from preflight.estimate import activations as A

    entry = next(e for e in architectures.entries() if e["name"] == "Phi-1.5")
    arch = from_hf_config(dict(entry["config"]), name="phi-1_5")
    d16 = A.Dtypes(res=2, comp=2, weights=2.0, autocast=False, mask=1)
    common = dict(tokens=1044, seq=1044, batch=1, attention="sdpa", train_weights=False,
                  lora_targets=frozenset(("q_proj", "v_proj")), lora_r=8, lora_dropout=0.0,
                  dropout=0.0)
    py = A.transformer_layer(arch, d16, **common)
    fused = A.transformer_layer(arch, d16, fused_gelu=True, **common)
    # frozen fc2: gelu_new keeps 5 - 1 intermediate-width tensors, torch's gelu 2 - 1
    assert py.saved - fused.saved == 3 * arch.intermediate_size * 2 * 1044
    # the estimate follows the implementation
    job = dict(arch=arch, precision="bf16", seq_len=1044, lora_r=8, lora_targets=("q_proj", "v_proj"))
    assert (estimate(EstimateInput(model_impl="litgpt", **job)).phases["forward"]["activations"]
            < estimate(EstimateInput(**job)).phases["forward"]["activations"])


def test_a_script_importing_litgpt_runs_litgpt_modeling_code(tmp_path):
    (tmp_path / "train.py").write_text(textwrap.dedent("""\
        import torch
        from lit_gpt.lora import GPT, Config
        model = GPT(Config.from_name("phi-1_5"))
    """), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path)
    assert plan.value("model.implementation") == "litgpt"
    assert plan.resolve("model.implementation").source.line == 2
    assert input_from_plan(plan, {"seq_len": 8}).model_impl == "litgpt"
    # twin: a transformers script
    (tmp_path / "train.py").write_text("import torch\nfrom transformers import AutoModel\n", encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path)
    assert plan.value("model.implementation") is None


def test_torchtune_adapters_keep_their_shared_bf16_input_once_and_torchao_nf4_keeps_none():
    from preflight.estimate import activations as A

    arch = from_hf_config(LLAMA2_7B, name="llama2-7b")
    d16 = A.Dtypes(res=2, comp=2, weights=2.0, autocast=False, mask=1)
    common = dict(tokens=1, seq=1, batch=1, attention="sdpa", train_weights=False,
                  lora_targets=frozenset(("q_proj", "v_proj")), lora_r=8, lora_dropout=0.0,
                  dropout=0.0)
    peft = A.transformer_layer(arch, d16, **common)
    tt = A.transformer_layer(arch, d16, impl="torchtune", **common)
    # PEFT: each adapter keeps its own fp32 cast of x (4 h) and its rank-r output (4 r);
    # torchtune: x itself once (2 h, nn.Identity dropout), and each rank-r output in bf16
    h, r = 4096, 8
    assert peft.saved - tt.saved == 2 * (4 * h + 4 * r) - (2 * h + 2 * 2 * r)
    # torchao's LinearNF4 saves only its weight: a 4-bit base adds no saved input
    nf4 = A.Dtypes(res=2, comp=2, weights=0.5625, autocast=False, mask=1)
    assert A.transformer_layer(arch, nf4, impl="torchtune", **common).saved == tt.saved
    assert A.transformer_layer(arch, nf4, **common).saved > peft.saved   # bitsandbytes does


def test_a_compiled_loss_keeps_16bit_logits_and_a_logsumexp_not_fp32_copies():
    arch = from_hf_config(dict(LLAMA2_7B, vocab_size=128256), name="x")
    # (the loss inside the compiled region: said, since held-out-8's cause 2; a compiled
    # model alone leaves where the loss runs unknown, estimated eager)
    common = dict(arch=arch, precision="bf16", seq_len=4096, micro_batch=2, grad_ckpt=True,
                  lora_r=8, compiled=True, compiled_loss=True)
    tokens, tv = 2 * 4096, 2 * 4096 * 128256
    std = estimate(EstimateInput(**common)).phases
    chunked = estimate(EstimateInput(loss="chunked", **common)).phases
    eager = estimate(EstimateInput(**dict(common, compiled=False))).phases
    # forward: the bf16 logits and an fp32 logsumexp per token
    assert std["forward"]["logits_loss"] == tv * 2 + tokens * 4
    # eager HF loss: bf16 logits + fp32 copy + fp32 log-softmax
    assert eager["forward"]["logits_loss"] == tv * (2 + 4 + 4)
    # backward start: what forward saved plus the logits' gradient (bf16), or one of the
    # 8 chunks' fp32 gradient under torchtune's chunked loss
    assert std["backward"].get("logits_loss", 0) in (0, tv * 2 + tokens * 4 + tv * 2)
    assert chunked["forward"]["logits_loss"] == tv * 2 + tokens * 4
    peak_logits = max(v for p in chunked.values() for t, v in p.items() if t == "logits_loss")
    assert peak_logits == tv * 2 + tokens * 4 + tv * 4 // 8
