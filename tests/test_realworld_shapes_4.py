"""Shapes of the fourth held-out set's real jobs (issue 15), reproduced in minimal fixtures of
our own, each citing the repository, path and commit it copies the shape of."""

from __future__ import annotations

import textwrap
from pathlib import Path

from plan_helpers import fact, plan_of, winner, write

# OpenBMB/MiniCPM finetune/finetune.py @ 0fcc3d08330ee612d59d58e312a778ae78165d97: the 4-bit
# config sits under ``if qlora:`` where ``qlora`` is a parameter of the helper, passed once as
# ``qlora=training_args.qlora`` (a TrainingArguments subclass field, default False); the same
# name is also a class attribute of that subclass.
MINICPM = """\
    from dataclasses import dataclass, field

    import torch
    import transformers
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig, Trainer


    @dataclass
    class ModelArguments:
        model_name_or_path: str = field(default="openbmb/MiniCPM-2B-sft-bf16")


    @dataclass
    class TrainingArguments(transformers.TrainingArguments):
        optim: str = field(default="adamw_torch")
        model_max_length: int = field(default=512)
        use_lora: bool = field(default=False)
        qlora: bool = field(default=False)


    def load_model_and_tokenizer(model_path: str, use_lora: bool = True, qlora: bool = False,
                                 bf16: bool = False):
        dtype = torch.bfloat16 if bf16 else torch.float32
        if qlora:
            quantization_config = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4")
            model = AutoModelForCausalLM.from_pretrained(model_path, torch_dtype=dtype,
                                                         quantization_config=quantization_config)
        else:
            model = AutoModelForCausalLM.from_pretrained(model_path, torch_dtype=dtype)
        if use_lora:
            from peft import LoraConfig, get_peft_model
            lora_config = LoraConfig(r=64, lora_alpha=32)
            model = get_peft_model(model, lora_config)
        return model


    if __name__ == "__main__":
        parser = transformers.HfArgumentParser((ModelArguments, TrainingArguments))
        model_args, training_args = parser.parse_args_into_dataclasses()
        model = load_model_and_tokenizer(
            model_path=model_args.model_name_or_path,
            use_lora=training_args.use_lora,
            qlora=training_args.qlora,
            bf16=training_args.bf16,
        )
        trainer = Trainer(model=model, args=training_args)
        trainer.train()
"""


def test_parameter_decided_by_its_one_call_is_lora_not_qlora(cli, tmp_path: Path) -> None:
    write(tmp_path, {"finetune.py": MINICPM})
    plan = plan_of(cli, "finetune.py", "--", "--output_dir", "o", "--bf16", "--use_lora", cwd=tmp_path)
    assert winner(plan, "task.mode") == "lora"
    assert winner(plan, "peft.method") == "lora"
    assert winner(plan, "precision.weights_bits") != 4


def test_parameter_decided_true_by_the_launch_line_is_qlora(cli, tmp_path: Path) -> None:
    write(tmp_path, {"finetune.py": MINICPM})
    plan = plan_of(cli, "finetune.py", "--", "--output_dir", "o", "--use_lora", "--qlora", "True", cwd=tmp_path)
    assert winner(plan, "task.mode") == "qlora"
    assert winner(plan, "precision.weights_bits") == 4


def test_two_calls_that_disagree_leave_the_parameter_unknown() -> None:
    import ast

    from preflight.script_index import ScriptIndex
    from preflight.sources import SourceText, parse_python

    text = textwrap.dedent("""\
        def load(qlora=False):
            if qlora:
                pass
        load(qlora=True)
        load()
        def other(bits=4):
            if bits:
                pass
        other()
    """)
    parsed = parse_python(SourceText(path=Path("x.py"), display="x.py", kind="python", raw=text.encode(), text=text))
    idx = ScriptIndex(parsed)
    tests = [n.test for n in ast.walk(parsed.tree) if isinstance(n, ast.If)]
    assert idx.truth(tests[0]) is None  # True at one call, False at the other
    assert idx.truth(tests[1]) is True  # the default, at its only call


def test_qlora_resting_on_an_undecided_4bit_config_is_not_high(cli, tmp_path: Path) -> None:
    # the same shape with the flag from a source preflight cannot read: the 4-bit config may or
    # may not run, so a qlora task is a guess (medium at most), never high
    text = MINICPM.replace("qlora=training_args.qlora,", "qlora=os.environ.get('QLORA') == '1',") \
        .replace("import torch\n", "import os\n    import torch\n")
    write(tmp_path, {"finetune.py": text})
    plan = plan_of(cli, "finetune.py", "--", "--output_dir", "o", "--use_lora", cwd=tmp_path)
    best = fact(plan, "task.mode")
    assert best is not None
    if best.value == "qlora":
        assert best.confidence != "high"


# haotian-liu/LLaVA @ c121f0432da27facab705978f83c4ada465e46fd: scripts/v1_5/finetune_task_lora.sh
# runs ``deepspeed llava/train/train_mem.py ...``; train_mem.py only imports ``train`` from the
# package and calls it; the parser, the LoRA and the Trainer are in llava/train/train.py.
LLAVA_TRAIN = """\
    from dataclasses import dataclass, field

    import transformers


    @dataclass
    class ModelArguments:
        model_name_or_path: str = field(default="facebook/opt-125m")


    @dataclass
    class TrainingArguments(transformers.TrainingArguments):
        optim: str = field(default="adamw_torch")
        lora_enable: bool = False
        lora_r: int = 64


    def train(attn_implementation=None):
        parser = transformers.HfArgumentParser((ModelArguments, TrainingArguments))
        model_args, training_args = parser.parse_args_into_dataclasses()
        model = transformers.LlamaForCausalLM.from_pretrained(model_args.model_name_or_path)
        if training_args.lora_enable:
            from peft import LoraConfig, get_peft_model
            lora_config = LoraConfig(r=training_args.lora_r)
            model = get_peft_model(model, lora_config)
        trainer = transformers.Trainer(model=model, args=training_args)
        trainer.train()
"""
LLAVA_FILES = {
    "llava/__init__.py": "",
    "llava/train/__init__.py": "",
    "llava/train/train.py": LLAVA_TRAIN,
    "llava/train/train_mem.py": """\
        from llava.train.train import train

        if __name__ == "__main__":
            train(attn_implementation="flash_attention_2")
    """,
    "scripts/finetune_task_lora.sh": """\
        #!/bin/bash
        deepspeed llava/train/train_mem.py \\
            --lora_enable True --lora_r 128 \\
            --model_name_or_path liuhaotian/llava-v1.5-13b \\
            --per_device_train_batch_size 16 \\
            --dataloader_num_workers 4 \\
            --output_dir ./checkpoints
    """,
}


def test_thin_entry_audits_the_module_it_calls_with_the_launch_arguments(cli, tmp_path: Path) -> None:
    write(tmp_path, LLAVA_FILES)
    plan = plan_of(cli, "scripts/finetune_task_lora.sh", cwd=tmp_path)
    assert winner(plan, "peft.method") == "lora"
    assert winner(plan, "peft.rank") == 128
    assert winner(plan, "task.mode") == "lora"
    assert winner(plan, "optimizer.name") == "adamw_torch"  # the subclass's redeclared default
    assert winner(plan, "data.num_workers") == 4


def test_thin_entry_without_the_flag_has_no_lora(cli, tmp_path: Path) -> None:
    files = dict(LLAVA_FILES)
    files["scripts/finetune_task_lora.sh"] = files["scripts/finetune_task_lora.sh"].replace(
        "--lora_enable True --lora_r 128 \\\n", "")
    assert "lora_enable" not in files["scripts/finetune_task_lora.sh"]
    write(tmp_path, files)
    plan = plan_of(cli, "scripts/finetune_task_lora.sh", cwd=tmp_path)
    assert winner(plan, "peft.method") != "lora"
    assert winner(plan, "task.mode") != "lora"


def test_delegate_found_only_for_a_thin_file(tmp_path: Path) -> None:
    import ast

    from preflight.delegate import delegate_of

    write(tmp_path, LLAVA_FILES)
    entry = tmp_path / "llava/train/train_mem.py"
    assert delegate_of(ast.parse(entry.read_text()), entry) == tmp_path / "llava/train/train.py"
    # a file that does work of its own is not thin
    busy = tmp_path / "busy.py"
    busy.write_text("from llava.train.train import train\n\ndef main():\n    train()\n\nmain()\n")
    assert delegate_of(ast.parse(busy.read_text()), busy) is None
    # a library function is not the project's
    lib = tmp_path / "lib.py"
    lib.write_text("from transformers import train\ntrain()\n")
    assert delegate_of(ast.parse(lib.read_text()), lib) is None


# meta-llama/llama-cookbook @ 0e0033518623d03ac5c1654bf04b7e480f7d5e5a:
# getting-started/finetuning/finetuning.py is ``fire.Fire(main)`` with ``main`` from the package
# under src/ (src/llama_cookbook/finetuning.py); its DataLoader takes ``**train_dl_kwargs``.
COOKBOOK = {
    "getting-started/finetuning/finetuning.py": """\
        import fire
        from llama_cookbook.finetuning import main

        if __name__ == "__main__":
            fire.Fire(main)
    """,
    "src/llama_cookbook/__init__.py": "",
    "src/llama_cookbook/finetuning.py": """\
        import torch
        from torch.utils.data import DataLoader


        def get_dataloader_kwargs(batch_size):
            return {"batch_size": batch_size, "drop_last": True}


        def main(**kwargs):
            model = torch.nn.Linear(4, 4)
            model.gradient_checkpointing_enable()
            train_dl_kwargs = get_dataloader_kwargs(kwargs.get("batch_size", 4))
            loader = DataLoader([], num_workers=1, pin_memory=True, **train_dl_kwargs)
            optimizer = torch.optim.AdamW(model.parameters())
            for batch in loader:
                model(batch).sum().backward()
                optimizer.step()
    """,
}


def test_src_layout_delegate_and_no_default_batch_through_kwargs(cli, tmp_path: Path) -> None:
    write(tmp_path, COOKBOOK)
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "4", "finetuning.py", "--enable_fsdp",
                   cwd=tmp_path / "getting-started/finetuning")
    assert winner(plan, "memory.gradient_checkpointing") is True
    assert winner(plan, "optimizer.name") == "AdamW"
    assert winner(plan, "data.num_workers") == 1
    best = fact(plan, "batch.micro")
    assert best is None or best.value != 1  # not DataLoader's default: the dict may set it
    ins = [i["path"] for i in plan.get("inputs", [])] if isinstance(plan.get("inputs"), list) else []
    assert not ins or any(p.endswith("src/llama_cookbook/finetuning.py") for p in ins)


# yangjianxin1/Firefly @ e22b406ee440fda0b18a073c6325853de17741cb: ``python train.py
# --train_args_file train_args/sft/qlora/qwen1.5-7b-sft-qlora.json``; train.py reads the path
# with argparse and hands it to ``HfArgumentParser(...).parse_json_file(json_file=...)``.
FIREFLY = {
    "component/__init__.py": "",
    "component/argument.py": """\
        from dataclasses import dataclass, field
        from typing import Optional


        @dataclass
        class CustomizedArguments:
            max_seq_length: int = field(metadata={"help": "max length"})
            model_name_or_path: str = field(metadata={"help": "model"})
            train_mode: str = field(default="qlora")
            lora_rank: Optional[int] = field(default=64)
    """,
    "train.py": """\
        import argparse

        import torch
        from transformers import AutoModelForCausalLM, BitsAndBytesConfig, HfArgumentParser, Trainer, \\
            TrainingArguments

        from component.argument import CustomizedArguments


        def setup_everything():
            parser = argparse.ArgumentParser()
            parser.add_argument("--train_args_file", type=str, default="train_args/sft/qlora/qwen-7b-sft-qlora.json")
            args = parser.parse_args()
            train_args_file = args.train_args_file
            parser = HfArgumentParser((CustomizedArguments, TrainingArguments))
            args, training_args = parser.parse_json_file(json_file=train_args_file)
            return args, training_args


        def load_model(args, training_args):
            quantization_config = BitsAndBytesConfig(load_in_4bit=True) if args.train_mode == "qlora" else None
            return AutoModelForCausalLM.from_pretrained(args.model_name_or_path, quantization_config=quantization_config)


        def main():
            args, training_args = setup_everything()
            model = load_model(args, training_args)
            trainer = Trainer(model=model, args=training_args)
            trainer.train()


        if __name__ == "__main__":
            main()
    """,
    "train_args/sft/qlora/qwen1.5-7b-sft-qlora.json": """\
        {
            "output_dir": "output/firefly-qwen1.5-7b-sft-qlora",
            "model_name_or_path": "Qwen/Qwen1.5-7B-Chat",
            "per_device_train_batch_size": 1,
            "gradient_accumulation_steps": 16,
            "max_seq_length": 1024,
            "gradient_checkpointing": true,
            "optim": "paged_adamw_32bit",
            "fp16": true,
            "dataloader_num_workers": 0
        }
    """,
}


def test_args_file_named_by_the_scripts_own_option_is_read(cli, tmp_path: Path) -> None:
    write(tmp_path, FIREFLY)
    plan = plan_of(cli, "train.py", "--", "--train_args_file", "train_args/sft/qlora/qwen1.5-7b-sft-qlora.json",
                   cwd=tmp_path)
    assert winner(plan, "model.ref") == "Qwen/Qwen1.5-7B-Chat"
    assert winner(plan, "batch.micro") == 1  # not TrainingArguments' default 8
    assert winner(plan, "batch.grad_accum") == 16
    assert winner(plan, "optimizer.name") == "paged_adamw_32bit"
    assert winner(plan, "precision.mode") == "amp_fp16"
    assert winner(plan, "data.num_workers") == 0


def test_a_data_file_option_is_not_read_as_arguments(cli, tmp_path: Path) -> None:
    files = dict(FIREFLY)
    files["data/train.json"] = '{"per_device_train_batch_size": 99}\n'
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", "--", "--train_args_file", "train_args/sft/qlora/qwen1.5-7b-sft-qlora.json",
                   "--data_path", "data/train.json", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 1


# OpenBMB/MiniCPM @ 0fcc3d08330ee612d59d58e312a778ae78165d97 finetune/lora_finetune.sh:
# ``deepspeed --include localhost:1 finetune.py ...``: one device of one host.
def test_deepspeed_include_gives_the_world_size(cli, tmp_path: Path) -> None:
    write(tmp_path, {"finetune.py": MINICPM,
                     "run.sh": "deepspeed --include localhost:1 finetune.py --output_dir o --use_lora\n",
                     "run2.sh": "deepspeed --include h1:0,1,2,3@h2:0,1,2,3 finetune.py --output_dir o\n",
                     "run3.sh": "deepspeed --include h1@h2 finetune.py --output_dir o\n"})
    assert winner(plan_of(cli, "run.sh", cwd=tmp_path), "dist.world_size") == 1
    two = plan_of(cli, "run2.sh", cwd=tmp_path)
    assert winner(two, "dist.world_size") == 8
    assert winner(two, "dist.nodes") == 2
    assert winner(plan_of(cli, "run3.sh", cwd=tmp_path), "dist.world_size") is None  # all devices of each host


# databrickslabs/dolly @ e2d664ddf06e0723d818dc56d6c522ead4bd881d training/trainer.py: click options
# on ``main(**kwargs)`` which calls ``train(**kwargs)``; the model id flows through two helpers
# that share a parameter name; launched as ``deepspeed --num_gpus=8 --module training.trainer``.
DOLLY = {
    "training/__init__.py": "",
    "training/consts.py": 'DEFAULT_INPUT_MODEL = "EleutherAI/pythia-6.9b"\n',
    "training/trainer.py": """\
        import click
        from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments

        from .consts import DEFAULT_INPUT_MODEL


        def load_tokenizer(pretrained_model_name_or_path: str = DEFAULT_INPUT_MODEL):
            return AutoTokenizer.from_pretrained(pretrained_model_name_or_path)


        def load_model(pretrained_model_name_or_path: str = DEFAULT_INPUT_MODEL, *, gradient_checkpointing=False):
            return AutoModelForCausalLM.from_pretrained(
                pretrained_model_name_or_path, use_cache=False if gradient_checkpointing else True)


        def get_model_tokenizer(pretrained_model_name_or_path: str = DEFAULT_INPUT_MODEL, *,
                                gradient_checkpointing: bool = False):
            tokenizer = load_tokenizer(pretrained_model_name_or_path)
            model = load_model(pretrained_model_name_or_path, gradient_checkpointing=gradient_checkpointing)
            return model, tokenizer


        def train(*, input_model, per_device_train_batch_size, gradient_checkpointing, bf16, deepspeed):
            model, tokenizer = get_model_tokenizer(pretrained_model_name_or_path=input_model,
                                                   gradient_checkpointing=gradient_checkpointing)
            args = TrainingArguments(output_dir="o", per_device_train_batch_size=per_device_train_batch_size,
                                     fp16=not bf16, bf16=bf16, deepspeed=deepspeed,
                                     gradient_checkpointing=gradient_checkpointing)
            Trainer(model=model, tokenizer=tokenizer, args=args).train()


        @click.command()
        @click.option("--input-model", type=str, help="Input model to fine tune", default=DEFAULT_INPUT_MODEL)
        @click.option("--per-device-train-batch-size", type=int, default=8, help="Batch size")
        @click.option("--deepspeed", type=str, default=None, help="Path to deepspeed config file.")
        @click.option("--gradient-checkpointing/--no-gradient-checkpointing", is_flag=True, default=True)
        @click.option("--bf16", type=bool, default=None, help="Whether to use bf16.")
        def main(**kwargs):
            train(**kwargs)


        if __name__ == "__main__":
            main()
    """,
}
DOLLY_LINE = ["--", "deepspeed", "--num_gpus=8", "--module", "training.trainer", "--input-model",
              "EleutherAI/pythia-2.8b", "--per-device-train-batch-size", "6", "--bf16", "true"]


def test_click_options_reach_the_trainer_through_kwargs(cli, tmp_path: Path) -> None:
    write(tmp_path, DOLLY)
    plan = plan_of(cli, *DOLLY_LINE, cwd=tmp_path)
    assert winner(plan, "model.ref") == "EleutherAI/pythia-2.8b"
    assert winner(plan, "batch.micro") == 6
    assert winner(plan, "memory.gradient_checkpointing") is True  # the flag pair's default
    assert winner(plan, "precision.mode") == "amp_bf16"
    assert winner(plan, "peft.method") == "none"  # no PEFT anywhere in the job's code
    world = fact(plan, "dist.world_size")
    assert world is not None and world.value == 8 and world.confidence == "low"  # one machine assumed


def test_click_negated_flag_turns_checkpointing_off(cli, tmp_path: Path) -> None:
    write(tmp_path, DOLLY)
    plan = plan_of(cli, *DOLLY_LINE, "--no-gradient-checkpointing", cwd=tmp_path)
    assert winner(plan, "memory.gradient_checkpointing") is False


def test_peft_none_is_not_claimed_when_a_local_module_builds_an_adapter(cli, tmp_path: Path) -> None:
    files = dict(DOLLY)
    files["training/trainer.py"] = files["training/trainer.py"].replace(
        "from .consts import DEFAULT_INPUT_MODEL", "from .consts import DEFAULT_INPUT_MODEL\n        from model_utils import wrap")
    files["training/model_utils.py"] = "from peft import get_peft_model\n\ndef wrap(m):\n    return get_peft_model(m, None)\n"
    write(tmp_path, files)
    plan = plan_of(cli, *DOLLY_LINE, cwd=tmp_path)
    assert winner(plan, "peft.method") != "none"


# bigcode-project/starcoder @ d72c7fe3dda81d47ad9b851f9567393fb6b551b9 finetune/finetune.py:
# ``args = get_args()`` (a function returning parser.parse_args()), handed to run_training(args, ...);
# ``--no_fp16`` is store_false (default True) read as ``fp16=not args.no_fp16``; ``--bf16``
# store_true with default=True.
STARCODER = """\
    import argparse

    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


    def get_args():
        parser = argparse.ArgumentParser()
        parser.add_argument("--model_path", type=str, default="bigcode/large-model")
        parser.add_argument("--batch_size", type=int, default=1)
        parser.add_argument("--lora_r", type=int, default=16)
        parser.add_argument("--no_fp16", action="store_false")
        parser.add_argument("--bf16", action="store_true", default=True)
        parser.add_argument("--no_gradient_checkpointing", action="store_false", default=False)
        return parser.parse_args()


    def run_training(args, train_data):
        model = AutoModelForCausalLM.from_pretrained(args.model_path, load_in_8bit=True)
        model = get_peft_model(model, LoraConfig(r=args.lora_r))
        training_args = TrainingArguments(
            output_dir="o",
            per_device_train_batch_size=args.batch_size,
            gradient_checkpointing=not args.no_gradient_checkpointing,
            fp16=not args.no_fp16,
            bf16=args.bf16,
        )
        Trainer(model=model, args=training_args, train_dataset=train_data).train()


    def main(args):
        run_training(args, [])


    if __name__ == "__main__":
        args = get_args()
        main(args)
"""


def test_namespace_returned_by_a_local_function_resolves_its_options(cli, tmp_path: Path) -> None:
    write(tmp_path, {"finetune/finetune.py": STARCODER})
    plan = plan_of(cli, "finetune/finetune.py", "--", "--model_path=bigcode/starcoder", "--batch_size", "4",
                   cwd=tmp_path)
    assert winner(plan, "model.ref") == "bigcode/starcoder"
    assert winner(plan, "batch.micro") == 4
    assert winner(plan, "peft.rank") == 16
    assert winner(plan, "precision.mode") == "amp_bf16"  # fp16 = not True = False; bf16 True
    assert winner(plan, "memory.gradient_checkpointing") is True


def test_parse_known_args_tuple_is_not_a_namespace() -> None:
    import ast

    from preflight.script_index import ScriptIndex
    from preflight.sources import SourceText, parse_python

    text = textwrap.dedent("""\
        import argparse
        def get_args():
            p = argparse.ArgumentParser()
            p.add_argument("--bs", type=int, default=3)
            return p.parse_known_args()
        args = get_args()
        x = args.bs
    """)
    parsed = parse_python(SourceText(path=Path("x.py"), display="x.py", kind="python", raw=text.encode(), text=text))
    idx = ScriptIndex(parsed)
    attr = next(n for n in ast.walk(parsed.tree) if isinstance(n, ast.Attribute) and n.attr == "bs")
    assert idx.resolve(attr) is None


def test_local_folder_named_like_the_default_model_is_that_model_at_low_confidence(cli, tmp_path: Path) -> None:
    # MiniCPM lora_finetune.sh: --model_name_or_path MiniCPM-2B-sft-bf16 (a local download);
    # finetune.py declares the default openbmb/MiniCPM-2B-sft-bf16
    write(tmp_path, {"finetune.py": MINICPM})
    plan = plan_of(cli, "finetune.py", "--", "--model_name_or_path", "MiniCPM-2B-sft-bf16", "--output_dir", "o",
                   cwd=tmp_path)
    refs = [(f["value"], f["confidence"]) for f in plan["fields"]["model.ref"] if f["adapter"] == "cliargs"]
    assert refs == [("openbmb/MiniCPM-2B-sft-bf16", "low")]
    other = plan_of(cli, "finetune.py", "--", "--model_name_or_path", "/models/my-llama", "--output_dir", "o",
                    cwd=tmp_path)
    assert "openbmb/MiniCPM-2B-sft-bf16" not in [f["value"] for f in other["fields"].get("model.ref", [])]


# OpenRLHF/OpenRLHF openrlhf/cli/train_sft.py (the third held-out set's commit in labels.py):
# grouped options ``--train.micro_batch_size`` ("batch size per GPU") and ``--train.batch_size``
# ("Global training batch size").
OPENRLHF = """\
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--train.micro_batch_size", type=int, default=8, help="batch size per GPU")
    parser.add_argument("--train.batch_size", type=int, default=128, help="Global training batch size")
    args = parser.parse_args()
"""


def test_option_documented_as_the_global_batch_is_batch_global(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train_sft.py": OPENRLHF})
    plan = plan_of(cli, "train_sft.py", "--", "--train.batch_size", "256", "--train.micro_batch_size", "2",
                   cwd=tmp_path)
    assert winner(plan, "batch.global") == 256
    assert winner(plan, "batch.micro") == 2
    per_gpu = OPENRLHF.replace('"Global training batch size"', '"batch size per GPU, global"')
    write(tmp_path, {"train_sft.py": per_gpu})
    plan = plan_of(cli, "train_sft.py", "--", "--train.batch_size", "256", cwd=tmp_path)
    assert winner(plan, "batch.global") is None  # documented per GPU: not the global batch


def test_resolve_follows_conditional_expressions_and_or() -> None:
    # held-out-4 h4-tf-save-steps-not-multiple-of-eval-steps: `save_steps=cli_args.save_steps or 500`,
    # `"steps" if cli_args.save_steps is not None else "epoch"`
    import ast

    from preflight.script_index import ScriptIndex
    from preflight.sources import SourceText, parse_python

    text = textwrap.dedent("""\
        a = None
        b = 300
        x = "steps" if b is not None else "epoch"
        y = "steps" if a is not None else "epoch"
        z = a or 500
        w = b or 500
        v = b and a
    """)
    parsed = parse_python(SourceText(path=Path("x.py"), display="x.py", kind="python", raw=text.encode(), text=text))
    idx = ScriptIndex(parsed)
    values = {n.targets[0].id: n.value for n in ast.walk(parsed.tree) if isinstance(n, ast.Assign)}
    got = {k: idx.resolve(v) for k, v in values.items() if k in "xyzwv"}
    assert {k: (r.value if r is not None else "?") for k, r in got.items()} == {
        "x": "steps", "y": "epoch", "z": 500, "w": 300, "v": None}
