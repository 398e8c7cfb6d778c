"""The runtime guard on real small models (CPU): exact counts, measured activations against
the calibration reference, and the raise/warn policy."""

from __future__ import annotations

import json
import sys
import warnings

import pytest

torch = pytest.importorskip("torch", reason="the runtime guard needs torch (the 'torch' extra)")
transformers = pytest.importorskip("transformers", reason="guard tests use transformers models")

from conftest import REPO, run_subprocess  # noqa: E402

from preflight.guard import (  # noqa: E402
    VRAMGuard,
    VRAMGuardError,
    VRAMGuardWarning,
    apply_policy,
    check_fit,
    project,
)
from preflight.guard.core import append_record  # noqa: E402
from preflight.guard.live import inventory  # noqa: E402

TINY_LLAMA = dict(hidden_size=64, intermediate_size=176, num_hidden_layers=1,
                  num_attention_heads=4, num_key_value_heads=2, vocab_size=512,
                  tie_word_embeddings=False)


def tiny_llama(**over):
    torch.manual_seed(0)
    cfg = transformers.LlamaConfig(**{**TINY_LLAMA, **over})
    return transformers.LlamaForCausalLM(cfg)


@pytest.fixture(scope="module")
def llama():
    model = tiny_llama()
    return model, torch.optim.AdamW(model.parameters(), lr=1e-3)


@pytest.fixture(scope="module")
def llama_report(llama):
    model, opt = llama
    return project(model, opt, batch_shape=(2, 64), target="80GiB")


def test_importing_the_guard_does_not_import_torch():
    proc = run_subprocess("-c", "import sys, preflight.guard; print('torch' in sys.modules)",
                          cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"


def test_counts_are_exact(llama):
    model, opt = llama
    inv = inventory(model, opt)
    assert inv.params == sum(p.numel() for p in model.parameters())
    assert inv.param_bytes == 4 * inv.params
    assert inv.params_trainable == inv.params and inv.grad_bytes == inv.param_bytes
    assert inv.optimizer_state_bytes == 0  # no step yet: AdamW creates its state lazily


def test_tied_weights_count_once_and_bf16_is_two_bytes():
    model = tiny_llama(tie_word_embeddings=True).to(torch.bfloat16)
    inv = inventory(model)
    unique = {id(p): p for p in model.parameters()}
    assert inv.params == sum(p.numel() for p in unique.values())
    assert inv.param_bytes == 2 * inv.params
    assert inv.dtypes == {"bfloat16": inv.params}


def test_frozen_parameters_have_no_gradient_bytes():
    model = tiny_llama()
    for name, p in model.named_parameters():
        p.requires_grad = "lm_head" in name
    inv = inventory(model)
    assert inv.params_trainable == model.lm_head.weight.numel()
    assert inv.grad_bytes == 4 * model.lm_head.weight.numel()


def test_peft_adapters_are_counted_as_adapters():
    peft = pytest.importorskip("peft", reason="PEFT adapter counts need peft")
    model = peft.get_peft_model(tiny_llama(), peft.LoraConfig(r=4, target_modules=["q_proj",
                                                                                   "v_proj"]))
    inv = inventory(model)
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    assert inv.adapter_params == trainable == inv.params_trainable
    assert inv.params == sum(p.numel() for p in model.parameters())


def test_optimizer_state_is_read_from_the_live_optimizer():
    model = tiny_llama()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, foreach=False)
    ids = torch.randint(0, 512, (1, 8))
    model(input_ids=ids, labels=ids).loss.backward()
    opt.step()
    inv = inventory(model, opt)
    n = sum(p.numel() for p in model.parameters())
    # exp_avg + exp_avg_sq in fp32, plus one scalar step tensor per parameter
    assert inv.optimizer_state_bytes == 2 * 4 * n + 4 * len(list(model.parameters()))


def test_bitsandbytes_weights_are_recognised_by_class_name():
    class QuantState:
        def __init__(self, shape):
            self.shape = torch.Size(shape)
            self.absmax = torch.zeros(shape[0] * shape[1] // 64)
            self.code = torch.zeros(16)
            self.state2 = None

    class Params4bit(torch.nn.Parameter):  # the name bitsandbytes uses; no import needed
        pass

    lin = torch.nn.Linear(128, 64, bias=False)
    packed = Params4bit(torch.zeros(128 * 64 // 2, 1, dtype=torch.uint8), requires_grad=False)
    packed.quant_state = QuantState((64, 128))
    lin.weight = packed
    inv = inventory(lin)
    assert inv.params == 64 * 128 and inv.quant_kind == "4bit"
    assert inv.param_bytes == 64 * 128 // 2 + 4 * (64 * 128 // 64) + 4 * 16


def test_peak_is_in_the_second_backward(llama, llama_report):
    # the second step holds AdamW's states (created in step 1) while activations peak:
    # exp_avg and exp_avg_sq (fp32) and one fp32 step scalar per parameter tensor
    n_tensors = len(list(llama[0].parameters()))
    m = llama_report.measurement
    assert m["peak_phase"] == "step2.backward"
    assert m["peak_by_category"]["opt"] == 2 * llama_report.inventory["param_bytes"] + 4 * n_tensors


def test_projection_matches_the_calibration_reference(llama, llama_report):
    """The guard's tensor peak on the live model equals the CPU reference harness's peak
    for the same configuration built from its config (within 5%)."""
    sys.path.insert(0, str(REPO))
    from calibration.matrix import Case
    from calibration.reference import measure

    case = Case(name="tiny", model_type="llama", task="causal-lm", hf_config=dict(TINY_LLAMA),
                batch=2, seq_len=64, precision="fp32", optimizer="adamw", attention="sdpa")
    ref = measure(case)
    m = llama_report.measurement
    assert abs(llama_report.tensor_peak_bytes - ref["peak_bytes"]) <= 0.05 * ref["peak_bytes"]
    act_ref = ref["peak_by_category"]["act"] + ref["peak_by_category"]["temp"]
    act = m["peak_by_category"]["act"] + m["peak_by_category"]["temp"]
    assert act > 0 and abs(act - act_ref) <= 0.05 * act_ref


def test_activations_scale_with_the_batch_and_the_model_is_untouched(llama, llama_report):
    model, opt = llama
    before = [(id(p), p.detach().clone()) for p in model.parameters()]
    big = project(model, opt, batch_shape=(8, 64), target="80GiB")
    after = list(model.parameters())
    assert [i for i, _ in before] == [id(p) for p in after]
    assert all(torch.equal(v, p) for (_, v), p in zip(before, after))
    assert all(p.grad is None for p in after) and len(opt.state) == 0
    act = llama_report.measurement["peak_by_category"]["act"]
    assert big.measurement["peak_by_category"]["act"] > 3 * act


def test_fits_on_a_large_target_silently(llama_report):
    assert llama_report.verdict == "fits" and llama_report.remediations == []
    with warnings.catch_warnings():
        warnings.simplefilter("error", VRAMGuardWarning)
        assert apply_policy(llama_report) is llama_report


def test_raises_with_remediations_when_it_cannot_fit(llama):
    model, opt = llama
    # long enough that the tensors, not the CUDA context, make the peak (a remediation must
    # save at least 1% of the peak to be listed)
    with pytest.raises(VRAMGuardError) as info:
        check_fit(model, opt, batch_shape=(2, 1024), target="1MiB")
    assert "does not fit" in str(info.value) and "oom" in str(info.value)
    assert info.value.report.verdict == "oom"
    assert info.value.report.remediations, "the estimator's remediations come with the error"


def test_no_remediation_saving_under_one_percent(llama):
    model, opt = llama
    # 64 tokens of a one-layer toy model: the CUDA context is nearly all of the peak
    with pytest.raises(VRAMGuardError) as info:
        check_fit(model, opt, batch_shape=(2, 64), target="1MiB")
    report = info.value.report
    assert all(r.saved_bytes >= 0.01 * report.peak_bytes for r in report.remediations)


def test_tight_warns_and_raises_only_when_asked(llama_report):
    tight = llama_report.retarget(llama_report.peak_bytes)  # point fits, interval top does not
    assert tight.verdict == "tight"
    with pytest.warns(VRAMGuardWarning, match="tight"):
        apply_policy(tight)
    with pytest.raises(VRAMGuardError):
        apply_policy(tight, raise_on="tight")


def test_likely_oom_warns_by_default(llama_report):
    lo, _ = llama_report.interval_bytes
    likely = llama_report.retarget((lo + llama_report.peak_bytes) // 2)
    assert likely.verdict == "likely-oom"
    with pytest.warns(VRAMGuardWarning, match="likely-oom"):
        apply_policy(likely)
    with pytest.raises(VRAMGuardError, match="does not fit"):
        apply_policy(likely, raise_on="likely-oom")


def test_never_warns_instead_of_raising(llama_report):
    oom = llama_report.retarget("1MiB")
    assert oom.verdict == "oom" and oom.capacity_bytes == 2**20
    with pytest.warns(VRAMGuardWarning, match="oom"):
        assert apply_policy(oom, raise_on="never") is oom


def test_a_step_that_cannot_run_on_fake_tensors_is_a_clear_error():
    class Sparse(torch.nn.Module):  # output size depends on values: no fake run possible
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(8, 8)

        def forward(self, x):
            return self.lin(x)[torch.nonzero(x > 0, as_tuple=True)]

    model = Sparse()
    with pytest.raises(VRAMGuardError, match="could not measure the training step") as info:
        check_fit(model, torch.optim.SGD(model.parameters(), lr=0.1), batch=torch.randn(4, 8),
                  target="24GiB")
    assert "nonzero" in str(info.value)


def test_unknown_target_is_a_clear_error(llama):
    model, opt = llama
    with pytest.raises(VRAMGuardError, match="batch_shape"):
        check_fit(model, opt, target="24GiB")
    with pytest.raises(VRAMGuardError, match="unknown GPU"):
        check_fit(model, opt, batch_shape=(2, 64), target="no-such-gpu-9000")
    with pytest.raises(VRAMGuardError, match="no target"):
        check_fit(model, opt, batch_shape=(2, 64))


def test_context_manager_records_the_projection(llama, tmp_path):
    model, opt = llama
    record = tmp_path / "runs.json"
    with VRAMGuard(model, opt, batch_shape=(2, 64), target="a100-80gb", record=record) as guard:
        pass
    append_record(record, guard.record_entry())  # a second run appends
    doc = json.loads(record.read_text())
    assert len(doc["records"]) == 2
    entry = doc["records"][0]
    assert entry["model_class"] == "LlamaForCausalLM" and entry["batch_shape"] == [2, 64]
    assert entry["projection"]["verdict"] == "fits"
    assert entry["projection"]["target"].lower().startswith("a100")
    assert entry["measured"]["max_allocated"] is None  # no CUDA here: nothing to compare


def test_lora_projection_matches_the_calibration_reference():
    """Frozen bf16 base + fp32 peft adapters: the guard on the live PEFT model equals the
    reference harness on the same configuration (within 5%)."""
    peft = pytest.importorskip("peft", reason="PEFT projections need peft")
    sys.path.insert(0, str(REPO))
    from calibration.matrix import Case
    from calibration.reference import measure

    model = peft.get_peft_model(tiny_llama().to(torch.bfloat16), peft.LoraConfig(
        r=8, lora_alpha=16, lora_dropout=0.05, target_modules=["q_proj", "v_proj"]))
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-3)
    report = project(model, opt, batch_shape=(2, 64), target="24GiB", cuda_overheads=False)
    case = Case(name="tiny-lora", model_type="llama", task="causal-lm",
                hf_config=dict(TINY_LLAMA), batch=2, seq_len=64, precision="bf16",
                lora_r=8, lora_alpha=16, lora_targets=("q_proj", "v_proj"))
    ref = measure(case)
    assert abs(report.peak_bytes - ref["peak_bytes"]) <= 0.05 * ref["peak_bytes"]
    assert report.measurement["peak_by_category"]["opt"] == ref["peak_by_category"]["opt"]
    assert report.inventory["adapter_params"] == ref["params"]["trainable"]


def test_zero3_shards_count_this_ranks_share():
    """DeepSpeed ZeRO-3 leaves an empty parameter and keeps the rank's shard in
    ``ds_tensor`` (recognised by attribute, no deepspeed import)."""
    lin = torch.nn.Linear(64, 64, bias=False)
    lin.weight.data = torch.empty(0)
    lin.weight.ds_tensor = torch.zeros(64 * 64 // 8)  # world size 8
    lin.weight.ds_numel = 64 * 64
    inv = inventory(lin)
    assert inv.sharding == "zero3" and inv.params == 64 * 64
    assert inv.param_bytes == inv.grad_bytes == 4 * 64 * 64 // 8


def test_a_hf_model_that_cannot_run_fake_falls_back_to_the_cost_model(llama):
    model, opt = llama

    def sparse_loss(m, batch):  # output size depends on values: the fake step fails
        logits = m(**batch).logits
        return logits[torch.nonzero(batch["input_ids"] > 0, as_tuple=True)].float().sum()

    report = project(model, opt, batch_shape=(2, 64), target="80GiB", loss_fn=sparse_loss)
    assert report.measurement is None
    assert any("cost model" in n for n in report.notes)
    from preflight.estimate import estimate

    est = estimate(report.estimate_input)
    assert report.peak_bytes == est.peak_bytes and report.interval_bytes == est.interval_bytes
    assert report.verdict == "fits"
