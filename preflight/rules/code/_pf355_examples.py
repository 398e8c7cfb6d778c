"""PF355 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_PREP = textwrap.dedent("""
    from datasets import load_dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer, DataCollatorForSeq2Seq, Trainer, TrainingArguments

    tokenizer = AutoTokenizer.from_pretrained("Qwen/Qwen2.5-0.5B")
    model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B")


    def preprocess(example, max_len=1024):
        prompt = f"### Instruction:\\n{{example['instruction']}}\\n\\n### Response:\\n"
        prompt_ids = tokenizer(prompt, add_special_tokens=False)["input_ids"]
        answer_ids = tokenizer.encode(example["output"] + tokenizer.eos_token, add_special_tokens=False)
        input_ids = (prompt_ids + answer_ids)[:max_len]
        {labels}
        return {{
            "input_ids": input_ids,
            "attention_mask": [1] * len(input_ids),
            "labels": {ret}
        }}


    data = load_dataset("json", data_files="sft.jsonl", split="train").map(preprocess)
    trainer = Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=data,
                      data_collator=DataCollatorForSeq2Seq(tokenizer, padding=True))
    trainer.train()
""")

PF355_BAD = [
    # prompt2model PR 167: the labels are a copy of the whole sequence
    _PREP.format(labels="labels = list(input_ids)  # warning: PF355", ret="labels"),
    # the copy written in the returned dict
    _PREP.format(labels="pass", ret="input_ids.copy()  # warning: PF355"),
]

PF355_GOOD = [
    # the fix
    _PREP.format(labels="labels = ([-100] * len(prompt_ids) + answer_ids)[:max_len]", ret="labels"),
    # tricky-correct: an option that trains on the inputs, the mask written with a named ignore index
    _PREP.replace("def preprocess(example, max_len=1024):", "def preprocess(example, max_len=1024, train_on_inputs=False):")
    .format(labels="labels = list(input_ids)\n    if not train_on_inputs:\n"
                   "        labels[:len(prompt_ids)] = [IGNORE_INDEX] * len(prompt_ids)",
            ret="labels").replace("tokenizer = AutoTokenizer", "IGNORE_INDEX = -100\ntokenizer = AutoTokenizer"),
    # tricky-correct: one tokenized text, trained on in full (continued pretraining style)
    textwrap.dedent("""
    def preprocess(example, tokenizer):
        ids = tokenizer(example["text"] + tokenizer.eos_token)["input_ids"]
        return {"input_ids": ids, "labels": list(ids)}
"""),
]
