"""BasicSR's own training script vendored by a project (adapters/recipes_basicsr.py). A fixture of our own
copying the shape of megvii-research/NAFNet @ 2b4af71 (``basicsr/train.py:16-25`` imports ``create_dataloader``
from ``basicsr.data`` and ``create_model`` from ``basicsr.models``; ``options/train/GoPro/NAFNet-width32.yml``
``scale: 1``, ``datasets.train.gt_size: 256``, no ``pin_memory``; ``basicsr/data/__init__.py:115``
``dataset_opt.get('pin_memory', False)``): must-read cases and silent twins."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, winner, write

TRAIN = """\
    import argparse

    import torch
    from basicsr.data import create_dataloader, create_dataset
    from basicsr.models import create_model


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument('-opt', type=str, required=True)
        parser.add_argument('--launcher', choices=['none', 'pytorch', 'slurm'], default='none')
        args = parser.parse_args()


    if __name__ == '__main__':
        main()
"""

OPTIONS = """\
    name: deblur
    model_type: RestorationModel
    scale: SCALE
    datasets:
      train:
        name: pairs
        gt_size: 256
        num_worker_per_gpu: 4
        batch_size_per_gpu: 4
    train:
      optim_g:
        type: AdamW
"""

_LINE = ("python", "-m", "torch.distributed.launch", "--nproc_per_node=8", "basicsr/train.py", "-opt",
         "options/deblur.yml", "--launcher", "pytorch")


def _plan(cli, root: Path, scale: str = "1", train: str = TRAIN, options: str = OPTIONS) -> dict:
    write(root, {"basicsr/__init__.py": "", "basicsr/train.py": train, "basicsr/data/__init__.py": "",
                 "basicsr/models/__init__.py": "", "options/deblur.yml": options.replace("SCALE", scale)})
    return plan_of(cli, "--", *_LINE, cwd=root)


def test_vendored_basicsr_script_reads_the_options(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path)
    assert winner(plan, "dist.sharding") == "ddp"
    assert winner(plan, "batch.grad_accum") == 1
    assert winner(plan, "batch.global") == 32
    assert winner(plan, "data.image_size") == 256
    pin = fact(plan, "data.pin_memory")
    assert pin.value is False and "dataset_opt.get('pin_memory', False)" in pin.source.detail
    assert winner(plan, "compile.enabled") is False


def test_pin_memory_set_in_the_options_wins(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, options=OPTIONS.replace("gt_size: 256", "gt_size: 256\n        pin_memory: true"))
    assert winner(plan, "data.pin_memory") is True


def test_twin_upscaling_leaves_the_image_size(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, scale="4")  # a x4 model sees gt_size / 4
    assert winner(plan, "data.image_size") is None
    assert winner(plan, "batch.micro") == 4


def test_twin_a_script_without_basicsr_builders_is_not_read(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, train=TRAIN.replace("from basicsr.models import create_model\n", ""))
    assert winner(plan, "data.pin_memory") is None
    assert winner(plan, "dist.sharding") != "ddp"
