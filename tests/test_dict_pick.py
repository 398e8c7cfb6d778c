"""FSDP's sharding strategy picked from a dict literal by an option (issue 15): a small rewrite of our
own with the shape of FoundationVision/LlamaGen @ ce98ec4 autoregressive/train/train_c2i_fsdp.py:31-45,385."""

from __future__ import annotations

from plan_helpers import plan_of, winner, write

SCRIPT = """\
    import argparse
    import torch
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, ShardingStrategy

    parser = argparse.ArgumentParser()
    parser.add_argument("--data-parallel", type=str, choices=["sdp", "fsdp", "hsdp"], default="fsdp")
    args = parser.parse_args()
    model = torch.nn.Linear(4, 4)
    model = FSDP(model, sharding_strategy={
        "fsdp": ShardingStrategy.FULL_SHARD,
        "sdp": ShardingStrategy.SHARD_GRAD_OP,
        "hsdp": ShardingStrategy.HYBRID_SHARD,
    }[args.data_parallel])
    opt = torch.optim.AdamW(model.parameters())
    model(torch.zeros(2, 4)).sum().backward()
    opt.step()
    """


def test_strategy_by_the_option_default_and_the_line(cli, tmp_path):
    write(tmp_path, {"train.py": SCRIPT})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "8", "train.py", cwd=tmp_path)
    assert winner(plan, "dist.sharding") == "fsdp_full"
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "8", "train.py", "--data-parallel", "sdp", cwd=tmp_path)
    assert winner(plan, "dist.sharding") == "fsdp_grad_op"


def test_a_key_not_known_picks_nothing(cli, tmp_path):
    # the key comes from the environment: not read, so no arm of the dict is the job's
    write(tmp_path, {"train.py": SCRIPT.replace("[args.data_parallel]", "[__import__('os').environ['DP']]")})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "8", "train.py", cwd=tmp_path)
    assert winner(plan, "dist.sharding") not in ("fsdp_full", "fsdp_grad_op", "fsdp_hybrid")
