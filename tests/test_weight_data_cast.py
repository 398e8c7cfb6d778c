"""Weights cast to 16 bits in place through ``.data`` with no autocast (adapters/weight_data_cast.py),
and gradient accumulation as a ``range(K)`` micro-step loop (adapters/micro_loop.py). A project of our own
copying the shape of KellerJordan/modded-nanogpt @ f411b3d46aa52d3504324ca93c230fd84c6c07f
``train_gpt.py:54-57,2242-2254,2357-2364`` (run.sh: ``torchrun --standalone --nproc_per_node=8 train_gpt.py``)."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

SPEEDRUN = """\
    import os
    import torch
    import torch.distributed as dist
    from torch import nn

    rank = int(os.environ["RANK"])
    world_size = int(os.environ["WORLD_SIZE"])
    grad_accum_steps = 8 // world_size
    dist.init_process_group(backend="nccl")


    class GPT(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(50304, 768)
            self.qk_bank = nn.Parameter(torch.empty(12, 768, 768))
            self.head = nn.Linear(768, 50304)

        def forward(self, x, y):
            return nn.functional.cross_entropy(self.head(self.embed(x)).flatten(0, 1), y.flatten())


    model = GPT().cuda()
    for m in model.modules():
        if isinstance(m, (nn.Embedding, nn.Linear)):
            m.weight.data = m.weight.data.bfloat16()
    model.qk_bank.data = model.qk_bank.data.bfloat16()
    manager = Manager(model)
    model = torch.compile(model)

    for step in range(1000):
        for idx in range(grad_accum_steps):
            x, y = next(loader)
            loss = model(x, y)
            loss.backward()
        manager.step_optimizers(step)
"""


def test_in_place_bf16_weights_and_micro_loop(cli, tmp_path):
    write(tmp_path, {"train_gpt.py": SPEEDRUN})
    plan = plan_of(cli, "train_gpt.py", "--", "torchrun", "--standalone", "--nproc_per_node=4", "train_gpt.py",
                   cwd=tmp_path)
    mode = fact(plan, "precision.mode")
    assert mode.value == "bf16" and mode.source.line == 26 and "in place" in (mode.source.detail or "")
    accum = fact(plan, "batch.grad_accum")
    assert accum.value == 2 and accum.source.line == 32  # 8 // 4 processes


def test_cast_of_what_is_not_the_model_and_stepping_loop_say_nothing_new(cli, tmp_path):
    """Silent twin: the ``.data`` cast is of an input batch, and the ``range`` loop steps the optimizer
    on every pass (no accumulation): fp32 as before, no micro-step count."""
    text = SPEEDRUN.replace("m.weight.data = m.weight.data.bfloat16()", "pass").replace(
        "model.qk_bank.data = model.qk_bank.data.bfloat16()", "batch = torch.zeros(4)\n    batch.data = batch.data.bfloat16()"
    ).replace("            loss.backward()\n", "            loss.backward()\n            opt.step()\n")
    write(tmp_path, {"train_gpt.py": text})
    plan = plan_of(cli, "train_gpt.py", "--", "torchrun", "--standalone", "--nproc_per_node=4", "train_gpt.py",
                   cwd=tmp_path)
    assert fact(plan, "precision.mode").value == "fp32"
    accum = fact(plan, "batch.grad_accum")
    assert accum is None or "micro-step" not in (accum.source.detail or "")
