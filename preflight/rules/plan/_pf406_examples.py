"""PF406 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF406_BAD = [
    textwrap.dedent("""
        # --- train.py
        import torch
        from transformers import Trainer, TrainingArguments

        class WeightedTrainer(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):  # error: PF406
                labels = inputs.pop("labels")
                outputs = model(**inputs)
                loss = torch.nn.functional.cross_entropy(outputs.logits.flatten(0, 1), labels.flatten(),
                                                         weight=self.class_weights)
                return (loss, outputs) if return_outputs else loss

        args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, gradient_accumulation_steps=8)
        WeightedTrainer(model=model, args=args, train_dataset=ds).train()
        """),
    # the accumulation comes from an arguments file read by HfArgumentParser
    textwrap.dedent("""
        # --- train.py
        from transformers import HfArgumentParser, Trainer, TrainingArguments

        class MyTrainer(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False, **kwargs):  # error: PF406
                outputs = model(**inputs)
                return outputs.loss

        parser = HfArgumentParser((TrainingArguments,))
        (args,) = parser.parse_json_file("args.json")
        MyTrainer(model=model, args=args).train()
        # --- args.json
        {"output_dir": "out", "gradient_accumulation_steps": 16, "per_device_train_batch_size": 2}
        """),
    # named keys, but one of them is the top-level `labels` the Trainer counts
    textwrap.dedent("""
        # --- train.py
        from transformers import Trainer, TrainingArguments

        class PairTrainer(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False, **kwargs):  # error: PF406
                outputs = model(input_ids=inputs["input_ids"], labels=inputs["labels"])
                return outputs.loss

        args = TrainingArguments(output_dir="out", gradient_accumulation_steps=4)
        PairTrainer(model=model, args=args).train()
        """),
]

PF406_BAD.append(
    # transformers 4.46+ passes `num_items_in_batch=` to every compute_loss: an override without it
    # stops with a TypeError at the first step, with or without accumulation (locuslab/tofu)
    textwrap.dedent("""
        # --- train.py
        from transformers import Trainer, TrainingArguments

        class ForgetTrainer(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False):  # error: PF406
                forget_inputs, retain_inputs = inputs
                outputs = model(*forget_inputs)
                return -outputs.loss

        args = TrainingArguments(output_dir="out", per_device_train_batch_size=4)
        ForgetTrainer(model=model, args=args, train_dataset=ds).train()
        # --- requirements.txt
        transformers>=4.46
        """))

PF406_GOOD = [
    # a tuple batch (`forget_inputs, retain_inputs = inputs`): no top-level `labels` for the Trainer
    # to count, so `num_items_in_batch` is None and the Trainer divides by the window itself
    textwrap.dedent("""
        # --- train.py
        from transformers import Trainer, TrainingArguments

        class ForgetTrainer(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
                forget_inputs, retain_inputs = inputs
                input_ids, labels, attention_mask = forget_inputs
                outputs = model(input_ids, labels=labels, attention_mask=attention_mask)
                return -outputs.loss

        args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, gradient_accumulation_steps=4)
        ForgetTrainer(model=model, args=args, train_dataset=ds).train()
        # --- requirements.txt
        transformers>=4.46
        """),
    # the same override without the parameter on a transformers that never passes it
    textwrap.dedent("""
        # --- train.py
        from transformers import Trainer, TrainingArguments

        class ForgetTrainer(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False):
                forget_inputs, retain_inputs = inputs
                outputs = model(*forget_inputs)
                return -outputs.loss

        args = TrainingArguments(output_dir="out", per_device_train_batch_size=4)
        ForgetTrainer(model=model, args=args, train_dataset=ds).train()
        # --- requirements.txt
        transformers==4.44.2
        """),
    # the model's forward takes no loss keyword arguments: Trainer divides by the window itself
    textwrap.dedent("""
        # --- train.py
        import torch
        from transformers import Trainer, TrainingArguments

        class Classifier(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.head = torch.nn.Linear(16, 2)

            def forward(self, input_ids, labels=None):
                return {"logits": self.head(input_ids)}

        class WeightedTrainer(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
                labels = inputs.pop("labels")
                outputs = model(**inputs)
                loss = torch.nn.functional.cross_entropy(outputs["logits"], labels)
                return (loss, outputs) if return_outputs else loss

        model = Classifier()
        args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, gradient_accumulation_steps=8)
        WeightedTrainer(model=model, args=args, train_dataset=ds).train()
        """),
    textwrap.dedent("""
        # --- train.py
        import torch
        from transformers import Trainer, TrainingArguments

        class WeightedTrainer(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
                labels = inputs.pop("labels")
                outputs = model(**inputs)
                loss = torch.nn.functional.cross_entropy(outputs.logits.flatten(0, 1), labels.flatten(),
                                                         reduction="sum") / num_items_in_batch
                return (loss, outputs) if return_outputs else loss

        args = TrainingArguments(output_dir="out", gradient_accumulation_steps=8)
        """),
    # the class says its loss is a plain mean; and a job without accumulation
    textwrap.dedent("""
        # --- train.py
        from transformers import Trainer, TrainingArguments

        class MeanLossTrainer(Trainer):
            loss_is_scaled_for_ga = False

            def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
                return model(**inputs).loss

        args = TrainingArguments(output_dir="out", gradient_accumulation_steps=8)
        # --- other/train.py
        from transformers import Trainer, TrainingArguments

        class PlainTrainer(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
                return super().compute_loss(model, inputs, return_outputs, **kwargs)
        """),
    # open-unlearning's GradAscent: the batch is {"forget": {...}, "retain": {...}}, no top-level
    # `labels`, so the Trainer passes num_items_in_batch=None and divides by the window itself
    textwrap.dedent("""
        # --- train.py
        from transformers import Trainer, TrainingArguments

        class GradAscent(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
                forget_inputs = inputs["forget"]
                outputs = model(input_ids=forget_inputs["input_ids"], labels=forget_inputs["labels"])
                loss = -outputs.loss
                if "retain" in inputs:
                    loss = loss + model(**inputs["retain"]).loss
                return (loss, outputs) if return_outputs else loss

        args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, gradient_accumulation_steps=4)
        GradAscent(model=model, args=args, train_dataset=ds).train()
        """),
]

PF406_GOOD.append(
    # trl issue 1186's job: a per-example weighted mean loss under accumulation on a pinned
    # transformers 4.36.2, whose Trainer never passes `num_items_in_batch` and divides by the
    # window itself: the mean loss is right there
    textwrap.dedent("""
        # --- train.py
        import torch
        from transformers import Trainer, TrainingArguments

        class WeightedTrainer(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False):
                weight = inputs.pop("weight")
                outputs = model(**inputs)
                loss = (outputs.loss * weight).mean()
                return (loss, outputs) if return_outputs else loss

        args = TrainingArguments(output_dir="out", per_device_train_batch_size=2, gradient_accumulation_steps=16)
        WeightedTrainer(model=model, args=args, train_dataset=ds).train()
        # --- requirements.txt
        transformers==4.36.2
        trl==0.7.7
        """))

PF406_BAD.append(
    # the same job with a lower bound: `pip install` may give 4.46+, whose Trainer skips its division
    textwrap.dedent("""
        # --- train.py
        import torch
        from transformers import Trainer, TrainingArguments

        class WeightedTrainer(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False, **kwargs):  # error: PF406
                weight = inputs.pop("weight")
                outputs = model(**inputs)
                loss = (outputs.loss * weight).mean()
                return (loss, outputs) if return_outputs else loss

        args = TrainingArguments(output_dir="out", per_device_train_batch_size=2, gradient_accumulation_steps=16)
        WeightedTrainer(model=model, args=args, train_dataset=ds).train()
        # --- requirements.txt
        transformers>=4.36.2
        """))
