"""est95: the plan carries ``dist.ddp_one_process`` (est94's estimator input) where it is certain: the
launch starts ONE process and the model is wrapped in DistributedDataParallel whatever the world size
(the script's own unguarded ``DDP(...)``, ColossalAI's TorchDDPPlugin); the estimate then charges DDP's
gradient buckets. Unset for a wrap under a world-size / distributed guard, an unknown process count,
several processes (the buckets are charged through the world size there) and accelerate / Lightning,
which do not wrap one process in DDP."""

from __future__ import annotations

import pytest
from plan_helpers import fact, plan_of, write

HEAD = """\
    import os
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel as DDP
    from transformers import AutoModelForCausalLM

"""

LOOP = """\
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for step in range(10):
        loss = model(input_ids=torch.ones(4, 512, dtype=torch.long).cuda()).loss
        loss.backward()
        opt.step()
        opt.zero_grad()
"""

MODULE_LEVEL = HEAD + """\
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    model = AutoModelForCausalLM.from_pretrained("gpt2").cuda(local_rank)
    model = DDP(model, device_ids=[local_rank])
""" + LOOP

# the shape of pytorch/examples' distributed scripts: the wrap inside main(), main() under the __main__ guard
IN_MAIN = HEAD + """\
    def setup():
        dist.init_process_group("nccl")

    def main():
        setup()
        local_rank = int(os.environ["LOCAL_RANK"])
        model = AutoModelForCausalLM.from_pretrained("gpt2").cuda(local_rank)
        model = DDP(model, device_ids=[local_rank])
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
        for step in range(10):
            loss = model(input_ids=torch.ones(4, 512, dtype=torch.long).cuda()).loss
            loss.backward()
            opt.step()
            opt.zero_grad()

    if __name__ == "__main__":
        main()
"""

GUARDED_ARGS = HEAD + """\
    import argparse
    parser = argparse.ArgumentParser()
    parser.add_argument("--distributed", action="store_true")
    args = parser.parse_args()
    dist.init_process_group("nccl")
    model = AutoModelForCausalLM.from_pretrained("gpt2").cuda()
    if args.distributed:
        model = DDP(model)
""" + LOOP

GUARDED_WORLD = HEAD + """\
    dist.init_process_group("nccl")
    world_size = dist.get_world_size()
    model = AutoModelForCausalLM.from_pretrained("gpt2").cuda()
    if world_size > 1:
        model = DDP(model)
""" + LOOP

CONDITIONAL_EXPR = HEAD + """\
    dist.init_process_group("nccl")
    model = AutoModelForCausalLM.from_pretrained("gpt2").cuda()
    model = DDP(model) if dist.get_world_size() > 1 else model
""" + LOOP

# demucs' distrib.wrap shape (ddp_world_guard): a helper that returns early for one process
HELPER_EARLY_RETURN = HEAD + """\
    def wrap(model):
        if dist.get_world_size() == 1:
            return model
        return DDP(model)

    dist.init_process_group("nccl")
    model = wrap(AutoModelForCausalLM.from_pretrained("gpt2").cuda())
""" + LOOP

HELPER_CALLED_UNDER_IF = HEAD + """\
    def wrap(model):
        return DDP(model)

    dist.init_process_group("nccl")
    model = AutoModelForCausalLM.from_pretrained("gpt2").cuda()
    if int(os.environ.get("WORLD_SIZE", "1")) > 1:
        model = wrap(model)
""" + LOOP

COLOSSAL = """\
    import argparse
    import colossalai
    import torch
    from colossalai.booster import Booster
    from colossalai.booster.plugin import GeminiPlugin, TorchDDPPlugin
    from transformers import AutoModelForCausalLM

    parser = argparse.ArgumentParser()
    parser.add_argument("--plugin", type=str, default="torch_ddp", choices=["torch_ddp", "gemini"])
    args = parser.parse_args()
    colossalai.launch_from_torch(config={})
    if args.plugin == "torch_ddp":
        plugin = TorchDDPPlugin()
    elif args.plugin == "gemini":
        plugin = GeminiPlugin()
    booster = Booster(plugin=plugin)
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    model, optimizer, _, _, _ = booster.boost(model, optimizer)
    for step in range(10):
        loss = model(input_ids=torch.ones(4, 512, dtype=torch.long).cuda()).loss
        booster.backward(loss, optimizer)
        optimizer.step()
        optimizer.zero_grad()
"""

ACCELERATE = """\
    import torch
    from accelerate import Accelerator
    from transformers import AutoModelForCausalLM

    accelerator = Accelerator()
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    model, opt = accelerator.prepare(model, opt)
    for step in range(10):
        loss = model(input_ids=torch.ones(4, 512, dtype=torch.long).cuda()).loss
        accelerator.backward(loss)
        opt.step()
        opt.zero_grad()
"""

LIGHTNING = """\
    import lightning as L
    import torch
    from transformers import AutoModelForCausalLM

    class Module(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.model = AutoModelForCausalLM.from_pretrained("gpt2")

        def training_step(self, batch, batch_idx):
            return self.model(input_ids=batch).loss

        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters(), lr=1e-4)

    trainer = L.Trainer(devices=1, accelerator="gpu")
    trainer.fit(Module(), torch.utils.data.DataLoader(torch.ones(64, 512, dtype=torch.long), batch_size=4))
"""


def _plan(cli, tmp_path, code, launch):
    write(tmp_path, {"train.py": code, "run.sh": launch + "\n"})
    return plan_of(cli, "run.sh", cwd=tmp_path)


@pytest.mark.parametrize("code, line", [(MODULE_LEVEL, 10), (IN_MAIN, 14)])
@pytest.mark.parametrize("launch", ["torchrun --nproc_per_node 1 train.py",
                                    "python -m torch.distributed.launch --nproc_per_node=1 train.py"])
def test_unguarded_wrap_on_one_process_is_set(cli, tmp_path, code, line, launch):
    got = fact(_plan(cli, tmp_path, code, launch), "dist.ddp_one_process")
    assert got is not None and got.value is True
    assert got.source.path.endswith("train.py") and got.source.line == line
    assert "one process" in got.source.detail


def test_colossalai_torch_ddp_plugin_on_one_process_is_set(cli, tmp_path):
    got = fact(_plan(cli, tmp_path, COLOSSAL, "colossalai run --nproc_per_node 1 train.py --plugin torch_ddp"),
               "dist.ddp_one_process")
    assert got is not None and got.value is True and got.source.line == 13
    assert "TorchDDPPlugin" in got.source.detail


@pytest.mark.parametrize("code", [GUARDED_ARGS, GUARDED_WORLD, CONDITIONAL_EXPR, HELPER_EARLY_RETURN,
                                  HELPER_CALLED_UNDER_IF],
                         ids=["if-args-distributed", "if-world-size", "conditional-expr", "helper-early-return",
                              "helper-called-under-if"])
def test_guarded_wrap_is_not_set(cli, tmp_path, code):
    plan = _plan(cli, tmp_path, code, "torchrun --nproc_per_node 1 train.py")
    assert fact(plan, "dist.ddp_one_process") is None


@pytest.mark.parametrize("launch", [
    "torchrun --nproc_per_node $NGPU train.py",         # unknown process count
    "torchrun --nproc_per_node 4 train.py",             # several: charged through the world size
])
def test_not_one_certain_process_is_not_set(cli, tmp_path, launch):
    assert fact(_plan(cli, tmp_path, MODULE_LEVEL, launch), "dist.ddp_one_process") is None


def test_script_alone_is_not_set(cli, tmp_path):
    write(tmp_path, {"train.py": MODULE_LEVEL})
    assert fact(plan_of(cli, "train.py", cwd=tmp_path), "dist.ddp_one_process") is None


@pytest.mark.parametrize("code, launch", [
    (COLOSSAL, "colossalai run --nproc_per_node 1 train.py --plugin gemini"),
    (ACCELERATE, "accelerate launch --num_processes 1 train.py"),
    (ACCELERATE, "torchrun --nproc_per_node 1 train.py"),
    (LIGHTNING, "python train.py"),
], ids=["colossalai-gemini", "accelerate-launch", "accelerate-torchrun", "lightning"])
def test_frameworks_without_ddp_on_one_process_are_not_set(cli, tmp_path, code, launch):
    assert fact(_plan(cli, tmp_path, code, launch), "dist.ddp_one_process") is None


def test_estimate_charges_the_buckets_from_the_plan(cli, tmp_path):
    write(tmp_path, {"train.py": MODULE_LEVEL, "run.sh": "torchrun --nproc_per_node 1 train.py\n",
                     "guarded.py": GUARDED_ARGS, "guarded.sh": "torchrun --nproc_per_node 1 guarded.py\n"})
    res = cli("estimate", "run.sh", "--seq-len", "512", cwd=tmp_path)
    assert res.code == 0, res.err
    assert "ddp_buckets" in res.out
    guarded = cli("estimate", "guarded.sh", "--seq-len", "512", cwd=tmp_path)
    assert guarded.code == 0, guarded.err
    assert "ddp_buckets" not in guarded.out


def test_input_from_plan_reads_the_fact_with_its_source(cli, tmp_path):
    from preflight.estimate.inputs import input_from_plan
    from preflight.plan import TrainingPlan

    plan = TrainingPlan.from_dict(_plan(cli, tmp_path, MODULE_LEVEL, "torchrun --nproc_per_node 1 train.py"))
    inp = input_from_plan(plan, {"seq_len": 512})
    assert inp.ddp_one_process is True and inp.world_size == 1
    assert "train.py:10" in inp.sources["ddp_one_process"]
