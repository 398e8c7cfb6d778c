"""A Hydra-instantiated trainer config with a `launcher` section (issue 15): a small rewrite of our
own with the shape of facebookresearch/sam2 @ 2b90b9f training/train.py (-c CONFIG, --num-gpus)
and sam2/configs/sam2.1_training/sam2.1_hiera_b+_MOSE_finetune.yaml (scratch.* interpolated into
trainer.data.train, trainer.optim.amp, launcher)."""

from __future__ import annotations

from plan_helpers import plan_of, winner, write

TRAIN = """\
    import argparse
    import torch
    from hydra import compose, initialize_config_module
    from hydra.utils import instantiate

    def single_proc_run(local_rank, cfg):
        instantiate(cfg.trainer, _recursive_=False).run()

    def main(args):
        cfg = compose(config_name=args.config)
        cfg.launcher.gpus_per_node = args.num_gpus if args.num_gpus is not None else cfg.launcher.gpus_per_node
        num_proc = cfg.launcher.gpus_per_node
        torch.multiprocessing.start_processes(single_proc_run, args=(cfg,), nprocs=num_proc, start_method="spawn")

    if __name__ == "__main__":
        initialize_config_module("proj", version_base="1.2")
        parser = argparse.ArgumentParser()
        parser.add_argument("-c", "--config", required=True)
        parser.add_argument("--use-cluster", type=int, default=None)
        parser.add_argument("--num-gpus", type=int, default=None)
        main(parser.parse_args())
    """

TRAINER = """\
    import torch.nn as nn

    class Trainer:
        def __init__(self, model, data, optim, **kw):
            self.model = nn.parallel.DistributedDataParallel(model)

        def run(self):
            pass
    """

CONFIG = """\
    # @package _global_
    scratch:
      resolution: 512
      train_batch_size: 4
      num_train_workers: 6
    trainer:
      _target_: training.trainer.Trainer
      model:
        _target_: proj.model.Net
        image_size: ${scratch.resolution}
      data:
        train:
          batch_sizes:
            - ${scratch.train_batch_size}
          num_workers: ${scratch.num_train_workers}
          pin_memory: True
      optim:
        amp:
          enabled: True
          amp_dtype: bfloat16
        optimizer:
          _target_: torch.optim.AdamW
    launcher:
      num_nodes: 1
      gpus_per_node: 2
    """


def project(tmp_path, config=CONFIG, trainer=TRAINER):
    write(tmp_path, {"training/__init__.py": "", "training/train.py": TRAIN, "training/trainer.py": trainer,
                     "proj/__init__.py": "", "proj/configs/run.yaml": config})


def test_trainer_config_with_interpolations_and_the_gpu_flag(cli, tmp_path):
    project(tmp_path)
    plan = plan_of(cli, "training/train.py", "--", "-c", "configs/run.yaml", "--use-cluster", "0",
                   "--num-gpus", "8", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 4  # ${scratch.train_batch_size}
    assert winner(plan, "data.num_workers") == 6
    assert winner(plan, "data.pin_memory") is True
    assert winner(plan, "data.image_size") == 512
    assert winner(plan, "precision.mode") == "amp_bf16"
    assert winner(plan, "optimizer.name") == "AdamW"
    assert winner(plan, "dist.devices_per_node") == 8  # --num-gpus replaces launcher.gpus_per_node
    assert winner(plan, "dist.nodes") == 1
    assert winner(plan, "dist.world_size") == 8
    assert winner(plan, "dist.sharding") == "ddp"
    assert winner(plan, "batch.grad_accum") == 1


def test_amp_off_fsdp_trainer_and_accumulation_say_otherwise(cli, tmp_path):
    config = CONFIG.replace("enabled: True", "enabled: False")
    trainer = TRAINER.replace("nn.parallel.DistributedDataParallel(model)", "FullyShardedDataParallel(model)")
    trainer += "\n        def step(self):\n            self.accum_steps = 4\n"
    project(tmp_path, config, trainer)
    plan = plan_of(cli, "training/train.py", "--", "-c", "configs/run.yaml", "--use-cluster", "0", cwd=tmp_path)
    assert winner(plan, "precision.mode") == "fp32"
    assert winner(plan, "dist.sharding") != "ddp"
    assert winner(plan, "batch.grad_accum") != 1
    assert winner(plan, "dist.devices_per_node") == 2  # the file's launcher.gpus_per_node


def test_a_config_without_a_launcher_section_is_not_read_so(cli, tmp_path):
    project(tmp_path, CONFIG.split("launcher:")[0])
    plan = plan_of(cli, "training/train.py", "--", "-c", "configs/run.yaml", cwd=tmp_path)
    assert winner(plan, "optimizer.name") != "AdamW"
    assert winner(plan, "data.image_size") != 512
    assert winner(plan, "dist.sharding") != "ddp"
