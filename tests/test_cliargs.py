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
