"""A local model whose sizes come from a table literal indexed by the model name on the launch line
(issue 15, branch jobs23). Shape rewritten from karpathy/llm.c @ 7ecd8906 ``train_gpt2.py``: a GPT
class whose ``@classmethod from_pretrained`` copies a hub model's weights into it (``:200-216``), a
GELU written as a class without ``__init__`` (``:40-46``), a flag set on a layer (``:141``), a random
generator held on ``self`` (``:145-146``), and ``model_config = {"d12": GPTConfig(...), ...}[args.model]``
(``:652-663``). Must-read examples beside must-stay-unknown twins."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import plan_of, winner, write

TRAIN = """\
    import argparse
    from dataclasses import dataclass

    import torch
    import torch.nn as nn
    from transformers import GPT2LMHeadModel


    class Gelu(nn.Module):
        def forward(self, x):
            return 0.5 * x * (1.0 + torch.tanh(0.79788456 * (x + 0.044715 * x ** 3)))


    class Layer(nn.Module):
        def __init__(self, cfg):
            super().__init__()
            self.norm = nn.LayerNorm(cfg.width)
            self.up = nn.Linear(cfg.width, 4 * cfg.width)
            self.act = Gelu()
            self.down = nn.Linear(4 * cfg.width, cfg.width)
            self.down.SCALE_INIT = 1


    @dataclass
    class NetConfig:
        ctx: int = 256
        vocab: int = 1000
        layers: int = 2
        width: int = 64


    class Net(nn.Module):
        def __init__(self, cfg):
            super().__init__()
            self.tok = nn.Embedding(cfg.vocab, cfg.width)
            self.pos = nn.Embedding(cfg.ctx, cfg.width)
            self.layers = nn.ModuleList([Layer(cfg) for _ in range(cfg.layers)])
            self.head = nn.Linear(cfg.width, cfg.vocab, bias=False)
            self.head.SKIP_INIT = 1
            self.tok.weight = self.head.weight
            self.rng = torch.Generator()
            self.rng.manual_seed(0)
            {extra}

        @classmethod
        def from_pretrained(cls, name):
            hub = GPT2LMHeadModel.from_pretrained(name)
            model = Net(NetConfig(layers=12, width=768, vocab=50257, ctx=1024))
            model.load_state_dict(hub.state_dict(), strict=False)
            return model


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--model", type=str, default="s2")
        args = parser.parse_args()
        if args.model.startswith("s"):
            cfg = {{
                "s2": NetConfig(layers=2, width=64),
                "s4": NetConfig(layers=4, width=128),
            }}[{key}]
            model = Net(cfg)
        else:
            model = Net.from_pretrained(args.model)
        opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
        for x, y in []:
            loss = model(x, y)
            loss.backward()
            opt.step()
    """


def net_count(layers: int, width: int, vocab: int = 1000, ctx: int = 256) -> int:
    """By hand: the position table, per layer a LayerNorm and two linears (4x, biases), the head
    without bias; the token table is the head's weight (tied), counted once."""
    layer = 2 * width + (width * 4 * width + 4 * width) + (4 * width * width + width)
    return ctx * width + layers * layer + width * vocab


def job(tmp_path: Path, key: str = "args.model", extra: str = "") -> None:
    write(tmp_path, {"train.py": TRAIN.format(key=key, extra=extra)})


def test_the_table_entry_the_launch_line_names_sizes_the_local_model(cli, tmp_path: Path) -> None:
    job(tmp_path)
    plan = plan_of(cli, "train.py", "--", "--model", "s4", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == net_count(4, 128)
    assert winner(plan, "model.class_name") == "Net"  # not the hub class the classmethod copies from


def test_the_declared_default_entry(cli, tmp_path: Path) -> None:
    job(tmp_path)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == net_count(2, 64)


def test_a_key_not_in_the_table_stays_unknown(cli, tmp_path: Path) -> None:
    job(tmp_path, key='args.model + "x"')
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") is None


def test_a_method_call_that_adds_a_layer_stays_unknown(cli, tmp_path: Path) -> None:
    # a call on a plain object held on self is followed only when it builds nothing
    job(tmp_path, extra="self.rng.register(nn.Linear(4, 4))")
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") is None
