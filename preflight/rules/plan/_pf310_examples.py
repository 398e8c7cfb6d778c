"""PF310 examples (small projects): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_PROJECT = textwrap.dedent("""
    # --- requirements.txt
    deepspeed=={version}
    torch==1.10.2
    # --- pretrain.py
    import deepspeed
    import torch
    from deepspeed.ops.transformer import DeepSpeedTransformerConfig, DeepSpeedTransformerLayer
    from torch import nn

    config = DeepSpeedTransformerConfig(batch_size=64, hidden_size=1024, intermediate_size=4096, heads=16,{mark}
                                        attn_dropout_ratio={dropout}, hidden_dropout_ratio={dropout},
                                        num_hidden_layers=24, initializer_range=0.02, fp16=True, training=True)


    class Encoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = nn.ModuleList([DeepSpeedTransformerLayer(config) for _ in range(24)])
    {train}
        def forward(self, x, mask):
            for layer in self.layers:
                x = layer(x, mask)
            return x


    def evaluate(engine, loader):
        engine.eval()
        with torch.no_grad():
            return sum(engine(x, m).float().mean().item() for x, m in loader)
""")

_TRAIN_OVERRIDE = """
    def train(self, mode=True):
        config.training = mode
        return super().train(mode)
"""

PF310_BAD = [
    # DeepSpeed issue 1781: dropout 0.1 kernels evaluated after eval() on DeepSpeed 0.5.10
    _PROJECT.format(version="0.5.10", dropout="0.1", train="", mark="  # warning: PF310"),
]

PF310_GOOD = [
    # the release with the fix (PR 2604)
    _PROJECT.format(version="0.8.0", dropout="0.1", train="", mark=""),
    # the workaround of the issue: the config follows train()/eval()
    _PROJECT.format(version="0.5.10", dropout="0.1", train=textwrap.indent(_TRAIN_OVERRIDE, "    "), mark=""),
    # tricky-correct: no dropout in the kernels, nothing for eval() to switch off
    _PROJECT.format(version="0.5.10", dropout="0.0", train="", mark=""),
]
