"""Framework rules (PF4xx code rules, PF5xx plan/config rules) on small realistic projects.

Each project under tests/fixtures/frameworks/ is audited the way a user would run
``preflight audit``; the buggy ones must produce exactly the listed findings of the
framework rules (code, file, line), the clean twins none.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from preflight.plan_rules import PlanRule, split_example
from preflight.registry import all_rules

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "frameworks"


def framework_findings(cli, project: str, *args: str, tmp_path: Path) -> list[tuple[str, str, int]]:
    """(code, path, line) of the PF4xx/PF5xx findings of an audit run inside a copy of ``project``."""
    work = tmp_path / project
    shutil.copytree(FIXTURES / project, work)
    result = cli("audit", "--no-cache", "--format", "json", *args, cwd=work)
    assert result.code in (0, 1), result.err
    doc = json.loads(result.out)
    return sorted((f["code"], f["path"], f["line"]) for f in doc["findings"] if f["code"][:3] in ("PF4", "PF5"))


AUDITS = [
    ("accelerate_buggy", ("train.py", "--config", "accelerate.yaml"),
     [("PF402", "train.py", 25), ("PF403", "train.py", 16)]),
    ("accelerate_buggy", ("fp16_finetune.py", "--config", "accelerate.yaml"),
     # the script's fp16 beats the config's bf16: a conflict, reported with both places
     [("PF401", "fp16_finetune.py", 11), ("PF501", "fp16_finetune.py", 18)]),
    ("lightning_buggy", ("train.py", "model.py"),
     [("PF404", "model.py", 37), ("PF405", "train.py", 8), ("PF405", "train.py", 8)]),
    ("hf_buggy", ("sft/sft.py",),
     [("PF406", "sft/sft.py", 12), ("PF407", "sft/sft.py", 21), ("PF408", "sft/sft.py", 19),
      ("PF409", "sft/sft.py", 23), ("PF410", "sft/sft.py", 27)]),
    ("hf_buggy", ("zero3/finetune.py", "--config", "zero3/ds_zero3.json"),
     [("PF413", "zero3/finetune.py", 7), ("PF505", "zero3/ds_zero3.json", 4)]),
    ("deepspeed_buggy", ("train.py", "--config", "ds_config.json", "--", "deepspeed", "--num_nodes", "1",
                         "--num_gpus", "8", "train.py", "--deepspeed_config", "ds_config.json"),
     [("PF502", "ds_config.json", 2), ("PF503", "ds_config.json", 6), ("PF504", "ds_config.json", 10)]),
    ("hf4_fsdp_buggy", ("train.py",),
     [("PF411", "train.py", 5), ("PF412", "train.py", 5), ("PF506", "train.py", 6)]),
]

CLEAN = [
    ("accelerate_clean", ("train.py", "--config", "accelerate.yaml")),
    ("accelerate_clean", ("fp16_finetune.py", "--config", "accelerate_fp16.yaml")),
    ("lightning_clean", ("train.py", "model.py")),
    ("hf_clean", ("sft/sft.py",)),
    ("hf_clean", ("zero3/finetune.py", "--config", "zero3/ds_zero3.json")),
    ("deepspeed_clean", ("train.py", "--config", "ds_config.json", "--", "deepspeed", "--num_nodes", "1",
                         "--num_gpus", "8", "train.py", "--deepspeed_config", "ds_config.json")),
]


@pytest.mark.parametrize("project,args,expected", AUDITS, ids=[f"{p}-{a[0]}" for p, a, _ in AUDITS])
def test_buggy_project_findings(cli, tmp_path, project, args, expected):
    assert framework_findings(cli, project, *args, tmp_path=tmp_path) == sorted(expected)


@pytest.mark.parametrize("project,args", CLEAN, ids=[f"{p}-{a[0]}" for p, a in CLEAN])
def test_clean_twin_is_silent(cli, tmp_path, project, args):
    assert framework_findings(cli, project, *args, tmp_path=tmp_path) == []


def test_config_finding_points_at_the_key_line_with_its_evidence(cli, tmp_path):
    work = tmp_path / "p"
    shutil.copytree(FIXTURES / "deepspeed_buggy", work)
    result = cli("audit", "train.py", "--config", "ds_config.json", "--no-cache", "--select", "PF502",
                 "--", "torchrun", "--nproc_per_node", "8", "train.py", cwd=work)
    assert result.code == 1
    assert "ds_config.json:2:3: PF502 train_batch_size 32 != 4 (micro) x 2 (accumulation) x 8 (world size)" in result.out
    assert "evidence: line 3: train_micro_batch_size_per_gpu = 4" in result.out
    assert "world size 8" in result.out or "torchrun" in result.out


def test_world_size_from_the_launch_decides_the_batch_triple(cli, tmp_path):
    # 32 = 4 x 2 x 4: right for 4 processes, wrong for 8
    four = framework_findings(cli, "deepspeed_buggy", "train.py", "--config", "ds_config.json", "--select",
                              "PF502", "--", "torchrun", "--nproc_per_node", "4", "train.py", tmp_path=tmp_path / "a")
    eight = framework_findings(cli, "deepspeed_buggy", "train.py", "--config", "ds_config.json", "--select",
                               "PF502", "--", "torchrun", "--nproc_per_node", "8", "train.py",
                               tmp_path=tmp_path / "b")
    assert four == []
    assert eight == [("PF502", "ds_config.json", 2)]


def test_plan_rules_do_not_run_in_check(cli, tmp_path):
    """`check` reads one file at a time; the project rules need the audit's plan."""
    work = tmp_path / "p"
    shutil.copytree(FIXTURES / "hf_buggy", work)
    result = cli("check", "sft/sft.py", "--no-cache", "--format", "json", cwd=work)
    codes = {f["code"] for f in json.loads(result.out)["findings"]}
    assert {"PF408", "PF409"} <= codes  # single-file framework rules run in check
    assert not codes & {"PF406", "PF407", "PF410"}


def test_noqa_suppresses_a_plan_rule_finding_in_a_script(cli, tmp_path):
    work = tmp_path / "p"
    shutil.copytree(FIXTURES / "hf_buggy", work)
    sft = work / "sft" / "sft.py"
    lines = sft.read_text().splitlines()
    assert "max_seq_length" in lines[26]
    lines[26] += "  # noqa: PF410"
    sft.write_text("\n".join(lines) + "\n")
    result = cli("audit", "sft/sft.py", "--no-cache", "--format", "json", cwd=work)
    assert "PF410" not in {f["code"] for f in json.loads(result.out)["findings"]}


def test_undeclared_version_downgrades_the_version_rules_to_warnings(cli, tmp_path):
    work = tmp_path / "p"
    shutil.copytree(FIXTURES / "hf_buggy", work)
    (work / "requirements.txt").unlink()
    result = cli("audit", "sft/sft.py", "--no-cache", "--format", "json", cwd=work)
    by_code = {f["code"]: f for f in json.loads(result.out)["findings"]}
    assert by_code["PF407"]["severity"] == "warning"
    assert by_code["PF410"]["severity"] == "warning"
    assert "latest" in by_code["PF407"]["message"]


def test_old_trl_and_transformers_pins_silence_the_version_rules(cli, tmp_path):
    work = tmp_path / "p"
    shutil.copytree(FIXTURES / "hf_buggy", work)
    (work / "requirements.txt").write_text("transformers==4.45.2\ntrl==0.12.2\n")
    result = cli("audit", "sft/sft.py", "--no-cache", "--format", "json", cwd=work)
    codes = {f["code"] for f in json.loads(result.out)["findings"]}
    assert not codes & {"PF407", "PF410"}
    # det67: a pin before 4.46 silences PF406's accumulation form too (that Trainer never passes
    # num_items_in_batch and divides by the window itself; held-out-29's trl 1186 twin)
    assert "PF406" not in codes
    (work / "requirements.txt").write_text("transformers>=4.45.2\ntrl==0.12.2\n")  # a bound may install 4.46+
    result = cli("audit", "sft/sft.py", "--no-cache", "--format", "json", cwd=work)
    assert "PF406" in {f["code"] for f in json.loads(result.out)["findings"]}


def _write_example(example: str, folder: Path) -> None:
    files, _ = split_example(example)
    for name, text in files.items():
        (folder / name).write_text(text)


def test_plan_conflict_names_both_sources_and_the_winner(cli, tmp_path):
    _write_example(all_rules()["PF501"].bad_examples[1], tmp_path)
    result = cli("audit", "train.py", "--config", "accelerate.yaml", "--no-cache", "--select", "PF501",
                 cwd=tmp_path)
    assert result.code == 1
    assert ("train.py:3:1: PF501 `precision.mode` is set to different values: amp_fp16 from train.py:3; "
            "amp_bf16 from accelerate.yaml:3 [mixed_precision]. The framework uses amp_fp16 (train.py:3)") \
        in result.out
    assert "evidence: accelerate.yaml:3: precision.mode = amp_bf16 (ignored)" in result.out


def test_hf_trainer_and_deepspeed_mismatch_is_an_error(cli, tmp_path):
    _write_example(all_rules()["PF501"].bad_examples[0], tmp_path)
    result = cli("audit", "train.py", "--config", "ds.json", "--no-cache", "--format", "json", "--select",
                 "PF501", cwd=tmp_path)
    (finding,) = json.loads(result.out)["findings"]
    assert (finding["path"], finding["line"], finding["severity"]) == ("ds.json", 2, "error")
    assert "4 from ds.json:2 [train_micro_batch_size_per_gpu]; 8 from train.py:3" in finding["message"]
    assert "mismatch TrainingArguments" in finding["message"]


def test_plan_rules_are_listed_and_explained(cli):
    codes = [c for c, cls in all_rules().items() if issubclass(cls, PlanRule)]
    assert {"PF405", "PF406", "PF407", "PF410", "PF411", "PF413", "PF501", "PF502", "PF503", "PF504",
            "PF505", "PF506"} <= set(codes)
    listed = cli("rules")
    assert "PF502" in listed.out and "PF401" in listed.out
    explained = cli("explain", "PF502")
    assert explained.code == 0 and "train_batch_size" in explained.out


# -- the raw-PyTorch rules know the frameworks --------------------------------------------------

def test_no_sampler_or_zero_grad_findings_for_framework_loops(cli, tmp_path):
    """Lightning injects the DistributedSampler and zeroes gradients; prepared Accelerate
    loaders are sharded; DeepSpeed's step clears gradients."""
    for project, args in (("lightning_clean", ("train.py", "model.py")),
                          ("accelerate_clean", ("train.py",)),
                          ("deepspeed_clean", ("train.py", "--config", "ds_config.json"))):
        work = tmp_path / project
        shutil.copytree(FIXTURES / project, work)
        result = cli("audit", *args, "--no-cache", "--format", "json", "--select", "PF103,PF201,PF202",
                     cwd=work)
        assert json.loads(result.out)["findings"] == [], project


def test_plan_rules_run_on_a_saved_plan_and_obey_ignore(cli, tmp_path):
    _write_example(all_rules()["PF501"].bad_examples[0], tmp_path)
    emitted = cli("audit", "train.py", "--config", "ds.json", "--emit-plan", "json", cwd=tmp_path)
    (tmp_path / "plan.json").write_text(emitted.out)
    from_plan = cli("audit", "--plan", "plan.json", "--no-cache", "--format", "json", cwd=tmp_path)
    assert [(f["code"], f["path"], f["line"]) for f in json.loads(from_plan.out)["findings"]] == [
        ("PF501", "ds.json", 2)]
    ignored = cli("audit", "train.py", "--config", "ds.json", "--no-cache", "--format", "json",
                  "--ignore", "PF501", cwd=tmp_path)
    assert "PF501" not in {f["code"] for f in json.loads(ignored.out)["findings"]}


def test_stated_transformers_version_applies_when_the_project_declares_none(cli, tmp_path):
    work = tmp_path / "p"
    shutil.copytree(FIXTURES / "hf_buggy", work)
    (work / "requirements.txt").unlink()
    old = cli("audit", "--no-cache", "--format", "json", "--transformers-version", "4.44.2", "sft/sft.py", cwd=work)
    assert "PF407" not in {f["code"] for f in json.loads(old.out)["findings"]}
    new = cli("audit", "--no-cache", "--format", "json", "--transformers-version", "5.1.0", "sft/sft.py", cwd=work)
    (pf407,) = [f for f in json.loads(new.out)["findings"] if f["code"] == "PF407"]
    assert pf407["severity"] == "error" and "transformers 5.1.0 as stated with --transformers-version" in pf407[
        "message"]
