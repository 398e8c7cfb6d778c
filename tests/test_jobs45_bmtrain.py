"""BMTrain's ZeRO level and CPU-offloaded Adam (issue 15, set 45: thunlp/UltraChat @ 1f613e1
``train/train_bm.py:19,23-25,76-79``; OpenBMB/BMTrain 0.2.1 ``bmtrain/init.py``, ``bmtrain/wrapper.py``,
``bmtrain/optim/adam_offload.py``). Twins: no level written, no wrapped model, and two optimizers say
nothing of what they leave open."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

TRAIN = """\
    import argparse
    import torch
    from transformers import LlamaForCausalLM
    from torch.utils.data import DataLoader
    import bmtrain as bmt


    def get_model(args):
        model = LlamaForCausalLM.from_pretrained(args.model_name_or_path)
        model = bmt.BMTrainModelWrapper(model)
        return model


    def get_optimizer(args, model):
        optimizer = bmt.optim.AdamOffloadOptimizer(model.parameters(), weight_decay=args.weight_decay)
        return optimizer


    def train(args):
        bmt.init_distributed(
            seed=args.seed,
            zero_level=3,
        )
        model = get_model(args)
        optimizer = get_optimizer(args, model)
        optim_manager = bmt.optim.OptimManager(loss_scale=2**10)
        optim_manager.add_optimizer(optimizer)
        dataloader = DataLoader(list(range(100)), batch_size=args.batch_size_per_device)
        for batch in dataloader:
            loss = model(batch).loss
            optim_manager.zero_grad()
            optim_manager.backward(loss)
            optim_manager.step()


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--model_name_or_path", default="/path/to/huggingface/llama")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--weight_decay", type=float, default=0.0)
        parser.add_argument("--batch_size_per_device", type=int, default=2)
        args = parser.parse_args()
        train(args)
"""


def _plan(cli, tmp_path, train: str = TRAIN) -> dict:
    write(tmp_path, {"train_bm.py": train})
    return plan_of(cli, "--", "torchrun", "--nnodes=1", "--nproc_per_node=8", "train_bm.py", cwd=tmp_path)


def _value(plan: dict, field: str):
    got = fact(plan, field)
    return None if got is None else got.value


def test_bmtrain_zero3_and_offloaded_adam(cli, tmp_path):
    plan = _plan(cli, tmp_path)
    assert _value(plan, "dist.sharding") == "zero3"
    assert _value(plan, "dist.offload_optimizer") == "cpu"
    assert _value(plan, "optimizer.name") == "Adam"


def test_twin_no_level_written_leaves_the_sharding_open(cli, tmp_path):
    train = TRAIN.replace("            zero_level=3,\n", "")
    assert train != TRAIN
    plan = _plan(cli, tmp_path, train)
    assert _value(plan, "dist.sharding") not in ("zero3", "zero2")


def test_twin_a_model_not_wrapped_is_not_bmtrains(cli, tmp_path):
    train = TRAIN.replace("        model = bmt.BMTrainModelWrapper(model)\n", "")
    assert train != TRAIN
    plan = _plan(cli, tmp_path, train)
    assert _value(plan, "dist.sharding") != "zero3"


def test_twin_two_optimizers_say_nothing(cli, tmp_path):
    train = TRAIN.replace("        return optimizer\n",
                          "        if torch.cuda.device_count() > 4:\n            optimizer = bmt.optim.AdamOptimizer(model.parameters())\n"
                          "        return optimizer\n", 1)
    assert train != TRAIN
    plan = _plan(cli, tmp_path, train)
    assert _value(plan, "dist.offload_optimizer") != "cpu"
