"""detectron2 LazyConfig Python configs read as literals (adapters/lazyconfig.py). Fixture of our own
in the shape of facebookresearch/detectron2 @ 02b5c4e ``tools/lazyconfig_train_net.py`` and
``configs/new_baselines/mask_rcnn_R_50_FPN_100ep_LSJ.py`` (relative imports of sibling config
files, attribute assignments, LazyCall trees); with twins."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

SCRIPT = """\
    from detectron2.config import LazyConfig, instantiate
    from detectron2.engine import AMPTrainer, SimpleTrainer, default_argument_parser, launch
    from detectron2.engine.defaults import create_ddp_model


    def do_train(args, cfg):
        model = instantiate(cfg.model)
        optim = instantiate(cfg.optimizer)
        train_loader = instantiate(cfg.dataloader.train)
        model = create_ddp_model(model, **cfg.train.ddp)
        trainer = (AMPTrainer if cfg.train.amp.enabled else SimpleTrainer)(model, train_loader, optim)
        trainer.train(0, cfg.train.max_iter)


    def main(args):
        cfg = LazyConfig.load(args.config_file)
        cfg = LazyConfig.apply_overrides(cfg, args.opts)
        do_train(args, cfg)


    if __name__ == "__main__":
        args = default_argument_parser().parse_args()
        launch(main, args.num_gpus, num_machines=args.num_machines, args=(args,))
"""

FILES = {
    "tools/train_net.py": SCRIPT,
    "configs/common/train.py": """\
        train = dict(max_iter=90000, amp=dict(enabled=False), ddp=dict(fp16_compression=False))
    """,
    "configs/common/optim.py": """\
        import torch

        from detectron2.config import LazyCall as L

        SGD = L(torch.optim.SGD)(lr=0.02, momentum=0.9)
        AdamW = L(torch.optim.AdamW)(lr=1e-4)
    """,
    "configs/common/data.py": """\
        from omegaconf import OmegaConf

        import detectron2.data.transforms as T
        from detectron2.config import LazyCall as L
        from detectron2.data import DatasetMapper, build_detection_train_loader

        dataloader = OmegaConf.create()
        dataloader.train = L(build_detection_train_loader)(
            mapper=L(DatasetMapper)(augmentations=[L(T.RandomFlip)(horizontal=True)]),
            total_batch_size=16,
            num_workers=4,
        )
    """,
    "configs/lsj/mask_rcnn.py": """\
        import detectron2.data.transforms as T
        from detectron2.config import LazyCall as L

        from ..common.data import dataloader
        from ..common.optim import AdamW as optimizer
        from ..common.train import train

        train.amp.enabled = True
        image_size = 512
        dataloader.train.mapper.augmentations = [
            L(T.FixedSizeCrop)(crop_size=(image_size, image_size)),
        ]
        dataloader.train.total_batch_size = 8 * 4
    """,
}


def _plan(cli, tmp_path, *args):
    write(tmp_path, FILES)
    return plan_of(cli, "tools/train_net.py", "--", "--config-file", "configs/lsj/mask_rcnn.py", *args, cwd=tmp_path)


def test_the_lazyconfig_and_its_imports_give_the_plan(cli, tmp_path):
    plan = _plan(cli, tmp_path, "--num-gpus", "4")
    glob = fact(plan, "batch.global")
    assert (glob.value, glob.source.path, glob.source.line) == (32, "configs/lsj/mask_rcnn.py", 13)
    assert fact(plan, "batch.micro").value == 8  # 32 // 4 processes
    assert fact(plan, "optimizer.name").value == "AdamW"  # imported `as optimizer`
    workers = fact(plan, "data.num_workers")
    assert (workers.value, workers.source.path) == (4, "configs/common/data.py")
    assert fact(plan, "data.pin_memory").value is False
    assert fact(plan, "data.image_size").value == 512
    assert fact(plan, "precision.mode").value == "amp_fp16"
    assert fact(plan, "dist.sharding").value == "ddp"


def test_launch_overrides_and_one_process(cli, tmp_path):
    plan = _plan(cli, tmp_path, "train.amp.enabled=False", "dataloader.train.num_workers=2")
    assert fact(plan, "precision.mode").value == "fp32"
    workers = fact(plan, "data.num_workers")
    assert (workers.value, workers.source.kind) == (2, "cli")
    assert fact(plan, "batch.micro").value == 32
    sharding = fact(plan, "dist.sharding")
    assert sharding is None or sharding.adapter != "lazyconfig"


def test_values_not_literal_and_a_world_that_does_not_divide_stay_unknown(cli, tmp_path):
    files = dict(FILES)
    files["configs/lsj/mask_rcnn.py"] = FILES["configs/lsj/mask_rcnn.py"].replace(
        "dataloader.train.total_batch_size = 8 * 4", "dataloader.train.total_batch_size = compute_batch()"
    ).replace("train.amp.enabled = True", "train.amp.enabled = use_amp()")
    write(tmp_path, files)
    plan = plan_of(cli, "tools/train_net.py", "--", "--config-file", "configs/lsj/mask_rcnn.py", "--num-gpus", "3",
                   cwd=tmp_path)
    for field in ("batch.global", "batch.micro", "precision.mode"):
        got = fact(plan, field)
        assert got is None or got.adapter != "lazyconfig", field
    assert fact(plan, "optimizer.name").value == "AdamW"


def test_a_script_without_amptrainer_claims_no_precision(cli, tmp_path):
    files = dict(FILES)
    files["tools/train_net.py"] = SCRIPT.replace(
        "(AMPTrainer if cfg.train.amp.enabled else SimpleTrainer)", "MyTrainer").replace("AMPTrainer, ", "")
    write(tmp_path, files)
    plan = plan_of(cli, "tools/train_net.py", "--", "--config-file", "configs/lsj/mask_rcnn.py", "--num-gpus", "2",
                   cwd=tmp_path)
    got = fact(plan, "precision.mode")
    assert got is None or got.adapter != "lazyconfig"
    assert fact(plan, "batch.micro").value == 16


def test_a_broken_or_missing_config_file_is_no_traceback(cli, tmp_path):
    files = dict(FILES)
    files["configs/common/data.py"] = "dataloader = OmegaConf.create(\n"
    write(tmp_path, files)
    plan = plan_of(cli, "tools/train_net.py", "--", "--config-file", "configs/lsj/mask_rcnn.py", cwd=tmp_path)
    assert fact(plan, "batch.global") is None  # the import it edits is unreadable: the edit lands nowhere
    assert fact(plan, "optimizer.name").value == "AdamW"
    plan = plan_of(cli, "tools/train_net.py", "--", "--config-file", "configs/nope.py", cwd=tmp_path)
    assert fact(plan, "optimizer.name") is None
