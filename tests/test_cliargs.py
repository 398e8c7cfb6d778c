"""Values the launch line gives through options the script declares (adapters/cliargs.py)."""

from __future__ import annotations

import json
import textwrap


def plan_of(cli, *args: str, cwd) -> dict:
    args = list(args)
    cut = args.index("--") if "--" in args else len(args)
    res = cli("audit", *args[:cut], "--emit-plan", "json", *args[cut:], cwd=cwd)
    assert res.code == 0, res.out + res.err
    return json.loads(res.out)


def winner(plan: dict, field: str):
    from preflight.plan import TrainingPlan

    fact = TrainingPlan.from_dict(plan).resolve(field)
    return None if fact is None else (fact.value, fact.confidence, fact.source.kind)


HELPER = textwrap.dedent("""\
    from transformers import AutoModelForCausalLM

    def create_model(path):
        return AutoModelForCausalLM.from_pretrained(path)
    """)

MAIN = textwrap.dedent("""\
    import argparse
    from utils.model import create_model

    def parse():
        p = argparse.ArgumentParser()
        p.add_argument("--model_name_or_path", type=str, required=True)
        p.add_argument("--per_device_train_batch_size", type=int, default=16)
        p.add_argument("--max_seq_len", type=int, default=512)
        p.add_argument("--lora_dim", type=int, default=0)
        p.add_argument("--only_optimize_lora", action="store_true")
        p.add_argument("-a", "--arch", default="resnet18")
        return p.parse_args()

    args = parse()
    model = create_model(args.model_name_or_path)
    """)


def test_model_passed_to_a_helper_from_the_launch_line(cli, tmp_path):
    (tmp_path / "utils").mkdir()
    (tmp_path / "utils" / "model.py").write_text(HELPER)
    (tmp_path / "main.py").write_text(MAIN)
    plan = plan_of(cli, "main.py", "--", "--model_name_or_path", "facebook/opt-1.3b", "--lora_dim", "128",
                   "--only_optimize_lora", cwd=tmp_path)
    assert winner(plan, "model.ref") == ("facebook/opt-1.3b", "medium", "cli")
    assert winner(plan, "batch.micro")[0] == 16  # the declared default
    assert winner(plan, "peft.rank")[0] == 128 and winner(plan, "task.mode")[0] == "lora"


def test_undeclared_option_is_not_read(cli, tmp_path):
    (tmp_path / "main.py").write_text("import sys\nprint(sys.argv)\n")
    plan = plan_of(cli, "main.py", "--", "--model_name_or_path", "facebook/opt-1.3b", cwd=tmp_path)
    assert winner(plan, "model.ref") is None


def test_local_path_model_is_a_note_not_a_fact(cli, tmp_path):
    (tmp_path / "utils").mkdir()
    (tmp_path / "utils" / "model.py").write_text(HELPER)
    (tmp_path / "main.py").write_text(MAIN)
    plan = plan_of(cli, "main.py", "--", "--model_name_or_path", "./ckpt/llama", cwd=tmp_path)
    assert winner(plan, "model.ref") is None
    assert any("local path" in n for n in plan["notes"])


def test_arch_lookup_and_short_flag(cli, tmp_path):
    (tmp_path / "main.py").write_text(MAIN.replace("model = create_model(args.model_name_or_path)",
                                                   "import torchvision.models as models\n"
                                                   "model = models.__dict__[args.arch]()"))
    plan = plan_of(cli, "main.py", "--", "-a", "resnet50", cwd=tmp_path)
    assert winner(plan, "model.ref")[0] == "resnet50"


def test_trl_parser_reads_library_defaults_and_use_peft(cli, tmp_path):
    (tmp_path / "sft.py").write_text(textwrap.dedent("""\
        from trl import ModelConfig, ScriptArguments, SFTConfig, SFTTrainer, TrlParser

        def make_parser():
            dataclass_types = (ScriptArguments, SFTConfig, ModelConfig)
            return TrlParser(dataclass_types)

        script_args, training_args, model_args = make_parser().parse_args_and_config()
        trainer = SFTTrainer(model=model_args.model_name_or_path, args=training_args)
        trainer.train()
        """))
    plan = plan_of(cli, "sft.py", "--", "--model_name_or_path", "Qwen/Qwen2-0.5B", "--use_peft", "--lora_r", "32",
                   cwd=tmp_path)
    assert winner(plan, "model.ref")[0] == "Qwen/Qwen2-0.5B"
    assert winner(plan, "peft.method")[0] == "lora" and winner(plan, "peft.rank")[0] == 32
    assert winner(plan, "data.seq_len")[0] == 1024
    assert winner(plan, "memory.gradient_checkpointing")[0] is True
    plan = plan_of(cli, "sft.py", "--", "--model_name_or_path", "Qwen/Qwen2-0.5B", cwd=tmp_path)
    assert winner(plan, "peft.method")[0] == "none"


FIRE = textwrap.dedent("""\
    import fire
    from peft import prepare_model_for_int8_training
    from transformers import AutoModelForCausalLM, TrainingArguments

    def train(base_model: str = "", batch_size: int = 128, micro_batch_size: int = 4, cutoff_len: int = 256):
        gradient_accumulation_steps = batch_size // micro_batch_size
        model = AutoModelForCausalLM.from_pretrained(base_model, load_in_8bit=True)
        model = prepare_model_for_int8_training(model)
        args = TrainingArguments(per_device_train_batch_size=micro_batch_size, fp16=True,
                                 gradient_accumulation_steps=gradient_accumulation_steps)

    if __name__ == "__main__":
        fire.Fire(train)
    """)


def test_fire_kwargs_computed_accumulation_and_kbit_side_effect(cli, tmp_path):
    (tmp_path / "finetune.py").write_text(FIRE)
    plan = plan_of(cli, "finetune.py", "--", "--base_model=huggyllama/llama-7b", "--micro_batch_size=8",
                   "--cutoff_len=512", cwd=tmp_path)
    assert winner(plan, "model.ref")[0] == "huggyllama/llama-7b"
    assert winner(plan, "batch.grad_accum")[0] == 16  # 128 // 8
    assert winner(plan, "data.seq_len")[0] == 512
    assert winner(plan, "memory.gradient_checkpointing")[0] is True
    assert winner(plan, "dist.world_size") == (1, "medium", "derived")


def test_side_effect_off_when_asked(cli, tmp_path):
    (tmp_path / "finetune.py").write_text(FIRE.replace("prepare_model_for_int8_training(model)",
                                                       "prepare_model_for_int8_training(model, "
                                                       "use_gradient_checkpointing=False)"))
    plan = plan_of(cli, "finetune.py", cwd=tmp_path)
    assert winner(plan, "memory.gradient_checkpointing")[0] is False


def test_training_arguments_subclass_in_an_imported_module(cli, tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "train.py").write_text(textwrap.dedent("""\
        from dataclasses import dataclass, field
        import transformers

        @dataclass
        class TrainingArguments(transformers.TrainingArguments):
            model_max_length: int = field(default=512)

        def train():
            parser = transformers.HfArgumentParser((TrainingArguments,))
            (args,) = parser.parse_args_into_dataclasses()
        """))
    (tmp_path / "train_mem.py").write_text("from pkg.train import train\n\ntrain()\n")
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node=4", "train_mem.py", "--fsdp", "full_shard auto_wrap",
                   "--bf16", "True", "--model_max_length", "2048", cwd=tmp_path)
    assert winner(plan, "dist.sharding")[0] == "fsdp_full"
    assert winner(plan, "precision.mode")[0] == "amp_bf16"
    assert winner(plan, "data.seq_len")[0] == 2048


def test_fp32_when_no_precision_anywhere_and_silent_otherwise(cli, tmp_path):
    (tmp_path / "main.py").write_text("import torch\nmodel = torch.nn.Linear(2, 2)\nloss = model(x).sum()\n"
                                      "loss.backward()\n")
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    # the derive step's reading, or visible_code's (the loop is the script's own) when it came first
    assert winner(plan, "precision.mode")[:2] == ("fp32", "medium")
    (tmp_path / "main.py").write_text("import torch\nmodel = torch.nn.Linear(2, 2)\n"
                                      "with torch.autocast('cuda', dtype=opts.dtype):\n    loss = model(x).sum()\n"
                                      "loss.backward()\n")
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    assert winner(plan, "precision.mode") is None or winner(plan, "precision.mode")[2] != "derived"


# mlfoundations/open_flamingo @ the benchmark's commit, open_flamingo/train/train.py:103-108: ``--precision`` with
# choices amp_bf16, amp_bfloat16, bf16, fp16, fp32 and default fp32 (train_utils.py get_autocast: only the amp_*
# values autocast; bf16/fp16 cast the weights).
PRECISION_CHOICES = """\
    import argparse
    import torch

    parser = argparse.ArgumentParser()
    parser.add_argument("--lm_path", default="facebook/opt-1.3b", type=str)
    parser.add_argument(
        "--precision",
        choices=["amp_bf16", "amp_bfloat16", "bf16", "fp16", "fp32"],
        default="fp32",
        help="Floating point precision.",
    )
    args = parser.parse_args()
"""


def test_a_precision_option_read_by_its_choices(cli, tmp_path):
    (tmp_path / "train.py").write_text(textwrap.dedent(PRECISION_CHOICES))
    assert winner(plan_of(cli, "train.py", cwd=tmp_path), "precision.mode") == ("fp32", "low", "default")
    for given, mode in (("amp_bfloat16", "amp_bf16"), ("bf16", "bf16")):
        plan = plan_of(cli, "train.py", "--", "--precision", given, cwd=tmp_path)
        assert winner(plan, "precision.mode") == (mode, "medium", "cli")


def test_choices_without_an_autocast_spelling_say_nothing(cli, tmp_path):
    """Silent twins: choices bf16/fp16/fp32 only (is bf16 a cast or Lightning-style mixed? not told), and
    choices that are not precisions at all (``--dtype`` of a data loader)."""
    for choices in ('["bf16", "fp16", "fp32"]', '["uint8", "int16", "bf16", "amp"]'):
        (tmp_path / "train.py").write_text(textwrap.dedent(PRECISION_CHOICES).replace(
            '["amp_bf16", "amp_bfloat16", "bf16", "fp16", "fp32"]', choices))
        plan = plan_of(cli, "train.py", "--", "--precision", "bf16", cwd=tmp_path)
        assert winner(plan, "precision.mode") is None or winner(plan, "precision.mode")[2] != "cli", choices
