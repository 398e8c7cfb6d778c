"""PF410 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF410_BAD = [
    textwrap.dedent("""
        # --- pyproject.toml
        [project]
        dependencies = ["trl>=0.21", "transformers>=4.56"]
        # --- sft.py
        from trl import SFTConfig, SFTTrainer

        args = SFTConfig(output_dir="out", max_seq_length=2048, packing=False)  # error: PF410
        SFTTrainer(model="Qwen/Qwen2.5-0.5B", args=args, train_dataset=ds).train()
        """),
    # the trainer argument left SFTTrainer in 0.13: a declared 0.15 already rejects it, even with
    # the old-API arguments beside it
    textwrap.dedent("""
        # --- requirements.txt
        trl==0.15.2
        # --- sft.py
        from trl import SFTTrainer

        trainer = SFTTrainer(model=model, train_dataset=ds, dataset_text_field="text",
                             max_seq_length=512, tokenizer=tokenizer)  # error: PF410
        """),
    # no version declared, a trainer call in the current API: the latest TRL is assumed
    textwrap.dedent("""
        # --- sft.py
        from trl import SFTTrainer

        trainer = SFTTrainer(model=model, train_dataset=ds, processing_class=tokenizer,
                             max_seq_length=512)  # warning: PF410
        """),
]

PF410_GOOD = [
    textwrap.dedent("""
        # --- pyproject.toml
        [project]
        dependencies = ["trl>=0.21"]
        # --- sft.py
        from trl import SFTConfig

        args = SFTConfig(output_dir="out", max_length=2048)
        """),
    # an old TRL still takes the old name
    textwrap.dedent("""
        # --- requirements.txt
        trl==0.12.1
        # --- sft.py
        from trl import SFTConfig

        args = SFTConfig(output_dir="out", max_seq_length=2048)
        """),
    # no version declared, one call of the TRL <= 0.11 trainer API (tokenizer=, dataset_text_field=,
    # packing=): max_seq_length was a trainer argument there (mlabonne's llm-course notebooks)
    textwrap.dedent("""
        # --- sft.py
        from trl import SFTTrainer

        trainer = SFTTrainer(model=model, train_dataset=ds, peft_config=peft_config, dataset_text_field="text",
                             max_seq_length=None, tokenizer=tokenizer, args=training_arguments, packing=False)
        """),
]
