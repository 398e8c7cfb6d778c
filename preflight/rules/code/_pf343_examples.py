"""PF343 examples: executable documentation (bad ones must fire, good ones stay silent)."""

from __future__ import annotations

import textwrap

_EVAL = textwrap.dedent("""
    import torch
    from transformers import GPT2LMHeadModel, GPT2TokenizerFast

    tok = GPT2TokenizerFast.from_pretrained("gpt2")
    tok.pad_token = tok.eos_token{side}
    model = GPT2LMHeadModel.from_pretrained("gpt2").cuda()


    def cloze_accuracy(cloze):
        hits = 0
        with torch.no_grad():
            for contexts, gold in cloze:
                enc = tok(list(contexts), return_tensors="pt", padding={padding}).to("cuda")
                logits = model(**enc).logits
    {read}
                hits += (next_ids == gold.cuda()).sum().item()
        return hits
""")

PF343_BAD = [
    # transformers issue 3167: the next token read at position -1 of right-padded rows
    _EVAL.format(side="", padding="True", read="            next_ids = logits[:, -1, :].argmax(-1)  # warning: PF343"),
    _EVAL.format(side="", padding='"longest"', read="            next_ids = logits[:, -1].argmax(-1)  # warning: PF343"),
]

PF343_GOOD = [
    # the fix: each row's last real position
    _EVAL.format(side="", padding="True",
                 read="            last = enc.attention_mask.sum(1) - 1\n"
                      "            next_ids = logits[torch.arange(len(last)), last].argmax(-1)"),
    # the other fix: left padding
    _EVAL.format(side='\ntok.padding_side = "left"', padding="True",
                 read="            next_ids = logits[:, -1].argmax(-1)"),
    # tricky: unpadded (one sequence per call)
    _EVAL.format(side="", padding="False", read="            next_ids = logits[:, -1].argmax(-1)"),
]
