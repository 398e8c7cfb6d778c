"""Rules written while reading the pytorch/accelerate/transformers misses of held-out-26..29 (issue 18, branch
det68; those sets are in-sample for these). The rules' own examples are pinned by the meta-tests; these run the
CLI the way a user does, with a launch script and a requirements file (projects written here)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def audit(cli, tmp_path: Path, code: str, *args: str) -> list[tuple[str, int, str]]:
    result = cli("audit", *args, "--select", code, "--format", "json", "--no-cache", "--exit-zero", cwd=tmp_path)
    return sorted((f["path"], f["line"], f["message"]) for f in json.loads(result.out)["findings"]
                  if f["code"] == code)


FSDP_TRAIN = """\
    import bitsandbytes as bnb
    from accelerate import Accelerator
    from transformers import AutoModelForCausalLM

    accelerator = Accelerator()
    model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf")
    optimizer = bnb.optim.AdamW(model.parameters(), lr=2e-5, optim_bits=8, is_paged=True)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        accelerator.backward(model(**batch).loss)
        optimizer.step()
        optimizer.zero_grad()
    """


@pytest.mark.parametrize("pin, distributed, flagged", [
    ("0.21.0", "FSDP", True), ("0.24.1", "FSDP", True), ("0.25.0", "FSDP", False), ("0.21.0", "MULTI_GPU", False)])
def test_pf358_the_8bit_optimizer_rebuilt_by_fsdp_prepare(cli, tmp_path, pin, distributed, flagged):
    # accelerate issue 1902: 0.12-0.24 rebuild the optimizer from `defaults` under FSDP
    write(tmp_path, "train.py", FSDP_TRAIN)
    write(tmp_path, "fsdp.yaml", f"distributed_type: {distributed}\nnum_processes: 2\nmixed_precision: bf16\n")
    write(tmp_path, "requirements.txt", f"accelerate=={pin}\nbitsandbytes==0.41.1\n")
    write(tmp_path, "launch.sh", "#!/bin/bash\naccelerate launch --config_file fsdp.yaml train.py\n")
    found = audit(cli, tmp_path, "PF358", "launch.sh")
    assert [(p, line) for p, line, _ in found] == ([("train.py", 7)] if flagged else [])
    if flagged:
        assert f"accelerate {pin} (pinned" in found[0][2] and "`optim_bits`, `is_paged`" in found[0][2]


def test_pf358_is_silent_without_a_pin_and_when_the_model_is_prepared_first(cli, tmp_path):
    write(tmp_path, "fsdp.yaml", "distributed_type: FSDP\nnum_processes: 2\n")
    write(tmp_path, "launch.sh", "#!/bin/bash\naccelerate launch --config_file fsdp.yaml train.py\n")
    write(tmp_path, "train.py", FSDP_TRAIN)
    assert audit(cli, tmp_path, "PF358", "launch.sh") == []  # no accelerate pin: today's releases do not rebuild
    write(tmp_path, "requirements.txt", "accelerate==0.21.0\n")
    fixed = FSDP_TRAIN.replace(
        "    optimizer = bnb.optim.AdamW(model.parameters(), lr=2e-5, optim_bits=8, is_paged=True)\n"
        "    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)\n",
        "    model = accelerator.prepare(model)\n"
        "    optimizer = bnb.optim.AdamW(model.parameters(), lr=2e-5, optim_bits=8, is_paged=True)\n"
        "    optimizer, loader = accelerator.prepare(optimizer, loader)\n")
    assert fixed != FSDP_TRAIN
    write(tmp_path, "train.py", fixed)
    assert audit(cli, tmp_path, "PF358", "launch.sh") == []


RESUME = """\
    import torch
    from accelerate import Accelerator
    from torch.utils.data import DataLoader

    accelerator = Accelerator()
    train_dl = DataLoader(dataset, batch_size=16, shuffle=True)
    model, optimizer, train_dl = accelerator.prepare(model, optimizer, train_dl)
    accelerator.load_state("checkpoints/last")
    loader = accelerator.skip_first_batches(train_dl, resume_step)
    for batch in loader:
        accelerator.backward(model(batch))
        optimizer.step()
        optimizer.zero_grad()
    """


def test_pf359_a_mid_epoch_resume_on_a_shuffled_loader(cli, tmp_path):
    # accelerate issue 2823: load_state restores the mid-epoch RNG, skip_first_batches skips another order
    write(tmp_path, "train.py", RESUME)
    write(tmp_path, "launch.sh", "#!/bin/bash\naccelerate launch --num_processes 2 train.py\n")
    found = audit(cli, tmp_path, "PF359", "launch.sh")
    assert [(p, line) for p, line, _ in found] == [("train.py", 9)]
    assert "`train_dl` shuffles (line 6)" in found[0][2] and "(line 8)" in found[0][2]


@pytest.mark.parametrize("change", [
    ("shuffle=True", "shuffle=False"),
    ("Accelerator()", "Accelerator(dataloader_config=DataLoaderConfiguration(use_seedable_sampler=True))"),
    ('accelerator.load_state("checkpoints/last")\n', ""),
])
def test_pf359_silent_without_shuffle_with_a_seedable_sampler_or_without_load_state(cli, tmp_path, change):
    changed = RESUME.replace(*change)
    assert changed != RESUME
    write(tmp_path, "train.py", changed)
    write(tmp_path, "launch.sh", "#!/bin/bash\naccelerate launch --num_processes 2 train.py\n")
    assert audit(cli, tmp_path, "PF359", "launch.sh") == []


FP16_SEG = """\
    import torch
    from accelerate import Accelerator
    from torch import nn

    accelerator = Accelerator(fp16=True)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    criterion = nn.CrossEntropyLoss()
    for images, labels in loader:
        outputs = model(images)["out"]
        loss = criterion(outputs, labels)
        accelerator.backward(loss)
        optimizer.step()
    """


@pytest.mark.parametrize("pin, cast, flagged", [("0.3.0", "", True), ("0.4.0", "", False),
                                                ("0.3.0", ".float()", False)])
def test_pf360_fp16_loss_outside_the_model_before_0_4(cli, tmp_path, pin, cast, flagged):
    # accelerate issue 101: before 0.4 the prepared model returned fp16 outputs; the loss ran in fp16
    write(tmp_path, "main.py", FP16_SEG.replace('["out"]', '["out"]' + cast))
    write(tmp_path, "requirements.txt", f"accelerate=={pin}\n")
    write(tmp_path, "launch.sh", "#!/bin/bash\naccelerate launch main.py\n")
    found = audit(cli, tmp_path, "PF360", "launch.sh")
    assert [(p, line) for p, line, _ in found] == ([("main.py", 10)] if flagged else [])
    if flagged:
        assert "accelerate 0.3.0 (pinned" in found[0][2] and "issue 101" in found[0][2]


MID_EVAL = """\
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, optimizer, train_dl, eval_dl = accelerator.prepare(model, optimizer, train_dl, eval_dl)
    for step, batch in enumerate(train_dl):
        with accelerator.accumulate(model):
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
        if step % 100 == 0:
            for eval_batch in eval_dl:
                model(**eval_batch)
    """


@pytest.mark.parametrize("pin, flagged", [("0.15.0", True), ("0.16.0", True), ("0.17.0", False), ("0.11.0", False)])
def test_pf360_mid_epoch_evaluation_leaves_the_gradient_state_at_the_end(cli, tmp_path, pin, flagged):
    # accelerate issue 960 / PR 1162 (0.17.0): accumulate() syncs on every step after the inner pass
    write(tmp_path, "train.py", MID_EVAL)
    write(tmp_path, "requirements.txt", f"accelerate=={pin}\n")
    write(tmp_path, "launch.sh", "#!/bin/bash\naccelerate launch --multi_gpu train.py\n")
    found = audit(cli, tmp_path, "PF360", "launch.sh")
    assert [(p, line) for p, line, _ in found] == ([("train.py", 6)] if flagged else [])
    if flagged:
        assert "`accumulate` syncs and steps on every batch" in found[0][2] and "(line 11)" in found[0][2]


CLS_DS = """\
    from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments

    model = AutoModelForSequenceClassification.from_pretrained("roberta-large", num_labels=2)
    args = TrainingArguments(output_dir="out", gradient_accumulation_steps=8, deepspeed="ds.json")
    Trainer(model=model, args=args, train_dataset=train).train()
    """


@pytest.mark.parametrize("pin, flagged", [("4.48.0", True), ("4.48.3", True), ("4.47.1", False), ("4.49.0", False)])
def test_pf361_deepspeed_accumulation_divided_twice_on_4_48(cli, tmp_path, pin, flagged):
    # transformers PR 35808 (4.49.0); the Trainer-side division read in the 4.47.0/4.48.3 wheels
    write(tmp_path, "train.py", CLS_DS)
    write(tmp_path, "ds.json", '{"zero_optimization": {"stage": 2}, "gradient_accumulation_steps": "auto",'
                               ' "gradient_clipping": "auto"}\n')
    write(tmp_path, "requirements.txt", f"transformers=={pin}\n")
    write(tmp_path, "launch.sh", "#!/bin/bash\ndeepspeed --num_gpus 2 train.py\n")
    found = audit(cli, tmp_path, "PF361", "launch.sh")
    assert [(p, line) for p, line, _ in found] == ([("train.py", 4)] if flagged else [])
    if flagged:
        assert "gradients are 64x smaller instead of 8x" in found[0][2]


def test_pf361_a_causal_lm_head_is_not_divided_by_the_trainer(cli, tmp_path):
    write(tmp_path, "train.py", CLS_DS.replace("AutoModelForSequenceClassification", "AutoModelForCausalLM")
          .replace(", num_labels=2", ""))
    write(tmp_path, "requirements.txt", "transformers==4.48.0\n")
    write(tmp_path, "launch.sh", "#!/bin/bash\ndeepspeed --num_gpus 2 train.py\n")
    assert audit(cli, tmp_path, "PF361", "launch.sh") == []


@pytest.mark.parametrize("padding, pin, model, flagged", [
    ('padding="max_length", max_length=512', "4.40.2", "AutoModelForCausalLM", True),
    ('padding="max_length", max_length=512', "4.41.0", "AutoModelForCausalLM", False),
    ("padding=True", "4.40.2", "AutoModelForCausalLM", False),
    ('padding="max_length", max_length=512', "4.40.2", "AutoModelForSeq2SeqLM", False),
])
def test_pf361_seq2seq_collator_labels_short_of_max_length(cli, tmp_path, padding, pin, model, flagged):
    # transformers issue 30521: before 4.41 the labels are padded to the longest label only
    write(tmp_path, "sft.py", f"""\
        from transformers import {model}, DataCollatorForSeq2Seq, Trainer, TrainingArguments

        model = {model}.from_pretrained("Qwen/Qwen1.5-0.5B")
        collator = DataCollatorForSeq2Seq(tokenizer, {padding})
        Trainer(model=model, args=TrainingArguments("out"), train_dataset=data, data_collator=collator).train()
        """)
    write(tmp_path, "requirements.txt", f"transformers=={pin}\n")
    write(tmp_path, "launch.sh", "#!/bin/bash\npython sft.py\n")
    found = audit(cli, tmp_path, "PF361", "launch.sh")
    assert [(p, line) for p, line, _ in found] == ([("sft.py", 4)] if flagged else [])


HOUSING = """\
    import numpy as np
    import torch
    from torch.utils.data import Dataset


    class HousingPrices(Dataset):
        def __init__(self, path):
            data = np.loadtxt(path, delimiter=",", dtype=np.float32)
            x, y = data[:, :-1], data[:, -1]
            self.x, self.y = torch.from_numpy(x), torch.from_numpy(y)

        def __len__(self):
            return len(self.y)

        def __getitem__(self, i):
            return self.x[i], self.y[i]
    """

REGRESS = """\
    import torch
    from torch import nn
    from torch.utils.data import DataLoader

    from housing import HousingPrices

    train_loader = DataLoader(HousingPrices("train.csv"), batch_size=64, shuffle=True)
    model = nn.Sequential(nn.Linear(13, 64), nn.ReLU(), nn.Linear(64, 1))
    criterion = nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters())
    for x, y in train_loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
    """


@pytest.mark.parametrize("change, flagged", [
    (None, True),
    (("criterion(model(x), y)", "criterion(model(x).squeeze(-1), y)"), False),
    (("criterion(model(x), y)", "criterion(model(x), y.unsqueeze(-1))"), False),
    (("nn.Linear(64, 1))", "nn.Linear(64, 2))"), False),
])
def test_pf362_n_by_1_predictions_against_n_targets(cli, tmp_path, change, flagged):
    # pytorch issue 16045: MSELoss broadcasts [n, 1] against [n] to [n, n]; the dataset lives in another file
    write(tmp_path, "housing.py", HOUSING)
    write(tmp_path, "train.py", REGRESS if change is None else REGRESS.replace(*change))
    write(tmp_path, "launch.sh", "#!/bin/bash\npython train.py\n")
    found = audit(cli, tmp_path, "PF362", "launch.sh", "housing.py")
    assert [(p, line) for p, line, _ in found] == ([("train.py", 13)] if flagged else [])
    if flagged:
        assert "`nn.Linear(64, 1)` (output [batch, 1])" in found[0][2] and "`HousingPrices`" in found[0][2]


def test_pf362_a_two_dimensional_target_column_is_silent(cli, tmp_path):
    write(tmp_path, "housing.py", HOUSING.replace("data[:, -1]", "data[:, -1:]"))
    write(tmp_path, "train.py", REGRESS)
    write(tmp_path, "launch.sh", "#!/bin/bash\npython train.py\n")
    assert audit(cli, tmp_path, "PF362", "launch.sh", "housing.py") == []


WEIGHTED_SFT = """\
    import torch
    from transformers import TrainingArguments
    from trl import SFTTrainer


    class WeightedCollator:
        def __call__(self, examples):
            batch = pad([e["input_ids"] for e in examples])
            batch["weight"] = torch.tensor([e["weight"] for e in examples])
            return batch


    args = TrainingArguments(output_dir="out", remove_unused_columns=False)
    trainer = SFTTrainer(model=model, args=args, train_dataset=dataset, dataset_text_field="text",
                         data_collator=WeightedCollator())
    trainer.train()
    """


@pytest.mark.parametrize("pin, remove, flagged", [
    ("0.7.7", "remove_unused_columns=False", True), ("0.7.8", "remove_unused_columns=False", False),
    ("0.9.6", "remove_unused_columns=True", True), ("0.12.0", "remove_unused_columns=True", False)])
def test_pf363_sft_trainer_removes_the_column_the_collator_reads(cli, tmp_path, pin, remove, flagged):
    # trl issue 1186; _prepare_non_packed_dataloader read at v0.7.7/v0.7.8/v0.9.6/v0.10.1
    write(tmp_path, "sft.py", WEIGHTED_SFT.replace("remove_unused_columns=False", remove))
    write(tmp_path, "requirements.txt", f"trl=={pin}\n")
    write(tmp_path, "launch.sh", "#!/bin/bash\naccelerate launch sft.py\n")
    found = audit(cli, tmp_path, "PF363", "launch.sh")
    assert [(p, line) for p, line, _ in found] == ([("sft.py", 14)] if flagged else [])
    if flagged:
        assert "reads the column `weight`" in found[0][2] and f"trl {pin} (pinned" in found[0][2]
