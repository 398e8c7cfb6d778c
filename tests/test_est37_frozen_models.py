"""est37: frozen models beside the trained one (a DPO/KTO/GRPO reference model, PPO's reward
model): the estimator input, its CLI flag, the plan path from TRL's trainers and the scorer's
row (preflight/estimate/frozen_models.py)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from preflight import architectures
from preflight.audit import build_plan
from preflight.estimate import EstimateInput, estimate, input_from_plan
from preflight.estimate.inputs import InputError
from preflight.estimate.model import _params

ROOT = Path(__file__).resolve().parents[1]
LLAMA = architectures.lookup("Llama-2-7B")


def _est(**kw):
    base = dict(arch=LLAMA, mode="train", precision="bf16", optimizer="adamw", micro_batch=2,
                seq_len=1024, grad_ckpt=True, attention="sdpa", world_size=8, zero_stage=3,
                torch_version="2.3.1", transformers_version="4.42.4")
    base.update(kw)
    return estimate(EstimateInput(**base))


def test_zero3_reference_is_sharded_in_16_bits_in_every_phase():
    # trl/models/utils.py prepare_deepspeed: "If ZeRO-3 is used, we shard both the active and
    # reference model"; OpenRLHF get_ds_eval_config(stage=3 if stage == 3 else 0, bf16=...)
    est = _est(frozen_models=1)
    total = est.params_total
    by_hand = total * 2 / 8
    for phase in ("forward", "backward", "optimizer"):
        assert est.phases[phase]["frozen_weights"] == round(by_hand)
    # the reference's no-grad forward runs while the policy's graph is alive (OpenRLHF's DPO
    # trainer: the policy's concatenated_forward, then the reference's under torch.no_grad()):
    # at least its bf16 logits (batch x tokens x vocabulary x 2 bytes) and one gathered layer
    # at least its bf16 logits (batch x tokens x vocabulary x 2 bytes) and what its ZeRO-3
    # engine gathers at once: the largest module (a block here: Llama-2-7B's untied head is
    # 32000 x 4096) and the prefetch bucket (stage3_prefetch_bucket_size, 5e7 elements)
    prm = _params(LLAMA, None)
    assert prm.layer > prm.lm_head
    gathered = (prm.layer + 5e7) * 2
    assert est.phases["forward"]["frozen_forward"] >= 2 * 1024 * 32000 * 2 + gathered
    same_forward = _est(zero_stage=0, world_size=1, frozen_models=1)
    assert (est.phases["forward"]["frozen_forward"] - same_forward.phases["forward"]["frozen_forward"]
            == pytest.approx(gathered, abs=4))
    assert "frozen_forward" not in est.phases["backward"]
    without = _est()
    assert est.peak_bytes > without.peak_bytes
    assert any("1 frozen model" in n and "sharded over 8 GPUs" in n for n in est.notes)


def test_zero2_and_ddp_hold_a_whole_replica():
    # prepare_deepspeed: any stage but 3 becomes stage 0 (a replica on every GPU), and the
    # engine casts it to bf16 under autocast; DDP: accelerator.prepare_model(evaluation_mode=True)
    zero2 = _est(zero_stage=2, precision="amp-bf16", frozen_models=1)
    assert zero2.phases["forward"]["frozen_weights"] == round(zero2.params_total * 2)
    ddp = _est(zero_stage=0, precision="fp32", frozen_models=1)
    assert ddp.phases["optimizer"]["frozen_weights"] == round(ddp.params_total * 4)
    # two frozen copies (PPO's reference and reward model of the policy's architecture)
    two = _est(zero_stage=0, precision="fp32", frozen_models=2)
    assert two.phases["optimizer"]["frozen_weights"] == round(two.params_total * 4 * 2)


def test_fsdp_hybrid_shards_within_the_node():
    est = _est(zero_stage=0, fsdp="hybrid", world_size=16, devices_per_node=8, frozen_models=1)
    assert est.phases["forward"]["frozen_weights"] == round(est.params_total * 2 / 8)


def test_offloaded_reference_holds_only_its_running_layer():
    est = _est(frozen_models=1, frozen_offload=True)
    assert "frozen_weights" not in est.phases["forward"]
    prm = _params(LLAMA, None)
    plain = _est(frozen_models=1)
    # the offloaded copy's forward gathers what the sharded one does
    assert est.phases["forward"]["frozen_forward"] == plain.phases["forward"]["frozen_forward"]
    assert est.phases["forward"]["frozen_forward"] >= prm.layer * 2


def test_fsdp_reference_keeps_its_root_unit_gathered():
    est = _est(zero_stage=0, fsdp="full", frozen_models=1)
    one = _est(zero_stage=0, world_size=1, frozen_models=1)
    prm = _params(LLAMA, None)
    extra = est.phases["forward"]["frozen_forward"] - one.phases["forward"]["frozen_forward"]
    assert extra == pytest.approx((prm.embeddings + prm.lm_head + prm.layer) * 2, abs=4)


def test_frozen_bits_four_quantizes_the_block_matrices():
    est = _est(zero_stage=0, world_size=1, frozen_models=1, frozen_bits=4)
    prm = _params(LLAMA, None)
    by_hand = prm.quantizable * 4 / 8 + (prm.total - prm.quantizable) * 2
    assert est.phases["forward"]["frozen_weights"] == round(by_hand)


def test_no_frozen_model_changes_nothing():
    a, b = _est(), _est(frozen_models=0)
    assert a.phases == b.phases


@pytest.mark.parametrize("changes,match", [({"frozen_models": -1}, "frozen models"),
                                          ({"frozen_bits": 3}, "frozen-model bits")])
def test_bad_frozen_values_are_input_errors(changes, match):
    with pytest.raises(InputError, match=match):
        input_from_plan(None, {"seq_len": 512, **changes})


_DPO = """
    from transformers import AutoModelForCausalLM
    from trl import DPOConfig, DPOTrainer
    {imports}
    model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf")
    trainer = DPOTrainer(model=model, args=DPOConfig(output_dir="o"), train_dataset=None{extra})
    trainer.train()
"""


def _dpo_input(tmp_path, imports="", extra=""):
    (tmp_path / "train.py").write_text(textwrap.dedent(_DPO.format(imports=imports, extra=extra)),
                                       encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path)
    return input_from_plan(plan, {"seq_len": 512})


def test_trl_dpo_full_fine_tune_holds_a_reference_copy(tmp_path):
    inp = _dpo_input(tmp_path)
    assert inp.frozen_models == 1
    assert inp.sources["frozen_models"].startswith("train.py:")


def test_trl_dpo_with_peft_uses_the_base_as_reference(tmp_path):
    # dpo_trainer.py: ref_model None and is_peft_model(model) -> self.ref_model = None
    inp = _dpo_input(tmp_path, "from peft import LoraConfig", ", peft_config=LoraConfig(r=8)")
    assert inp.frozen_models == 0 and inp.lora


def test_trl_dpo_with_peft_and_an_explicit_reference(tmp_path):
    inp = _dpo_input(tmp_path, "from peft import LoraConfig",
                     ", peft_config=LoraConfig(r=8), ref_model=AutoModelForCausalLM.from_pretrained('x/y')")
    assert inp.frozen_models == 1


def test_trl_dpo_positional_reference(tmp_path):
    # DPOTrainer(model, ref_model, args=...): the second positional argument
    code = """
        from transformers import AutoModelForCausalLM
        from trl import DPOConfig, DPOTrainer
        from peft import LoraConfig
        model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf")
        model_ref = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf")
        trainer = DPOTrainer(model, {ref}, args=DPOConfig(output_dir="o"), peft_config=LoraConfig(r=8))
        trainer.train()
    """
    for ref, copies in (("model_ref", 1), ("None", 0)):
        (tmp_path / "train.py").write_text(textwrap.dedent(code.format(ref=ref)), encoding="utf-8")
        plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path)
        assert input_from_plan(plan, {"seq_len": 512}).frozen_models == copies


@pytest.mark.parametrize("beta, lora, copies", [("0.04", False, 1), ("0.0", False, 0), ("0.04", True, 0),
                                                 (None, False, None)])
def test_trl_grpo_reference_follows_a_written_beta(tmp_path, beta, lora, copies):
    # grpo_trainer.py: beta == 0.0 -> no reference; a PEFT model -> no copy; the default beta
    # differs between TRL releases, so an unwritten beta says nothing
    code = textwrap.dedent("""
        from trl import GRPOConfig, GRPOTrainer
        {imports}
        config = GRPOConfig(output_dir="o"{beta})
        trainer = GRPOTrainer(model="Qwen/Qwen2-0.5B-Instruct", reward_funcs=[], args=config{peft})
        trainer.train()
    """).format(imports="from peft import LoraConfig" if lora else "",
                beta=f", beta={beta}" if beta is not None else "",
                peft=", peft_config=LoraConfig(r=8)" if lora else "")
    (tmp_path / "train.py").write_text(code, encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path)
    assert plan.value("model.frozen_copies") == copies


def test_cli_flag(tmp_path):
    out = subprocess.run([sys.executable, "-m", "preflight", "estimate", "--model", "Llama-2-7B",
                          "--seq-len", "1024", "--batch-size", "1", "--precision", "bf16", "--zero", "3",
                          "--world-size", "8", "--frozen-models", "1", "--format", "json"],
                         capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode in (0, 1), out.stderr
    data = json.loads(out.stdout)
    assert "frozen_weights" in json.dumps(data)
    text = subprocess.run([sys.executable, "-m", "preflight", "estimate", "--model", "Llama-2-7B",
                           "--seq-len", "1024", "--batch-size", "1", "--precision", "bf16", "--zero", "3",
                           "--world-size", "8", "--frozen-models", "1", "--gpu", "A100-SXM-40GB"],
                          capture_output=True, text=True, cwd=tmp_path).stdout
    # est84: the reserved peak is now ZeRO-3's optimizer step (its new segments), whose breakdown has
    # no frozen forward; the forward's term is in the JSON's phases and named in the text's note
    assert "frozen_forward" in json.dumps(data)
    assert "1 frozen copy (reference)" in text and "its no-grad forward adds" in text
    bad = subprocess.run([sys.executable, "-m", "preflight", "estimate", "--model", "Llama-2-7B",
                          "--seq-len", "1024", "--frozen-models", "-2"],
                         capture_output=True, text=True, cwd=tmp_path)
    assert "Traceback" not in bad.stderr and bad.returncode != 0


def test_openrlhf_dpo_row_states_its_reference():
    rows = json.loads((ROOT / "calibration/public/heldout18.json").read_text(encoding="utf-8"))["rows"]
    row = next(r for r in rows if r["id"].startswith("openrlhf-issue-384"))
    assert row["setup"]["frozen_models"] == 1


def test_remedies_for_a_reference_model():
    from preflight import hardware
    from preflight.estimate.remedy import remediate

    gpu = hardware.find("A100-SXM-40GB")
    # a DDP DPO run: a whole bf16 reference replica (12.5 GiB) beside the policy on each GPU
    inp = EstimateInput(arch=LLAMA, mode="train", precision="bf16", optimizer="adamw-8bit", micro_batch=2,
                        seq_len=1024, grad_ckpt=True, attention="sdpa", world_size=2, frozen_models=1,
                        torch_version="2.3.1", transformers_version="4.42.4")
    base = estimate(inp)
    fixes = {r.changes[0]: r for r in remediate(inp, gpu) if len(r.changes) == 1}
    pre = next(r for c, r in fixes.items() if "precompute" in c)
    off = next(r for c, r in fixes.items() if "host memory" in c)
    # precomputing drops the copy and its forward; offloading drops the replica's weights (the
    # peak is in backward, where the copy's forward does not run) but keeps its forward
    without = estimate(EstimateInput(**{**inp.__dict__, "frozen_models": 0}))
    assert pre.saved_bytes == base.peak_bytes - without.peak_bytes
    assert pre.saved_bytes >= off.saved_bytes >= base.params_total * 2
    # an offloaded reference is not told to offload again
    done = remediate(EstimateInput(**{**inp.__dict__, "frozen_offload": True}), gpu)
    assert not any("host memory" in r.description for r in done)
