"""PF141 examples: small projects (``# --- <path>`` sections); bad ones pin their finding's line, good ones
stay silent."""

from __future__ import annotations

import textwrap

_JOB = textwrap.dedent("""
    # --- sft_lora.py
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("mistralai/Mistral-7B-v0.1")
    model = get_peft_model(model, LoraConfig(r=16, task_type="CAUSAL_LM"))
    args = TrainingArguments(output_dir="out", logging_dir="logs",
                             label_smoothing_factor={factor},{mark}
                             logging_steps=10)
    Trainer(model=model, args=args, train_dataset=data).train()
    # --- requirements.txt
    transformers{spec}
    peft==0.5.0
""")

PF141_BAD = [
    # transformers issue 27161: LoRA on Mistral with label smoothing, 4.34.1 pinned
    _JOB.format(factor="0.1", mark="  # error: PF141", spec="==4.34.1"),
    # PeftModel.from_pretrained on a ...ForCausalLM, 4.30 pinned
    textwrap.dedent("""
    # --- train.py
    from peft import PeftModel
    from transformers import LlamaForCausalLM, Trainer, TrainingArguments

    base = LlamaForCausalLM.from_pretrained("huggyllama/llama-7b")
    model = PeftModel.from_pretrained(base, "adapters/step-1000", is_trainable=True)
    args = TrainingArguments("out", label_smoothing_factor=0.05)  # error: PF141
    Trainer(model=model, args=args, train_dataset=data).train()
    # --- requirements.txt
    transformers==4.30.2
    """),
]

PF141_GOOD = [
    # the fix: no label smoothing
    _JOB.format(factor="0.0", mark="", spec="==4.34.1"),
    # a release that looks through the PEFT wrapper
    _JOB.format(factor="0.1", mark="", spec="==4.36.2"),
    # tricky: a lower bound lets the latest release install
    _JOB.format(factor="0.1", mark="", spec=">=4.30"),
    # tricky: a PEFT sequence classifier has no labels to shift
    textwrap.dedent("""
    # --- cls.py
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments

    model = get_peft_model(AutoModelForSequenceClassification.from_pretrained("roberta-base"),
                           LoraConfig(task_type="SEQ_CLS"))
    Trainer(model=model, args=TrainingArguments("out", label_smoothing_factor=0.1)).train()
    # --- requirements.txt
    transformers==4.33.0
    """),
    # tricky: the script shifts the labels in its own compute_loss
    textwrap.dedent("""
    # --- sft.py
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


    class ShiftingTrainer(Trainer):
        def compute_loss(self, model, inputs, return_outputs=False):
            labels = inputs.pop("labels")
            outputs = model(**inputs)
            return self.label_smoother(outputs, labels, shift_labels=True)


    model = get_peft_model(AutoModelForCausalLM.from_pretrained("gpt2"), LoraConfig(task_type="CAUSAL_LM"))
    ShiftingTrainer(model=model, args=TrainingArguments("out", label_smoothing_factor=0.1)).train()
    # --- requirements.txt
    transformers==4.34.1
    """),
]
