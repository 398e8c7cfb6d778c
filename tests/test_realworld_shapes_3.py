"""Shapes of the third held-out set's real jobs (issue 15), reproduced in minimal fixtures of
our own: a construct guarded by an option the launch line sets (FastChat ``train_lora.py``:
``BitsAndBytesConfig(...) if lora_args.q_lora else None`` with ``--q_lora False``)."""

from __future__ import annotations

import pytest
from plan_helpers import plan_of, winner, write

FASTCHAT_LORA = """\
    from dataclasses import dataclass, field

    import transformers
    from peft import LoraConfig, get_peft_model
    from transformers import BitsAndBytesConfig, Trainer


    @dataclass
    class ModelArguments:
        model_name_or_path: str = field(default="facebook/opt-125m")


    @dataclass
    class LoraArguments:
        lora_r: int = 8
        q_lora: bool = False


    def train():
        parser = transformers.HfArgumentParser(
            (ModelArguments, transformers.TrainingArguments, LoraArguments))
        model_args, training_args, lora_args = parser.parse_args_into_dataclasses()
        model = transformers.AutoModelForCausalLM.from_pretrained(
            model_args.model_name_or_path,
            quantization_config=BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4")
            if lora_args.q_lora
            else None,
        )
        model = get_peft_model(model, LoraConfig(r=lora_args.lora_r))
        trainer = Trainer(model=model, args=training_args)
        trainer.train()


    if __name__ == "__main__":
        train()
    """


@pytest.mark.parametrize("flag,mode,bits", [("False", "lora", None), ("True", "qlora", 4)])
def test_a_conditional_expression_guarded_by_a_dataclass_option_follows_the_launch_line(cli, tmp_path, flag, mode,
                                                                                         bits):
    write(tmp_path, {"train_lora.py": FASTCHAT_LORA})
    plan = plan_of(cli, "train_lora.py", "--", "--model_name_or_path", "lmsys/vicuna-7b-v1.5",
                   "--output_dir", "out", "--q_lora", flag, cwd=tmp_path)
    assert winner(plan, "task.mode") == mode
    assert winner(plan, "precision.weights_bits") == bits


def test_without_the_flag_the_declared_default_decides(cli, tmp_path):
    write(tmp_path, {"train_lora.py": FASTCHAT_LORA})
    plan = plan_of(cli, "train_lora.py", "--", "--output_dir", "out", cwd=tmp_path)
    assert winner(plan, "task.mode") == "lora"  # q_lora: bool = False
    assert winner(plan, "precision.weights_bits") is None


PEFT_TRAIN = """\
    import sys
    from dataclasses import dataclass, field

    from transformers import HfArgumentParser
    from trl import SFTConfig, SFTTrainer
    from utils import create_and_prepare_model


    @dataclass
    class ModelArguments:
        model_name_or_path: str = field(default="facebook/opt-125m")
        lora_r: int = field(default=64)
        use_peft_lora: bool = field(default=False)
        use_4bit_quantization: bool = field(default=False)
        use_nested_quant: bool = field(default=False)
        bnb_4bit_quant_type: str = field(default="nf4")
        use_flash_attn: bool = field(default=False)


    def main(model_args, training_args):
        model, peft_config, tokenizer = create_and_prepare_model(model_args, training_args)
        trainer = SFTTrainer(model=model, args=training_args, peft_config=peft_config)
        trainer.train()


    if __name__ == "__main__":
        parser = HfArgumentParser((ModelArguments, SFTConfig))
        model_args, training_args = parser.parse_args_into_dataclasses()
        main(model_args, training_args)
    """
PEFT_UTILS = """\
    import torch
    from peft import LoraConfig
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig


    def create_and_prepare_model(args, training_args):
        bnb_config = None
        if args.use_4bit_quantization:
            bnb_config = BitsAndBytesConfig(
                load_in_4bit=args.use_4bit_quantization,
                bnb_4bit_quant_type=args.bnb_4bit_quant_type,
                bnb_4bit_use_double_quant=args.use_nested_quant,
            )
        model_kwargs = {"quantization_config": bnb_config}
        if args.use_flash_attn:
            if torch.xpu.is_available():
                model_kwargs["attn_implementation"] = "eager"
            else:
                model_kwargs["attn_implementation"] = "flash_attention_2"
        model = AutoModelForCausalLM.from_pretrained(args.model_name_or_path, **model_kwargs)
        peft_config = None
        if args.use_peft_lora:
            peft_config = LoraConfig(r=args.lora_r, lora_alpha=16)
        return model, peft_config, None
    """


def test_a_helper_module_builds_lora_and_4bit_under_options_of_the_launch_line(cli, tmp_path):
    write(tmp_path, {"train.py": PEFT_TRAIN, "utils.py": PEFT_UTILS})
    plan = plan_of(cli, "train.py", "--", "--output_dir", "o", "--use_peft_lora", "True", "--lora_r", "8",
                   "--use_4bit_quantization", "True", "--use_nested_quant", "True", "--use_flash_attn", "True",
                   cwd=tmp_path)
    assert winner(plan, "peft.method") == "lora"
    assert winner(plan, "peft.rank") == 8
    assert winner(plan, "task.mode") == "qlora"
    assert winner(plan, "precision.weights_bits") == 4
    assert winner(plan, "precision.quant_type") == "nf4"
    assert winner(plan, "precision.double_quant") is True
    assert winner(plan, "model.attn_implementation") == "flash_attention_2"  # a CUDA target: no xpu
    fact = plan["fields"]["peft.method"][0]
    assert fact["source"]["path"] == "utils.py" and fact["source"]["line"] == 23


def test_the_same_helper_with_its_options_off_says_so(cli, tmp_path):
    write(tmp_path, {"train.py": PEFT_TRAIN, "utils.py": PEFT_UTILS})
    plan = plan_of(cli, "train.py", "--", "--output_dir", "o", cwd=tmp_path)
    assert winner(plan, "peft.method") == "none"  # use_peft_lora defaults to False
    assert winner(plan, "task.mode") in ("train", "finetune")
    for field in ("precision.weights_bits", "model.attn_implementation", "peft.rank"):
        assert winner(plan, field) is None, field


LIGER = """\
    from dataclasses import dataclass

    import torch
    import transformers
    from liger_kernel.transformers import AutoLigerKernelForCausalLM


    @dataclass
    class CustomArguments:
        model_name: str = "meta-llama/Meta-Llama-3-8B"
        use_liger: bool = False


    def train():
        parser = transformers.HfArgumentParser((transformers.TrainingArguments, CustomArguments))
        training_args, custom_args = parser.parse_args_into_dataclasses()
        if custom_args.use_liger:
            model = AutoLigerKernelForCausalLM.from_pretrained(custom_args.model_name, dtype=torch.bfloat16)
        else:
            model = transformers.AutoModelForCausalLM.from_pretrained(custom_args.model_name)
        trainer = transformers.Trainer(model=model, args=training_args)
        trainer.train()


    if __name__ == "__main__":
        train()
    """


@pytest.mark.parametrize("flag,loss", [("True", "fused"), ("False", None)])
def test_liger_under_an_option_and_activation_checkpointing_from_the_fsdp_config_file(cli, tmp_path, flag, loss):
    write(tmp_path, {"training.py": LIGER, "config/fsdp_config.json": '{"activation_checkpointing": true}'})
    plan = plan_of(cli, "training.py", "--", "--output_dir", "o", "--fsdp", "full_shard auto_wrap",
                   "--fsdp_config", "config/fsdp_config.json", "--use_liger", flag, cwd=tmp_path)
    assert winner(plan, "loss.implementation") == loss
    assert winner(plan, "memory.gradient_checkpointing") is True


SIMPO = {
    "alignment/__init__.py": """\
        from .configs import H4ArgumentParser, ModelArguments
        """,
    "alignment/configs.py": """\
        import sys
        from dataclasses import dataclass, field

        from transformers import HfArgumentParser


        class H4ArgumentParser(HfArgumentParser):
            def parse(self):
                if len(sys.argv) == 2 and sys.argv[1].endswith(".yaml"):
                    return self.parse_yaml_file(sys.argv[1])
                return self.parse_args_into_dataclasses()


        @dataclass
        class ModelArguments:
            model_name_or_path: str = field(default=None)
            use_peft: bool = field(default=False)
        """,
    "scripts/simpo_config.py": """\
        from dataclasses import dataclass
        from typing import Optional

        from transformers import TrainingArguments


        @dataclass
        class SimPOConfig(TrainingArguments):
            max_length: Optional[int] = None
            beta: float = 2.0
        """,
    "scripts/run_simpo.py": """\
        from alignment import H4ArgumentParser, ModelArguments
        from simpo_config import SimPOConfig
        from transformers import AutoModelForCausalLM, Trainer


        def main():
            parser = H4ArgumentParser((ModelArguments, SimPOConfig))
            model_args, training_args = parser.parse()
            model = AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)
            Trainer(model=model, args=training_args).train()


        if __name__ == "__main__":
            main()
        """,
    "training_configs/simpo.yaml": """\
        model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct
        per_device_train_batch_size: 2
        gradient_accumulation_steps: 16
        max_length: 2048
        optim: adamw_torch
        """,
}


def test_a_projects_own_argument_parser_reads_its_yaml_file(cli, tmp_path):
    """alignment-handbook's H4ArgumentParser (a local HfArgumentParser subclass, imported through
    a package's relative import) with a TrainingArguments subclass declaring max_length."""
    write(tmp_path, SIMPO)
    plan = plan_of(cli, "scripts/run_simpo.py", "--", "training_configs/simpo.yaml", cwd=tmp_path)
    assert winner(plan, "model.ref") == "meta-llama/Meta-Llama-3-8B-Instruct"
    assert winner(plan, "batch.micro") == 2
    assert winner(plan, "batch.grad_accum") == 16
    assert winner(plan, "data.seq_len") == 2048
    assert winner(plan, "optimizer.name") == "adamw_torch"
    assert winner(plan, "peft.method") == "none"


def test_a_class_that_is_not_a_parser_declares_nothing(cli, tmp_path):
    files = dict(SIMPO)
    files["alignment/configs.py"] = files["alignment/configs.py"].replace(
        "class H4ArgumentParser(HfArgumentParser):", "class H4ArgumentParser:")
    write(tmp_path, files)
    plan = plan_of(cli, "scripts/run_simpo.py", "--", "training_configs/simpo.yaml", cwd=tmp_path)
    assert winner(plan, "batch.micro") != 2


OPENRLHF = {
    "examples/scripts/train_sft.sh": """\
        set -x

        read -r -d '' training_commands <<EOF
        pkg.cli.train_sft \\
           --data.max_len 2048 \\
           --train.micro_batch_size 2 \\
           --model.model_name_or_path meta-llama/Meta-Llama-3-8B \\
           --model.gradient_checkpointing_enable
        EOF

        if [[ ${1} != "slurm" ]]; then
            deepspeed --module $training_commands
        fi
        """,
    "pkg/__init__.py": "",
    "pkg/cli/__init__.py": "",
    "pkg/cli/train_sft.py": """\
        import argparse

        import torch


        def train(args):
            model = load(args.model.model_name_or_path)
            loss = model(args.train.micro_batch_size)
            loss.backward()


        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--train.micro_batch_size", type=int, default=8)
            parser.add_argument("--data.max_len", type=int, default=512)
            parser.add_argument("--eval.max_samples", type=int, default=10)
            parser.add_argument("--data.max_samples", type=int, default=10)
            parser.add_argument("--model.model_name_or_path", type=str, default=None)
            parser.add_argument("--model.gradient_checkpointing_enable", action="store_true", default=False)
            parser.add_argument("--ds.lora.rank", type=int, default=0)
            train(parser.parse_args())
        """,
}


def test_a_command_held_in_a_heredoc_with_grouped_options(cli, tmp_path):
    """OpenRLHF's launch scripts: `read -r -d '' cmds <<EOF ... EOF; deepspeed --module $cmds`,
    options named --group.option."""
    write(tmp_path, OPENRLHF)
    plan = plan_of(cli, "examples/scripts/train_sft.sh", cwd=tmp_path)
    assert winner(plan, "model.ref") == "meta-llama/Meta-Llama-3-8B"
    assert winner(plan, "batch.micro") == 2
    assert winner(plan, "data.seq_len") == 2048
    assert winner(plan, "memory.gradient_checkpointing") is True
    assert winner(plan, "peft.method") == "none"  # --ds.lora.rank defaults to 0: no LoRA


def test_a_grouped_lora_rank_given_on_the_line(cli, tmp_path):
    files = dict(OPENRLHF)
    files["examples/scripts/train_sft.sh"] = files["examples/scripts/train_sft.sh"].replace(
        "--model.gradient_checkpointing_enable", "--model.gradient_checkpointing_enable \\\n   --ds.lora.rank 16")
    write(tmp_path, files)
    plan = plan_of(cli, "examples/scripts/train_sft.sh", cwd=tmp_path)
    assert winner(plan, "peft.rank") == 16
    assert winner(plan, "peft.method") != "none"


def test_an_ambiguous_group_suffix_is_not_guessed():
    from preflight.adapters.cliargs_options import Declared, _argparse, _cli_values

    decl = Declared()
    for text in ('p.add_argument("--data.max_samples", type=int, default=1)',
                 'p.add_argument("--eval.max_samples", type=int, default=2)',
                 'p.add_argument("--train.micro_batch_size", type=int, default=8)'):
        import ast

        _argparse(ast.parse(text).body[0].value, "x.py", decl)
    assert decl.dotted == {"max_samples": None, "micro_batch_size": "train.micro_batch_size"}
    values = _cli_values(["--train.micro_batch_size", "4"], decl)
    assert values["micro_batch_size"][0] == "4"


OPEN_INSTRUCT = {
    "scripts/train/sft.sh": """\
        #!/bin/bash
        set -e
        cd "$(dirname "$0")/../.."
        uv run python -m accelerate.commands.launch \\
            --mixed_precision bf16 \\
            --num_processes 1 \\
            finetune.py \\
            --model_name_or_path Qwen/Qwen3-0.6B \\
            --per_device_train_batch_size 32 {lora}
        """,
    "finetune.py": """\
        from dataclasses import dataclass

        import torch
        from accelerate import Accelerator
        from peft import LoraConfig, get_peft_model
        from transformers import AutoModelForCausalLM, HfArgumentParser


        @dataclass
        class FlatArguments:
            model_name_or_path: str = None
            per_device_train_batch_size: int = 8
            use_lora: bool = False


        def main(args):
            accelerator = Accelerator()
            model = AutoModelForCausalLM.from_pretrained(args.model_name_or_path, dtype=torch.bfloat16)
            if args.use_lora:
                model = get_peft_model(model, LoraConfig(r=8))
            optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
            model, optimizer = accelerator.prepare(model, optimizer)
            for batch in loader:
                loss = model(**batch).loss
                accelerator.backward(loss)
                optimizer.step()


        if __name__ == "__main__":
            (args,) = HfArgumentParser((FlatArguments,)).parse_args_into_dataclasses()
            main(args)
        """,
}


@pytest.mark.parametrize("lora,mode", [("", "bf16"), ("--use_lora", "amp_bf16")])
def test_autocast_over_weights_loaded_in_bf16_trains_bf16_weights(cli, tmp_path, lora, mode):
    """open-instruct's finetune.py under `uv run python -m accelerate.commands.launch
    --mixed_precision bf16`: weights loaded in bf16 and optimized as they are; LoRA adapters stay fp32."""
    files = dict(OPEN_INSTRUCT)
    files["scripts/train/sft.sh"] = files["scripts/train/sft.sh"].replace("{lora}", lora)
    write(tmp_path, files)
    plan = plan_of(cli, "scripts/train/sft.sh", cwd=tmp_path)
    assert winner(plan, "dist.world_size") == 1
    assert winner(plan, "batch.micro") == 32
    assert winner(plan, "precision.mode") == mode


IMAGENET = """\
    import argparse

    import torch.multiprocessing as mp

    parser = argparse.ArgumentParser()
    parser.add_argument('--world-size', default=-1, type=int,
                        help='number of nodes for distributed training')
    parser.add_argument('--workers', default=4, type=int, help='number of data loading workers')


    def main():
        args = parser.parse_args()
        mp.spawn(main_worker, nprocs=8, args=(args,))
    """


@pytest.mark.parametrize("args,nodes", [(("--world-size", "2"), 2), ((), None)])
def test_an_option_documented_as_the_number_of_nodes(cli, tmp_path, args, nodes):
    """pytorch/examples ImageNet's --world-size (its help says nodes); the -1 default says nothing."""
    write(tmp_path, {"main.py": IMAGENET})
    plan = plan_of(cli, "main.py", "--", *args, "/data", cwd=tmp_path)
    assert winner(plan, "dist.nodes") == nodes
