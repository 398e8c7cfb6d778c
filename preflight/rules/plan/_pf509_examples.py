"""PF509 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF509_BAD = [
    textwrap.dedent("""
    # --- train.py
    import deepspeed

    engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds.json")
    # --- ds.json
    {"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 3, "offload_param": {"device": "nvme"}}}
    # --- expect
    ds.json:1: error: PF509
"""),
]

PF509_GOOD = [
    textwrap.dedent("""
    # --- train.py
    import deepspeed

    engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds.json")
    # --- ds.json
    {"train_micro_batch_size_per_gpu": 1,
     "zero_optimization": {"stage": 3, "offload_param": {"device": "nvme", "nvme_path": "/local_nvme"}}}
"""),
    textwrap.dedent("""
    # --- train.py
    import deepspeed

    engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds.json")
    # --- ds.json
    {"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 3, "offload_param": {"device": "cpu"}}}
"""),
]
