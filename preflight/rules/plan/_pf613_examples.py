"""PF613 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

import textwrap

_SFT = textwrap.dedent("""
    # --- sft/dataset.py
    from torch.utils.data import Dataset


    class SFTDataset(Dataset):
        def __init__(self, records, tokenizer):
            self.tokenizer = tokenizer
            self.examples = [self.build(r) for r in records]

        def build(self, record):
            messages = [{{"role": "user", "content": record["prompt"]}}]
            prompt = self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
            full = prompt + record["response"] + self.tokenizer.eos_token
            enc = self.tokenizer(full, max_length=2048, truncation=True{special}){pin}
            return enc["input_ids"]

        def __getitem__(self, idx):
            return self.examples[idx]

        def __len__(self):
            return len(self.examples)
    # --- train.py
    import json

    from transformers import AutoModelForCausalLM, AutoTokenizer

    from sft.dataset import SFTDataset

    MODEL = "{model}"

    tokenizer = AutoTokenizer.from_pretrained(MODEL)
    model = AutoModelForCausalLM.from_pretrained(MODEL)
    ds = SFTDataset([json.loads(line) for line in open("data.jsonl")], tokenizer)
""")

PF613_BAD = [
    # OpenRLHF issue 393: the Llama-3 template's text tokenized again, two <|begin_of_text|>
    _SFT.format(model="meta-llama/Meta-Llama-3-8B-Instruct", special="", pin="  # warning: PF613"),
    # one file, Mistral, the prompt encoded with tokenizer.encode
    textwrap.dedent("""
    # --- prep.py
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained("mistralai/Mistral-7B-Instruct-v0.2")


    def encode(example):
        text = tok.apply_chat_template(example["messages"], tokenize=False)
        return {"input_ids": tok.encode(text)}  # warning: PF613
"""),
]

PF613_GOOD = [
    # the fix of the report
    _SFT.format(model="meta-llama/Meta-Llama-3-8B-Instruct", special=", add_special_tokens=False", pin=""),
    # tricky-correct: Qwen's template writes no BOS and its tokenizer adds none
    _SFT.format(model="Qwen/Qwen2.5-7B-Instruct", special="", pin=""),
    # tricky-correct: the template tokenizes, and the other encoded text is not the template's
    textwrap.dedent("""
    # --- prep.py
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained("google/gemma-2-9b-it")


    def encode(example):
        ids = tok.apply_chat_template(example["messages"], tokenize=True, add_generation_prompt=True)
        text = tok.apply_chat_template(example["messages"], tokenize=False)
        text = example["system"] + text
        return {"input_ids": ids, "system_ids": tok(text)["input_ids"]}
"""),
]
