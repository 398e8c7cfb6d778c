"""detectron2's ``DefaultTrainer`` built from a yacs config (adapters/config_object_d2trainer.py), with
detectron2's ``default_argument_parser`` options (preflight/library_parsers.py). Shape of
facebookresearch/MaskFormer @ da3e60d ``train_net.py`` (also facebookresearch/Mask2Former and
detectron2's own ``tools/train_net.py``): ``class Trainer(DefaultTrainer)``, ``setup(args)`` merging
``args.config_file`` (a ``_BASE_`` chain, one value tagged ``!!python/object/apply:eval``), ``launch(main,
args.num_gpus, ...)``."""

from __future__ import annotations

import ast

from plan_helpers import plan_of, winner, write

from tests.test_config_object import ours

TRAIN_NET = """\
    from detectron2.config import get_cfg
    from detectron2.data import build_detection_train_loader
    from detectron2.engine import DefaultTrainer, default_argument_parser, launch


    class Trainer(DefaultTrainer):
        @classmethod
        def build_train_loader(cls, cfg):
            return build_detection_train_loader(cfg, mapper=None)
    {extra}

    def setup(args):
        cfg = get_cfg()
        cfg.merge_from_file(args.config_file)
        cfg.merge_from_list(args.opts)
        cfg.freeze()
        return cfg


    def main(args):
        cfg = setup(args)
        trainer = Trainer(cfg)
        trainer.resume_or_load(resume=args.resume)
        return trainer.train()


    if __name__ == "__main__":
        args = default_argument_parser().parse_args()
        launch(main, args.num_gpus, num_machines=args.num_machines, machine_rank=args.machine_rank, args=(args,))
"""

FILES = {
    "configs/Base.yaml": """\
        SOLVER:
          IMS_PER_BATCH: 16
          BASE_LR: 0.0001
        INPUT:
          MIN_SIZE_TRAIN: !!python/object/apply:eval ["[int(x * 0.1 * 512) for x in range(5, 21)]"]
          CROP:
            ENABLED: True
            TYPE: "absolute"
            SIZE: (512, 512)
        DATALOADER:
          NUM_WORKERS: 6
    """,
    "configs/r50.yaml": """\
        _BASE_: Base.yaml
        MODEL:
          WEIGHTS: "R-50.pkl"
    """,
}
LINE = ("train_net.py", "--", "--num-gpus", "8", "--config-file", "configs/r50.yaml")


def _plan(cli, tmp_path, extra: str = ""):
    write(tmp_path, {**FILES, "train_net.py": TRAIN_NET.replace("{extra}", extra)})
    return plan_of(cli, *LINE, cwd=tmp_path)


def test_default_trainer_reads_the_yacs_keys_of_the_base_chain(cli, tmp_path):
    plan = _plan(cli, tmp_path)
    total = ours(plan, "batch.global")
    assert total is not None and total.value == 16 and total.source.path == "configs/Base.yaml"
    assert ours(plan, "data.num_workers").value == 6
    assert ours(plan, "batch.grad_accum").value == 1
    assert ours(plan, "precision.mode").value == "fp32"  # SOLVER.AMP.ENABLED not set: detectron2's False
    assert ours(plan, "dist.sharding").value == "ddp"  # --num-gpus 8
    assert ours(plan, "optimizer.name").value == "SGD"  # build_optimizer left alone
    # detectron2's loop (adapters/visible_code.py): nothing of the job names torch.compile
    assert winner(plan, "compile.enabled") is False


def test_default_trainer_amp_and_opts_on_the_line(cli, tmp_path):
    write(tmp_path, {**FILES, "train_net.py": TRAIN_NET.replace("{extra}", "")})
    plan = plan_of(cli, *LINE, "SOLVER.AMP.ENABLED", "True", "SOLVER.IMS_PER_BATCH", "32", cwd=tmp_path)
    assert ours(plan, "precision.mode").value == "amp_fp16"
    assert ours(plan, "batch.global").value == 32


def test_overridden_methods_are_not_the_library_s(cli, tmp_path):
    """Silent twin: a subclass with its own ``build_optimizer`` and ``run_step`` says nothing of the
    optimizer, the accumulation or the precision."""
    extra = """
        @classmethod
        def build_optimizer(cls, cfg, model):
            return make_optimizer(cfg, model)

        def run_step(self):
            pass
"""
    plan = _plan(cli, tmp_path, extra)
    for field in ("optimizer.name", "batch.grad_accum", "precision.mode", "dist.sharding"):
        assert ours(plan, field) is None, field
    assert ours(plan, "batch.global").value == 16  # the loader is still detectron2's


def test_a_trainer_not_from_detectron2_is_not_read(cli, tmp_path):
    """Silent twin: a project's own ``DefaultTrainer`` (not detectron2's) reads nothing."""
    head = "    class DefaultTrainer:\n        def __init__(self, cfg):\n            self.cfg = cfg\n\n\n"
    text = TRAIN_NET.replace("{extra}", "").replace(
        "from detectron2.engine import DefaultTrainer, default_argument_parser, launch",
        "from detectron2.engine import default_argument_parser, launch")
    write(tmp_path, {**FILES, "train_net.py": head + text})
    ast.parse((tmp_path / "train_net.py").read_text())
    plan = plan_of(cli, *LINE, cwd=tmp_path)
    for field in ("batch.global", "batch.grad_accum", "optimizer.name", "dist.sharding", "data.num_workers"):
        assert ours(plan, field) is None, field
    assert winner(plan, "compile.enabled") is None  # no loop seen: nothing of the job is known to be absent


def test_the_library_mapper_crops_to_input_crop_size(cli, tmp_path):
    """``build_train_loader`` left alone: detectron2's DatasetMapper crops to an enabled absolute
    ``INPUT.CROP.SIZE`` (the YAML string ``(512, 512)`` read as yacs reads it)."""
    text = TRAIN_NET.replace("{extra}", "").replace(
        "    @classmethod\n        def build_train_loader(cls, cfg):\n"
        "            return build_detection_train_loader(cfg, mapper=None)\n", "    pass\n")
    write(tmp_path, {**FILES, "train_net.py": text})
    plan = plan_of(cli, *LINE, cwd=tmp_path)
    size = ours(plan, "data.image_size")
    assert size is not None and size.value == 512 and size.source.path == "configs/Base.yaml"


def test_a_project_mapper_that_does_not_read_the_crop_says_no_size(cli, tmp_path):
    """Silent twins: the script's own loader whose code never reads ``INPUT.CROP.SIZE``; a relative crop."""
    plan = _plan(cli, tmp_path)
    assert ours(plan, "data.image_size") is None
    text = TRAIN_NET.replace("{extra}", "").replace(
        "    @classmethod\n        def build_train_loader(cls, cfg):\n"
        "            return build_detection_train_loader(cfg, mapper=None)\n", "    pass\n")
    write(tmp_path, {**FILES, "train_net.py": text,
                     "configs/Base.yaml": FILES["configs/Base.yaml"].replace('"absolute"', '"relative_range"')})
    plan = plan_of(cli, *LINE, cwd=tmp_path)
    assert ours(plan, "data.image_size") is None


ARM = """
        @classmethod
        def build_optimizer(cls, cfg, model):
            optimizer_type = cfg.SOLVER.OPTIMIZER
            if optimizer_type == "SGD":
                optimizer = maybe_add_gradient_clipping(cfg, torch.optim.SGD)(model.parameters(), cfg.SOLVER.BASE_LR)
            elif optimizer_type == "ADAMW":
                optimizer = maybe_add_gradient_clipping(cfg, torch.optim.AdamW)(model.parameters(), cfg.SOLVER.BASE_LR)
            return optimizer
"""


def test_an_overridden_build_optimizer_gets_the_trainer_s_config(cli, tmp_path):
    """DefaultTrainer calls ``build_optimizer(cfg, model)`` with its config: the arm ``SOLVER.OPTIMIZER`` takes
    names the optimizer class handed to detectron2's gradient-clipping wrapper."""
    files = {**FILES, "configs/r50.yaml": FILES["configs/r50.yaml"].rstrip(" ") + "        SOLVER:\n          OPTIMIZER: ADAMW\n"}
    write(tmp_path, {**files, "train_net.py": "    import torch\n" + TRAIN_NET.replace("{extra}", ARM)})
    plan = plan_of(cli, *LINE, cwd=tmp_path)
    assert ours(plan, "optimizer.name").value == "AdamW"


def test_an_optimizer_key_the_config_lacks_names_no_arm(cli, tmp_path):
    """Silent twin: no ``SOLVER.OPTIMIZER`` in the YAML (a key of the library's defaults, not read): no arm."""
    write(tmp_path, {**FILES, "train_net.py": "    import torch\n" + TRAIN_NET.replace("{extra}", ARM)})
    plan = plan_of(cli, *LINE, cwd=tmp_path)
    assert ours(plan, "optimizer.name") is None


# a project's own copy of detectron2's engine (facebookresearch/CutLER @ cca0a27 ``cutler/engine/defaults.py``,
# re-exported by ``cutler/engine/__init__.py`` ``from .defaults import *``), imported by ``train_net.py:30``
ENGINE_INIT = "from .train_loop import *\nfrom .defaults import *\n"
ENGINE_DEFAULTS = """\
import argparse

from detectron2.engine import TrainerBase


def default_argument_parser(epilog=None):
    parser = argparse.ArgumentParser(epilog=epilog)
    parser.add_argument("--config-file", default="", metavar="FILE")
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--num-gpus", type=int, default=1)
    parser.add_argument("--num-machines", type=int, default=1)
    parser.add_argument("--dist-url", default="tcp://127.0.0.1:50152")
    parser.add_argument("opts", default=None, nargs=argparse.REMAINDER)
    return parser


class DefaultTrainer(TrainerBase):
    def __init__(self, cfg):
        super().__init__()
        model = self.build_model(cfg)
        optimizer = self.build_optimizer(cfg, model)
        data_loader = self.build_train_loader(cfg)
        if cfg.SOLVER.AMP.ENABLED:
            self._trainer = CustomAMPTrainer(model, data_loader, optimizer, cfg=cfg)
        else:
            self._trainer = CustomSimpleTrainer(model, data_loader, optimizer, cfg=cfg)

    @classmethod
    def build_model(cls, cfg):
        return build_model(cfg)

    @classmethod
    def build_optimizer(cls, cfg, model):
        return build_optimizer(cfg, model)

    @classmethod
    def build_train_loader(cls, cfg):
        return build_detection_train_loader(cfg)
"""
VENDORED_LINE = ("train_net.py", "--", "--num-gpus", "8", "--dist-url", "tcp://host:12399", "--config-file",
                 "configs/r50.yaml", "SOLVER.AMP.ENABLED", "True")


def _vendored(cli, tmp_path, defaults: str):
    text = TRAIN_NET.replace("{extra}", "").replace(
        "from detectron2.engine import DefaultTrainer, default_argument_parser, launch",
        "from engine import DefaultTrainer, default_argument_parser\n    from detectron2.engine import launch")
    write(tmp_path, {**FILES, "train_net.py": text, "engine/__init__.py": ENGINE_INIT,
                     "engine/train_loop.py": "", "engine/defaults.py": defaults})
    return plan_of(cli, *VENDORED_LINE, cwd=tmp_path)


def test_a_vendored_copy_of_detectron2_s_engine_is_read_as_detectron2(cli, tmp_path):
    """``from engine import DefaultTrainer, default_argument_parser`` of a local package whose definitions
    have detectron2's structure: its options (``--num-gpus``, ``--dist-url``, the trailing ``opts``) and
    its trainer's keys are detectron2's."""
    plan = _vendored(cli, tmp_path, ENGINE_DEFAULTS)
    assert winner(plan, "dist.world_size") == 8
    assert ours(plan, "batch.global").value == 16
    assert ours(plan, "precision.mode").value == "amp_fp16"  # SOLVER.AMP.ENABLED True among the opts
    assert ours(plan, "optimizer.name").value == "SGD"
    assert ours(plan, "dist.sharding").value == "ddp"


def test_a_local_engine_without_detectron2_s_structure_is_not_read(cli, tmp_path):
    """Silent twin: a local ``DefaultTrainer`` that does not choose its loop by ``SOLVER.AMP.ENABLED`` nor
    build with detectron2's ``build_*`` methods, and a parser without ``--num-gpus``, are not detectron2's."""
    other = ENGINE_DEFAULTS.replace("cfg.SOLVER.AMP.ENABLED", "cfg.use_amp").replace(
        '"--num-gpus"', '"--gpus"').replace("def build_optimizer", "def make_optimizer")
    plan = _vendored(cli, tmp_path, other)
    for field in ("batch.global", "precision.mode", "optimizer.name", "dist.sharding"):
        assert ours(plan, field) is None, field
