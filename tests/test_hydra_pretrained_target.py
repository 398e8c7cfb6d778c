"""Hydra configs that load the model with ``_target_: pkg.Model.from_pretrained`` and add a LoRA
config group on the command line (fishaudio/fish-speech@3dd1f85c402e
``fish_speech/configs/text2semantic_finetune.yaml:7,59-63`` with
``+lora@model.model.lora_config=r_8_alpha_16`` -> ``fish_speech/configs/lora/r_8_alpha_16.yaml:1-2``;
the method ``fish_speech/models/text2semantic/llama.py:480`` takes ``path`` first)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plan_helpers import fact, plan_of, winner, write

SCRIPT = """\
    import hydra
    import lightning as L
    from hydra.utils import instantiate


    @hydra.main(config_path="configs", config_name="finetune", version_base="1.3")
    def main(cfg):
        model = instantiate(cfg.model)
        trainer = instantiate(cfg.trainer)
        trainer.fit(model)


    if __name__ == "__main__":
        main()
"""

CONFIG = """\
    max_length: 4096
    pretrained_ckpt_path: checkpoints/openaudio-s1-mini

    trainer:
      _target_: lightning.pytorch.trainer.Trainer
      max_steps: 10000
      precision: bf16-true

    model:
      _target_: mypkg.lit_module.TextToSemantic
      model:
        _target_: mypkg.llama.BaseTransformer.from_pretrained
        path: ${pretrained_ckpt_path}
        load_weights: true
        max_length: ${max_length}
        lora_config: null
"""

LLAMA = """\
    import torch.nn as nn


    class BaseTransformer(nn.Module):
        @staticmethod
        def from_pretrained(path: str, load_weights: bool = False, max_length=None, lora_config=None):
            return BaseTransformer()
"""

LORA = """\
    _target_: mypkg.lora.LoraConfig
    r: 8
    lora_alpha: 16
    lora_dropout: 0.01
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write(tmp_path, {"train.py": SCRIPT, "configs/finetune.yaml": CONFIG, "configs/lora/r_8_alpha_16.yaml": LORA,
                     "mypkg/__init__.py": "", "mypkg/llama.py": LLAMA, "mypkg/lit_module.py": "",
                     "mypkg/lora.py": "class LoraConfig:\n    pass\n"})
    return tmp_path


def test_the_path_given_to_a_from_pretrained_target_is_the_model(cli, project):
    plan = plan_of(cli, "--", "python", "train.py", cwd=project)
    assert winner(plan, "model.ref") == "checkpoints/openaudio-s1-mini"
    got = fact(plan, "model.ref")
    assert got.confidence == "medium"
    assert "from_pretrained" in (got.source.detail or "")


def test_a_lora_group_added_on_the_command_line_is_lora_of_its_rank(cli, project):
    plan = plan_of(cli, "--", "python", "train.py", "+lora@model.model.lora_config=r_8_alpha_16", cwd=project)
    assert winner(plan, "peft.method") == "lora"
    assert winner(plan, "peft.rank") == 8
    assert winner(plan, "task.mode") == "lora"


def test_without_the_lora_group_no_lora_is_claimed(cli, project):
    plan = plan_of(cli, "--", "python", "train.py", cwd=project)
    assert winner(plan, "peft.rank") is None
    assert winner(plan, "peft.method") != "lora"


def test_a_positional_path_given_to_a_library_class(cli, tmp_path):
    config = CONFIG.replace("mypkg.llama.BaseTransformer.from_pretrained", "transformers.AutoModelForCausalLM.from_pretrained")
    config = config.replace("path: ${pretrained_ckpt_path}", "_args_: [\"${pretrained_ckpt_path}\"]")
    write(tmp_path, {"train.py": SCRIPT, "configs/finetune.yaml": config})
    plan = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    assert winner(plan, "model.ref") == "checkpoints/openaudio-s1-mini"


def test_a_tokenizer_target_is_not_the_model(cli, tmp_path):
    config = CONFIG.replace("mypkg.llama.BaseTransformer.from_pretrained", "transformers.AutoTokenizer.from_pretrained")
    write(tmp_path, {"train.py": SCRIPT, "configs/finetune.yaml": config.replace("path:", "pretrained_model_name_or_path:")})
    plan = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    assert winner(plan, "model.ref") != "checkpoints/openaudio-s1-mini"


def test_an_unknown_first_parameter_is_not_guessed(cli, tmp_path):
    # the method is not local: its first parameter's name is unknown, and `path` is not read
    config = CONFIG.replace("mypkg.llama.BaseTransformer.from_pretrained", "otherlib.Model.from_pretrained")
    write(tmp_path, {"train.py": SCRIPT, "configs/finetune.yaml": config})
    plan = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    assert winner(plan, "model.ref") != "checkpoints/openaudio-s1-mini"
