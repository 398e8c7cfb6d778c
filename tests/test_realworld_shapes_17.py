"""Shapes of the seventeenth held-out set's real jobs (issue 15), reproduced in minimal fixtures of
our own, each citing the repository, path and commit it copies the shape of. Set 17 is in-sample
for these fixes (its misses were read before they were written)."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, winner, write

# MCG-NJU/VideoMAE run_class_finetuning.py:27,133-134,176-179,205,263-267 @
# 14ef8d856287c94ef1f985fe30f958eb4ec2c55d: the parser lives in a ``get_args()`` that returns
# ``(parser.parse_args(), ds_init)``; a store_true/store_false pair on one dest whose default is set
# by ``parser.set_defaults`` after both, and the namespace handed to ``main(args)``.
PIN_IN_FUNCTION = """\
    import argparse

    import torch
    from torch.utils.data import DataLoader


    def get_args():
        parser = argparse.ArgumentParser("finetune", add_help=False)
        parser.add_argument("--batch_size", default=64, type=int)
        parser.add_argument("--num_workers", default=10, type=int)
        parser.add_argument("--pin_mem", action="store_true", help="pin")
        parser.add_argument("--no_pin_mem", action="store_false", dest="pin_mem")
        parser.set_defaults(pin_mem=True)
        parser.add_argument("--enable_deepspeed", action="store_true", default=False)
        known_args, _ = parser.parse_known_args()
        ds_init = None
        return parser.parse_args(), ds_init


    def main(args, ds_init):
        model = torch.nn.Linear(2, 2)
        loader = DataLoader(range(10), batch_size=args.batch_size, num_workers=args.num_workers,
                            pin_memory=args.pin_mem, drop_last=True)
        optimizer = torch.optim.AdamW(model.parameters())
        for x in loader:
            model(x).sum().backward()
            optimizer.step()


    if __name__ == "__main__":
        opts, ds_init = get_args()
        main(opts, ds_init)
"""


def test_set_defaults_in_a_parser_function_gives_the_flag_pair_its_default(cli, tmp_path: Path) -> None:
    write(tmp_path, {"run_finetune.py": PIN_IN_FUNCTION})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "8", "run_finetune.py", "--batch_size", "8",
                   cwd=tmp_path)
    best = fact(plan, "data.pin_memory")
    assert best is not None and best.value is True
    assert "run_finetune.py:13" in best.source.detail  # the set_defaults line
    assert winner(plan, "batch.micro") == 8


def test_set_defaults_twin_the_launch_line_flag_still_wins(cli, tmp_path: Path) -> None:
    write(tmp_path, {"run_finetune.py": PIN_IN_FUNCTION})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "8", "run_finetune.py", "--no_pin_mem",
                   cwd=tmp_path)
    assert winner(plan, "data.pin_memory") is False


def test_set_defaults_twin_an_explicit_default_written_after_it_wins(cli, tmp_path: Path) -> None:
    # argparse: add_argument(default=...) after set_defaults keeps its own default
    moved = PIN_IN_FUNCTION.replace(
        '        parser.add_argument("--pin_mem", action="store_true", help="pin")\n'
        '        parser.add_argument("--no_pin_mem", action="store_false", dest="pin_mem")\n'
        '        parser.set_defaults(pin_mem=True)\n',
        '        parser.set_defaults(pin_mem=True)\n'
        '        parser.add_argument("--pin_mem", action="store_true", default=False)\n')
    assert moved != PIN_IN_FUNCTION
    write(tmp_path, {"run_finetune.py": moved})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "8", "run_finetune.py", cwd=tmp_path)
    assert winner(plan, "data.pin_memory") is False


# Dao-AILab/flash-attention training/configs/experiment/owt/base.yaml:1-11,22-31 and
# training/configs/config.yaml:4-15 @ 0251105a2fb1: an experiment config at the global package whose
# defaults list overrides a group with a LIST of options (``override /callbacks: [default,
# norm-monitor]``), and a Lightning Trainer with ``precision: 16`` instantiated by Hydra; the
# ``hydra/job_logging: colorlog`` plugin is not installed, so hydra-core cannot compose and
# preflight's own composer reads the job.
HYDRA_RUN = """\
    import hydra
    from omegaconf import DictConfig


    @hydra.main(config_path="configs/", config_name="config.yaml")
    def main(config: DictConfig):
        from src.train import train
        return train(config)


    if __name__ == "__main__":
        main()
"""
HYDRA_TRAIN = """\
    import hydra
    import pytorch_lightning as pl


    def train(config):
        model = hydra.utils.instantiate(config.task, cfg=config, _recursive_=False)
        trainer = hydra.utils.instantiate(config.trainer, _convert_="partial")
        trainer.fit(model=model)
"""
HYDRA_FILES = {
    "run.py": HYDRA_RUN,
    "src/__init__.py": "",
    "src/train.py": HYDRA_TRAIN,
    "configs/config.yaml": """\
        # @package _global_
        defaults:
          - _self_
          - trainer: default
          - callbacks: default
          - experiment: null
          - override hydra/job_logging: colorlog
        seed: 1
    """,
    "configs/trainer/default.yaml": """\
        _target_: pytorch_lightning.Trainer
        devices: 1
        num_nodes: 1
        precision: 32
    """,
    "configs/callbacks/default.yaml": """\
        model_checkpoint:
          _target_: pytorch_lightning.callbacks.ModelCheckpoint
          save_last: True
    """,
    "configs/callbacks/norm-monitor.yaml": """\
        norm_monitor:
          _target_: pytorch_lightning.callbacks.LearningRateMonitor
    """,
    "configs/experiment/owt/base.yaml": """\
        # @package _global_
        defaults:
          - override /trainer: default
          - override /callbacks: [default, norm-monitor]

        task:
          _target_: src.tasks.seq.SequenceLMModel

        trainer:
          accelerator: gpu
          devices: 8
          num_nodes: 1
          precision: 16
    """,
}


def test_hydra_defaults_override_with_a_list_of_options_composes(cli, tmp_path: Path) -> None:
    write(tmp_path, HYDRA_FILES)
    plan = plan_of(cli, "run.py", "--", "experiment=owt/base", "trainer.devices=4", cwd=tmp_path)
    assert winner(plan, "precision.mode") == "amp_fp16"  # Lightning precision 16: fp16 AMP
    assert winner(plan, "dist.devices_per_node") == 4
    assert not any("callbacks" in n and "Could not find" in n for n in plan["notes"])


def test_hydra_list_override_twin_a_missing_option_in_the_list_is_still_reported(cli, tmp_path: Path) -> None:
    files = dict(HYDRA_FILES)
    files["configs/experiment/owt/base.yaml"] = files["configs/experiment/owt/base.yaml"].replace(
        "[default, norm-monitor]", "[default, no-such-callback]")
    write(tmp_path, files)
    res = cli("audit", "run.py", "--emit-plan", "json", "--", "experiment=owt/base", cwd=tmp_path)
    assert "no-such-callback" in res.out + res.err
    assert winner_or_none(res.out, "precision.mode") != "amp_fp16"  # not composed: no value claimed


def winner_or_none(out: str, field: str):
    import json

    try:
        return winner(json.loads(out), field)
    except ValueError:
        return None


# 2U1/Qwen2-VL-Finetune scripts/finetune_lora.sh:11-14,18,31-32 @ 6695161adfbd: the accumulation is
# shell arithmetic with nested parentheses over variables set earlier in the script.
ARITH_SH = """\
    #!/bin/bash
    GLOBAL_BATCH_SIZE=128
    BATCH_PER_DEVICE=4
    NUM_DEVICES=8
    GRAD_ACCUM_STEPS=$((GLOBAL_BATCH_SIZE / (BATCH_PER_DEVICE * NUM_DEVICES)))

    torchrun --nproc_per_node $NUM_DEVICES train.py \\
        --per_device_train_batch_size $BATCH_PER_DEVICE \\
        --gradient_accumulation_steps $GRAD_ACCUM_STEPS \\
        --max_pixels $((1280 * 28 * 28))
"""
ARITH_PY = """\
    import argparse

    import torch
    from torch.utils.data import DataLoader

    parser = argparse.ArgumentParser()
    parser.add_argument("--per_device_train_batch_size", type=int, default=1)
    parser.add_argument("--gradient_accumulation_steps", type=int, default=1)
    parser.add_argument("--max_pixels", type=int, default=0)
    args = parser.parse_args()
    model = torch.nn.Linear(2, 2)
    optimizer = torch.optim.AdamW(model.parameters())
    loader = DataLoader(range(10), batch_size=args.per_device_train_batch_size)
    for step, x in enumerate(loader):
        loss = model(x).sum() / args.gradient_accumulation_steps
        loss.backward()
        if (step + 1) % args.gradient_accumulation_steps == 0:
            optimizer.step()
            optimizer.zero_grad()
"""


def test_shell_arithmetic_with_nested_parentheses_is_evaluated(cli, tmp_path: Path) -> None:
    write(tmp_path, {"finetune.sh": ARITH_SH, "train.py": ARITH_PY})
    plan = plan_of(cli, "finetune.sh", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 4
    assert winner(plan, "batch.grad_accum") == 4  # 128 // (4 * 8)
    assert winner(plan, "dist.world_size") == 8


def test_shell_arithmetic_twin_an_unknown_variable_leaves_it_unknown(cli, tmp_path: Path) -> None:
    # GLOBAL_BATCH_SIZE comes from the caller's environment: the value is not known
    write(tmp_path, {"finetune.sh": ARITH_SH.replace("GLOBAL_BATCH_SIZE=128\n", ""), "train.py": ARITH_PY})
    plan = plan_of(cli, "finetune.sh", cwd=tmp_path)
    assert winner(plan, "batch.grad_accum") is None
    assert winner(plan, "batch.micro") == 4


# karpathy/build-nanogpt train_gpt2.py:342-344 @ 6104ab1b5392: a module constant switches
# torch.compile off (``use_compile = False`` then ``if use_compile: model = torch.compile(model)``).
COMPILE_CONST = """\
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP

    model = torch.nn.Linear(2, 2)
    use_compile = False  # interferes with eval
    if use_compile:
        model = torch.compile(model)
    model = DDP(model)
    optimizer = torch.optim.AdamW(model.parameters())
    for step in range(10):
        with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
            loss = model(torch.randn(4, 2)).sum()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
"""


def test_torch_compile_under_a_false_module_constant_is_off(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train_gpt2.py": COMPILE_CONST})
    plan = plan_of(cli, "--", "torchrun", "--standalone", "--nproc_per_node=8", "train_gpt2.py", cwd=tmp_path)
    best = fact(plan, "compile.enabled")
    assert best is not None and best.value is False and best.confidence == "medium"


def test_torch_compile_twin_a_true_constant_compiles(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train_gpt2.py": COMPILE_CONST.replace("use_compile = False", "use_compile = True")})
    plan = plan_of(cli, "--", "torchrun", "--standalone", "--nproc_per_node=8", "train_gpt2.py", cwd=tmp_path)
    assert winner(plan, "compile.enabled") is True


# FlagOpen/FlagEmbedding @ 7ed43d67ec03: examples/finetune/embedder/README.md:170-202 runs
# ``torchrun --nproc_per_node 2 -m FlagEmbedding.finetune.embedder.encoder_only.base ... --deepspeed
# ../ds_stage0.json`` from ``examples/finetune/embedder``; the package sits at the repository root
# (setup.py, ``pip install -e .``); its ``__main__.py`` parses dataclasses re-exported by the package's
# ``__init__`` whose TrainingArguments subclass lives five folders up (``FlagEmbedding/abc/...``).
EMB_FILES = {
    ".git/HEAD": "ref: refs/heads/master\n",
    "setup.py": "from setuptools import setup, find_packages\nsetup(name='embpkg', packages=find_packages())\n",
    "embpkg/__init__.py": "",
    "embpkg/abc/__init__.py": "",
    "embpkg/abc/finetune/__init__.py": "",
    "embpkg/abc/finetune/args.py": """\
        from dataclasses import dataclass, field

        from transformers import TrainingArguments


        @dataclass
        class ModelArguments:
            model_name_or_path: str = field(metadata={"help": "model"})


        @dataclass
        class EmbTrainingArguments(TrainingArguments):
            temperature: float = field(default=0.02)
    """,
    "embpkg/finetune/__init__.py": "",
    "embpkg/finetune/embedder/__init__.py": "",
    "embpkg/finetune/embedder/encoder_only/__init__.py": "",
    "embpkg/finetune/embedder/encoder_only/base/__init__.py": """\
        from embpkg.abc.finetune.args import ModelArguments, EmbTrainingArguments
    """,
    "embpkg/finetune/embedder/encoder_only/base/__main__.py": """\
        from transformers import AutoModel, HfArgumentParser, Trainer

        from embpkg.finetune.embedder.encoder_only.base import EmbTrainingArguments, ModelArguments


        def main():
            parser = HfArgumentParser((ModelArguments, EmbTrainingArguments))
            model_args, training_args = parser.parse_args_into_dataclasses()
            model = AutoModel.from_pretrained(model_args.model_name_or_path)
            trainer = Trainer(model=model, args=training_args)
            trainer.train()


        if __name__ == "__main__":
            main()
    """,
    "examples/finetune/ds_stage0.json": '{"zero_optimization": {"stage": 0}, "fp16": {"enabled": "auto"},'
                                        ' "train_micro_batch_size_per_gpu": "auto"}\n',
    "examples/finetune/embedder/README.md": "run from here\n",
}
EMB_LINE = ["--", "torchrun", "--nproc_per_node", "2", "-m", "embpkg.finetune.embedder.encoder_only.base",
            "--model_name_or_path", "BAAI/bge-large-en-v1.5", "--output_dir", "out", "--fp16",
            "--per_device_train_batch_size", "2", "--gradient_checkpointing", "--deepspeed", "../ds_stage0.json"]


def test_a_module_of_the_enclosing_installed_package_is_audited(cli, tmp_path: Path) -> None:
    write(tmp_path, EMB_FILES)
    plan = plan_of(cli, *EMB_LINE, cwd=tmp_path / "examples/finetune/embedder")
    assert winner(plan, "model.ref") == "BAAI/bge-large-en-v1.5"
    assert winner(plan, "batch.micro") == 2
    assert winner(plan, "dist.world_size") == 2
    assert winner(plan, "memory.gradient_checkpointing") is True
    assert winner(plan, "dist.sharding") == "ddp"  # ZeRO stage 0 from ../ds_stage0.json
    assert any("enclosing Python project" in n for n in plan["notes"])


def test_enclosing_package_twin_no_python_project_above_is_not_searched(cli, tmp_path: Path) -> None:
    files = {k: v for k, v in EMB_FILES.items() if k != "setup.py"}
    write(tmp_path, files)
    res = cli("audit", "--emit-plan", "json", *EMB_LINE, cwd=tmp_path / "examples/finetune/embedder")
    assert "which was not found" in res.out + res.err


# InternLM/xtuner @ b934f462095c: xtuner/apis/training_args.py:11-47 redeclares TrainingArguments
# fields with defaults that name class attributes (``default_per_device_train_batch_size = 1``
# then ``per_device_train_batch_size: int = field(default=default_per_device_train_batch_size)``);
# examples/huggingface_trainer/train_qlora_hf.py:11-12 parses it with HfArgumentParser.
XT_ARGS = """\
    from dataclasses import dataclass, field

    from transformers import TrainingArguments


    @dataclass
    class DefaultTrainingArguments(TrainingArguments):
        model_name_or_path: str = field(default=None, metadata={"help": "model"})

        default_per_device_train_batch_size = 1
        default_learning_rate = 2e-5

        per_device_train_batch_size: int = field(
            default=default_per_device_train_batch_size,
            metadata={"help": "Batch size per GPU"},
        )
        learning_rate: float = field(default=default_learning_rate)
"""
XT_TRAIN = """\
    import transformers
    from transformers import AutoModelForCausalLM, Trainer

    from xtpkg.apis import DefaultTrainingArguments


    def train():
        parser = transformers.HfArgumentParser(DefaultTrainingArguments)
        training_args = parser.parse_args_into_dataclasses()[0]
        model = AutoModelForCausalLM.from_pretrained(training_args.model_name_or_path)
        trainer = Trainer(model=model, args=training_args)
        trainer.train()


    if __name__ == "__main__":
        train()
"""
XT_FILES = {
    ".git/HEAD": "ref: refs/heads/main\n",
    "setup.py": "from setuptools import setup\nsetup(name='xtpkg')\n",
    "xtpkg/__init__.py": "",
    "xtpkg/apis/__init__.py": "from .training_args import DefaultTrainingArguments\n",
    "xtpkg/apis/training_args.py": XT_ARGS,
    "examples/hf/train_hf.py": XT_TRAIN,
}


def test_a_subclass_field_default_naming_a_class_attribute_is_the_default(cli, tmp_path: Path) -> None:
    write(tmp_path, XT_FILES)
    plan = plan_of(cli, "train_hf.py", "--", "--model_name_or_path", "org/model-7b", cwd=tmp_path / "examples/hf")
    assert winner(plan, "batch.micro") == 1  # not TrainingArguments' 8
    assert winner(plan, "model.ref") == "org/model-7b"


def test_subclass_default_twin_the_launch_line_value_wins(cli, tmp_path: Path) -> None:
    write(tmp_path, XT_FILES)
    plan = plan_of(cli, "train_hf.py", "--", "--model_name_or_path", "org/model-7b",
                   "--per_device_train_batch_size", "4", cwd=tmp_path / "examples/hf")
    assert winner(plan, "batch.micro") == 4


def test_subclass_default_twin_a_local_subclass_in_the_script(cli, tmp_path: Path) -> None:
    # the same subclass written in the script itself (the transformers adapter's own reading)
    import textwrap

    body = textwrap.dedent(XT_ARGS).replace("from transformers import TrainingArguments\n",
                                            "import transformers\nfrom transformers import TrainingArguments, Trainer\n"
                                            "from transformers import AutoModelForCausalLM\n")
    main = textwrap.dedent(XT_TRAIN).split("\n", 4)[4]  # the train() function and the main guard
    write(tmp_path, {"train_local.py": body + "\n\n" + main})
    plan = plan_of(cli, "train_local.py", "--", "--model_name_or_path", "org/model-7b", cwd=tmp_path)
    best = fact(plan, "batch.micro")
    assert best is not None and best.value == 1
    assert "DefaultTrainingArguments.per_device_train_batch_size default 1" in best.source.detail


# willccbb/verifiers examples/grpo/train_wordle.py:30-50 @ 39f0675a858f: the arguments object comes
# from the library's own defaults function, the script writes TrainingArguments keys on it, then
# hands it to the library's GRPOTrainer (a transformers Trainer subclass); transformers is not
# imported by the script.
VF_TRAIN = """\
    import argparse

    import verifiers as vf


    def main(args):
        model, tokenizer = vf.get_model_and_tokenizer("org/model-1.7B")
        training_args = vf.grpo_defaults(run_name="wordle")
        training_args.per_device_train_batch_size = 8
        training_args.num_generations = 16
        training_args.gradient_accumulation_steps = 8
        training_args.max_steps = 200
        trainer = vf.GRPOTrainer(model=model, processing_class=tokenizer, args=training_args)
        trainer.train()


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--size", type=str, default="1.7B")
        main(parser.parse_args())
"""


def test_values_written_on_the_trainer_arguments_object_are_read(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train_wordle.py": VF_TRAIN})
    plan = plan_of(cli, "--", "accelerate", "launch", "--num-processes", "2", "train_wordle.py", "--size", "1.7B",
                   cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == 8 and micro.confidence == "high"
    assert "training_args.per_device_train_batch_size = 8" in micro.source.detail
    assert winner(plan, "batch.grad_accum") == 8


# The same writes in a transformers script: they come after TrainingArguments(...) and win over it.
HF_WRITES = """\
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


    def main():
        model = AutoModelForCausalLM.from_pretrained("org/model-1b")
        training_args = TrainingArguments(output_dir="out", per_device_train_batch_size=4,
                                          gradient_checkpointing=False)
        training_args.gradient_checkpointing = True
        if model.config.vocab_size > 10:
            training_args.per_device_train_batch_size = 2
        trainer = Trainer(model=model, args=training_args)
        trainer.train()


    main()
"""


def test_attribute_writes_after_training_arguments_win_over_the_constructor(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": HF_WRITES})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    ckpt = fact(plan, "memory.gradient_checkpointing")
    assert ckpt is not None and ckpt.value is True and ckpt.confidence == "high"
    micro = fact(plan, "batch.micro")  # written under an `if`: the write wins, at medium
    assert micro is not None and micro.value == 2 and micro.confidence == "medium"


def test_attribute_writes_twin_a_different_object_is_not_the_trainers(cli, tmp_path: Path) -> None:
    other = HF_WRITES.replace("training_args.gradient_checkpointing = True",
                              "eval_args = TrainingArguments(output_dir='e')\n"
                              "        eval_args.gradient_checkpointing = True")
    assert other != HF_WRITES
    write(tmp_path, {"train.py": other})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "memory.gradient_checkpointing") is False


# facebookresearch/lingua README.md:43 @ 437d680e5218: ``torchrun --nproc-per-node 8 -m
# apps.main.train config=apps/main/configs/debug.yaml``: the OmegaConf command line names the
# config file as a ``key=value`` argument (apps/main/train.py reads it with ``OmegaConf.from_cli``).
OC_TRAIN = """\
    from omegaconf import OmegaConf


    def main():
        cli_args = OmegaConf.from_cli()
        file_cfg = OmegaConf.load(cli_args.config)
        del cli_args.config
        cfg = OmegaConf.merge(file_cfg, cli_args)
        print(cfg)


    if __name__ == "__main__":
        main()
"""


def test_a_config_named_as_key_equals_file_is_read(cli, tmp_path: Path) -> None:
    write(tmp_path, {"apps/__init__.py": "", "apps/main/__init__.py": "", "apps/main/train.py": OC_TRAIN,
                     "apps/main/configs/debug.yaml": "data:\n  batch_size: 32\n  seq_len: 2048\n"})
    plan = plan_of(cli, "--", "torchrun", "--nproc-per-node", "8", "-m", "apps.main.train",
                   "config=apps/main/configs/debug.yaml", cwd=tmp_path)
    assert any(n.startswith("read apps/main/configs/debug.yaml") for n in plan["notes"])
    assert not any("not found" in n for n in plan["notes"])


def test_key_equals_file_twin_a_data_file_is_not_a_config(cli, tmp_path: Path) -> None:
    write(tmp_path, {"apps/__init__.py": "", "apps/main/__init__.py": "", "apps/main/train.py": OC_TRAIN,
                     "apps/main/configs/debug.yaml": "data:\n  batch_size: 32\n",
                     "data/prompts.json": "[]\n"})
    plan = plan_of(cli, "--", "torchrun", "--nproc-per-node", "8", "-m", "apps.main.train",
                   "config=apps/main/configs/debug.yaml", "eval.prompts=data/prompts.json", cwd=tmp_path)
    assert not any("prompts.json" in n and n.startswith("read ") for n in plan["notes"])


# MCG-NJU/VideoMAE @ 14ef8d856287: utils.py:482-511 ``create_ds_config(args)`` writes a dict with
# the micro batch from ``--batch_size``, fp16 on and an Adam optimizer to a JSON file;
# run_class_finetuning.py:209-212 calls ``utils.create_ds_config(args)`` (``import utils``) and
# later hands ``args`` to ``deepspeed.initialize``, which reads that file.
DSW_UTILS = """\
    import json
    import os


    def get_world_size():
        return int(os.environ.get("WORLD_SIZE", 1))


    def create_ds_config(args):
        args.deepspeed_config = os.path.join(args.output_dir, "deepspeed_config.json")
        with open(args.deepspeed_config, mode="w") as writer:
            ds_config = {
                "train_batch_size": args.batch_size * args.update_freq * get_world_size(),
                "train_micro_batch_size_per_gpu": args.batch_size,
                "optimizer": {"type": "Adam", "adam_w_mode": True, "params": {"lr": args.lr}},
                "fp16": {"enabled": True, "loss_scale": 0},
            }
            writer.write(json.dumps(ds_config, indent=2))
"""
DSW_MAIN = """\
    import argparse

    import deepspeed
    import torch

    import utils


    def main(args):
        utils.create_ds_config(args)
        model = torch.nn.Linear(2, 2)
        model, optimizer, _, _ = deepspeed.initialize(args=args, model=model,
                                                      model_parameters=model.parameters())
        for step in range(10):
            loss = model(torch.randn(4, 2)).sum()
            model.backward(loss)
            model.step()


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--batch_size", default=64, type=int)
        parser.add_argument("--update_freq", default=1, type=int)
        parser.add_argument("--lr", default=1e-3, type=float)
        parser.add_argument("--output_dir", default="out")
        parser = deepspeed.add_config_arguments(parser)
        main(parser.parse_args())
"""


def test_a_deepspeed_config_written_to_json_by_a_helper_is_read(cli, tmp_path: Path) -> None:
    write(tmp_path, {"utils.py": DSW_UTILS, "run_finetuning.py": DSW_MAIN})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "8", "run_finetuning.py", "--batch_size", "8",
                   cwd=tmp_path)
    assert winner(plan, "batch.micro") == 8
    assert winner(plan, "dist.sharding") == "ddp"  # no zero_optimization: stage 0
    assert winner(plan, "precision.mode") == "fp16"  # DeepSpeed fp16: 16-bit weights, fp32 master copies
    assert any("writes the DeepSpeed config" in n for n in plan["notes"])


def test_written_config_twin_a_json_dump_of_something_else_is_not_deepspeed(cli, tmp_path: Path) -> None:
    other = DSW_UTILS.replace('"train_batch_size"', '"epochs"').replace('"train_micro_batch_size_per_gpu"', '"seed"')
    write(tmp_path, {"utils.py": other, "run_finetuning.py": DSW_MAIN})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "8", "run_finetuning.py", "--batch_size", "8",
                   cwd=tmp_path)
    assert not any("writes the DeepSpeed config" in n for n in plan["notes"])
    assert winner(plan, "precision.mode") != "fp16"


# PixArt-alpha/PixArt-sigma @ 1ce521afddcc: train_scripts/train.py:31,246,284 loads its mmcv-style
# Python config through a helper of the project's package, ``read_config(args.config)``
# (diffusion/utils/misc.py:21-30: ``Config.fromfile(file)`` in a retry loop); the config inherits
# with ``_base_`` and names its optimizer ``dict(type=...)``.
MM_FILES = {
    "diffusion/__init__.py": "",
    "diffusion/utils/__init__.py": "",
    "diffusion/utils/misc.py": """\
        import time

        from mmcv import Config


        def read_config(file):
            while True:
                config = Config.fromfile(file)
                if len(config) == 0:
                    time.sleep(0.1)
                    continue
                break
            return config
    """,
    "configs/base_config.py": """\
        num_workers = 4
        optimizer = dict(type='AdamW', lr=1e-4)
    """,
    "configs/sigma/x_512.py": """\
        _base_ = ['../base_config.py']
        image_size = 512
        optimizer = dict(type='CAMEWrapper', lr=2e-5)
    """,
    "train_scripts/train.py": """\
        import argparse

        import torch
        from mmcv.runner import LogBuffer

        from diffusion.utils.misc import read_config


        def parse_args():
            parser = argparse.ArgumentParser()
            parser.add_argument("config", type=str, help="config")
            return parser.parse_args()


        if __name__ == "__main__":
            args = parse_args()
            config = read_config(args.config)
            model = torch.nn.Linear(2, 2)
            for step in range(10):
                with torch.cuda.amp.autocast():
                    loss = model(torch.randn(4, 2)).sum()
                loss.backward()
    """,
}


def test_an_mmcv_config_loaded_through_a_project_helper_is_read(cli, tmp_path: Path) -> None:
    write(tmp_path, MM_FILES)
    plan = plan_of(cli, "train_scripts/train.py", "--", "configs/sigma/x_512.py", cwd=tmp_path)
    assert winner(plan, "optimizer.name") == "CAMEWrapper"  # the file's own, over its _base_'s AdamW
    assert any("configs/sigma/x_512.py and its _base_ files" in n for n in plan["notes"])


def test_mmcv_helper_twin_a_helper_loading_a_fixed_file_is_not_the_load(cli, tmp_path: Path) -> None:
    files = dict(MM_FILES)
    files["diffusion/utils/misc.py"] = files["diffusion/utils/misc.py"].replace(
        "Config.fromfile(file)", "Config.fromfile('configs/base_config.py')")
    write(tmp_path, files)
    plan = plan_of(cli, "train_scripts/train.py", "--", "configs/sigma/x_512.py", cwd=tmp_path)
    assert winner(plan, "optimizer.name") != "CAMEWrapper"
    assert not any("_base_ files" in n for n in plan["notes"])


# jingyaogong/minimind model/model_minimind.py:62,205 @ d65ef2c00ebc: the model module precomputes its
# rotary tables (``precompute_freqs_cis``); "precompute" is no spelling of activation recomputation,
# so the plain loop's "no checkpointing named" still holds.
RAW_LOOP = """\
    import torch

    from model.model_tiny import TinyLM

    model = TinyLM()
    optimizer = torch.optim.AdamW(model.parameters())
    for step in range(10):
        loss = model(torch.randn(4, 8)).sum()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
"""
TINY_MODEL = """\
    import torch


    def precompute_freqs_cis(dim, end=1024):
        return torch.arange(end)[:, None] * torch.arange(dim)[None, :]


    class TinyLM(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(8, 8)
            self.register_buffer("freqs", precompute_freqs_cis(8))

        def forward(self, x):
            return self.lin(x)
"""


def test_precompute_is_not_read_as_activation_recomputation(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": RAW_LOOP, "model/__init__.py": "", "model/model_tiny.py": TINY_MODEL})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "memory.gradient_checkpointing") is False


def test_precompute_twin_a_recompute_switch_still_counts(cli, tmp_path: Path) -> None:
    model = TINY_MODEL.replace("return self.lin(x)", "return self.lin(x) if not self.recompute_granularity else x")
    write(tmp_path, {"train.py": RAW_LOOP, "model/__init__.py": "", "model/model_tiny.py": model})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "memory.gradient_checkpointing") is not False
