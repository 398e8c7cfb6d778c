"""A command substitution counting the fields of a known variable with awk (adapters/shell_values.py
``field_count``), then integer shell arithmetic over it: hkust-nlp/dart-math @ 219b324
``scripts/train-single-node.sh:72-74`` ``n_gpus=$(echo "${gpu_ids}" | awk -F, '{print NF}')``,
``train_bs_per_gpu=$((bs / n_gpus))`` handed to ``--num_processes`` and ``--per_device_train_batch_size``."""

from __future__ import annotations

import textwrap

from preflight.adapters.shell import read_shell

SCRIPT = """\
    #!/bin/bash
    bs=64
    gpu_ids="0,1,2,3,4,5,6,7"
    {set_ids}
    n_gpus=$(echo "${{gpu_ids}}" | awk -F, '{{print NF}}')
    train_bs_per_gpu=$((bs / n_gpus))
    accelerate launch --num_machines 1 --num_processes ${{n_gpus}} train.py --per_device_train_batch_size $((train_bs_per_gpu / 1))
"""


def _read(set_ids: str = ""):
    return read_shell(textwrap.dedent(SCRIPT.format(set_ids=set_ids)), "train.sh")


def test_awk_counts_the_fields_of_a_known_variable():
    script = _read()
    launch = script.launches[0]
    assert launch.info.procs_per_node == 8
    assert launch.tokens[-1] == "8"  # $((64 / 8 / 1))
    assert any("counts the ','-separated fields of $gpu_ids (0,1,2,3,4,5,6,7): 8" in n for n in script.notes)


def test_a_variable_not_known_is_not_counted():
    """Silent twin: ``gpu_ids`` from a command (not run) leaves the count, and what is computed from it,
    unknown."""
    script = _read('gpu_ids=$(nvidia-smi --query-gpu=index --format=csv,noheader | paste -sd,)')
    launch = script.launches[0]
    assert launch.info.procs_per_node is None
    assert launch.tokens[-1] != "8"
    assert not any("fields of" in n for n in script.notes)
