"""Sets 12, 14, 21 and 22's non-model shapes (branch jobs37): fixtures of our own rebuilding the real
code's shape, each with a must-read test and a twin that must stay as before.

- timm's loss-scaler convention in an ``if``/``else``: one way hands the loss and the optimizer to the
  scaler (``loss_scaler(loss, optimizer, clip_grad=...)``), the other back-propagates and steps
  (NVlabs/MambaVision @ 7860a506 ``mambavision/train.py:879-895`` in the script itself; hustvl/Vim @
  dd0358ad ``vim/engine.py:36-90`` in a local module's ``train_one_epoch`` loop): one optimizer step
  per batch either way.
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

TIMM_LOOP = """\
    import argparse

    import torch
    from timm.utils import NativeScaler

    parser = argparse.ArgumentParser()
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--amp", action="store_true")
    args = parser.parse_args()


    def train_one_epoch(model, loader, optimizer, loss_scaler=None):
        for x, y in loader:
            loss = torch.nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            if loss_scaler is not None:
                loss_scaler(loss, optimizer, clip_grad=None, parameters=model.parameters())
            else:
                loss.backward()
                optimizer.step()


    def main():
        model = torch.nn.Linear(8, 4).cuda()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        loss_scaler = None
        if args.amp:
            loss_scaler = NativeScaler()
        data = torch.utils.data.TensorDataset(torch.randn(64, 8), torch.zeros(64, dtype=torch.long))
        loader = torch.utils.data.DataLoader(data, batch_size=args.batch_size, num_workers=2)
        for epoch in range(3):
            train_one_epoch(model, loader, optimizer, loss_scaler=loss_scaler)


    main()
"""


def test_scaler_or_backward_then_step_is_one_step_per_batch(cli, tmp_path):
    write(tmp_path, {"train.py": TIMM_LOOP})
    plan = plan_of(cli, "train.py", "--", "--batch-size", "32", cwd=tmp_path)
    got = fact(plan, "batch.grad_accum")
    assert got is not None and got.value == 1


def test_twin_scaler_with_an_accumulation_switch_says_nothing(cli, tmp_path):
    # MAE's scaler takes update_grad=: it steps only on some calls
    text = TIMM_LOOP.replace("parameters=model.parameters())",
                             "parameters=model.parameters(), update_grad=(i + 1) % 4 == 0)")
    assert text != TIMM_LOOP
    write(tmp_path, {"train.py": text})
    # with --amp the scaler path runs (without it the loop's plain backward/step arm is the one taken: one step per batch)
    plan = plan_of(cli, "train.py", "--", "--amp", cwd=tmp_path)
    assert fact(plan, "batch.grad_accum") is None


def test_twin_scaler_given_another_loss_says_nothing(cli, tmp_path):
    # the other way hands something else than the back-propagated loss: not the scaler convention of the loop's
    # if/else, so the loop reader says nothing; timm's scaler itself still steps on every call (adapters/scaler_step.py)
    text = TIMM_LOOP.replace("loss_scaler(loss, optimizer,", "loss_scaler(loss * 0.5, optimizer,")
    assert text != TIMM_LOOP
    write(tmp_path, {"train.py": text})
    plan = plan_of(cli, "train.py", "--", "--amp", cwd=tmp_path)
    got = fact(plan, "batch.grad_accum")
    assert got is None or (got.adapter == "scaler_step" and got.value == 1)


ENGINE = """\
    import timm
    import torch


    def train_one_epoch(model, criterion, data_loader, optimizer, loss_scaler, max_norm=0):
        model.train()
        for samples, targets in data_loader:
            loss = criterion(model(samples), targets)
            optimizer.zero_grad()
            if isinstance(loss_scaler, timm.utils.NativeScaler):
                loss_scaler(loss, optimizer, clip_grad=max_norm, parameters=model.parameters())
            else:
                loss.backward()
                if max_norm != None:
                    torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
                optimizer.step()
"""

MAIN = """\
    import argparse

    import torch
    from timm.utils import NativeScaler

    from engine import train_one_epoch

    parser = argparse.ArgumentParser()
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--if_amp", action="store_true")
    parser.add_argument("--no_amp", action="store_false", dest="if_amp")
    args = parser.parse_args()

    model = torch.nn.Linear(8, 4).cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    loss_scaler = "none"
    if args.if_amp:
        loss_scaler = NativeScaler()
    data = torch.utils.data.TensorDataset(torch.randn(64, 8), torch.zeros(64, dtype=torch.long))
    loader = torch.utils.data.DataLoader(data, batch_size=args.batch_size)
    for epoch in range(10):
        train_one_epoch(model, torch.nn.CrossEntropyLoss(), loader, optimizer, loss_scaler)
"""


def test_local_engine_loop_stepping_every_batch_is_no_accumulation(cli, tmp_path):
    main = MAIN.replace("""    if args.if_amp:
        loss_scaler = NativeScaler()
""", "")
    write(tmp_path, {"main.py": main, "engine.py": ENGINE})
    plan = plan_of(cli, "main.py", "--", "--no_amp", cwd=tmp_path)
    got = fact(plan, "batch.grad_accum")
    assert got is not None and got.value == 1
    assert "engine.py" in got.source.detail


def test_twin_local_engine_stepping_every_k_batches_says_nothing(cli, tmp_path):
    text = ENGINE.replace("""                optimizer.step()""", """                if (i + 1) % 4 == 0:
                    optimizer.step()""").replace("for samples, targets in data_loader:",
                                                 "for i, (samples, targets) in enumerate(data_loader):")
    # no NativeScaler built (adapters/scaler_step.py would read its calls on its own)
    main = MAIN.replace("""    if args.if_amp:
        loss_scaler = NativeScaler()
""", "")
    assert text != ENGINE and main != MAIN
    write(tmp_path, {"main.py": main, "engine.py": text})
    plan = plan_of(cli, "main.py", "--", "--no_amp", cwd=tmp_path)
    assert fact(plan, "batch.grad_accum") is None


ACCEL_SPLIT = """\
    import argparse

    import torch
    from accelerate import Accelerator

    parser = argparse.ArgumentParser()
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--num-processes", type=int, default=4)
    args = parser.parse_args()

    accelerator = Accelerator(mixed_precision="fp16")
    local_batch_size = int(args.batch_size // accelerator.num_processes)
    data = torch.utils.data.TensorDataset(torch.randn(64, 8))
    loader = torch.utils.data.DataLoader(data, batch_size=local_batch_size, shuffle=True)
    model = torch.nn.Linear(8, 8)
    opt = torch.optim.AdamW(model.parameters())
    model, opt, loader = accelerator.prepare(model, opt, loader)
    for (x,) in loader:
        loss = model(x).sum()
        accelerator.backward(loss)
        opt.step()
        opt.zero_grad()
"""


def test_batch_divided_by_the_accelerators_process_count_is_the_global_batch(cli, tmp_path):
    # sihyun-yu/REPA @ 67f71450 train.py:214: int(args.batch_size // accelerator.num_processes)
    write(tmp_path, {"train.py": ACCEL_SPLIT})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    got = fact(plan, "batch.global")
    assert got is not None and got.value == 256


def test_twin_batch_divided_by_an_option_is_not_a_global_batch(cli, tmp_path):
    # args.num_processes is whatever the option says, not the accelerator's process count
    text = ACCEL_SPLIT.replace("args.batch_size // accelerator.num_processes",
                              "args.batch_size // args.num_processes")
    assert text != ACCEL_SPLIT
    write(tmp_path, {"train.py": text})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    got = fact(plan, "batch.global")
    assert got is None or got.value != 256


CLI_TRAIN = """\
    from pytorch_lightning.cli import LightningCLI


    if __name__ == "__main__":
        cli = LightningCLI(run=False)
        cli.trainer.fit(model=cli.model, datamodule=cli.datamodule)
"""

CLI_YAML = """\
    seed_everything: 4444
    data:
      class_path: mypkg.data.AudioDataModule
      init_args:
        batch_size: 16
    model:
      class_path: mypkg.model.Vocoder
    trainer:
      logger:
        class_path: pytorch_lightning.loggers.TensorBoardLogger
        init_args:
          save_dir: logs/
      max_steps: 2000000
      accelerator: gpu
      strategy: ddp
      devices: [0]
"""


def test_lightning_cli_trainer_is_read_from_the_config_on_the_line(cli, tmp_path):
    # gemelo-ai/vocos @ c859e3b7 train.py:5 LightningCLI(run=False), configs/vocos.yaml trainer: section
    write(tmp_path, {"train.py": CLI_TRAIN, "configs/vocos.yaml": CLI_YAML})
    plan = plan_of(cli, "train.py", "--", "-c", "configs/vocos.yaml", cwd=tmp_path)
    assert fact(plan, "dist.world_size").value == 1
    assert fact(plan, "dist.sharding").value == "ddp"
    assert fact(plan, "dist.nodes").value == 1
    assert fact(plan, "batch.grad_accum").value == 1
    assert fact(plan, "dist.sharding").source.path.endswith("vocos.yaml")


def test_lightning_cli_trainer_flag_wins_over_the_config(cli, tmp_path):
    write(tmp_path, {"train.py": CLI_TRAIN, "configs/vocos.yaml": CLI_YAML})
    plan = plan_of(cli, "train.py", "--", "-c", "configs/vocos.yaml", "--trainer.devices=4",
                   "--trainer.accumulate_grad_batches", "2", cwd=tmp_path)
    assert fact(plan, "dist.world_size").value == 4
    assert fact(plan, "batch.grad_accum").value == 2


def test_twin_lightning_cli_without_a_config_assumes_nothing(cli, tmp_path):
    write(tmp_path, {"train.py": CLI_TRAIN, "configs/vocos.yaml": CLI_YAML})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "dist.world_size") is None
    assert fact(plan, "batch.grad_accum") is None


def test_twin_lightning_cli_object_strategy_assumes_no_default(cli, tmp_path):
    text = CLI_YAML.replace("      strategy: ddp\n", """\
      strategy:
        class_path: pytorch_lightning.strategies.DeepSpeedStrategy
        init_args:
          stage: 3
""")
    assert text != CLI_YAML
    write(tmp_path, {"train.py": CLI_TRAIN, "configs/vocos.yaml": text})
    plan = plan_of(cli, "train.py", "--", "-c", "configs/vocos.yaml", cwd=tmp_path)
    assert fact(plan, "dist.sharding") is None
    assert fact(plan, "batch.grad_accum") is None  # no default assumed once a key is an object
    assert fact(plan, "dist.devices_per_node").value == 1


DIST_UTILS = """\
    import os

    import torch.distributed as dist


    def init_distributed_mode(args):
        if "RANK" in os.environ and "WORLD_SIZE" in os.environ:
            args.rank = int(os.environ["RANK"])
            args.world_size = int(os.environ["WORLD_SIZE"])
        else:
            args.use_distributed = False
            return
        args.use_distributed = True
        dist.init_process_group(backend="nccl", world_size=args.world_size, rank=args.rank)
"""

RUNNER = """\
    from torch.nn.parallel import DistributedDataParallel as DDP


    def wrap_model(model, use_distributed):
        model = model.cuda()
        if use_distributed:
            return DDP(model, device_ids=[0])
        return model
"""


SPEECH_TRAIN = """\
    import argparse

    import torch

    from dist_utils import init_distributed_mode
    from runner import wrap_model

    parser = argparse.ArgumentParser()
    parser.add_argument("--batch-size", type=int, default=8)
    args = parser.parse_args()
    init_distributed_mode(args)
    data = torch.utils.data.TensorDataset(torch.randn(64, 8))
    loader = torch.utils.data.DataLoader(data, batch_size=args.batch_size)
    model = wrap_model(torch.nn.Linear(8, 8), args.use_distributed)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for (x,) in loader:
        loss = model(x).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""


def test_ddp_needing_a_launcher_is_not_reached_by_plain_python(cli, tmp_path):
    # bytedance/SALMONN @ a58bba79 dist_utils.py:57-68 and runner.py:59 (its DDP under if self.use_distributed), run as python3 train.py
    write(tmp_path, {"train.py": SPEECH_TRAIN, "dist_utils.py": DIST_UTILS, "runner.py": RUNNER})
    plan = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    assert fact(plan, "dist.world_size").value == 1
    got = fact(plan, "dist.sharding")
    assert got is not None and got.value == "none"
    assert "process group" in got.source.detail


def test_twin_ddp_under_torchrun_stays_ddp(cli, tmp_path):
    write(tmp_path, {"train.py": SPEECH_TRAIN, "dist_utils.py": DIST_UTILS, "runner.py": RUNNER})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node=2", "train.py", cwd=tmp_path)
    assert fact(plan, "dist.sharding").value == "ddp"


def test_twin_process_group_not_tied_to_a_launcher_keeps_ddp(cli, tmp_path):
    # an init_process_group that plain python runs itself (a tcp:// address, world size 1): DDP is built
    text = DIST_UTILS.replace('''        if "RANK" in os.environ and "WORLD_SIZE" in os.environ:
            args.rank = int(os.environ["RANK"])
            args.world_size = int(os.environ["WORLD_SIZE"])
        else:
            args.use_distributed = False
            return
''', '''        args.rank, args.world_size = 0, 1
''').replace('backend="nccl",', 'backend="nccl", init_method="tcp://127.0.0.1:29500",')
    assert text != DIST_UTILS
    write(tmp_path, {"train.py": SPEECH_TRAIN, "dist_utils.py": text, "runner.py": RUNNER})
    plan = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    got = fact(plan, "dist.sharding")
    assert got is None or got.value == "ddp"


DLRM_LOOP = """\
    import argparse

    import torch
    from torch.autograd.profiler import record_function

    parser = argparse.ArgumentParser()
    parser.add_argument("--mini-batch-size", type=int, default=1)
    parser.add_argument("--mlperf-logging", action="store_true", default=False)
    parser.add_argument("--mlperf-grad-accum-iter", type=int, default=1)
    args = parser.parse_args()

    model = torch.nn.Linear(13, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=1.0)
    data = torch.utils.data.TensorDataset(torch.randn(64, 13), torch.rand(64, 1))
    train_ld = torch.utils.data.DataLoader(data, batch_size=args.mini_batch_size)
    for j, (x, y) in enumerate(train_ld):
        E = torch.nn.functional.binary_cross_entropy_with_logits(model(x), y)
        with record_function("backward"):
            if (args.mlperf_logging and (j + 1) % args.mlperf_grad_accum_iter == 0) or not args.mlperf_logging:
                optimizer.zero_grad()
            E.backward()
            if (args.mlperf_logging and (j + 1) % args.mlperf_grad_accum_iter == 0) or not args.mlperf_logging:
                optimizer.step()
"""


def test_step_under_a_condition_the_line_decides_true_is_every_batch(cli, tmp_path):
    # facebookresearch/dlrm @ 090956ee dlrm_s_pytorch.py:1604-1621 with --mlperf-logging (accumulation default 1)
    write(tmp_path, {"train.py": DLRM_LOOP})
    for line in (["--mlperf-logging"], []):
        plan = plan_of(cli, "--", "python", "train.py", "--mini-batch-size=2048", *line, cwd=tmp_path)
        got = fact(plan, "batch.grad_accum")
        assert got is not None and got.value == 1, line


def test_twin_step_every_fourth_batch_says_nothing(cli, tmp_path):
    write(tmp_path, {"train.py": DLRM_LOOP})
    plan = plan_of(cli, "--", "python", "train.py", "--mlperf-logging", "--mlperf-grad-accum-iter", "4",
                   cwd=tmp_path)
    assert fact(plan, "batch.grad_accum") is None


HPARAMS = """\
    import tensorflow as tf


    def create_hparams(hparams_string=None, verbose=False):
        hparams = tf.contrib.training.HParams(
            epochs=500,
            fp16_run=False,
            distributed_run=False,
            batch_size=64,
            learning_rate=1e-3,
        )
        if hparams_string:
            hparams.parse(hparams_string)
        return hparams
"""

TACO_TRAIN = """\
    import argparse

    import torch
    from torch.utils.data import DataLoader

    from hparams import create_hparams


    def prepare_dataloaders(hparams):
        data = torch.utils.data.TensorDataset(torch.randn(256, 8))
        return DataLoader(data, num_workers=1, shuffle=True, batch_size=hparams.batch_size, pin_memory=False)


    def train(output_directory, hparams):
        model = torch.nn.Linear(8, 8).cuda()
        optimizer = torch.optim.Adam(model.parameters(), lr=hparams.learning_rate)
        if hparams.fp16_run:
            from apex import amp
            model, optimizer = amp.initialize(model, optimizer, opt_level="O2")
        train_loader = prepare_dataloaders(hparams)
        for epoch in range(hparams.epochs):
            for i, (x,) in enumerate(train_loader):
                model.zero_grad()
                loss = model(x.cuda()).sum()
                if hparams.fp16_run:
                    with amp.scale_loss(loss, optimizer) as scaled_loss:
                        scaled_loss.backward()
                else:
                    loss.backward()
                optimizer.step()


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("-o", "--output_directory", type=str)
        parser.add_argument("--hparams", type=str, required=False, help="comma separated name=value pairs")
        args = parser.parse_args()
        hparams = create_hparams(args.hparams)
        train(args.output_directory, hparams)
"""


def test_hparams_of_a_project_builder_are_read_with_the_line_overrides(cli, tmp_path):
    # NVIDIA/tacotron2 @ 185cd24e hparams.py:5-95 create_hparams, train.py:278 and :57, :173-176
    write(tmp_path, {"hparams.py": HPARAMS, "train.py": TACO_TRAIN})
    plan = plan_of(cli, "--", "python", "train.py", "-o", "out", "--hparams=fp16_run=True,batch_size=32",
                   cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 32
    assert fact(plan, "precision.mode").value == "fp16"  # apex O2 under the fp16_run the line turns on
    assert fact(plan, "batch.grad_accum").value == 1
    plan = plan_of(cli, "--", "python", "train.py", "-o", "out", cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 64
    got = fact(plan, "precision.mode")
    assert got is None or got.value != "fp16"


def test_twin_hparams_parameter_given_another_object_is_not_read(cli, tmp_path):
    # train() is also called with another object: its parameter is not known to be create_hparams()'s
    text = TACO_TRAIN.replace("        train(args.output_directory, hparams)\n",
                              "        train(args.output_directory, hparams)\n"
                              "        train(args.output_directory, make_other())\n")
    assert text != TACO_TRAIN
    write(tmp_path, {"hparams.py": HPARAMS, "train.py": text})
    plan = plan_of(cli, "--", "python", "train.py", "-o", "out", "--hparams=batch_size=32", cwd=tmp_path)
    got = fact(plan, "batch.micro")
    assert got is None or got.value != 32


def test_twin_a_builder_that_is_not_hparams_is_not_read(cli, tmp_path):
    text = HPARAMS.replace("tf.contrib.training.HParams(", "make_config(")
    write(tmp_path, {"hparams.py": text, "train.py": TACO_TRAIN})
    plan = plan_of(cli, "--", "python", "train.py", "-o", "out", cwd=tmp_path)
    got = fact(plan, "batch.micro")
    assert got is None or got.value != 64


RESOLVER_RUN = """\
    import hydra
    import pytorch_lightning as pl
    from omegaconf import OmegaConf

    OmegaConf.register_new_resolver('eval', eval)
    OmegaConf.register_new_resolver('div_up', lambda x, y: (x + y - 1) // y)


    @hydra.main(config_path="configs/", config_name="config.yaml")
    def main(config):
        model = hydra.utils.instantiate(config.model)
        trainer = hydra.utils.instantiate(config.trainer)
        trainer.fit(model)


    if __name__ == "__main__":
        main()
"""

RESOLVER_CONFIG = """\
    train:
      global_batch_size: 256
    datamodule:
      batch_size: 8
    model:
      _target_: mypkg.Model
    trainer:
      _target_: pytorch_lightning.Trainer
      accelerator: gpu
      devices: 8
      num_nodes: 1
      accumulate_grad_batches: ${div_up:${train.global_batch_size}, ${eval:${trainer.devices} * ${datamodule.batch_size} * ${trainer.num_nodes}}}
      precision: bf16
"""


def test_project_registered_arithmetic_resolvers_are_evaluated(cli, tmp_path):
    # HazyResearch/based @ 32c1bd4e train/run.py:11-12 and configs/experiment/pile/base.yaml:24
    write(tmp_path, {"run.py": RESOLVER_RUN, "configs/config.yaml": RESOLVER_CONFIG})
    plan = plan_of(cli, "run.py", cwd=tmp_path)
    assert fact(plan, "batch.grad_accum").value == 4  # div_up(256, 8 * 8 * 1)
    plan = plan_of(cli, "run.py", "--", "trainer.devices=2", cwd=tmp_path)
    assert fact(plan, "batch.grad_accum").value == 16


def test_twin_resolvers_the_script_does_not_register_stay_unknown(cli, tmp_path):
    text = RESOLVER_RUN.replace("OmegaConf.register_new_resolver('div_up', lambda x, y: (x + y - 1) // y)\n", "")
    assert text != RESOLVER_RUN
    write(tmp_path, {"run.py": text, "configs/config.yaml": RESOLVER_CONFIG})
    plan = plan_of(cli, "run.py", cwd=tmp_path)
    assert fact(plan, "batch.grad_accum") is None


def test_twin_a_resolver_that_is_not_arithmetic_stays_unknown(cli, tmp_path):
    text = RESOLVER_RUN.replace("lambda x, y: (x + y - 1) // y", "lambda x, y: compute(x, y)")
    assert text != RESOLVER_RUN
    write(tmp_path, {"run.py": text, "configs/config.yaml": RESOLVER_CONFIG})
    plan = plan_of(cli, "run.py", cwd=tmp_path)
    assert fact(plan, "batch.grad_accum") is None


def test_nested_interpolation_of_an_unknown_resolver_is_unknown_not_text():
    from preflight.adapters.hydra_values import Unknown, resolve

    data = {"a": 3, "b": {"c": "${div_up:${a}, 2}"}}
    assert isinstance(resolve(data, data["b"]["c"], ("b",)), Unknown)  # was the text "${div_up:3, 2}"
    assert resolve(data, "x${a}y") == "x3y"


EDM_TRAIN = """\
    import torch
    import dnnlib
    from training import training_loop


    def main(lr=1e-3):
        c = dnnlib.EasyDict()
        c.data_loader_kwargs = dnnlib.EasyDict(pin_memory=True, num_workers=3, prefetch_factor=2)
        c.optimizer_kwargs = dnnlib.EasyDict(class_name='torch.optim.Adam', lr=lr, betas=[0.9, 0.999], eps=1e-8)
        c.batch_size = 512
        training_loop.training_loop(**c)


    if __name__ == "__main__":
        main()
"""

EDM_LOOP = """\
    import torch
    import dnnlib


    def training_loop(data_loader_kwargs={}, optimizer_kwargs={}, batch_size=512):
        net = torch.nn.Linear(8, 8).cuda()
        dataset = torch.utils.data.TensorDataset(torch.randn(64, 8))
        loader = iter(torch.utils.data.DataLoader(dataset=dataset, batch_size=batch_size, **data_loader_kwargs))
        optimizer = dnnlib.util.construct_class_by_name(params=net.parameters(), **optimizer_kwargs)
        for _ in range(10):
            (x,) = next(loader)
            optimizer.zero_grad()
            net(x.cuda()).sum().backward()
            optimizer.step()
"""


def test_keyword_dicts_the_script_hands_to_a_builder_function(cli, tmp_path):
    # NVlabs/edm @ 008a4e53 train.py:96-101,229 and training/training_loop.py:25-38,70,87
    write(tmp_path, {"train.py": EDM_TRAIN, "training/__init__.py": "", "training/training_loop.py": EDM_LOOP,
                     "dnnlib/__init__.py": "from .util import EasyDict\n", "dnnlib/util.py": "class EasyDict(dict):\n    pass\n"})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node=8", "train.py", cwd=tmp_path)
    assert fact(plan, "optimizer.name").value == "Adam"
    assert fact(plan, "data.pin_memory").value is True
    assert fact(plan, "data.num_workers").value == 3


def test_twin_a_dict_changed_after_it_is_built_is_not_read(cli, tmp_path):
    text = EDM_TRAIN.replace("        c.batch_size = 512\n",
                             "        c.batch_size = 512\n        c.optimizer_kwargs.class_name = 'torch.optim.SGD'\n"
                             "        c.data_loader_kwargs.update(pin_memory=False)\n")
    assert text != EDM_TRAIN
    write(tmp_path, {"train.py": text, "training/__init__.py": "", "training/training_loop.py": EDM_LOOP,
                     "dnnlib/__init__.py": "from .util import EasyDict\n", "dnnlib/util.py": "class EasyDict(dict):\n    pass\n"})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node=8", "train.py", cwd=tmp_path)
    got = fact(plan, "optimizer.name")
    assert got is None or got.value != "Adam"
    got = fact(plan, "data.pin_memory")
    assert got is None or got.value is not True
