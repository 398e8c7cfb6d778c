"""PF564 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# warning: PF564`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

import textwrap

PF564_BAD = [
    # batched evaluation with the training tokenizer's right padding
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer


    def load(model_dir):
        tokenizer = AutoTokenizer.from_pretrained(model_dir, padding_side="right")  # warning: PF564
        model = AutoModelForCausalLM.from_pretrained(model_dir, torch_dtype=torch.bfloat16)
        return tokenizer, model


    @torch.no_grad()
    def generate_batch(tokenizer, model, prompts):
        inputs = tokenizer(prompts, return_tensors="pt", padding=True).to(model.device)
        outputs = model.generate(**inputs, max_new_tokens=256)
        return tokenizer.batch_decode(outputs[:, inputs["input_ids"].shape[1]:], skip_special_tokens=True)
"""),
    # the side set by assignment, the ids passed by keyword
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained("gpt2")
    tok.pad_token = tok.eos_token
    tok.padding_side = "right"  # warning: PF564
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    batch = tok(["a question", "a much longer question here"], return_tensors="pt", padding="longest")
    out = model.generate(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"])
"""),
]

PF564_GOOD = [
    # the fix
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer


    def load(model_dir):
        tokenizer = AutoTokenizer.from_pretrained(model_dir, padding_side="left")
        model = AutoModelForCausalLM.from_pretrained(model_dir, torch_dtype=torch.bfloat16)
        return tokenizer, model


    @torch.no_grad()
    def generate_batch(tokenizer, model, prompts):
        inputs = tokenizer(prompts, return_tensors="pt", padding=True).to(model.device)
        return model.generate(**inputs, max_new_tokens=256)
"""),
    # tricky-correct: right padding for training, switched to left before generating
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained("gpt2", padding_side="right")
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    train(model, tok)
    tok.padding_side = "left"
    batch = tok(["a", "a longer prompt"], return_tensors="pt", padding=True)
    out = model.generate(**batch)
"""),
    # one prompt at a time: nothing is padded
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained("gpt2", padding_side="right")
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    for prompt in prompts:
        ids = tok(prompt, return_tensors="pt")
        print(tok.decode(model.generate(**ids)[0]))
"""),
    # tricky-correct: a literal batch of one prompt (transformers' own export test shape)
    textwrap.dedent("""
    from transformers import AutoTokenizer, Qwen2ForCausalLM

    tokenizer = AutoTokenizer.from_pretrained("Qwen/Qwen2-0.5B", pad_token="</s>", padding_side="right")
    model = Qwen2ForCausalLM.from_pretrained("Qwen/Qwen2-0.5B")
    prompt_tokens = tokenizer(["My favourite condiment is "], return_tensors="pt", padding=True)
    out = model.generate(**prompt_tokens, max_new_tokens=20)
"""),
    # an encoder-decoder model pads on the right
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, AutoModelForSeq2SeqLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained("t5-small", padding_side="right")
    model = AutoModelForSeq2SeqLM.from_pretrained("t5-small")
    batch = tok(["translate: a", "translate: a longer one"], return_tensors="pt", padding=True)
    out = model.generate(**batch)
"""),
]
