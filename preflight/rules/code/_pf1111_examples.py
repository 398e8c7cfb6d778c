"""PF1111 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# warning: PFxxx`` comment; the meta-test asserts exactly those
findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF1111_BAD = [
    # Vision-CAIR/MiniGPT-4 issue 129: batched evaluation prompts padded with the default (right) side
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer


    def main(prompts):
        tokenizer = AutoTokenizer.from_pretrained("out/llama2-7b-sft")  # warning: PF1111
        tokenizer.pad_token = tokenizer.unk_token
        model = AutoModelForCausalLM.from_pretrained("out/llama2-7b-sft", torch_dtype=torch.bfloat16)
        outputs = []
        for i in range(0, len(prompts), 16):
            batch = prompts[i:i + 16]
            enc = tokenizer(batch, return_tensors="pt", padding=True).to(0)
            gen = model.generate(**enc, max_new_tokens=256)
            outputs += tokenizer.batch_decode(gen[:, enc["input_ids"].shape[1]:], skip_special_tokens=True)
        return outputs
"""),
    # DeepSpeedExamples issue 637: the RLHF actor generates from prompts padded with padding_side="right"
    textwrap.dedent("""
    from transformers import AutoTokenizer


    def collect(engine, prompts, name):
        tokenizer = AutoTokenizer.from_pretrained(name, padding_side="right")  # warning: PF1111
        for i in range(0, len(prompts), 16):
            enc = tokenizer(prompts[i:i + 16], return_tensors="pt", padding=True)
            enc = {k: v.to(engine.actor.device) for k, v in enc.items()}
            seq = engine.actor.module.generate(**enc, max_new_tokens=256, do_sample=True)
            yield seq
"""),
    # shape of fujiki-saij/gpt-neox test_hf_model.py: `paddding_side` (three d) sets nothing, the side stays right
    textwrap.dedent("""
    import transformers

    model = transformers.AutoModelForCausalLM.from_pretrained(model_path)
    tokenizer = transformers.AutoTokenizer.from_pretrained("EleutherAI/gpt-neox-20b")  # warning: PF1111
    tokenizer.pad_token = tokenizer.eos_token
    tokenizer.paddding_side = "left"
    prompts = ["The Statue of Liberty was a gift from", "def is_palindrome(s):"]
    batch_encoding = tokenizer(prompts, return_tensors="pt", padding=True)
    samples = model.generate(**batch_encoding, max_new_tokens=64)
"""),
]

PF1111_GOOD = [
    # tricky-correct (shape of taweili/fluffy-eureka huggingface/t005.py): a one-prompt list pads nothing
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained("01-ai/Yi-6B")
    model = AutoModelForCausalLM.from_pretrained("01-ai/Yi-6B")
    inp = tokenizer(["Today I am in Paris and"], padding=True, return_tensors="pt")
    res = model.generate(**inp, max_new_tokens=30)
"""),
    # the fix: the tokenizer pads on the left
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained("out/llama2-7b-sft", padding_side="left")
    model = AutoModelForCausalLM.from_pretrained("out/llama2-7b-sft")
    batch = prompts[:16]
    enc = tokenizer(batch, return_tensors="pt", padding=True)
    gen = model.generate(**enc, max_new_tokens=64)
"""),
    # tricky-correct: right padding for training, switched to left before generating
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained("gpt2", padding_side="right")
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    train(model, tokenizer)
    tokenizer.padding_side = "left"
    batch = [p["prompt"] for p in eval_set]
    enc = tokenizer(batch, return_tensors="pt", padding=True)
    out = model.generate(**enc, max_new_tokens=64)
"""),
    # tricky-correct: an encoder-decoder model, whose encoder expects right padding
    textwrap.dedent("""
    from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained("t5-base")
    model = AutoModelForSeq2SeqLM.from_pretrained("t5-base")
    batch = texts[:32]
    enc = tokenizer(batch, return_tensors="pt", padding=True)
    out = model.generate(**enc, max_new_tokens=64)
"""),
    # tricky-correct: one prompt at a time, padding=True pads nothing
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained("gpt2")
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    for prompt in prompts:
        enc = tokenizer(prompt, return_tensors="pt", padding=True)
        out = model.generate(**enc, max_new_tokens=64)
"""),
]
