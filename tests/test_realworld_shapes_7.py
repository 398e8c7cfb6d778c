"""Shapes of the seventh held-out set's real jobs (issue 15), reproduced in minimal fixtures of
our own, each citing the repository, path and commit it copies the shape of."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from plan_helpers import fact, plan_of, winner, write

# 01-ai/Yi finetune/scripts/run_sft_lora_Yi_6b.sh:3-5 @ f73194cc16e82df438bc01240b8e4b622209f3eb:
# the script moves to the training code's folder before the launch line.
YI_SH = """\
    #/usr/bin/env bash

    cd ../sft/

    deepspeed main.py \\
    \t--per_device_train_batch_size 4 \\
    \t--max_seq_len 4096
"""
YI_MAIN = """\
    import argparse

    import torch
    from torch.utils.data import DataLoader

    p = argparse.ArgumentParser()
    p.add_argument("--per_device_train_batch_size", type=int, default=16)
    p.add_argument("--max_seq_len", type=int, default=512)
    args = p.parse_args()
    loader = DataLoader(range(10), batch_size=args.per_device_train_batch_size)
    model = torch.nn.Linear(2, 2)
    opt = torch.optim.AdamW(model.parameters())
    for x in loader:
        loss = model(x).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
"""


def test_launch_line_after_cd_finds_the_script_in_that_folder(cli, tmp_path: Path) -> None:
    write(tmp_path, {"finetune/scripts/run.sh": YI_SH, "finetune/sft/main.py": YI_MAIN})
    plan = plan_of(cli, "run.sh", cwd=tmp_path / "finetune" / "scripts")
    assert winner(plan, "batch.micro") == 4
    assert any("runs in ../sft" in n for n in plan["notes"])


def test_without_cd_the_script_beside_is_not_found(cli, tmp_path: Path) -> None:
    write(tmp_path, {"finetune/scripts/run.sh": YI_SH.replace("cd ../sft/", "echo start"),
                     "finetune/sft/main.py": YI_MAIN})
    res = cli("audit", "run.sh", "--emit-plan", "json", cwd=tmp_path / "finetune" / "scripts")
    assert res.code == 3 and "main.py, which was not found" in res.err


def test_cd_to_an_unknown_place_is_said_and_lookup_stays_put(cli, tmp_path: Path) -> None:
    write(tmp_path, {"run.sh": YI_SH.replace("cd ../sft/", "cd $(mktemp -d)"), "main.py": YI_MAIN})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 4
    assert any("not known statically" in n for n in plan["notes"])


def test_cd_into_the_scripts_own_folder() -> None:
    from preflight.adapters.shell import SCRIPT_DIR, read_shell

    got = read_shell('cd "$(dirname "$0")"\ntorchrun --nproc_per_node 2 train.py\n', "x.sh")
    assert got.launches[0].cwd == SCRIPT_DIR
    got = read_shell("cd a\ncd ../b\ntorchrun train.py\n", "x.sh")
    assert got.launches[0].cwd == "b"
    got = read_shell("if [ -d x ]; then\ncd x\nfi\ntorchrun train.py\n", "x.sh")
    assert got.launches[0].cwd is None  # a conditional cd is not followed


# eric-mitchell/direct-preference-optimization @ f8b8c0f49dc92a430bae41585f9d467d3618fe2f:
# config/config.yaml:8,56,62,80,86; config/model/pythia28.yaml; train.py:48,82-84;
# trainers.py:276,457-461: the project's own Hydra keys, read where the plan is decided.
DPO_CONFIG = """\
    batch_size: 4
    gradient_accumulation_steps: 1
    max_length: 512
    max_prompt_length: 256
    optimizer: RMSprop
    activation_checkpointing: false
    trainer: BasicTrainer
    defaults:
    - _self_
    - model: blank_model
"""
DPO_MODEL = """\
    name_or_path: EleutherAI/pythia-2.8b
    tokenizer_name_or_path: null
    policy_dtype: float32
    fsdp_policy_mp: null
"""
DPO_TRAIN = """\
    import hydra
    import torch
    import transformers
    from omegaconf import DictConfig

    import trainers


    @hydra.main(version_base=None, config_path="config", config_name="config")
    def main(config: DictConfig):
        tokenizer_name_or_path = config.model.tokenizer_name_or_path or config.model.name_or_path
        tokenizer = transformers.AutoTokenizer.from_pretrained(tokenizer_name_or_path)
        policy_dtype = getattr(torch, config.model.policy_dtype)
        policy = transformers.AutoModelForCausalLM.from_pretrained(
            config.model.name_or_path, low_cpu_mem_usage=True, torch_dtype=policy_dtype)
        trainer = trainers.FSDPTrainer(policy, config)
        trainer.train()


    if __name__ == "__main__":
        main()
"""
DPO_TRAINERS = """\
    import torch
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, MixedPrecision


    class FSDPTrainer:
        def __init__(self, policy, config):
            self.config = config
            mp_dtype = getattr(torch, config.model.fsdp_policy_mp) if config.model.fsdp_policy_mp is not None else None
            policy_mp_policy = MixedPrecision(param_dtype=mp_dtype, reduce_dtype=mp_dtype, buffer_dtype=mp_dtype)
            self.policy = FSDP(policy, mixed_precision=policy_mp_policy)
            if config.activation_checkpointing:
                from torch.distributed.algorithms._checkpoint.checkpoint_wrapper import apply_activation_checkpointing
                apply_activation_checkpointing(self.policy)

        def train(self):
            self.optimizer = getattr(torch.optim, self.config.optimizer)(self.policy.parameters(), lr=1e-6)
            for batch in range(10):
                for microbatch_idx in range(self.config.gradient_accumulation_steps):
                    loss = self.policy(batch, max_length=self.config.max_length).sum()
                    (loss / self.config.gradient_accumulation_steps).backward()
                self.optimizer.step()
                self.optimizer.zero_grad()
"""


def dpo(tmp_path: Path) -> None:
    write(tmp_path, {"config/config.yaml": DPO_CONFIG, "config/model/blank_model.yaml": DPO_MODEL,
                     "config/model/pythia28.yaml": DPO_MODEL, "train.py": DPO_TRAIN, "trainers.py": DPO_TRAINERS})


def test_project_hydra_keys_read_where_the_plan_is_decided(cli, tmp_path: Path) -> None:
    dpo(tmp_path)
    plan = plan_of(cli, "--", "python", "-u", "train.py", "model=pythia28", "gradient_accumulation_steps=2",
                   "batch_size=64", "model.fsdp_policy_mp=bfloat16", cwd=tmp_path)
    ref = fact(plan, "model.ref")
    assert ref.value == "EleutherAI/pythia-2.8b" and ref.confidence == "medium"
    assert ref.source.path == "config/model/pythia28.yaml" and ref.source.line == 1
    assert winner(plan, "optimizer.name") == "RMSprop"
    assert winner(plan, "precision.mode") == "amp_bf16"
    assert winner(plan, "memory.gradient_checkpointing") is False
    assert winner(plan, "batch.grad_accum") == 2
    assert winner(plan, "data.seq_len") == 512


def test_project_hydra_keys_without_mixed_precision_stay_fp32(cli, tmp_path: Path) -> None:
    dpo(tmp_path)
    plan = plan_of(cli, "--", "python", "train.py", "model=pythia28", "activation_checkpointing=true", cwd=tmp_path)
    assert winner(plan, "precision.mode") != "amp_bf16"  # fsdp_policy_mp null: no FSDP autocast
    assert winner(plan, "memory.gradient_checkpointing") is True


def test_a_tokenizer_path_is_not_the_model(cli, tmp_path: Path) -> None:
    dpo(tmp_path)
    (tmp_path / "config/model/pythia28.yaml").write_text(textwrap.dedent(DPO_MODEL).replace(
        "name_or_path: EleutherAI/pythia-2.8b", "name_or_path: null").replace(
        "tokenizer_name_or_path: null", "tokenizer_name_or_path: EleutherAI/pythia-2.8b"))
    plan = plan_of(cli, "--", "python", "train.py", "model=pythia28", cwd=tmp_path)
    assert winner(plan, "model.ref") is None


# ContextualAI/HALOs @ 4831988636b4cbc1c30c0bce78df568cf0f8103b: launch.py:65-66,173-179,212-219,
# 224-260,264; config/model/base_model.yaml; accelerate_config/fsdp_4gpu.yaml.
HALOS_CONFIG = """\
    exp_name: x
    optimizer: AdamW
    defaults:
    - _self_
    - model: llama
"""
HALOS_MODEL = """\
    name_or_path: meta-llama/Meta-Llama-3-8B
    load_from: null
    from_checkpoint: null
    policy_dtype: bfloat16
    max_length: 1250
    activation_checkpointing: true
    batch_size: 32
    gradient_accumulation_steps: 1
    attn_implementation: flash_attention_2
    use_peft: false
    peft:
      lora_r: 64
"""
HALOS_LAUNCH = """\
    import hydra
    import torch
    from accelerate import Accelerator
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM


    def main(config):
        accelerator = Accelerator()
        config.model.microbatch_size = config.model.batch_size / (accelerator.num_processes * config.model.gradient_accumulation_steps)
        policy_kwargs = {
            'torch_dtype': getattr(torch, config.model.policy_dtype),
            'attn_implementation': config.model.attn_implementation if config.model.policy_dtype in ["float16", "bfloat16"] else "eager",
        }
        policy_path = config.model.from_checkpoint or config.model.load_from or config.model.name_or_path
        policy = AutoModelForCausalLM.from_pretrained(policy_path, **policy_kwargs)
        if config.model.use_peft:
            peft_config = LoraConfig(r=config.model.peft.lora_r)
            policy = get_peft_model(policy, peft_config)
        if config.model.activation_checkpointing:
            policy.gradient_checkpointing_enable()
        optimizer = getattr(torch.optim, config.optimizer)(policy.parameters(), lr=1e-6)
        policy, optimizer = accelerator.prepare(policy, optimizer)
        for batch in range(3):
            loss = policy(batch, max_length=config.model.max_length).loss
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()


    @hydra.main(version_base=None, config_path="config", config_name="config")
    def hydra_main(config):
        main(config)


    if __name__ == "__main__":
        hydra_main()
"""
ACC_FSDP = """\
    distributed_type: FSDP
    fsdp_config:
      fsdp_sharding_strategy: FULL_SHARD
      fsdp_offload_params: false
    num_machines: 1
    num_processes: 4
"""


def halos(tmp_path: Path) -> None:
    write(tmp_path, {"config/config.yaml": HALOS_CONFIG, "config/model/llama.yaml": HALOS_MODEL,
                     "launch.py": HALOS_LAUNCH, "fsdp_4gpu.yaml": ACC_FSDP})


def test_hydra_model_keys_with_the_first_set_path_and_a_global_batch(cli, tmp_path: Path) -> None:
    halos(tmp_path)
    plan = plan_of(cli, "--", "accelerate", "launch", "--config_file", "fsdp_4gpu.yaml", "launch.py",
                   "++model.batch_size=32", cwd=tmp_path)
    assert winner(plan, "model.ref") == "meta-llama/Meta-Llama-3-8B"  # from_checkpoint/load_from are null
    assert winner(plan, "batch.global") == 32
    micro = fact(plan, "batch.micro")
    assert micro.value == 8 and micro.source.kind == "derived"  # 32 / (4 processes x 1)
    assert winner(plan, "precision.mode") == "bf16"
    assert winner(plan, "model.attn_implementation") == "flash_attention_2"
    assert winner(plan, "peft.method") == "none"
    assert winner(plan, "memory.gradient_checkpointing") is True
    assert winner(plan, "optimizer.name") == "AdamW"
    assert winner(plan, "data.seq_len") == 1250


def test_hydra_use_peft_override_turns_lora_on_with_its_rank(cli, tmp_path: Path) -> None:
    halos(tmp_path)
    plan = plan_of(cli, "--", "accelerate", "launch", "--config_file", "fsdp_4gpu.yaml", "launch.py",
                   "model.use_peft=true", "model.policy_dtype=float32", cwd=tmp_path)
    assert winner(plan, "peft.method") == "lora"
    assert winner(plan, "peft.rank") == 64
    assert winner(plan, "precision.mode") != "bf16"
    assert winner(plan, "model.attn_implementation") != "flash_attention_2"  # eager under float32


def test_hydra_first_set_path_of_an_or_chain_wins(cli, tmp_path: Path) -> None:
    halos(tmp_path)
    plan = plan_of(cli, "--", "accelerate", "launch", "--config_file", "fsdp_4gpu.yaml", "launch.py",
                   "model.load_from=/ckpt/sft", cwd=tmp_path)
    assert winner(plan, "model.ref") == "/ckpt/sft"


def test_no_micro_batch_derived_when_the_global_does_not_divide() -> None:
    from preflight.adapters.derive import derive

    from preflight.plan import Source, TrainingPlan

    plan = TrainingPlan()
    plan.add("batch.global", 30, Source("config", "c.yaml", 1, None, "x"), "medium", adapter="t")
    plan.add("batch.grad_accum", 1, Source("config", "c.yaml", 2, None, "x"), "medium", adapter="t")
    plan.add("dist.world_size", 4, Source("config", "a.yaml", 3, None, "x"), "high", adapter="t")
    derive(plan)
    assert plan.resolve("batch.micro") is None
    plan.add("batch.global", 32, Source("config", "c.yaml", 1, None, "x"), "high", adapter="t", priority=1)
    derive(plan)
    assert plan.value("batch.micro") == 8 and plan.resolve("batch.micro").confidence == "medium"


# Lightning-AI/lit-llama finetune/lora.py:32-85,121-124,196-251 @ 2a464de2a1d2f266614d15091d3d7f30330c3ede:
# module-level hyperparameters, a parameter of the same name in a helper, Fabric built in the
# script, loralib's mark_only_lora_as_trainable and the loss scaled for accumulation.
LIT_LORA = """\
    import lightning as L
    import torch
    from torch.utils.data import DataLoader

    from lit_llama.lora import lora, mark_only_lora_as_trainable
    from lit_llama.model import LLaMA, LLaMAConfig

    batch_size = 128
    micro_batch_size = 4
    gradient_accumulation_iters = batch_size // micro_batch_size
    lora_r = 8


    def main(data_dir: str = "data/alpaca"):
        fabric = L.Fabric(accelerator="cuda", devices=1, precision="bf16-true")
        fabric.launch()
        config = LLaMAConfig.from_name("7B")
        with fabric.init_module(), lora(r=lora_r, alpha=16, dropout=0.05, enabled=True):
            model = LLaMA(config)
        mark_only_lora_as_trainable(model)
        optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
        model, optimizer = fabric.setup(model, optimizer)
        train(fabric, model, optimizer, list(range(100)))


    def train(fabric, model, optimizer, train_data):
        loader = get_dataloader(fabric, train_data, micro_batch_size)
        for iter_num, (input_ids, targets) in enumerate(loader):
            logits = model(input_ids)
            loss = torch.nn.functional.cross_entropy(logits, targets)
            fabric.backward(loss / gradient_accumulation_iters)
            if (iter_num + 1) % gradient_accumulation_iters == 0:
                optimizer.step()
                optimizer.zero_grad()


    def get_dataloader(fabric, data, micro_batch_size):
        loader = DataLoader(data, batch_size=micro_batch_size, shuffle=True, pin_memory=True)
        return fabric.setup_dataloaders(loader)


    if __name__ == "__main__":
        from jsonargparse.cli import CLI

        CLI(main)
"""
LIT_LORA_MOD = """\
    import contextlib


    @contextlib.contextmanager
    def lora(r, alpha, dropout, enabled=True):
        yield


    def mark_only_lora_as_trainable(model):
        for n, p in model.named_parameters():
            p.requires_grad = "lora_" in n
"""


def lit(tmp_path: Path, script: str = LIT_LORA) -> None:
    write(tmp_path, {"finetune/lora.py": script, "lit_llama/__init__.py": "", "lit_llama/lora.py": LIT_LORA_MOD,
                     "lit_llama/model.py": "class LLaMAConfig:\n    pass\n\n\nclass LLaMA:\n    pass\n"})


def test_loralib_fabric_in_code_and_loss_scaled_for_accumulation(cli, tmp_path: Path) -> None:
    lit(tmp_path)
    plan = plan_of(cli, "--", "python", "finetune/lora.py", cwd=tmp_path)
    assert winner(plan, "peft.method") == "lora" and winner(plan, "task.mode") == "lora"
    assert winner(plan, "peft.rank") == 8
    assert winner(plan, "precision.mode") == "bf16"  # Fabric(precision="bf16-true")
    assert winner(plan, "dist.world_size") == 1
    accum = fact(plan, "batch.grad_accum")
    assert accum.value == 32 and accum.confidence == "medium"  # 128 // 4, from the module level
    assert winner(plan, "batch.micro") == 4  # the helper's parameter is the module-level value passed
    assert winner(plan, "memory.gradient_checkpointing") is False


def test_module_level_value_not_taken_where_a_function_rebinds_it(cli, tmp_path: Path) -> None:
    lit(tmp_path, LIT_LORA.replace("        loader = get_dataloader(fabric, train_data, micro_batch_size)",
                                   "        micro_batch_size = len(train_data) // 10\n"
                                   "        loader = get_dataloader(fabric, train_data, micro_batch_size)"))
    plan = plan_of(cli, "--", "python", "finetune/lora.py", cwd=tmp_path)
    assert winner(plan, "batch.micro") is None


def test_no_lora_when_the_mark_call_is_under_a_false_guard(cli, tmp_path: Path) -> None:
    lit(tmp_path, LIT_LORA.replace("        mark_only_lora_as_trainable(model)",
                                   "        if lora_r > 100:\n            mark_only_lora_as_trainable(model)"))
    plan = plan_of(cli, "--", "python", "finetune/lora.py", cwd=tmp_path)
    assert winner(plan, "peft.method") != "lora"
    assert winner(plan, "task.mode") != "lora"


def test_fabric_run_launch_options_win_over_fabric_in_code(cli, tmp_path: Path) -> None:
    lit(tmp_path)
    plan = plan_of(cli, "--", "fabric", "run", "--devices=4", "--precision=bf16-mixed", "finetune/lora.py",
                   cwd=tmp_path)
    assert winner(plan, "dist.world_size") == 4
    assert winner(plan, "precision.mode") == "amp_bf16"


# microsoft/LoRA examples/NLG/src/gpt2_ft.py:47-73,122-137,205-206,299-330 and src/model.py
# GPT2Config.__init__ defaults @ c4593f060e6a368d7bb5af5273b8e42810cdef90.
GPT2_FT = """\
    import argparse

    import torch
    import loralib as lora

    from model import GPT2Config, GPT2LMModel

    parser = argparse.ArgumentParser()
    parser.add_argument('--grad_acc', type=int, default=1)
    parser.add_argument('--model_card', default='gpt2.md', choices=['gpt2.sm', 'gpt2.md', 'gpt2.lg'])
    parser.add_argument('--lora_dim', type=int, default=0)
    args = parser.parse_args()


    def optimizer_step(_loss, _optimizer, _model):
        _loss.backward()
        _optimizer.step()
        _optimizer.zero_grad()


    if args.model_card == 'gpt2.sm':
        config = GPT2Config(n_embd=768, n_layer=12, n_head=12, lora_attn_dim=args.lora_dim)
    elif args.model_card == 'gpt2.md':
        config = GPT2Config(n_embd=1024, n_layer=24, n_head=16, lora_attn_dim=args.lora_dim)
    elif args.model_card == 'gpt2.lg':
        config = GPT2Config(n_embd=1280, n_layer=36, n_head=20, lora_attn_dim=args.lora_dim)
    lm_net = GPT2LMModel(config)
    if args.lora_dim > 0:
        lora.mark_only_lora_as_trainable(lm_net)
    optimizer = torch.optim.SGD(lm_net.parameters(), lr=0.1)
    for train_step in range(10):
        _lm_loss = lm_net(train_step).mean()
        is_update = True if train_step % args.grad_acc == 0 else False
        optimizer_step(_lm_loss / (args.grad_acc), optimizer, lm_net)
"""
GPT2_MODEL = """\
    import torch.nn as nn


    class GPT2Config(object):
        def __init__(self, vocab_size_or_config_json_file=50257, n_positions=1024, n_ctx=1024, n_embd=768,
                     n_layer=12, n_head=12, lora_attn_dim=0):
            self.n_embd = n_embd


    class GPT2LMModel(nn.Module):
        pass
"""


def test_gpt_config_on_the_branch_that_runs_and_accumulation_through_a_helper(cli, tmp_path: Path) -> None:
    write(tmp_path, {"src/gpt2_ft.py": GPT2_FT, "src/model.py": GPT2_MODEL})
    plan = plan_of(cli, "--", "python", "src/gpt2_ft.py", "--model_card", "gpt2.md", "--grad_acc", "4",
                   "--lora_dim", "4", cwd=tmp_path)
    params = fact(plan, "model.num_parameters")
    assert params.value == 12 * 24 * 1024 ** 2 + (50257 + 1024) * 1024 and params.confidence == "medium"
    assert winner(plan, "batch.grad_accum") == 4
    assert winner(plan, "peft.method") == "lora"
    small = plan_of(cli, "--", "python", "src/gpt2_ft.py", "--model_card", "gpt2.sm", cwd=tmp_path)
    assert winner(small, "model.num_parameters") == 12 * 12 * 768 ** 2 + (50257 + 1024) * 768
    assert winner(small, "peft.method") != "lora"  # --lora_dim 0: the mark call does not run


def test_a_loss_divided_for_logging_is_no_accumulation(cli, tmp_path: Path) -> None:
    write(tmp_path, {"src/gpt2_ft.py": GPT2_FT.replace("optimizer_step(_lm_loss / (args.grad_acc), optimizer, lm_net)",
                                                       "optimizer_step(_lm_loss, optimizer, lm_net)\n"
                                                       "        print(_lm_loss / args.grad_acc)"),
                     "src/model.py": GPT2_MODEL})
    plan = plan_of(cli, "--", "python", "src/gpt2_ft.py", "--grad_acc", "4", cwd=tmp_path)
    # never the flag's 4: the loss is divided only to print it, and every backward is followed by its step in
    # optimizer_step (jobs58's adapters/step_per_call.py): one step per batch
    assert winner(plan, "batch.grad_accum") == 1


def test_no_peft_anywhere_in_a_hydra_app_is_no_peft(cli, tmp_path: Path) -> None:
    dpo(tmp_path)
    plan = plan_of(cli, "--", "python", "train.py", "model=pythia28", cwd=tmp_path)
    none = fact(plan, "peft.method")
    assert none.value == "none" and none.confidence == "medium"
    (tmp_path / "config/model/pythia28.yaml").write_text(textwrap.dedent(DPO_MODEL) + "lora_rank: 8\n")
    named = plan_of(cli, "--", "python", "train.py", "model=pythia28", cwd=tmp_path)
    assert winner(named, "peft.method") is None  # LoRA named in the config: not claimed absent


# mistralai/mistral-finetune @ 1943535d: train.py:59-60,145-183,231-261 (TrainArgs.load(config)),
# finetune/args.py:15-95 (Serializable dataclasses with literal defaults), example/7B.yaml.
MISTRAL_ARGS = """\
    from dataclasses import dataclass, field


    @dataclass
    class OptimArgs:
        lr: float = 1e-4
        weight_decay: float = 0.1


    @dataclass
    class LoraArgs:
        enable: bool = True
        rank: int = 16


    @dataclass
    class TrainArgs:
        model_id_or_path: str
        run_dir: str
        optim: OptimArgs = field(default_factory=OptimArgs)
        num_microbatches: int = 1
        seq_len: int = 2048
        batch_size: int = 1
        checkpoint: bool = True
        lora: LoraArgs = field(default_factory=LoraArgs)

        @classmethod
        def load(cls, path, drop_extra_fields=False):
            import yaml
            return cls(**yaml.safe_load(open(path)))
"""
MISTRAL_TRAIN = """\
    import fire
    import torch

    from finetune.args import TrainArgs
    from finetune.data import build_data_loader


    def train(config: str):
        args: TrainArgs = TrainArgs.load(config, drop_extra_fields=False)
        loader = build_data_loader(seq_len=args.seq_len, batch_size=args.batch_size)
        model = torch.nn.Linear(2, 2)
        model = wrap(model, checkpoint=args.checkpoint)
        optimizer = torch.optim.AdamW(model.parameters(), lr=args.optim.lr)
        for batch in loader:
            for i in range(args.num_microbatches):
                loss = model(batch).sum()
                loss.backward()
            optimizer.step()
            optimizer.zero_grad()


    def wrap(model, checkpoint):
        return model


    if __name__ == "__main__":
        fire.Fire(train)
"""
MISTRAL_YAML = """\
    model_id_or_path: ""
    lora:
      rank: 64
    seq_len: 32768
    batch_size: 1
    max_steps: 300
    run_dir: ""
"""


def mistral(tmp_path: Path, yaml_text: str = MISTRAL_YAML) -> None:
    write(tmp_path, {"train.py": MISTRAL_TRAIN, "finetune/__init__.py": "", "finetune/args.py": MISTRAL_ARGS,
                     "finetune/data.py": "def build_data_loader(seq_len, batch_size):\n    return []\n",
                     "example/7B.yaml": yaml_text})


def test_yaml_loaded_into_the_projects_dataclass(cli, tmp_path: Path) -> None:
    mistral(tmp_path)
    plan = plan_of(cli, "--", "torchrun", "--nproc-per-node", "8", "-m", "train", "example/7B.yaml", cwd=tmp_path)
    seq = fact(plan, "data.seq_len")
    assert seq.value == 32768 and seq.source.path == "example/7B.yaml" and seq.confidence == "medium"
    accum = fact(plan, "batch.grad_accum")
    assert accum.value == 1 and accum.source.path == "finetune/args.py"  # the class default
    assert winner(plan, "memory.gradient_checkpointing") is True
    assert winner(plan, "batch.micro") == 1


def test_yaml_values_override_the_dataclass_defaults(cli, tmp_path: Path) -> None:
    mistral(tmp_path, textwrap.dedent(MISTRAL_YAML) + "num_microbatches: 4\ncheckpoint: false\n")
    plan = plan_of(cli, "--", "torchrun", "--nproc-per-node", "8", "-m", "train", "example/7B.yaml", cwd=tmp_path)
    assert winner(plan, "batch.grad_accum") == 4
    assert winner(plan, "memory.gradient_checkpointing") is False


def test_a_yaml_of_other_keys_is_not_taken_for_the_dataclass(cli, tmp_path: Path) -> None:
    mistral(tmp_path, "data_path: x\ntokenizer: y\nseq_len: 99\nwandb: {}\n")
    plan = plan_of(cli, "--", "torchrun", "--nproc-per-node", "8", "-m", "train", "example/7B.yaml", cwd=tmp_path)
    assert winner(plan, "data.seq_len") != 99


def test_optimizer_built_by_a_helper_of_a_local_module(cli, tmp_path: Path) -> None:
    # microsoft/LoRA src/optimizer.py:42,296-320: the project's AdamW(Optimizer), built by the
    # helper the script calls; the module's other helper (SGD) is never called
    write(tmp_path, {"src/gpt2_ft.py": GPT2_FT.replace("    optimizer = torch.optim.SGD(lm_net.parameters(), lr=0.1)",
                                                       "    optimizer = create_adam_optimizer_from_args(lm_net, args)")
                     .replace("from model import GPT2Config, GPT2LMModel",
                              "from model import GPT2Config, GPT2LMModel\n    from optimizer import "
                              "create_adam_optimizer_from_args"),
                     "src/model.py": GPT2_MODEL,
                     "src/optimizer.py": """\
                         import torch
                         from torch.optim import Optimizer


                         class AdamW(Optimizer):
                             pass


                         def create_optimizer(params, lr):
                             return torch.optim.SGD(params, lr=lr)


                         def create_adam_optimizer_from_args(model, args):
                             return AdamW(model.parameters())
                     """})
    plan = plan_of(cli, "--", "python", "src/gpt2_ft.py", cwd=tmp_path)
    opt = fact(plan, "optimizer.name")
    assert opt.value == "AdamW" and opt.confidence == "medium" and opt.source.path == "src/optimizer.py"


def test_two_optimizers_in_called_helpers_claim_none(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": "import torch\nfrom helpers import a, b\n\nm = torch.nn.Linear(2, 2)\n"
                                 "opt = a(m) if m else b(m)\nfor x in range(3):\n    m(x).sum().backward()\n"
                                 "    opt.step()\n",
                     "helpers.py": "import torch\n\n\ndef a(m):\n    return torch.optim.AdamW(m.parameters())\n\n\n"
                                   "def b(m):\n    return torch.optim.SGD(m.parameters(), lr=0.1)\n"})
    plan = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    assert winner(plan, "optimizer.name") is None


def test_a_loss_normalised_by_the_batch_size_is_no_accumulation(cli, tmp_path: Path) -> None:
    lit(tmp_path, LIT_LORA.replace("            if (iter_num + 1) % gradient_accumulation_iters == 0:\n"
                                   "                optimizer.step()\n                optimizer.zero_grad()",
                                   "            optimizer.step()\n            optimizer.zero_grad()"))
    plan = plan_of(cli, "--", "python", "finetune/lora.py", cwd=tmp_path)
    # no step counts by it: not accumulation K; the step on every pass says 1 (tenth round)
    assert winner(plan, "batch.grad_accum") == 1
    assert "every pass" in (fact(plan, "batch.grad_accum").source.detail or "")


# microsoft/LoRA examples/NLG/src/gpt2_ft.py:62,122-137,266-270,337-338: apex amp only under
# `if args.fp16:`, an option the README's line does not give.
APEX_FT = """\
    import argparse

    import torch

    parser = argparse.ArgumentParser()
    parser.add_argument('--fp16', action='store_true', help='train model with fp16')
    args = parser.parse_args()


    def optimizer_step(_loss, _optimizer):
        if args.fp16:
            with amp.scale_loss(_loss, _optimizer) as _scaled_loss:
                _scaled_loss.backward()
        else:
            _loss.backward()
        _optimizer.step()


    if args.fp16:
        from apex import amp
    model = torch.nn.Linear(2, 2)
    optimizer = torch.optim.AdamW(model.parameters())
    if args.fp16:
        model, optimizer = amp.initialize(model, optimizer, opt_level="O1")
    for x in range(3):
        optimizer_step(model(x).sum(), optimizer)
"""


def test_precision_code_under_an_option_not_given_is_fp32(cli, tmp_path: Path) -> None:
    write(tmp_path, {"gpt2_ft.py": APEX_FT})
    plan = plan_of(cli, "--", "python", "gpt2_ft.py", cwd=tmp_path)
    fp32 = fact(plan, "precision.mode")
    assert fp32.value == "fp32" and fp32.confidence == "medium"
    given = plan_of(cli, "--", "python", "gpt2_ft.py", "--fp16", cwd=tmp_path)
    assert winner(given, "precision.mode") != "fp32"


# jzhang38/TinyLlama pretrain/tinyllama.py:94-100 @ bf122247: checkpointing named only to be
# switched off in the strategy.
TINY_CKPT = """\
    import lightning as L
    import torch
    from lightning.fabric.strategies import FSDPStrategy


    def main(devices: int = 8):
        strategy = FSDPStrategy(auto_wrap_policy={torch.nn.Linear}, activation_checkpointing_policy=None,
                                state_dict_type="full")
        fabric = L.Fabric(devices=devices, strategy=strategy, precision="bf16-mixed")
        model = torch.nn.Linear(2, 2)
        optimizer = torch.optim.AdamW(model.parameters())
        model, optimizer = fabric.setup(model, optimizer)
        for x in range(3):
            loss = model(x).sum()
            fabric.backward(loss)
            optimizer.step()
            optimizer.zero_grad()


    if __name__ == "__main__":
        main()
"""


def test_checkpointing_switched_off_by_keyword_is_off(cli, tmp_path: Path) -> None:
    write(tmp_path, {"pretrain.py": TINY_CKPT})
    plan = plan_of(cli, "--", "python", "pretrain.py", cwd=tmp_path)
    off = fact(plan, "memory.gradient_checkpointing")
    assert off.value is False and off.confidence == "medium"
    write(tmp_path, {"pretrain.py": TINY_CKPT.replace("activation_checkpointing_policy=None",
                                                      "activation_checkpointing_policy={torch.nn.Linear}")})
    on = plan_of(cli, "--", "python", "pretrain.py", cwd=tmp_path)
    assert winner(on, "memory.gradient_checkpointing") is not False


# Lightning-AI/lit-llama lit_llama/model.py:25-48 @ 2a464de2: a dict catalog keyed by name, and
# finetune/lora.py:71-72 setting block_size over the entry's.
LIT_MODEL = """\
    from dataclasses import dataclass
    from typing import Optional


    @dataclass
    class LLaMAConfig:
        block_size: int = 2048
        vocab_size: int = 32000
        padded_vocab_size: Optional[int] = None
        n_layer: int = 32
        n_head: int = 32
        n_embd: int = 4096

        @classmethod
        def from_name(cls, name: str):
            return cls(**llama_configs[name])


    llama_configs = {
        "7B": dict(n_layer=32, n_head=32, n_embd=4096),
        "13B": dict(n_layer=40, n_head=40, n_embd=5120),
    }


    class LLaMA:
        pass
"""


def test_a_dict_catalog_gives_an_approximate_size(cli, tmp_path: Path) -> None:
    lit(tmp_path)
    write(tmp_path, {"lit_llama/model.py": LIT_MODEL,
                     "lit_llama/adapter.py": "from dataclasses import dataclass\nfrom lit_llama import model\n\n\n"
                                             "@dataclass\nclass LLaMAConfig(model.LLaMAConfig):\n"
                                             "    adapter_prompt_length: int = 10\n"})
    script = (tmp_path / "finetune/lora.py").read_text().replace(
        '    config = LLaMAConfig.from_name("7B")\n',
        '    config = LLaMAConfig.from_name("7B")\n    config.block_size = max_seq_length\n').replace(
        "lora_r = 8\n", "lora_r = 8\nmax_seq_length = 256\n")
    (tmp_path / "finetune/lora.py").write_text(script)
    plan = plan_of(cli, "--", "python", "finetune/lora.py", cwd=tmp_path)
    size = fact(plan, "model.num_parameters")
    assert size.value == 12 * 32 * 4096 ** 2 + 32000 * 4096 and size.confidence == "low"
    assert size.source.path == "lit_llama/model.py"
    assert winner(plan, "data.seq_len") == 256  # the script sets block_size itself: not the entry's 2048


def test_a_name_not_in_the_dict_catalog_claims_no_size(cli, tmp_path: Path) -> None:
    lit(tmp_path, LIT_LORA.replace('from_name("7B")', 'from_name("70B")'))
    write(tmp_path, {"lit_llama/model.py": LIT_MODEL})
    plan = plan_of(cli, "--", "python", "finetune/lora.py", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") is None


def test_the_gate_follows_cd_before_the_launch_line(tmp_path: Path, monkeypatch, capsys) -> None:
    """The scheduler gate reads the same launch line: after `cd sft` the script is sft/main.py,
    not a missing main.py beside the batch script (01-ai/Yi's `cd ../sft/` shape)."""
    from preflight.cli import main

    job = tmp_path / "job"
    write(job, {"cluster.yaml": "partitions:\n  a100: a100-80gb\npolicy:\n  usable_memory: 0.95\n",
                "sft/main.py": YI_MAIN})
    (job / "run.sh").write_text("#!/bin/bash\n#SBATCH --partition=a100\n#SBATCH --gres=gpu:1\ncd sft\n"
                                "deepspeed --num_gpus 1 main.py --per_device_train_batch_size 4\n")
    monkeypatch.chdir(job)
    main(["gate", "run.sh", "--cluster", "cluster.yaml", "--format", "json"])
    verdict = json.loads(capsys.readouterr().out)
    assert not any("does not exist" in r for r in verdict["reasons"])
    assert "sft/main.py" in json.dumps(verdict)
    (job / "run.sh").write_text("#!/bin/bash\n#SBATCH --partition=a100\n#SBATCH --gres=gpu:1\n"
                                "deepspeed --num_gpus 1 main.py --per_device_train_batch_size 4\n")
    main(["gate", "run.sh", "--cluster", "cluster.yaml", "--format", "json"])
    without = json.loads(capsys.readouterr().out)
    assert any("main.py does not exist" in r for r in without["reasons"])  # the twin: no cd, no file


def test_the_gate_does_not_read_a_script_after_an_unknown_cd(tmp_path: Path, monkeypatch, capsys) -> None:
    from preflight.cli import main

    job = tmp_path / "job"
    write(job, {"cluster.yaml": "partitions:\n  a100: a100-80gb\npolicy:\n  usable_memory: 0.95\n",
                "main.py": YI_MAIN})
    (job / "run.sh").write_text("#!/bin/bash\n#SBATCH --partition=a100\n#SBATCH --gres=gpu:1\ncd $(mktemp -d)\n"
                                "deepspeed --num_gpus 1 main.py\n")
    monkeypatch.chdir(job)
    main(["gate", "run.sh", "--cluster", "cluster.yaml", "--format", "json"])
    verdict = json.loads(capsys.readouterr().out)
    assert not any("does not exist" in r for r in verdict["reasons"])
    assert "not known statically" in json.dumps(verdict)


def test_a_precision_option_given_on_the_line_is_no_fp32(cli, tmp_path: Path) -> None:
    # the option's value reaches the library through **vars(args): only its declaration names it
    write(tmp_path, {"train.py": """\
        import argparse

        import torch

        parser = argparse.ArgumentParser()
        parser.add_argument('--bf16', action='store_true')
        args = parser.parse_args()
        model = torch.nn.Linear(2, 2)
        opt = torch.optim.AdamW(model.parameters())
        setup(**vars(args))
        for x in range(3):
            model(x).sum().backward()
            opt.step()
    """})
    plan = plan_of(cli, "--", "python", "train.py", "--bf16", cwd=tmp_path)
    assert winner(plan, "precision.mode") != "fp32"
    silent = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    assert winner(silent, "precision.mode") == "fp32"
