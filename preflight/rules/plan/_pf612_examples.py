"""PF612 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

import textwrap

_VIT = textwrap.dedent("""
    # --- requirements.txt
    transformers=={version}
    peft==0.12.0
    # --- run_lora.py
    import numpy as np
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForImageClassification, Trainer, TrainingArguments


    def compute_metrics(p):
        return {{"accuracy": float((np.argmax(p.predictions, axis=1) == p.label_ids).mean())}}


    def main(ds, collate_fn, num_labels):
        model = AutoModelForImageClassification.from_pretrained("google/vit-base-patch16-224-in21k",
                                                                num_labels=num_labels)
        lora = LoraConfig(r=16, lora_alpha=16, target_modules=["query", "value"], modules_to_save=["classifier"]{task})
        model = get_peft_model(model, lora)
        args = TrainingArguments({pin}
            output_dir="vit-lora",
            remove_unused_columns=False,
            eval_strategy="steps",
            save_strategy="steps",
            load_best_model_at_end=True,
            metric_for_best_model="eval_loss",{label_names}
        )
        trainer = Trainer(model=model, args=args, train_dataset=ds["train"], eval_dataset=ds["test"],
                          data_collator=collate_fn, compute_metrics=compute_metrics)
        trainer.train()
""")

PF612_BAD = [
    # transformers issue 33420 (4.43.3): a LoRA ViT without task_type, best model on eval_loss
    _VIT.format(version="4.43.3", task="", pin="  # warning: PF612", label_names=""),
    # peft issue 1120: a classifier wrapped without task_type, compute_metrics never called
    textwrap.dedent("""
    # --- requirements.txt
    transformers==4.35.2
    # --- train_cls.py
    import evaluate
    import numpy as np
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments

    accuracy = evaluate.load("accuracy")


    def compute_metrics(eval_pred):
        logits, labels = eval_pred
        return accuracy.compute(predictions=np.argmax(logits, axis=-1), references=labels)


    model = AutoModelForSequenceClassification.from_pretrained("roberta-large", num_labels=2)
    # PF351: without task_type the new classification head is also frozen (peft returns a plain PeftModel)
    model = get_peft_model(model, LoraConfig(r=16, lora_alpha=32, target_modules=["query", "value"]))  # error: PF351
    args = TrainingArguments(output_dir="out", evaluation_strategy="epoch")  # warning: PF612
    Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds, compute_metrics=compute_metrics).train()
"""),
]

PF612_GOOD = [
    # the fix of issue 33420: label_names given
    _VIT.format(version="4.43.3", task="", pin="", label_names='\n        label_names=["labels"],'),
    # tricky-correct: the config names its task, so the wrapper's forward takes `labels`
    _VIT.format(version="4.43.3", task=', task_type="SEQ_CLS"', pin="", label_names=""),
    # tricky-correct: a transformers whose Trainer reads the label names from the base model
    _VIT.format(version="4.57.1", task="", pin="", label_names=""),
    # only a lower bound: the installed release may already read the base model's labels
    _VIT.format(version="4.43.3", task="", pin="", label_names="").replace("transformers==4.43.3",
                                                                           "transformers>=4.43"),
]
