"""Behaviours of the det135 extensions as a user sees them (issue 18; programs written here): PF689 on a
two-node accelerate job launched from one script over ssh (each node its own config), and PF268 on a launch
script whose comment names the GPU, audited the way the job is launched."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

TRAIN = """\
    import torch
    from accelerate import Accelerator


    def main():
        accelerator = Accelerator()
        model = torch.nn.Linear(16, 2)
        optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
        model, optimizer = accelerator.prepare(model, optimizer)


    if __name__ == "__main__":
        main()
    """

NODE = """\
    compute_environment: LOCAL_MACHINE
    distributed_type: MULTI_GPU
    gpu_ids: {gpu_ids}
    machine_rank: {rank}
    main_process_ip: 10.0.0.11
    main_process_port: 5000
    num_machines: 2
    num_processes: {procs}
    rdzv_backend: static
    same_network: true
    """

LAUNCH = """\
    #!/bin/bash
    ssh node0 "cd ~/proj && accelerate launch --config_file node0.yaml train.py" &
    ssh node1 "cd ~/proj && accelerate launch --config_file node1.yaml train.py" &
    wait
    """


def write(tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")


def findings(cli, tmp_path: Path, *argv: str) -> list[tuple[str, str, int, str]]:
    result = cli(*argv, "--format", "json", "--no-cache", "--exit-zero", cwd=tmp_path)
    return [(f["code"], Path(f["path"]).name, f["line"], f["severity"])
            for f in json.loads(result.out)["findings"]]


def two_nodes(cli, tmp_path: Path, procs: int, gpu_ids0: str, gpu_ids1: str) -> list[tuple[str, str, int, str]]:
    write(tmp_path, "train.py", TRAIN)
    write(tmp_path, "node0.yaml", NODE.format(gpu_ids=gpu_ids0, rank=0, procs=procs))
    write(tmp_path, "node1.yaml", NODE.format(gpu_ids=gpu_ids1, rank=1, procs=procs))
    write(tmp_path, "launch_two_nodes.sh", LAUNCH)
    argv = ("audit", "launch_two_nodes.sh", "train.py", "--config", "node0.yaml", "--config", "node1.yaml")
    return [f for f in findings(cli, tmp_path, *argv) if f[0] == "PF689"]


def test_pf689_reports_the_node_whose_gpus_cannot_hold_the_per_node_share(cli, tmp_path):
    # 10 processes meant as 8 + 2 (accelerate issue 3894): 5 start on each node
    found = two_nodes(cli, tmp_path, 10, "0,1,2,3,4,5,6,7", "0,1")
    assert ("PF689", "node1.yaml", 8, "error") in found
    assert ("PF689", "node0.yaml", 8, "warning") in found


def test_pf689_is_silent_when_every_node_runs_one_process_per_listed_gpu(cli, tmp_path):
    assert two_nodes(cli, tmp_path, 4, "0,1", "0,1") == []


def colab(cli, tmp_path: Path, comment: str, precision: str) -> list[tuple[str, str, int, str]]:
    write(tmp_path, "train_network.py", TRAIN)
    write(tmp_path, "scripts/train_lora.sh", f"""\
        #!/bin/bash
        {comment}
        accelerate launch --mixed_precision {precision} train_network.py --output_dir out
        """)
    return [f for f in findings(cli, tmp_path, "audit", "scripts/train_lora.sh") if f[0] == "PF268"]


def test_pf268_reports_bf16_on_the_t4_the_launch_script_says_it_runs_on(cli, tmp_path):
    assert colab(cli, tmp_path, "# Colab runtime: NVIDIA T4 (16 GB)", "bf16") == [("PF268", "train_lora.sh", 2, "error")]


def test_pf268_is_silent_for_fp16_on_the_t4_and_for_a_comment_that_hedges(cli, tmp_path):
    assert colab(cli, tmp_path, "# Colab runtime: NVIDIA T4 (16 GB)", "fp16") == []
    assert colab(cli, tmp_path, "# tested on a T4; bf16 needs an A100", "bf16") == []
