"""LoRA applied by building the project's own LoRA layer class in a loop over the model's layers
(``adapters/guarded_helpers.py``: ``_holders``; ``adapters/guarded.py``: the loop's own tests).
Shape of XLabs-AI/x-flux @ 47495425dbed499be1e8e5a6e52628b07349cba2
``train_flux_lora_deepspeed.py:104-150`` and ``src/flux/modules/layers.py:86-98,177-183``."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, winner, write

LAYERS = """\
    import torch
    from torch import nn


    class LoRALinearLayer(nn.Module):
        def __init__(self, in_features, out_features, rank=4, network_alpha=None):
            super().__init__()
            self.down = nn.Linear(in_features, rank, bias=False)
            self.up = nn.Linear(rank, out_features, bias=False)
            nn.init.normal_(self.down.weight, std=1 / rank)
            {init}

        def forward(self, x):
            return self.up(self.down(x))


    class BlockLoraProcessor(nn.Module):
        def __init__(self, dim: int, rank=4, network_alpha=None):
            super().__init__()
            self.qkv_lora = LoRALinearLayer(dim, dim * 3, rank, network_alpha)
            self.proj_lora = LoRALinearLayer(dim, dim, rank, network_alpha)
    """

TRAIN = """\
    import argparse
    import re

    import torch

    from mylib.layers import BlockLoraProcessor


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--rank", type=int, default=16)
        parser.add_argument("--blocks", type=str, default="1,2")
        args = parser.parse_args()
        dit = torch.load("model.pt")
        blocks = [int(i) for i in args.blocks.split(",")]
        procs = {{}}
        for name, proc in dit.attn_processors.items():
            match = re.search(r"\\.(\\d+)\\.", name)
            if match:
                index = int(match.group(1))
            {guard}
                procs[name] = BlockLoraProcessor(dim=3072, rank=args.rank)
            else:
                procs[name] = proc
        dit.set_attn_processor(procs)
        optimizer = torch.optim.AdamW([p for p in dit.parameters() if p.requires_grad])
        for batch in range(10):
            loss = dit(batch).mean()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


    if __name__ == "__main__":
        main()
    """


def _project(tmp_path: Path, init: str = "nn.init.zeros_(self.up.weight)",
             guard: str = 'if name.startswith("double_blocks") and index in blocks:') -> dict:
    write(tmp_path, {"mylib/__init__.py": "", "mylib/layers.py": LAYERS.format(init=init),
                     "train.py": TRAIN.format(guard=guard)})
    return tmp_path


def test_a_zero_initialised_lora_layer_class_built_in_a_layer_loop_is_lora(cli, tmp_path: Path) -> None:
    _project(tmp_path)
    plan = plan_of(cli, "train.py", "--", "--rank", "8", cwd=tmp_path)
    got = fact(plan, "peft.method")
    assert got is not None and got.value == "lora" and "LoRALinearLayer" in (got.source.detail or "")
    assert winner(plan, "task.mode") == "lora"
    assert winner(plan, "peft.rank") == 8


def test_the_same_layer_without_a_zero_start_is_not_lora(cli, tmp_path: Path) -> None:
    # a bottleneck MLP (down to a width, up from it) is no adapter unless it starts as a no-op
    _project(tmp_path, init="nn.init.normal_(self.up.weight)")
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "peft.method") != "lora" and winner(plan, "task.mode") != "lora"


def test_a_guard_on_something_else_than_the_loop_keeps_it_undecided(cli, tmp_path: Path) -> None:
    _project(tmp_path, guard="if torch.distributed.get_rank() == 0:")
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "peft.method") != "lora"
    _project(tmp_path, guard="if args.blocks == 'none':")  # decided false by the default
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "peft.method") != "lora"
