"""OpenMMLab configs read by ``adapters/mmengine_config.py``: a ``tools/train.py`` that loads the
config named by its positional argument with ``Config.fromfile`` and hands it to the MMEngine
Runner. The fixtures copy the shapes of open-mmlab/mmpretrain @ ee7f2e88501f61aa95c742dd5f429f039935ee90
(``tools/train.py:14-151``, ``configs/resnet/resnet50_8xb32_in1k.py`` and its ``_base_`` files)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from plan_helpers import fact, plan_of, winner, write

TRAIN = """\
    import argparse

    from mmengine.config import Config, DictAction
    from mmengine.runner import Runner


    def parse_args():
        parser = argparse.ArgumentParser(description='Train a model')
        parser.add_argument('config', help='train config file path')
        parser.add_argument('--work-dir', help='the dir to save logs and models')
        parser.add_argument('--amp', action='store_true', help='enable automatic-mixed-precision training')
        parser.add_argument('--cfg-options', nargs='+', action=DictAction)
        parser.add_argument('--launcher', choices=['none', 'pytorch', 'slurm', 'mpi'], default='none')
        return parser.parse_args()


    def merge_args(cfg, args):
        cfg.launcher = args.launcher
        if args.amp is True:
            cfg.optim_wrapper.type = 'AmpOptimWrapper'
            cfg.optim_wrapper.setdefault('loss_scale', 'dynamic')
        if args.cfg_options is not None:
            cfg.merge_from_dict(args.cfg_options)
        return cfg


    def main():
        args = parse_args()
        cfg = Config.fromfile(args.config)
        cfg = merge_args(cfg, args)
        runner = Runner.from_cfg(cfg)
        runner.train()


    if __name__ == '__main__':
        main()
    """

MODEL = """\
    model = dict(
        type='ImageClassifier',
        backbone=dict(type='ResNet', depth={depth}, num_stages=4, out_indices=(3, ), style='pytorch'),
        neck=dict(type='GlobalAveragePooling'),
        head=dict(type='LinearClsHead', num_classes={classes}, in_channels={width},
                  loss=dict(type='CrossEntropyLoss', loss_weight=1.0), topk=(1, 5)))
    """

DATA = """\
    dataset_type = 'ImageNet'
    train_pipeline = [
        dict(type='LoadImageFromFile'),
        dict(type='RandomResizedCrop', scale=224),
        dict(type='RandomFlip', prob=0.5, direction='horizontal'),
        dict(type='PackInputs'),
    ]
    train_dataloader = dict(
        batch_size=32,
        num_workers=5,
        dataset=dict(type=dataset_type, data_root='data/imagenet', split='train', pipeline=train_pipeline),
        sampler=dict(type='DefaultSampler', shuffle=True),
    )
    """

SCHEDULE = """\
    optim_wrapper = dict(
        optimizer=dict(type='SGD', lr=0.1, momentum=0.9, weight_decay=0.0001))
    train_cfg = dict(by_epoch=True, max_epochs=100, val_interval=1)
    """

MAIN = """\
    _base_ = [
        '../_base_/models/resnet50.py', '../_base_/datasets/imagenet_bs32.py',
        '../_base_/schedules/imagenet_bs256.py'
    ]
    """


def _project(tmp_path: Path, main: str = MAIN, depth: int = 50, classes: int = 1000, width: int = 2048) -> None:
    write(tmp_path, {"tools/train.py": TRAIN,
                     "configs/_base_/models/resnet50.py": MODEL.format(depth=depth, classes=classes, width=width),
                     "configs/_base_/datasets/imagenet_bs32.py": DATA,
                     "configs/_base_/schedules/imagenet_bs256.py": SCHEDULE,
                     "configs/resnet/r50.py": main})


def test_the_config_and_its_bases_give_the_runner_plan(cli, tmp_path: Path) -> None:
    _project(tmp_path)
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node=8", "tools/train.py", "configs/resnet/r50.py",
                   "--launcher", "pytorch", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == 32
    assert micro.source.path == "configs/_base_/datasets/imagenet_bs32.py" and micro.source.line == 9
    assert winner(plan, "data.num_workers") == 5
    assert winner(plan, "optimizer.name") == "SGD"
    assert winner(plan, "precision.mode") == "fp32"  # OptimWrapper: no autocast
    assert winner(plan, "batch.grad_accum") == 1
    assert winner(plan, "dist.sharding") == "ddp"
    assert winner(plan, "batch.global") == 256
    assert winner(plan, "data.image_size") == 224
    assert winner(plan, "compile.enabled") is False
    assert winner(plan, "peft.method") == "none"
    assert winner(plan, "model.num_parameters") == 25_557_032  # torchvision resnet50's published count
    assert winner(plan, "model.ref") == "resnet50"


def test_amp_on_the_line_and_cfg_options_apply_the_scripts_edits(cli, tmp_path: Path) -> None:
    _project(tmp_path)
    plan = plan_of(cli, "tools/train.py", "--", "configs/resnet/r50.py", "--amp", cwd=tmp_path)
    got = fact(plan, "precision.mode")
    assert got is not None and got.value == "amp_fp16" and got.source.path == "tools/train.py"
    assert winner(plan, "dist.sharding") != "ddp"  # launcher none: one process, no wrapper
    plan = plan_of(cli, "tools/train.py", "--", "configs/resnet/r50.py", "--cfg-options",
                   "train_dataloader.batch_size=64", "optim_wrapper.accumulative_counts=4", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 64 and winner(plan, "batch.grad_accum") == 4
    assert winner(plan, "precision.mode") == "fp32"


def test_the_childs_keys_merge_into_the_bases_and_delete_replaces(cli, tmp_path: Path) -> None:
    main = textwrap.dedent(MAIN) + textwrap.dedent("""\
    train_dataloader = dict(batch_size=128)
    optim_wrapper = dict(
        _delete_=True, type='AmpOptimWrapper', dtype='bfloat16',
        optimizer=dict(type='AdamW', lr=1e-3), accumulative_counts=2)
    compile = True
    """)
    _project(tmp_path, main=main)
    plan = plan_of(cli, "tools/train.py", "--", "configs/resnet/r50.py", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 128
    assert winner(plan, "data.num_workers") == 5  # kept from the base
    assert winner(plan, "optimizer.name") == "AdamW"
    assert winner(plan, "precision.mode") == "amp_bf16"
    assert winner(plan, "batch.grad_accum") == 2
    assert winner(plan, "compile.enabled") is True


@pytest.mark.parametrize("depth,published", [(18, 11_689_512), (34, 21_797_672), (101, 44_549_160),
                                             (152, 60_192_808)])
def test_resnet_sizes_match_torchvision(cli, tmp_path: Path, depth: int, published: int) -> None:
    width = 512 if depth < 50 else 2048
    _project(tmp_path, depth=depth, width=width)
    plan = plan_of(cli, "tools/train.py", "--", "configs/resnet/r50.py", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == published


def test_other_heads_and_backbones_are_not_counted(cli, tmp_path: Path) -> None:
    _project(tmp_path, classes=10)  # a CIFAR-10 head: counted, but it is not torchvision's resnet50
    plan = plan_of(cli, "tools/train.py", "--", "configs/resnet/r50.py", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == 25_557_032 - 2048 * 990 - 990
    assert winner(plan, "model.ref") is None
    main = textwrap.dedent(MAIN) + "model = dict(backbone=dict(type='ResNetV1d'))\n"
    _project(tmp_path, main=main)
    plan = plan_of(cli, "tools/train.py", "--", "configs/resnet/r50.py", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") is None
    main = textwrap.dedent(MAIN) + "model = dict(backbone=dict(deep_stem=True))\n"
    _project(tmp_path, main=main)
    plan = plan_of(cli, "tools/train.py", "--", "configs/resnet/r50.py", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") is None


def test_nothing_is_read_without_a_config_file_or_with_an_unknown_path(cli, tmp_path: Path) -> None:
    _project(tmp_path)
    plan = plan_of(cli, "tools/train.py", "--", "configs/resnet/missing.py", cwd=tmp_path)
    assert fact(plan, "batch.micro") is None and fact(plan, "optimizer.name") is None
    # an option not declared before the config: which token is the config is not known
    plan = plan_of(cli, "tools/train.py", "--", "--unknown", "x", "configs/resnet/r50.py", cwd=tmp_path)
    assert fact(plan, "batch.micro") is None


def test_a_base_not_read_leaves_the_defaults_unsaid(cli, tmp_path: Path) -> None:
    main = textwrap.dedent(MAIN).replace("'../_base_/schedules/imagenet_bs256.py'", "'mmdet::_base_/schedules/schedule_1x.py'")
    main += "optim_wrapper = dict(optimizer=dict(type='SGD', lr=0.02))\n"
    _project(tmp_path, main=main)
    plan = plan_of(cli, "tools/train.py", "--", "configs/resnet/r50.py", cwd=tmp_path)
    assert winner(plan, "optimizer.name") == "SGD"
    # the other package's base may set an AmpOptimWrapper, compile or LoRA: not said
    assert fact(plan, "precision.mode") is None and fact(plan, "compile.enabled") is None
    assert fact(plan, "peft.method") is None


def test_without_the_runner_its_defaults_are_not_claimed(cli, tmp_path: Path) -> None:
    _project(tmp_path)
    own = TRAIN.replace("from mmengine.runner import Runner\n", "").replace(
        "runner = Runner.from_cfg(cfg)\n        runner.train()", "print(cfg.train_dataloader.batch_size)")
    write(tmp_path, {"tools/train.py": own})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node=8", "tools/train.py", "configs/resnet/r50.py",
                   "--launcher", "pytorch", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 32  # the config's value
    for field in ("precision.mode", "batch.grad_accum", "dist.sharding", "compile.enabled", "peft.method"):
        got = fact(plan, field)
        assert got is None or got.adapter != "mmengine_config", field
