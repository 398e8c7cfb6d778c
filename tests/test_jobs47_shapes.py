"""Shapes of the twenty-sixth held-out set's real jobs (issue 15), reproduced in minimal fixtures of our own,
each citing the repository, path and commit it copies the shape of; each with twins that must stay as they were."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, winner, write

# graphdeeplearning/benchmarking-gnns @ b6c407712fa576e9699555e1e035d1e327ccae6c
# main_molecules_graph_regression.py:147-160: a loader without batch_size for two dense models, the
# configured batch for every other one, under an ``if`` on a parameter of the pipeline function
GNN = """\
    import argparse
    import json

    import torch
    from torch.utils.data import DataLoader


    def pipeline(model_name, params, trainset):
        model = torch.nn.Linear(4, 1)
        optimizer = torch.optim.Adam(model.parameters())
        if model_name in ["RingGNN", "3WLGNN"]:
            train_loader = DataLoader(trainset, shuffle=True)
        else:
            train_loader = DataLoader(trainset, batch_size=params["batch_size"], shuffle=True)
        for x, y in train_loader:
            loss = torch.nn.functional.mse_loss(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--config")
        parser.add_argument("--model")
        parser.add_argument("--dense", action="store_true")
        args = parser.parse_args()
        with open(args.config) as f:
            config = json.load(f)
        params = config["params"]
        model_name = args.model if args.model is not None else config["model"]
        pipeline(model_name, params, [])


    main()
    """
GNN_JSON = '{"model": "GatedGCN", "params": {"batch_size": 128}}\n'


def test_default_batch_in_an_undecided_arm_does_not_win_over_the_other_arm(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": GNN, "cfg.json": GNN_JSON})
    plan = plan_of(cli, "train.py", "--", "--config", "cfg.json", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 128
    assert not any(f["value"] == 1 for f in plan["fields"].get("batch.micro", []))


def test_default_batch_in_an_arm_the_line_decides_is_the_batch(cli, tmp_path: Path) -> None:
    decided = GNN.replace('if model_name in ["RingGNN", "3WLGNN"]:', "if args_dense:").replace(
        "def pipeline(model_name, params, trainset):", "def pipeline(model_name, params, trainset, args_dense=True):")
    write(tmp_path, {"train.py": decided, "cfg.json": GNN_JSON})
    plan = plan_of(cli, "train.py", "--", "--config", "cfg.json", cwd=tmp_path)
    got = fact(plan, "batch.micro")
    assert got is not None and got.value == 1 and got.source.line == 12


def test_default_batch_in_both_arms_stays_the_default(cli, tmp_path: Path) -> None:
    both = GNN.replace('batch_size=params["batch_size"], ', "")
    write(tmp_path, {"train.py": both, "cfg.json": GNN_JSON})
    plan = plan_of(cli, "train.py", "--", "--config", "cfg.json", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 1


# facebookresearch/swav @ 06b1b7cbaf6b2ab2ae7f4f2e9bae1a4fd6c7d1a6 main_swav.py:113,186-187,317-329 and
# src/utils.py:27-37: ``--use_fp16`` parsed by a ``bool_flag`` type function, apex amp O1 under it, and the
# scaled backward in one way of an ``if``, the plain one in the other, the step after the ``if``
SWAV = """\
    import argparse

    import apex
    import torch
    from torch.utils.data import DataLoader


    def bool_flag(s):
        if s.lower() in {"off", "false", "0"}:
            return False
        elif s.lower() in {"on", "true", "1"}:
            return True
        raise argparse.ArgumentTypeError("invalid value for a boolean flag")


    parser = argparse.ArgumentParser()
    parser.add_argument("--use_fp16", type=bool_flag, default=False)
    parser.add_argument("--batch_size", type=int, default=64)
    args = parser.parse_args()


    def train(loader, model, optimizer):
        for it, inputs in enumerate(loader):
            loss = model(inputs).mean()
            optimizer.zero_grad()
            if args.use_fp16:
                with apex.amp.scale_loss(loss, optimizer) as scaled_loss:
                    scaled_loss.backward()
            else:
                loss.backward()
            STEP


    def main():
        model = torch.nn.Linear(4, 4).cuda()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        if args.use_fp16:
            model, optimizer = apex.amp.initialize(model, optimizer, opt_level="O1")
        loader = DataLoader(list(range(8)), batch_size=args.batch_size)
        train(loader, model, optimizer)


    main()
    """


def _swav(step: str) -> str:
    return SWAV.replace("STEP", step)


def test_apex_scaled_backward_in_one_way_then_the_step_is_no_accumulation(cli, tmp_path: Path) -> None:
    write(tmp_path, {"main_swav.py": _swav("optimizer.step()")})
    plan = plan_of(cli, "main_swav.py", "--", "--use_fp16", "true", cwd=tmp_path)
    got = fact(plan, "batch.grad_accum")
    assert got is not None and got.value == 1 and got.source.line == 31


def test_a_step_every_k_batches_after_the_two_ways_is_not_read_as_no_accumulation(cli, tmp_path: Path) -> None:
    write(tmp_path, {"main_swav.py": _swav("if (it + 1) % 4 == 0:\n                optimizer.step()")})
    plan = plan_of(cli, "main_swav.py", "--", "--use_fp16", "true", cwd=tmp_path)
    assert winner(plan, "batch.grad_accum") != 1


def test_a_backward_in_one_way_only_is_not_read_as_no_accumulation(cli, tmp_path: Path) -> None:
    one_way = _swav("optimizer.step()").replace("                loss.backward()", "                pass")
    write(tmp_path, {"main_swav.py": one_way})
    plan = plan_of(cli, "main_swav.py", "--", "--use_fp16", "on", cwd=tmp_path)  # a word not read: undecided
    assert winner(plan, "batch.grad_accum") is None


def test_a_bool_flag_type_reads_true_and_apex_o1_is_amp_fp16(cli, tmp_path: Path) -> None:
    write(tmp_path, {"main_swav.py": _swav("optimizer.step()")})
    plan = plan_of(cli, "main_swav.py", "--", "--use_fp16", "true", cwd=tmp_path)
    assert winner(plan, "precision.mode") == "amp_fp16"


def test_a_bool_flag_type_reads_false_and_apex_is_off(cli, tmp_path: Path) -> None:
    write(tmp_path, {"main_swav.py": _swav("optimizer.step()")})
    plan = plan_of(cli, "main_swav.py", "--", "--use_fp16", "0", cwd=tmp_path)
    assert winner(plan, "precision.mode") != "amp_fp16"


def test_a_word_not_every_bool_parser_reads_alike_is_not_read(cli, tmp_path: Path) -> None:
    write(tmp_path, {"main_swav.py": _swav("optimizer.step()")})
    plan = plan_of(cli, "main_swav.py", "--", "--use_fp16", "on", cwd=tmp_path)
    assert winner(plan, "precision.mode") != "amp_fp16"


# jaywalnut310/glow-tts @ 13e997689d643410f5d9f1f9a73877ae85e19bc2 train.py:12,73: apex's data-parallel
# wrapper imported under the name DDP
GLOW = """\
    import torch
    import torch.multiprocessing as mp
    from apex.parallel import DistributedDataParallel as DDP
    from torch.utils.data import DataLoader


    def run(rank, n_gpus):
        torch.distributed.init_process_group("nccl", world_size=n_gpus, rank=rank)
        model = torch.nn.Linear(4, 4).cuda(rank)
        optimizer = torch.optim.Adam(model.parameters())
        model = WRAP(model)
        for x in DataLoader(list(range(8)), batch_size=16):
            loss = model(x).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


    if __name__ == "__main__":
        mp.spawn(run, nprocs=torch.cuda.device_count(), args=(torch.cuda.device_count(),))
    """


def test_apex_ddp_imported_as_ddp_is_ddp(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": GLOW.replace("WRAP", "DDP")})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    got = fact(plan, "dist.sharding")
    assert got is not None and got.value == "ddp" and got.source.line == 11


def test_a_project_class_named_ddp_is_not_apex_ddp(cli, tmp_path: Path) -> None:
    own = GLOW.replace("    from apex.parallel import DistributedDataParallel as DDP\n", "").replace(
        "    def run(rank, n_gpus):",
        "    class DDP(torch.nn.Module):\n        pass\n\n\n    def run(rank, n_gpus):").replace("WRAP", "DDP")
    write(tmp_path, {"train.py": own})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "dist.sharding") != "ddp"


# lucidrains/x-transformers @ 9252ed7838021ee61e6c5be0930b3a9a88efdf06 train_enwik8.py:58 and its README's
# ``python train_enwik8.py``: a script named alone is started by plain python, an Accelerator in one process
ALONE = """\
    import torch
    from accelerate import Accelerator
    from torch.utils.data import DataLoader


    def train(batch_size=4):
        accelerator = Accelerator()
        model = torch.nn.Linear(4, 4)
        optimizer = torch.optim.Adam(model.parameters())
        loader = DataLoader(list(range(8)), batch_size=batch_size)
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for x in loader:
            loss = model(x).mean()
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()


    train()
    """


def test_a_script_named_alone_is_one_python_process(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train_enwik8.py": ALONE})
    plan = plan_of(cli, "train_enwik8.py", cwd=tmp_path)
    assert winner(plan, "dist.world_size") == 1
    assert winner(plan, "dist.nodes") == 1


def test_a_script_under_torchrun_is_not_one_process(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train_enwik8.py": ALONE,
                     "run.sh": "torchrun --nproc_per_node 4 train_enwik8.py\n"})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert winner(plan, "dist.world_size") == 4


def test_low_rank_in_prose_does_not_hide_the_one_process(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train_enwik8.py": ALONE.replace("    import torch\n", "    import torch\n\n    import layers\n", 1),
                     "layers.py": 'class LoRALinear:\n    """ low-rank linear projection """\n'})
    plan = plan_of(cli, "train_enwik8.py", cwd=tmp_path)
    assert winner(plan, "dist.world_size") == 1


def test_a_script_reading_the_rank_variable_is_not_read_as_one_process(cli, tmp_path: Path) -> None:
    ranked = ALONE.replace("    import torch\n", "    import os\n\n    import torch\n\n    RANK = int(os.environ.get('RANK', 0))\n", 1)
    write(tmp_path, {"train_enwik8.py": ranked})
    plan = plan_of(cli, "train_enwik8.py", cwd=tmp_path)
    assert winner(plan, "dist.world_size") is None


def test_a_script_started_by_a_notebook_launcher_is_not_read_as_one_process(cli, tmp_path: Path) -> None:
    launched = ALONE.replace("\n\n\n    train()\n", "\n\n\n    from accelerate import notebook_launcher\n\n"
                                                "    notebook_launcher(train, num_processes=2)\n")
    write(tmp_path, {"train_enwik8.py": launched})
    plan = plan_of(cli, "train_enwik8.py", cwd=tmp_path)
    assert winner(plan, "dist.world_size") is None


# kzl/decision-transformer @ e2d82e68f330f2fcea1e2f5bdf2f2d70c94e1e0f
# gym/decision_transformer/models/trajectory_gpt2.py:262-290,367: a local model module defines an adapter
# class whose one use is commented out; the loop is a trainer class of another local module
DT_MODEL = """\
    import torch.nn as nn


    class AdapterMLP(nn.Module):
        def __init__(self, n):
            super().__init__()
            self.fc = nn.Linear(n, n)


    class Block(nn.Module):
        def __init__(self, n):
            super().__init__()
            self.mlp = nn.Linear(n, n)
            # self.adapter_mlp = AdapterMLP(n)  # ADAPTER

        def forward(self, x):
            return self.mlp(x)  # KL: Adapter change
    """
DT_TRAINER = """\
    class Trainer:
        def __init__(self, model, optimizer, batches):
            self.model, self.optimizer, self.batches = model, optimizer, batches

        def train_iteration(self):
            for x in self.batches:
                loss = self.model(x).mean()
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
    """
DT_MAIN = """\
    import torch

    from models.gpt2 import Block
    from training.trainer import Trainer

    model = Block(4)
    Trainer(model, torch.optim.AdamW(model.parameters()), [torch.randn(2, 4)]).train_iteration()
    """


def _dt(tmp_path: Path, model: str) -> dict:
    write(tmp_path, {"experiment.py": DT_MAIN, "models/__init__.py": "", "models/gpt2.py": model,
                     "training/__init__.py": "", "training/trainer.py": DT_TRAINER})
    return tmp_path


def test_an_adapter_class_nobody_builds_names_no_peft(cli, tmp_path: Path) -> None:
    plan = plan_of(cli, "experiment.py", "--", "--env", "hopper", cwd=_dt(tmp_path, DT_MODEL))
    assert winner(plan, "peft.method") == "none"


def test_an_adapter_class_the_model_builds_is_not_read_as_no_peft(cli, tmp_path: Path) -> None:
    built = DT_MODEL.replace("# self.adapter_mlp = AdapterMLP(n)  # ADAPTER", "self.adapter_mlp = AdapterMLP(n)")
    plan = plan_of(cli, "experiment.py", "--", "--env", "hopper", cwd=_dt(tmp_path, built))
    assert winner(plan, "peft.method") != "none"


def test_an_adapter_class_built_in_another_module_is_not_read_as_no_peft(cli, tmp_path: Path) -> None:
    main = DT_MAIN.replace("from models.gpt2 import Block", "from models.gpt2 import AdapterMLP, Block").replace(
        "model = Block(4)", "model = torch.nn.Sequential(Block(4), AdapterMLP(4))")
    _dt(tmp_path, DT_MODEL)
    write(tmp_path, {"experiment.py": main})
    plan = plan_of(cli, "experiment.py", "--", "--env", "hopper", cwd=tmp_path)
    assert winner(plan, "peft.method") != "none"


# thu-coai/CDial-GPT @ 3c9fa3b9ed0d8c6ac2da2cfae5f8c8a6a5e1f9d0 train.py:54-65,115-116 and
# od/inputters/inputter.py:44-87: the loader builder chosen by a conditional expression on an option, then called
# with the argparse namespace
CDIAL = """\
    from argparse import ArgumentParser

    import torch

    from od.inputter import build_dataloaders, build_dist_loaders


    def train():
        parser = ArgumentParser()
        parser.add_argument("--data_path", type=str, default="")
        parser.add_argument("--num_workers", type=int, default=8)
        parser.add_argument("--train_batch_size", type=int, default=2)
        parser.add_argument("--dist_batch_size", type=int, default=64)
        args = parser.parse_args()
        model = torch.nn.Linear(4, 4)
        optimizer = torch.optim.AdamW(model.parameters())
        loader_class = build_dist_loaders if not args.data_path else build_dataloaders
        train_loader, val_loader = loader_class(args)
        for x in train_loader:
            loss = model(x).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


    if __name__ == "__main__":
        train()
    """
INPUTTER = """\
    from torch.utils.data import DataLoader


    def build_dataloaders(args):
        train_loader = DataLoader(list(range(8)), num_workers=args.num_workers, batch_size=args.train_batch_size)
        valid_loader = DataLoader(list(range(8)), num_workers=args.num_workers, batch_size=1)
        return train_loader, valid_loader


    def build_dist_loaders(args):
        train_loader = DataLoader(list(range(8)), num_workers=args.num_workers, batch_size=args.dist_batch_size)
        valid_loader = DataLoader(list(range(8)), num_workers=1, batch_size=1)
        return train_loader, valid_loader
    """


def test_a_builder_chosen_by_a_decided_conditional_is_followed(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": CDIAL, "od/__init__.py": "", "od/inputter.py": INPUTTER})
    plan = plan_of(cli, "train.py", "--", "--data_path", "data/STC.json", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 2
    assert winner(plan, "data.num_workers") == 8


def test_a_builder_chosen_by_an_undecided_conditional_is_not_followed(cli, tmp_path: Path) -> None:
    undecided = CDIAL.replace("if not args.data_path", "if not open(args.data_path).read()")
    write(tmp_path, {"train.py": undecided, "od/__init__.py": "", "od/inputter.py": INPUTTER})
    plan = plan_of(cli, "train.py", "--", "--data_path", "data/STC.json", cwd=tmp_path)
    assert winner(plan, "batch.micro") not in (2, 64)


def test_the_other_builder_when_the_conditional_goes_the_other_way(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": CDIAL, "od/__init__.py": "", "od/inputter.py": INPUTTER})
    plan = plan_of(cli, "train.py", "--", "--num_workers", "3", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 64
    assert winner(plan, "data.num_workers") == 3


def test_a_script_named_alone_that_wraps_its_model_in_ddp_is_not_read_as_one_process(cli, tmp_path: Path) -> None:
    ddp = ALONE.replace("        model = torch.nn.Linear(4, 4)\n",
                        "        model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(4, 4))\n")
    write(tmp_path, {"train_enwik8.py": ddp})
    plan = plan_of(cli, "train_enwik8.py", cwd=tmp_path)
    assert winner(plan, "dist.world_size") is None


# guoyang9/NCF @ 89ff06ffcd2bca6bb773b54925265c208a28d318 main.py:14,97-100 and config.py:6: the optimizer chosen by
# a literal of a local module the script imports whole
NCF_MAIN = """\
    import argparse

    import torch
    import torch.optim as optim

    import config

    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=0.001)
    args = parser.parse_args()
    model = torch.nn.Linear(4, 1)
    if config.model == 'NeuMF-pre':
        optimizer = optim.SGD(model.parameters(), lr=args.lr)
    else:
        optimizer = optim.Adam(model.parameters(), lr=args.lr)
    for x in torch.randn(8, 2, 4):
        loss = model(x).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    """


def _ncf(cli, tmp_path: Path, config: str, main: str = NCF_MAIN) -> dict:
    write(tmp_path, {"main.py": main, "config.py": config})
    return plan_of(cli, "main.py", "--", "--lr=0.001", cwd=tmp_path)


def test_a_literal_of_an_imported_config_module_decides_the_optimizer(cli, tmp_path: Path) -> None:
    plan = _ncf(cli, tmp_path, "dataset = 'ml-1m'\nmodel = 'NeuMF-end'\nassert model in ['GMF', 'NeuMF-end']\n")
    got = fact(plan, "optimizer.name")
    assert got is not None and got.value == "Adam" and got.source.line == 15


def test_the_other_literal_takes_the_other_optimizer(cli, tmp_path: Path) -> None:
    plan = _ncf(cli, tmp_path, "model = 'NeuMF-pre'\n")
    assert winner(plan, "optimizer.name") == "SGD"


def test_a_config_attribute_the_script_reassigns_is_not_read(cli, tmp_path: Path) -> None:
    main = NCF_MAIN.replace("model = torch.nn.Linear(4, 1)\n", "model = torch.nn.Linear(4, 1)\n    config.model = input()\n")
    plan = _ncf(cli, tmp_path, "model = 'NeuMF-end'\n", main)
    assert winner(plan, "optimizer.name") is None


def test_a_name_bound_twice_in_the_config_module_is_not_read(cli, tmp_path: Path) -> None:
    plan = _ncf(cli, tmp_path, "model = 'NeuMF-end'\nif __import__('os').environ.get('PRE'):\n    pass\nmodel = 'NeuMF-pre' if "
                          "__import__('os').environ.get('PRE') else 'NeuMF-end'\n")
    assert winner(plan, "optimizer.name") is None


# kzl/decision-transformer @ e2d82e68f330f2fcea1e2f5bdf2f2d70c94e1e0f
# gym/decision_transformer/models/trajectory_gpt2.py:714-723: checkpointing behind a getattr of a flag that is
# off unless set, in a copied GPT-2 whose config the project builds without it
CKPT_MODEL = """\
    import torch
    import torch.nn as nn


    class Block(nn.Module):
        def __init__(self, n, config):
            super().__init__()
            self.config = config
            self.mlp = nn.Linear(n, n)

        def forward(self, x):
            if getattr(self.config, "gradient_checkpointing", False):
                return torch.utils.checkpoint.checkpoint(self.mlp, x)
            return self.mlp(x)
    """
CKPT_MAIN = DT_MAIN.replace("model = Block(4)", "config = object()\n    SETmodel = Block(4, config)")


def test_checkpointing_behind_a_getattr_flag_off_by_default_is_off(cli, tmp_path: Path) -> None:
    _dt(tmp_path, CKPT_MODEL)
    write(tmp_path, {"experiment.py": CKPT_MAIN.replace("SET", "")})
    plan = plan_of(cli, "experiment.py", "--", "--env", "hopper", cwd=tmp_path)
    assert winner(plan, "memory.gradient_checkpointing") is False


def test_checkpointing_behind_a_getattr_flag_the_job_sets_is_not_read_as_off(cli, tmp_path: Path) -> None:
    _dt(tmp_path, CKPT_MODEL)
    write(tmp_path, {"experiment.py": CKPT_MAIN.replace("SET", "config.gradient_checkpointing = True\n    ")})
    plan = plan_of(cli, "experiment.py", "--", "--env", "hopper", cwd=tmp_path)
    assert winner(plan, "memory.gradient_checkpointing") is not False


# WeOpenML/PandaLM @ 3871806e72b4 pandalm/inst-tune.py:14-38 and pandalm/core/nets.py:10-26,86-105: the project's own
# get_peft_model method returns early for ``--peft_model none``; the LoRA is built past that return
PANDA_MAIN = """\
    from dataclasses import dataclass, field
    from typing import Optional

    import transformers

    from core import Nets


    @dataclass
    class ModelArguments:
        model_name_or_path: Optional[str] = field(default="")


    @dataclass
    class PeftArguments:
        peft_model: Optional[str] = field(default="lora")


    def train():
        parser = transformers.HfArgumentParser((ModelArguments, PeftArguments, transformers.TrainingArguments))
        model_args, peft_args, training_args = parser.parse_args_into_dataclasses()
        nets = Nets(model_args, training_args, peft_args)
        trainer = transformers.Trainer(model=nets.get_model(), args=training_args)
        trainer.train()


    if __name__ == "__main__":
        train()
    """
PANDA_NETS = """\
    import logging

    import transformers
    from peft import LoraConfig, TaskType, get_peft_model


    class Nets:
        def __init__(self, model_args, training_args, peft_args):
            model = transformers.AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)
            self.model = self.get_peft_model(peft_args, model)

        def get_model(self):
            return self.model

        def get_peft_model(self, peft_args, model):
            if peft_args.peft_model == 'none':
                logging.warning("Full finetuning...")
                return model
            elif peft_args.peft_model == 'lora':
                peft_config = LoraConfig(r=8, lora_alpha=16, target_modules=["q_proj", "v_proj"],
                                         task_type=TaskType.CAUSAL_LM)
            model = get_peft_model(model, peft_config)
            return model
    """


def _panda(cli, tmp_path: Path, peft: str, nets: str = PANDA_NETS) -> dict:
    write(tmp_path, {"inst-tune.py": PANDA_MAIN, "core/__init__.py": "from core.nets import Nets\n",
                     "core/nets.py": nets})
    return plan_of(cli, "inst-tune.py", "--", "--model_name_or_path", "huggyllama/llama-7b", "--peft_model", peft,
                   "--output_dir", "out", cwd=tmp_path)


def test_lora_past_a_guard_clause_the_line_takes_is_no_lora(cli, tmp_path: Path) -> None:
    assert winner(_panda(cli, tmp_path, "none"), "peft.method") == "none"


def test_lora_past_a_guard_clause_the_line_does_not_take_is_not_read_as_no_lora(cli, tmp_path: Path) -> None:
    assert winner(_panda(cli, tmp_path, "lora"), "peft.method") != "none"


def test_a_guard_clause_that_does_not_return_is_not_read_as_no_lora(cli, tmp_path: Path) -> None:
    falls_through = PANDA_NETS.replace("                return model\n", "                pass\n")
    assert winner(_panda(cli, tmp_path, "none", falls_through), "peft.method") != "none"
