"""A yacs ``CfgNode`` configuration system carried into project code (adapters/config_object_yacs.py,
read by adapters/config_object_reads.py). Fixtures of our own copying real shapes, each citing
repository, path and commit; each must-fire test has a silent twin."""

from __future__ import annotations

from plan_helpers import plan_of, write

from tests.test_config_object import ours

# microsoft/Swin-Transformer @ f82860bfb5225915aca09c3227159ee9e1df874d: config.py:16-43,185,244-311
# (_C = CN(); _C.DATA = CN(); ...; _update_config_from_file with the YAML's BASE files; update_config
# with a nested _check_args(name) = hasattr(args, name) and eval(f'args.{name}'); get_config(args)
# returns _C.clone()), main.py:36-87 (parse_option returns args, config; --opts default None nargs='+'),
# main.py:303,354 (args, config = parse_option(); main(config)), main.py:199-203 (accumulation),
# data/__init__.py (build_loader wrapping data/build.py's, imported as _build_loader),
# data/build.py:68-74, optimizer.py:42-47 (opt_lower = config.TRAIN.OPTIMIZER.NAME.lower()),
# models/build.py (use_checkpoint=config.TRAIN.USE_CHECKPOINT), configs/swin/swin_base_patch4_window7_224.yaml.
SWIN = {
    "config.py": """\
        import os
        import yaml
        from yacs.config import CfgNode as CN

        _C = CN()
        _C.BASE = ['']
        _C.DATA = CN()
        _C.DATA.BATCH_SIZE = 128
        _C.DATA.IMG_SIZE = 224
        _C.DATA.PIN_MEMORY = True
        _C.DATA.NUM_WORKERS = 8
        _C.MODEL = CN()
        _C.MODEL.TYPE = 'swin'
        _C.MODEL.NAME = 'swin_tiny_patch4_window7_224'
        _C.TRAIN = CN()
        _C.TRAIN.ACCUMULATION_STEPS = 1
        _C.TRAIN.USE_CHECKPOINT = False
        _C.TRAIN.OPTIMIZER = CN()
        _C.TRAIN.OPTIMIZER.NAME = 'adamw'
        _C.OUTPUT = ''


        def _update_config_from_file(config, cfg_file):
            config.defrost()
            with open(cfg_file, 'r') as f:
                yaml_cfg = yaml.load(f, Loader=yaml.FullLoader)
            for cfg in yaml_cfg.setdefault('BASE', ['']):
                if cfg:
                    _update_config_from_file(config, os.path.join(os.path.dirname(cfg_file), cfg))
            config.merge_from_file(cfg_file)
            config.freeze()


        def update_config(config, args):
            _update_config_from_file(config, args.cfg)
            config.defrost()
            if args.opts:
                config.merge_from_list(args.opts)

            def _check_args(name):
                if hasattr(args, name) and eval(f'args.{name}'):
                    return True
                return False

            if _check_args('batch_size'):
                config.DATA.BATCH_SIZE = args.batch_size
            if _check_args('accumulation_steps'):
                config.TRAIN.ACCUMULATION_STEPS = args.accumulation_steps
            if _check_args('use_checkpoint'):
                config.TRAIN.USE_CHECKPOINT = True
            if _check_args('optim'):
                config.TRAIN.OPTIMIZER.NAME = args.optim
            config.OUTPUT = os.path.join(config.OUTPUT, config.MODEL.NAME)
            config.freeze()


        def get_config(args):
            config = _C.clone()
            update_config(config, args)
            return config
    """,
    "main.py": """\
        import argparse
        import torch
        from config import get_config
        from data import build_loader
        from optimizer import build_optimizer
        from models import build_model


        def parse_option():
            parser = argparse.ArgumentParser('Swin', add_help=False)
            parser.add_argument('--cfg', type=str, required=True)
            parser.add_argument("--opts", default=None, nargs='+')
            parser.add_argument('--batch-size', type=int)
            parser.add_argument('--accumulation-steps', type=int)
            parser.add_argument('--use-checkpoint', action='store_true')
            parser.add_argument('--optim', type=str)
            args, unparsed = parser.parse_known_args()
            config = get_config(args)
            return args, config


        def main(config):
            dataset_train, data_loader_train = build_loader(config)
            model = build_model(config)
            optimizer = build_optimizer(config, model)
            scaler = torch.cuda.amp.GradScaler()
            for idx, (samples, targets) in enumerate(data_loader_train):
                with torch.cuda.amp.autocast():
                    loss = model(samples).mean()
                loss = loss / config.TRAIN.ACCUMULATION_STEPS
                scaler.scale(loss).backward()
                if (idx + 1) % config.TRAIN.ACCUMULATION_STEPS == 0:
                    scaler.step(optimizer)
                    scaler.update()


        if __name__ == '__main__':
            args, config = parse_option()
            main(config)
    """,
    "data/__init__.py": """\
        from .build import build_loader as _build_loader


        def build_loader(config, simmim=False):
            if not simmim:
                return _build_loader(config)
            return None
    """,
    "data/build.py": """\
        import torch


        def build_loader(config):
            dataset_train = []
            data_loader_train = torch.utils.data.DataLoader(
                dataset_train,
                batch_size=config.DATA.BATCH_SIZE,
                num_workers=config.DATA.NUM_WORKERS,
                pin_memory=config.DATA.PIN_MEMORY,
                drop_last=True,
            )
            return dataset_train, data_loader_train
    """,
    "optimizer.py": """\
        from torch import optim as optim


        def build_optimizer(config, model):
            opt_lower = config.TRAIN.OPTIMIZER.NAME.lower()
            optimizer = None
            if opt_lower == 'sgd':
                optimizer = optim.SGD(model.parameters(), momentum=0.9, nesterov=True, lr=0.1)
            elif opt_lower == 'adamw':
                optimizer = optim.AdamW(model.parameters(), lr=0.001)
            return optimizer
    """,
    "models/__init__.py": """\
        from .build import build_model
    """,
    "models/build.py": """\
        from .swin import SwinTransformer


        def build_model(config):
            return SwinTransformer(img_size=config.DATA.IMG_SIZE, use_checkpoint=config.TRAIN.USE_CHECKPOINT)
    """,
    "models/swin.py": """\
        import torch


        class SwinTransformer(torch.nn.Module):
            def __init__(self, img_size=224, use_checkpoint=False):
                super().__init__()
                self.use_checkpoint = use_checkpoint
    """,
    "configs/base.yaml": """\
        DATA:
          NUM_WORKERS: 6
    """,
    "configs/swin_base.yaml": """\
        BASE: ['base.yaml']
        MODEL:
          TYPE: swin
          NAME: swin_base_patch4_window7_224
        DATA:
          IMG_SIZE: 192
    """,
}
LINE = ["--", "--cfg", "configs/swin_base.yaml", "--batch-size", "64", "--accumulation-steps", "2",
        "--use-checkpoint"]


def test_swin_yacs_keys_reach_the_project_builders(cli, tmp_path):
    write(tmp_path, SWIN)
    plan = plan_of(cli, "main.py", *LINE, cwd=tmp_path)
    micro = ours(plan, "batch.micro")
    assert micro is not None and micro.value == 64
    assert micro.source.kind == "cli" and micro.source.key == "--batch-size"
    assert ours(plan, "batch.grad_accum").value == 2
    ckpt = ours(plan, "memory.gradient_checkpointing")  # --use-checkpoint sets the key to True
    assert ckpt.value is True and (ckpt.source.path, ckpt.source.line) == ("config.py", 50)
    workers = ours(plan, "data.num_workers")  # the YAML's BASE file over the default
    assert workers.value == 6 and (workers.source.path, workers.source.line) == ("configs/base.yaml", 2)
    size = ours(plan, "data.image_size")
    assert size.value == 192 and size.source.path == "configs/swin_base.yaml"
    pin = ours(plan, "data.pin_memory")
    assert pin.value is True and (pin.source.path, pin.source.line) == ("config.py", 10)
    assert ours(plan, "optimizer.name").value == "AdamW"


def test_swin_defaults_when_the_line_does_not_set_them(cli, tmp_path):
    write(tmp_path, SWIN)
    plan = plan_of(cli, "main.py", "--", "--cfg", "configs/swin_base.yaml", "--optim", "sgd", cwd=tmp_path)
    micro = ours(plan, "batch.micro")
    assert micro.value == 128 and (micro.source.path, micro.source.line) == ("config.py", 8)
    assert ours(plan, "batch.grad_accum").value == 1
    assert ours(plan, "optimizer.name").value == "SGD"  # --optim sgd takes the other arm
    assert ours(plan, "memory.gradient_checkpointing").value is False


def test_opts_on_the_line_are_merged(cli, tmp_path):
    write(tmp_path, SWIN)
    plan = plan_of(cli, "main.py", *LINE, "--opts", "DATA.NUM_WORKERS", "3", cwd=tmp_path)
    assert ours(plan, "data.num_workers").value == 3


def test_undecided_update_leaves_the_key_unknown(cli, tmp_path):
    """Silent twin: the update is guarded by something not known statically (an environment
    variable): the batch size is the default or the line's, so it is not claimed."""
    files = dict(SWIN)
    files["config.py"] = files["config.py"].replace("if _check_args('batch_size'):",
                                                    "if os.environ.get('BS_FROM_ARGS'):")
    write(tmp_path, files)
    plan = plan_of(cli, "main.py", *LINE, cwd=tmp_path)
    assert ours(plan, "batch.micro") is None
    assert ours(plan, "batch.grad_accum").value == 2


def test_config_file_not_known_leaves_the_whole_node_unknown(cli, tmp_path):
    """Silent twin: the YAML named on the line is not there: no yacs key is claimed (what the file
    would set is unknown), not even the defaults."""
    write(tmp_path, {k: v for k, v in SWIN.items() if k != "configs/swin_base.yaml"})
    plan = plan_of(cli, "main.py", *LINE, cwd=tmp_path)
    assert ours(plan, "data.num_workers") is None
    assert ours(plan, "data.image_size") is None


# detectron2-style setup (facebookresearch/detectron2 @ 2a420ed: tools/train_net.py setup(args):
# cfg = get_cfg(); cfg.merge_from_file(args.config_file); cfg.merge_from_list(args.opts);
# cfg.freeze(); default_setup(cfg, args); return cfg); the library's own defaults are not known.
DETECTRON = {
    "train_net.py": """\
        import argparse
        from detectron2.config import get_cfg
        from torch.utils.data import DataLoader


        def setup(args):
            cfg = get_cfg()
            cfg.merge_from_file(args.config_file)
            cfg.merge_from_list(args.opts)
            cfg.freeze()
            return cfg


        def main(args):
            cfg = setup(args)
            loader = DataLoader([], batch_size=cfg.SOLVER.IMS_PER_BATCH, num_workers=cfg.DATALOADER.NUM_WORKERS)


        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--config-file", default="", metavar="FILE")
            parser.add_argument("opts", default=None, nargs=argparse.REMAINDER)
            args = parser.parse_args()
            main(args)
    """,
    "configs/retina.yaml": """\
        SOLVER:
          IMS_PER_BATCH: 16
    """,
}


def test_detectron2_style_yaml_keys_over_library_defaults(cli, tmp_path):
    write(tmp_path, DETECTRON)
    plan = plan_of(cli, "train_net.py", "--", "--config-file", "configs/retina.yaml", cwd=tmp_path)
    micro = ours(plan, "batch.micro")
    assert micro is not None and micro.value == 16 and micro.source.path == "configs/retina.yaml"
    # the library default of DATALOADER.NUM_WORKERS is not read: unknown, not guessed
    assert ours(plan, "data.num_workers") is None


def test_detectron2_style_opts_on_the_line_override_the_file(cli, tmp_path):
    """Positional ``opts`` (argparse.REMAINDER) given on the line: every token after the declared options,
    merged over the file's keys as yacs does."""
    write(tmp_path, DETECTRON)
    plan = plan_of(cli, "train_net.py", "--", "--config-file", "configs/retina.yaml", "SOLVER.IMS_PER_BATCH", "8",
                   cwd=tmp_path)
    micro = ours(plan, "batch.micro")
    assert micro is not None and micro.value == 8 and micro.source.kind == "cli"


def test_detectron2_style_opts_not_pairs_are_not_guessed(cli, tmp_path):
    """Silent twin: an odd list (a key without its value) is not what yacs merges: the node is unknown."""
    write(tmp_path, DETECTRON)
    plan = plan_of(cli, "train_net.py", "--", "--config-file", "configs/retina.yaml", "SOLVER.IMS_PER_BATCH",
                   cwd=tmp_path)
    assert ours(plan, "batch.micro") is None


# STVIR/pysot @ 9b07c521fd370ba38d35f35f76b275156564a681: tools/train.py:41-48,275-281
# (from pysot.core.config import cfg; cfg.merge_from_file(args.cfg) in main()), pysot/core/config.py
# (__C = CN(); cfg = __C; __C.TRAIN.BATCH_SIZE = 32 ...). Here the module-level node is named cfg.
PYSOT = {
    "tools/train.py": """\
        import argparse
        from torch.utils.data import DataLoader
        from pysot.core.config import cfg

        parser = argparse.ArgumentParser(description='siamrpn tracking')
        parser.add_argument('--cfg', type=str, default='config.yaml')
        args = parser.parse_args()


        def build_data_loader():
            return DataLoader([], batch_size=cfg.TRAIN.BATCH_SIZE, num_workers=cfg.TRAIN.NUM_WORKERS,
                              pin_memory=True)


        def main():
            cfg.merge_from_file(args.cfg)
            train_loader = build_data_loader()


        if __name__ == '__main__':
            main()
    """,
    "pysot/__init__.py": "",
    "pysot/core/__init__.py": "",
    "pysot/core/config.py": """\
        from yacs.config import CfgNode as CN

        cfg = CN()
        cfg.TRAIN = CN()
        cfg.TRAIN.BATCH_SIZE = 32
        cfg.TRAIN.NUM_WORKERS = 1
    """,
    "tools/config.yaml": """\
        TRAIN:
          BATCH_SIZE: 28
    """,
}


def test_pysot_module_level_node_merged_in_main(cli, tmp_path):
    write(tmp_path, PYSOT)
    plan = plan_of(cli, "tools/train.py", "--", "--cfg", "tools/config.yaml", cwd=tmp_path)
    assert ours(plan, "batch.micro").value == 28
    workers = ours(plan, "data.num_workers")
    assert workers.value == 1 and workers.source.path == "pysot/core/config.py"
