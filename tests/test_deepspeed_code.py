"""DeepSpeed configs built as Python dicts, read without running them."""

from __future__ import annotations

import json
import textwrap

from plan_helpers import winner

UTILS = textwrap.dedent("""\
    GLOBAL_BATCH_SIZE = 32

    def get_train_ds_config(offload, dtype, stage=2):
        device = "cpu" if offload else "none"
        if dtype == "fp16":
            data_type = "fp16"
            dtype_config = {"enabled": True}
        elif dtype == "bf16":
            data_type = "bfloat16"
            dtype_config = {"enabled": True}
        zero_opt_dict = {
            "stage": stage,
            "offload_optimizer": {"device": device},
            "stage3_max_live_parameters": 3e7,
            "reduce_bucket_size": 5e8,
        }
        return {"train_batch_size": GLOBAL_BATCH_SIZE, "zero_optimization": zero_opt_dict, data_type: dtype_config}
    """)

MAIN = textwrap.dedent("""\
    import argparse
    import deepspeed
    from utils.ds import get_train_ds_config

    def main():
        p = argparse.ArgumentParser()
        p.add_argument("--zero_stage", type=int, default=0)
        p.add_argument("--offload", action="store_true")
        p.add_argument("--dtype", default="fp16", choices=["fp16", "bf16"])
        p.add_argument("--per_device_train_batch_size", type=int, default=16)
        args = p.parse_args()
        ds_config = get_train_ds_config(offload=args.offload, dtype=args.dtype, stage=args.zero_stage)
        ds_config["train_micro_batch_size_per_gpu"] = args.per_device_train_batch_size
        model, opt, _, _ = deepspeed.initialize(model=None, config=ds_config)

    main()
    """)


def test_helper_dict_with_arguments_substituted(cli, tmp_path):
    (tmp_path / "utils").mkdir()
    (tmp_path / "utils" / "ds.py").write_text(UTILS)
    (tmp_path / "main.py").write_text(MAIN)
    res = cli("audit", "main.py", "--emit-plan", "json", "--", "--zero_stage", "3", "--dtype", "bf16", "--offload",
              cwd=tmp_path)
    assert res.code == 0, res.err
    plan = json.loads(res.out)
    assert winner(plan, "dist.sharding") == "zero3"
    assert winner(plan, "precision.mode") == "bf16"
    assert winner(plan, "dist.offload_optimizer") == "cpu"
    assert winner(plan, "dist.stage3_max_live_parameters") == 30_000_000
    assert winner(plan, "dist.reduce_bucket_size") == 500_000_000
    assert winner(plan, "batch.micro") == 16
    fact = plan["fields"]["dist.sharding"][0]
    assert fact["source"]["path"] == "utils/ds.py" and fact["source"]["line"] == 12


def test_defaults_when_nothing_given(cli, tmp_path):
    (tmp_path / "utils").mkdir()
    (tmp_path / "utils" / "ds.py").write_text(UTILS)
    (tmp_path / "main.py").write_text(MAIN)
    res = cli("audit", "main.py", "--emit-plan", "json", cwd=tmp_path)
    plan = json.loads(res.out)
    assert winner(plan, "dist.sharding") == "ddp"  # stage 0
    assert winner(plan, "precision.mode") == "fp16"  # DeepSpeed fp16: 16-bit weights, fp32 master
    assert winner(plan, "dist.offload_optimizer") == "none"


def test_unknown_values_are_left_out(cli, tmp_path):
    (tmp_path / "main.py").write_text(textwrap.dedent("""\
        import deepspeed, os
        ds_config = {"zero_optimization": {"stage": int(os.environ["STAGE"])}, "train_batch_size": 8}
        deepspeed.initialize(model=None, config=ds_config)
        """))
    res = cli("audit", "main.py", "--emit-plan", "json", cwd=tmp_path)
    plan = json.loads(res.out)
    assert "dist.sharding" not in plan["fields"]  # not "stage 0 by default": the stage is set at run time
