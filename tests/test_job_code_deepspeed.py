"""A DeepSpeed config named in the script's own arguments object (preflight/job_code_deepspeed.py):
``TrainingArguments(deepspeed="ds_config.json")`` / ``SFTConfig(deepspeed=...)`` is read as a job config;
a guarded, computed, missing or disputed name is not. Fixtures of our own with a real shape."""

from __future__ import annotations

import json

from plan_helpers import plan_of, write

# joagada2/finetuning @ a4a159a sft_llama_ds.py:14-67,85-91 (SFTConfig(..., bf16=True,
# deepspeed="ds_config.json") given to SFTTrainer), ds_config.json:1-40 (ZeRO stage 3, "auto" values),
# run.slurm (``deepspeed --num_gpus 8 sft_llama_ds.py``), shortened.
SCRIPT = """\
    from datasets import load_dataset
    from transformers import AutoModelForCausalLM
    from trl import SFTConfig, SFTTrainer

    base_model = AutoModelForCausalLM.from_pretrained("mistralai/Mistral-7B-Instruct-v0.1")
    training_data = load_dataset("mlabonne/guanaco-llama2-1k", split="train")
    train_params = SFTConfig(
        output_dir="./results",
        per_device_train_batch_size=1,
        gradient_accumulation_steps=1,
        learning_rate=4e-5,
        bf16=True,
        deepspeed="ds_config.json",
    )
    trainer = SFTTrainer(model=base_model, train_dataset=training_data, args=train_params)
    trainer.train()
    """
DS = json.dumps({"bf16": {"enabled": "auto"}, "zero_optimization": {"stage": 3},
                 "train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto"})
LAUNCH = "#!/bin/bash\ndeepspeed --num_gpus 8 sft_llama_ds.py\n"


def _by(plan: dict, field: str, adapter: str):
    return next((f for f in plan["fields"].get(field, []) if f["adapter"] == adapter), None)


def _inputs(plan: dict) -> list[str]:
    return [i["path"] for i in plan["inputs"]]


def test_the_file_the_arguments_object_names_is_read(cli, tmp_path):
    write(tmp_path, {"sft_llama_ds.py": SCRIPT, "ds_config.json": DS, "run.sh": LAUNCH})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert "ds_config.json" in _inputs(plan)
    sharding = _by(plan, "dist.sharding", "deepspeed")
    assert sharding is not None and sharding["value"] == "zero3"
    # no DDP claimed for a job that runs ZeRO-3
    assert all(f["value"] != "ddp" for f in plan["fields"].get("dist.sharding", []))


def test_a_relative_dot_path_of_training_arguments(cli, tmp_path):
    script = SCRIPT.replace("SFTConfig(", "TrainingArguments(").replace('"ds_config.json"', '"./ds_config.json"') \
        .replace("from trl import SFTConfig, SFTTrainer", "from transformers import Trainer, TrainingArguments") \
        .replace("SFTTrainer(model=base_model", "Trainer(model=base_model")
    write(tmp_path, {"sft_llama_ds.py": script, "ds_config.json": DS})
    plan = plan_of(cli, "sft_llama_ds.py", cwd=tmp_path)
    assert _by(plan, "dist.sharding", "deepspeed")["value"] == "zero3"


def test_a_guarded_or_computed_name_is_not_read(cli, tmp_path):
    guarded = SCRIPT.replace("train_params = SFTConfig(", "import os\n    if os.environ.get('DS'):\n"
                             "        pass\n    train_params = SFTConfig(") \
        .replace('deepspeed="ds_config.json",', 'deepspeed="ds_config.json" if os.environ.get("DS") else None,')
    write(tmp_path, {"sft_llama_ds.py": guarded, "ds_config.json": DS, "run.sh": LAUNCH})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert "ds_config.json" not in _inputs(plan)
    assert _by(plan, "dist.sharding", "deepspeed") is None
    inside_if = SCRIPT.replace("train_params = SFTConfig(", "import os\n    if os.environ.get('DS'):\n"
                               "        train_params = SFTConfig(") \
        .replace("\n        output_dir", "\n            output_dir").replace("\n        per_device", "\n            per_device") \
        .replace("\n        gradient_acc", "\n            gradient_acc").replace("\n        learning", "\n            learning") \
        .replace("\n        bf16", "\n            bf16").replace("\n        deepspeed", "\n            deepspeed") \
        .replace("\n    )\n    trainer", "\n        )\n    trainer")
    write(tmp_path, {"sft_llama_ds.py": inside_if, "ds_config.json": DS, "run.sh": LAUNCH})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert _by(plan, "dist.sharding", "deepspeed") is None


def test_a_missing_file_or_two_different_names_read_nothing(cli, tmp_path):
    write(tmp_path, {"sft_llama_ds.py": SCRIPT, "run.sh": LAUNCH})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert _by(plan, "dist.sharding", "deepspeed") is None
    assert any('deepspeed="ds_config.json"; not found' in n for n in plan["notes"])
    two = SCRIPT.rstrip(" ") + '    eval_params = SFTConfig(output_dir="e", deepspeed="ds_eval.json")\n'
    write(tmp_path, {"sft_llama_ds.py": two, "ds_config.json": DS, "ds_eval.json": DS, "run.sh": LAUNCH})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert _by(plan, "dist.sharding", "deepspeed") is None
