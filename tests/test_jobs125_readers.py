"""jobs125: readers for misses of the real-jobs set held-out-48 (in-sample), each on a fixture of our
own copying a real shape (repository, path and commit cited), with a twin that must stay silent."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

from preflight.plan import TrainingPlan

# williamconvertino/icl-for-language-modeling @ c230466b931a80f6824d34d4123f0b5f26aee31a: main.py:19,37
# (--max_length "Maximum number of tokens to generate.", read only by src/util/evaluation.py:78
# sample_tokens(model, prompt, args.max_length, ...)); src/config/config.py:11 max_seq_len = 512 ->
# src/data/disk_dataset.py:38 the training windows.
ICL = {
    "main.py": """\
        from argparse import ArgumentParser
        from config import Config
        from data import Windows
        from evaluation import eval_generation
        from training import train_model

        def get_args():
            parser = ArgumentParser()
            parser.add_argument("--batch_size", type=int, default=32, help="Training batch size per GPU.")
            parser.add_argument("--mode", type=str, default="train", choices=["train", "generate"])
            parser.add_argument("--max_length", type=int, default=128, help="Maximum number of tokens to generate.")
            return parser.parse_args()

        def main():
            args = get_args()
            config = Config()
            splits = Windows.get_splits(config.max_seq_len)
            if args.mode == "train":
                train_model(args, splits)
            if args.mode == "generate":
                eval_generation(args, splits)

        if __name__ == "__main__":
            main()
    """,
    "config.py": """\
        class Config:
            max_seq_len = 512
            d_embed = 512
    """,
    "data.py": """\
        class Windows:
            @staticmethod
            def get_splits(max_seq_len):
                return {"train": max_seq_len}
    """,
    "training.py": """\
        import torch
        from torch.utils.data import DataLoader

        def train_model(args, splits):
            loader = DataLoader(splits["train"], batch_size=args.batch_size, shuffle=True)
            for batch in loader:
                pass
    """,
    "evaluation.py": """\
        def sample_tokens(model, prompt, max_length):
            return prompt

        def eval_generation(args, splits):
            for i in range(3):
                sample_tokens(None, splits["test"][i], args.max_length)
    """,
}


def _values(plan: dict, field: str) -> list:
    return [f.value for f in TrainingPlan.from_dict(plan).facts(field)]


def test_generation_length_option_is_not_the_training_length(cli, tmp_path):
    write(tmp_path, ICL)
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    got = fact(plan, "data.seq_len")
    assert got is not None and got.value == 512
    assert got.source.line == 2 and got.source.path.endswith("config.py")
    assert 128 not in _values(plan, "data.seq_len")


def test_generation_length_option_stays_out_when_given_on_the_launch_line(cli, tmp_path):
    write(tmp_path, ICL)
    plan = plan_of(cli, "main.py", "--", "--max_length", "256", cwd=tmp_path)
    assert 256 not in _values(plan, "data.seq_len")
    assert fact(plan, "data.seq_len").value == 512


def test_length_option_documented_as_training_length_is_still_read(cli, tmp_path):
    files = dict(ICL)
    files["main.py"] = files["main.py"].replace("Maximum number of tokens to generate.",
                                                "Maximum sequence length of a training sample.")
    write(tmp_path, files)
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    assert 128 in _values(plan, "data.seq_len")


# pcmin03/dacon-template @ f2d81eebb906cdd61d9379d5ecf60740e96b02a5 (an ashleve/lightning-hydra-template v1
# project): configs/trainer/default.yaml ``_target_: pytorch_lightning.Trainer`` with ``gpus: 0``;
# src/train.py:59 hydra.utils.instantiate(config.trainer); bash/ddp_train.sh:13 ``trainer.gpus=6
# +trainer.num_nodes=1`` on the line.
LHT = {
    "run.py": """\
        import hydra
        from omegaconf import DictConfig


        @hydra.main(config_path="configs/", config_name="config.yaml")
        def main(config: DictConfig):
            from src.train import train
            return train(config)


        if __name__ == "__main__":
            main()
    """,
    "src/__init__.py": "",
    "src/train.py": """\
        import hydra
        from pytorch_lightning import LightningModule, Trainer


        def train(config):
            model: LightningModule = hydra.utils.instantiate(config.model)
            trainer: Trainer = hydra.utils.instantiate(config.trainer, _convert_="partial")
            trainer.fit(model=model)
    """,
    "configs/config.yaml": """\
        defaults:
          - trainer: default.yaml
          - model: small.yaml
    """,
    "configs/model/small.yaml": """\
        _target_: torch.nn.Linear
        in_features: 4
        out_features: 2
    """,
    "configs/trainer/default.yaml": """\
        _target_: pytorch_lightning.Trainer
        gpus: 0
        min_epochs: 1
        max_epochs: 50
    """,
}


def test_lightning_1x_gpus_override_is_the_device_count(cli, tmp_path):
    write(tmp_path, LHT)
    plan = plan_of(cli, "run.py", "--", "trainer.gpus=6", "+trainer.num_nodes=1", cwd=tmp_path)
    devices = fact(plan, "dist.devices_per_node")
    assert devices is not None and devices.value == 6 and "gpus=6" in devices.source.detail
    assert fact(plan, "dist.world_size").value == 6


def test_lightning_1x_gpus_list_counts_its_ids(cli, tmp_path):
    write(tmp_path, LHT)
    plan = plan_of(cli, "run.py", "--", "trainer.gpus=[0,1]", cwd=tmp_path)
    assert fact(plan, "dist.devices_per_node").value == 2


def test_lightning_1x_gpus_zero_is_no_device_count(cli, tmp_path):
    write(tmp_path, LHT)
    plan = plan_of(cli, "run.py", cwd=tmp_path)
    assert fact(plan, "dist.devices_per_node") is None
    assert fact(plan, "dist.world_size") is None


# vayvi/modded-nanogpt-SOAP-pom @ 7b5d2ffee4713589b30902dcc053a38ff2a5ef4e: train.py:252 @hydra.main,
# :275-281 DistributedDataLoader(cfg.data.train.input_bin, cfg.training.batch_size, cfg.training.sequence_length,
# rank, world) (data/distributed_loader.py:41 ``def __init__(self, filename_pattern, B, T, process_rank,
# num_processes)``), :323 torch.amp.autocast(device_type='cuda', dtype=getattr(torch, cfg.hardware.dtype)),
# :478-487 for _ in range(cfg.training.accumulation): ... loss.backward(); run_4_gpus.sh:6-10 overrides.
POM = {
    "train.py": """\
        import os
        import hydra
        import torch
        from data import DistributedDataLoader
        from model import GPT


        @hydra.main(version_base=None, config_path="config", config_name="config")
        def main(cfg):
            rank = int(os.environ["RANK"])
            world = int(os.environ["WORLD_SIZE"])
            train_loader = DistributedDataLoader(cfg.data.train_bin, cfg.training.batch_size,
                                                 cfg.training.sequence_length, rank, world)
            model = GPT().cuda()
            ctx = torch.amp.autocast(device_type='cuda', dtype=getattr(torch, cfg.hardware.dtype))
            optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.training.learning_rate)
            x, y = train_loader.next_batch()
            for step in range(cfg.training.num_iterations):
                for _ in range(cfg.training.accumulation):
                    with ctx:
                        loss = model(x, y)
                    x, y = train_loader.next_batch()
                    loss.backward()
                for p in model.parameters():
                    p.grad /= cfg.training.accumulation
                optimizer.step()
                optimizer.zero_grad(set_to_none=True)


        if __name__ == "__main__":
            main()
    """,
    "data.py": """\
        class DistributedDataLoader:
            def __init__(self, filename_pattern, B, T, process_rank, num_processes):
                self.B = B
                self.T = T

            def next_batch(self):
                return None, None
    """,
    "model.py": """\
        import torch.nn as nn


        class GPT(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(4, 4)
    """,
    "config/config.yaml": """\
        training:
          batch_size: 16
          accumulation: 8
          sequence_length: 1024
          num_iterations: 100
          learning_rate: 0.001
        data:
          train_bin: data/train_*.bin
        hardware:
          dtype: bfloat16
    """,
}


def test_hydra_nanogpt_loop_reads_accumulation_batch_and_autocast(cli, tmp_path):
    write(tmp_path, POM)
    plan = plan_of(cli, "train.py", "--", "training.batch_size=48", "training.accumulation=2", cwd=tmp_path)
    accum = fact(plan, "batch.grad_accum")
    assert accum is not None and accum.value == 2 and accum.confidence == "medium"
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == 48
    precision = fact(plan, "precision.mode")
    assert precision is not None and precision.value == "amp_bf16"


def test_hydra_nanogpt_loop_defaults_from_the_config(cli, tmp_path):
    write(tmp_path, POM)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "batch.grad_accum").value == 8
    assert fact(plan, "batch.micro").value == 16


def test_float32_key_and_cast_model_leave_precision_unread(cli, tmp_path):
    files = dict(POM)
    files["config/config.yaml"] = files["config/config.yaml"].replace("dtype: bfloat16", "dtype: float32")
    write(tmp_path, files)
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "precision.mode")
    assert got is None or got.value != "amp_bf16"
    cast = dict(POM)
    cast["train.py"] = cast["train.py"].replace(
        "model = GPT().cuda()", "model = GPT().cuda().to(getattr(torch, cfg.hardware.dtype))")
    write(tmp_path, cast)
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "precision.mode")
    assert got is None or got.adapter != "value_flow"


def test_a_step_inside_the_inner_loop_is_no_accumulation(cli, tmp_path):
    files = dict(POM)
    files["train.py"] = files["train.py"].replace(
        "                    loss.backward()\n",
        "                    loss.backward()\n                    optimizer.step()\n")
    write(tmp_path, files)
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "batch.grad_accum")
    assert got is None or got.value != 8


def test_a_loader_class_taking_its_batch_by_keyword_only_is_not_read_by_position(cli, tmp_path):
    files = dict(POM)
    files["data.py"] = files["data.py"].replace("filename_pattern, B, T,", "filename_pattern, T, seq, ")
    write(tmp_path, files)
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "batch.micro")
    assert got is None or got.value != 16


# williamconvertino/icl-for-language-modeling @ c230466 scripts/run.sh:31,49-50,61 (and the LLaVA eval scripts'
# ``IFS=',' read -ra GPULIST <<< "$gpu_list"; CHUNKS=${#GPULIST[@]}``): the process count is the length of
# a bash array read from a comma list.
RUN_SH = """\
    #!/bin/bash
    DEVICES="{devices}"
    IFS=',' read -ra DEVICE_LIST <<< "$DEVICES"
    NUM_DEVICES="${{#DEVICE_LIST[@]}}"
    export CUDA_VISIBLE_DEVICES=$DEVICES
    torchrun --nproc_per_node=$NUM_DEVICES train.py
    """

TRAIN_PY = """\
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel as DDP

    dist.init_process_group("nccl")
    model = DDP(torch.nn.Linear(4, 4).cuda())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(10):
        loss = model(torch.randn(8, 4).cuda()).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
    """


def test_bash_array_length_read_from_a_comma_list_is_the_process_count(cli, tmp_path):
    write(tmp_path, {"run.sh": RUN_SH.format(devices="0,1,2"), "train.py": TRAIN_PY})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert fact(plan, "dist.world_size").value == 3
    assert fact(plan, "dist.devices_per_node").value == 3


def test_bash_array_of_an_unknown_list_leaves_the_count_unknown(cli, tmp_path):
    write(tmp_path, {"run.sh": RUN_SH.format(devices="$(nvidia-smi --query-gpu=index --format=csv,noheader)"),
                     "train.py": TRAIN_PY})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    got = fact(plan, "dist.world_size")
    assert got is None


# williamconvertino/icl-for-language-modeling @ c230466 src/util/training.py:2,8-15,55-64: the Lightning Trainer is
# built in a project module main.py calls with its parsed options (``precision=args.precision``, argparse default
# '16-mixed', main.py:25), without accumulate_grad_batches.
ICL_PL = dict(ICL)
ICL_PL["main.py"] = ICL["main.py"].replace(
    '            parser.add_argument("--mode"',
    '            parser.add_argument("--precision", type=str, default="16-mixed")\n'
    '            parser.add_argument("--mode"')
ICL_PL["training.py"] = """\
    from pytorch_lightning import Trainer
    from torch.utils.data import DataLoader
    from wrapper import LightningWrapper

    def train_model(args, splits):
        precision = args.precision
        module = LightningWrapper(args)
        trainer = Trainer(max_epochs=10, accelerator="gpu", precision=precision{extra})
        loader = DataLoader(splits["train"], batch_size=args.batch_size)
        trainer.fit(module, train_dataloaders=loader)
    """
# src/util/lightning.py:57-62 ``torch.optim.AdamW(self.parameters(), lr=..., betas=(0.9, 0.95), weight_decay=0.1)``
ICL_PL["wrapper.py"] = """\
    import pytorch_lightning as pl
    import torch

    class LightningWrapper(pl.LightningModule):
        def __init__(self, args):
            super().__init__()
            self.args = args

        def configure_optimizers(self):
            return {optimizers}
    """


def test_lightning_trainer_in_a_project_module_gives_precision_and_default_accumulation(cli, tmp_path):
    files = dict(ICL_PL)
    files["training.py"] = ICL_PL["training.py"].format(extra="")
    files["wrapper.py"] = ICL_PL["wrapper.py"].format(optimizers="torch.optim.AdamW(self.parameters(), lr=1e-4)")
    write(tmp_path, files)
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    assert fact(plan, "optimizer.name").value == "AdamW"
    precision = fact(plan, "precision.mode")
    assert precision is not None and precision.value == "amp_fp16"
    assert fact(plan, "batch.grad_accum").value == 1
    plan = plan_of(cli, "main.py", "--", "--precision", "bf16-mixed", cwd=tmp_path)
    assert fact(plan, "precision.mode").value == "amp_bf16"


def test_lightning_trainer_with_an_unread_accumulation_gets_no_default(cli, tmp_path):
    files = dict(ICL_PL)
    files["training.py"] = ICL_PL["training.py"].format(extra=", accumulate_grad_batches=getattr(args, 'acc', 4)")
    files["wrapper.py"] = ICL_PL["wrapper.py"].format(
        optimizers="[torch.optim.AdamW(self.parameters()), torch.optim.SGD(self.parameters(), lr=0.1)]")
    write(tmp_path, files)
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    got = fact(plan, "batch.grad_accum")
    assert got is None or got.value != 1
    assert fact(plan, "optimizer.name") is None  # two optimizer classes: which one is not read


# KangHoML/VLSI @ 239d59dd63b5 2024-03-22/train.py:43,76-84,130-131 (lstm.sh:1 --optimizer RMSprop): a function
# whose every return is a torch.optim class, chosen by the parsed option.
VLSI = {
    "train.py": """\
        import argparse
        import torch
        from torch.optim import SGD, AdamW, RMSprop

        parser = argparse.ArgumentParser()
        parser.add_argument("--optimizer", type=str, default='Adam')
        parser.add_argument("--learning_rate", type=float, default=1e-3)
        args = parser.parse_args()


        def get_optimizer():
            if args.optimizer == 'SGD':
                return SGD
            elif args.optimizer == 'AdamW':
                return AdamW
            elif args.optimizer == 'RMSprop':
                return {last}
            else:
                raise ValueError(args.optimizer)


        def main():
            net = torch.nn.Linear(4, 4)
            optimizer_type = get_optimizer()
            optimizer = optimizer_type(net.parameters(), lr=args.learning_rate)
            for step in range(10):
                loss = net(torch.randn(2, 4)).sum()
                loss.backward()
                optimizer.step()
                optimizer.zero_grad()


        main()
    """,
}


def test_optimizer_selector_function_gives_the_class_the_option_takes(cli, tmp_path):
    write(tmp_path, {"train.py": VLSI["train.py"].format(last="RMSprop")})
    plan = plan_of(cli, "train.py", "--", "--optimizer", "RMSprop", cwd=tmp_path)
    got = fact(plan, "optimizer.name")
    assert got is not None and got.value == "RMSprop"
    assert fact(plan_of(cli, "train.py", "--", "--optimizer", "SGD", cwd=tmp_path), "optimizer.name").value == "SGD"


def test_optimizer_selector_with_an_arm_that_is_no_optimizer_class_is_not_read(cli, tmp_path):
    write(tmp_path, {"train.py": VLSI["train.py"].format(last="make_rmsprop(args)")})
    plan = plan_of(cli, "train.py", "--", "--optimizer", "RMSprop", cwd=tmp_path)
    got = fact(plan, "optimizer.name")
    assert got is None or got.adapter != "value_flow"


def test_optimizer_selector_default_that_raises_is_not_read(cli, tmp_path):
    write(tmp_path, {"train.py": VLSI["train.py"].format(last="RMSprop")})
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "optimizer.name")  # default 'Adam': the else raises
    assert got is None or got.adapter != "value_flow"


# jkx19/ActiveQueryNew @ 09aec498735b pipeline.sh:6 ``accelerate launch --config_file
# recipes/accelerate_configs/multi_gpu.yaml --num_processes=4 ...`` over multi_gpu.yaml:9-10 ``num_machines: 1``,
# ``num_processes: 8``: the line's process count on the file's machines.
ACC = {
    "launch.sh": "accelerate launch --config_file multi_gpu.yaml --num_processes={procs} train.py\n",
    "multi_gpu.yaml": """\
        compute_environment: LOCAL_MACHINE
        distributed_type: MULTI_GPU
        mixed_precision: bf16
        num_machines: {machines}
        num_processes: 8
    """,
    "train.py": """\
        import torch
        from accelerate import Accelerator

        accelerator = Accelerator()
        model = torch.nn.Linear(4, 4)
        opt = torch.optim.AdamW(model.parameters())
        model, opt = accelerator.prepare(model, opt)
        for step in range(10):
            loss = model(torch.randn(2, 4)).sum()
            accelerator.backward(loss)
            opt.step()
            opt.zero_grad()
    """,
}


def _acc(procs: str, machines: int) -> dict:
    return {"launch.sh": ACC["launch.sh"].format(procs=procs),
            "multi_gpu.yaml": ACC["multi_gpu.yaml"].format(machines=machines), "train.py": ACC["train.py"]}


def test_accelerate_line_processes_over_the_files_machines_are_the_devices_per_node(cli, tmp_path):
    write(tmp_path, _acc("4", 1))
    plan = plan_of(cli, "launch.sh", cwd=tmp_path)
    got = fact(plan, "dist.devices_per_node")
    assert got is not None and got.value == 4
    write(tmp_path, _acc("8", 2))
    assert fact(plan_of(cli, "launch.sh", cwd=tmp_path), "dist.devices_per_node").value == 4


def test_accelerate_line_processes_not_divisible_by_the_machines_stay_unknown(cli, tmp_path):
    write(tmp_path, _acc("3", 2))
    got = fact(plan_of(cli, "launch.sh", cwd=tmp_path), "dist.devices_per_node")
    assert got is None


LHT_MODEL = {
    "configs/model/small.yaml": """\
        _target_: src.models.plant_module.PlantCls
        lr: 0.001
    """,
    "src/models/__init__.py": "",
    "src/models/plant_module.py": """\
        import timm
        import torch
        from pytorch_lightning import LightningModule


        class PlantCls(LightningModule):
            def __init__(self, lr=0.001):
                super().__init__()
                self.model = timm.create_model("efficientnet_b2", pretrained=True, num_classes=2){extra}

            def training_step(self, batch, batch_idx):
                x, y = batch
                return torch.nn.functional.cross_entropy(self.model(x), y)

            def configure_optimizers(self):
                return torch.optim.Adam(self.parameters(), lr=1e-3)
    """,
}


def _hydra_absent(cli, tmp_path, extra: str = "", top_key: str = ""):
    files = dict(LHT)
    files.update(LHT_MODEL)
    files["src/models/plant_module.py"] = LHT_MODEL["src/models/plant_module.py"].format(extra=extra)
    files["configs/config.yaml"] = LHT["configs/config.yaml"].rstrip(" ") + top_key
    write(tmp_path, files)
    plan = plan_of(cli, "run.py", "--", "trainer.gpus=2", cwd=tmp_path)
    return fact(plan, "memory.gradient_checkpointing"), fact(plan, "compile.enabled")


def test_hydra_app_whose_code_and_targets_name_neither_has_no_checkpointing_and_no_compile(cli, tmp_path):
    ckpt, comp = _hydra_absent(cli, tmp_path)
    assert ckpt is not None and ckpt.value is False and ckpt.confidence == "medium"
    assert comp is not None and comp.value is False


def test_a_target_module_that_compiles_or_checkpoints_claims_nothing(cli, tmp_path):
    ckpt, comp = _hydra_absent(cli, tmp_path, extra="\n        self.model = torch.compile(self.model)")
    assert comp is None or comp.value is not False
    ckpt, comp = _hydra_absent(cli, tmp_path, extra="\n        self.model.set_grad_checkpointing(True)")
    assert ckpt is None or ckpt.value is not False


def test_a_compile_key_in_the_composed_config_claims_nothing(cli, tmp_path):
    ckpt, comp = _hydra_absent(cli, tmp_path, top_key="        compile_model: false\n")
    assert comp is None or comp.adapter != "hydra"
    assert ckpt is None or ckpt.adapter != "hydra"
