"""Set 41's wrong fields, as shapes of our own (jobs90): a DeepSpeed engine given no data while the
script batches its own DataLoader (LOMO), a generation-length option (LOMO), and a LoraConfig under
a store_true flag read through ``self.args`` (ORPO)."""

from __future__ import annotations

import json

from plan_helpers import fact, plan_of, write

DS_JSON = json.dumps({"train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 1,
                      "zero_optimization": {"stage": 3}, "fp16": {"enabled": True}})

TRAINER = """\
    import deepspeed
    from torch.utils.data import DataLoader

    class MyTrainer:
        def __init__(self, model, dataset, micro):
            self.model, _, _, _ = deepspeed.initialize(config="ds.json", model=model{data})
            self.loader = DataLoader(dataset, batch_size=micro)
    """

MAIN = """\
    import torch
    from my_trainer import MyTrainer

    model = torch.nn.Linear(8, 8)
    trainer = MyTrainer(model, list(range(100)), 16)
    """


def _ds_plan(cli, tmp_path, data: str) -> dict:
    write(tmp_path, {"my_trainer.py": TRAINER.replace("{data}", data), "main.py": MAIN})
    (tmp_path / "ds.json").write_text(DS_JSON)
    return plan_of(cli, "main.py", "--config", "ds.json", cwd=tmp_path)


def test_ds_micro_batch_not_high_when_script_batches_its_own_loader(cli, tmp_path):
    plan = _ds_plan(cli, tmp_path, "")
    ds = [f for f in plan["fields"].get("batch.micro", []) if f["adapter"] == "deepspeed"]
    assert ds and all(f["confidence"] == "medium" for f in ds)
    assert any("batches its own data" in n for n in plan["notes"])


def test_ds_micro_batch_stays_high_when_engine_gets_the_data(cli, tmp_path):
    plan = _ds_plan(cli, tmp_path, ", training_data=dataset")
    got = fact(plan, "batch.micro")
    assert got is not None and got.value == 2 and got.confidence == "high"
    assert not any("batches its own data" in n for n in plan["notes"])


ARGS_MAIN = """\
    from dataclasses import dataclass, field
    from transformers import HfArgumentParser, TrainingArguments

    @dataclass
    class MyArgs(TrainingArguments):
        max_length: int = field(default=20, metadata={{"help": "{help}"}})

    args, = HfArgumentParser((MyArgs,)).parse_args_into_dataclasses()
    """


def test_generation_length_option_is_not_the_training_length(cli, tmp_path):
    write(tmp_path, {"train.py": ARGS_MAIN.format(help="The maximum length of the sequence to be generated.")})
    plan = plan_of(cli, "train.py", "--", "--output_dir", "out", cwd=tmp_path)
    got = fact(plan, "data.seq_len")
    assert got is None or got.value != 20


def test_training_length_option_still_read(cli, tmp_path):
    write(tmp_path, {"train.py": ARGS_MAIN.format(help="The maximum sequence length of a training sample.")})
    plan = plan_of(cli, "train.py", "--", "--output_dir", "out", cwd=tmp_path)
    got = fact(plan, "data.seq_len")
    assert got is not None and got.value == 20


LORA_MAIN = """\
    import argparse
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    class Job:
        def __init__(self, args):
            self.args = args
            self.model = AutoModelForCausalLM.from_pretrained("facebook/opt-125m")
            if self.args.enable_lora:
                config = LoraConfig(r=8, task_type="CAUSAL_LM")
                self.model = get_peft_model(self.model, config)

        def run(self):
            self.model(torch.zeros(1, 4, dtype=torch.long)).logits.sum().backward()

    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--enable_lora", action="store_true")
        args = parser.parse_args()
        Job(args=args).run()
    """


def test_lora_under_an_off_flag_read_through_self_args_is_not_lora(cli, tmp_path):
    write(tmp_path, {"main.py": LORA_MAIN})
    got = fact(plan_of(cli, "main.py", cwd=tmp_path), "peft.method")
    assert got is None or got.value != "lora"


def test_lora_under_a_flag_the_launch_line_passes_is_lora(cli, tmp_path):
    write(tmp_path, {"main.py": LORA_MAIN})
    got = fact(plan_of(cli, "main.py", "--", "--enable_lora", cwd=tmp_path), "peft.method")
    assert got is not None and got.value == "lora"
