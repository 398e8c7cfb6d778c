"""Behaviours of PF266-PF270 as a user sees them: the job audited the way it is launched (a batch script
in a sub-folder, a pinned requirements file), and the shapes the rules must not take for bugs (issue 18,
branch det50; programs written here)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def findings(cli, tmp_path: Path, *argv: str) -> list[tuple[str, str, int]]:
    result = cli(*argv, "--format", "json", "--no-cache", "--exit-zero", cwd=tmp_path)
    return [(f["code"], Path(f["path"]).name, f["line"]) for f in json.loads(result.out)["findings"]]


TRAIN = """\
    from dataclasses import dataclass, field

    import transformers


    @dataclass
    class ModelArguments:
        model_name_or_path: str = field(default="facebook/opt-125m")


    def train():
        parser = transformers.HfArgumentParser((ModelArguments, transformers.TrainingArguments))
        model_args, training_args = parser.parse_args_into_dataclasses()
        model = transformers.AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)
        transformers.Trainer(model=model, args=training_args).train()


    if __name__ == "__main__":
        train()
    """


def batch_job(tmp_path: Path, gres: str, precision: str) -> None:
    write(tmp_path, "src/train.py", TRAIN)
    write(tmp_path, "slurm/job.sbatch", f"""\
        #!/bin/bash
        #SBATCH --job-name=sft
        #SBATCH --nodes=1
        #SBATCH {gres}
        cd $SLURM_SUBMIT_DIR
        torchrun --nproc_per_node=4 src/train.py --output_dir out {precision}
        """)


def test_pf268_reports_the_gpu_directive_of_the_batch_script_the_job_is_launched_from(cli, tmp_path):
    batch_job(tmp_path, "--gres=gpu:v100:4", "--bf16 True")
    found = [f for f in findings(cli, tmp_path, "audit", "slurm/job.sbatch") if f[0] == "PF268"]
    assert found == [("PF268", "job.sbatch", 4)]


def test_pf268_stays_silent_for_fp16_on_v100_and_for_bf16_on_a100(cli, tmp_path):
    batch_job(tmp_path, "--gres=gpu:v100:4", "--fp16 True")
    assert not [f for f in findings(cli, tmp_path, "audit", "slurm/job.sbatch") if f[0] == "PF268"]
    batch_job(tmp_path, "--gpus-per-node=a100:4", "--bf16 True")
    assert not [f for f in findings(cli, tmp_path, "audit", "slurm/job.sbatch") if f[0] == "PF268"]


ARGS = """\
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


    def main(train_ds, eval_ds):
        model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B")
        args = TrainingArguments(output_dir="out", evaluation_strategy="steps", eval_steps=50)
        Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds).train()
    """


def test_pf267_follows_the_pin_of_the_repository_root_when_the_script_is_in_a_sub_folder(cli, tmp_path):
    write(tmp_path, "llm/train/train_lora.py", ARGS)
    write(tmp_path, "requirements.txt", "torch==2.4.0\ntransformers==4.52.4\npeft==0.15.2\n")
    found = [f for f in findings(cli, tmp_path, "audit", "llm/train/train_lora.py") if f[0] == "PF267"]
    assert found == [("PF267", "train_lora.py", 6)]


def test_pf267_stays_silent_on_the_release_the_script_was_written_for(cli, tmp_path):
    write(tmp_path, "llm/train/train_lora.py", ARGS)
    write(tmp_path, "requirements.txt", "transformers==4.38.2\n")
    assert not [f for f in findings(cli, tmp_path, "audit", "llm/train/train_lora.py") if f[0] == "PF267"]


LOOP = """\
    from datasets import load_dataset
    from torch.utils.data import DataLoader
    from transformers import AutoTokenizer, DataCollatorWithPadding

    tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
    raw = load_dataset("glue", "mrpc")
    tokenized = raw.map(lambda x: tokenizer(x["sentence1"], x["sentence2"], truncation=True), batched=True)
    {narrow}
    loader = DataLoader(tokenized["train"], batch_size=8, collate_fn=DataCollatorWithPadding(tokenizer))
    """


def test_pf266_set_format_without_columns_keeps_the_strings(cli, tmp_path):
    # a public script with its remove_columns line commented out and set_format("torch") left in
    write(tmp_path, "train.py", LOOP.format(narrow='tokenized.set_format("torch")'))
    assert ("PF266", "train.py", 7) in findings(cli, tmp_path, "check", "train.py")


def test_pf266_silent_once_the_columns_are_narrowed(cli, tmp_path):
    write(tmp_path, "train.py", LOOP.format(
        narrow='tokenized.set_format("torch", columns=["input_ids", "attention_mask", "label"])'))
    assert not [f for f in findings(cli, tmp_path, "check", "train.py") if f[0] == "PF266"]


def test_pf269_silent_when_the_name_is_also_bound_to_something_else(cli, tmp_path):
    # `extra` is a list here but a parameter elsewhere in the file: its type is not known
    write(tmp_path, "train.py", """\
        extra = ["score"]


        def build(config_cls, extra):
            return config_cls(target_modules=["q_proj"], modules_to_save=extra.append("head"))
        """)
    assert not [f for f in findings(cli, tmp_path, "check", "train.py") if f[0] == "PF269"]
