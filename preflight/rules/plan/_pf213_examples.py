"""PF213 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

_TRAIN = dedent("""
    # --- train.py
    import argparse

    import deepspeed
    import torch


    def forward(model, batch, device):
        return model(batch["feats"].to(device), batch["target"].to(device))


    def train_one_epoch(engine, loader, device):
        engine.train()
        for batch in loader:
            with torch.autocast(device_type="cuda", dtype=torch.bfloat16):{pin}
                loss = forward(engine, batch, device)
            engine.backward(loss)
            engine.step()


    def main(model, loader):
        parser = argparse.ArgumentParser()
        parser.add_argument("--local_rank", type=int, default=0)
        parser = deepspeed.add_config_arguments(parser)
        args = parser.parse_args()
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
        engine, _, _, _ = deepspeed.initialize(args=args, model=model, optimizer=optimizer)
        for epoch in range(10):
            train_one_epoch(engine, loader, engine.device)
    # --- ds_config.json
    {{
      "train_micro_batch_size_per_gpu": 8,
      "gradient_accumulation_steps": 1,
      {precision}
      "zero_optimization": {{"stage": 2}}
    }}
    # --- requirements.txt
    deepspeed=={version}
    # --- launch
    deepspeed --num_gpus 8 train.py --deepspeed --deepspeed_config ds_config.json
    """)

PF213_BAD = [
    # wenet issue 2788: DeepSpeed 0.17.5 asserts on the outer autocast (the config only enables bf16)
    _TRAIN.format(pin="  # warning: PF213", precision='"bf16": {"enabled": true},', version="0.17.5"),
    # a newer DeepSpeed and no precision in the config: the outer autocast is switched off, fp32 training
    _TRAIN.format(pin="  # warning: PF213", precision="", version="0.18.0"),
]

PF213_GOOD = [
    # the fix of wenet 2788: autocast enabled through the config
    _TRAIN.format(pin="", precision='"torch_autocast": {"enabled": true, "dtype": "bfloat16"},', version="0.17.5"),
    # tricky: a newer DeepSpeed with bf16 in the config (the engine's own precision applies)
    _TRAIN.format(pin="", precision='"bf16": {"enabled": true},', version="0.18.0"),
    # tricky: before the integration (0.16.x), the outer autocast is a plain autocast
    _TRAIN.format(pin="", precision='"bf16": {"enabled": true},', version="0.16.4"),
    # tricky: the autocast disabled around the engine
    _TRAIN.replace('with torch.autocast(device_type="cuda", dtype=torch.bfloat16):{pin}',
                   'with torch.autocast(device_type="cuda", enabled=False):').format(
        precision='"bf16": {"enabled": true},', version="0.17.5"),
]
