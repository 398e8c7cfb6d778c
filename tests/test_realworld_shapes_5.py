"""Shapes of the fifth held-out set's real jobs (issue 15), reproduced in minimal fixtures of
our own, each citing the repository, path and commit it copies the shape of."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import plan_of, winner, write

TRAIN = """\
    from dataclasses import dataclass, field
    from typing import Optional

    import transformers
    from transformers import AutoModelForCausalLM, Trainer


    @dataclass
    class ModelArguments:
        model_name_or_path: Optional[str] = field(default="Qwen/Qwen-7B")


    def train():
        parser = transformers.HfArgumentParser((ModelArguments, transformers.TrainingArguments))
        model_args, training_args = parser.parse_args_into_dataclasses()
        model = AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)
        Trainer(model=model, args=training_args).train()


    if __name__ == "__main__":
        train()
    """

# QwenLM/Qwen-VL finetune/finetune_lora_ds.sh:16-24 @ aa00ed04091eea5fcdd32985e7915f1c53e7d599
# (and OpenBMB/MiniCPM-V finetune/finetune_lora.sh:20-28 @ 0dbb566de090067266abb76e702fb289f09934c5):
# the torchrun options are a double-quoted value spanning lines, expanded unquoted.
QWEN_VL_SH = """\
    #!/bin/bash
    GPUS_PER_NODE=8
    NNODES=1
    MODEL="Qwen/Qwen-VL-Chat" #"Qwen/Qwen-VL-Chat"/"Qwen/Qwen-VL"  it's the chat model

    DISTRIBUTED_ARGS="
        --nproc_per_node $GPUS_PER_NODE \\
        --nnodes $NNODES \\
        --master_port 6001
    "

    torchrun $DISTRIBUTED_ARGS finetune.py \\
        --model_name_or_path $MODEL \\
        --per_device_train_batch_size 2 \\
        --output_dir out
    """


def test_multiline_quoted_launcher_options_are_read(cli, tmp_path: Path) -> None:
    write(tmp_path, {"finetune.py": TRAIN, "finetune/finetune_lora_ds.sh": QWEN_VL_SH})
    plan = plan_of(cli, "finetune/finetune_lora_ds.sh", cwd=tmp_path)
    assert winner(plan, "model.ref") == "Qwen/Qwen-VL-Chat"
    assert winner(plan, "dist.world_size") == 8
    assert winner(plan, "batch.micro") == 2


def test_unclosed_quote_elsewhere_does_not_swallow_the_launch_line() -> None:
    from preflight.adapters.shell import read_shell

    text = "echo don't stop\nMSG=it's\ntorchrun --nproc_per_node 2 train.py --x 1\n"
    script = read_shell(text)
    assert [ln.tokens[:3] for ln in script.launches] == [["torchrun", "--nproc_per_node", "2"]]


# OpenGVLab/InternVL internvl_chat/shell/internvl2.5/2nd_finetune/
# internvl2_5_8b_dynamic_res_2nd_finetune_lora.sh:3-6,51 @ 2410d1dbf208f0e799459aff9376e5747dbf41a2:
# the accumulation is an unquoted arithmetic expansion with spaces.
INTERNVL_SH = """\
    GPUS=${GPUS:-2}
    BATCH_SIZE=${BATCH_SIZE:-16}
    PER_DEVICE_BATCH_SIZE=${PER_DEVICE_BATCH_SIZE:-4}
    GRADIENT_ACC=$((BATCH_SIZE / PER_DEVICE_BATCH_SIZE / GPUS))

    torchrun --nnodes=1 --nproc_per_node=${GPUS} finetune.py \\
      --model_name_or_path "OpenGVLab/InternVL2_5-8B" \\
      --per_device_train_batch_size ${PER_DEVICE_BATCH_SIZE} \\
      --gradient_accumulation_steps ${GRADIENT_ACC} \\
      --output_dir out
    """


def test_unquoted_arithmetic_assignment_with_spaces(cli, tmp_path: Path) -> None:
    write(tmp_path, {"finetune.py": TRAIN, "run.sh": INTERNVL_SH})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert winner(plan, "batch.grad_accum") == 2
    assert winner(plan, "batch.micro") == 4
    assert winner(plan, "dist.world_size") == 2


# THUDM/ChatGLM3 finetune_demo/finetune_hf.py:160-204,443-459 @ 732294f42e2625509000daa87a9c3748d0bbb957:
# the Seq2SeqTrainingArguments come from the ``training_args`` section of the YAML named on the
# command line (``Seq2SeqTrainingArguments(**training_args)`` with ``training_args =
# kwargs.get('training_args')``); the dataclass field's ``default_factory`` builds a fallback.
CHATGLM3 = """\
    import dataclasses as dc
    from typing import Annotated, Optional

    import typer
    from transformers import AutoModelForCausalLM, Seq2SeqTrainer, Seq2SeqTrainingArguments
    from ruamel.yaml import YAML

    app = typer.Typer(pretty_exceptions_show_locals=False)


    @dc.dataclass
    class FinetuningConfig(object):
        max_input_length: int
        max_output_length: int
        training_args: Seq2SeqTrainingArguments = dc.field(
            default_factory=lambda: Seq2SeqTrainingArguments(output_dir='./output')
        )

        @classmethod
        def from_dict(cls, **kwargs) -> 'FinetuningConfig':
            training_args = kwargs.get('training_args', None)
            if training_args is not None and not isinstance(training_args, Seq2SeqTrainingArguments):
                kwargs['training_args'] = Seq2SeqTrainingArguments(**training_args)
            return cls(**kwargs)

        @classmethod
        def from_file(cls, path) -> 'FinetuningConfig':
            kwargs = YAML(typ='safe').load(open(path))
            return cls.from_dict(**kwargs)


    def load_model(model_dir: str):
        return AutoModelForCausalLM.from_pretrained(model_dir, trust_remote_code=True)


    @app.command()
    def main(
            data_dir: Annotated[str, typer.Argument(help='')],
            model_dir: Annotated[str, typer.Argument(help='model id or path')],
            config_file: Annotated[str, typer.Argument(help='')],
    ):
        ft_config = FinetuningConfig.from_file(config_file)
        model = load_model(model_dir)
        trainer = Seq2SeqTrainer(model=model, args=ft_config.training_args)
        trainer.train()


    if __name__ == '__main__':
        app()
    """
CHATGLM3_YAML = """\
    max_input_length: 256
    max_output_length: 512
    training_args:
      output_dir: ./output
      per_device_train_batch_size: 4
      dataloader_num_workers: 16
    peft_config:
      peft_type: LORA
      task_type: CAUSAL_LM
      r: 8
    """


def test_training_args_section_unpacked_through_a_get_and_no_fallback_defaults(cli, tmp_path: Path) -> None:
    write(tmp_path, {"finetune_hf.py": CHATGLM3, "configs/lora.yaml": CHATGLM3_YAML})
    plan = plan_of(cli, "--", "torchrun", "--standalone", "--nnodes=1", "--nproc_per_node=8", "finetune_hf.py",
                   "data/AdvertiseGen/", "THUDM/chatglm3-6b", "configs/lora.yaml", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 4  # not the fallback's default 8
    assert winner(plan, "data.num_workers") == 16


def test_typer_positional_argument_gives_the_model(cli, tmp_path: Path) -> None:
    write(tmp_path, {"finetune_hf.py": CHATGLM3, "configs/lora.yaml": CHATGLM3_YAML})
    plan = plan_of(cli, "--", "torchrun", "--standalone", "--nnodes=1", "--nproc_per_node=8", "finetune_hf.py",
                   "data/AdvertiseGen/", "THUDM/chatglm3-6b", "configs/lora.yaml", cwd=tmp_path)
    assert winner(plan, "model.ref") == "THUDM/chatglm3-6b"


def test_typer_without_the_argument_claims_no_model(cli, tmp_path: Path) -> None:
    write(tmp_path, {"finetune_hf.py": CHATGLM3, "configs/lora.yaml": CHATGLM3_YAML})
    plan = plan_of(cli, "--", "python", "finetune_hf.py", "data/AdvertiseGen/", cwd=tmp_path)
    assert winner(plan, "model.ref") is None


# mosaicml/llm-foundry scripts/train/train.py and yamls/finetune/mpt-7b_dolly_sft.yaml
# @ 8c8dd48f72168c5d51e2f7b151595892a8fba43d, launched as scripts/train/README.md:110 shows.
FOUNDRY_TRAIN = """\
    import sys

    from llmfoundry.command_utils import train_from_yaml

    if __name__ == '__main__':
        yaml_path, args_list = sys.argv[1], sys.argv[2:]
        train_from_yaml(yaml_path, args_list)
    """
FOUNDRY_YAML = """\
    variables:
      max_seq_len: 2048
    max_seq_len: ${variables.max_seq_len}
    model:
      name: hf_causal_lm
      pretrained: true
      pretrained_model_name_or_path: mosaicml/mpt-7b
    train_loader:
      name: finetuning
      num_workers: 8
      pin_memory: false
    optimizer:
      name: decoupled_adamw
      lr: 5.0e-6
    max_duration: 2ep
    global_train_batch_size: 48
    device_train_microbatch_size: 8
    precision: amp_bf16
    fsdp_config:
      sharding_strategy: FULL_SHARD
      mixed_precision: PURE
      activation_checkpointing: true
    """


def test_llm_foundry_recipe_under_composer(cli, tmp_path: Path) -> None:
    write(tmp_path, {"scripts/train/train.py": FOUNDRY_TRAIN, "scripts/train/yamls/ft.yaml": FOUNDRY_YAML})
    plan = plan_of(cli, "--", "composer", "train.py", "yamls/ft.yaml", "device_train_microbatch_size=4",
                   cwd=tmp_path / "scripts/train")
    assert winner(plan, "model.ref") == "mosaicml/mpt-7b"
    assert winner(plan, "batch.micro") == 4  # the override after the YAML wins
    assert winner(plan, "batch.global") == 48
    assert winner(plan, "data.seq_len") == 2048  # through ${variables.max_seq_len}
    assert winner(plan, "dist.sharding") == "fsdp_full"
    assert winner(plan, "precision.mode") == "amp_bf16"
    assert winner(plan, "memory.gradient_checkpointing") is True
    assert winner(plan, "optimizer.name") == "decoupled_adamw"
    assert winner(plan, "peft.method") == "none"
    assert winner(plan, "dist.world_size") is None  # composer: every GPU of the node, known at run time


def test_composer_nproc_gives_the_world_size() -> None:
    from preflight.adapters.launchers import parse_launch

    info = parse_launch(["composer", "-n", "4", "train.py", "y.yaml"])
    assert (info.launcher, info.script, info.total_procs, info.script_args) == ("composer", "train.py", 4, ["y.yaml"])
    info = parse_launch(["composer", "--world_size", "16", "--node_rank", "0", "train.py", "y.yaml"])
    assert info.total_procs == 16


def test_a_yaml_without_foundry_keys_is_not_a_foundry_recipe(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": FOUNDRY_TRAIN, "cfg.yaml": "model:\n  name: resnet\nprecision: amp_bf16\n"})
    plan = plan_of(cli, "--", "python", "train.py", "cfg.yaml", cwd=tmp_path)
    assert winner(plan, "precision.mode") != "amp_bf16" or all(
        f["adapter"] != "recipes_foundry" for f in plan["fields"].get("precision.mode", []))


# OpenGVLab/InternVL internvl_chat/internvl/train/internvl_chat_finetune.py:132-140,978-1008 and
# internvl/model/internvl_chat/modeling_internvl_chat.py:121-141 @ 2410d1dbf208f0e799459aff9376e5747dbf41a2:
# LoRA is applied by a method of the project's model class, under an option of the line; the
# language model's checkpointing is switched on by transformers' `_set_gradient_checkpointing()`.
INTERNVL_TRAIN = """\
    from dataclasses import dataclass, field

    from transformers import HfArgumentParser, Trainer, TrainingArguments

    from internvl.model.internvl_chat import InternVLChatModel


    @dataclass
    class ModelArguments:
        model_name_or_path: str = field(default=None)
        use_llm_lora: int = field(default=0)
        grad_checkpoint: bool = field(default=True)


    @dataclass
    class DataTrainingArguments:
        force_image_size: int = field(default=None)


    def main():
        parser = HfArgumentParser((ModelArguments, DataTrainingArguments, TrainingArguments))
        model_args, data_args, training_args = parser.parse_args_into_dataclasses()
        model = InternVLChatModel.from_pretrained(model_args.model_name_or_path)
        if model_args.grad_checkpoint:
            model.language_model._set_gradient_checkpointing()
        if model_args.use_llm_lora:
            model.wrap_llm_lora(r=model_args.use_llm_lora, lora_alpha=2 * model_args.use_llm_lora)
        trainer = Trainer(model=model, args=training_args)
        trainer.train()


    if __name__ == '__main__':
        main()
    """
INTERNVL_INIT = """\
    from .modeling_internvl_chat import InternVLChatModel
    """
INTERNVL_MODEL = """\
    from peft import LoraConfig, get_peft_model
    from transformers import PreTrainedModel


    class InternVLChatModel(PreTrainedModel):
        def wrap_llm_lora(self, r=128, lora_alpha=256, lora_dropout=0.05):
            lora_config = LoraConfig(r=r, lora_alpha=lora_alpha, lora_dropout=lora_dropout, task_type='CAUSAL_LM')
            self.language_model = get_peft_model(self.language_model, lora_config)
    """


def _internvl(tmp_path: Path) -> None:
    write(tmp_path, {"internvl/train/internvl_chat_finetune.py": INTERNVL_TRAIN,
                     "internvl/__init__.py": "", "internvl/model/__init__.py": "",
                     "internvl/model/internvl_chat/__init__.py": INTERNVL_INIT,
                     "internvl/model/internvl_chat/modeling_internvl_chat.py": INTERNVL_MODEL})


def test_lora_applied_by_a_project_model_method(cli, tmp_path: Path) -> None:
    _internvl(tmp_path)
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node=2", "internvl/train/internvl_chat_finetune.py",
                   "--model_name_or_path", "OpenGVLab/InternVL2_5-8B", "--use_llm_lora", "16",
                   "--grad_checkpoint", "True", "--force_image_size", "448", "--output_dir", "o", cwd=tmp_path)
    assert winner(plan, "data.image_size") == 448
    assert winner(plan, "peft.method") == "lora"
    assert winner(plan, "peft.rank") == 16
    assert winner(plan, "task.mode") == "lora"
    assert winner(plan, "memory.gradient_checkpointing") is True


def test_lora_method_not_called_when_the_option_is_zero(cli, tmp_path: Path) -> None:
    _internvl(tmp_path)
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node=2", "internvl/train/internvl_chat_finetune.py",
                   "--model_name_or_path", "OpenGVLab/InternVL2_5-8B", "--grad_checkpoint", "False",
                   "--output_dir", "o", cwd=tmp_path)
    assert winner(plan, "peft.method") != "lora"
    assert winner(plan, "task.mode") != "lora"
    assert winner(plan, "memory.gradient_checkpointing") is not True


# THUDM/ChatGLM-6B ptuning/main.py:176-177,188 @ 401bf3a8a7dd8a26fba189551dccfc61a7079b4e: source
# and target are tokenized with their own max_length; the sequence is their sum.
CHATGLM6B = """\
    import argparse

    from transformers import AutoModel, AutoTokenizer, Seq2SeqTrainer

    p = argparse.ArgumentParser()
    p.add_argument("--max_source_length", type=int, default=1024)
    p.add_argument("--max_target_length", type=int, default=128)
    args = p.parse_args()
    tokenizer = AutoTokenizer.from_pretrained("THUDM/chatglm-6b", trust_remote_code=True)
    model = AutoModel.from_pretrained("THUDM/chatglm-6b", trust_remote_code=True)


    def preprocess(inputs, targets):
        model_inputs = tokenizer(inputs, max_length=args.max_source_length, truncation=True, padding=True)
        labels = tokenizer(text_target=targets, max_length=args.max_target_length, truncation=True)
        return model_inputs, labels


    Seq2SeqTrainer(model=model).train()
    """


def test_source_and_target_tokenized_apart_give_no_sequence_length(cli, tmp_path: Path) -> None:
    write(tmp_path, {"main.py": CHATGLM6B})
    plan = plan_of(cli, "main.py", "--", "--max_source_length", "64", "--max_target_length", "64", cwd=tmp_path)
    assert winner(plan, "data.seq_len") != 64


def test_one_tokenizer_call_still_gives_the_sequence_length(cli, tmp_path: Path) -> None:
    write(tmp_path, {"main.py": CHATGLM6B.replace(
        "    labels = tokenizer(text_target=targets, max_length=args.max_target_length, truncation=True)\n", "    labels = None\n")})
    plan = plan_of(cli, "main.py", "--", "--max_source_length", "64", cwd=tmp_path)
    assert winner(plan, "data.seq_len") == 64


CHATGLM3_PEFT = CHATGLM3.replace(
    "    def load_model(model_dir: str):\n        return AutoModelForCausalLM.from_pretrained(model_dir, trust_remote_code=True)\n",
    "    from peft import get_peft_config, get_peft_model\n\n\n"
    "    def load_model(model_dir: str, peft_config=None):\n"
    "        model = AutoModelForCausalLM.from_pretrained(model_dir, trust_remote_code=True)\n"
    "        return get_peft_model(model, get_peft_config(peft_config)) if peft_config else model\n")


def test_peft_section_of_the_yaml_and_trainer_ddp_under_torchrun(cli, tmp_path: Path) -> None:
    write(tmp_path, {"finetune_hf.py": CHATGLM3_PEFT, "configs/lora.yaml": CHATGLM3_YAML})
    plan = plan_of(cli, "--", "torchrun", "--standalone", "--nnodes=1", "--nproc_per_node=8", "finetune_hf.py",
                   "data/AdvertiseGen/", "THUDM/chatglm3-6b", "configs/lora.yaml", cwd=tmp_path)
    assert winner(plan, "peft.method") == "lora"
    assert winner(plan, "peft.rank") == 8
    assert winner(plan, "dist.sharding") == "ddp"


def test_prefix_tuning_section_is_not_lora_and_one_process_is_not_ddp(cli, tmp_path: Path) -> None:
    yaml = CHATGLM3_YAML.replace("peft_type: LORA", "peft_type: PREFIX_TUNING")
    write(tmp_path, {"finetune_hf.py": CHATGLM3_PEFT, "configs/ptuning.yaml": yaml})
    plan = plan_of(cli, "--", "python", "finetune_hf.py", "data/AdvertiseGen/", "THUDM/chatglm3-6b",
                   "configs/ptuning.yaml", cwd=tmp_path)
    assert winner(plan, "peft.method") != "lora"
    assert winner(plan, "dist.sharding") in (None, "none")  # one process and no wrapper: never ddp
