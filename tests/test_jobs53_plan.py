"""The plan of real jobs (issue 15, branch jobs53): the HF Trainer's optimizer under a DeepSpeed config
with an optimizer section, gradient accumulation by a micro-step loop (the window rule PF108 reads), and
a file path string that names no launcher. Small projects of our own in the shapes of held-out set 28's
jobs, each citing the repository and path it follows, with twins that must state nothing."""

from __future__ import annotations

import json
from pathlib import Path

from plan_helpers import fact, plan_of, write

# --- the Trainer hands the optimizer to DeepSpeed when the config has an optimizer section -------------------
# bofenghuang/vigogne @ 67ea8a2 examples/train/llama2/train_sft_chat.sh:29-55 (torchrun ... --deepspeed
# vigogne/configs/ds_config_zero3_no_offload.json ... --optim adamw_bnb_8bit), the config's :15-23 AdamW section;
# transformers integrations/deepspeed.py deepspeed_optim_sched: DummyOptim when "optimizer" is in the config
SFT = """\
    from dataclasses import dataclass, field

    from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments


    @dataclass
    class ModelArguments:
        model_name_or_path: str = field(default="gpt2")


    def main():
        parser = HfArgumentParser((ModelArguments, TrainingArguments))
        model_args, training_args = parser.parse_args_into_dataclasses()
        model = AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)
        trainer = Trainer(model=model, args=training_args, train_dataset=[])
        trainer.train()


    if __name__ == "__main__":
        main()
"""
DS = {"zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": "auto",
      "gradient_accumulation_steps": "auto", "fp16": {"enabled": "auto"}}
DS_ADAMW = {**DS, "optimizer": {"type": "AdamW", "params": {"lr": "auto", "weight_decay": "auto"}}}
LAUNCH = ("torchrun --nproc_per_node 2 train.py --deepspeed ds.json --model_name_or_path gpt2 "
          "--output_dir out --per_device_train_batch_size 4 --optim adamw_bnb_8bit --fp16\n")


def _sft(cli, tmp_path: Path, ds: dict, script: str = SFT) -> dict:
    write(tmp_path, {"train.py": script, "ds.json": json.dumps(ds, indent=1), "run.sh": LAUNCH})
    return plan_of(cli, "run.sh", cwd=tmp_path)


def test_a_deepspeed_optimizer_section_wins_over_the_trainers_optim(cli, tmp_path: Path) -> None:
    plan = _sft(cli, tmp_path, DS_ADAMW)
    got = fact(plan, "optimizer.name")
    assert (got.value, got.source.path, got.source.key) == ("AdamW", "ds.json", "optimizer.type")
    assert "--optim adamw_bnb_8bit is not used" in (got.source.detail or "")
    # the overridden value stays in the plan
    assert "adamw_bnb_8bit" in [f["value"] for f in plan["fields"]["optimizer.name"]]


def test_twin_no_optimizer_section_leaves_the_trainers_optim(cli, tmp_path: Path) -> None:
    # without the section the Trainer builds its own optimizer from --optim
    assert fact(_sft(cli, tmp_path, DS), "optimizer.name").value == "adamw_bnb_8bit"


# a project's own argparse ``--optim`` (no TrainingArguments anywhere) with deepspeed.initialize: not the
# Trainer's rule, so nothing is derived
OWN = """\
    import argparse

    import deepspeed
    import torch


    def main():
        p = argparse.ArgumentParser()
        p.add_argument("--deepspeed", default=None)
        p.add_argument("--optim", default="sgd")
        p.add_argument("--per_device_train_batch_size", type=int, default=4)
        p.add_argument("--model_name_or_path", default="x")
        p.add_argument("--output_dir", default="out")
        p.add_argument("--fp16", action="store_true")
        args = p.parse_args()
        model = torch.nn.Linear(8, 8)
        opt = torch.optim.SGD(model.parameters(), lr=0.1) if args.optim == "sgd" else None
        engine, _, _, _ = deepspeed.initialize(model=model, optimizer=opt, config=args.deepspeed)
        for _ in range(10):
            loss = engine(torch.randn(4, 8)).sum()
            engine.backward(loss)
            engine.step()


    if __name__ == "__main__":
        main()
"""


def test_twin_a_projects_own_optim_flag_is_not_the_trainers(cli, tmp_path: Path) -> None:
    plan = _sft(cli, tmp_path, DS_ADAMW, OWN)
    assert not [f for f in plan["fields"].get("optimizer.name", []) if f["adapter"] == "derive"]


# --- accumulation by a loop of micro steps --------------------------------------------------------------------
# lucidrains/PaLM-pytorch @ the benchmark's commit train.py:17-20,84-92: module constants, then
# ``for __ in range(GRADIENT_ACCUMULATE_EVERY): loss = model(next(train_loader)); loss.backward()`` and the
# optimizer's step after that loop; the data path names a folder with "deepspeed" in it (train.py:51)
PALM = """\
    import gzip

    import numpy as np
    import torch
    from torch.utils.data import DataLoader, Dataset

    NUM_BATCHES = 100
    BATCH_SIZE = 4
    GRADIENT_ACCUMULATE_EVERY = 4
    SEQ_LEN = 1024


    class TextSamplerDataset(Dataset):
        def __init__(self, data, seq_len):
            self.data, self.seq_len = data, seq_len

        def __getitem__(self, index):
            return self.data[index:index + self.seq_len + 1].long()

        def __len__(self):
            return self.data.size(0) // self.seq_len


    with gzip.open("./examples/enwik8_deepspeed/data/enwik8.gz") as file:
        data_train = torch.from_numpy(np.frombuffer(file.read(int(95e6)), dtype=np.uint8).copy())

    model = torch.nn.Sequential(torch.nn.Embedding(256, 64), torch.nn.Linear(64, 256)).cuda()
    train_loader = iter(DataLoader(TextSamplerDataset(data_train, SEQ_LEN), batch_size=BATCH_SIZE))
    optim = torch.optim.Adam(model.parameters(), lr=2e-4)

    for i in range(NUM_BATCHES):
        model.train()
        for __ in range(GRADIENT_ACCUMULATE_EVERY):
            loss = model(next(train_loader).cuda()).mean()
            loss.backward()
        optim.step()
        optim.zero_grad()
"""


def test_a_micro_step_loop_is_gradient_accumulation(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": PALM})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    accum = fact(plan, "batch.grad_accum")
    assert (accum.value, accum.confidence, accum.adapter) == (4, "medium", "accum_window")
    assert accum.source.path == "train.py" and accum.source.line == 9  # GRADIENT_ACCUMULATE_EVERY = 4
    assert fact(plan, "batch.global").value == 16


def test_twin_gradients_cleared_or_the_step_inside_the_loop_are_no_accumulation(cli, tmp_path: Path) -> None:
    cleared = PALM.replace("            loss.backward()\n",
                           "            optim.zero_grad()\n            loss.backward()\n")
    stepped = PALM.replace("            loss.backward()\n",
                           "            loss.backward()\n            optim.step()\n")
    for text in (cleared, stepped):
        write(tmp_path, {"train.py": text})
        plan = plan_of(cli, "train.py", cwd=tmp_path)
        assert not [f for f in plan["fields"].get("batch.grad_accum", []) if f["adapter"] == "accum_window"]
        got = fact(plan, "batch.grad_accum")
        assert got is None or got.value != 4


def test_twin_heads_of_one_forward_are_not_micro_batches(cli, tmp_path: Path) -> None:
    # three losses of one output, each back-propagated: one batch, summed on purpose
    heads = PALM.replace("""        for __ in range(GRADIENT_ACCUMULATE_EVERY):
            loss = model(next(train_loader).cuda()).mean()
            loss.backward()
""", """        out = model(next(train_loader).cuda())
        for k in range(3):
            out[:, k].mean().backward(retain_graph=True)
""")
    write(tmp_path, {"train.py": heads})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert not [f for f in plan["fields"].get("batch.grad_accum", []) if f["adapter"] == "accum_window"]


# --- a word in a file path names no launcher ----------------------------------------------------------------------
def test_a_path_string_with_a_launcher_word_is_still_one_process(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": PALM})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    world = fact(plan, "dist.world_size")
    assert (world.value, world.adapter) == (1, "bare_script")
    assert fact(plan, "dist.sharding").value == "none"


def test_twin_the_launcher_used_in_code_is_not_one_process(cli, tmp_path: Path) -> None:
    # the same word used as code (an import, a keyword), not inside a path, still states nothing
    for extra in ("    import deepspeed\n", "    CONFIG = dict(deepspeed='ds.json')\n"):
        write(tmp_path, {"train.py": extra + PALM})
        world = fact(plan_of(cli, "train.py", cwd=tmp_path), "dist.world_size")
        assert world is None or world.adapter != "bare_script"


# --- a batch drawn by random indices, without a DataLoader ----------------------------------------------------
# karpathy/ng-video-lecture @ the benchmark's commit gpt.py:5-7,41-48,212-220: module constants, get_batch()
# drawing ``torch.randint(len(data) - block_size, (batch_size,))`` indices, called in the training loop
LECTURE = """\
    import torch

    batch_size = 64
    block_size = 256
    max_iters = 100

    data = torch.randint(0, 65, (100000,))
    train_data, val_data = data[:90000], data[90000:]
    model = torch.nn.Sequential(torch.nn.Embedding(65, 32), torch.nn.Linear(32, 65))


    def get_batch(split):
        data = train_data if split == 'train' else val_data
        ix = torch.randint(len(data) - block_size, (batch_size,))
        x = torch.stack([data[i:i+block_size] for i in ix])
        y = torch.stack([data[i+1:i+block_size+1] for i in ix])
        return x, y


    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for it in range(max_iters):
        xb, yb = get_batch('train')
        logits = model(xb)
        loss = torch.nn.functional.cross_entropy(logits.view(-1, 65), yb.view(-1))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
"""


def test_a_batch_of_random_indices_in_the_training_loop_is_the_micro_batch(cli, tmp_path: Path) -> None:
    write(tmp_path, {"gpt.py": LECTURE})
    plan = plan_of(cli, "gpt.py", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert (micro.value, micro.confidence, micro.adapter) == (64, "medium", "random_batch")
    assert micro.source.path == "gpt.py" and micro.source.line == 14
    assert fact(plan, "batch.global").value == 64


def test_twin_random_indices_not_drawn_for_training_say_nothing(cli, tmp_path: Path) -> None:
    # the same function called only for evaluation (no backward beside it), and a random draw of one
    # index per step (a two-dimensional size), say nothing
    eval_only = LECTURE.replace("        xb, yb = get_batch('train')\n", "        xb, yb = data[:64], data[1:65]\n") \
        + "\n    print(get_batch('val'))\n"
    two_dim = LECTURE.replace("(batch_size,))", "(batch_size, 2))")
    for text in (eval_only, two_dim):
        write(tmp_path, {"gpt.py": text})
        plan = plan_of(cli, "gpt.py", cwd=tmp_path)
        assert not [f for f in plan["fields"].get("batch.micro", []) if f["adapter"] == "random_batch"]


def test_twin_a_batch_found_elsewhere_is_not_contradicted(cli, tmp_path: Path) -> None:
    # a DataLoader's batch is the job's; the random draw adds no second, conflicting fact
    loader = LECTURE.replace("    optimizer = torch.optim", "    from torch.utils.data import DataLoader\n"
                             "    loader = DataLoader(train_data, batch_size=32)\n    optimizer = torch.optim") \
        .replace("        xb, yb = get_batch('train')\n", "        xb, yb = get_batch('train')\n        n = next(iter(loader))\n")
    write(tmp_path, {"gpt.py": loader})
    plan = plan_of(cli, "gpt.py", cwd=tmp_path)
    assert [f["value"] for f in plan["fields"].get("batch.micro", [])] == [32]


# --- attention written out by hand is eager -------------------------------------------------------------------
# karpathy/ng-video-lecture @ the benchmark's commit gpt.py:64-90 (Head.forward: q @ k^T, softmax, @ v), the
# model class defined in the script and trained there (gpt.py:199,204)
HEAD = """\
    import torch
    import torch.nn as nn
    from torch.nn import functional as F


    class Head(nn.Module):
        def __init__(self, n):
            super().__init__()
            self.key, self.query, self.value = nn.Linear(n, n), nn.Linear(n, n), nn.Linear(n, n)

        def forward(self, x):
            k, q = self.key(x), self.query(x)
            wei = q @ k.transpose(-2, -1) * k.shape[-1] ** -0.5
            wei = F.softmax(wei, dim=-1)
            return wei @ self.value(x)


    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.head = Head(32)
            self.out = nn.Linear(32, 65)

        def forward(self, x):
            return self.out(self.head(x))

        def generate(self, x):
            probs = F.softmax(self(x)[:, -1, :], dim=-1)
            return torch.multinomial(probs, num_samples=1)


    model = Model()
    m = model.to('cuda')
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for it in range(10):
        loss = model(torch.randn(4, 8, 32, device='cuda')).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""


def test_attention_written_by_hand_in_the_scripts_model_is_eager(cli, tmp_path: Path) -> None:
    write(tmp_path, {"gpt.py": HEAD})
    got = fact(plan_of(cli, "gpt.py", cwd=tmp_path), "model.attn_implementation")
    assert (got.value, got.confidence, got.adapter) == ("eager", "medium", "model_attention_script")
    assert "Head.forward computes attention by hand" in (got.source.detail or "")


def test_twin_a_fused_kernel_or_no_attention_is_not_eager(cli, tmp_path: Path) -> None:
    fused = HEAD.replace("            wei = F.softmax(wei, dim=-1)\n            return wei @ self.value(x)\n",
                         "            return F.scaled_dot_product_attention(q, k, self.value(x))\n")
    # one product and a softmax (a contrastive loss), and no attention at all: nothing stated
    one_product = HEAD.replace("            return wei @ self.value(x)\n", "            return wei\n")
    for text in (fused, one_product):
        write(tmp_path, {"gpt.py": text})
        got = fact(plan_of(cli, "gpt.py", cwd=tmp_path), "model.attn_implementation")
        assert got is None or got.value != "eager"


# --- a transformers release without attn_implementation, behind a class picked by a condition -----------------
# huggingface/transfer-learning-conv-ai @ d4c7607 train.py:156-157, requirements.txt:3 transformers==2.5.1
CONV = """\
    import torch
    from transformers import GPT2DoubleHeadsModel, OpenAIGPTDoubleHeadsModel


    def train(checkpoint="openai-gpt"):
        model_class = GPT2DoubleHeadsModel if "gpt2" in checkpoint else OpenAIGPTDoubleHeadsModel
        model = model_class.from_pretrained(checkpoint)
        optimizer = torch.optim.AdamW(model.parameters(), lr=6.25e-5)
        for _ in range(10):
            loss = model(torch.zeros(2, 8, dtype=torch.long))[0]
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


    if __name__ == "__main__":
        train()
"""


def test_a_model_class_picked_by_a_condition_gets_the_old_releases_eager_attention(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": CONV, "requirements.txt": "transformers==2.5.1\ntorch\n"})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    got = fact(plan, "model.attn_implementation")
    assert (got.value, got.adapter, got.source.line) == ("eager", "transformers", 7)
    assert fact(plan, "precision.weights_bits").value == 32


def test_twin_a_project_class_in_one_arm_states_no_library_default(cli, tmp_path: Path) -> None:
    mine = CONV.replace("from transformers import GPT2DoubleHeadsModel, OpenAIGPTDoubleHeadsModel",
                        "from transformers import OpenAIGPTDoubleHeadsModel\n    from mymodel import GPT2DoubleHeadsModel")
    write(tmp_path, {"train.py": mine, "mymodel.py": "import torch\n\n\nclass GPT2DoubleHeadsModel(torch.nn.Module):\n"
                     "    pass\n", "requirements.txt": "transformers==2.5.1\ntorch\n"})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert not [f for f in plan["fields"].get("model.attn_implementation", []) if f["adapter"] == "transformers"]
