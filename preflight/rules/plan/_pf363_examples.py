"""PF363 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_SFT = textwrap.dedent("""
    # --- sft.py
    import torch
    from datasets import load_dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer, TrainingArguments
    from trl import SFTTrainer


    class TaggedCollator:
        def __init__(self, tokenizer):
            self.tok = tokenizer

        def __call__(self, examples):
            batch = self.tok.pad([{{"input_ids": e["input_ids"]}} for e in examples], return_tensors="pt")
            batch["labels"] = batch["input_ids"].clone()
            batch["{key}"] = torch.tensor([e["{key}"] for e in examples])
            return batch


    tokenizer = AutoTokenizer.from_pretrained("mistralai/Mistral-7B-v0.1")
    model = AutoModelForCausalLM.from_pretrained("mistralai/Mistral-7B-v0.1", torch_dtype=torch.bfloat16)
    dataset = load_dataset("json", data_files="mixed.jsonl", split="train")
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=2{remove})
    trainer = SFTTrainer(model=model, args=args, train_dataset=dataset, tokenizer=tokenizer,{pin}
                         dataset_text_field="text", max_seq_length=1024, data_collator=TaggedCollator(tokenizer))
    trainer.train()
    # --- requirements.txt
    trl=={version}
    transformers==4.36.2
    # --- launch
    python sft.py
""")

BAD_EXAMPLES = [
    # trl issue 1186: the weight column removed before the collator on 0.7.7, whatever remove_unused_columns says
    _SFT.format(key="weight", remove=", remove_unused_columns=False", pin="  # error: PF363", version="0.7.7"),
    # 0.9.6 with the default remove_unused_columns=True
    _SFT.format(key="task_id", remove="", pin="  # error: PF363", version="0.9.6"),
]

GOOD_EXAMPLES = [
    # 0.7.8 honours remove_unused_columns=False
    _SFT.format(key="weight", remove=", remove_unused_columns=False", pin="", version="0.7.8"),
    # tricky-correct: the collator reads only the tokenised fields
    _SFT.format(key="attention_mask", remove="", pin="", version="0.7.7"),
]
