"""The gate fails closed on inputs it did not read (issue 14, item 2).

A job whose DeepSpeed config is outside the job's directories, missing, not a regular file
or unreadable used to be ADMITTED (the estimate ran without the config and said "fits"),
while the same job with the config readable is rejected. Any config the job names that the
gate cannot read makes the fit unknown; unknown rejects unless the policy allows it.
"""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest

from preflight.cli import main

CLUSTER = "partitions:\n  a100: a100-80gb\npolicy:\n  usable_memory: 0.95\n  allow_unknown: false\n"
# a micro batch of 512 sequences of 1,024 tokens: GPT-2 needs ~570 GiB per GPU
DS = '{"train_micro_batch_size_per_gpu": 512, "gradient_accumulation_steps": 1, "bf16": {"enabled": "auto"}}\n'
TRAIN = textwrap.dedent("""\
    import argparse
    from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments
    parser = argparse.ArgumentParser()
    parser.add_argument("--deepspeed")
    parser.add_argument("--local_rank", type=int, default=-1)  # the deepspeed launcher passes it
    args = parser.parse_args()
    tokenizer = AutoTokenizer.from_pretrained("gpt2")
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    data = [tokenizer("x", truncation=True, max_length=1024)]
    training_args = TrainingArguments(output_dir="out", per_device_train_batch_size="auto", bf16=True,
                                      deepspeed=args.deepspeed)
    Trainer(model=model, args=training_args, train_dataset=data).train()
    """)


def job_dir(tmp_path: Path, config: str) -> Path:
    job = tmp_path / "job"
    job.mkdir()
    (job / "cluster.yaml").write_text(CLUSTER)
    (job / "train.py").write_text(TRAIN)
    (job / "job.sh").write_text("#!/bin/bash\n#SBATCH --partition=a100\n#SBATCH --gres=gpu:1\n"
                                f"deepspeed --num_gpus 1 train.py --deepspeed {config}\n")
    return job


def gate_json(job: Path, monkeypatch, capsys, *extra: str) -> tuple[int, dict]:
    monkeypatch.chdir(job)
    code = main(["gate", "job.sh", "--cluster", "cluster.yaml", "--format", "json", *extra])
    return code, json.loads(capsys.readouterr().out)


def test_the_readable_config_is_what_rejects_the_job(tmp_path, monkeypatch, capsys):
    job = job_dir(tmp_path, "ds.json")
    (job / "ds.json").write_text(DS)
    code, verdict = gate_json(job, monkeypatch, capsys)
    assert code == 1 and verdict["fit"]["verdict"] == "oom"
    assert any(r.startswith("PF705 job.sh:4:") for r in verdict["reasons"])


def _outside(job: Path) -> None:
    (job.parent / "ds.json").write_text(DS)


CASES = {
    "parent": ("../ds.json", _outside, "is outside the job's directories"),
    "absolute": ("{outside}", _outside, "is outside the job's directories"),
    "symlink-out": ("link.json", lambda job: (_outside(job), (job / "link.json").symlink_to(job.parent / "ds.json")),
                    "is outside the job's directories"),
    "missing": ("missing.json", lambda job: None, "was not found"),
    "fifo": ("fifo.json", lambda job: os.mkfifo(job / "fifo.json"), "is not a regular file the gate may read"),
    "directory": ("dir.json", lambda job: (job / "dir.json").mkdir(), "is not a regular file the gate may read"),
    "dangling-link": ("gone.json", lambda job: (job / "gone.json").symlink_to(job / "nowhere.json"),
                      "is not a regular file the gate may read"),
    "not-json": ("bad.json", lambda job: (job / "bad.json").write_text('{"train_micro_batch_size_per_gpu": \n'),
                 "bad.json:"),
    "binary": ("bin.json", lambda job: (job / "bin.json").write_bytes(b"\x00\x01\x02" * 10), "bin.json:"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_config_the_gate_did_not_read_makes_the_fit_unknown(tmp_path, monkeypatch, capsys, case):
    name, prepare, why = CASES[case]
    job = job_dir(tmp_path, name.format(outside=tmp_path / "ds.json"))
    prepare(job)
    code, verdict = gate_json(job, monkeypatch, capsys)
    assert verdict["decision"] == "reject" and code == 1, verdict
    assert verdict["fit"]["verdict"] == "unknown"
    reason = next(r for r in verdict["reasons"] if r.startswith("PF704 "))
    assert why in reason and "cannot be trusted" in reason
    # a policy that allows unknowns admits it, with the reason as a warning
    code, verdict = gate_json(job, monkeypatch, capsys, "--allow-unknown")
    assert code == 0 and any(w.startswith("PF704 ") and why in w for w in verdict["warnings"])


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads a mode-000 file")
def test_an_unreadable_config_makes_the_fit_unknown(tmp_path, monkeypatch, capsys):
    job = job_dir(tmp_path, "ds.json")
    (job / "ds.json").write_text(DS)
    (job / "ds.json").chmod(0)
    code, verdict = gate_json(job, monkeypatch, capsys)
    assert code == 1 and verdict["fit"]["verdict"] == "unknown"
    assert any("ds.json" in r and "cannot be trusted" in r for r in verdict["reasons"])


def test_a_job_without_gpus_is_not_rejected_for_an_unread_config(tmp_path, monkeypatch, capsys):
    job = job_dir(tmp_path, "missing.json")
    (job / "job.sh").write_text("#!/bin/bash\ndeepspeed train.py --deepspeed missing.json\n")
    _code, verdict = gate_json(job, monkeypatch, capsys)
    assert verdict["fit"]["verdict"] == "fits" and not any(r.startswith("PF704") for r in verdict["reasons"])


@pytest.mark.parametrize("directives,how", [
    ("#SBATCH --nodes=2\n#SBATCH --gpus=3\n", "--gpus=3 does not divide over 2 nodes"),
    ("#SBATCH --gpus-per-task=1\n", "--gpus-per-task=1 with an unknown number of tasks per node"),
])
def test_gpus_per_node_that_cannot_be_told_make_the_fit_unknown(tmp_path, monkeypatch, capsys, directives, how):
    """Before: no GPU count per node, so no estimate, so no PF704: admitted unread."""
    job = job_dir(tmp_path, "ds.json")
    (job / "ds.json").write_text(DS)
    (job / "job.sh").write_text(f"#!/bin/bash\n#SBATCH --partition=a100\n{directives}srun python train.py\n")
    code, verdict = gate_json(job, monkeypatch, capsys)
    assert code == 1 and verdict["fit"]["verdict"] == "unknown"
    assert any(r.startswith("PF704 ") and how in r for r in verdict["reasons"])
