"""Job rules PF70x: every documented example runs through the gate (bad ones are
flagged, good ones stay silent), and their documentation is reachable."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from preflight.cli import main
from preflight.diagnostics import Severity
from preflight.gate.cluster import cluster_from_data
from preflight.gate.rules import job_rules
from preflight.gate.verdict import GateRequest, gate

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "gate" / "slurm"
RULES = job_rules()
CLUSTER = {"partitions": {"a100": "a100-80gb"}, "gres_types": {"a100": "a100-80gb"}}


def gate_example(text: str, folder: Path):
    """Write the example's job, its train.py (the HF fine-tuning fixture with the model of a
    `# model: ID` line, gpt2 by default) and any `# NAME.json: {...}` config, then gate it."""
    text = textwrap.dedent(text)
    model = re.search(r"^# model: (\S+)", text, re.M)
    template = (FIXTURES / "finetune_small.py").read_text()
    (folder / "train.py").write_text(template.replace('MODEL = "gpt2"', f'MODEL = "{model.group(1) if model else "gpt2"}"'))
    for m in re.finditer(r"^# ([\w.-]+\.json): (.*)$", text, re.M):
        (folder / m.group(1)).write_text(m.group(2))
    (folder / "job.sh").write_text(text)
    return gate(GateRequest(job_path=folder / "job.sh", display="job.sh", root=folder,
                            cluster=cluster_from_data(CLUSTER)))


BAD = [(code, i, ex) for code, cls in RULES.items() for i, ex in enumerate(cls.bad_examples)]
GOOD = [(code, i, ex) for code, cls in RULES.items() for i, ex in enumerate(cls.good_examples)]


@pytest.mark.parametrize("code,index,example", BAD, ids=[f"{c}-bad{i}" for c, i, _ in BAD])
def test_bad_example_is_flagged(code, index, example, tmp_path):
    result = gate_example(example, tmp_path)
    assert [f for f in result.findings if f.code == code], result.text()
    assert result.decision in ("reject", "admit")


@pytest.mark.parametrize("code,index,example", GOOD, ids=[f"{c}-good{i}" for c, i, _ in GOOD])
def test_good_example_is_silent(code, index, example, tmp_path):
    result = gate_example(example, tmp_path)
    assert not [f for f in result.findings if f.code == code], result.text()


@pytest.mark.parametrize("code", sorted(RULES))
def test_metadata_is_complete(code):
    cls = RULES[code]
    assert re.fullmatch(r"PF7\d\d", code)
    assert cls.summary and not cls.summary.endswith(".")
    assert len(cls.explanation.strip()) > 200
    assert len(cls.good_examples) >= 2 and len(cls.bad_examples) >= 1


def test_job_rules_do_not_read_python_files():
    for cls in RULES.values():
        assert list(cls().check(None)) == []


def test_explain_prints_a_job_rule(capsys):
    assert main(["gate", "--explain", "PF702"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# PF702 `gpus-per-node-with-gres`")
    assert "TresPerNode" in out


def test_explain_unknown_job_rule_is_a_usage_error(capsys):
    assert main(["gate", "--explain", "PF799"]) == 2
    assert "unknown job rule" in capsys.readouterr().err


def test_sbatch_directive_after_command_on_a_gpu_option_is_an_error(tmp_path):
    result = gate_example("""\
        #!/bin/bash
        #SBATCH --partition=a100
        set -e
        #SBATCH --gres=gpu:a100:1
        python train.py
        """, tmp_path)
    pf703 = [f for f in result.findings if f.code == "PF703"]
    assert len(pf703) == 1 and pf703[0].severity.label == "error" and pf703[0].span.line == 4
    assert result.job.gpus_per_node == 0  # the ignored --gres does not count
    assert result.decision == "reject"


def test_lightning_devices_against_tasks_per_node(tmp_path):
    (tmp_path / "train.py").write_text(textwrap.dedent("""\
        import lightning as L
        from model import LitModel
        trainer = L.Trainer(accelerator="gpu", devices=4, strategy="ddp")
        trainer.fit(LitModel())
        """))
    (tmp_path / "job.sh").write_text(textwrap.dedent("""\
        #!/bin/bash
        #SBATCH --partition=a100
        #SBATCH --nodes=1
        #SBATCH --ntasks-per-node=8
        #SBATCH --gres=gpu:a100:8
        srun python train.py
        """))
    result = gate(GateRequest(job_path=tmp_path / "job.sh", display="job.sh", root=tmp_path,
                              cluster=cluster_from_data(CLUSTER), allow_unknown=True))
    messages = [f.message for f in result.findings if f.code == "PF701"]
    assert any("devices=4" in m and "8 task(s) per node" in m for m in messages), result.text()


_SPAWNING = """\
    import torch
    import torch.multiprocessing as mp

    def worker(gpu, n):
        torch.distributed.init_process_group("nccl", rank=gpu, world_size=n)
        model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(4, 4).cuda(gpu))

    if __name__ == "__main__":
        n = torch.cuda.device_count()
        mp.spawn(worker, nprocs={nprocs}, args=(n,))
    """


def _gate_spawning(tmp_path: Path, script: str):
    (tmp_path / "train.py").write_text(textwrap.dedent(script))
    (tmp_path / "job.sh").write_text(textwrap.dedent("""\
        #!/bin/bash
        #SBATCH --partition=a100
        #SBATCH --nodes=1
        #SBATCH --ntasks=1
        #SBATCH --gres=gpu:a100:4
        srun -N 1 -n 1 python train.py
        """))
    result = gate(GateRequest(job_path=tmp_path / "job.sh", display="job.sh", root=tmp_path,
                              cluster=cluster_from_data(CLUSTER), allow_unknown=True))
    return [f for f in result.findings if f.code == "PF701"], result


def test_pf701_counts_the_processes_a_task_spawns_itself(tmp_path):
    # MedSAM's train_multi_gpus.py (set 32): one srun task per node, mp.spawn over device_count()
    found, result = _gate_spawning(tmp_path, _SPAWNING.format(nprocs="n"))
    assert found == [], result.text()


def test_pf701_twin_a_task_that_spawns_too_few_still_leaves_gpus_idle(tmp_path):
    found, result = _gate_spawning(tmp_path, _SPAWNING.format(nprocs="2"))
    assert [f.severity for f in found] == [Severity.WARNING], result.text()
    assert "only 2 process(es) per node" in found[0].message
    assert "each task spawns 2" in " ".join(e.message for e in found[0].evidence)


def test_pf701_twin_a_task_that_spawns_nothing_leaves_gpus_idle(tmp_path):
    found, result = _gate_spawning(tmp_path, "import torch\nmodel = torch.nn.Linear(4, 4).cuda()\n")
    assert len(found) == 1 and "only 1 process(es) per node" in found[0].message, result.text()
