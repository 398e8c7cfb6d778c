"""torchtitan-style dotted options on the launch line (adapters/torchtitan_options.py). Fixture of
our own, rewriting the shape of fla-org/flame: flame/train.py:34,619-620 (``from flame.config_manager
import JobConfig``; ``config = JobConfig(); config.parse_args()``), flame/config_manager.py:45-70
(``class JobConfig`` whose ``__init__`` declares ``--training.batch_size``, ``--training.compile``,
``--training.mixed_precision_param`` default ``bfloat16``, ``--training.data_parallel_shard_degree``
default -1 on an argparse parser) and train.sh's torchrun line; with twins."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

FILES = {
    "flame/__init__.py": "",
    "flame/config_manager.py": """\
        import argparse
        import sys


        class JobConfig:
            def __init__(self):
                self.parser = argparse.ArgumentParser(description="torchtitan arg parser.")
                self.parser.add_argument("--job.config_file", type=str, default=None)
                self.parser.add_argument("--optimizer.name", type=str, default="AdamW")
                self.parser.add_argument("--training.batch_size", type=int, default=8)
                self.parser.add_argument("--training.seq_len", type=int, default=2048)
                self.parser.add_argument("--training.num_workers", type=int, default=0)
                self.parser.add_argument("--training.compile", action="store_true")
                self.parser.add_argument("--training.data_parallel_shard_degree", type=int, default=-1)
                self.parser.add_argument("--training.mixed_precision_param", type=str, default="bfloat16",
                                         choices=["bfloat16", "float32"])

            def parse_args(self, args_list=sys.argv[1:]):
                args = self.parser.parse_args(args_list)
                for key, value in vars(args).items():
                    setattr(self, key, value)
    """,
    "flame/train.py": """\
        import torch
        from flame.config_manager import JobConfig


        def main(job_config):
            model = torch.nn.Linear(4, 4)
            optimizer = torch.optim.AdamW(model.parameters())
            for step in range(10):
                loss = model(torch.zeros(4)).sum()
                loss.backward()
                optimizer.step()


        if __name__ == "__main__":
            config = JobConfig()
            config.parse_args()
            main(config)
    """,
    "flame/models/fla.toml": """\
        [training]
        data_parallel_shard_degree = -1
    """,
}
LINE = ["torchrun", "--nnodes=1", "--nproc_per_node=8", "-m", "flame.train", "--job.config_file",
        "flame/models/fla.toml", "--training.batch_size", "32", "--training.num_workers", "32", "--training.compile"]


def test_torchtitan_launch_line_options(cli, tmp_path):
    write(tmp_path, FILES)
    plan = plan_of(cli, "--", *LINE, cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert (micro.value, micro.source.kind, micro.source.key) == (32, "cli", "--training.batch_size")
    assert fact(plan, "compile.enabled").value is True
    assert fact(plan, "data.num_workers").value == 32
    assert fact(plan, "dist.sharding").value == "fsdp_full"
    assert fact(plan, "precision.mode").value == "amp_bf16"


def test_toml_setting_the_precision_leaves_it_unread(cli, tmp_path):
    files = dict(FILES)
    files["flame/models/fla.toml"] += "        mixed_precision_param = \"float32\"\n"
    write(tmp_path, files)
    plan = plan_of(cli, "--", *LINE, cwd=tmp_path)
    precision = fact(plan, "precision.mode")
    assert precision is None or precision.value != "amp_bf16"


def test_one_process_is_not_sharded(cli, tmp_path):
    write(tmp_path, FILES)
    line = [t if t != "--nproc_per_node=8" else "--nproc_per_node=1" for t in LINE]
    plan = plan_of(cli, "--", *line, cwd=tmp_path)
    sharding = fact(plan, "dist.sharding")
    assert sharding is None or sharding.value != "fsdp_full"
    assert fact(plan, "batch.micro").value == 32


# fla-org/flame @ e11e7be75b9e flame/models/fla.toml:9-27,66-67 (``[training]`` ``seq_len = 2048``,
# ``pin_memory = false``; ``[activation_checkpoint]`` ``mode = "none"``), flame/train.py:179
# (``pin_memory=job_config.training.pin_memory``, an option of the torchtitan JobConfig flame extends).
def _with_toml(extra_toml: str) -> dict:
    files = dict(FILES)
    files["flame/config_manager.py"] = files["flame/config_manager.py"].replace(
        '                self.parser.add_argument("--training.compile", action="store_true")\n',
        '                self.parser.add_argument("--training.compile", action="store_true")\n'
        '                self.parser.add_argument("--activation_checkpoint.mode", type=str, default="selective")\n')
    files["flame/train.py"] = files["flame/train.py"].replace(
        "            model = torch.nn.Linear(4, 4)\n",
        "            model = torch.nn.Linear(4, 4)\n"
        "            loader = torch.utils.data.DataLoader([], pin_memory=job_config.training.pin_memory)\n")
    files["flame/models/fla.toml"] = files["flame/models/fla.toml"] + extra_toml
    return files


def test_values_of_the_named_toml_fill_what_the_launch_line_leaves(cli, tmp_path):
    write(tmp_path, _with_toml('        seq_len = 4096\n        pin_memory = false\n        batch_size = 4\n\n'
                               '        [activation_checkpoint]\n        mode = "none"\n'))
    plan = plan_of(cli, "--", *LINE, cwd=tmp_path)
    seq = fact(plan, "data.seq_len")
    assert (seq.value, seq.source.kind, seq.source.path, seq.source.line) == (4096, "config", "flame/models/fla.toml", 3)
    assert seq.confidence == "medium"
    assert fact(plan, "data.pin_memory").value is False
    assert fact(plan, "memory.gradient_checkpointing").value is False
    micro = fact(plan, "batch.micro")  # the launch line's --training.batch_size 32 overrides the TOML's 4
    assert (micro.value, micro.source.kind) == (32, "cli")


def test_toml_keys_no_option_reads_or_a_full_mode_say_otherwise(cli, tmp_path):
    """Twins: checkpointing "full" is on; a TOML key neither declared nor read by the script is not taken;
    a TOML that does not parse gives nothing."""
    files = _with_toml('        prefetch_pin_memory = false\n\n        [activation_checkpoint]\n        mode = "full"\n')
    files["flame/train.py"] = files["flame/train.py"].replace("pin_memory=job_config.training.pin_memory",
                                                              "pin_memory=True")
    write(tmp_path, files)
    plan = plan_of(cli, "--", *LINE, cwd=tmp_path)
    assert fact(plan, "memory.gradient_checkpointing").value is True
    pin = fact(plan, "data.pin_memory")
    assert pin is None or pin.adapter != "torchtitan_options"
    write(tmp_path, _with_toml("        seq_len = = 4096\n"))
    plan = plan_of(cli, "--", *LINE, cwd=tmp_path)
    seq = fact(plan, "data.seq_len")
    assert seq is None or seq.adapter != "torchtitan_options"
