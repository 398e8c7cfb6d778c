"""PF629 examples: small projects (``# --- launch`` holds the launch command); bad ones pin their
finding's line (the launched script's distributed setup), good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import argparse

    import deepspeed

    parser = argparse.ArgumentParser()
    parser.add_argument("--local_rank", type=int, default=-1)
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()
    engine, optimizer, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters()){pin}
    """)

PF629_BAD = [
    # gpt-neox PR 414's shape: four GPUs of a shared node picked twice
    _TRAIN.format(pin="  # error: PF629") + """\
# --- launch
deepspeed --include localhost:4,5,6,7 --num_gpus 4 --master_port 29511 train.py --deepspeed_config ds.json
""",
    _TRAIN.format(pin="  # error: PF629") + """\
# --- launch
deepspeed -e worker-1 --num_nodes=2 --hostfile hosts train.py --deepspeed_config ds.json
""",
]

PF629_GOOD = [
    # the fix: the include list alone
    _TRAIN.format(pin="") + """\
# --- launch
deepspeed --include localhost:4,5,6,7 --master_port 29511 train.py --deepspeed_config ds.json
""",
    # a count alone
    _TRAIN.format(pin="") + """\
# --- launch
deepspeed --num_gpus 4 train.py --deepspeed_config ds.json
""",
    # tricky: -1 is the launcher's own "not given"
    _TRAIN.format(pin="") + """\
# --- launch
deepspeed --num_gpus=-1 --include localhost:0,1 train.py --deepspeed_config ds.json
""",
    # tricky: the count is a shell variable
    _TRAIN.format(pin="") + """\
# --- launch
deepspeed --include localhost:0,1 --num_gpus $NGPU train.py --deepspeed_config ds.json
""",
]
