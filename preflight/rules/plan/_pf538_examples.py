"""PF538 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF538_BAD = [
    # accelerate issue 3177's shape: a pinned 1.x release, the loader built with the global batch
    textwrap.dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator
    from torch.utils.data import DataLoader

    accelerator = Accelerator(split_batches=True, mixed_precision="bf16")  # warning: PF538
    loader = DataLoader(dataset, batch_size=256, shuffle=True)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    # --- requirements.txt
    accelerate==1.0.1
    # --- launch
    accelerate launch --multi_gpu --num_processes 4 train.py
"""),
    # no version declared: the latest release is installed, a note
    textwrap.dedent("""
    # --- trainer.py
    from accelerate import Accelerator


    class Trainer:
        def __init__(self, split_batches=True, amp=False):
            self.accelerator = Accelerator(split_batches=split_batches, mixed_precision="fp16" if amp else "no")  # note: PF538
"""),
]

PF538_GOOD = [
    # the fix: the option through DataLoaderConfiguration
    textwrap.dedent("""
    # --- train.py
    from accelerate import Accelerator
    from accelerate.utils import DataLoaderConfiguration

    accelerator = Accelerator(dataloader_config=DataLoaderConfiguration(split_batches=True))
    # --- requirements.txt
    accelerate==1.0.1
"""),
    # tricky-correct: accelerate 0.x still applies the keyword
    textwrap.dedent("""
    # --- train.py
    from accelerate import Accelerator

    accelerator = Accelerator(split_batches=True)
    # --- requirements.txt
    accelerate==0.34.2
"""),
    # tricky-correct: one process splits nothing
    textwrap.dedent("""
    # --- train.py
    from accelerate import Accelerator

    accelerator = Accelerator(split_batches=True)
    # --- requirements.txt
    accelerate>=1.0
    # --- launch
    accelerate launch --num_processes 1 train.py
"""),
    # tricky-correct: False is the default, ignoring it changes nothing
    textwrap.dedent("""
    # --- train.py
    from accelerate import Accelerator

    accelerator = Accelerator(split_batches=False, mixed_precision="fp16")
    # --- requirements.txt
    accelerate==1.2.0
"""),
]
