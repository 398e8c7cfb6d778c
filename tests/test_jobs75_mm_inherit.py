"""OpenMMLab config inheritance read as MMEngine reads it (``adapters/mmengine_loader.py``), never executed.

Each shape is a real one (semantics: mmengine 0.10.7 ``mmengine/config/config.py``, cited in the loader):

* ``x = _base_.a.b`` in a child: open-mmlab/mmyolo @ 8c4d9dc ``configs/rtmdet/rtmdet_l_syncbn_fast_8xb32-300e_coco.py:151``
  ``dict(type='LoadImageFromFile', backend_args=_base_.backend_args)``;
* ``{{_base_.a.b}}``: shikras/shikra @ ff79a4c ``config/_base_/dataset/mix_pretrain_final55.py:14``
  ``{{_base_.DEFAULT_TRAIN_DATASET.instruct}},``;
* ``with read_base(): from .._base_.x import *`` then ``model.update(...)``: open-mmlab/mmpretrain @ ee7f2e8
  ``mmpretrain/configs/swin_transformer/swin_base_16xb64_in1k.py:8-15``;
* a ``.py`` config on the launch line whose ``_base_`` sets a key the file does not: Pointcept/Pointcept @ d74c646
  ``configs/scannet/semseg-pt-v3m1-0-base.py:1`` over ``configs/_base_/default_runtime.py``;
* an MMCV 1.x training pipeline that ends in an exact resize: SwinTransformer/Video-Swin-Transformer @ db018fb
  ``configs/recognition/swin/swin_tiny_patch244_window877_kinetics400_1k.py:15-27`` (``Resize`` with
  ``scale=(224, 224), keep_ratio=False`` after an area crop).

The mmpretrain-style fixture (``tools/train.py``, ``_base_`` model, data and schedule files) is
``tests/test_mmengine_config.py``'s.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from plan_helpers import fact, plan_of, winner, write
from test_mmengine_config import _project

_SCHEDULE = "configs/_base_/schedules/imagenet_bs256.py"


def _plan(cli, tmp_path: Path, *parts: str):
    _project(tmp_path, main="".join(textwrap.dedent(p) for p in parts))
    return plan_of(cli, "--", "torchrun", "--nproc_per_node=8", "tools/train.py", "configs/resnet/r50.py",
                   "--launcher", "pytorch", cwd=tmp_path)


_MAIN = """\
    _base_ = [
        '../_base_/models/resnet50.py', '../_base_/datasets/imagenet_bs32.py',
        '../_base_/schedules/imagenet_bs256.py'
    ]
    """


def test_a_base_value_referenced_as_base_attribute_keeps_the_bases_line(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, _MAIN, """\
    optim_wrapper = dict(_delete_=True, type='AmpOptimWrapper', optimizer=_base_.optim_wrapper.optimizer)
    train_dataloader = dict(num_workers=_base_.train_dataloader.batch_size)
    """)
    opt = fact(plan, "optimizer.name")
    assert opt is not None and opt.value == "SGD", opt
    assert opt.source.path == _SCHEDULE and opt.source.line == 2, opt.source  # where the base sets it
    assert winner(plan, "precision.mode") == "amp_fp16"  # the child's own wrapper type
    workers = fact(plan, "data.num_workers")
    assert workers is not None and workers.value == 32  # the base's batch_size, put under num_workers
    assert workers.source.path == "configs/resnet/r50.py" and workers.source.line == 6, workers.source


def test_double_brace_base_reference_is_the_same_value(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, _MAIN, """\
    optim_wrapper = dict(_delete_=True, type='OptimWrapper', optimizer={{_base_.optim_wrapper.optimizer}})
    """)
    opt = fact(plan, "optimizer.name")
    assert opt is not None and opt.value == "SGD" and opt.source.path == _SCHEDULE, opt
    assert winner(plan, "precision.mode") == "fp32"


def test_twin_a_base_reference_to_a_key_no_base_sets_stays_unknown(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, _MAIN, """\
    optim_wrapper = dict(_delete_=True, type='OptimWrapper', optimizer=_base_.optimizer)
    train_dataloader = dict(batch_size={{_base_.train_batch_size_per_gpu}})
    """)
    assert fact(plan, "optimizer.name") is None
    assert fact(plan, "batch.micro") is None  # not the base's 32: the child replaced it with an unknown


_NEW_STYLE = """\
    from mmengine.config import read_base

    with read_base():
        from .._base_.models.resnet50 import *
        from .._base_.datasets.imagenet_bs32 import *
        from .._base_.schedules.imagenet_bs256 import *

    train_dataloader.update(batch_size=64)
    optim_wrapper.update(dict(optimizer=dict(type='AdamW')))
    """


def test_read_base_star_imports_and_update_merge_like_configdict(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, _NEW_STYLE)
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == 64, micro
    assert micro.source.path == "configs/resnet/r50.py" and micro.source.line == 8, micro.source
    workers = fact(plan, "data.num_workers")
    assert workers is not None and workers.value == 5  # kept from the imported base
    assert workers.source.path == "configs/_base_/datasets/imagenet_bs32.py", workers.source
    assert winner(plan, "optimizer.name") == "AdamW"
    assert winner(plan, "model.num_parameters") == 25_557_032  # the model imported from its base


def test_twin_names_changed_in_place_or_under_a_condition_stay_unknown(cli, tmp_path: Path) -> None:
    main = _NEW_STYLE.replace("train_dataloader.update(batch_size=64)", "train_dataloader['batch_size'] = 64") \
        .replace("optim_wrapper.update(dict(optimizer=dict(type='AdamW')))",
                 "if True:\n        optim_wrapper = dict(optimizer=dict(type='AdamW'))")
    plan = _plan(cli, tmp_path, main)
    assert fact(plan, "batch.micro") is None
    assert fact(plan, "optimizer.name") is None
    assert winner(plan, "model.num_parameters") == 25_557_032  # untouched names still read


def test_twin_a_cycle_of_bases_is_a_note_not_a_crash(cli, tmp_path: Path) -> None:
    _project(tmp_path, main="_base_ = ['./loop.py']\ntrain_dataloader = dict(batch_size=8)\n")
    write(tmp_path, {"configs/resnet/loop.py": "_base_ = ['./r50.py']\nnum_workers = 2\n"})
    plan = plan_of(cli, "tools/train.py", "--", "configs/resnet/r50.py", cwd=tmp_path)
    assert fact(plan, "batch.micro") is not None  # the file's own keys are read
    assert fact(plan, "compile.enabled") is None  # a base not read: the Runner's defaults are not claimed
    assert any("cycle" in n for n in plan["notes"]), plan["notes"]


_LAUNCH_TRAIN = """\
    import sys

    import torch
    from helpers import load_config


    def main():
        cfg = load_config(sys.argv[1])
        model = torch.nn.Linear(cfg.seq_len, 4)
        opt = torch.optim.AdamW(model.parameters())
        for step in range(10):
            loss = model(torch.zeros(2, cfg.seq_len)).sum()
            loss.backward()
            opt.step()
            opt.zero_grad()


    main()
    """
_HELPERS = """\
    import runpy


    def load_config(path):
        return runpy.run_path(path)
    """


def test_a_launch_line_python_config_reads_its_bases_key_with_the_bases_line(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": _LAUNCH_TRAIN, "helpers.py": _HELPERS,
                     "configs/_base_/default_runtime.py": "seed = 1\nseq_len = 2048\n",
                     "configs/exp/run.py": "_base_ = ['../_base_/default_runtime.py']\nseed = 7\n"})
    plan = plan_of(cli, "--", "python", "train.py", "configs/exp/run.py", cwd=tmp_path)
    seq = fact(plan, "data.seq_len")
    assert seq is not None and seq.value == 2048, seq
    assert seq.source.path == "configs/_base_/default_runtime.py" and seq.source.line == 2, seq.source
    assert seq.confidence != "high"


def test_twin_the_file_overrides_its_base_and_a_missing_base_reads_nothing(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": _LAUNCH_TRAIN, "helpers.py": _HELPERS,
                     "configs/_base_/default_runtime.py": "seed = 1\nseq_len = 2048\n",
                     "configs/exp/run.py": "_base_ = ['../_base_/default_runtime.py']\nseq_len = 1024\n",
                     "configs/exp/lost.py": "_base_ = ['../_base_/missing.py']\nseq_len = 4096\n"})
    plan = plan_of(cli, "--", "python", "train.py", "configs/exp/run.py", cwd=tmp_path)
    seq = fact(plan, "data.seq_len")
    assert seq is not None and seq.value == 1024 and seq.source.path == "configs/exp/run.py", seq
    plan = plan_of(cli, "--", "python", "train.py", "configs/exp/lost.py", cwd=tmp_path)
    assert fact(plan, "data.seq_len") is None  # Config.fromfile fails on a missing base: nothing is read


_MMCV_TRAIN = """\
    import argparse

    from mmcv import Config
    from mmaction.apis import train_model


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument('config')
        parser.add_argument('--launcher', default='none')
        args = parser.parse_args()
        cfg = Config.fromfile(args.config)
        train_model(cfg)


    main()
    """
_MMCV_CONFIG = """\
    train_pipeline = [
        dict(type='DecordInit'),
        dict(type='SampleFrames', clip_len=32, frame_interval=2, num_clips=1),
        dict(type='Resize', scale=(-1, 256)),
        dict(type='RandomResizedCrop'),
        dict(type='Resize', scale=(224, 224), keep_ratio=False),
        dict(type='Flip', flip_ratio=0.5),
        dict(type='FormatShape', input_format='NCTHW'),
    ]
    data = dict(videos_per_gpu=8, workers_per_gpu=4, train=dict(type='VideoDataset', pipeline=train_pipeline))
    optimizer = dict(type='AdamW', lr=1e-3)
    """


def test_mmcv_pipeline_ending_in_an_exact_resize_gives_the_image_size(cli, tmp_path: Path) -> None:
    write(tmp_path, {"tools/train.py": _MMCV_TRAIN, "configs/swin.py": _MMCV_CONFIG})
    plan = plan_of(cli, "tools/train.py", "--", "configs/swin.py", cwd=tmp_path)
    size = fact(plan, "data.image_size")
    assert size is not None and size.value == 224 and size.source.line == 6, size
    assert size.source.key == "data.train.pipeline.4.scale", size.source


def test_twin_a_resize_that_keeps_the_ratio_or_a_later_area_crop_leaves_it_unknown(cli, tmp_path: Path) -> None:
    kept = _MMCV_CONFIG.replace("dict(type='Resize', scale=(224, 224), keep_ratio=False)",
                                "dict(type='Resize', scale=(224, 224))")
    write(tmp_path, {"tools/train.py": _MMCV_TRAIN, "configs/swin.py": kept})
    assert fact(plan_of(cli, "tools/train.py", "--", "configs/swin.py", cwd=tmp_path), "data.image_size") is None
    later = _MMCV_CONFIG.replace("dict(type='Flip', flip_ratio=0.5)", "dict(type='RandomResizedCrop')")
    write(tmp_path, {"configs/swin.py": later})
    assert fact(plan_of(cli, "tools/train.py", "--", "configs/swin.py", cwd=tmp_path), "data.image_size") is None


def test_mmcv1_config_fully_read_says_no_compile_and_no_peft(cli, tmp_path: Path) -> None:
    write(tmp_path, {"tools/train.py": _MMCV_TRAIN, "configs/swin.py": _MMCV_CONFIG})
    plan = plan_of(cli, "tools/train.py", "--", "configs/swin.py", cwd=tmp_path)
    compiled = fact(plan, "compile.enabled")
    assert compiled is not None and compiled.value is False and compiled.confidence == "medium", compiled
    peft = fact(plan, "peft.method")
    assert peft is not None and peft.value == "none" and peft.confidence == "medium", peft


def test_twin_mmcv1_project_that_compiles_or_names_lora_or_has_an_unread_base(cli, tmp_path: Path) -> None:
    compiling = _MMCV_TRAIN.replace("train_model(cfg)", "train_model(cfg, wrap=torch.compile)") \
        .replace("import argparse", "import argparse\n\n    import torch")
    write(tmp_path, {"tools/train.py": compiling, "configs/swin.py": _MMCV_CONFIG,
                     "mmaction/lora.py": "def add_lora(model, r=8):\n    return model\n"})
    plan = plan_of(cli, "tools/train.py", "--", "configs/swin.py", cwd=tmp_path)
    got = fact(plan, "compile.enabled")
    assert got is None or got.value is not False, got
    got = fact(plan, "peft.method")
    assert got is None or got.value != "none", got
    write(tmp_path, {"tools/train.py": _MMCV_TRAIN, "mmaction/lora.py": "x = 1\n",
                     "configs/swin.py": "_base_ = ['./gone.py']\n" + textwrap.dedent(_MMCV_CONFIG)})
    plan = plan_of(cli, "tools/train.py", "--", "configs/swin.py", cwd=tmp_path)
    assert fact(plan, "compile.enabled") is None and fact(plan, "peft.method") is None


def test_twin_read_base_of_another_package_claims_no_runner_defaults(cli, tmp_path: Path) -> None:
    main = _NEW_STYLE.replace("from .._base_.schedules.imagenet_bs256 import *",
                              "from .._base_.schedules.imagenet_bs256 import *\n"
                              "        from mmpretrain.configs._base_.default_runtime import *")
    plan = _plan(cli, tmp_path, main)
    assert fact(plan, "compile.enabled") is None  # a base not read: the Runner's defaults are not claimed
    assert fact(plan, "precision.mode") is None
    assert winner(plan, "batch.micro") == 64  # what the file and its relative bases say is still read


_REGISTRY_MODEL = """\
    import torch

    MODELS = None


    @MODELS.register_module("PT-v3m1")
    class PointTransformerV3(torch.nn.Module):
        def __init__(
            self,
            stride=(2, 2, 2, 2),
            enc_depths=(2, 2, 2, 6, 2),
            enable_flash=True,
        ):
            super().__init__()
            self.enable_flash = enable_flash
    """


def test_a_registry_name_that_is_no_class_name_finds_the_registered_class(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": _LAUNCH_TRAIN, "helpers.py": _HELPERS, "models/ptv3.py": _REGISTRY_MODEL,
                     "configs/exp/run.py": "seq_len = 2048\nmodel = dict(backbone=dict(type='PT-v3m1', "
                                           "stride=(2, 2, 2, 2), enable_flash=True))\n"})
    plan = plan_of(cli, "--", "python", "train.py", "configs/exp/run.py", cwd=tmp_path)
    attn = fact(plan, "model.attn_implementation")
    assert attn is not None and attn.value == "flash_attention_2", attn
    assert (attn.source.path, attn.source.line) == ("configs/exp/run.py", 2), attn.source
    assert "models/ptv3.py:8" in attn.source.detail, attn.source.detail  # the __init__ that takes it


def test_twin_a_registry_name_registered_nowhere_or_twice_reads_nothing(cli, tmp_path: Path) -> None:
    config = "seq_len = 2048\nmodel = dict(backbone=dict(type='PT-v3m2', enable_flash=True))\n"
    write(tmp_path, {"train.py": _LAUNCH_TRAIN, "helpers.py": _HELPERS, "models/ptv3.py": _REGISTRY_MODEL,
                     "configs/exp/run.py": config})
    plan = plan_of(cli, "--", "python", "train.py", "configs/exp/run.py", cwd=tmp_path)
    assert fact(plan, "model.attn_implementation") is None
    twice = _REGISTRY_MODEL.replace("PointTransformerV3", "PointTransformerV3Copy")
    write(tmp_path, {"models/ptv3_copy.py": twice, "configs/exp/run.py": config.replace("v3m2", "v3m1")})
    plan = plan_of(cli, "--", "python", "train.py", "configs/exp/run.py", cwd=tmp_path)
    assert fact(plan, "model.attn_implementation") is None


def test_twin_a_one_line_init_is_read_alone_not_with_the_next_method(cli, tmp_path: Path) -> None:
    """``def __init__(self): pass`` takes no ``enable_flash``; the method after it that does is no constructor."""
    model = """\
    MODELS = None


    @MODELS.register_module("PT-v3m1")
    class PointTransformerV3:
        def __init__(self): pass

        def forward(self, x, enable_flash=True):
            return x
    """
    write(tmp_path, {"train.py": _LAUNCH_TRAIN, "helpers.py": _HELPERS, "models/ptv3.py": model,
                     "configs/exp/run.py": "seq_len = 2048\nmodel = dict(backbone=dict(type='PT-v3m1', "
                                           "enable_flash=True))\n"})
    plan = plan_of(cli, "--", "python", "train.py", "configs/exp/run.py", cwd=tmp_path)
    assert fact(plan, "model.attn_implementation") is None
