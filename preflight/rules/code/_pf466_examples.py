"""PF466 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

_SCRIPT = textwrap.dedent("""
    import argparse

    from datasets import load_dataset
    from transformers import AutoModelForSequenceClassification, AutoTokenizer, set_seed
    from trl import RewardConfig, RewardTrainer


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--model_name", default="Qwen/Qwen2.5-0.5B-Instruct")
        parser.add_argument("--seed", type=int, default=42)
        args = parser.parse_args()
    {seed}    tokenizer = AutoTokenizer.from_pretrained(args.model_name)
        model = AutoModelForSequenceClassification.from_pretrained(args.model_name, num_labels=1){pin}
        dataset = load_dataset("trl-lib/ultrafeedback_binarized", split="train")
        training_args = RewardConfig(output_dir="reward-model", seed=args.seed, bf16=True)
        trainer = RewardTrainer(model=model, args=training_args, processing_class=tokenizer, train_dataset=dataset)
        trainer.train()
""")

BAD_EXAMPLES = [
    # TRL PR 4887: the score head drawn before the trainer seeds
    _SCRIPT.format(seed="", pin="  # note: PF466"),
]

GOOD_EXAMPLES = [
    # the fix: seeded before loading
    _SCRIPT.format(seed="    set_seed(args.seed)\n", pin=""),
    # tricky-correct: model_init lets the Trainer seed, then build the model
    textwrap.dedent("""
    from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments


    def main(train_dataset):
        def model_init():
            return AutoModelForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=2)

        args = TrainingArguments(output_dir="out", seed=1234)
        Trainer(model_init=model_init, args=args, train_dataset=train_dataset).train()
"""),
    # no seed asked for: nothing promised
    textwrap.dedent("""
    from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments


    def main(train_dataset):
        model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=2)
        Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=train_dataset).train()
"""),
]
