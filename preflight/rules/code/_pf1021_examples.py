"""PF1021 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

# QwenLM/Qwen3-ASR PR 212: prompt + answer tokenized together, padded on the left, prompt masked from column 0
_COLLATE = textwrap.dedent("""
    import torch
    from torch.utils.data import DataLoader
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained("Qwen/Qwen2.5-1.5B")
    tok.padding_side = {side}
    model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-1.5B").cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-5)


    def collate(batch):
        enc = tok([r["prefix"] + r["answer"] for r in batch], padding=True, return_tensors="pt")
        labels = enc["input_ids"].clone()
        for i, r in enumerate(batch):
            prefix_length = len(tok(r["prefix"])["input_ids"])
    {mask}
        labels[enc["attention_mask"] == 0] = -100
        enc["labels"] = labels
        return enc


    for batch in DataLoader(rows, batch_size=8, collate_fn=collate, shuffle=True):
        loss = model(**{{k: v.cuda() for k, v in batch.items()}}).loss
        loss.backward()
        opt.step()
        opt.zero_grad()
""")

_FROM_ZERO = "        labels[i, :prefix_length] = -100"
_OFFSET = ("        pad = int((enc['attention_mask'][i] == 0).sum())\n"
           "        labels[i, pad:pad + prefix_length] = -100")
_BOTH_SIDES = ("        if tok.padding_side == 'left':\n"
               "            labels[i, : labels.shape[1] - len(tok(r['answer'])['input_ids'])] = -100\n"
               "        else:\n"
               "            labels[i, :prefix_length] = -100")

PF1021_BAD = [
    _COLLATE.format(side='"left"', mask=_FROM_ZERO + "  # warning: PF1021"),
    # a collator class: the tokenizer loaded with padding_side="left", the ids read as an attribute
    textwrap.dedent("""
    from transformers import AutoTokenizer

    IGNORE_INDEX = -100


    class SFTCollator:
        def __init__(self, name):
            self.tokenizer = AutoTokenizer.from_pretrained(name, padding_side="left")

        def __call__(self, examples):
            prompts = [ex["prompt"] for ex in examples]
            batch = self.tokenizer([p + ex["response"] for p, ex in zip(prompts, examples)], padding="longest",
                                   return_tensors="pt")
            labels = batch.input_ids.clone()
            for i, prompt in enumerate(prompts):
                labels[i, :len(self.tokenizer.encode(prompt))] = IGNORE_INDEX  # warning: PF1021
            batch["labels"] = labels
            return batch
    """),
]

PF1021_GOOD = [
    # the fix of the PR: the mask offset by the row's padding
    _COLLATE.format(side='"left"', mask=_OFFSET),
    # tricky-correct: right padding (the prompt does start at column 0)
    _COLLATE.format(side='"right"', mask=_FROM_ZERO),
    # tricky-correct: the mask handles both sides explicitly
    _COLLATE.format(side='"left"', mask=_BOTH_SIDES),
    # tricky-correct: left-padded prompts concatenated with the completions: the first P columns are all prompt,
    # masked for every row at once
    textwrap.dedent("""
    import torch
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained("Qwen/Qwen2.5-1.5B")
    tok.padding_side = "left"


    def build(prompts, completions):
        p = tok(prompts, padding=True, return_tensors="pt")
        c = tok(completions, padding=True, return_tensors="pt", add_special_tokens=False)
        input_ids = torch.cat([p["input_ids"], c["input_ids"]], dim=1)
        labels = input_ids.clone()
        labels[:, :p["input_ids"].shape[1]] = -100
        return input_ids, labels
    """),
    # tricky-correct: left padding set for generation only, after training switched back to the right
    _COLLATE.format(side='"right"', mask=_FROM_ZERO)
    + 'tok.padding_side = "left"\nout = model.generate(**tok(["Q:"], return_tensors="pt", padding=True))\n',
]
