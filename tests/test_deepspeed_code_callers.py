"""A DeepSpeed dict handed to ``deepspeed.initialize`` by a project wrapper's parameter (the shape of
Tencent/HunyuanDiT ``hydit/train_deepspeed.py:40-55,231,467``), and keys set into it by nested
subscripts under the job's options."""

from __future__ import annotations

import json
import textwrap

from plan_helpers import winner

DS = textwrap.dedent("""\
    def config_from_args(args, global_batch_size):
        if args.zero == 2:
            cfg = {
                "train_batch_size": global_batch_size,
                "train_micro_batch_size_per_gpu": args.batch_size,
                "optimizer": {"type": "AdamW", "params": {"lr": args.lr}},
                "zero_optimization": {"stage": 2, "reduce_bucket_size": 1e9},
                "fp16": {"enabled": args.fp16},
            }
            if args.offload == True:
                cfg["zero_optimization"]["offload_optimizer"] = {"device": "cpu", "pin_memory": True}
        elif args.zero == 3:
            cfg = {"zero_optimization": {"stage": 3}, "bf16": {"enabled": True}}
        else:
            raise ValueError
        return cfg
    """)

TRAIN = textwrap.dedent("""\
    import argparse
    import deepspeed
    import torch.distributed as dist
    from proj.ds import config_from_args

    def start_engine(args, model, ds_config):
        model, opt, _, _ = deepspeed.initialize(model=model, config_params=ds_config, args=args)
        return model

    def main():
        p = argparse.ArgumentParser()
        p.add_argument("--zero", type=int, default=3)
        p.add_argument("--offload", action="store_true")
        p.add_argument("--fp16", action="store_true")
        p.add_argument("--batch-size", type=int, default=1)
        p.add_argument("--lr", type=float, default=1e-4)
        args = p.parse_args()
        dist.init_process_group("nccl")
        world = dist.get_world_size()
        ds_config = config_from_args(args, world * args.batch_size)
        model = build()
        model = start_engine(args, model, ds_config)

    main()
    """)


def _project(tmp_path, train: str = TRAIN) -> None:
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "ds.py").write_text(DS)
    (tmp_path / "train.py").write_text(train)


def _plan(cli, tmp_path, *line: str) -> dict:
    res = cli("audit", "train.py", "--emit-plan", "json", "--", *line, cwd=tmp_path)
    assert res.code in (0, 1), res.err
    return json.loads(res.out)


def test_dict_passed_through_a_wrapper_parameter_is_read(cli, tmp_path):
    _project(tmp_path)
    plan = _plan(cli, tmp_path, "--zero", "2", "--offload", "--fp16", "--batch-size", "4")
    assert winner(plan, "dist.sharding") == "zero2"
    assert winner(plan, "dist.offload_optimizer") == "cpu"  # a nested subscript under the given flag
    assert winner(plan, "dist.reduce_bucket_size") == 1_000_000_000
    assert winner(plan, "optimizer.name").lower() == "adamw"
    assert winner(plan, "precision.mode") == "fp16"
    assert winner(plan, "batch.micro") == 4
    fact = plan["fields"]["dist.offload_optimizer"][0]
    assert fact["source"]["path"] == "proj/ds.py" and fact["source"]["line"] == 11


def test_flag_not_given_no_offload_and_other_branch(cli, tmp_path):
    _project(tmp_path)
    plan = _plan(cli, tmp_path, "--zero", "2")
    assert winner(plan, "dist.offload_optimizer") == "none"
    assert winner(plan, "precision.mode") != "fp16"
    plan = _plan(cli, tmp_path)  # --zero default 3: the other dict
    assert winner(plan, "dist.sharding") == "zero3"
    assert winner(plan, "precision.mode") == "bf16"


def test_undecided_branch_key_is_not_the_default(cli, tmp_path):
    _project(tmp_path)
    ds = DS.replace("if args.offload == True:", "if os.environ.get('OFFLOAD'):")
    (tmp_path / "proj" / "ds.py").write_text("import os\n" + ds)
    plan = _plan(cli, tmp_path, "--zero", "2")
    assert winner(plan, "dist.sharding") == "zero2"
    assert "dist.offload_optimizer" not in plan["fields"]  # set at run time: not "no offload"


def test_wrapper_called_with_two_different_dicts_says_nothing(cli, tmp_path):
    line = "    model = start_engine(args, model, ds_config)\n"
    assert line in TRAIN
    train = TRAIN.replace(line, line + "    other = {'zero_optimization': {'stage': 1}}\n"
                          "    model = start_engine(args, model, other)\n")
    _project(tmp_path, train)
    plan = _plan(cli, tmp_path, "--zero", "2", "--offload")
    assert winner(plan, "dist.sharding") not in ("zero1", "zero2")
    assert "dist.offload_optimizer" not in plan["fields"]
