"""PF494 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF494_BAD = [
    # transformers#25054 shape: per-example weights read in compute_loss
    textwrap.dedent("""
    import torch.nn.functional as F
    from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments


    class WeightedTrainer(Trainer):
        def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
            weights = inputs.pop("sample_weight")
            labels = inputs.pop("labels")
            outputs = model(**inputs)
            loss = (F.cross_entropy(outputs.logits, labels, reduction="none") * weights).mean()
            return (loss, outputs) if return_outputs else loss


    model = AutoModelForSequenceClassification.from_pretrained("roberta-base", num_labels=3)
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=16)  # error: PF494
    WeightedTrainer(model=model, args=args, train_dataset=ds).train()
"""),
]

PF494_GOOD = [
    # the fix
    textwrap.dedent("""
    from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments


    class WeightedTrainer(Trainer):
        def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
            weights = inputs.pop("sample_weight")
            outputs = model(**inputs)
            loss = (outputs.loss * weights).mean()
            return (loss, outputs) if return_outputs else loss


    model = AutoModelForSequenceClassification.from_pretrained("roberta-base", num_labels=3)
    args = TrainingArguments(output_dir="out", remove_unused_columns=False)
    WeightedTrainer(model=model, args=args, train_dataset=ds).train()
"""),
    # tricky-correct: only forward arguments and labels are read; a column kept through label_names
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


    class MyTrainer(Trainer):
        def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
            labels = inputs.pop("labels")
            weight = inputs.get("weight")
            outputs = model(input_ids=inputs["input_ids"], attention_mask=inputs["attention_mask"])
            return outputs.logits.mean()


    model = AutoModelForCausalLM.from_pretrained("gpt2")
    args = TrainingArguments(output_dir="out", label_names=["labels", "weight"])
    MyTrainer(model=model, args=args, train_dataset=ds).train()
"""),
    # tricky-correct: a collator of the file's own may build the key
    textwrap.dedent("""
    from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments


    class WTrainer(Trainer):
        def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
            w = inputs.pop("w")
            return (model(**inputs).loss * w).mean()


    def collate(rows):
        return build_batch(rows)


    model = AutoModelForSequenceClassification.from_pretrained("roberta-base")
    WTrainer(model=model, args=TrainingArguments("out"), data_collator=collate, train_dataset=ds).train()
"""),
]
