"""The optimizer class bound by a conditional expression on a launch flag (jobs130 survey): the DeepSpeed-Chat
training scripts and their forks (Infini-AI-Lab/S2FT ``experiments/train/finetune.py:426-429``)
``AdamOptimizer = DeepSpeedCPUAdam if args.offload else FusedAdam`` then ``optimizer =
AdamOptimizer(params, lr=...)``. The arm the launch line's flag picks is the optimizer; a test nobody can
decide leaves it unknown."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

SCRIPT = """\
import argparse
import deepspeed
from deepspeed.ops.adam import DeepSpeedCPUAdam, FusedAdam


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--offload", action="store_true")
    parser.add_argument("--learning_rate", type=float, default=1e-4)
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()
    model = build()
    params = model.parameters()
    AdamOptimizer = DeepSpeedCPUAdam if args.offload else FusedAdam
    optimizer = AdamOptimizer(params, lr=args.learning_rate, betas=(0.9, 0.95))
    model, optimizer, _, _ = deepspeed.initialize(model=model, optimizer=optimizer, args=args)


if __name__ == "__main__":
    main()
"""


def _optimizer(cli, tmp_path, script: str, *flags: str):
    write(tmp_path, {"train.py": script})
    return fact(plan_of(cli, "train.py", "--", "python", "train.py", *flags, cwd=tmp_path), "optimizer.name")


def test_the_flag_on_the_launch_line_picks_the_cpu_optimizer(cli, tmp_path):
    got = _optimizer(cli, tmp_path, SCRIPT, "--offload")
    assert got is not None and got.value == "DeepSpeedCPUAdam" and got.confidence == "medium"
    assert got.source.path == "train.py" and got.source.line == 15
    assert "bound to DeepSpeedCPUAdam" in (got.source.detail or "")


def test_without_the_flag_the_other_arm_is_the_optimizer(cli, tmp_path):
    got = _optimizer(cli, tmp_path, SCRIPT)
    assert got is not None and got.value == "FusedAdam"


def test_an_undecided_test_leaves_the_optimizer_unknown(cli, tmp_path):
    """Silent twins: a test read from the environment (not decidable from the files), and an arm that is
    itself another conditional: neither class is taken."""
    env = SCRIPT.replace("DeepSpeedCPUAdam if args.offload else FusedAdam",
                         "DeepSpeedCPUAdam if os.environ.get('OFFLOAD') else FusedAdam").replace(
        "import argparse\n", "import argparse\nimport os\n", 1)
    got = _optimizer(cli, tmp_path, env, "--offload")
    assert got is None or got.value not in ("DeepSpeedCPUAdam", "FusedAdam")
    nested = SCRIPT.replace("DeepSpeedCPUAdam if args.offload else FusedAdam",
                            "DeepSpeedCPUAdam if args.offload else (FusedAdam if USE_FUSED else Adam)")
    got = _optimizer(cli, tmp_path, nested)
    assert got is None or got.value not in ("DeepSpeedCPUAdam", "FusedAdam")
