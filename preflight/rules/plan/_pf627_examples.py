"""PF627 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF627_BAD = [
    # Qwen3-VL issue 1936's shape: the launch line turns evaluation on, the code passes eval_dataset=None
    textwrap.dedent("""
    # --- train.py
    from transformers import HfArgumentParser, Trainer, TrainingArguments

    (training_args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
    trainer = Trainer(
        model=model,
        args=training_args,
        train_dataset=train,
        eval_dataset=None,  # error: PF627
    )
    trainer.train()
    # --- launch
    torchrun --nproc_per_node 8 train.py --output_dir out --do_eval True --eval_strategy steps --eval_steps 200
"""),
    # evaluation every epoch in the script's own arguments, no eval_dataset at all
    textwrap.dedent("""
    # --- train.py
    from trl import SFTConfig, SFTTrainer

    config = SFTConfig(output_dir="out", eval_strategy="epoch", per_device_eval_batch_size=8)
    trainer = SFTTrainer(model=model, args=config, train_dataset=train)  # error: PF627
    trainer.train()
"""),
    # the old argument name, and a variable that is only ever None
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    dev = None
    args = TrainingArguments(output_dir="out", evaluation_strategy="steps", eval_steps=100)
    Trainer(model, args, train_dataset=train, eval_dataset=dev).train()  # error: PF627
"""),
]

PF627_GOOD = [
    # the fix: an evaluation split is passed
    textwrap.dedent("""
    # --- train.py
    from transformers import HfArgumentParser, Trainer, TrainingArguments

    (training_args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
    split = dataset.train_test_split(test_size=0.05, seed=training_args.seed)
    trainer = Trainer(model=model, args=training_args, train_dataset=split["train"], eval_dataset=split["test"])
    trainer.train()
    # --- launch
    torchrun --nproc_per_node 8 train.py --output_dir out --eval_strategy steps --eval_steps 200
"""),
    # no evaluation on the launch line (the default strategy is "no")
    textwrap.dedent("""
    # --- train.py
    from transformers import HfArgumentParser, Trainer, TrainingArguments

    (training_args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
    Trainer(model=model, args=training_args, train_dataset=train, eval_dataset=None).train()
    # --- launch
    python train.py --output_dir out --save_steps 200
"""),
    # tricky: the eval set is None only when no ratio is given; and evaluation is switched on with it
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    if ratio > 0:
        parts = data.train_test_split(test_size=ratio)
        train, dev = parts["train"], parts["test"]
    else:
        train, dev = data, None
    args = TrainingArguments(output_dir="out", eval_strategy="steps" if dev is not None else "no")
    Trainer(model=model, args=args, train_dataset=train, eval_dataset=dev).train()
"""),
    # tricky: two argument sets, the evaluating one goes to the trainer that gets a dev set
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    pre_args = TrainingArguments(output_dir="pre", eval_strategy="no")
    ft_args = TrainingArguments(output_dir="ft", eval_strategy="steps", eval_steps=50)
    Trainer(model=model, args=pre_args, train_dataset=corpus).train()
    Trainer(model=model, args=ft_args, train_dataset=train, eval_dataset=dev).train()
"""),
    # a trainer class of the project's own may build its eval set itself
    textwrap.dedent("""
    # --- train.py
    from transformers import TrainingArguments
    from mytrainer import CustomTrainer

    args = TrainingArguments(output_dir="out", eval_strategy="steps", eval_steps=50)
    CustomTrainer(model=model, args=args, train_dataset=train).train()
"""),
]
