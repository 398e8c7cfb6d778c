"""PF231 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import argparse

    import deepspeed

    parser = argparse.ArgumentParser()
    parser.add_argument("--local_rank", type=int, default=-1)
    parser.add_argument("--train_file", required=True)
    parser = deepspeed.add_config_arguments(parser)
    args, _unknown = parser.parse_known_args(){pin}
""")

BAD_EXAMPLES = [
    # DeepSpeed#1656: the second job's port goes to the script
    _TRAIN.format(pin="  # warning: PF231") + """\
# --- launch
deepspeed --include localhost:4,5,6,7 train.py --train_file nq.jsonl --master_port 29501
""",
    _TRAIN.format(pin="  # warning: PF231") + """\
# --- launch
torchrun train.py --train_file a.jsonl --nproc_per_node=4
""",
    _TRAIN.format(pin="  # warning: PF231") + """\
# --- launch
accelerate launch train.py --train_file a.jsonl --main_process_port 29600
""",
]

GOOD_EXAMPLES = [
    # the fix
    _TRAIN.format(pin="") + """\
# --- launch
deepspeed --include localhost:4,5,6,7 --master_port 29501 train.py --train_file nq.jsonl
""",
    # tricky-correct: the script defines its own --master_port (and reads it)
    """
# --- train.py
import argparse
import os

parser = argparse.ArgumentParser()
parser.add_argument("--master_port", type=int, default=29500)
args = parser.parse_args()
os.environ["MASTER_PORT"] = str(args.master_port)
# --- launch
python train.py --master_port 29501
""",
    """
# --- train.py
import argparse
import os

parser = argparse.ArgumentParser()
parser.add_argument("--master-port", type=int, default=29500)
parser.add_argument("--local_rank", type=int, default=-1)
args = parser.parse_args()
os.environ["MASTER_PORT"] = str(args.master_port)
# --- launch
deepspeed --num_gpus 2 train.py --master-port 29501
""",
    # given before the script as well
    _TRAIN.format(pin="") + """\
# --- launch
deepspeed --master_port 29501 train.py --train_file nq.jsonl --master_port 29501
""",
]
