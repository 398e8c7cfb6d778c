"""A project's own copy of detectron2's ``launch`` (issue 15, set 25: Pointcept
``pointcept/engines/launch.py`` @ d74c646:36, called from ``tools/train.py:27-34`` with
``num_gpus_per_machine=args.num_gpus``). Twin: a project ``launch`` of another signature says nothing."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

LAUNCH = """\
    import torch.multiprocessing as mp


    def launch(main_func, num_gpus_per_machine, num_machines=1, machine_rank=0, dist_url=None, cfg=()):
        world_size = num_machines * num_gpus_per_machine
        if world_size > 1:
            mp.spawn(_worker, nprocs=num_gpus_per_machine, args=(main_func, world_size, cfg), daemon=False)
        else:
            main_func(*cfg)


    def _worker(local_rank, main_func, world_size, cfg):
        main_func(*cfg)
"""

OTHER = """\
    import torch.multiprocessing as mp


    def launch(cfg, func, num_gpus_per_machine=8):
        mp.spawn(func, nprocs=num_gpus_per_machine)
"""

TRAIN = """\
    import argparse
    from pkg.engines.launch import launch


    def main_worker(cfg):
        pass


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--num-gpus", type=int, default=1)
        parser.add_argument("--num-machines", type=int, default=1)
        args = parser.parse_args()
        launch(main_worker, num_gpus_per_machine=args.num_gpus, num_machines=args.num_machines, cfg=({},))


    if __name__ == "__main__":
        main()
"""


def _plan(cli, tmp_path, launch: str) -> dict:
    write(tmp_path, {"pkg/__init__.py": "", "pkg/engines/__init__.py": "", "pkg/engines/launch.py": launch,
                     "tools/train.py": TRAIN})
    return plan_of(cli, "--", "python", "tools/train.py", "--num-gpus", "4", cwd=tmp_path)


def test_a_projects_detectron2_style_launch_spawns_its_count(cli, tmp_path):
    plan = _plan(cli, tmp_path, LAUNCH)
    assert fact(plan, "dist.world_size").value == 4
    assert fact(plan, "dist.devices_per_node").value == 4


def test_twin_a_launch_of_another_signature_says_nothing(cli, tmp_path):
    plan = _plan(cli, tmp_path, OTHER)
    best = fact(plan, "dist.world_size")
    assert best is None or best.value != 4
