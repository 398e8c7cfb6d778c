"""Three readings of a yacs project's own training code (adapters/config_object_yacs_loop.py) and an autocast a
project module re-exports (adapters/config_object_autocast.py ``reexported``). Fixtures of our own copying the
shapes of two real repositories; each must-find test has twins that must stay silent."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

from tests.test_config_object import ours

# microsoft/GLIP @ 9dda9558c1ef59bb6cdc8e896e2bcab775a68ff0 (a vendored facebookresearch/maskrcnn-benchmark):
# tools/train_net.py:14-19,34,51-56,196-202 (``from maskrcnn_benchmark.config import cfg``; argparse
# ``--config-file`` and ``opts`` REMAINDER; ``cfg.merge_from_file``; ``cfg.merge_from_list``;
# ``make_data_loader(cfg, is_train=True, is_distributed=distributed)``; ``do_train(cfg, ...)``),
# maskrcnn_benchmark/config/__init__.py (``from .defaults import _C as cfg``), config/defaults.py (``_C = CN()``),
# data/build.py:244-253 (``num_gpus = num_replicas or get_world_size()``; ``if is_train: images_per_batch =
# cfg.SOLVER.IMS_PER_BATCH ... images_per_gpu = images_per_batch // num_gpus``), utils/amp.py:7-13 (``try: from
# torch.cuda.amp import autocast, GradScaler`` with a nullcontext fallback), engine/trainer.py:71-72,118-155.
MRCNN = {
    "tools/train_net.py": """\
        import argparse
        import os
        import torch
        from maskrcnn_benchmark.config import cfg
        from maskrcnn_benchmark.data import make_data_loader
        from maskrcnn_benchmark.engine.trainer import do_train


        def train(cfg, local_rank, distributed):
            model = torch.nn.Linear(4, 4)
            optimizer = torch.optim.SGD(model.parameters(), lr=cfg.SOLVER.BASE_LR)
            if distributed:
                model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[local_rank])
            data_loader = make_data_loader(cfg, is_train=True, is_distributed=distributed)
            do_train(cfg, model, data_loader, optimizer)
            return model


        def main():
            parser = argparse.ArgumentParser(description="PyTorch Object Detection Training")
            parser.add_argument("--config-file", default="", metavar="FILE")
            parser.add_argument("--local_rank", type=int, default=0)
            parser.add_argument("opts", default=None, nargs=argparse.REMAINDER)
            args = parser.parse_args()
            num_gpus = int(os.environ["WORLD_SIZE"]) if "WORLD_SIZE" in os.environ else 1
            args.distributed = num_gpus > 1
            cfg.merge_from_file(args.config_file)
            cfg.merge_from_list(args.opts)
            cfg.freeze()
            train(cfg, args.local_rank, args.distributed)


        if __name__ == "__main__":
            main()
    """,
    "maskrcnn_benchmark/__init__.py": "",
    "maskrcnn_benchmark/config/__init__.py": """\
        from .defaults import _C as cfg
    """,
    "maskrcnn_benchmark/config/defaults.py": """\
        from yacs.config import CfgNode as CN

        _C = CN()
        _C.SOLVER = CN()
        _C.SOLVER.BASE_LR = 0.001
        _C.SOLVER.IMS_PER_BATCH = 16
        _C.SOLVER.USE_AMP = False
        _C.SOLVER.MAX_ITER = 40000
        _C.TEST = CN()
        _C.TEST.IMS_PER_BATCH = 8
        _C.DATALOADER = CN()
        _C.DATALOADER.NUM_WORKERS = 4
    """,
    "maskrcnn_benchmark/data/__init__.py": """\
        from .build import make_data_loader
    """,
    "maskrcnn_benchmark/data/build.py": """\
        import torch
        from maskrcnn_benchmark.utils.comm import get_world_size


        def make_data_loader(cfg, is_train=True, is_distributed=False, num_replicas=None, start_iter=0):
            num_gpus = num_replicas or get_world_size()
            if is_train:
                images_per_batch = cfg.SOLVER.IMS_PER_BATCH
                assert images_per_batch % num_gpus == 0, "SOLVER.IMS_PER_BATCH must be divisible"
                images_per_gpu = images_per_batch // num_gpus
                num_iters = cfg.SOLVER.MAX_ITER
            else:
                images_per_batch = cfg.TEST.IMS_PER_BATCH
                images_per_gpu = images_per_batch // num_gpus
                num_iters = None
            sampler = torch.utils.data.sampler.BatchSampler([], images_per_gpu, drop_last=False)
            return torch.utils.data.DataLoader([], num_workers=cfg.DATALOADER.NUM_WORKERS, batch_sampler=sampler)
    """,
    "maskrcnn_benchmark/utils/__init__.py": "",
    "maskrcnn_benchmark/utils/comm.py": """\
        import torch.distributed as dist


        def get_world_size():
            if not dist.is_available() or not dist.is_initialized():
                return 1
            return dist.get_world_size()
    """,
    "maskrcnn_benchmark/utils/amp.py": """\
        from contextlib import contextmanager


        @contextmanager
        def nullcontext(enter_result=None, **kwargs):
            yield enter_result


        try:
            from torch.cuda.amp import autocast, GradScaler
        except ImportError:
            GradScaler = nullcontext
            autocast = nullcontext
    """,
    "maskrcnn_benchmark/engine/__init__.py": "",
    "maskrcnn_benchmark/engine/trainer.py": """\
        from maskrcnn_benchmark.utils.amp import autocast, GradScaler


        def do_train(cfg, model, data_loader, optimizer):
            model.train()
            if cfg.SOLVER.USE_AMP:
                scaler = GradScaler()
            for iteration, (images, targets) in enumerate(data_loader):
                if cfg.SOLVER.USE_AMP:
                    with autocast():
                        losses = model(images).sum()
                else:
                    losses = model(images).sum()
                optimizer.zero_grad()
                if cfg.SOLVER.USE_AMP:
                    scaler.scale(losses).backward()
                    scaler.step(optimizer)
                    scaler.update()
                else:
                    losses.backward()
                    optimizer.step()
    """,
    "configs/glip_tiny.yaml": """\
        SOLVER:
          IMS_PER_BATCH: 64
          USE_AMP: True
    """,
}
MRCNN_LINE = ["--", "python", "-m", "torch.distributed.launch", "--nproc_per_node=4", "tools/train_net.py",
              "--config-file", "configs/glip_tiny.yaml", "SOLVER.IMS_PER_BATCH", "32"]


def test_maskrcnn_total_batch_and_reexported_autocast(cli, tmp_path):
    write(tmp_path, MRCNN)
    plan = plan_of(cli, "tools/train_net.py", *MRCNN_LINE, cwd=tmp_path)
    total = ours(plan, "batch.global")
    assert total is not None and total.value == 32 and total.source.kind == "cli"
    assert "images_per_gpu = images_per_batch // num_gpus" in total.source.detail
    assert fact(plan, "batch.micro").value == 8  # 32 over 4 processes
    amp = ours(plan, "precision.mode")
    assert amp is not None and amp.value == "amp_fp16"
    assert (amp.source.path, amp.source.line) == ("configs/glip_tiny.yaml", 3)
    assert "torch.cuda.amp.autocast" in amp.source.detail


def test_maskrcnn_twins_stay_unknown(cli, tmp_path):
    """Silent twins: the evaluation loader only (``is_train=False``: TEST.IMS_PER_BATCH is no training batch), a
    divisor that is no world size (a literal 2), and an ``autocast`` the project defines itself (not torch's)."""
    files = dict(MRCNN)
    files["tools/train_net.py"] = files["tools/train_net.py"].replace("is_train=True", "is_train=False")
    assert files["tools/train_net.py"] != MRCNN["tools/train_net.py"]
    write(tmp_path, files)
    assert ours(plan_of(cli, "tools/train_net.py", *MRCNN_LINE, cwd=tmp_path), "batch.global") is None

    files = dict(MRCNN)
    files["maskrcnn_benchmark/data/build.py"] = files["maskrcnn_benchmark/data/build.py"].replace(
        "images_per_batch // num_gpus", "images_per_batch // 2", 1)  # the training arm's
    files["maskrcnn_benchmark/utils/amp.py"] = """\
        from contextlib import contextmanager


        @contextmanager
        def autocast():
            yield None


        class GradScaler:
            pass
    """
    assert files["maskrcnn_benchmark/data/build.py"] != MRCNN["maskrcnn_benchmark/data/build.py"]
    write(tmp_path, files)
    plan = plan_of(cli, "tools/train_net.py", *MRCNN_LINE, cwd=tmp_path)
    assert ours(plan, "batch.global") is None
    assert ours(plan, "precision.mode") is None


# microsoft/FocalNet @ e8514bdcfe1eb6e7e110403e9f2972c67dfed1c3 (the microsoft/Swin-Transformer layout):
# config.py:98,101,160,181-221 (``_C.TRAIN.ACCUMULATION_STEPS = 0``, ``_C.AMP_OPT_LEVEL = ''``, update_config with
# plain ``if args.batch_size:`` / ``if args.amp_opt_level:`` tests), main.py:29-33 (``try: from apex import amp``),
# main.py:36-72 (parse_option: ``--amp-opt-level`` default 'O1', ``--accumulation-steps``), main.py:89-92
# (``if config.AMP_OPT_LEVEL != "O0": amp.initialize(..., opt_level=config.AMP_OPT_LEVEL)``), main.py:175-214
# (the accumulation arm under ``if config.TRAIN.ACCUMULATION_STEPS > 1:``, the else arm stepping every iteration).
FOCAL = {
    "config.py": """\
        import os
        import yaml
        from yacs.config import CfgNode as CN

        _C = CN()
        _C.BASE = ['']
        _C.DATA = CN()
        _C.DATA.BATCH_SIZE = 128
        _C.DATA.NUM_WORKERS = 8
        _C.TRAIN = CN()
        _C.TRAIN.ACCUMULATION_STEPS = 0
        _C.AMP_OPT_LEVEL = ''
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
            if args.batch_size:
                config.DATA.BATCH_SIZE = args.batch_size
            if args.accumulation_steps:
                config.TRAIN.ACCUMULATION_STEPS = args.accumulation_steps
            if args.amp_opt_level:
                config.AMP_OPT_LEVEL = args.amp_opt_level
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

        try:
            from apex import amp
        except ImportError:
            amp = None


        def parse_option():
            parser = argparse.ArgumentParser('FocalNet training', add_help=False)
            parser.add_argument('--cfg', type=str, required=True)
            parser.add_argument("--opts", default=None, nargs='+')
            parser.add_argument('--batch-size', type=int)
            parser.add_argument('--accumulation-steps', type=int)
            parser.add_argument('--amp-opt-level', type=str, default='O1', choices=['O0', 'O1', 'O2'])
            parser.add_argument("--local_rank", type=int, required=True)
            args, unparsed = parser.parse_known_args()
            config = get_config(args)
            return args, config


        def main(config):
            data_loader = torch.utils.data.DataLoader([], batch_size=config.DATA.BATCH_SIZE,
                                                      num_workers=config.DATA.NUM_WORKERS)
            model = torch.nn.Linear(4, 4)
            optimizer = torch.optim.AdamW(model.parameters())
            if config.AMP_OPT_LEVEL != "O0":
                model, optimizer = amp.initialize(model, optimizer, opt_level=config.AMP_OPT_LEVEL)
            model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[0])
            train_one_epoch(config, model, data_loader, optimizer)


        def train_one_epoch(config, model, data_loader, optimizer):
            optimizer.zero_grad()
            for idx, (samples, targets) in enumerate(data_loader):
                outputs = model(samples)
                if config.TRAIN.ACCUMULATION_STEPS > 1:
                    loss = outputs.mean() / config.TRAIN.ACCUMULATION_STEPS
                    loss.backward()
                    if (idx + 1) % config.TRAIN.ACCUMULATION_STEPS == 0:
                        optimizer.step()
                        optimizer.zero_grad()
                else:
                    loss = outputs.mean()
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()


        if __name__ == '__main__':
            _, config = parse_option()
            main(config)
    """,
    "configs/focal_tiny.yaml": """\
        DATA:
          NUM_WORKERS: 6
    """,
}
FOCAL_LINE = ["--", "python", "-m", "torch.distributed.launch", "--nproc_per_node", "8", "main.py",
              "--cfg", "configs/focal_tiny.yaml", "--batch-size", "128"]


def test_focalnet_apex_level_and_accumulation_guard(cli, tmp_path):
    write(tmp_path, FOCAL)
    plan = plan_of(cli, "main.py", *FOCAL_LINE, cwd=tmp_path)
    amp = ours(plan, "precision.mode")
    assert amp is not None and amp.value == "amp_fp16" and "apex amp.initialize" in amp.source.detail
    accum = ours(plan, "batch.grad_accum")
    assert accum is not None and accum.value == 1
    assert (accum.source.path, accum.source.line) == ("config.py", 11)
    assert fact(plan, "batch.global").value == 1024  # 128 x 1 x 8

    plan = plan_of(cli, "main.py", *FOCAL_LINE, "--accumulation-steps", "4", "--amp-opt-level", "O2", cwd=tmp_path)
    assert ours(plan, "batch.grad_accum").value == 4
    assert ours(plan, "precision.mode").value == "fp16"  # O2: fp16 weights, fp32 master copies


def test_focalnet_twins_stay_unknown(cli, tmp_path):
    """Silent twins: O0 skips the call (no level read from it); an ``else`` arm that also steps every ``key``
    iterations says nothing of the key; an accumulation guard decided by something not known."""
    write(tmp_path, FOCAL)
    plan = plan_of(cli, "main.py", *FOCAL_LINE, "--amp-opt-level", "O0", cwd=tmp_path)
    amp = ours(plan, "precision.mode")
    assert amp is None or "amp.initialize" not in amp.source.detail

    files = dict(FOCAL)
    files["main.py"] = files["main.py"].replace(
        "                    optimizer.zero_grad()\n                    loss.backward()\n                    optimizer.step()",
        "                    loss.backward()\n                    if idx % config.TRAIN.ACCUMULATION_STEPS == 0:\n"
        "                        optimizer.step()")
    assert files["main.py"] != FOCAL["main.py"]
    write(tmp_path, files)
    assert ours(plan_of(cli, "main.py", *FOCAL_LINE, cwd=tmp_path), "batch.grad_accum") is None

    files = dict(FOCAL)
    files["main.py"] = files["main.py"].replace("if config.TRAIN.ACCUMULATION_STEPS > 1:",
                                                "if config.TRAIN.ACCUMULATION_STEPS > 1 and torch.rand(1) > 0.5:")
    assert files["main.py"] != FOCAL["main.py"]
    write(tmp_path, files)
    assert ours(plan_of(cli, "main.py", *FOCAL_LINE, cwd=tmp_path), "batch.grad_accum") is None
