"""PF198 examples: small projects (``# --- <path>`` sections); bad ones must fire on the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import argparse

    import deepspeed
    import torch
    import torchvision

    parser = argparse.ArgumentParser()
    parser.add_argument("--local_rank", type=int, default=-1)
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()
    net = torchvision.models.resnet18(num_classes=10)
    engine, optimizer, loader, _ = deepspeed.initialize(args=args, model=net, model_parameters=net.parameters(),
                                                        training_data=train_set)
    for epoch in range(30):
        for images, labels in loader:
            images, labels = images.to(engine.device).half(), labels.to(engine.device)
            loss = torch.nn.functional.cross_entropy(engine(images), labels)
            engine.backward(loss)
            engine.step()
    # --- launch.sh
    deepspeed --num_gpus 4 train.py --deepspeed --deepspeed_config ds_config.json
    """)

_CONFIG = textwrap.dedent("""
    # --- ds_config.json
    {
      "train_micro_batch_size_per_gpu": 128,
      "optimizer": {"type": "Adam", "params": {"lr": 0.001}},
      "fp16": {"enabled": true, "loss_scale": 0, "initial_scale_power": 16},
      "zero_optimization": {"stage": 0}
    }
    """)


def _req(pin: str) -> str:
    return f"# --- requirements.txt\ntorch\ntorchvision\n{pin}\n"


BAD = [
    # DeepSpeed PR 8393: fp16 + ZeRO-0 on 0.19.x: the loss is never scaled, the gradients are divided by 2^16
    _TRAIN + _CONFIG + _req("deepspeed==0.19.2") + "# --- expect\nds_config.json:4: warning: PF198\n",
    # no ZeRO block at all (stage 0 by default), DeepSpeed not pinned: current releases all have the defect
    _TRAIN + _CONFIG.replace(',\n  "zero_optimization": {"stage": 0}', "") + _req("deepspeed>=0.14")
    + "# --- expect\nds_config.json:4: warning: PF198\n",
]

GOOD = [
    # the workaround: ZeRO stage 1 (its optimizer scales the loss)
    _TRAIN + _CONFIG.replace('"stage": 0', '"stage": 1') + _req("deepspeed==0.19.2"),
    # bf16 instead of fp16
    _TRAIN + _CONFIG.replace('"fp16": {"enabled": true, "loss_scale": 0, "initial_scale_power": 16}',
                             '"bf16": {"enabled": true}') + _req("deepspeed==0.19.2"),
    # tricky: pinned before the 0.18.3 refactor: engine.backward still routes to FP16_Optimizer.backward
    _TRAIN + _CONFIG + _req("deepspeed==0.18.2"),
    # tricky: a static loss scale of 1: the division is harmless
    _TRAIN + _CONFIG.replace('"loss_scale": 0', '"loss_scale": 1') + _req("deepspeed==0.19.2"),
    # tricky: fp16 switched off explicitly inside the block
    _TRAIN + _CONFIG.replace('"enabled": true', '"enabled": false') + _req("deepspeed==0.19.2"),
]
