"""``ds_config.update({...})`` in a helper that writes the DeepSpeed config to a JSON file
(microsoft/unilm beit3/utils.py ``create_ds_config``; EVA-CLIP training/distributed.py
``create_deepspeed_config``: ``if args.zero_stage == 1: ds_config.update({"zero_optimization":
{...}})``). A fixture of our own with that shape; the twins: a branch the job leaves undecided
must not read as DeepSpeed's no-ZeRO/no-offload default, and ``update`` of something else is not read."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import plan_of, write

from preflight.plan import TrainingPlan

UTILS = """\
    import json
    import os


    def create_ds_config(args):
        args.deepspeed_config = os.path.join(args.output_dir, "deepspeed_config.json")
        with open(args.deepspeed_config, mode="w") as writer:
            ds_config = {
                "train_micro_batch_size_per_gpu": args.batch_size,
                "fp16": {"enabled": True, "loss_scale": 0},
            }
            if args.clip_grad is not None:
                ds_config.update({"gradient_clipping": args.clip_grad})
            if args.zero_stage == 1:
                ds_config.update({"zero_optimization": {"stage": 1, "reduce_bucket_size": 5e8}})
            elif args.zero_stage == 2:
                ds_config.update({"zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}}})
            writer.write(json.dumps(ds_config, indent=2))
"""
MAIN = """\
    import argparse

    import deepspeed
    import torch

    import utils


    def main(args):
        utils.create_ds_config(args)
        model = torch.nn.Linear(2, 2)
        model, optimizer, _, _ = deepspeed.initialize(args=args, model=model,
                                                      model_parameters=model.parameters())
        for step in range(10):
            loss = model(torch.randn(4, 2)).sum()
            model.backward(loss)
            model.step()


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--batch_size", default=64, type=int)
        parser.add_argument("--clip_grad", default=None, type=float)
        parser.add_argument("--zero_stage", default=0, type=int)
        parser.add_argument("--output_dir", default="out")
        parser = deepspeed.add_config_arguments(parser)
        main(parser.parse_args())
"""


def _value(plan: dict, field: str):
    fact = TrainingPlan.from_dict(plan).resolve(field)
    return None if fact is None else fact.value


def _plan(cli, tmp_path: Path, *args: str, utils: str = UTILS) -> dict:
    write(tmp_path, {"utils.py": utils, "run.py": MAIN})
    return plan_of(cli, "--", "torchrun", "--nproc_per_node", "8", "run.py", *args, cwd=tmp_path)


def test_a_decided_update_is_merged(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, "--batch_size", "8", "--zero_stage", "1")
    assert _value(plan, "dist.sharding") == "zero1"
    assert _value(plan, "dist.offload_optimizer") == "none"
    assert _value(plan, "batch.micro") == 8


def test_the_other_branch_is_merged(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, "--zero_stage", "2")
    assert _value(plan, "dist.sharding") == "zero2"
    assert _value(plan, "dist.offload_optimizer") == "cpu"


def test_twin_an_undecided_branch_is_no_default(cli, tmp_path: Path) -> None:
    """The stage comes from something the job cannot know statically (an environment variable):
    the zero_optimization key is present but unknown, so neither ZeRO stage 0 nor 'no offload'."""
    utils = UTILS.replace("if args.zero_stage == 1:", "if os.environ.get('ZERO') == '1':") \
        .replace("elif args.zero_stage == 2:", "elif os.environ.get('ZERO') == '2':")
    assert utils != UTILS
    plan = _plan(cli, tmp_path, "--zero_stage", "1", utils=utils)
    assert _value(plan, "dist.offload_optimizer") is None
    assert _value(plan, "dist.sharding") != "ddp"


def test_twin_update_of_another_dict_is_not_read(cli, tmp_path: Path) -> None:
    utils = UTILS.replace('ds_config.update({"zero_optimization"', 'other = {}\n                other.update({"zero_optimization"', 1)
    assert utils != UTILS
    plan = _plan(cli, tmp_path, "--zero_stage", "1", utils=utils)
    # no zero_optimization reaches the written config (the stage-1 fact may still come from the
    # --zero_stage option itself, which is not this reader's)
    assert _value(plan, "dist.offload_optimizer") is None
