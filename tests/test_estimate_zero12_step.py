"""ZeRO-1/2's optimizer step on the GPU, recomputed by hand from DeepSpeed's source (issue 17,
docs/calibration.md "est19").

``DeepSpeedZeroOptimizer.step`` (``runtime/zero/stage_1_and_2.py``, v0.14.2 lines 1880-1905),
optimizer not offloaded, at any world size: ``self.flatten(self.averaged_gradients[i]).to(fp32)``
makes a flat copy of the rank's partition in the gradients' dtype, then the fp32 gradient the
optimizer reads (``.to`` returns the flat copy itself when the gradients are fp32).

With ``offload_optimizer`` DeepSpeed 0.14.1 to 0.16.x write the updated weights back with
``copy_(fp32_partition.to(device))`` (lines 1868-1871, from 7b5b066 / #5301 until 17c8be0 /
#7309 in 0.17.0): an fp32 copy of the rank's partition on the GPU. Older and newer releases
convert on the host. The release comes from the project's requirements
(``framework.deepspeed_version``).
"""

from __future__ import annotations

import json

import pytest
from plan_helpers import write

from preflight.audit import build_plan
from preflight.estimate import EstimateInput, estimate, input_from_plan
from preflight.estimate.arch import from_hf_config
from preflight.estimate.terms import deepspeed_parts, zero12_offload_step_copy

H, FF, L, V = 1024, 2816, 8, 32000
LLAMA = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": H,
         "intermediate_size": FF, "num_hidden_layers": L, "num_attention_heads": 16,
         "num_key_value_heads": 16, "vocab_size": V, "tie_word_embeddings": False}
ARCH = from_hf_config(LLAMA, name="llama-small")
# parameters by hand: per layer q, k, v, o (H x H each), gate, up, down (H x FF each) and two
# RMSNorm weights; the embedding, the untied LM head and the final norm
P = L * (4 * H * H + 3 * H * FF + 2 * H) + 2 * V * H + H
ALLGATHER = 5e8          # DeepSpeed's default allgather_bucket_size, elements
LARGEST = V * H          # the largest trainable tensor (embedding / head): the offload staging buffer


def run(**changes):
    base = dict(arch=ARCH, mode="train", precision="bf16", optimizer="adamw", micro_batch=1,
                seq_len=128, grad_ckpt=False, zero_stage=2, world_size=4)
    base.update(changes)
    return estimate(EstimateInput(**base))


def step_buckets(e):
    return e.phases["optimizer"].get("zero_buckets", 0)


def test_parameter_count_by_hand():
    assert P == 168_313_856 == run().params_trainable


@pytest.mark.parametrize("stage", [1, 2])
def test_zero12_four_gpus_bf16(stage):
    # the rank's partition P/4: its fp32 gradient (4 bytes) and the flat bf16 copy (2 bytes),
    # next to the all-gather bucket of the step (min(5e8, P) 16-bit elements)
    assert step_buckets(run(zero_stage=stage)) == min(ALLGATHER, P) * 2 + P / 4 * 4 + P / 4 * 2


def test_zero2_one_gpu_the_partition_is_the_whole_model():
    # the same code runs at world size 1 (no all-gather bucket on one rank)
    assert step_buckets(run(world_size=1)) == P * 4 + P * 2


def test_zero2_fp32_gradients_have_no_second_copy():
    # fp32 gradients: .to(fp32) returns the flat copy, which is the fp32 gradient
    e = run(precision="fp32", world_size=2)
    assert step_buckets(e) == min(ALLGATHER, P) * 4 + P / 2 * 4


def test_offloaded_step_keeps_the_gradient_on_the_host():
    # offload without a known DeepSpeed release (the latest: no GPU copy): only the staging
    # buffer of the largest tensor (bf16) stays, no step gradient on the GPU
    e = run(world_size=1, offload_optimizer="cpu")
    assert step_buckets(e) == LARGEST * 2


@pytest.mark.parametrize("version, copies", [
    ("0.14.4", True), ("0.14.1", True), ("0.16.9", True), ("0.15", True),
    ("0.14.0", False), ("0.9.5", False), ("0.17.0", False), ("0.18.3", False), (None, False),
    ("main", False)])
def test_offload_step_copy_follows_the_deepspeed_release(version, copies):
    # one GPU: the fp32 copy of the whole partition (4 bytes per trainable parameter)
    e = run(world_size=1, offload_optimizer="cpu", deepspeed_version=version)
    assert step_buckets(e) == LARGEST * 2 + (P * 4 if copies else 0)


def test_offload_step_copy_is_the_rank_partition():
    e = run(world_size=8, offload_optimizer="cpu", deepspeed_version="0.14.4")
    assert step_buckets(e) == min(ALLGATHER, P) * 2 + LARGEST * 2 + P / 8 * 4


def test_offload_step_copy_only_for_zero12_offload():
    inp = EstimateInput(arch=ARCH, zero_stage=3, offload_optimizer="cpu", deepspeed_version="0.14.4")
    assert zero12_offload_step_copy(inp, P, 1) == 0
    inp = EstimateInput(arch=ARCH, zero_stage=2, deepspeed_version="0.14.4")
    assert zero12_offload_step_copy(inp, P, 1) == 0
    inp = EstimateInput(arch=ARCH, zero_stage=1, offload_optimizer="cpu", deepspeed_version="0.16.2")
    assert zero12_offload_step_copy(inp, P, 2) == P / 2 * 4


def test_version_text():
    assert deepspeed_parts("0.14.4") == (0, 14, 4)
    assert deepspeed_parts("0.15") == (0, 15, 0)
    assert deepspeed_parts("0.16.3+cu121") == (0, 16, 3)
    assert deepspeed_parts("latest") is None and deepspeed_parts(None) is None


def test_unknown_release_puts_the_copy_in_the_interval_top():
    # small reduce buckets: the step is the peak phase once the copy is charged
    kw = dict(world_size=1, offload_optimizer="cpu", reduce_bucket_size=10_000_000)
    unknown = run(**kw)
    old = run(deepspeed_version="0.16", **kw)
    new = run(deepspeed_version="0.17.1", **kw)
    assert old.phase == "optimizer"
    assert unknown.peak_bytes == new.peak_bytes < old.peak_bytes
    # the interval of an unknown release reaches the old releases' peak; a known one's is narrower
    assert unknown.interval_bytes[1] >= old.peak_bytes
    assert new.interval_bytes[1] < unknown.interval_bytes[1]


def _project(tmp_path, requirement):
    files = {
        "train.py": """\
            import deepspeed
            model, optim, _, _ = deepspeed.initialize(model=model, config="ds.json",
                                                      model_parameters=model.parameters())
        """,
        "ds.json": json.dumps({"train_micro_batch_size_per_gpu": 1, "bf16": {"enabled": True},
                               "zero_optimization": {"stage": 2,
                                                     "offload_optimizer": {"device": "cpu"}}}),
    }
    if requirement is not None:
        files["requirements.txt"] = f"torch==2.3.1\n{requirement}\n"
    write(tmp_path, files)
    plan, _ = build_plan([tmp_path / "train.py"], [tmp_path / "ds.json"], root=tmp_path)
    return plan


def test_pinned_deepspeed_reaches_the_estimate(tmp_path):
    plan = _project(tmp_path, "deepspeed==0.14.4")
    fact = plan.resolve("framework.deepspeed_version")
    assert fact.value == "0.14.4" and fact.confidence == "high"
    assert fact.source.path.endswith("requirements.txt") and fact.source.line == 2
    inp = input_from_plan(plan, {"seq_len": 8})
    assert inp.deepspeed_version == "0.14.4" and inp.offload_optimizer == "cpu"
    inp.arch = ARCH
    trainable = estimate(inp).params_trainable
    assert zero12_offload_step_copy(inp, trainable, 1) == trainable * 4


def test_lower_bound_is_not_the_release_and_no_pin_no_fact(tmp_path):
    # pip installs the newest release a lower bound allows: not a fact, a note
    plan = _project(tmp_path / "bound", "deepspeed>=0.14.1")
    assert plan.resolve("framework.deepspeed_version") is None
    assert any("deepspeed 0.14.1 is a lower bound" in n for n in plan.notes)
    plan = _project(tmp_path / "none", None)
    assert plan.resolve("framework.deepspeed_version") is None
    assert input_from_plan(plan, {"seq_len": 8}).deepspeed_version is None


def test_pin_in_a_pyproject_extra(tmp_path):
    # LLaVA's shape: the DeepSpeed pin in an optional-dependencies extra of pyproject.toml
    write(tmp_path, {"pyproject.toml": """\
        [project]
        name = "x"
        dependencies = ["torch==2.1.2"]
        [project.optional-dependencies]
        train = ["deepspeed==0.12.6", "ninja"]
    """})
    plan = _project(tmp_path, None)
    fact = plan.resolve("framework.deepspeed_version")
    assert fact.value == "0.12.6" and fact.source.path == "pyproject.toml" and fact.source.line == 5


def test_upgrade_is_offered_only_for_a_copying_release():
    from preflight import hardware
    from preflight.estimate import remediate

    gpu = hardware.find("A100-40GB")
    kw = dict(world_size=1, offload_optimizer="cpu", reduce_bucket_size=10_000_000)
    old = remediate(EstimateInput(**{**dict(arch=ARCH, mode="train", precision="bf16",
                                            micro_batch=1, seq_len=128, zero_stage=2), **kw,
                                     "deepspeed_version": "0.15.4"}), gpu)
    upgrade = [r for r in old if r.flags == ["--deepspeed-version 0.17.0"]]
    # the copy (P x 4) goes; the peak falls to the next phase's
    before = run(deepspeed_version="0.15.4", **kw)
    after = run(deepspeed_version="0.17.0", **kw)
    assert before.peak_bytes - after.peak_bytes > 0.5 * P * 4
    assert upgrade and upgrade[0].saved_bytes == before.peak_bytes - after.peak_bytes
    for version in ("0.17.0", None, "0.14.0"):
        rs = remediate(EstimateInput(arch=ARCH, mode="train", precision="bf16", micro_batch=1,
                                     seq_len=128, zero_stage=2, deepspeed_version=version, **kw), gpu)
        assert not [r for r in rs if "--deepspeed-version" in " ".join(r.flags)]


def test_estimate_flag_and_pinned_requirement(tmp_path, monkeypatch, capsys):
    from preflight.cli import main

    monkeypatch.chdir(tmp_path)
    args = ["estimate", "--model", "meta-llama/Llama-2-7b-hf", "--batch-size", "1", "--seq-len", "512",
            "--precision", "bf16", "--zero", "2", "--offload-optimizer", "cpu", "--world-size", "1",
            "--format", "json"]
    main(args)
    latest = json.loads(capsys.readouterr().out)
    main([*args, "--deepspeed-version", "0.14.4"])
    old = json.loads(capsys.readouterr().out)
    p = old["model"]["params_trainable"]
    assert p == pytest.approx(6.74e9, rel=0.01)              # Llama-2-7B, all trainable
    assert old["peak_bytes"] - latest["peak_bytes"] >= p * 4 * 0.8
    assert old["phases"]["optimizer"]["zero_buckets"] - latest["phases"]["optimizer"]["zero_buckets"] \
        == p * 4
    assert main([*args, "--deepspeed-version", "latest"]) == 2
    assert "--deepspeed-version 'latest' is not a version" in capsys.readouterr().err


def test_unknown_release_is_said():
    # said when the copying releases would raise the peak (small buckets: the step is the peak)
    kw = dict(world_size=1, offload_optimizer="cpu", reduce_bucket_size=10_000_000)
    said = [n for n in run(**kw).notes if n.startswith("DeepSpeed version not known")]
    assert said and "--deepspeed-version" in said[0]
    assert not [n for n in run(deepspeed_version="0.17.0", **kw).notes if "DeepSpeed version" in n]
    assert not [n for n in run(world_size=1, reduce_bucket_size=10_000_000).notes
                if "DeepSpeed version" in n]   # no offload


def test_accelerate_deepspeed_job_gets_the_pin_and_a_plain_job_does_not(tmp_path):
    # accelerate's own DeepSpeed section (no DeepSpeed JSON): the release is still read
    write(tmp_path / "acc", {
        "requirements.txt": "accelerate==0.33.0\ndeepspeed==0.15.4\n",
        "train.py": """\
            from accelerate import Accelerator
            accelerator = Accelerator()
            model, optimizer = accelerator.prepare(model, optimizer)
        """,
        "acc.yaml": """\
            compute_environment: LOCAL_MACHINE
            distributed_type: DEEPSPEED
            deepspeed_config:
              zero_stage: 2
              offload_optimizer_device: cpu
            mixed_precision: bf16
            num_processes: 2
        """})
    root = tmp_path / "acc"
    plan, _ = build_plan([root / "train.py"], [root / "acc.yaml"], root=root)
    assert plan.value("dist.sharding") == "zero2" and plan.value("dist.offload_optimizer") == "cpu"
    fact = plan.resolve("framework.deepspeed_version")
    assert fact.value == "0.15.4" and fact.source.line == 2
    assert input_from_plan(plan, {"seq_len": 8}).deepspeed_version == "0.15.4"
    # the same pin in a job that does not use DeepSpeed: not a fact of the job
    write(tmp_path / "plain", {"requirements.txt": "deepspeed==0.15.4\n",
                               "train.py": "import torch\nmodel = torch.nn.Linear(2, 2)\n"})
    plain = tmp_path / "plain"
    plan, _ = build_plan([plain / "train.py"], [], root=plain)
    assert plan.resolve("framework.deepspeed_version") is None
