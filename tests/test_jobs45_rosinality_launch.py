"""A project ``launch(fn, n_gpu_per_machine, n_machine=1, ...)`` around ``mp.spawn`` (issue 15, set 45:
rosinality/vq-vae-2-pytorch @ ef5f67c ``distributed/launch.py:22-46``, re-exported by
``distributed/__init__.py`` and called ``dist.launch(main, args.n_gpu, 1, 0, args.dist_url, args=(args,))``
at ``train_vqvae.py:152``; the same helper in other projects' ``distributed/launch.py``). Twins: a
launch that never spawns, and one whose second parameter is not a count per machine, say nothing."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

LAUNCH = """\
    import os
    from torch import multiprocessing as mp


    def launch(fn, n_gpu_per_machine, n_machine=1, machine_rank=0, dist_url=None, args=()):
        world_size = n_machine * n_gpu_per_machine
        if world_size > 1:
            mp.spawn(worker, nprocs=n_gpu_per_machine, args=(fn, world_size, dist_url, args), daemon=False)
        else:
            fn(*args)


    def worker(local_rank, fn, world_size, dist_url, args):
        fn(*args)
"""

NO_SPAWN = """\
    def launch(fn, n_gpu_per_machine, n_machine=1, machine_rank=0, dist_url=None, args=()):
        fn(*args)
"""

OTHER = """\
    from torch import multiprocessing as mp


    def launch(fn, n_gpu, n_machine=1, machine_rank=0, dist_url=None, args=()):
        mp.spawn(fn, nprocs=8, args=args)
"""

TRAIN = """\
    import argparse
    import distributed as dist


    def main(args):
        pass


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--n_gpu", type=int, default=1)
        parser.add_argument("--dist_url", default="tcp://127.0.0.1:23456")
        parser.add_argument("path", type=str)
        args = parser.parse_args()
        dist.launch(main, args.n_gpu, 1, 0, args.dist_url, args=(args,))
"""


def _plan(cli, tmp_path, launch: str) -> dict:
    write(tmp_path, {"distributed/__init__.py": "from .launch import launch\n", "distributed/launch.py": launch,
                     "train_vqvae.py": TRAIN})
    return plan_of(cli, "--", "python", "train_vqvae.py", "--n_gpu", "4", "/data/ffhq", cwd=tmp_path)


def test_rosinality_launch_spawns_n_gpu_per_machine(cli, tmp_path):
    plan = _plan(cli, tmp_path, LAUNCH)
    assert fact(plan, "dist.world_size").value == 4
    assert fact(plan, "dist.devices_per_node").value == 4
    assert fact(plan, "dist.nodes").value == 1


def test_twin_a_launch_that_never_spawns_says_nothing(cli, tmp_path):
    plan = _plan(cli, tmp_path, NO_SPAWN)
    best = fact(plan, "dist.world_size")
    assert best is None or best.value != 4


def test_twin_a_launch_of_another_signature_says_nothing(cli, tmp_path):
    plan = _plan(cli, tmp_path, OTHER)
    best = fact(plan, "dist.world_size")
    assert best is None or best.value != 4
