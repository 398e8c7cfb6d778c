"""PF222 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

import textwrap

_CKPT = textwrap.dedent("""
    # --- requirements.txt
    torch{spec}
    numpy
    # --- checkpointing.py
    import os

    import numpy as np
    import torch


    def save_checkpoint(args, iteration, model, optimizer):
        state = {{
            "args": {saved},
            "iteration": iteration,
            "model": model.state_dict(),
            "optimizer": optimizer.state_dict(),
            "rng_state": {{"torch": torch.get_rng_state(){np_state}}},
        }}
        torch.save(state, os.path.join(args.save, f"iter_{{iteration:07d}}.pt"))


    def load_checkpoint(args, model, optimizer, iteration):
        state = torch.load(os.path.join(args.load, f"iter_{{iteration:07d}}.pt"), map_location="cpu"{wo}){pin}
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        return state["iteration"]
""")

PF222_BAD = [
    # ROCm/Megatron-LM PR 56: the Namespace in every checkpoint, torch>=2.6
    _CKPT.format(spec=">=2.6", saved="args", np_state="", wo="", pin="  # error: PF222"),
    # NumPy's RNG state in the checkpoint, torch pinned at 2.7
    _CKPT.format(spec="==2.7.1", saved="vars(args)", np_state=', "np": np.random.get_state()', wo="",
                 pin="  # error: PF222"),
]

PF222_GOOD = [
    # the fix of the PR
    _CKPT.format(spec=">=2.6", saved="args", np_state="", wo=", weights_only=False", pin=""),
    # tricky-correct: the arguments saved as a plain dict
    _CKPT.format(spec=">=2.6", saved="vars(args)", np_state="", wo="", pin=""),
    # torch before 2.6: weights_only defaults to False
    _CKPT.format(spec="==2.4.1", saved="args", np_state="", wo="", pin=""),
]
