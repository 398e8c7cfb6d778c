"""``srun`` starting one ``torchrun`` per node (issue 15, set 25: llama-recipes
``getting-started/finetuning/multi_node.slurm`` @ faae2fd: ``#SBATCH --nodes=2 --ntasks=2
--gpus-per-task=4`` then ``srun torchrun --nproc_per_node 4 --rdzv_id $RANDOM --rdzv_backend
c10d --rdzv_endpoint $head_node_ip:29500 ./finetuning.py``). Twins: no shared rendezvous (each
node its own job), torchrun's own ``--nnodes``, several torchruns per node."""

from __future__ import annotations

import shlex

from plan_helpers import fact, plan_of, write
from preflight.adapters.launchers import parse_launch

TRAIN = """\
    import torch
    model = torch.nn.Linear(4, 4)
    model = torch.nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.AdamW(model.parameters())
    loader = torch.utils.data.DataLoader(list(range(64)), batch_size=4)
    for x in loader:
        loss = model(x).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
"""


def _sbatch(cli, tmp_path, directives: str, line: str) -> dict:
    write(tmp_path, {"train.py": TRAIN, "multi_node.slurm": "#!/bin/bash\n" + directives + "\n"
                     + "head_node_ip=$(srun --nodes=1 --ntasks=1 hostname --ip-address)\n" + line + "\n"})
    return plan_of(cli, "multi_node.slurm", cwd=tmp_path)


def test_srun_torchrun_per_node_with_a_shared_rendezvous_spans_the_nodes(cli, tmp_path):
    plan = _sbatch(cli, tmp_path, "#SBATCH --ntasks=2\n#SBATCH --nodes=2\n#SBATCH --gpus-per-task=4",
                   "srun torchrun --nproc_per_node 4 --rdzv_id $RANDOM --rdzv_backend c10d "
                   "--rdzv_endpoint $head_node_ip:29500 ./train.py")
    world, nodes = fact(plan, "dist.world_size"), fact(plan, "dist.nodes")
    assert world.value == 8 and world.confidence == "medium"
    assert nodes.value == 2
    assert fact(plan, "dist.devices_per_node").value == 4
    assert fact(plan, "batch.global").value == 32
    assert any("pass --nnodes 2" in n for n in plan["notes"])
    assert not any(f["value"] == 4 for f in plan["fields"]["dist.world_size"])


def test_twin_srun_torchrun_without_a_rendezvous_address_is_one_node_jobs(cli, tmp_path):
    plan = _sbatch(cli, tmp_path, "#SBATCH --ntasks=2\n#SBATCH --nodes=2",
                   "srun torchrun --nproc_per_node 4 ./train.py")
    assert fact(plan, "dist.world_size").value == 4
    assert any("separate single-node job" in n for n in plan["notes"])


def test_twin_torchrun_nnodes_is_read_not_srun(cli, tmp_path):
    plan = _sbatch(cli, tmp_path, "#SBATCH --ntasks=2\n#SBATCH --nodes=2",
                   "srun torchrun --nnodes 2 --nproc_per_node 4 --rdzv_endpoint $head_node_ip:29500 ./train.py")
    world = fact(plan, "dist.world_size")
    assert world.value == 8 and world.confidence == "high"


def test_parse_a_loopback_endpoint_is_not_shared():
    info = parse_launch(shlex.split("srun -N 2 torchrun --nproc_per_node 4 --rdzv_endpoint localhost:29500 t.py"))
    assert info.total_procs == 4 and not info.nodes_from_wrapper
    info = parse_launch(shlex.split("srun -N 2 torchrun --nproc_per_node 4 --rdzv-endpoint h0:29500 t.py"))
    assert info.total_procs == 8 and info.nodes == 2 and info.nodes_from_wrapper


def test_twin_several_torchruns_per_node_are_not_multiplied():
    info = parse_launch(shlex.split("srun -N 2 --ntasks-per-node 4 torchrun --nproc_per_node 4 "
                                    "--rdzv_endpoint h0:29500 t.py"))
    assert info.total_procs == 4 and not info.nodes_from_wrapper
