"""Set 33 (issue 15) shapes read wrong or not at all, rebuilt from the real code.

- An unquoted ``$((...))`` in a launch line or in a variable spread on it is one word
  (WisdomShell/codeshell @ 09d1adc ``finetune/run_finetune.sh:17-19``:
  ``deepspeed_args="--master_port=$((10000 + RANDOM % 20000))"`` then ``deepspeed ${deepspeed_args}
  finetune.py ...``; the reader split the expression and took ``+`` as the script, exit 3);
  NVIDIA/Megatron-LM ``examples/post_training/modelopt/conf/arguments.sh:86`` holds the same shape.
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write
from preflight.adapters.shell import read_shell
from preflight.adapters.shell_lex import shell_words, split_value

HF_TRAIN = """\
    from dataclasses import dataclass, field
    import transformers

    @dataclass
    class ModelArguments:
        model_name_or_path: str = field(default="gpt2")

    parser = transformers.HfArgumentParser((ModelArguments, transformers.TrainingArguments))
    model_args, training_args = parser.parse_args_into_dataclasses()
    model = transformers.AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)
    trainer = transformers.Trainer(model=model, args=training_args)
    trainer.train()
"""

DS = """\
    {"zero_optimization": {"stage": 3}, "bf16": {"enabled": "auto"},
     "train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto"}
"""

CODESHELL = """\
    #!/bin/bash
    project_dir=$(cd "$(dirname $0)"; pwd)
    model=$1
    deepspeed_args="--master_port=$((10000 + RANDOM % 20000))"      # Default argument

    deepspeed ${deepspeed_args} ${project_dir}/train.py \\
        --deepspeed ${project_dir}/ds.json \\
        --model_name_or_path ${model} \\
        --output_dir out \\
        --per_device_train_batch_size 1 \\
        --gradient_accumulation_steps 8 \\
        --bf16 \\
        | tee log/train.log \\
        2> log/train.err
"""


def test_arithmetic_expansion_is_one_word() -> None:
    assert shell_words("deepspeed --master_port=$((10000 + RANDOM % 20000)) x.py") == [
        "deepspeed", "--master_port=$((10000 + RANDOM % 20000))", "x.py"]
    assert shell_words("torchrun --master_port $(( 10000 + (RANDOM % 9) )) x.py --a 'b c'") == [
        "torchrun", "--master_port", "$(( 10000 + (RANDOM % 9) ))", "x.py", "--a", "b c"]
    # inside single quotes nothing expands: the quotes decide the words, as before
    assert shell_words("echo '$((1 + 2))' x") == ["echo", "$((1 + 2))", "x"]
    assert split_value("--master_port=$((10000 + RANDOM % 20000)) --include=localhost:0,1") == [
        "--master_port=$((10000 + RANDOM % 20000))", "--include=localhost:0,1"]
    assert split_value("--a 1  --b 2") == ["--a", "1", "--b", "2"]


def test_variable_holding_arithmetic_on_the_launch_line_keeps_the_script() -> None:
    text = ('deepspeed_args="--master_port=$((10000 + RANDOM % 20000))"\n'
            "deepspeed ${deepspeed_args} finetune.py --per_device_train_batch_size 1 | tee log 2> err\n")
    (line,) = read_shell(text, "run.sh").launches
    assert line.info.launcher == "deepspeed"
    assert line.info.script == "finetune.py"
    assert line.info.script_args == ["--per_device_train_batch_size", "1"]


def test_megatron_launch_held_in_a_variable_with_unknown_arithmetic() -> None:
    text = 'LAUNCH_SCRIPT="torchrun --nproc_per_node=$((ETP * EP * PP))"\n${LAUNCH_SCRIPT} train.py --x 1\n'
    (line,) = read_shell(text, "run.sh").launches
    assert line.info.launcher == "torchrun"
    assert line.info.script == "train.py"
    assert line.info.procs_per_node is None  # the names are not known: not guessed
    assert any("not known statically" in n for n in line.info.notes)


def test_twin_known_arithmetic_is_still_evaluated() -> None:
    text = "N=2\nG=4\ntorchrun --nproc_per_node $((N * G)) train.py\n"
    (line,) = read_shell(text, "run.sh").launches
    assert (line.info.procs_per_node, line.info.script) == (8, "train.py")


def test_codeshell_launch_script_gives_the_plan(cli, tmp_path) -> None:
    write(tmp_path, {"train.py": HF_TRAIN, "ds.json": DS, "run.sh": CODESHELL})
    plan = plan_of(cli, "run.sh", "--", "WisdomShell/CodeShell-7B", cwd=tmp_path)
    assert fact(plan, "model.ref").value == "WisdomShell/CodeShell-7B"
    assert fact(plan, "dist.sharding").value == "zero3"
    assert fact(plan, "batch.micro").value == 1
    assert fact(plan, "batch.grad_accum").value == 8
