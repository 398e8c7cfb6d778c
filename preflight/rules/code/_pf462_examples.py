"""PF462 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # unsloth issue 594: the notebook's max_steps kept next to the epochs the user set
    textwrap.dedent("""
    from transformers import TrainingArguments
    from trl import SFTTrainer


    def main(model, tokenizer, dataset):
        trainer = SFTTrainer(
            model=model,
            tokenizer=tokenizer,
            train_dataset=dataset,
            args=TrainingArguments(
                per_device_train_batch_size=2,
                gradient_accumulation_steps=4,
                max_steps=10,  # warning: PF462
                num_train_epochs=20,
                learning_rate=2e-4,
                output_dir="outputs",
            ),
        )
        trainer.train()
"""),
    # a TRL config, the step budget in a module constant
    textwrap.dedent("""
    from trl import SFTConfig

    MAX_STEPS = 500

    config = SFTConfig(output_dir="out", num_train_epochs=3, max_steps=MAX_STEPS)  # warning: PF462
"""),
    # vessl-ai examples PR 77: the step budget kept from an environment default next to the epochs
    textwrap.dedent("""
    import os

    from trl import SFTConfig

    MAX_STEPS = int(os.environ.get("MAX_STEPS", 60))
    NUM_EPOCHS = int(os.environ.get("NUM_EPOCHS", 3))

    args = SFTConfig(output_dir="outputs", num_train_epochs=NUM_EPOCHS, max_steps=MAX_STEPS)  # warning: PF462
"""),
]

GOOD_EXAMPLES = [
    # values the launch line decides
    textwrap.dedent("""
    import argparse

    from transformers import Seq2SeqTrainingArguments, TrainingArguments

    parser = argparse.ArgumentParser()
    parser.add_argument("--max_steps", type=int, default=-1)
    parser.add_argument("--epochs", type=float, default=3)
    args = parser.parse_args()

    launched = Seq2SeqTrainingArguments(output_dir="outputs", max_steps=args.max_steps, num_train_epochs=args.epochs)
"""),
    # the fix, a step budget alone, the default -1, a one-epoch cap
    textwrap.dedent("""
    from transformers import TrainingArguments

    fixed = TrainingArguments(output_dir="outputs", per_device_train_batch_size=2, num_train_epochs=20)
    budget = TrainingArguments(output_dir="outputs", max_steps=60)
    default = TrainingArguments(output_dir="outputs", max_steps=-1, num_train_epochs=5)
    capped = TrainingArguments(output_dir="outputs", num_train_epochs=1, max_steps=5)
"""),
    # tricky-correct: the environment default turns the budget off (-1), or the epochs default to one
    textwrap.dedent("""
    import os

    from trl import SFTConfig

    MAX_STEPS = int(os.getenv("MAX_STEPS", "-1"))
    SMOKE_STEPS = int(os.getenv("SMOKE_STEPS", 20))
    ONE_EPOCH = int(os.getenv("EPOCHS", 1))

    args = SFTConfig(output_dir="outputs", num_train_epochs=3, max_steps=MAX_STEPS)
    smoke = SFTConfig(output_dir="outputs", num_train_epochs=ONE_EPOCH, max_steps=SMOKE_STEPS)
"""),
    # tricky-correct: num_train_epochs=-1 says "sized by max_steps alone" (transformers PR 34810),
    # in the call or through a module constant (held-out-34 h34-tf-tricky-max-steps-with-negative-num-train-epochs)
    textwrap.dedent("""
    from trl import SFTConfig
    from transformers import TrainingArguments

    NO_EPOCHS = -1

    args = SFTConfig(output_dir="smollm2-360m-sft", max_steps=1000, num_train_epochs=-1, bf16=True)
    steps = TrainingArguments(output_dir="outputs", max_steps=500, num_train_epochs=NO_EPOCHS)
    floats = TrainingArguments(output_dir="outputs", max_steps=500, num_train_epochs=-1.0)
"""),
]
