"""Shapes of the eighth held-out set's real jobs (issue 15), reproduced in minimal fixtures of
our own, each citing the repository, path and commit it copies the shape of."""

from __future__ import annotations

import json
from pathlib import Path

from plan_helpers import fact, plan_of, winner, write

# jiaweizzhao/GaLore torchrun_main.py:29,292-299 @ 2cc66f88cce189e505affbb91042a8e77f5bf4e9: an
# if/elif chain on a string option, compared after ``.lower()``; the launch line picks the arm.
GALORE = """\
    import argparse

    import torch
    from torch.utils.data import DataLoader
    from galore_torch import GaLoreAdamW

    parser = argparse.ArgumentParser()
    parser.add_argument("--optimizer", default="Adam")
    parser.add_argument("--batch_size", type=int, default=4)
    args = parser.parse_args()

    model = torch.nn.Linear(2, 2)
    loader = DataLoader(range(10), batch_size=args.batch_size)
    if args.optimizer.lower() == "adam":
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    elif args.optimizer.lower() == "galore_adamw":
        optimizer = GaLoreAdamW(model.parameters(), lr=1e-3)
    elif args.optimizer.lower() == "sgd":
        optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
    for x in loader:
        model(x).sum().backward()
        optimizer.step()
        optimizer.zero_grad()
"""


def test_elif_chain_on_an_option_takes_the_arm_the_launch_line_picks(cli, tmp_path: Path) -> None:
    write(tmp_path, {"torchrun_main.py": GALORE})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "4", "torchrun_main.py", "--optimizer", "galore_adamw",
                   cwd=tmp_path)
    assert winner(plan, "optimizer.name") == "GaLoreAdamW"
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "4", "torchrun_main.py", "--optimizer", "SGD",
                   cwd=tmp_path)
    assert winner(plan, "optimizer.name") == "SGD"


def test_elif_chain_silent_twin_default_arm(cli, tmp_path: Path) -> None:
    # the option not given: its declared default "Adam" picks the first arm, rightly
    write(tmp_path, {"torchrun_main.py": GALORE})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "4", "torchrun_main.py", cwd=tmp_path)
    assert winner(plan, "optimizer.name") == "Adam"


def test_undecided_elif_chain_is_unknown_not_the_first_arm(cli, tmp_path: Path) -> None:
    # the option's value cannot be known (set from the environment): no arm is the job's
    write(tmp_path, {"torchrun_main.py": GALORE.replace('parser.add_argument("--optimizer", default="Adam")',
                                                         'parser.add_argument("--optimizer", default=os.environ["OPT"])')
                     .replace("import argparse", "import argparse\n    import os")})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "4", "torchrun_main.py", cwd=tmp_path)
    assert winner(plan, "optimizer.name") is None


# mlfoundations/open_clip src/open_clip_train/main.py:487-495 @ 89fb801f1e6087880e951fc8354b8a2077b79c6d:
# the GradScaler runs only when ``--precision amp`` (fp16); the launch line gives amp_bfloat16.
OPENCLIP = """\
    import argparse

    import torch
    from torch.utils.data import DataLoader

    parser = argparse.ArgumentParser()
    parser.add_argument("--precision", default="amp")
    parser.add_argument("--fsdp", action="store_true")
    args = parser.parse_args()

    model = torch.nn.Linear(2, 2)
    loader = DataLoader(range(10), batch_size=8)
    optimizer = torch.optim.AdamW(model.parameters())
    scaler = None
    need_scaler = (args.precision == "amp")
    if args.fsdp:
        need_scaler = False
    if need_scaler:
        scaler = torch.amp.GradScaler(device="cuda")
    for x in loader:
        model(x).sum().backward()
        optimizer.step()
"""


def test_scaler_under_an_undecided_precision_guard_is_not_fp16(cli, tmp_path: Path) -> None:
    write(tmp_path, {"main.py": OPENCLIP})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "2", "main.py", "--precision", "amp_bfloat16",
                   cwd=tmp_path)
    assert winner(plan, "precision.mode") != "amp_fp16"


def test_scaler_silent_twin_unguarded_scaler_still_means_fp16(cli, tmp_path: Path) -> None:
    text = OPENCLIP.replace('    if need_scaler:\n        scaler = torch.amp.GradScaler(device="cuda")\n',
                            '    scaler = torch.amp.GradScaler(device="cuda")\n')
    assert "if need_scaler" not in text
    write(tmp_path, {"main.py": text})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "2", "main.py", cwd=tmp_path)
    assert winner(plan, "precision.mode") == "amp_fp16"


# facebookresearch/mae main_finetune.py:227 @ efb2a8062c206524e35e47d04501ed4f544c0ae8 (and timm
# train.py ``--model efficientnet_b2``): ``--model`` names an architecture, not a folder.
MAE = """\
    import argparse

    import torch
    from torch.utils.data import DataLoader

    import models_vit

    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="vit_large_patch16", type=str)
    parser.add_argument("--batch_size", default=64, type=int)
    args = parser.parse_args()
    model = models_vit.__dict__[args.model](num_classes=1000)
    loader = DataLoader(range(10), batch_size=args.batch_size)
    optimizer = torch.optim.AdamW(model.parameters())
    for x in loader:
        model(x).sum().backward()
        optimizer.step()
"""
MODELS_VIT = """\
    import torch


    def vit_base_patch16(**kwargs):
        return torch.nn.Linear(2, 2)
"""


def test_model_option_naming_an_architecture_is_a_model_name(cli, tmp_path: Path) -> None:
    write(tmp_path, {"main_finetune.py": MAE, "models_vit.py": MODELS_VIT})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "8", "main_finetune.py", "--model", "vit_base_patch16",
                   cwd=tmp_path)
    best = fact(plan, "model.ref")
    assert best is not None and best.value == "vit_base_patch16"
    assert fact(plan, "model.num_parameters") is None  # never a size guessed from a name
    assert not any("vit_base_patch16 is a local path" in n for n in plan["notes"])


def test_model_option_silent_twin_an_existing_folder_stays_a_local_path(cli, tmp_path: Path) -> None:
    write(tmp_path, {"main_finetune.py": MAE, "models_vit.py": MODELS_VIT, "my_ckpt/weights.txt": "x\n"})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "8", "main_finetune.py", "--model", "my_ckpt",
                   cwd=tmp_path)
    assert winner(plan, "model.ref") != "my_ckpt"
    assert any("my_ckpt is a local path" in n for n in plan["notes"])


# huggingface/pytorch-image-models distributed_train.sh:2-4 @ aa4b5850c1543fa488abf260f18390eda46cf85d:
# the wrapper takes the process count as its first argument, shifts it off, passes the rest on.
TIMM_SH = """\
    #!/bin/bash
    NUM_PROC=$1
    shift
    torchrun --nproc_per_node=$NUM_PROC train.py "$@"
"""
TIMM_TRAIN = """\
    import argparse

    import torch
    from torch.utils.data import DataLoader

    parser = argparse.ArgumentParser()
    group = parser.add_argument_group("Training parameters")
    group.add_argument("-b", "--batch-size", type=int, default=128)
    args = parser.parse_args()
    model = torch.nn.Linear(2, 2)
    loader = DataLoader(range(10), batch_size=args.batch_size)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in loader:
        model(x).sum().backward()
        opt.step()
"""


def test_wrapper_shift_drops_its_own_argument_before_the_launch_line(cli, tmp_path: Path) -> None:
    write(tmp_path, {"distributed_train.sh": TIMM_SH, "train.py": TIMM_TRAIN})
    plan = plan_of(cli, "distributed_train.sh", "--", "2", "-b", "64", cwd=tmp_path)
    assert winner(plan, "dist.world_size") == 2
    assert winner(plan, "batch.micro") == 64
    assert any("train.py -b 64" in n and "train.py 2" not in n for n in plan["notes"])


def test_wrapper_silent_twin_without_shift_passes_every_argument(cli, tmp_path: Path) -> None:
    write(tmp_path, {"distributed_train.sh": TIMM_SH.replace("    shift\n", ""), "train.py": TIMM_TRAIN})
    plan = plan_of(cli, "distributed_train.sh", "--", "2", "-b", "64", cwd=tmp_path)
    assert any("train.py 2 -b 64" in n for n in plan["notes"])


# mlfoundations/open_clip docs/script_examples/stability_example.sh:1-37 and
# src/open_clip_train/main.py:50,98 / params.py:28,864,910 @ 89fb801f1e6087880e951fc8354b8a2077b79c6d:
# `srun python -m pkg.main` under #SBATCH task directives, the options declared in a local module.
OC_SH = """\
    #!/bin/bash
    #SBATCH --nodes 30
    #SBATCH --ntasks-per-node=8
    #SBATCH --cpus-per-task=12

    srun --comment laion python -m open_clip_train.main --precision amp_bfloat16 --workers=8
"""
OC_MAIN = """\
    import torch
    from torch.utils.data import DataLoader

    from open_clip_train.params import parse_args


    def main(args):
        args = parse_args(args)
        model = torch.nn.Linear(2, 2)
        loader = DataLoader(range(10), batch_size=4, num_workers=args.workers)
        optimizer = torch.optim.AdamW(model.parameters())
        if args.precision == "amp":
            scaler = torch.amp.GradScaler(device="cuda")
        for x in loader:
            model(x).sum().backward()
            optimizer.step()


    if __name__ == "__main__":
        import sys
        main(sys.argv[1:])
"""
OC_PARAMS = """\
    import argparse


    def parse_args(args):
        parser = argparse.ArgumentParser()
        parser.add_argument("--precision", default="amp", type=str)
        parser.add_argument("--workers", type=int, default=4)
        args = parser.parse_args(args)
        return args
"""


def test_srun_without_task_flags_runs_the_sbatch_allocation(cli, tmp_path: Path) -> None:
    write(tmp_path, {"run.sh": OC_SH, "src/open_clip_train/main.py": OC_MAIN,
                     "src/open_clip_train/params.py": OC_PARAMS, "src/open_clip_train/__init__.py": ""})
    plan = plan_of(cli, "../run.sh", cwd=tmp_path / "src")
    assert winner(plan, "dist.world_size") == 240
    assert winner(plan, "dist.nodes") == 30
    assert winner(plan, "dist.devices_per_node") == 8


def test_srun_silent_twin_its_own_flags_win(cli, tmp_path: Path) -> None:
    write(tmp_path, {"run.sh": OC_SH.replace("srun --comment laion", "srun -N 2 --ntasks-per-node 4"),
                     "src/open_clip_train/main.py": OC_MAIN,
                     "src/open_clip_train/params.py": OC_PARAMS, "src/open_clip_train/__init__.py": ""})
    plan = plan_of(cli, "../run.sh", cwd=tmp_path / "src")
    assert winner(plan, "dist.world_size") == 8
    assert winner(plan, "dist.nodes") == 2


def test_options_from_a_local_parse_args_module_decide_guards(cli, tmp_path: Path) -> None:
    write(tmp_path, {"run.sh": OC_SH, "src/open_clip_train/main.py": OC_MAIN,
                     "src/open_clip_train/params.py": OC_PARAMS, "src/open_clip_train/__init__.py": ""})
    plan = plan_of(cli, "../run.sh", cwd=tmp_path / "src")
    assert winner(plan, "data.num_workers") == 8
    assert winner(plan, "precision.mode") != "amp_fp16"  # the scaler runs only under --precision amp


def test_local_parse_args_silent_twin_default_amp_keeps_the_scaler(cli, tmp_path: Path) -> None:
    write(tmp_path, {"run.sh": OC_SH.replace("--precision amp_bfloat16 ", ""), "src/open_clip_train/main.py": OC_MAIN,
                     "src/open_clip_train/params.py": OC_PARAMS, "src/open_clip_train/__init__.py": ""})
    plan = plan_of(cli, "../run.sh", cwd=tmp_path / "src")
    assert winner(plan, "precision.mode") == "amp_fp16"
    assert winner(plan, "data.num_workers") == 8


# facebookresearch/mae main_finetune.py:141-145,206 @ efb2a8062c206524e35e47d04501ed4f544c0ae8: a
# store_true/store_false pair on one dest, its default set by ``parser.set_defaults``.
MAE_PIN = """\
    import argparse

    import torch
    from torch.utils.data import DataLoader

    parser = argparse.ArgumentParser()
    parser.add_argument("--num_workers", default=10, type=int)
    parser.add_argument("--pin_mem", action="store_true")
    parser.add_argument("--no_pin_mem", action="store_false", dest="pin_mem")
    parser.set_defaults(pin_mem=True)
    args = parser.parse_args()
    model = torch.nn.Linear(2, 2)
    loader = DataLoader(range(10), batch_size=8, num_workers=args.num_workers, pin_memory=args.pin_mem)
    optimizer = torch.optim.AdamW(model.parameters())
    for x in loader:
        model(x).sum().backward()
        optimizer.step()
"""


def test_set_defaults_gives_the_default_of_a_flag_pair(cli, tmp_path: Path) -> None:
    write(tmp_path, {"main_finetune.py": MAE_PIN})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "8", "main_finetune.py", cwd=tmp_path)
    best = fact(plan, "data.pin_memory")
    assert best is not None and best.value is True and best.source.line == 10


def test_set_defaults_silent_twin_the_launch_line_flag_wins(cli, tmp_path: Path) -> None:
    write(tmp_path, {"main_finetune.py": MAE_PIN})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "8", "main_finetune.py", "--no_pin_mem", cwd=tmp_path)
    assert winner(plan, "data.pin_memory") is False


# LianjiaTech/BELLE train/configs/deepspeed_config_stage3.json:11,13 @ 645084d36454cdeb4e7f1ce9b2f3426bac39f1f9:
# explicit zeros for the ZeRO-3 prefetch bucket and live parameters are settings, recorded.
BELLE_DS = {"zero_optimization": {"stage": 3, "reduce_bucket_size": 0, "stage3_prefetch_bucket_size": 0,
                                  "stage3_max_live_parameters": 0},
            "train_micro_batch_size_per_gpu": 1}


def test_deepspeed_stage3_zero_sizes_are_recorded(cli, tmp_path: Path) -> None:
    (tmp_path / "ds.json").write_text(json.dumps(BELLE_DS))
    res = cli("audit", "--config", "ds.json", "--emit-plan", "json", cwd=tmp_path)
    plan = json.loads(res.out)
    assert winner(plan, "dist.stage3_prefetch_bucket_size") == 0
    assert winner(plan, "dist.stage3_max_live_parameters") == 0
    assert winner(plan, "dist.reduce_bucket_size") is None  # a 0 bucket is not a DeepSpeed size: silent


# jiaweizzhao/GaLore torchrun_main.py:47,204-205 @ 2cc66f88cce189e505affbb91042a8e77f5bf4e9: the
# only checkpointing switch sits under a store_true flag the launch line does not give.
GALORE_CKPT = """\
    import argparse

    import torch
    from torch.utils.data import DataLoader
    from transformers import AutoModelForCausalLM

    parser = argparse.ArgumentParser()
    parser.add_argument("--activation_checkpointing", action="store_true")
    args = parser.parse_args()
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    if args.activation_checkpointing:
        model.gradient_checkpointing_enable()
    loader = DataLoader(range(10), batch_size=8)
    optimizer = torch.optim.AdamW(model.parameters())
    for x in loader:
        model(x).loss.backward()
        optimizer.step()
"""


def test_checkpointing_under_a_flag_not_given_is_off(cli, tmp_path: Path) -> None:
    write(tmp_path, {"torchrun_main.py": GALORE_CKPT})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "4", "torchrun_main.py", cwd=tmp_path)
    best = fact(plan, "memory.gradient_checkpointing")
    assert best is not None and best.value is False and best.source.line == 12


def test_checkpointing_silent_twin_the_flag_given_turns_it_on(cli, tmp_path: Path) -> None:
    write(tmp_path, {"torchrun_main.py": GALORE_CKPT})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "4", "torchrun_main.py", "--activation_checkpointing",
                   cwd=tmp_path)
    assert winner(plan, "memory.gradient_checkpointing") is True


# LianjiaTech/BELLE train/src/entry_point/sft_train.py:101-105,276-295 @
# 645084d36454cdeb4e7f1ce9b2f3426bac39f1f9: the LoRA rank is a key of a JSON file named by an
# option (``--lora_config configs/lora_config_llama.json``), loaded with json.load(open(...)).
BELLE = """\
    import json

    import torch
    from torch.utils.data import DataLoader
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--lora_config", default="configs/other.json")
    args = parser.parse_args()


    def build(model):
        lora_config = json.load(open(args.lora_config))
        config = LoraConfig(r=lora_config["lora_r"], lora_alpha=lora_config["lora_alpha"])
        return get_peft_model(model, config)


    model = build(AutoModelForCausalLM.from_pretrained("gpt2"))
    loader = DataLoader(range(10), batch_size=8)
    optimizer = torch.optim.AdamW(model.parameters())
    for x in loader:
        model(x).loss.backward()
        optimizer.step()
"""


def test_lora_rank_from_a_json_file_named_by_an_option(cli, tmp_path: Path) -> None:
    write(tmp_path, {"sft_train.py": BELLE})
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "lora_config_llama.json").write_text(json.dumps({"lora_r": 16, "lora_alpha": 32}))
    (tmp_path / "configs" / "other.json").write_text(json.dumps({"lora_r": 4}))
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "8", "sft_train.py",
                   "--lora_config", "configs/lora_config_llama.json", cwd=tmp_path)
    assert winner(plan, "peft.rank") == 16
    # the option's default names another file: that one is read when the line gives none
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "8", "sft_train.py", cwd=tmp_path)
    assert winner(plan, "peft.rank") == 4


def test_lora_rank_json_silent_twin_missing_file_or_key(cli, tmp_path: Path) -> None:
    write(tmp_path, {"sft_train.py": BELLE})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "8", "sft_train.py",
                   "--lora_config", "configs/absent.json", cwd=tmp_path)
    assert winner(plan, "peft.rank") is None
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "lora.json").write_text(json.dumps({"rank": 16}))
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "8", "sft_train.py",
                   "--lora_config", "configs/lora.json", cwd=tmp_path)
    assert winner(plan, "peft.rank") is None


# jiaweizzhao/GaLore torchrun_main.py:195-196 @ 2cc66f88cce189e505affbb91042a8e77f5bf4e9: the
# dataset batches itself and the DataLoader turns automatic batching off (batch_size=None).
GALORE_DATA = """\
    import argparse

    import torch
    from peft_pretraining.dataloader import PreprocessedIterableDataset

    parser = argparse.ArgumentParser()
    parser.add_argument("--batch_size", type=int, required=True)
    args = parser.parse_args()
    dataset = PreprocessedIterableDataset([], None, batch_size=args.batch_size, max_length=256)
    dataloader = torch.utils.data.DataLoader(dataset, batch_size=None, num_workers=8)
    model = torch.nn.Linear(2, 2)
    optimizer = torch.optim.AdamW(model.parameters())
    for x in dataloader:
        model(x).sum().backward()
        optimizer.step()
"""


def test_dataloader_without_batching_over_a_batching_dataset(cli, tmp_path: Path) -> None:
    write(tmp_path, {"torchrun_main.py": GALORE_DATA})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "4", "torchrun_main.py", "--batch_size", "128",
                   cwd=tmp_path)
    assert winner(plan, "batch.micro") == 128


def test_dataloader_without_batching_silent_twin_plain_dataset(cli, tmp_path: Path) -> None:
    write(tmp_path, {"torchrun_main.py": GALORE_DATA.replace(", batch_size=args.batch_size", "")})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "4", "torchrun_main.py", "--batch_size", "128",
                   cwd=tmp_path)
    assert winner(plan, "batch.micro") is None


# huggingface/pytorch-image-models train.py:73-80,142,377,381,461-474 @
# aa4b5850c1543fa488abf260f18390eda46cf85d: options on argument groups, parsed in two steps
# (a config-file parser's parse_known_args, then the main parser) by a local _parse_args()
# returning (args, args_text). Already read before this round: a pin, not a new behaviour.
TIMM_TWO_STEP = """\
    import argparse

    import torch
    import yaml
    from torch.utils.data import DataLoader

    config_parser = parser = argparse.ArgumentParser(description="Training Config", add_help=False)
    parser.add_argument("-c", "--config", default="", type=str)
    parser = argparse.ArgumentParser(description="PyTorch ImageNet Training")
    group = parser.add_argument_group("Training parameters")
    group.add_argument("-b", "--batch-size", type=int, default=128)
    group.add_argument("-j", "--workers", type=int, default=4)
    group.add_argument("--pin-mem", action="store_true", default=False)


    def _parse_args():
        args_config, remaining = config_parser.parse_known_args()
        if args_config.config:
            with open(args_config.config, "r") as f:
                cfg = yaml.safe_load(f)
                parser.set_defaults(**cfg)
        args = parser.parse_args(remaining)
        args_text = yaml.safe_dump(args.__dict__, default_flow_style=False)
        return args, args_text


    def main():
        args, args_text = _parse_args()
        model = torch.nn.Linear(2, 2)
        loader = DataLoader(range(10), batch_size=args.batch_size, num_workers=args.workers, pin_memory=args.pin_mem)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for x in loader:
            model(x).sum().backward()
            opt.step()


    if __name__ == "__main__":
        main()
"""


def test_argument_groups_and_two_step_parse_reach_the_loader(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": TIMM_TWO_STEP})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node=2", "train.py", "-b", "64", "-j", "8", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 64
    assert winner(plan, "data.num_workers") == 8
    assert winner(plan, "data.pin_memory") is False


def test_a_json_key_is_never_read_through_a_link_out_of_the_job(tmp_path, monkeypatch):
    """``cfg = json.load(open("configs/lora.json"))`` reads that file's key only inside the
    job: a symbolic link from the job's folder to a file outside it is not followed (the
    scheduler gate reads the job with more rights than its author)."""
    from preflight.script_parsers import json_file_value

    job, outside = tmp_path / "job", tmp_path / "outside"
    (job / "configs").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.json").write_text(json.dumps({"lora_r": 7}))
    (job / "configs" / "own.json").write_text(json.dumps({"lora_r": 16}))
    (job / "configs" / "lora.json").symlink_to(outside / "secret.json")
    monkeypatch.chdir(outside)
    script = job / "train.py"
    assert json_file_value("configs/own.json", "lora_r", script) == (True, 16)
    assert json_file_value("configs/lora.json", "lora_r", script) == (False, None)
    assert json_file_value("../outside/secret.json", "lora_r", script) == (False, None)
