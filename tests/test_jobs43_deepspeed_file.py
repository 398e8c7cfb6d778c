"""A DeepSpeed config named by ``--deepspeed FILE`` whatever its suffix (issue 15, set 25:
yizhongw/Tk-Instruct ``scripts/train_tk_instruct.sh`` @ 7c0e400:43 ``--deepspeed
ds_configs/stage2.config --bf16``): read by its content. Twin: a named file preflight cannot read
leaves precision and the optimizer at low confidence, never a Trainer default at high."""

from __future__ import annotations

import json

from plan_helpers import fact, plan_of, write

TRAIN = """\
    from transformers import AutoModelForSeq2SeqLM, HfArgumentParser, Seq2SeqTrainer, Seq2SeqTrainingArguments

    parser = HfArgumentParser((Seq2SeqTrainingArguments,))
    (training_args,) = parser.parse_args_into_dataclasses()
    model = AutoModelForSeq2SeqLM.from_pretrained("t5-small")
    trainer = Seq2SeqTrainer(model=model, args=training_args)
    trainer.train()
"""

DS = {"bfloat16": {"enabled": "auto"}, "optimizer": {"type": "AdamW", "params": {"lr": "auto"}},
      "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}, "reduce_bucket_size": 2e8},
      "train_micro_batch_size_per_gpu": "auto"}
LINE = ("deepspeed --num_gpus 2 src/run.py --deepspeed ds_configs/stage2.config --bf16 --output_dir out "
        "--per_device_train_batch_size 1\n")


def test_a_deepspeed_config_with_another_suffix_is_read_by_content(cli, tmp_path):
    write(tmp_path, {"src/run.py": TRAIN, "scripts/train.sh": "#!/bin/bash\n" + LINE})
    (tmp_path / "ds_configs").mkdir()
    (tmp_path / "ds_configs" / "stage2.config").write_text(json.dumps(DS, indent=2))
    plan = plan_of(cli, "scripts/train.sh", cwd=tmp_path)
    assert fact(plan, "dist.sharding").value == "zero2"
    assert fact(plan, "dist.offload_optimizer").value == "cpu"
    assert fact(plan, "precision.mode").value == "bf16"
    assert fact(plan, "optimizer.name").value == "AdamW"
    assert any("stage2.config" in n and "read by its content" in n for n in plan["notes"])


def test_twin_a_named_config_that_is_not_json_is_not_read_and_nothing_is_high(cli, tmp_path):
    write(tmp_path, {"src/run.py": TRAIN, "scripts/train.sh": "#!/bin/bash\n" + LINE,
                     "ds_configs/stage2.config": "stage = 2\n"})
    plan = plan_of(cli, "scripts/train.sh", cwd=tmp_path)
    assert fact(plan, "dist.sharding") is None or fact(plan, "dist.sharding").value != "zero2"
    for field in ("precision.mode", "optimizer.name"):
        best = fact(plan, field)
        assert best is None or best.confidence == "low", (field, best)
    assert any("stage2.config" in n and "low confidence" in n for n in plan["notes"])
