"""ai-toolkit job files (`python run.py config/job.yaml`): a small rewrite of our own with the
shape of ostris/ai-toolkit @ 27a03a9 config/examples/train_lora_flux_24gb.yaml (`job:` and
`config: process: [{type: sd_trainer, network, train, model}]`), read with the toolkit's defaults
of toolkit/config_modules.py."""

from __future__ import annotations

import json

from plan_helpers import winner, write

RUN = "import sys\nfrom toolkit.job import run_job\n\nrun_job(sys.argv[1])\n"

JOB = """\
    job: extension
    config:
      name: my_lora
      process:
        - type: 'sd_trainer'
          training_folder: out
          network:
            type: lora
            linear: 32
            linear_alpha: 32
          train:
            batch_size: 2
            steps: 100
            optimizer: adamw8bit
            dtype: bf16
          model:
            name_or_path: some-org/some-model
            quantize: true
    """


def plan_of(cli, cwd, *args):
    res = cli("audit", "--emit-plan", "json", "--", "python", "run.py", *args, cwd=cwd)
    assert res.code in (0, 1), res.err
    return json.loads(res.out)


def test_lora_over_a_quantized_base(cli, tmp_path):
    write(tmp_path, {"run.py": RUN, "config/job.yaml": JOB})
    plan = plan_of(cli, tmp_path, "config/job.yaml")
    assert winner(plan, "model.ref") == "some-org/some-model"
    assert winner(plan, "batch.micro") == 2
    assert winner(plan, "batch.grad_accum") == 1  # the toolkit's default
    assert winner(plan, "memory.gradient_checkpointing") is True  # default True (config_modules.py:413)
    assert winner(plan, "optimizer.name") == "adamw8bit"
    assert winner(plan, "peft.method") == "lora" and winner(plan, "peft.rank") == 32
    assert winner(plan, "task.mode") == "qlora"
    assert winner(plan, "precision.weights_bits") == 8  # quantize: true, qtype default qfloat8
    assert winner(plan, "precision.mode") == "bf16"


def test_full_finetune_without_network_and_unquantized(cli, tmp_path):
    job = JOB.replace("          network:\n            type: lora\n            linear: 32\n"
                      "            linear_alpha: 32\n", "").replace("quantize: true", "dtype: bf16")
    job = job.replace("            batch_size: 2\n", "            gradient_checkpointing: false\n")
    write(tmp_path, {"run.py": RUN, "config/job.yaml": job})
    plan = plan_of(cli, tmp_path, "config/job.yaml")
    assert winner(plan, "peft.method") == "none" and winner(plan, "task.mode") == "finetune"
    assert winner(plan, "peft.rank") is None
    assert winner(plan, "precision.weights_bits") == 16
    assert winner(plan, "batch.micro") == 1  # the toolkit's default batch
    assert winner(plan, "memory.gradient_checkpointing") is False


def test_a_yaml_of_the_same_words_that_is_not_a_job_file_says_nothing(cli, tmp_path):
    # `config:`/`train:`/`model:` of another tool, no `job:` and no trainer process: not read as ai-toolkit
    other = "config:\n  train:\n    batch_size: 7\n    optimizer: adamw8bit\n  model:\n    name_or_path: x/y\n"
    write(tmp_path, {"run.py": RUN, "config/job.yaml": other})
    plan = plan_of(cli, tmp_path, "config/job.yaml")
    assert winner(plan, "batch.micro") != 7
    assert winner(plan, "optimizer.name") != "adamw8bit"
    assert winner(plan, "peft.method") is None
