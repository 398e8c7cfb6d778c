"""PF453 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF453_BAD = [
    # ms-swift issue 2746: LoRA SFT with checkpointing and the unused-parameter search
    textwrap.dedent("""
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(
        output_dir="out",
        bf16=True,
        gradient_checkpointing=True,  # warning: PF453
        ddp_find_unused_parameters=True,
    )
    Trainer(model=model, args=args, train_dataset=train_dataset).train()
"""),
    # a custom loop: the model's own switch and a DDP wrapper
    textwrap.dedent("""
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP

    model.gradient_checkpointing_enable()  # warning: PF453
    model = DDP(model.cuda(), device_ids=[rank], find_unused_parameters=True)
"""),
]

PF453_GOOD = [
    # the fix
    textwrap.dedent("""
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(
        output_dir="out",
        bf16=True,
        gradient_checkpointing=True,
        gradient_checkpointing_kwargs={"use_reentrant": False},
        ddp_find_unused_parameters=True,
    )
    Trainer(model=model, args=args, train_dataset=train_dataset).train()
"""),
    # no unused-parameter search
    textwrap.dedent("""
    from transformers import TrainingArguments

    args = TrainingArguments(output_dir="out", gradient_checkpointing=True, ddp_find_unused_parameters=False)
"""),
    # static_graph lets DDP handle the reentrant pass
    textwrap.dedent("""
    from torch.nn.parallel import DistributedDataParallel as DDP

    model.gradient_checkpointing_enable()
    model = DDP(model, device_ids=[rank], find_unused_parameters=True, static_graph=True)
"""),
]
