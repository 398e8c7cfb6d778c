"""PF132 examples: small projects (``# --- <path>`` sections); bad ones must fire on the
pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF132_BAD = [
    # datasets issue 3353: an example_id column added with map and read in compute_loss
    textwrap.dedent("""
    # --- run.py
    from datasets import load_dataset
    from transformers import AutoModelForQuestionAnswering, HfArgumentParser, Trainer, TrainingArguments

    model = AutoModelForQuestionAnswering.from_pretrained("google/electra-small-discriminator")


    class WeightedQATrainer(Trainer):
        def compute_loss(self, model, inputs, return_outputs=False):
            example_ids = inputs["example_id"]  # error: PF132
            outputs = model(**inputs)
            return outputs.loss


    (training_args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
    train_dataset = load_dataset("squad")["train"].map(lambda e, i: {"example_id": i}, with_indices=True)
    WeightedQATrainer(model=model, args=training_args, train_dataset=train_dataset).train()
    # --- launch
    python run.py --do_train --output_dir out
"""),
]

PF132_GOOD = [
    # the fix: the column is kept and popped before the forward
    textwrap.dedent("""
    # --- run.py
    from datasets import load_dataset
    from transformers import AutoModelForQuestionAnswering, HfArgumentParser, Trainer, TrainingArguments

    model = AutoModelForQuestionAnswering.from_pretrained("google/electra-small-discriminator")


    class WeightedQATrainer(Trainer):
        def compute_loss(self, model, inputs, return_outputs=False):
            example_ids = inputs.pop("example_id")
            outputs = model(**inputs)
            return outputs.loss


    (training_args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
    training_args.remove_unused_columns = False
    train_dataset = load_dataset("squad")["train"].map(lambda e, i: {"example_id": i}, with_indices=True)
    WeightedQATrainer(model=model, args=training_args, train_dataset=train_dataset).train()
    # --- launch
    python run.py --do_train --output_dir out
"""),
    # tricky: the switch is on the launch line
    textwrap.dedent("""
    # --- run.py
    from datasets import load_dataset
    from transformers import AutoModelForQuestionAnswering, HfArgumentParser, Trainer, TrainingArguments

    model = AutoModelForQuestionAnswering.from_pretrained("google/electra-small-discriminator")


    class WeightedQATrainer(Trainer):
        def compute_loss(self, model, inputs, return_outputs=False):
            example_ids = inputs.pop("example_id")
            outputs = model(**inputs)
            return outputs.loss


    (training_args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
    train_dataset = load_dataset("squad")["train"].map(lambda e, i: {"example_id": i}, with_indices=True)
    WeightedQATrainer(model=model, args=training_args, train_dataset=train_dataset).train()
    # --- launch
    python run.py --do_train --output_dir out --remove_unused_columns False
"""),
    # tricky: the job's own model declares the field in its forward, so the Trainer keeps it
    textwrap.dedent("""
    # --- run.py
    import torch
    from datasets import load_dataset
    from transformers import Trainer, TrainingArguments


    class Scorer(torch.nn.Module):
        def forward(self, input_ids, attention_mask=None, weight=None, labels=None):
            return {"loss": torch.zeros(())}


    class WeightedTrainer(Trainer):
        def compute_loss(self, model, inputs, return_outputs=False):
            weight = inputs["weight"]
            return model(**inputs)["loss"] * weight.mean()


    ds = load_dataset("json", data_files="train.jsonl")["train"]
    WeightedTrainer(model=Scorer(), args=TrainingArguments("out"), train_dataset=ds).train()
"""),
]
