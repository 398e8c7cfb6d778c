"""PF539: the model `accelerator.prepare` wrapped in DDP handed to the HF Trainer (transformers issue
29792), run the way a user runs `preflight audit` with the launch command."""

from __future__ import annotations

import json
from pathlib import Path

from plan_helpers import write

TRAIN = """\
    from accelerate import Accelerator
    from transformers import LlamaForCausalLM, Trainer, TrainingArguments


    def main(path, train_dataset):
        accelerator = Accelerator()
        model = LlamaForCausalLM.from_pretrained(path)
        model = accelerator.prepare(model)
        args = TrainingArguments(output_dir="out", per_device_train_batch_size=2)
        trainer = Trainer(model=model, args=args, train_dataset=train_dataset)
        trainer.train()
        trainer.save_model()
    """


def found(cli, root: Path, train: str, launch: str) -> list[tuple[int, str]]:
    write(root, {"train.py": train})
    res = cli("audit", "train.py", "--format", "json", "--no-cache", "--exit-zero", "--", *launch.split(), cwd=root)
    doc = json.loads(res.out)
    return [(f["line"], f["message"]) for f in doc["findings"] if f["code"] == "PF539"]


def test_a_prepared_model_given_to_the_trainer_under_four_processes_is_flagged(cli, tmp_path):
    out = found(cli, tmp_path, TRAIN, "accelerate launch --multi_gpu --num_processes 4 train.py")
    assert [line for line, _ in out] == [10]
    assert "module." in out[0][1] and "4 processes" in out[0][1]


def test_the_plain_model_is_quiet(cli, tmp_path):
    fixed = TRAIN.replace("        model = accelerator.prepare(model)\n", "")
    assert fixed != TRAIN
    assert found(cli, tmp_path, fixed, "accelerate launch --multi_gpu --num_processes 4 train.py") == []


def test_one_process_is_quiet(cli, tmp_path):
    assert found(cli, tmp_path, TRAIN, "python train.py") == []


def test_a_subclass_of_the_transformers_trainer_counts(cli, tmp_path):
    text = TRAIN.replace("    from transformers import LlamaForCausalLM, Trainer, TrainingArguments\n",
                         "    from transformers import LlamaForCausalLM, Trainer, TrainingArguments\n\n\n"
                         "    class WeightedTrainer(Trainer):\n        pass\n").replace(
        "trainer = Trainer(model=model", "trainer = WeightedTrainer(model=model")
    assert "class WeightedTrainer" in text
    out = found(cli, tmp_path, text, "accelerate launch --multi_gpu --num_processes 4 train.py")
    assert [line for line, _ in out] == [14]


def test_a_project_trainer_built_on_accelerate_is_quiet(cli, tmp_path):
    text = TRAIN.replace("trainer = Trainer(model=model", "trainer = MyAccelerateTrainer(model=model")
    assert found(cli, tmp_path, text, "accelerate launch --multi_gpu --num_processes 4 train.py") == []
