"""PF233 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import os

    os.environ["CUDA_VISIBLE_DEVICES"] = "{value}"{pin}

    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    model = accelerator.prepare(torch.nn.Linear(8, 2))
""")

BAD_EXAMPLES = [
    # bayesian-flow-networks#1: a single-GPU pin under a multi-GPU accelerate launch
    _TRAIN.format(value="0", pin="  # warning: PF233") + """\
# --- launch
accelerate launch train.py
""",
    _TRAIN.format(value="0,1", pin="  # warning: PF233") + """\
# --- launch
torchrun --nproc_per_node 4 train.py
""",
]

GOOD_EXAMPLES = [
    # the fix: the device chosen on the launch line, one process
    _TRAIN.format(value="0", pin="").replace('os.environ["CUDA_VISIBLE_DEVICES"] = "0"\n', "") + """\
# --- launch
CUDA_VISIBLE_DEVICES=0 accelerate launch --num_processes=1 train.py
""",
    # tricky-correct: one process per pinned device; a saved accelerate config; plain python
    _TRAIN.format(value="0,1", pin="") + """\
# --- launch
torchrun --nproc_per_node 2 train.py
""",
    _TRAIN.format(value="0", pin="") + """\
# --- launch
accelerate launch --config_file single_gpu.yaml train.py
""",
    _TRAIN.format(value="0", pin="") + """\
# --- launch
python train.py
""",
    # setdefault keeps the launcher's value
    textwrap.dedent("""
    # --- train.py
    import os

    os.environ.setdefault("CUDA_VISIBLE_DEVICES", "0")

    import torch
    # --- launch
    torchrun --nproc_per_node 4 train.py
"""),
]
