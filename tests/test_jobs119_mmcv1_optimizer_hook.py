"""MMCV 1.x ``optimizer_config`` without an accumulating hook: one optimizer step per iteration
(``adapters/mmcv1_optimizer_hook.py``, read by ``adapters/mmengine_config.py``).

The fixture copies the shape of NVlabs/SegFormer @ 08c5998 (a vendored MMSegmentation 0.x): ``tools/train.py``
loads the config with ``mmcv.Config.fromfile`` and calls ``train_segmentor``, whose ``mmseg/apis/train.py``
registers ``cfg.optimizer_config`` as the runner's optimizer hook; the schedule base says
``optimizer_config = dict()`` (``local_configs/_base_/schedules/schedule_160k_adamw.py:3``)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from plan_helpers import fact, plan_of, winner, write

TRAIN = """\
    import argparse

    from mmcv.utils import Config, DictAction
    from mmcv.runner import init_dist

    from mmseg.apis import set_random_seed, train_segmentor
    from mmseg.models import build_segmentor


    def parse_args():
        parser = argparse.ArgumentParser(description='Train a segmentor')
        parser.add_argument('config', help='train config file path')
        parser.add_argument('--launcher', choices=['none', 'pytorch', 'slurm', 'mpi'], default='none')
        return parser.parse_args()


    def main():
        args = parse_args()
        cfg = Config.fromfile(args.config)
        if args.launcher != 'none':
            init_dist(args.launcher, **cfg.dist_params)
        model = build_segmentor(cfg.model)
        train_segmentor(model, None, cfg, distributed=args.launcher != 'none')


    if __name__ == '__main__':
        main()
    """

APIS = """\
    from mmcv.runner import build_optimizer, build_runner


    def train_segmentor(model, dataset, cfg, distributed=False):
        optimizer = build_optimizer(model, cfg.optimizer)
        runner = build_runner(cfg.runner, default_args=dict(model=model, optimizer=optimizer))
        runner.register_training_hooks(cfg.lr_config, cfg.optimizer_config,
                                       cfg.checkpoint_config, cfg.log_config)
        runner.run([], cfg.workflow)
    """

DATASET = """\
    data = dict(samples_per_gpu=4, workers_per_gpu=4, train=dict(type='ADE20KDataset', pipeline=[]))
    """

SCHEDULE = """\
    # optimizer
    optimizer = dict(type='AdamW', lr=0.0002, weight_decay=0.0001)
    {hook}
    # learning policy
    lr_config = dict(policy='poly', power=0.9, min_lr=0.0, by_epoch=False)
    runner = dict(type='IterBasedRunner', max_iters=160000)
    """

MAIN = """\
    _base_ = ['../_base_/datasets/ade20k.py', '../_base_/schedules/schedule_160k_adamw.py']
    data = dict(samples_per_gpu=2)
    """


def _plan(cli, tmp_path: Path, hook: str = "optimizer_config = dict()", extra: Optional[dict] = None,
          apis: str = APIS) -> dict:
    files = {"tools/train.py": TRAIN, "mmseg/apis/train.py": apis,
             "local_configs/_base_/datasets/ade20k.py": DATASET,
             "local_configs/_base_/schedules/schedule_160k_adamw.py": SCHEDULE.format(hook=hook),
             "local_configs/segformer/b1.py": MAIN}
    files.update(extra or {})
    write(tmp_path, files)
    return plan_of(cli, "--", "python", "-m", "torch.distributed.launch", "--nproc_per_node=8", "tools/train.py",
                   "local_configs/segformer/b1.py", "--launcher", "pytorch", cwd=tmp_path)


def test_empty_optimizer_config_steps_every_iteration(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path)
    got = fact(plan, "batch.grad_accum")
    assert got is not None and got.value == 1 and got.confidence == "medium", got
    assert got.source.path == "local_configs/_base_/schedules/schedule_160k_adamw.py" and got.source.line == 3
    assert winner(plan, "batch.micro") == 2
    assert winner(plan, "batch.global") == 16  # 2 x 1 x 8


def test_grad_clip_only_and_fp16_hook_step_every_iteration(cli, tmp_path: Path) -> None:
    # open-mmlab/mmdetection 2.x configs/_base_/schedules/schedule_1x.py: dict(grad_clip=None)
    assert winner(_plan(cli, tmp_path, "optimizer_config = dict(grad_clip=None)"), "batch.grad_accum") == 1


def test_fp16_optimizer_hook_steps_every_iteration(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, "optimizer_config = dict(type='Fp16OptimizerHook', loss_scale=512.)")
    assert winner(plan, "batch.grad_accum") == 1


def test_tricky_coco_eval_accumulate_is_not_gradient_accumulation(cli, tmp_path: Path) -> None:
    # mmdet's COCO metric calls cocoEval.accumulate(): no optimizer setting
    plan = _plan(cli, tmp_path, extra={"mmseg/core/coco.py": "def evaluate(coco_eval):\n    coco_eval.accumulate()\n"})
    assert winner(plan, "batch.grad_accum") == 1


def test_twin_cumulative_hook_keeps_its_iterations(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, "optimizer_config = dict(type='GradientCumulativeOptimizerHook', cumulative_iters=4)")
    assert winner(plan, "batch.grad_accum") == 4


def test_twin_project_hook_type_is_not_read(cli, tmp_path: Path) -> None:
    # Swin's DistOptimizerHook, or any hook the project registers itself: its stepping is its code's
    assert fact(_plan(cli, tmp_path, "optimizer_config = dict(type='DistOptimizerHook')"), "batch.grad_accum") is None


def test_twin_no_optimizer_config_is_not_read(cli, tmp_path: Path) -> None:
    assert fact(_plan(cli, tmp_path, "optimizer_config = None"), "batch.grad_accum") is None
    assert fact(_plan(cli, tmp_path, "# no hook"), "batch.grad_accum") is None


def test_twin_runner_that_overrides_the_hook_default_is_not_read(cli, tmp_path: Path) -> None:
    runner = """\
        from mmcv.runner import EpochBasedRunner


        class MeanTeacherRunner(EpochBasedRunner):
            def register_optimizer_hook(self, optimizer_config):
                optimizer_config.setdefault('type', 'MeanTeacherOptimizerHook')
        """
    plan = _plan(cli, tmp_path, extra={"mmseg/runner.py": runner})
    assert fact(plan, "batch.grad_accum") is None


def test_twin_a_train_step_that_steps_itself_is_not_read(cli, tmp_path: Path) -> None:
    gan = """\
        class Gan:
            def train_step(self, data_batch, optimizer):
                loss = self(**data_batch)
                loss.backward()
                optimizer.step()
        """
    assert fact(_plan(cli, tmp_path, extra={"mmseg/models/gan.py": gan}), "batch.grad_accum") is None


def test_twin_accumulation_setting_in_the_code_is_not_read(cli, tmp_path: Path) -> None:
    hook = "class Hook:\n    def __init__(self, accum_steps=1):\n        self.accum_steps = accum_steps\n"
    assert fact(_plan(cli, tmp_path, extra={"mmseg/core/hook.py": hook}), "batch.grad_accum") is None


def test_twin_hook_never_registered_is_not_read(cli, tmp_path: Path) -> None:
    apis = "def train_segmentor(model, dataset, cfg, distributed=False):\n    pass\n"
    assert fact(_plan(cli, tmp_path, apis=apis), "batch.grad_accum") is None


def test_installed_train_api_registers_the_hook(cli, tmp_path: Path) -> None:
    # mmseg installed, not vendored: its train_segmentor registers cfg.optimizer_config
    plan = _plan(cli, tmp_path, apis="")
    assert winner(plan, "batch.grad_accum") == 1
