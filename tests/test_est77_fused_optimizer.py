"""est77: ``torch.optim.AdamW(fused=True)`` is the fused in-place kernel (plan ``optimizer.fused``), not the
per-parameter loop: its step holds no temporaries.

Before est77 the adapter wrote only ``optimizer.foreach`` False for ``fused=True``, and the estimator read
that as the for-loop, charging two temporaries the size of the largest parameter
(``terms_optim.optimizer_temporaries``). torch's ``_fused_adamw`` calls ``torch._fused_adamw_`` on the
parameter, gradient and state lists, updated in place by one multi-tensor kernel with no output lists."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.inputs import input_from_plan

HEAD = "import torch\nfrom transformers import AutoModelForCausalLM\n\n" \
       "model = AutoModelForCausalLM.from_pretrained('gpt2').cuda()\n"

ARCH = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 1024,
        "intermediate_size": 4096, "num_hidden_layers": 8, "num_attention_heads": 16,
        "num_key_value_heads": 16, "vocab_size": 32000, "max_position_embeddings": 512,
        "tie_word_embeddings": False, "hidden_act": "silu"}


def _plan(cli, tmp_path, line: str):
    from preflight.plan import TrainingPlan

    write(tmp_path, {"train.py": HEAD + line + "\n"})
    return TrainingPlan.from_dict(plan_of(cli, "train.py", cwd=tmp_path))


def test_fused_true_is_a_plan_fact_with_its_line(cli, tmp_path):
    write(tmp_path, {"train.py": HEAD + "opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)\n"})
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "optimizer.fused")
    assert got is not None and got.value is True
    assert got.source.path.endswith("train.py") and got.source.line == 5


def test_fused_adamw_reaches_the_estimate_as_the_fused_kernel(cli, tmp_path):
    inp = input_from_plan(_plan(cli, tmp_path, "opt = torch.optim.AdamW(model.parameters(), fused=True)"))
    assert inp.optimizer == "adamw-fused" and inp.sources["optimizer"].startswith("train.py:5")


def test_twins_keep_their_paths(cli, tmp_path):
    # foreach=False is the for-loop; fused=False and a plain call name no fused kernel
    for name, line in (("loop", "opt = torch.optim.AdamW(model.parameters(), foreach=False)"),
                       ("fused-false", "opt = torch.optim.AdamW(model.parameters(), fused=False)"),
                       ("plain", "opt = torch.optim.AdamW(model.parameters())")):
        root = tmp_path / name
        root.mkdir()
        plan = _plan(cli, root, line)
        assert fact(plan.to_dict(), "optimizer.fused") is None, name
        assert input_from_plan(plan).optimizer == "adamw", name
    # SGD(fused=True): the fact is written, the optimizer stays SGD (no AdamW temporaries to drop)
    root = tmp_path / "sgd"
    root.mkdir()
    assert input_from_plan(_plan(cli, root, "opt = torch.optim.SGD(model.parameters(), lr=0.1, fused=True)")
                           ).optimizer == "sgd"


def _inp(**kw) -> EstimateInput:
    base = dict(arch=from_hf_config(ARCH, name="m"), mode="train", precision="amp-bf16", micro_batch=2,
                seq_len=256, attention="sdpa", world_size=1, torch_version="2.4.0", optimizer="adamw")
    base.update(kw)
    return EstimateInput(**base)


def test_the_fused_step_drops_the_for_loop_temporaries_by_hand():
    loop, fused = estimate(_inp(foreach=False)), estimate(_inp(optimizer="adamw-fused"))
    by_hand = 2 * 32000 * 1024 * 4          # the for-loop: two fp32 temporaries of the largest (the head)
    assert loop.phases["optimizer"]["optimizer_temporaries"] == by_hand
    assert fused.phases["optimizer"].get("optimizer_temporaries", 0.0) == 0.0
    # the same states (two fp32 per parameter): only the temporaries differ in the optimizer step
    assert fused.phases["optimizer"]["optimizer_states"] == loop.phases["optimizer"]["optimizer_states"]
    # every other term but the allocator's fragmentation (a share of the step's transient bytes) is unchanged
    same = [k for k in loop.phases["optimizer"] if k not in ("optimizer_temporaries", "fragmentation")]
    assert all(fused.phases["optimizer"][k] == loop.phases["optimizer"][k] for k in same)
    assert fused.phases["optimizer"]["fragmentation"] < loop.phases["optimizer"]["fragmentation"]
    assert fused.peak_bytes < loop.peak_bytes


# ----------------------------------------------------------------------------- torchao's 4-bit AdamW
TORCHAO = ("import torch\nfrom transformers import AutoModelForCausalLM\nfrom torchao.optim import AdamW4bit\n\n"
           "model = AutoModelForCausalLM.from_pretrained('gpt2').cuda()\n"
           "opt = AdamW4bit(model.parameters(), lr=1e-4)\n")


def test_torchao_adamw4bit_is_read_as_the_4bit_optimizer(cli, tmp_path):
    from preflight.plan import TrainingPlan

    write(tmp_path, {"train.py": TORCHAO})
    inp = input_from_plan(TrainingPlan.from_dict(plan_of(cli, "train.py", cwd=tmp_path)))
    assert inp.optimizer == "adamw-4bit" and inp.sources["optimizer"].startswith("train.py:6")


def test_trainer_optim_adamw_torch_4bit_is_the_4bit_optimizer():
    from preflight.estimate.inputs import normalise_optimizer

    assert normalise_optimizer("adamw_torch_4bit") == "adamw-4bit"
    assert normalise_optimizer("Adam4bit") == "adamw-4bit"


def test_4bit_states_by_hand():
    # per state: n/2 bytes of packed codes + an fp32 scale per 128 elements (torchao subclass_4bit.zeros)
    full = estimate(_inp(optimizer="adamw-4bit", precision="bf16"))
    trainable = 8 * (4 * 1024 * 1024 + 3 * 1024 * 4096) + 2 * 32000 * 1024 + 17 * 1024
    by_hand = trainable * 2 * (0.5 + 4 / 128)
    assert abs(full.phases["optimizer"]["optimizer_states"] - by_hand) < 1.0
    # against 16-bit AdamW states in pure bf16: 4 bytes a parameter
    bf16 = estimate(_inp(optimizer="adamw", precision="bf16"))
    assert bf16.phases["optimizer"]["optimizer_states"] == trainable * 4
    assert full.phases["optimizer"].get("optimizer_temporaries", 0.0) == 0.0


def test_4bit_states_of_a_diffusion_job_by_hand():
    from preflight.estimate.diffusion import _optimizer_bytes

    n = 1_000_000
    assert _optimizer_bytes("adamw-4bit", n) == n + 2 * 4 * (n // 128 + 1)   # 2 x (n/2 codes + n/128 fp32)
    assert _optimizer_bytes("adamw-4bit", n) < _optimizer_bytes("adamw-8bit", n) < _optimizer_bytes("adamw", n)


def test_the_three_step_paths_match_the_cpu_measurement():
    # calibration/optimizer_step_temps.py (torch 2.13 CPU): what each AdamW path allocates at its second step
    import json
    from pathlib import Path

    data = json.loads((Path(__file__).resolve().parents[1] / "calibration" / "data" /
                       "optimizer_step_temps.json").read_text(encoding="utf-8"))
    assert data["fused"]["peak_bytes"] == 0.0                       # adamw-fused: no temporaries
    assert data["for_loop"]["in_largest"] == 2.0                    # the for-loop: 2 x the largest parameter
    assert data["foreach"]["in_list"] == 1.0                        # foreach (torch >= 2.1): one list
    trainable = 8 * (4 * 1024 * 1024 + 3 * 1024 * 4096) + 2 * 32000 * 1024 + 17 * 1024
    foreach = estimate(_inp(foreach=True)).phases["optimizer"]["optimizer_temporaries"]
    assert foreach == trainable * 4 * data["foreach"]["in_list"]
    loop = estimate(_inp(foreach=False)).phases["optimizer"]["optimizer_temporaries"]
    assert loop == 32000 * 1024 * 4 * data["for_loop"]["in_largest"]
