"""The HF Trainer's DataLoader pins memory by default (`TrainingArguments.dataloader_pin_memory`
default True, passed as `pin_memory=` by `Trainer.get_train_dataloader`): the shape of
princeton-nlp/LESS @ 8abf962 less/train/train.py (TrainingArguments from HfArgumentParser, the key
not given) and of a script that turns it off."""

from __future__ import annotations

from plan_helpers import fact, plan_of, winner, write

SCRIPT = """\
    from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

    parser = HfArgumentParser((TrainingArguments,))
    (training_args,) = parser.parse_args_into_dataclasses()
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    Trainer(model=model, args=training_args).train()
    """


def test_default_is_pinned(cli, tmp_path):
    write(tmp_path, {"train.py": SCRIPT})
    plan = plan_of(cli, "train.py", "--", "--output_dir", "out", "--per_device_train_batch_size", "4", cwd=tmp_path)
    assert winner(plan, "data.pin_memory") is True
    assert fact(plan, "data.pin_memory").source.kind == "default"


def test_turned_off_on_the_line_or_in_the_call(cli, tmp_path):
    write(tmp_path, {"train.py": SCRIPT})
    plan = plan_of(cli, "train.py", "--", "--output_dir", "out", "--dataloader_pin_memory", "False", cwd=tmp_path)
    assert winner(plan, "data.pin_memory") is False
    literal = SCRIPT.replace("    parser = HfArgumentParser((TrainingArguments,))\n",
                             "").replace("(training_args,) = parser.parse_args_into_dataclasses()",
                                         "training_args = TrainingArguments('out', dataloader_pin_memory=False)")
    write(tmp_path, {"train.py": literal})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "data.pin_memory") is False
