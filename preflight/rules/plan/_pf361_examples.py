"""PF361 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_CLS = textwrap.dedent("""
    # --- train_cls.py
    from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments

    from data import load_splits

    model = AutoModelForSequenceClassification.from_pretrained("roberta-large", num_labels=2)
    train, valid = load_splits()
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=16, gradient_accumulation_steps={ga},{pin}
                             learning_rate=1e-5, max_grad_norm=1.0, bf16=True, deepspeed="ds_zero2.json")
    Trainer(model=model, args=args, train_dataset=train, eval_dataset=valid).train()
    # --- ds_zero2.json
    {{"bf16": {{"enabled": "auto"}}, "zero_optimization": {{"stage": 2}},
     "gradient_accumulation_steps": "auto", "gradient_clipping": "auto",
     "train_micro_batch_size_per_gpu": "auto"}}
    # --- requirements.txt
    transformers=={version}
    deepspeed==0.16.2
    # --- launch
    deepspeed --num_gpus 4 train_cls.py
""")

_T5 = textwrap.dedent("""
    # --- train_t5.py
    import torch
    from transformers import T5ForConditionalGeneration, Trainer, TrainingArguments

    from qg import QGDataset

    model = T5ForConditionalGeneration.from_pretrained("t5-base")


    def collate(batch):
        return {{"input_ids": torch.stack([b["input_ids"] for b in batch]),
                "{key}": torch.stack([b["labels"] for b in batch])}}{pin}


    args = TrainingArguments(output_dir="out", evaluate_during_training=True, logging_steps=500)
    Trainer(model=model, args=args, train_dataset=QGDataset("train"), eval_dataset=QGDataset("valid"),
            data_collator=collate).train()
    # --- requirements.txt
    transformers=={version}
    # --- launch
    python train_t5.py
""")

_SFT = textwrap.dedent("""
    # --- sft.py
    from transformers import AutoModelForCausalLM, AutoTokenizer, DataCollatorForSeq2Seq, Trainer, TrainingArguments

    from alpaca import encoded_splits

    tokenizer = AutoTokenizer.from_pretrained("Qwen/Qwen1.5-0.5B")
    model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen1.5-0.5B")
    data = encoded_splits(tokenizer)
    collator = DataCollatorForSeq2Seq(tokenizer, {padding}label_pad_token_id=-100){pin}
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, bf16=True)
    Trainer(model=model, args=args, train_dataset=data["train"], data_collator=collator).train()
    # --- requirements.txt
    transformers=={version}
    # --- launch
    python sft.py
""")

BAD_EXAMPLES = [
    # transformers PR 35808: the classification loss divided by 8 twice under DeepSpeed on 4.48.0
    _CLS.format(ga=8, pin="  # error: PF361", version="4.48.0"),
    # transformers issue 4361: T5 targets returned as lm_labels on 2.9.1
    _T5.format(key="lm_labels", pin="  # error: PF361", version="2.9.1"),
    # transformers issue 30521: labels padded short of max_length for a causal LM on 4.40.1
    _SFT.format(padding='padding="max_length", max_length=1024, ', pin="  # error: PF361", version="4.40.1"),
]

GOOD_EXAMPLES = [
    # the releases with the fixes
    _CLS.format(ga=8, pin="", version="4.49.0"),
    _T5.format(key="lm_labels", pin="", version="2.10.0"),
    _SFT.format(padding='padding="max_length", max_length=1024, ', pin="", version="4.41.0"),
    # the fixes on the pinned releases: no accumulation; `labels`; dynamic padding
    _CLS.format(ga=1, pin="", version="4.48.0"),
    _T5.format(key="labels", pin="", version="2.9.1"),
    _SFT.format(padding="padding=True, ", pin="", version="4.40.1"),
    # tricky-correct: 4.47 did not divide in the Trainer (DeepSpeed's division is the only one)
    _CLS.format(ga=8, pin="", version="4.47.1"),
]
