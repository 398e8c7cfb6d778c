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

_SFT = textwrap.dedent("""
    # --- requirements.txt
    transformers==4.41.2
    trl==0.9.4
    # --- sft.py
    from datasets import load_dataset
    from peft import LoraConfig
    from transformers import AutoModelForCausalLM
    from trl import SFTConfig, SFTTrainer

    dataset = load_dataset("imdb", split="train")
    model = AutoModelForCausalLM.from_pretrained("facebook/opt-350m")
    peft_config = LoraConfig(r=8, target_modules=["q_proj"], lora_alpha=16, lora_dropout=0, bias="none"{task})
    sft_config = SFTConfig(output_dir="/tmp", eval_strategy="steps", eval_steps=50, num_train_epochs=1,{mark}
                           save_steps=50, load_best_model_at_end=True, dataset_text_field="text"{labels})
    trainer = SFTTrainer(model, train_dataset=dataset, eval_dataset=dataset.select(range(100)), args=sft_config,
                         peft_config=peft_config)
    trainer.train()
""")

PF612_BAD.append(
    # peft issue 1881 as reported: periodic evaluation only, the eval_loss never appears
    _SFT.replace("save_steps=50, load_best_model_at_end=True, ", "").format(task="", mark="  # warning: PF612",
                                                                             labels=""))
PF612_BAD.append(
    # peft issue 1881: SFTTrainer wraps the model with the task-type-less LoraConfig itself; best model on the loss
    _SFT.format(task="", mark="  # warning: PF612", labels=""))

PF612_GOOD = [
    # tricky-correct: the same SFT run, but no evaluation at all
    _SFT.replace("eval_strategy=\"steps\", eval_steps=50, ", "").replace(
        "save_steps=50, load_best_model_at_end=True, ", "").format(task="", mark="", labels=""),
    # the SFTTrainer fix: label_names given
    _SFT.format(task="", mark="", labels=', label_names=["labels"]'),
    # tricky-correct: the SFTTrainer's config has a task type (peft builds PeftModelForCausalLM, forward takes labels)
    _SFT.format(task=', task_type="CAUSAL_LM"', mark="", labels=""),
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
