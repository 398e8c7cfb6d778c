"""The torchtune release a `tune run` job states becomes a plan fact with its source
(`framework.torchtune_version`, adapters/torchtune_version.py): an exact pin in a
requirements file beside the job, or `pip install torchtune==X` in the launch script before
the launch line. Never a lower bound, never another package's pin, never the installed
environment. The estimator reads it from the plan: before 0.3 the recipe keeps its fp32
logits through backward (preflight/estimate/torchtune_loop.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from plan_helpers import fact, plan_of, winner, write

TUNE = """\
    model:
      _component_: torchtune.models.llama2.lora_llama2_7b
      lora_attn_modules: ['q_proj', 'v_proj']
      lora_rank: 8
    tokenizer:
      _component_: torchtune.models.llama2.llama2_tokenizer
      path: /tmp/tokenizer.model
      max_seq_len: 2048
    checkpointer:
      _component_: torchtune.utils.FullModelMetaCheckpointer
    batch_size: 2
    optimizer:
      _component_: torch.optim.AdamW
      lr: 3e-4
    gradient_accumulation_steps: 1
    compile: False
    dtype: bf16
    enable_activation_checkpointing: True
    """

LAUNCH = "tune run lora_finetune_single_device --config my_lora.yaml\n"


def job(tmp_path: Path, launch: str = LAUNCH, **files: str) -> None:
    write(tmp_path, {"my_lora.yaml": TUNE, "run.sh": "#!/bin/bash\n" + launch,
                     **{name.replace("__", "."): text for name, text in files.items()}})


def test_a_pin_in_requirements_beside_the_launch_is_the_version(cli, tmp_path):
    job(tmp_path, requirements__txt="torch==2.3.0\ntorchtune==0.2.1\ntorchao==0.1\n")
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    found = fact(plan, "framework.torchtune_version")
    assert found is not None and found.value == "0.2.1"
    assert found.source.path == "requirements.txt" and found.source.line == 2
    # the recipe runs torchtune's modules: the estimator applies the version only to them
    assert winner(plan, "model.implementation") == "torchtune"


def test_pip_install_in_the_launch_script_wins_and_a_later_one_does_not_count(cli, tmp_path):
    launch = ("pip install -U 'torchtune==0.2.0' torchao\n" + LAUNCH
              + "pip install torchtune==0.4.0\n")
    job(tmp_path, launch, requirements__txt="torchtune==0.3.1\n")
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    found = fact(plan, "framework.torchtune_version")
    assert found is not None and found.value == "0.2.0"
    assert found.source.path == "run.sh" and found.source.line == 2


@pytest.mark.parametrize("files", [
    {"requirements__txt": "torchtune>=0.2\n"},  # a lower bound is not the installed release
    {"requirements__txt": "torch==2.3.0\ntorchao==0.2.0\n"},  # another package's pin
    {"requirements__txt": "pytorch-torchtune-extras==0.2.0\n# torchtune==0.2.0\n"},  # a longer name, a comment
    {},  # nothing stated
])
def test_no_exact_torchtune_pin_leaves_the_version_unknown(cli, tmp_path, files):
    job(tmp_path, **files)
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert fact(plan, "framework.torchtune_version") is None
    assert winner(plan, "model.implementation") == "torchtune"
    if "torchtune>=" in files.get("requirements__txt", ""):
        assert any("torchtune 0.2 is a lower bound" in n for n in plan.get("notes", []))


def test_a_pip_install_echoed_or_commented_is_not_a_pin(cli, tmp_path):
    job(tmp_path, "# pip install torchtune==0.2.0\necho torchtune==0.2.0\n" + LAUNCH)
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert fact(plan, "framework.torchtune_version") is None


def _held(cli, tmp_path: Path) -> int:
    """Bytes of loop-held outputs in the estimate's forward phase (0 when none)."""
    res = cli("estimate", "--gpu", "RTX 4090", "--format", "json", "run.sh", cwd=tmp_path)
    assert res.code in (0, 1, 2), res.err
    out = json.loads(res.out)
    assert out["plan"]["model"]["value"] == "Llama-2-7B"  # lora_llama2_7b read as the catalog's model
    return int(out["phases"]["forward"].get("held_outputs", 0))


def test_the_estimate_follows_the_pinned_release(cli, tmp_path):
    """torchtune 0.2.x keeps the shifted fp32 logits (4 bytes x batch 2 x 2,048 tokens x
    32,000) at loop level into the next forward; 0.3 deletes them, and so does an unpinned job
    (today's recipes)."""
    job(tmp_path, requirements__txt="torchtune==0.2.1\n")
    assert _held(cli, tmp_path) == 4 * 2 * 2048 * 32000
    write(tmp_path, {"requirements.txt": "torchtune==0.3.0\n"})
    assert _held(cli, tmp_path) == 0
    write(tmp_path, {"requirements.txt": "torchtune>=0.2.0\n"})
    assert _held(cli, tmp_path) == 0


@pytest.mark.parametrize("pin, version", [("torchtune==0.2.1", 1), ("torchtune==0.3.0", 2), ("torchtune>=0.2", 2)])
def test_a_distributed_recipe_of_a_release_before_0_3_wraps_in_fsdp1(cli, tmp_path, pin, version):
    """torchtune 0.1-0.2 `*_distributed` recipes: `model = FSDP(...)`; 0.3.0: `training.shard_model`
    (fully_shard, FSDP2); an unpinned job: today's recipes."""
    job(tmp_path, "tune run --nproc_per_node 2 lora_finetune_distributed --config my_lora.yaml\n",
        requirements__txt=pin + "\n")
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert winner(plan, "dist.sharding") == "fsdp_full"
    assert winner(plan, "dist.fsdp_version") == version
