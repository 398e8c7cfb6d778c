"""OmegaConf structured configs (issue 15): a small rewrite of our own with the shape of
facebookresearch/lingua @ 437d680 (apps/main/train.py:644-651 merges OmegaConf.structured(TrainArgs())
with the YAML named by `config=` and OmegaConf.from_cli(); lingua/distributed.py DistributedArgs;
apps/main/configs/debug.yaml)."""

from __future__ import annotations

from plan_helpers import fact, plan_of, winner, write

DIST = """\
    from dataclasses import dataclass

    @dataclass
    class DistributedArgs:
        dp_shard: int = 1
        dp_replicate: int = 1
        selective_activation_checkpointing: bool = False
        compile: bool = False
        fsdp_type: str = "no_shard"
        model_dtype: str = "bf16"
    """

TRAIN = """\
    from dataclasses import dataclass, field
    from omegaconf import OmegaConf
    from pkg.distributed import DistributedArgs

    @dataclass
    class DataArgs:
        batch_size: int = 2
        seq_len: int = 1024

    @dataclass
    class TrainArgs:
        grad_acc_steps: int = 1
        data: DataArgs = field(default_factory=DataArgs)
        distributed: DistributedArgs = field(default_factory=DistributedArgs)

    def train(args):
        pass

    def main():
        cli_args = OmegaConf.from_cli()
        file_cfg = OmegaConf.load(cli_args.config)
        del cli_args.config
        cfg = OmegaConf.merge(OmegaConf.structured(TrainArgs()), file_cfg, cli_args)
        train(OmegaConf.to_object(cfg))

    if __name__ == "__main__":
        main()
    """

YAML = """\
    distributed:
        fsdp_type: full_shard
        model_dtype: bf16
        selective_activation_checkpointing: true
    data:
        batch_size: 32
    """


def test_file_command_line_and_dataclass_defaults(cli, tmp_path):
    write(tmp_path, {"pkg/__init__.py": "", "pkg/distributed.py": DIST, "pkg/train.py": TRAIN,
                     "configs/debug.yaml": YAML})
    plan = plan_of(cli, "--", "torchrun", "--nproc-per-node", "8", "-m", "pkg.train", "config=configs/debug.yaml",
                   "data.batch_size=16", cwd=tmp_path)
    assert winner(plan, "dist.sharding") == "fsdp_full"
    assert winner(plan, "precision.mode") == "amp_bf16"
    assert winner(plan, "memory.gradient_checkpointing") is True
    assert winner(plan, "batch.micro") == 16  # the command line's key=value wins over the file
    assert winner(plan, "data.seq_len") == 1024  # not in the file: the dataclass default
    assert fact(plan, "data.seq_len").source.kind == "default"
    assert winner(plan, "compile.enabled") is False  # DistributedArgs default
    assert winner(plan, "batch.grad_accum") == 1


def test_no_shard_is_replicated_and_hybrid_needs_both_degrees(cli, tmp_path):
    yaml = YAML.replace("full_shard", "no_shard")
    write(tmp_path, {"pkg/__init__.py": "", "pkg/distributed.py": DIST, "pkg/train.py": TRAIN,
                     "configs/debug.yaml": yaml})
    plan = plan_of(cli, "--", "torchrun", "--nproc-per-node", "8", "-m", "pkg.train", "config=configs/debug.yaml",
                   cwd=tmp_path)
    assert winner(plan, "dist.sharding") == "ddp"
    write(tmp_path, {"configs/debug.yaml": YAML + "    distributed2: {}\n"})
    plan = plan_of(cli, "--", "torchrun", "--nproc-per-node", "8", "-m", "pkg.train", "config=configs/debug.yaml",
                   "distributed.dp_shard=4", "distributed.dp_replicate=2", cwd=tmp_path)
    assert winner(plan, "dist.sharding") == "fsdp_hybrid"


def test_a_plain_yaml_load_without_the_structured_merge_says_nothing(cli, tmp_path):
    # the same keys in a YAML a script only loads (no OmegaConf.structured merge): their meaning is unknown
    plain = ("import sys\nfrom omegaconf import OmegaConf\n\ncfg = OmegaConf.load(sys.argv[1])\n"
             "print(cfg.distributed.fsdp_type)\n")
    write(tmp_path, {"train.py": plain, "configs/debug.yaml": YAML})
    plan = plan_of(cli, "train.py", "--", "configs/debug.yaml", cwd=tmp_path)
    assert winner(plan, "dist.sharding") != "fsdp_full"
    assert winner(plan, "precision.mode") != "amp_bf16"
    assert winner(plan, "memory.gradient_checkpointing") is not True
