"""Branch jobs122 (set 47 reading, in-sample): the compute precision of a raw-PyTorch script's FSDP wrap,
``FSDP(model, mixed_precision=MixedPrecision(param_dtype=...))`` / FSDP2 ``fully_shard(m, mp_policy=...)``
(adapters/fsdp_mixed_precision.py). Fixtures of our own in the shapes of pytorch/examples
``distributed/FSDP`` (policies module imported by the training script) and VentusAislant/MyDemos @ c75bd15
``my_demos/DDP_demos/DDP4_fsdp_torchrun_training.py`` (a helper picks the policy on ``--mixed_precision``
and hands it to ``Trainer.__init__``, which wraps the model)."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, winner, write

DIRECT = """\
    import torch
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
    from torch.distributed.fsdp import MixedPrecision


    def main():
        torch.distributed.init_process_group(backend="nccl")
        model = torch.nn.Linear(4, 4)
        {policy}
        model = FSDP(model, mixed_precision=mp_policy)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
        for x in []:
            loss = model(x).sum()
            loss.backward()
            opt.step()


    if __name__ == "__main__":
        main()
    """

POLICIES = """\
    import torch
    from torch.distributed.fsdp import MixedPrecision

    fpSixteen = MixedPrecision(param_dtype=torch.float16, reduce_dtype=torch.float16, buffer_dtype=torch.float16)
    bfSixteen = MixedPrecision(param_dtype=torch.bfloat16, reduce_dtype=torch.bfloat16, buffer_dtype=torch.bfloat16)
    fp32_policy = MixedPrecision(param_dtype=torch.float32, reduce_dtype=torch.float32, buffer_dtype=torch.float32)
    """

HANDED = """\
    import argparse

    import torch
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
    from policies import fp32_policy, fpSixteen, bfSixteen


    class Trainer:
        def __init__(self, model, mixed_precision_policy):
            self.model = FSDP(module=model, mixed_precision=mixed_precision_policy)
            self.optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

        def train(self, data):
            for x in data:
                loss = self.model(x).sum()
                loss.backward()
                self.optimizer.step()


    def get_mixed_precision(policy):
        if policy == 'fp16':
            return fpSixteen
        elif policy == 'bf16':
            return bfSixteen
        elif policy == 'fp32':
            return fp32_policy


    def main(args):
        torch.distributed.init_process_group(backend="nccl")
        model = torch.nn.Linear(4, 4)
        mixed_precision = get_mixed_precision(args.mixed_precision)
        trainer = Trainer(model=model, mixed_precision_policy=mixed_precision)
        trainer.train([])


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--mixed_precision", type=str, {default})
        main(parser.parse_args())
    """


def _direct(cli, tmp_path: Path, policy: str) -> dict:
    write(tmp_path, {"train.py": DIRECT.format(policy=policy), "train.sh": "torchrun --nproc_per_node=2 train.py\n"})
    return plan_of(cli, "train.sh", cwd=tmp_path)


def _handed(cli, tmp_path: Path, flags: str, default: str = "default='fp32'") -> dict:
    write(tmp_path, {"train.py": HANDED.format(default=default), "policies.py": POLICIES,
                     "train.sh": f"torchrun --standalone --nproc_per_node=2 train.py {flags}\n"})
    return plan_of(cli, "train.sh", cwd=tmp_path)


def test_bf16_policy_bound_in_the_script_is_autocast_like_bf16(cli, tmp_path: Path) -> None:
    plan = _direct(cli, tmp_path, "mp_policy = MixedPrecision(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)")
    got = fact(plan, "precision.mode")
    assert got is not None and got.value == "amp_bf16"
    assert "MixedPrecision(param_dtype=bf16)" in str(got.source)


def test_fp16_policy_is_amp_fp16(cli, tmp_path: Path) -> None:
    plan = _direct(cli, tmp_path, "mp_policy = MixedPrecision(param_dtype=torch.half)")
    assert winner(plan, "precision.mode") == "amp_fp16"


def test_policy_from_a_config_value_stays_unknown(cli, tmp_path: Path) -> None:
    # the dtype comes from a value this reading does not decide: neither bf16 nor PyTorch's fp32 default
    plan = _direct(cli, tmp_path, "mp_policy = MixedPrecision(param_dtype=getattr(torch, DTYPE))")
    assert winner(plan, "precision.mode") is None


def test_policy_without_param_dtype_stays_unknown(cli, tmp_path: Path) -> None:
    plan = _direct(cli, tmp_path, "mp_policy = MixedPrecision(reduce_dtype=torch.bfloat16)")
    assert winner(plan, "precision.mode") is None


def test_helper_picked_policy_imported_from_policies_module(cli, tmp_path: Path) -> None:
    plan = _handed(cli, tmp_path, "--mixed_precision bf16")
    got = fact(plan, "precision.mode")
    assert got is not None and got.value == "amp_bf16" and got.confidence == "medium"
    assert "policies.py:5" in str(got.source)


def test_helper_picked_fp32_policy_is_fp32(cli, tmp_path: Path) -> None:
    plan = _handed(cli, tmp_path, "--mixed_precision fp32")
    got = fact(plan, "precision.mode")
    assert got is not None and got.value == "fp32" and "MixedPrecision(param_dtype=fp32)" in str(got.source)


def test_helper_argument_not_decided_stays_unknown(cli, tmp_path: Path) -> None:
    # no flag and no default: the helper's arm is not known, so is the policy (and no fp32 default is written)
    plan = _handed(cli, tmp_path, "", default="required=True")
    assert winner(plan, "precision.mode") is None


def test_autocast_in_the_step_still_wins(cli, tmp_path: Path) -> None:
    text = DIRECT.replace("loss = model(x).sum()", "with torch.autocast('cuda', dtype=torch.float16):\n"
                          "                loss = model(x).sum()")
    write(tmp_path, {"train.py": text.format(policy="mp_policy = MixedPrecision(param_dtype=torch.bfloat16)"),
                     "train.sh": "torchrun --nproc_per_node=2 train.py\n"})
    plan = plan_of(cli, "train.sh", cwd=tmp_path)
    assert winner(plan, "precision.mode") == "amp_fp16"


def test_fully_shard_mp_policy(cli, tmp_path: Path) -> None:
    text = DIRECT.replace("from torch.distributed.fsdp import MixedPrecision",
                          "from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard") \
        .replace("model = FSDP(model, mixed_precision=mp_policy)", "fully_shard(model, mp_policy=mp_policy)")
    write(tmp_path, {"train.py": text.format(policy="mp_policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16)"),
                     "train.sh": "torchrun --nproc_per_node=2 train.py\n"})
    plan = plan_of(cli, "train.sh", cwd=tmp_path)
    assert winner(plan, "precision.mode") == "amp_bf16"
