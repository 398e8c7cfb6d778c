"""Issue 15, branch jobs63: shapes of real jobs (fixtures of our own that copy the real code's shape; each with a
twin that must stay as it is).

- a single controller that hands its work to Ray (PeterGriffinJin/Search-R1 @ a14dc3a, its vendored verl 0.1:
  ``verl/trainer/main_ppo.py:100-113`` ``ray.get(main_task.remote(config))`` with ``@ray.remote def main_task``,
  whose ``RayPPOTrainer`` builds ``DataLoader(batch_size=self.config.data.train_batch_size)`` of prompts in the
  driver, ``verl/trainer/ppo/ray_trainer.py:390-394``, and the validation loader beside it at :410): the loader's
  batch is the driver's prompt batch, split over the workers, not a process's micro batch; verl's own key wins
  (``ppo_micro_batch_size`` 64 // 8 workers). The twins: the same loaders in a Hydra app that trains in its own
  process (the training loader's batch, per process: jeonsworld/ViT-pytorch's shape, tests/test_jobs62_shapes.py),
  and a Ray Train loop per worker (``TorchTrainer(train_loop_per_worker)``: each worker's loader is per process).
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write
from test_verl_ppo import FILES as VERL_FILES

# ray_trainer.py:380-415 of the vendored verl, reduced: the prompt loaders of the driver
_RAY_TRAINER = """\
    from torch.utils.data import DataLoader


    class RayPPOTrainer:
        def __init__(self, config):
            self.config = config
            self._create_dataloader()

        def _create_dataloader(self):
            self.train_dataset = list(range(100))
            self.train_dataloader = DataLoader(dataset=self.train_dataset,
                                               batch_size=self.config.data.train_batch_size,
                                               shuffle=True, drop_last=True)
            self.val_dataset = list(range(10))
            self.val_dataloader = DataLoader(dataset=self.val_dataset,
                                             batch_size=self.config.data.val_batch_size,
                                             shuffle=False, drop_last=True)

        def fit(self):
            for batch in self.train_dataloader:
                pass
"""


def _verl(cli, tmp_path, main: str = "") -> dict:
    files = dict(VERL_FILES)
    files["verl/trainer/config/ppo_trainer.yaml"] = files["verl/trainer/config/ppo_trainer.yaml"].replace(
        "  train_batch_size: 1024\n", "  train_batch_size: 1024\n          val_batch_size: 256\n")
    files["verl/trainer/ppo/__init__.py"] = ""
    files["verl/trainer/ppo/ray_trainer.py"] = _RAY_TRAINER
    if main:
        files["verl/trainer/main_ppo.py"] = main
    write(tmp_path, files)
    return plan_of(cli, "--", "python3", "-m", "verl.trainer.main_ppo", "data.train_batch_size=512",
                   cwd=tmp_path)


def test_ray_driver_loader_batch_is_not_the_micro_batch(cli, tmp_path):
    plan = _verl(cli, tmp_path)
    micro = fact(plan, "batch.micro")
    # verl: ppo_micro_batch_size 64 // 8 workers; the driver's prompt loader (512) is not a process's batch
    assert (micro.value, micro.adapter, micro.source.key) == (8, "verl_ppo", "actor_rollout_ref.actor.ppo_micro_batch_size"), micro
    assert all(f["value"] != 512 for f in plan["fields"].get("batch.micro", [])), plan["fields"]["batch.micro"]


# the twin: the same trainer module in a Hydra app that builds and runs it in its own process (no Ray)
_MAIN_IN_PROCESS = """\
    import hydra
    from verl.trainer.ppo.ray_trainer import RayPPOTrainer


    @hydra.main(config_path='config', config_name='ppo_trainer', version_base=None)
    def main(config):
        trainer = RayPPOTrainer(config=config)
        trainer.fit()


    if __name__ == '__main__':
        main()
"""


def _in_process(cli, tmp_path, main: str) -> dict:
    files = {k.replace("verl/", "mypkg/"): v for k, v in VERL_FILES.items()}
    files["mypkg/trainer/config/ppo_trainer.yaml"] = files["mypkg/trainer/config/ppo_trainer.yaml"].replace(
        "  train_batch_size: 1024\n", "  train_batch_size: 1024\n          val_batch_size: 256\n")
    files["mypkg/trainer/ppo/__init__.py"] = ""
    files["mypkg/trainer/ppo/ray_trainer.py"] = _RAY_TRAINER
    files["mypkg/trainer/main_ppo.py"] = main.replace("from verl.", "from mypkg.")
    write(tmp_path, files)
    return plan_of(cli, "--", "python3", "-m", "mypkg.trainer.main_ppo", "data.train_batch_size=512",
                   cwd=tmp_path)


def test_twin_loader_of_a_process_that_trains_itself_is_the_micro_batch(cli, tmp_path):
    plan = _in_process(cli, tmp_path, _MAIN_IN_PROCESS)
    micro = fact(plan, "batch.micro")
    assert micro is not None and (micro.value, micro.source.kind, micro.source.key) == (
        512, "cli", "data.train_batch_size=512"), micro


# the twin: Ray Train, each worker runs the loop and builds its own loader (ray imported, no .remote dispatch)
_MAIN_RAY_TRAIN = """\
    import hydra
    from ray.train import ScalingConfig
    from ray.train.torch import TorchTrainer
    from verl.trainer.ppo.ray_trainer import RayPPOTrainer


    def train_loop_per_worker(config):
        trainer = RayPPOTrainer(config=config)
        trainer.fit()


    @hydra.main(config_path='config', config_name='ppo_trainer', version_base=None)
    def main(config):
        trainer = TorchTrainer(train_loop_per_worker, train_loop_config=config,
                               scaling_config=ScalingConfig(num_workers=8, use_gpu=True))
        trainer.fit()


    if __name__ == '__main__':
        main()
"""


def test_twin_ray_train_worker_loop_loader_is_the_micro_batch(cli, tmp_path):
    plan = _in_process(cli, tmp_path, _MAIN_RAY_TRAIN)
    micro = fact(plan, "batch.micro")
    assert micro is not None and (micro.value, micro.source.key) == (512, "data.train_batch_size=512"), micro
