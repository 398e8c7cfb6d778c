"""PF506 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF506_BAD = [
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", fsdp="full_shard auto_wrap", gradient_checkpointing=True,  # warning: PF506
                             bf16=True)
    Trainer(model=model, args=args, train_dataset=ds).train()
"""),
]

PF506_GOOD = [
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", fsdp="full_shard auto_wrap",
                             fsdp_config={"activation_checkpointing": True}, bf16=True)
    Trainer(model=model, args=args, train_dataset=ds).train()
"""),
    # a library module: checkpointing re-enabled in one helper, a frozen reference model
    # wrapped in FSDP by another
    textwrap.dedent("""
    # --- helpers.py
    import torch
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

    def restore_checkpointing(model, was_on):
        if was_on:
            model.gradient_checkpointing_enable()

    def wrap_reference(ref_model, device):
        ref_model.eval()
        return FSDP(ref_model, device_id=device)
"""),
    # SHARD_GRAD_OP keeps parameters gathered between forward and backward
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", fsdp="shard_grad_op", gradient_checkpointing=True)
"""),
]
