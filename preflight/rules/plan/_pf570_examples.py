"""PF570 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import argparse

    import deepspeed
    import torch
    {imports}

    def main(model):
        parser = argparse.ArgumentParser()
        parser.add_argument("--local_rank", type=int, default=-1)
        parser = deepspeed.add_config_arguments(parser)
        args = parser.parse_args()
        optimizer = {optimizer}
        engine, optimizer, _, _ = deepspeed.initialize(args=args, model=model, optimizer=optimizer)
        return engine
""")

_ZERO = """\
# --- ds_config.json
{{
  "train_micro_batch_size_per_gpu": 4,
  "bf16": {{"enabled": true}},{extra}
  "zero_optimization": {{
    "stage": {stage}
  }}
}}
{pin}"""

BAD_EXAMPLES = [
    # gpt-neox#1166: Lion under ZeRO stage 1
    _TRAIN.format(imports="from lion_pytorch import Lion\n",
                  optimizer="Lion(model.parameters(), lr=2e-4, weight_decay=0.1)")
    + _ZERO.format(extra="", stage=1, pin="# --- expect\nds_config.json:4: error: PF570\n"),
    # plain SGD is not a tested ZeRO optimizer either
    _TRAIN.format(imports="", optimizer="torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)")
    + _ZERO.format(extra="", stage=2, pin="# --- expect\nds_config.json:4: error: PF570\n"),
]

GOOD_EXAMPLES = [
    # the fix
    _TRAIN.format(imports="from lion_pytorch import Lion\n",
                  optimizer="Lion(model.parameters(), lr=2e-4, weight_decay=0.1)")
    + _ZERO.format(extra='\n  "zero_allow_untested_optimizer": true,', stage=1, pin=""),
    # tricky-correct: a tested optimizer; DeepSpeed's own Lion; ZeRO off
    _TRAIN.format(imports="", optimizer="torch.optim.AdamW(model.parameters(), lr=2e-4)")
    + _ZERO.format(extra="", stage=3, pin=""),
    _TRAIN.format(imports="from deepspeed.ops.lion import FusedLion\n",
                  optimizer="FusedLion(model.parameters(), lr=2e-4)")
    + _ZERO.format(extra="", stage=2, pin=""),
    _TRAIN.format(imports="from lion_pytorch import Lion\n",
                  optimizer="Lion(model.parameters(), lr=2e-4)")
    + _ZERO.format(extra="", stage=0, pin=""),
    # tricky-correct: a local alias of tested classes (DeepSpeed-Chat's AdamOptimizer)
    _TRAIN.format(imports="from deepspeed.ops.adam import DeepSpeedCPUAdam, FusedAdam\n\nAdamOptimizer = DeepSpeedCPUAdam if torch.cuda.device_count() == 0 else FusedAdam\n",
                  optimizer="AdamOptimizer(model.parameters(), lr=2e-4)")
    + _ZERO.format(extra="", stage=2, pin=""),
    # a factory whose result type is not visible
    _TRAIN.format(imports="from myproject.optim import build_optimizer\n",
                  optimizer="build_optimizer(model)")
    + _ZERO.format(extra="", stage=2, pin=""),
]
