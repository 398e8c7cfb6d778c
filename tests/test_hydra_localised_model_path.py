"""A Hydra config value made local by a helper before ``from_pretrained`` reads it
(volcengine/verl@b178a3cd56f5 ``verl/trainer/fsdp_sft_trainer.py:211,240-241``:
``local_model_path = copy_to_local(src=self.config.model.partial_pretrain, verbose=True)`` then
``AutoModelForCausalLM.from_pretrained(local_model_path, ...)``, launched by
``examples/sft/gsm8k/run_qwen_05_peft.sh`` with ``model.partial_pretrain=Qwen/Qwen2.5-0.5B-Instruct``)."""

from __future__ import annotations

from tests.plan_helpers import fact, plan_of, winner, write

SCRIPT = """\
import hydra
from transformers import AutoModelForCausalLM

from mypkg.fs import copy_to_local


class SFTTrainer:
    def __init__(self, config):
        self.config = config
        self._build_model()

    def _build_model(self):
        local_model_path = copy_to_local(src=self.config.model.partial_pretrain, verbose=True)
        self.model = AutoModelForCausalLM.from_pretrained(local_model_path, trust_remote_code=False)

    def fit(self):
        pass


@hydra.main(config_path="config", config_name="sft_trainer", version_base=None)
def main(config):
    trainer = SFTTrainer(config=config)
    trainer.fit()


if __name__ == "__main__":
    main()
"""

CONFIG = """\
model:
  partial_pretrain: ~/models/gemma-1.1-7b-it
  lora_rank: 0
optim:
  lr: 1e-5
"""


def _project(tmp_path, script=SCRIPT):
    write(tmp_path, {"sft.py": script, "config/sft_trainer.yaml": CONFIG, "mypkg/__init__.py": "",
                     "mypkg/fs.py": "def copy_to_local(src, verbose=False):\n    return src\n"})


def test_the_config_value_made_local_is_the_model(cli, tmp_path):
    _project(tmp_path)
    plan = plan_of(cli, "--", "python", "sft.py", "model.partial_pretrain=Qwen/Qwen2.5-0.5B-Instruct", cwd=tmp_path)
    assert winner(plan, "model.ref") == "Qwen/Qwen2.5-0.5B-Instruct"
    assert fact(plan, "model.ref").confidence == "medium"


def test_the_config_default_when_not_overridden(cli, tmp_path):
    _project(tmp_path)
    plan = plan_of(cli, "--", "python", "sft.py", cwd=tmp_path)
    assert winner(plan, "model.ref") == "~/models/gemma-1.1-7b-it"


def test_a_helper_given_two_config_values_is_not_read_as_a_copy(cli, tmp_path):
    # which of the two the helper returns is not known
    script = SCRIPT.replace("copy_to_local(src=self.config.model.partial_pretrain, verbose=True)",
                            "copy_to_local(src=self.config.model.partial_pretrain, verbose=self.config.optim.lr)")
    _project(tmp_path, script)
    plan = plan_of(cli, "--", "python", "sft.py", "model.partial_pretrain=Qwen/Qwen2.5-0.5B-Instruct", cwd=tmp_path)
    assert winner(plan, "model.ref") != "Qwen/Qwen2.5-0.5B-Instruct"
