"""OpenRLHF's train_*.py options and what they mean for the trained actor (adapters/openrlhf_cli.py).
Fixture of our own in the shape of the OpenRLHF forks TideDra/lmm-r1 @ f917f18 and
RUCAIBox/R1-Searcher @ 631167cb: ``openrlhf/cli/train_ppo_ray.py`` declares the options,
``examples/scripts/*.sh`` launch it with ``python -m``; with twins."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

PARSER = """\
    import argparse

    import ray


    def train(args):
        ray.init()


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--actor_num_nodes", type=int, default=1)
        parser.add_argument("--actor_num_gpus_per_node", type=int, default=8)
        parser.add_argument("--zero_stage", type=int, default=2)
        parser.add_argument("--bf16", action="store_true", default=False)
        parser.add_argument("--adam_offload", action="store_true", default=False)
        parser.add_argument("--flash_attn", action="store_true", default=False)
        parser.add_argument("--packing_samples", action="store_true", default=False)
        parser.add_argument("--ring_attn_size", type=int, default=1)
        parser.add_argument("--micro_train_batch_size", type=int, default=4)
        parser.add_argument("--train_batch_size", type=int, default=128)
        args = parser.parse_args()
        train(args)
"""


def _plan(cli, tmp_path, *args, package="openrlhf"):
    write(tmp_path, {f"{package}/__init__.py": "", f"{package}/cli/__init__.py": "",
                     f"{package}/cli/train_ppo_ray.py": PARSER})
    return plan_of(cli, "--", "python3", "-m", f"{package}.cli.train_ppo_ray", *args, cwd=tmp_path)


def test_launch_options_give_the_actor_plan(cli, tmp_path):
    plan = _plan(cli, tmp_path, "--actor_num_nodes", "1", "--actor_num_gpus_per_node", "8", "--bf16",
                 "--flash_attn", "--micro_train_batch_size", "2", "--train_batch_size", "256")
    assert fact(plan, "dist.offload_optimizer").value == "none"
    assert fact(plan, "optimizer.name").value == "FusedAdam"
    assert fact(plan, "precision.mode").value == "bf16"
    assert fact(plan, "model.attn_implementation").value == "flash_attention_2"
    # 256 // 2 // (1 x 8) workers
    accum = fact(plan, "batch.grad_accum")
    assert (accum.value, accum.confidence) == (16, "medium")


def test_adam_offload_ring_attention_and_packing(cli, tmp_path):
    plan = _plan(cli, tmp_path, "--adam_offload", "--packing_samples", "--ring_attn_size", "2",
                 "--actor_num_gpus_per_node", "4", "--micro_train_batch_size", "1", "--train_batch_size", "64")
    assert fact(plan, "dist.offload_optimizer").value == "cpu"
    assert fact(plan, "optimizer.name").value == "DeepSpeedCPUAdam"
    assert fact(plan, "model.attn_implementation").value == "flash_attention_2"
    assert fact(plan, "batch.grad_accum").value == 32  # 64 x 2 // 1 // 4


def test_switches_left_off_claim_nothing(cli, tmp_path):
    plan = _plan(cli, tmp_path, "--train_batch_size", "100", "--micro_train_batch_size", "3")
    for field in ("precision.mode", "model.attn_implementation"):
        got = fact(plan, field)
        assert got is None or got.adapter != "openrlhf", field
    assert fact(plan, "batch.grad_accum") is None or fact(plan, "batch.grad_accum").adapter != "openrlhf"


def test_the_same_options_outside_openrlhf_are_not_read(cli, tmp_path):
    plan = _plan(cli, tmp_path, "--bf16", "--adam_offload", package="mytrainer")
    for field in ("optimizer.name", "dist.offload_optimizer", "precision.mode"):
        got = fact(plan, field)
        assert got is None or got.adapter != "openrlhf", field


GROUPED = """\
    import argparse


    def train(args):
        pass


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--ds.param_dtype", type=str, default="bf16", choices=["bf16", "fp16"])
        parser.add_argument("--ds.adam_offload", action="store_true", default=False)
        args = parser.parse_args()
        train(args)
"""


def test_a_newer_openrlhf_groups_its_options(cli, tmp_path):
    # OpenRLHF/OpenRLHF @ 3c3be62 train_sft.py: --ds.param_dtype, --ds.adam_offload
    write(tmp_path, {"openrlhf/__init__.py": "", "openrlhf/cli/__init__.py": "", "openrlhf/cli/train_sft.py": GROUPED})
    plan = plan_of(cli, "--", "deepspeed", "--module", "openrlhf.cli.train_sft", "--ds.param_dtype", "fp16",
                   cwd=tmp_path)
    assert fact(plan, "precision.mode").value == "fp16"
    assert fact(plan, "dist.offload_optimizer").value == "none"
