"""The step temporaries of a client optimizer under DeepSpeed ZeRO, recomputed by hand (issue 17,
docs/calibration.md "est34").

Without an ``optimizer`` block in the DeepSpeed config the Hugging Face Trainer passes its own
optimizer (``TrainingArguments.optim``) to ``deepspeed.initialize``; ZeRO-1/2 give it each
parameter group's flat fp32 partition as one tensor (``param_group['params'] =
[self.single_partition_of_fp32_groups[i]]``), ZeRO-3 one flat sub-group at a time. torch's
foreach AdamW then materialises ``sqrt(exp_avg_sq)`` for that tensor (one fp32 copy of the
partition), the for-loop AdamW of torch < 2.0 the square root and the bias-corrected
denominator (two). The flat 16-bit gradient copy the step made before is freed by then.
"""

from __future__ import annotations

import json
import textwrap

import pytest

from preflight.audit import build_plan
from preflight.estimate import EstimateInput, estimate, input_from_plan
from preflight.estimate.arch import from_hf_config
from preflight.estimate.zero_client_optim import client_optimizer_from_names

H, FF, L, V = 1024, 2816, 8, 32000
LLAMA = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": H,
         "intermediate_size": FF, "num_hidden_layers": L, "num_attention_heads": 16,
         "num_key_value_heads": 16, "vocab_size": V, "tie_word_embeddings": False}
ARCH = from_hf_config(LLAMA, name="llama-small")
P = L * (4 * H * H + 3 * H * FF + 2 * H) + 2 * V * H + H      # trainable parameters, by hand


def run(**changes):
    base = dict(arch=ARCH, mode="train", precision="bf16", optimizer="adamw", micro_batch=1,
                seq_len=128, grad_ckpt=False, zero_stage=2, world_size=4, torch_version="2.1.2")
    base.update(changes)
    return estimate(EstimateInput(**base))


def temps(e):
    return e.phases["optimizer"].get("optimizer_temporaries", 0.0)


def test_parameter_count_by_hand():
    assert P == 168_313_856 == run().params_trainable


@pytest.mark.parametrize("stage", [1, 2])
def test_foreach_adamw_on_the_flat_partition(stage):
    # the rank's partition P/4 in fp32 (4 bytes), less the flat bf16 copy (2 bytes) freed before
    part = P / 4
    assert temps(run(zero_stage=stage, zero_client_optimizer=True)) == part * 4 - part * 2
    # DeepSpeed's own optimizer (an optimizer block in the config) updates in place
    assert temps(run(zero_stage=stage, zero_client_optimizer=False)) == 0
    assert temps(run(zero_stage=stage)) == 0


def test_the_optimizer_phase_grows_by_the_temporaries_only():
    # (the allocator's fragmentation term follows the phase's tensors; the rest is unchanged)
    own = run(zero_client_optimizer=False).phases["optimizer"]
    client = run(zero_client_optimizer=True).phases["optimizer"]
    changed = {t for t in client if client[t] != own.get(t)}
    assert changed == {"optimizer_temporaries", "fragmentation"}
    assert client["optimizer_temporaries"] == P / 4 * 2


def test_for_loop_adamw_before_torch_2_makes_two_partition_sized_temporaries():
    part = P / 4
    e = run(zero_client_optimizer=True, torch_version="1.13.1")
    assert temps(e) == 2 * part * 4 - part * 2


def test_fp32_gradients_leave_no_flat_copy_to_subtract():
    # fp32 training: the flat copy is the fp32 gradient itself (terms.zero12_step_grads)
    e = run(zero_client_optimizer=True, precision="fp32")
    assert temps(e) == P / 4 * 4


def test_zero3_steps_one_sub_group_at_a_time():
    # one GPU: the partition is the whole model (0.17 B < sub_group_size 1e9): one sub-group
    e = run(zero_stage=3, world_size=1, zero_client_optimizer=True)
    assert temps(e) == P * 4 - P * 2


def test_offload_and_in_place_optimizers_add_nothing():
    assert temps(run(zero_client_optimizer=True, offload_optimizer="cpu")) == 0
    assert temps(run(zero_client_optimizer=True, optimizer="adamw-fused")) == 0
    assert temps(run(zero_client_optimizer=True, optimizer="adamw-8bit")) == 0


def test_names_decide_whose_optimizer_steps():
    assert client_optimizer_from_names([("adamw_torch", "transformers")]) is True
    assert client_optimizer_from_names([("AdamW", "deepspeed")]) is False
    assert client_optimizer_from_names([("adamw_torch", "transformers"), ("AdamW", "deepspeed")]) is False
    assert client_optimizer_from_names([("FusedAdam", "pytorch")]) is False
    assert client_optimizer_from_names([("DeepSpeedCPUAdam", "pytorch")]) is False
    assert client_optimizer_from_names([]) is None


def _project(tmp_path, ds: dict):
    (tmp_path / "train.py").write_text(textwrap.dedent("""\
        from transformers import Trainer, TrainingArguments
        args = TrainingArguments(output_dir="out", per_device_train_batch_size=1, bf16=True,
                                 optim="adamw_torch", deepspeed="ds.json")
        Trainer(model=model, args=args).train()
    """), encoding="utf-8")
    (tmp_path / "ds.json").write_text(json.dumps(ds), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [tmp_path / "ds.json"], root=tmp_path)
    return input_from_plan(plan, {"seq_len": 8})


def test_trainer_optim_without_a_config_optimizer_is_the_client_optimizer(tmp_path):
    inp = _project(tmp_path, {"train_micro_batch_size_per_gpu": "auto",
                              "zero_optimization": {"stage": 2}})
    assert inp.zero_stage == 2
    assert inp.zero_client_optimizer is True


def test_a_config_optimizer_block_is_deepspeeds_own(tmp_path):
    inp = _project(tmp_path, {"train_micro_batch_size_per_gpu": "auto",
                              "optimizer": {"type": "AdamW", "params": {"lr": 1e-5}},
                              "zero_optimization": {"stage": 2}})
    assert inp.zero_stage == 2
    assert inp.zero_client_optimizer is False


def test_remedy_moves_the_optimizer_into_the_deepspeed_config():
    from preflight import hardware
    from preflight.estimate import remediate

    # one GPU: the optimizer step is the peak (the whole model is the partition)
    inp = EstimateInput(arch=ARCH, mode="train", precision="bf16", micro_batch=1, seq_len=128,
                        zero_stage=2, world_size=1, torch_version="2.1.2", zero_client_optimizer=True)
    gpu = hardware.find("A10G-24GB")
    found = [r for r in remediate(inp, gpu) if "optimizer` block" in r.description]
    assert len(found) == 1
    # the saving is the step's temporaries: the partition in fp32 less the freed bf16 flat copy
    # (the allocator's fragmentation term follows the phase)
    assert P * 2 <= found[0].saved_bytes <= P * 2 * 1.05
    # never suggested when the config already has one, or unknown
    for twin in (False, None):
        plain = EstimateInput(arch=ARCH, mode="train", precision="bf16", micro_batch=1, seq_len=128,
                              zero_stage=2, world_size=1, torch_version="2.1.2",
                              zero_client_optimizer=twin)
        assert not [r for r in remediate(plain, gpu) if "optimizer` block" in r.description]


def test_foreach_adamw_before_torch_2_1_holds_the_denominator_too():
    # torch 2.0.x: sqrt(exp_avg_sq) and `denom = _foreach_add(sqrt, eps)` both alive (pytorch
    # #104898 made the add in place for 2.1): two fp32 lists the size of the trained weights
    one_gpu = dict(arch=ARCH, mode="train", precision="fp32", micro_batch=1, seq_len=128)
    old = estimate(EstimateInput(torch_version="2.0.1", **one_gpu))
    new = estimate(EstimateInput(torch_version="2.1.0", **one_gpu))
    assert temps(old) == 2 * P * 4
    assert temps(new) == P * 4
    # under ZeRO with the Trainer's optimizer: two partition-sized lists, less the flat copy
    part = P / 4
    assert temps(run(zero_client_optimizer=True, torch_version="2.0.1")) == 2 * part * 4 - part * 2
