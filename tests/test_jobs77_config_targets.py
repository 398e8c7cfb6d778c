"""Checkpointing in a module a config names by ``target:`` (issue 15, set 37: TencentARC/InstantMesh
``configs/instant-mesh-large-train.yaml:3,10`` ``target: src.models.lrm_mesh.InstantMesh``, built by
``instantiate_from_config``, whose ``src/models/lrm_mesh.py:110,221`` calls ``torch.utils.checkpoint.checkpoint``;
the plan said "no activation checkpointing named in the script, the local modules it imports, the configs read"
and gave False). Twins: a target module that names no checkpointing, and no target at all, keep False."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, write

TRAIN = """\
    import argparse
    import importlib

    import torch
    from omegaconf import OmegaConf


    def instantiate_from_config(config):
        module, cls = config["target"].rsplit(".", 1)
        return getattr(importlib.import_module(module), cls)(**config.get("params", dict()))


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--base", default="configs/train.yaml")
        args = parser.parse_args()
        config = OmegaConf.load(args.base)
        model = instantiate_from_config(config.model).cuda()
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
        loader = torch.utils.data.DataLoader(torch.randn(64, 8), batch_size=8)
        for x in loader:
            loss = model(x.cuda()).sum()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


    if __name__ == "__main__":
        main()
"""

MODEL = """\
    import torch
    import torch.nn as nn


    class Net(nn.Module):
        def __init__(self, width=8):
            super().__init__()
            self.body = nn.Linear(width, width)

        def forward(self, x):
            return {call}
"""


def _plan(cli, tmp_path: Path, config: str, call: str) -> dict:
    write(tmp_path, {"train.py": TRAIN, "src/__init__.py": "", "src/models/__init__.py": "",
                     "src/models/net.py": MODEL.format(call=call), "configs/train.yaml": config})
    return plan_of(cli, "train.py", "--config", "configs/train.yaml", "--", "--base", "configs/train.yaml",
                   cwd=tmp_path)


TARGETED = "model:\n  target: src.models.net.Net\n  params:\n    width: 8\n"
CKPT = "torch.utils.checkpoint.checkpoint(self.body, x, use_reentrant=False)"


def test_checkpointing_in_a_config_targets_module_is_not_denied(cli, tmp_path: Path) -> None:
    got = fact(_plan(cli, tmp_path, TARGETED, CKPT), "memory.gradient_checkpointing")
    assert got is None or got.value is not False


def test_twin_a_config_target_without_checkpointing_still_reads_false(cli, tmp_path: Path) -> None:
    got = fact(_plan(cli, tmp_path, TARGETED, "self.body(x)"), "memory.gradient_checkpointing")
    assert got is not None and (got.value, got.confidence, got.source.path) == (False, "medium", "train.py")


def test_twin_a_module_no_target_names_is_not_read(cli, tmp_path: Path) -> None:
    config = "model:\n  params:\n    width: 8\n"  # src/models/net.py checkpoints, but nothing names it
    got = fact(_plan(cli, tmp_path, config, CKPT), "memory.gradient_checkpointing")
    assert got is not None and got.value is False
