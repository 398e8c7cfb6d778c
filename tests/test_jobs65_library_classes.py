"""A parser's argument class is the library's only where it comes from the library (issue 15, set
32: TigerResearch/TigerBot ``train/train_sft.py:13-23,49``: the project's own ``@dataclass class
SFTConfig`` (model path, dataset, ``max_length``) parsed with ``transformers.TrainingArguments``; trl
is not imported, yet trl's SFTConfig defaults, ``gradient_checkpointing=True`` among them, were
applied by the name). Twins: trl's SFTConfig imported, a project module's class of that name."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

OWN = """\
    from dataclasses import dataclass, field
    from typing import Optional
    import transformers


    @dataclass
    class SFTConfig:
        model_name_or_path: Optional[str] = field(default="gpt2")
        max_length: int = field(default=512)


    def main():
        parser = transformers.HfArgumentParser((SFTConfig, transformers.TrainingArguments))
        sft_config, training_args = parser.parse_args_into_dataclasses()
        model = transformers.AutoModelForCausalLM.from_pretrained(sft_config.model_name_or_path)
        trainer = transformers.Trainer(model=model, args=training_args)
        trainer.train()


    main()
"""

TRL = """\
    import transformers
    from trl import SFTConfig, SFTTrainer


    def main():
        parser = transformers.HfArgumentParser((SFTConfig,))
        (training_args,) = parser.parse_args_into_dataclasses()
        trainer = SFTTrainer(model="gpt2", args=training_args)
        trainer.train()


    main()
"""


def _ckpt(plan: dict):
    return fact(plan, "memory.gradient_checkpointing")


def test_a_projects_own_sftconfig_takes_no_trl_defaults(cli, tmp_path):
    write(tmp_path, {"train_sft.py": OWN})
    plan = plan_of(cli, "train_sft.py", "--", "--output_dir", "out", cwd=tmp_path)
    ckpt = _ckpt(plan)
    assert ckpt is None or ckpt.value is False
    assert not any("trl SFTConfig" in (f["source"]["detail"] or "")
                   for facts in plan["fields"].values() for f in facts)


def test_twin_trls_sftconfig_keeps_its_defaults(cli, tmp_path):
    write(tmp_path, {"train_sft.py": TRL})
    plan = plan_of(cli, "train_sft.py", "--", "--output_dir", "out", cwd=tmp_path)
    ckpt = _ckpt(plan)
    assert ckpt is not None and ckpt.value is True
    assert "trl SFTConfig" in ckpt.source.detail


def test_twin_a_project_modules_class_of_the_name_is_not_trls(cli, tmp_path):
    write(tmp_path, {"train_sft.py": OWN.replace(
        "    @dataclass\n    class SFTConfig:\n        model_name_or_path: Optional[str] = field(default=\"gpt2\")\n"
        "        max_length: int = field(default=512)\n", "    from configs import SFTConfig\n"),
        "configs.py": "from dataclasses import dataclass\n\n\n@dataclass\nclass SFTConfig:\n"
                      "    model_name_or_path: str = 'gpt2'\n    max_length: int = 512\n"})
    plan = plan_of(cli, "train_sft.py", "--", "--output_dir", "out", cwd=tmp_path)
    ckpt = _ckpt(plan)
    assert ckpt is None or ckpt.value is False
