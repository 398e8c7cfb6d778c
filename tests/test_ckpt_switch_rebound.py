"""A checkpointing switch handed to a local class that reassigns it is not the job's setting
(adapters/hydra_reads.py, adapters/config_object_reads.py). Fixture of our own in the shape of
modelscope/DiffSynth-Studio examples/wanvideo/model_training/train.py:31-33 (``if not
use_gradient_checkpointing: warnings.warn(...); use_gradient_checkpointing = True``) built with
``use_gradient_checkpointing=args.use_gradient_checkpointing`` (default False); with its twin."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

SCRIPT = """\
    import argparse
    import warnings

    import torch
    from diffpkg.units import run_units
    from diffpkg.parsers import add_training_args


    class TrainingModule(torch.nn.Module):
        def __init__(self, use_gradient_checkpointing=True):
            super().__init__()
            {override}
            self.use_gradient_checkpointing = use_gradient_checkpointing
            self.net = torch.nn.Linear(4, 4)

        def forward(self, x):
            return run_units(self.net, x, use_gradient_checkpointing=self.use_gradient_checkpointing)


    if __name__ == "__main__":
        parser = add_training_args(argparse.ArgumentParser())
        args = parser.parse_args()
        model = TrainingModule(use_gradient_checkpointing=args.use_gradient_checkpointing)
        optimizer = torch.optim.AdamW(model.parameters())
        for x in [torch.randn(2, 4)]:
            loss = model(x).sum()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
"""

PKG = {
    "diffpkg/__init__.py": "",
    "diffpkg/units.py": "def run_units(net, x, use_gradient_checkpointing=False):\n    return net(x)\n",
    "diffpkg/parsers.py": (
        "def add_training_args(parser):\n"
        "    parser.add_argument('--use_gradient_checkpointing', default=False, action='store_true')\n"
        "    return parser\n"),
}

FORCED = """if not use_gradient_checkpointing:
                warnings.warn("checkpointing is forced on")
                use_gradient_checkpointing = True"""


def test_a_switch_the_callee_reassigns_is_not_read_as_off(cli, tmp_path):
    write(tmp_path, {**PKG, "train.py": SCRIPT.replace("{override}", FORCED)})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    got = fact(plan, "memory.gradient_checkpointing")
    assert got is None or got.value is True


def test_twin_a_switch_passed_through_is_read(cli, tmp_path):
    write(tmp_path, {**PKG, "train.py": SCRIPT.replace("{override}", "pass")})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "memory.gradient_checkpointing").value is False
