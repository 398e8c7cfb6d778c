"""A launch line inside a shell loop, and ``srun`` over a script that spawns its own processes
(issue 15, set 32: bowang-lab/MedSAM @ d71e8a1 ``train_multi_gpus.sh:65-79``, ``#SBATCH --nodes=5
--ntasks=5 --gres=gpu:4``, ``for (( i=0; i < $SLURM_NTASKS; ++i ))`` starting ``srun -N 1 -n 1 -r $i
bash -c "python train_multi_gpus.py ... --node_rank ${i} ..." &`` per node, ``mp.spawn`` over
``torch.cuda.device_count()`` inside: 20 processes on 5 nodes, which the first reading took as 1 on 1
at high confidence). Twins: the loop run in the foreground (a sweep), side by side without a rank
(parallel seeds), a loop whose count is not known, srun without a loop."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write
from preflight.adapters.shell import read_shell
from preflight.adapters.shell_loops import loop_header, runs_in_background

SPAWN = """\
    import argparse
    import torch
    import torch.multiprocessing as mp
    parser = argparse.ArgumentParser()
    parser.add_argument("-batch_size", type=int, default=8)
    parser.add_argument("--world_size", type=int, default=1)
    parser.add_argument("--node_rank", type=int, default=0)
    args = parser.parse_args()

    def main():
        ngpus_per_node = torch.cuda.device_count()
        mp.spawn(main_worker, nprocs=ngpus_per_node, args=(ngpus_per_node, args))

    def main_worker(gpu, ngpus_per_node, args):
        torch.distributed.init_process_group("nccl", rank=args.node_rank * ngpus_per_node + gpu,
                                             world_size=args.world_size)
        model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(4, 4).cuda())
        opt = torch.optim.AdamW(model.parameters())
        loader = torch.utils.data.DataLoader(list(range(64)), batch_size=args.batch_size)
        for x in loader:
            loss = model(x).sum()
            loss.backward()
            opt.step()
            opt.zero_grad()

    if __name__ == "__main__":
        main()
"""

PLAIN = """\
    import argparse
    import torch
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch_size", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.distributed.init_process_group("nccl")
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(4, 4).cuda())
    opt = torch.optim.AdamW(model.parameters())
    loader = torch.utils.data.DataLoader(list(range(64)), batch_size=args.batch_size)
    for x in loader:
        loss = model(x).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
"""

SBATCH = """\
#!/bin/bash
#SBATCH --nodes=5
#SBATCH --ntasks=5
#SBATCH --gres=gpu:4
GPUS_PER_NODE=$SLURM_GPUS_ON_NODE
WORLD_SIZE=$(($GPUS_PER_NODE*$SLURM_NNODES))
"""

MEDSAM_LOOP = """\
for (( i=0; i < $SLURM_NTASKS; ++i ))
do
    /opt/slurm/bin/srun -lN1 --mem=200G --gres=gpu:4 -N 1 -n 1 -r $i bash -c \\
    "python train.py \\
        -batch_size 8 \\
        --world_size ${WORLD_SIZE} \\
        --node_rank ${i} \\
        --init_method tcp://${MASTER_ADDR}:${MASTER_PORT}" >> ./logs/node_${i}.log 2>&1 &
done
wait
"""


def _plan(cli, tmp_path, train: str, body: str, head: str = SBATCH) -> dict:
    write(tmp_path, {"train.py": train})
    (tmp_path / "job.sh").write_text(head + body)
    return plan_of(cli, "job.sh", cwd=tmp_path)


def _high(plan: dict, field: str) -> list:
    return [f["value"] for f in plan["fields"].get(field, []) if f["confidence"] == "high"]


def test_background_srun_steps_with_a_rank_are_one_job(cli, tmp_path):
    plan = _plan(cli, tmp_path, SPAWN, MEDSAM_LOOP)
    world, nodes = fact(plan, "dist.world_size"), fact(plan, "dist.nodes")
    assert (world.value, world.confidence) == (20, "medium")
    assert (nodes.value, nodes.confidence) == (5, "medium")
    assert fact(plan, "dist.devices_per_node").value == 4
    assert fact(plan, "batch.global").value == 8 * 20
    assert "5 x 1 task(s) x 4 = 20 processes" in world.source.detail
    assert "device_count() = 4 GPUs each task sees" in world.source.detail
    assert not _high(plan, "dist.world_size") and not _high(plan, "dist.nodes")
    assert not any(f["value"] == 1 for f in plan["fields"]["dist.world_size"])


def test_twin_the_same_loop_in_the_foreground_is_a_sweep_of_runs_never_high(cli, tmp_path):
    # no `&`: each srun step ends before the next starts; each is a run of its own (1 task x 4)
    plan = _plan(cli, tmp_path, SPAWN, MEDSAM_LOOP.replace(" 2>&1 &", " 2>&1"))
    world = fact(plan, "dist.world_size")
    assert (world.value, world.confidence) == (4, "medium")
    assert "one run after another" in world.source.detail
    assert fact(plan, "dist.nodes").value == 1
    assert not _high(plan, "dist.world_size") and not _high(plan, "dist.nodes")


def test_twin_parallel_seeds_without_a_rank_keep_each_runs_figures_at_medium(cli, tmp_path):
    body = "for seed in 1 2 3; do\n  torchrun --nproc_per_node 2 train.py --seed $seed &\ndone\nwait\n"
    plan = _plan(cli, tmp_path, PLAIN, body, head="#!/bin/bash\n")
    world = fact(plan, "dist.world_size")
    assert (world.value, world.confidence) == (2, "medium")
    assert "runs 3 times, side by side" in world.source.detail
    assert not _high(plan, "dist.world_size") and not _high(plan, "dist.nodes")


def test_twin_joined_steps_of_an_unknown_count_leave_world_size_and_nodes_open(cli, tmp_path):
    body = ("i=0\nwhile read host; do\n  srun -N 1 -n 1 -w $host python train.py -batch_size 8 --node_rank $i &\n"
            "  i=$((i+1))\ndone < hosts.txt\nwait\n")
    plan = _plan(cli, tmp_path, SPAWN, body)
    assert fact(plan, "dist.world_size") is None
    assert fact(plan, "dist.nodes") is None
    assert any("steps of one job whose world size and nodes are not read" in n for n in plan["notes"])


def test_srun_over_a_script_that_spawns_per_gpu_is_not_one_process_per_task(cli, tmp_path):
    body = "srun -N 1 -n 1 --gres=gpu:4 python train.py -batch_size 8\n"
    plan = _plan(cli, tmp_path, SPAWN, body, head="#!/bin/bash\n#SBATCH --nodes=1\n")
    world = fact(plan, "dist.world_size")
    assert (world.value, world.confidence) == (4, "medium")
    assert fact(plan, "dist.devices_per_node").value == 4
    assert not any(f["value"] == 1 for f in plan["fields"]["dist.world_size"])


def test_twin_srun_over_a_script_that_spawns_nothing_is_one_process_per_task(cli, tmp_path):
    body = "srun -N 2 -n 8 --ntasks-per-node=4 python train.py\n"
    plan = _plan(cli, tmp_path, PLAIN, body, head="#!/bin/bash\n#SBATCH --nodes=2\n")
    world = fact(plan, "dist.world_size")
    assert (world.value, world.confidence) == (8, "high")


def test_twin_srun_over_a_spawn_whose_gpus_are_not_known_says_nothing(cli, tmp_path):
    # one task per node and no GPUs named on srun: device_count() is not known
    body = "srun -N 1 -n 1 python train.py -batch_size 8\n"
    plan = _plan(cli, tmp_path, SPAWN, body, head="#!/bin/bash\n")
    assert fact(plan, "dist.world_size") is None or fact(plan, "dist.world_size").value != 1
    assert any("world size is not srun's task count" in n for n in plan["notes"])


def test_loop_headers_and_background_lines():
    env = {"SLURM_NTASKS": "5", "N": "3"}
    assert loop_header("for (( i=0; i < $SLURM_NTASKS; ++i ))", 1, env, set()).count == 5
    assert loop_header("for ((i = 1; i <= N; i++)); do", 1, {"N": "4"}, set()).count is None  # bare N: not read
    assert loop_header("for ((i = 1; i <= $N; i++)); do", 1, env, set()).count == 3
    assert loop_header("for i in $(seq 0 3); do", 1, env, set()).count == 4
    assert loop_header("for i in `seq 8`", 1, env, set()).count == 8
    assert loop_header("for i in {1..8}; do", 1, env, set()).count == 8
    assert loop_header("for lr in 1e-4 3e-4 1e-3", 1, env, set()).count == 3
    assert loop_header("for h in $(scontrol show hostnames)", 1, env, set()).count is None
    assert loop_header("while true; do", 1, env, set()).count is None
    assert loop_header("if [ -z $X ]; then", 1, env, set()) is None
    assert runs_in_background("srun python a.py >> log 2>&1 &")
    assert not runs_in_background("srun python a.py >> log 2>&1")
    assert not runs_in_background("python a.py && echo done")


def test_nested_loops_multiply_and_lines_outside_have_none():
    text = ("for a in 1 2; do\n  for b in x y z; do\n    python t.py --a $a --b $b\n  done\ndone\n"
            "python t.py --final\n")
    launches = read_shell(text, "s.sh").launches
    assert launches[0].loop is not None and launches[0].loop.count == 6 and not launches[0].loop.background
    assert launches[1].loop is None


def test_a_rank_from_a_variable_marks_the_runs_as_steps():
    text = "for i in 0 1; do\n  NODE_RANK=$i torchrun --nnodes 2 train.py &\ndone\nfor s in 1 2; do\n  python t.py --seed $s &\ndone\n"
    first, second = read_shell(text, "s.sh").launches
    assert first.loop.ranked and first.loop.background
    assert not second.loop.ranked and second.loop.background
