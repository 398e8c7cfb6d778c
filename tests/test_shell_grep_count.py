"""A command substitution counting a separator in a known variable with ``grep -o SEP | wc -l``
(adapters/shell_values.py ``grep_count``/``inline_counts``): ZhengPeng7/BiRefNet @ 25cb930 ``train.sh:16-17,28``
``devices=$2; nproc_per_node=$(echo ${devices%%,} | grep -o "," | wc -l)`` then ``torchrun --nproc_per_node
$((nproc_per_node+1))``; inline, a neuralmagic llama-recipes script ``NPROC=$(($(echo $CUDA_VISIBLE_DEVICES |
grep -o "," | wc -l)+1))``."""

from __future__ import annotations

import textwrap

from preflight.adapters.shell import read_shell

BIREFNET = """\
    #!/bin/bash
    method="$1"
    devices=$2
    nproc_per_node=$(echo ${devices%%,} | grep -o "," | wc -l)
    CUDA_VISIBLE_DEVICES=${devices} \\
    torchrun --standalone --nproc_per_node $((nproc_per_node+1)) train.py --ckpt_dir ckpts/${method}
"""

INLINE = """\
    #!/bin/bash
    export CUDA_VISIBLE_DEVICES={ids}
    NPROC=$(($(echo $CUDA_VISIBLE_DEVICES | grep -o "," | wc -l)+1))
    torchrun --nproc_per_node $NPROC train.py
"""


def test_grep_counts_the_commas_of_the_script_argument():
    script = read_shell(textwrap.dedent(BIREFNET), "train.sh", ["tmp", "0,1,2,3,4,5,6,7"])
    assert script.launches[0].info.procs_per_node == 8
    assert any("counts the ',' in $devices (0,1,2,3,4,5,6,7): 7" in n for n in script.notes)


def test_a_trailing_separator_stripped_by_the_expansion_is_not_counted():
    script = read_shell(textwrap.dedent(BIREFNET), "train.sh", ["tmp", "0,1,2,"])
    assert script.launches[0].info.procs_per_node == 3


def test_inline_count_inside_arithmetic():
    script = read_shell(textwrap.dedent(INLINE.format(ids="0,1,2,3")), "run.sh")
    assert script.launches[0].info.procs_per_node == 4


def test_an_unknown_variable_is_not_counted():
    """Silent twins: no device list given, or one from a command not run: the count stays unknown."""
    script = read_shell(textwrap.dedent(BIREFNET), "train.sh", ["tmp"])
    assert script.launches[0].info.procs_per_node is None
    script = read_shell(textwrap.dedent(INLINE.format(ids="$(nvidia-smi --query-gpu=index --format=csv,noheader)")),
                        "run.sh")
    assert script.launches[0].info.procs_per_node is None


def test_a_regex_separator_is_not_counted():
    """``grep -o .`` counts characters, not a literal: left unknown."""
    text = textwrap.dedent(BIREFNET).replace('grep -o ","', "grep -o .")
    script = read_shell(text, "train.sh", ["tmp", "0,1"])
    assert script.launches[0].info.procs_per_node is None
