"""PF539 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF539_BAD = [
    # transformers issue 29792's shape
    textwrap.dedent("""
        # --- train.py
        from accelerate import Accelerator
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

        accelerator = Accelerator()
        model = AutoModelForCausalLM.from_pretrained("gpt2")
        model = accelerator.prepare(model)
        args = TrainingArguments(output_dir="out", per_device_train_batch_size=2)
        trainer = Trainer(model=model, args=args, train_dataset=train_ds)  # warning: PF539
        trainer.train()
        trainer.save_model()
        # --- launch
        accelerate launch --multi_gpu --num_processes 4 train.py
        """),
]

PF539_GOOD = [
    # the fix: the Trainer gets the plain model
    textwrap.dedent("""
        # --- train.py
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

        model = AutoModelForCausalLM.from_pretrained("gpt2")
        args = TrainingArguments(output_dir="out", per_device_train_batch_size=2)
        trainer = Trainer(model=model, args=args, train_dataset=train_ds)
        trainer.train()
        trainer.save_model()
        # --- launch
        accelerate launch --multi_gpu --num_processes 4 train.py
        """),
    # tricky-correct: one process does not wrap the model
    textwrap.dedent("""
        # --- train.py
        from accelerate import Accelerator
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

        accelerator = Accelerator()
        model = accelerator.prepare(AutoModelForCausalLM.from_pretrained("gpt2"))
        model = accelerator.prepare(model)
        Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=train_ds).train()
        # --- launch
        python train.py
        """),
    # tricky-correct: unwrapped again before the Trainer gets it
    textwrap.dedent("""
        # --- train.py
        from accelerate import Accelerator
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

        accelerator = Accelerator()
        model = AutoModelForCausalLM.from_pretrained("gpt2")
        model = accelerator.prepare(model)
        model = accelerator.unwrap_model(model)
        Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=train_ds).train()
        # --- launch
        torchrun --nproc_per_node 2 train.py
        """),
    # tricky-correct: the project's own accelerate-based trainer takes the prepared model on purpose
    textwrap.dedent("""
        # --- train.py
        from accelerate import Accelerator
        from transformers import AutoModelForCausalLM

        from archai_like import HfAccelerateTrainer

        accelerator = Accelerator()
        model = accelerator.prepare(AutoModelForCausalLM.from_pretrained("gpt2"))
        model = accelerator.prepare(model)
        HfAccelerateTrainer(model=model, accelerator=accelerator).train()
        # --- launch
        accelerate launch --multi_gpu --num_processes 2 train.py
        """),
]
