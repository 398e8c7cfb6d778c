"""PF193 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_CONFIG = """# --- ds_config.json
{{"train_micro_batch_size_per_gpu": 1, "optimizer": {{"type": "AdamW", "params": {{"lr": 1e-4}}}},
 "zero_optimization": {{"stage": {stage}}}}}
"""

_LAUNCH = """# --- launch
deepspeed --num_gpus 4 train.py --deepspeed_config ds_config.json
"""

BAD_EXAMPLES = [
    # DeepSpeed issue 3574: an mT5 built from its config, initialized with ZeRO-3, then given its pretrained weights
    textwrap.dedent("""
    # --- train.py
    import argparse

    import deepspeed
    import torch
    from transformers import MT5Config, MT5ForConditionalGeneration


    def main(loader):
        parser = argparse.ArgumentParser()
        parser.add_argument("--local_rank", type=int, default=-1)
        parser = deepspeed.add_config_arguments(parser)
        args = parser.parse_args()
        model = MT5ForConditionalGeneration(MT5Config.from_pretrained("google/mt5-small"))
        engine, _, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
        engine.load_module_state_dict(torch.load("mt5-small/pytorch_model.bin"))  # error: PF193
        for batch in loader:
            engine.backward(engine(**batch).loss)
            engine.step()
    """) + _CONFIG.format(stage=3) + _LAUNCH,
    # the same load through the engine's module, and on the model name itself (the first one is reported)
    textwrap.dedent("""
    # --- train.py
    import argparse

    import deepspeed
    import torch


    def main(model, loader):
        parser = argparse.ArgumentParser()
        parser.add_argument("--local_rank", type=int, default=-1)
        args = deepspeed.add_config_arguments(parser).parse_args()
        engine, optimizer, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
        state = torch.load("pretrained.pt", map_location="cpu")
        engine.module.load_state_dict(state, strict=False)  # error: PF193
        model.load_state_dict(state)
        for batch in loader:
            engine.backward(engine(batch))
            engine.step()
    """) + _CONFIG.format(stage=3) + _LAUNCH,
]

GOOD_EXAMPLES = [
    # the fix: the weights loaded into the plain module before initialize
    textwrap.dedent("""
    # --- train.py
    import argparse

    import deepspeed
    import torch
    from transformers import MT5Config, MT5ForConditionalGeneration


    def main(loader):
        parser = argparse.ArgumentParser()
        parser.add_argument("--local_rank", type=int, default=-1)
        args = deepspeed.add_config_arguments(parser).parse_args()
        model = MT5ForConditionalGeneration(MT5Config.from_pretrained("google/mt5-small"))
        model.load_state_dict(torch.load("mt5-small/pytorch_model.bin", map_location="cpu"))
        engine, _, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
        for batch in loader:
            engine.backward(engine(**batch).loss)
            engine.step()
    """) + _CONFIG.format(stage=3) + _LAUNCH,
    # tricky-correct: ZeRO-3 loads that gather first (GatheredParameters, fetch_z3_params=True), a DeepSpeed
    # checkpoint resumed with load_checkpoint, and a fresh model built for evaluation under the same name
    textwrap.dedent("""
    # --- train.py
    import argparse

    import deepspeed
    import torch


    def main(make_model, loader):
        parser = argparse.ArgumentParser()
        parser.add_argument("--local_rank", type=int, default=-1)
        args = deepspeed.add_config_arguments(parser).parse_args()
        model = make_model()
        engine, _, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
        state = torch.load("pretrained.pt", map_location="cpu")
        with deepspeed.zero.GatheredParameters(list(model.parameters()), modifier_rank=0):
            model.load_state_dict(state)
        engine.load_module_state_dict(state, fetch_z3_params=True)
        engine.load_checkpoint("ckpt", tag="latest")
        for batch in loader:
            engine.backward(engine(batch))
            engine.step()
        engine.save_checkpoint("ckpt")
        model = make_model()
        model.load_state_dict(torch.load("export/pytorch_model.bin", map_location="cpu"))
    """) + _CONFIG.format(stage=3) + _LAUNCH,
    # tricky-correct: the same load after initialize with ZeRO-2 (whole parameters on every rank)
    textwrap.dedent("""
    # --- train.py
    import argparse

    import deepspeed
    import torch


    def main(model, loader):
        parser = argparse.ArgumentParser()
        parser.add_argument("--local_rank", type=int, default=-1)
        args = deepspeed.add_config_arguments(parser).parse_args()
        engine, _, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
        engine.module.load_state_dict(torch.load("pretrained.pt", map_location="cpu"))
        for batch in loader:
            engine.backward(engine(batch))
            engine.step()
    """) + _CONFIG.format(stage=2) + _LAUNCH,
]
