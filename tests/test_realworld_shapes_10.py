"""Precision fixes of the tenth round (issue 15): values that were wrong at medium on the ninth
held-out set, reproduced in minimal fixtures of our own, each citing the repository, path and
commit it copies the shape of, each with a silent twin."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

# volcengine/verl @ b178a3cd56f58b2d502255daba591e92833930a7: verl/trainer/fsdp_sft_trainer.py:276-284
# (lora_config = {"task_type": ..., "r": self.config.model.lora_rank, ...}; LoraConfig(**lora_config)).
VERL = """\
    import argparse
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    parser = argparse.ArgumentParser()
    parser.add_argument("--lora_rank", type=int, default=16)
    args = parser.parse_args()
    model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B-Instruct")
    lora_config = {"task_type": "CAUSAL_LM", "r": RANK, "lora_alpha": 16, "bias": "none"}
    model = get_peft_model(model, LoraConfig(**lora_config))
    opt = torch.optim.AdamW(model.parameters())
    for batch in range(3):
        model(batch).loss.backward()
        opt.step()
"""


def test_lora_rank_read_from_the_splatted_dict(cli, tmp_path):
    write(tmp_path, {"train.py": VERL.replace("RANK", "args.lora_rank")})
    plan = plan_of(cli, "train.py", "--", "--lora_rank", "32", cwd=tmp_path)
    rank = fact(plan, "peft.rank")
    assert rank.value == 32 and rank.source.kind == "cli"


def test_lora_rank_of_an_unknown_value_in_the_dict_is_not_the_default(cli, tmp_path):
    write(tmp_path, {"train.py": VERL.replace("RANK", "compute_rank()")})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "peft.rank") is None  # before: 8, "LoraConfig default r=8"


def test_lora_dict_without_r_takes_the_default(cli, tmp_path):
    write(tmp_path, {"train.py": VERL.replace('"r": RANK, ', "")})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "peft.rank").value == 8


# huggingface/parler-tts @ d108732cd57788ec86bc857d99a6cabd66663d68:
# training/run_parler_tts_training.py:90-98,116 (mixed_precision chosen in an if/elif chain on
# training_args.dtype, passed to Accelerator(mixed_precision=mixed_precision)), :489-497 (a
# pre-processing loader, prepared, iterated under torch.no_grad), :997-1045 (the training loader
# built in the epoch loop, iter() then next(), accelerator.backward(loss)).
PARLER = """\
    import argparse
    import torch
    from accelerate import Accelerator
    from torch.utils.data import DataLoader

    parser = argparse.ArgumentParser()
    parser.add_argument("--dtype", default="float32")
    parser.add_argument("--audio_encoder_per_device_batch_size", type=int, default=24)
    parser.add_argument("--per_device_train_batch_size", type=int, default=6)
    args = parser.parse_args()
    if args.dtype == "float16":
        mixed_precision = "fp16"
    elif args.dtype == "bfloat16":
        mixed_precision = "bf16"
    else:
        mixed_precision = "no"
    accelerator = Accelerator(mixed_precision=mixed_precision)
    model = torch.nn.Linear(4, 4)
    optimizer = torch.optim.AdamW(model.parameters())
    model, optimizer = accelerator.prepare(model, optimizer)

    data_loader = DataLoader([], batch_size=args.audio_encoder_per_device_batch_size)
    data_loader = accelerator.prepare(data_loader)
    for batch in data_loader:
        with torch.no_grad():
            codes = model(batch)

    for epoch in range(3):
        train_dataloader = DataLoader([], batch_size=args.per_device_train_batch_size)
        train_dataloader = accelerator.prepare(train_dataloader)
        train_iterator = iter(train_dataloader)
        for _ in range(10):
            batch = next(train_iterator)
            loss = model(batch).sum()
            accelerator.backward(loss)
            optimizer.step()
"""


def test_the_loader_that_trains_gives_the_micro_batch(cli, tmp_path):
    write(tmp_path, {"train.py": PARLER})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro.value == 6  # not the pre-processing loader's 24
    assert micro.source.key == "--per_device_train_batch_size"


def test_one_loop_over_both_loaders_keeps_both(cli, tmp_path):
    # the twin: both loaders feed the loop with the backward: nothing tells them apart
    text = PARLER.replace("batch = next(train_iterator)", "batch = next(train_iterator) + next(iter(data_loader))")
    write(tmp_path, {"train.py": text})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert {f.value for f in _facts(plan, "batch.micro")} >= {6, 24}


def _facts(plan: dict, field: str):
    from preflight.plan import TrainingPlan

    return TrainingPlan.from_dict(plan).facts(field)


def test_precision_chosen_in_an_if_elif_chain(cli, tmp_path):
    write(tmp_path, {"train.py": PARLER})
    assert fact(plan_of(cli, "train.py", "--", "--dtype", "bfloat16", cwd=tmp_path), "precision.mode").value \
        == "amp_bf16"
    assert fact(plan_of(cli, "train.py", "--", "--dtype", "float16", cwd=tmp_path), "precision.mode").value \
        == "amp_fp16"
    assert fact(plan_of(cli, "train.py", cwd=tmp_path), "precision.mode").value == "fp32"


def test_precision_chain_on_an_unknown_value_stays_unknown(cli, tmp_path):
    write(tmp_path, {"train.py": PARLER.replace("if args.dtype ==", "if os.environ['DTYPE'] ==")})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert not any(f.adapter == "accelerate" and "mixed_precision" in (f.source.detail or "")
                   for f in _facts(plan, "precision.mode"))


# salesforce/BLIP @ 056a169437371659074aa2732649d5de3bffb4a8: train_caption.py:30-50 (the loop
# calls optimizer.zero_grad(); loss.backward(); optimizer.step() on every batch).
EVERY_BATCH = """\
    import torch
    from torch.utils.data import DataLoader

    def train(model, data_loader, optimizer):
        model.train()
        for i, (image, caption) in enumerate(data_loader):
            loss = model(image, caption)
            optimizer.zero_grad()
            loss.backward()
            STEP

    model = torch.nn.Linear(4, 4)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    train(model, DataLoader([], batch_size=32), optimizer)
"""


def test_step_on_every_batch_is_no_accumulation(cli, tmp_path):
    write(tmp_path, {"train.py": EVERY_BATCH.replace("STEP", "optimizer.step()")})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    accum = fact(plan, "batch.grad_accum")
    assert accum.value == 1 and accum.confidence == "medium"
    assert (accum.source.path, accum.source.line) == ("train.py", 10)


def test_conditional_step_says_nothing(cli, tmp_path):
    step = "if (i + 1) % 4 == 0:\n                optimizer.step()"
    write(tmp_path, {"train.py": EVERY_BATCH.replace("STEP", step)})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "batch.grad_accum") is None


def test_step_through_a_scaler_on_every_batch_is_no_accumulation(cli, tmp_path):
    # scaler.step(optimizer) on every batch (jobs11: the AMP scaler's step is the optimizer's step,
    # jaywalnut310/vits train.py:176,193): one step per batch, no accumulation
    write(tmp_path, {"train.py": EVERY_BATCH.replace("STEP", "scaler.step(optimizer)")})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "batch.grad_accum").value == 1


# huggingface/parler-tts @ d108732cd57788ec86bc857d99a6cabd66663d68: parler_tts/modeling_parler_tts.py:681
# ("# In PEFT, usually we cast the layer norms in float32 ..."): a comment names nothing the job runs.
LOOP = """\
    import torch
    from model import Net

    model = Net()
    optimizer = torch.optim.AdamW(model.parameters())
    for x in range(10):
        loss = model(x)
        loss.backward()
        optimizer.step()
"""


def test_peft_in_a_comment_is_no_peft(cli, tmp_path):
    write(tmp_path, {"train.py": LOOP, "model.py": "import torch\n\nclass Net(torch.nn.Module):\n"
                     "    # In PEFT, usually we cast the layer norms in float32\n    pass\n"})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "peft.method").value == "none"


def test_peft_in_code_claims_nothing(cli, tmp_path):
    write(tmp_path, {"train.py": LOOP, "model.py": "import torch\nfrom peft import LoraConfig  # in PEFT\n\n"
                     "class Net(torch.nn.Module):\n    pass\n"})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "peft.method") is None
