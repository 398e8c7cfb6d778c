"""PF399 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

# the forum report behind huggingface/accelerate#1452: four GPUs, accelerate 0.19
_JOB = dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(){pin}
    model = torch.nn.Linear(8, 2)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    model, optimizer = accelerator.prepare(model, optimizer)
    # --- requirements.txt
    accelerate=={version}
    torch==2.0.1
    # --- launch
    accelerate launch {flags} train.py --epochs 10
    """)

BAD_EXAMPLES = [
    _JOB.format(pin="  # warning: PF399", version="0.19.0", flags="--num_processes 4"),
    _JOB.format(pin="  # warning: PF399", version="0.18.0", flags="--num_processes=2 --mixed_precision fp16"),
]

GOOD_EXAMPLES = [
    # the fix
    _JOB.format(pin="", version="0.19.0", flags="--multi_gpu --num_processes 4"),
    # tricky-correct: 0.20 and later turn multi-GPU on by themselves (huggingface/accelerate#1452)
    _JOB.format(pin="", version="0.20.0", flags="--num_processes 4"),
    # a config file, one process, or no pin at all
    _JOB.format(pin="", version="0.19.0", flags="--config_file multi_gpu.yaml --num_processes 4"),
    _JOB.format(pin="", version="0.19.0", flags="--num_processes 1"),
    _JOB.format(pin="", version="0.19.0", flags="--use_deepspeed --num_processes 4"),
]
