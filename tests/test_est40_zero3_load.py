"""ZeRO-3 on a model built outside ``deepspeed.zero.Init``: the whole 16-bit model reaches every GPU
before it is partitioned, and under parameter offload the partitions are made in host memory
(DeepSpeed 0.9.0 ``engine.py`` 1037-1051, ``parameter_offload.py`` 281-298,
``partition_parameters.py`` 1105-1116), and without it each parameter's whole copy is freed
right after its partition is made (``free_param``, line 1155). Held-out-20's ChatGLM-Finetuning ZeRO-3 rows state where
the job's train.py puts the model (est40, in-sample)."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from preflight.audit import build_plan
from preflight.estimate import EstimateInput, estimate
from preflight.estimate.arch import from_hf_config
from preflight.estimate.params import count_params

REPO = Path(__file__).resolve().parents[1]
NEOX = {"model_type": "gpt_neox", "architectures": ["GPTNeoXForCausalLM"], "hidden_size": 1024,
        "intermediate_size": 4096, "num_hidden_layers": 4, "num_attention_heads": 16, "vocab_size": 8192,
        "rotary_pct": 0.5, "hidden_act": "gelu", "use_parallel_residual": False, "tie_word_embeddings": True}
ARCH = from_hf_config(NEOX, name="neox-small")


def _job(**changes):
    base = dict(arch=ARCH, mode="train", precision="fp16", optimizer="adamw", micro_batch=1, seq_len=128,
                grad_ckpt=True, attention="eager", zero_stage=3, world_size=4, load_placement="gpu",
                offload_optimizer="cpu", offload_params="cpu", deepspeed_version="0.9.0")
    base.update(changes)
    return estimate(EstimateInput(**base))


def test_parameter_offload_puts_only_the_whole_model_on_the_gpu_at_load():
    total = count_params(ARCH).total
    est = _job()
    # DeepSpeed casts the module to fp16 and moves it whole to the GPU: 2 bytes x P
    assert est.phases["load"]["weights"] == total * 2
    # the rank's partitions are made on the offload device (host memory): none on the GPU
    assert est.phases["load"].get("load_transient", 0) == 0
    assert any("partitions are made in host memory" in n for n in est.notes)


def test_without_parameter_offload_one_partition_at_a_time_is_made_beside_it():
    total = count_params(ARCH).total
    est = _job(offload_params=None)
    assert est.phases["load"]["weights"] == total * 2
    # each parameter's partition is copied out and its whole copy freed before the next: the
    # largest tensor (the 8,192 x 1,024 tied table, larger than a 4,096 x 1,024 MLP matrix) in
    # fp16, over 4 ranks, not 2 x P / 4
    assert est.phases["load"]["load_transient"] == 8192 * 1024 * 2 / 4
    assert any("one at a time" in n for n in est.notes)


@pytest.mark.parametrize("placement", ["sharded", None])
def test_twins_built_under_zero_init_or_unknown_have_no_load_phase(placement):
    est = _job(load_placement=placement)
    assert "load" not in est.phases
    assert not any("outside deepspeed.zero.Init" in n for n in est.notes)


def test_the_job_shape_reads_gpu_and_the_rows_state_it(tmp_path):
    # ChatGLM-Finetuning's train.py, reduced: from_pretrained, then deepspeed.initialize on it,
    # no zero.Init and no HfDeepSpeedConfig anywhere
    (tmp_path / "train.py").write_text(textwrap.dedent("""\
        import deepspeed
        from model import MODE


        def main(args, ds_config):
            model = MODE[args.mode]["model"].from_pretrained(args.model_name_or_path)
            model, optimizer, _, lr_scheduler = deepspeed.initialize(model=model, args=args, config=ds_config,
                                                                     dist_init_required=True)
    """), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path)
    assert plan.value("model.load_placement") == "gpu"
    rows = json.loads((REPO / "calibration/public/heldout20.json").read_text(encoding="utf-8"))["rows"]
    zero3 = [r for r in rows if r["setup"].get("zero_stage") == 3]
    assert len(zero3) == 3
    assert all(r["setup"]["load_placement"] == "gpu" and any("est40" in u for u in r["unknown"]) for r in zero3)


def test_the_offload_rows_are_charged_the_whole_fp16_model():
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    rows = json.loads((REPO / "calibration/public/heldout20.json").read_text(encoding="utf-8"))["rows"]
    row = next(r for r in rows if r["id"].endswith("chatglm-6b-full-ft-zero3-offload-fp16-s1560-4xa40"))
    inp, _ = pa.estimate_input(row["setup"])
    est = estimate(inp)
    # ChatGLM-6B: 28 blocks of 4h x 3h + h x h + 2 x h x 16,384 (with biases) and LayerNorms, the
    # tied 130,528 x 4,096 table, the final LayerNorm: about 6.17B parameters in fp16
    total = count_params(inp.arch).total
    assert 6.1e9 < total < 6.25e9
    assert est.phases["load"]["weights"] == total * 2
    assert est.phase == "load"
