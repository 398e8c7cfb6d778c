"""Switches the job never hands to what they switch (issue 15, set 38's wrong fields, in-sample):

- finetune-hf-vits: ``"fp16": true`` in the JSON its ``HfArgumentParser`` reads, only logged; its own
  ``Accelerator()`` gets no ``mixed_precision`` and no Trainer is built;
- IDM-VTON: ``torch.cuda.amp.autocast()`` inside ``torch.no_grad()`` around a validation pipeline;
- octopack: ``padding="max_length"`` in the ``else`` of ``if args.data_packing and is_train:``.

Each has a twin that keeps the fact: a Trainer that is handed the arguments, a flag the script
passes on, an autocast around the training forward, a branch without a packing arm.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path


def plan(cli, tmp_path: Path, files: dict[str, str], *argv: str) -> dict:
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text))
    res = cli("audit", "--emit-plan", "json", "--", *argv, cwd=tmp_path)
    assert res.code in (0, 1), res.out + res.err
    return json.loads(res.out)


def values(p: dict, field: str) -> list:
    return [f["value"] for f in p["fields"].get(field, [])]


BAG = """\
    from dataclasses import dataclass, field
    import sys
    import torch
    from accelerate import Accelerator
    from transformers import AutoModel, HfArgumentParser, TrainingArguments

    @dataclass
    class MyTrainingArguments(TrainingArguments):
        extra: bool = field(default=True)

    parser = HfArgumentParser((MyTrainingArguments,))
    (training_args,) = parser.parse_json_file(json_file=sys.argv[1])
    print(f"16-bits training: {training_args.fp16}")
    accelerator = Accelerator(gradient_accumulation_steps=training_args.gradient_accumulation_steps)
    model = AutoModel.from_pretrained("gpt2")
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    loader = torch.utils.data.DataLoader(list(range(10)), batch_size=training_args.per_device_train_batch_size)
    model, opt, loader = accelerator.prepare(model, opt, loader)
    for batch in loader:
        loss = model(batch).loss
        accelerator.backward(loss)
        opt.step()
        opt.zero_grad()
"""
CONFIG = '{"output_dir": "out", "per_device_train_batch_size": 16, "fp16": true}\n'


def test_fp16_that_an_own_accelerate_loop_only_logs_is_not_the_precision(cli, tmp_path):
    p = plan(cli, tmp_path, {"train.py": BAG, "cfg.json": CONFIG}, "accelerate", "launch", "train.py", "cfg.json")
    assert "amp_fp16" not in values(p, "precision.mode")
    assert 16 in values(p, "batch.micro")  # the other fields of the file are still read


def test_fp16_handed_on_or_to_a_trainer_stays_the_precision(cli, tmp_path):
    passed = BAG.replace("Accelerator(gradient_accumulation_steps",
                         "Accelerator(mixed_precision='fp16' if training_args.fp16 else 'no', "
                         "gradient_accumulation_steps")
    p = plan(cli, tmp_path, {"train.py": passed, "cfg.json": CONFIG}, "accelerate", "launch", "train.py", "cfg.json")
    assert "amp_fp16" in values(p, "precision.mode")
    used = BAG.replace("        loss = model(batch).loss\n",
                       "        with torch.autocast('cuda', enabled=training_args.fp16):\n"
                       "            loss = model(batch).loss\n")
    p = plan(cli, tmp_path, {"train.py": used, "cfg.json": CONFIG}, "accelerate", "launch", "train.py", "cfg.json")
    assert "amp_fp16" in values(p, "precision.mode")
    trainer = BAG.replace("    accelerator = Accelerator(", "    from transformers import Trainer\n"
                          "    Trainer(model=None, args=training_args)\n    accelerator = Accelerator(")
    p = plan(cli, tmp_path, {"train.py": trainer, "cfg.json": CONFIG}, "accelerate", "launch", "train.py", "cfg.json")
    assert "amp_fp16" in values(p, "precision.mode")


VALIDATE = """\
    import torch
    model = torch.nn.Linear(4, 4).cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    loader = torch.utils.data.DataLoader(list(range(10)), batch_size=8)
    for step, batch in enumerate(loader):
        if step % 100 == 0:
            with torch.no_grad():
                with torch.cuda.amp.autocast():
                    model(batch)
        loss = model(batch).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
"""


def test_an_autocast_under_no_grad_is_not_the_training_precision(cli, tmp_path):
    p = plan(cli, tmp_path, {"train.py": VALIDATE}, "python", "train.py")
    assert "amp_fp16" not in values(p, "precision.mode")
    decorated = VALIDATE.replace("        if step % 100 == 0:\n            with torch.no_grad():\n"
                                 "                with torch.cuda.amp.autocast():\n                    model(batch)\n",
                                 "        if step % 100 == 0:\n            validate(batch)\n")
    decorated = decorated.replace("    model = torch.nn", "    @torch.no_grad()\n    def validate(batch):\n"
                                  "        with torch.cuda.amp.autocast():\n            model(batch)\n\n"
                                  "    model = torch.nn")
    p = plan(cli, tmp_path, {"train.py": decorated}, "python", "train.py")
    assert "amp_fp16" not in values(p, "precision.mode")


def test_an_autocast_around_the_training_forward_still_counts(cli, tmp_path):
    trained = VALIDATE.replace("        loss = model(batch).sum()\n",
                               "        with torch.cuda.amp.autocast():\n            loss = model(batch).sum()\n")
    p = plan(cli, tmp_path, {"train.py": trained}, "python", "train.py")
    assert "amp_fp16" in values(p, "precision.mode")


PACKING = """\
    import argparse
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    p = argparse.ArgumentParser()
    p.add_argument("--max_input_length", type=int, default=512)
    p.add_argument("--data_packing", default=False, action="store_true")
    args = p.parse_args()
    tokenizer = AutoTokenizer.from_pretrained("gpt2")

    def preprocess(texts, args, is_train):
        if args.data_packing and is_train:
            out = tokenizer(texts, max_length=args.max_input_length, padding=False, truncation=True)
        else:
            out = tokenizer(texts, max_length=args.max_input_length, padding="max_length", truncation=True)
        return out

    model = AutoModelForCausalLM.from_pretrained("gpt2")
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    loader = torch.utils.data.DataLoader(list(range(10)), batch_size=2)
    for batch in loader:
        loss = model(batch).loss
        loss.backward()
        opt.step()
        opt.zero_grad()
"""


def test_padding_of_an_undecided_arm_whose_other_arm_packs_is_not_read(cli, tmp_path):
    p = plan(cli, tmp_path, {"train.py": PACKING}, "python", "train.py", "--data_packing")
    assert "max_length" not in values(p, "data.padding")
    assert 512 in values(p, "data.seq_len")


def test_padding_of_a_taken_branch_or_of_both_arms_is_read(cli, tmp_path):
    decided = PACKING.replace("if args.data_packing and is_train:", "if args.data_packing:")
    p = plan(cli, tmp_path, {"train.py": decided}, "python", "train.py")  # no --data_packing: the else runs
    assert "max_length" in values(p, "data.padding")
    both = PACKING.replace("padding=False", 'padding="max_length"')
    p = plan(cli, tmp_path, {"train.py": both}, "python", "train.py", "--data_packing")
    assert "max_length" in values(p, "data.padding")


FROZEN = """\
    import torch
    from accelerate import Accelerator
    from diffusers import AutoencoderKL
    accelerator = Accelerator(mixed_precision="no")
    vae = AutoencoderKL.from_pretrained("stabilityai/sd-vae-ft-ema", torch_dtype=torch.float16).to(accelerator.device)
    model = torch.nn.Linear(4, 4)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    loader = torch.utils.data.DataLoader(list(range(10)), batch_size=8)
    model, opt, loader = accelerator.prepare(model, opt, loader)
    for batch in loader:
        with torch.no_grad():
            latents = vae.encode(batch)
        loss = model(latents).sum()
        accelerator.backward(loss)
        opt.step()
        opt.zero_grad()
"""


def test_a_frozen_helper_loaded_in_fp16_is_not_the_training_precision(cli, tmp_path):
    """PixArt-sigma ``train_scripts/train.py:353``: ``vae = AutoencoderKL.from_pretrained(...,
    torch_dtype=torch.float16).to(accelerator.device)`` beside the prepared model."""
    p = plan(cli, tmp_path, {"train.py": FROZEN}, "accelerate", "launch", "train.py")
    assert "fp16" not in values(p, "precision.mode")
    trained = FROZEN.replace("model, opt, loader = accelerator.prepare(model, opt",
                             "vae, opt, loader = accelerator.prepare(vae, opt")
    trained = trained.replace("opt = torch.optim.AdamW(model.parameters()", "opt = torch.optim.AdamW(vae.parameters()")
    trained = trained.replace('Accelerator(mixed_precision="no")', "Accelerator()")
    p = plan(cli, tmp_path, {"train.py": trained}, "python", "train.py")
    assert "fp16" in values(p, "precision.mode")  # the loaded model is the trained one: its dtype counts
