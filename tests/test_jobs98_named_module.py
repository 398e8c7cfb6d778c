"""A submitit launcher whose node and task counts are keys of its YAML, handing its work to a training module
imported by a name the YAML gives (adapters/named_module.py, adapters/submitit_tasks.py). Fixtures of our own
copying the shape of facebookresearch/jepa @ 51c59d5 (``app/main_distributed.py``: ``nodes =
int(_params.get('nodes'))`` into ``update_parameters(nodes=nodes, tasks_per_node=tasks_per_node,
gpus_per_node=tasks_per_node)``; ``app/scaffold.py``: ``importlib.import_module(f'app.{app}.train').main(...)``
with ``app: vjepa`` in the YAML): must-read cases and silent twins."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

LAUNCHER = """\
    import argparse

    import submitit
    import yaml

    from app.scaffold import main as app_main

    parser = argparse.ArgumentParser()
    parser.add_argument("--fname", type=str, default="configs.yaml")
    parser.add_argument("--folder", type=str, default="out")


    class Trainer:
        def __init__(self, params):
            self.app = params["app"]
            self.params = params

        def __call__(self):
            app_main(self.app, args=self.params)


    def launch_with(params, nodes=1, tasks_per_node=1):
        executor = submitit.AutoExecutor(folder=args.folder)
        executor.update_parameters(nodes=nodes, tasks_per_node=tasks_per_node, gpus_per_node=GPUS, cpus_per_task=8)
        executor.submit(Trainer(params))


    def launch():
        with open(args.fname, "r") as f:
            params = yaml.load(f, Loader=yaml.FullLoader)
            nodes = int(params.get("nodes"))
            tasks_per_node = int(params.get("tasks_per_node"))
        launch_with(params, nodes=nodes, tasks_per_node=tasks_per_node)


    if __name__ == "__main__":
        args = parser.parse_args()
        launch()
"""

SCAFFOLD = """\
    import importlib


    def main(app, args):
        return importlib.import_module(f"app.{app}.train").main(args=args)
"""

TRAIN = """\
    import torch
    from torch.nn.parallel import DistributedDataParallel


    def main(args):
        model = DistributedDataParallel(torch.nn.Linear(4, 4).cuda())
        opt = torch.optim.AdamW(model.parameters())
        for _ in range(10):
            loss = model(torch.randn(2, 4)).sum()
            loss.backward()
            opt.step()
            opt.zero_grad()
"""

YAML = """\
    app: {app}
    nodes: 4
    tasks_per_node: 8
    data:
      batch_size: 16
"""


def _plan(cli, tmp_path, app="video", gpus="tasks_per_node", yaml=YAML):
    write(tmp_path, {"app/__init__.py": "", "app/main_distributed.py": LAUNCHER.replace("GPUS", gpus),
                     "app/scaffold.py": SCAFFOLD, "app/video/__init__.py": "", "app/video/train.py": TRAIN,
                     "configs/run.yaml": yaml.replace("{app}", app)})
    return plan_of(cli, "app/main_distributed.py", "--", "--fname", "configs/run.yaml", cwd=tmp_path)


def test_module_named_by_the_config_is_audited(cli, tmp_path):
    plan = _plan(cli, tmp_path)
    assert fact(plan, "dist.sharding").value == "ddp"
    opt = fact(plan, "optimizer.name")
    assert opt.value == "AdamW" and opt.source.path == "app/video/train.py"
    assert any("import_module builds app.video.train from `app`" in n for n in plan["notes"])


def test_config_counts_give_nodes_devices_and_world(cli, tmp_path):
    plan = _plan(cli, tmp_path)
    assert fact(plan, "dist.nodes").value == 4
    assert fact(plan, "dist.devices_per_node").value == 8
    world = fact(plan, "dist.world_size")
    assert world.value == 32 and world.confidence == "medium"


def test_no_module_of_that_name_stays_silent(cli, tmp_path):
    plan = _plan(cli, tmp_path, app="image")  # app/image/train.py does not exist
    assert fact(plan, "dist.sharding") is None
    assert not any("import_module builds" in n for n in plan["notes"])


def test_app_not_a_config_key_stays_silent(cli, tmp_path):
    plan = _plan(cli, tmp_path, yaml=YAML.replace("app: {app}", "name: {app}"))
    assert fact(plan, "dist.sharding") is None


def test_gpus_not_one_per_task_gives_no_counts(cli, tmp_path):
    plan = _plan(cli, tmp_path, gpus="8")
    assert fact(plan, "dist.nodes") is None and fact(plan, "dist.world_size") is None
    assert fact(plan, "dist.sharding").value == "ddp"  # the module is still read


def test_counts_not_in_the_config_stay_silent(cli, tmp_path):
    plan = _plan(cli, tmp_path, yaml=YAML.replace("nodes: 4\n", "").replace("tasks_per_node: 8\n", ""))
    assert fact(plan, "dist.nodes") is None and fact(plan, "dist.world_size") is None


# facebookresearch/dinov2 @ b8931f7 dinov2/run/train/train.py: a class whose __call__ runs a function of a
# package (re-exported by its __init__.py), handed to a submit helper of the project
SUBMIT_SCRIPT = """\
    import sys

    from pkg.submit import submit_jobs


    class Trainer(object):
        def __init__(self, args):
            self.args = args

        def __call__(self):
            from pkg.train import main as train_main

            self._setup_args()
            train_main(self.args)

        def checkpoint(self):
            import submitit

            return submitit.helpers.DelayedSubmission(type(self)(self.args))

        def _setup_args(self):
            pass


    def main():
        submit_jobs(HANDED, None, name="train")
        return 0


    if __name__ == "__main__":
        sys.exit(main())
"""

SUBMIT_HELPER = """\
    import submitit


    def submit_jobs(task_class, args, name):
        executor = submitit.AutoExecutor(folder="out")
        executor.submit(task_class(args))
"""


def _submitted(cli, tmp_path, handed="Trainer"):
    write(tmp_path, {"pkg/__init__.py": "", "pkg/submit.py": SUBMIT_HELPER,
                     "pkg/train/__init__.py": "from .train import main\n", "pkg/train/train.py": TRAIN,
                     "pkg/run/train.py": SUBMIT_SCRIPT.replace("HANDED", handed)})
    return plan_of(cli, "pkg/run/train.py", cwd=tmp_path)


def test_submitted_class_runs_a_project_function(cli, tmp_path):
    plan = _submitted(cli, tmp_path)
    opt = fact(plan, "optimizer.name")
    assert opt.value == "AdamW" and opt.source.path == "pkg/train/train.py"
    assert any("submits a job that runs pkg/train/train.py's code" in n for n in plan["notes"])
    # the module is one the launcher imports itself: the job stays wholly visible (no torch.compile anywhere)
    assert fact(plan, "compile.enabled").value is False


def test_class_never_handed_over_stays_silent(cli, tmp_path):
    plan = _submitted(cli, tmp_path, handed="object")
    assert fact(plan, "optimizer.name") is None
    assert not any("submits a job" in n for n in plan["notes"])
