"""PF484 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF484_BAD = [
    # R-BERT#5 shape: entity markers added in a helper, the model loaded and trained in a loop
    textwrap.dedent("""
    import torch
    from transformers import BertTokenizer
    from model import RBERT

    MARKERS = ["<e1>", "</e1>", "<e2>", "</e2>"]


    def load_tokenizer(path):
        tokenizer = BertTokenizer.from_pretrained(path)
        tokenizer.add_special_tokens({"additional_special_tokens": MARKERS})
        return tokenizer


    def train(path, loader):
        tokenizer = load_tokenizer(path)
        model = RBERT.from_pretrained(path, num_labels=19)  # warning: PF484
        optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
        model.train()
        for batch in loader:
            loss = model(**batch)[0]
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
"""),
    # a new pad token on GPT-2, trained by the Trainer
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments

    tokenizer = AutoTokenizer.from_pretrained("gpt2")
    tokenizer.add_special_tokens({"pad_token": "[PAD]"})
    tokenizer.add_tokens(["<user>", "<bot>"])
    model = AutoModelForCausalLM.from_pretrained("gpt2")  # warning: PF484
    Trainer(model=model, args=TrainingArguments("out"), train_dataset=ds).train()
"""),
    # held-out-39 report shape: a [PAD] token added for batched generation with released Llama-2 weights
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    MODEL = "meta-llama/Llama-2-13b-chat-hf"
    tokenizer = AutoTokenizer.from_pretrained(MODEL, padding_side="left")
    tokenizer.add_special_tokens({"pad_token": "[PAD]"})
    model = AutoModelForCausalLM.from_pretrained(MODEL, torch_dtype=torch.float16)  # warning: PF484
    batch = tokenizer(prompts, return_tensors="pt", padding=True)
    out = model.generate(**batch, max_new_tokens=4, pad_token_id=tokenizer.pad_token_id)
"""),
]

PF484_GOOD = [
    # the fix: the embeddings are resized after loading
    textwrap.dedent("""
    import torch
    from transformers import BertTokenizer
    from model import RBERT

    tokenizer = BertTokenizer.from_pretrained("bert-base-uncased")
    tokenizer.add_special_tokens({"additional_special_tokens": ["<e1>", "</e1>"]})
    model = RBERT.from_pretrained("bert-base-uncased", num_labels=19)
    model.resize_token_embeddings(len(tokenizer))
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    model.train()
    for batch in loader:
        model(**batch)[0].backward()
        optimizer.step()
        optimizer.zero_grad()
"""),
    # tricky-correct: the pad token reuses a token the tokenizer has; add_special_tokens=False is a keyword
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments

    tokenizer = AutoTokenizer.from_pretrained("meta-llama/Llama-2-7b-hf")
    tokenizer.add_special_tokens({"pad_token": tokenizer.unk_token})
    tokenizer.add_special_tokens({"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<unk>"})
    enc = tokenizer("hello", add_special_tokens=False)
    model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf")
    Trainer(model=model, args=TrainingArguments("out"), train_dataset=ds).train()
"""),
    # tricky-correct: alpaca's helper resizes inside (any *resize* call), and a model built with vocab_size
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer, GPT2Config, GPT2LMHeadModel

    tokenizer = AutoTokenizer.from_pretrained("huggyllama/llama-7b")
    model = AutoModelForCausalLM.from_pretrained("huggyllama/llama-7b")
    smart_tokenizer_and_embedding_resize({"pad_token": "[PAD]"}, tokenizer, model)
    tokenizer.add_tokens(["<x>"])
    model(**batch).loss.backward()
"""),
    textwrap.dedent("""
    from transformers import AutoTokenizer, GPT2Config, GPT2LMHeadModel, Trainer

    tokenizer = AutoTokenizer.from_pretrained("gpt2")
    tokenizer.add_tokens(["<x>", "<y>"])
    config = GPT2Config(vocab_size=len(tokenizer))
    model = GPT2LMHeadModel.from_pretrained("gpt2", config=config, ignore_mismatched_sizes=True)
    Trainer(model=model).train()
"""),
    # tricky-correct: a preprocessing script (no model trained here)
    textwrap.dedent("""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
    tokenizer.add_tokens(["<e1>", "</e1>"])
    tokenizer.save_pretrained("tok")
"""),
    # tricky-correct (trl examples/scripts/ppo/ppo.py at f2cd577): a pad token added for trl's PPOTrainer,
    # which replaces every pad id by 0 before each forward and generate: the new id never reaches the table
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, AutoModelForSequenceClassification, AutoTokenizer
    from trl.experimental.ppo import PPOConfig, PPOTrainer

    tokenizer = AutoTokenizer.from_pretrained("EleutherAI/pythia-1b-deduped", padding_side="left")
    tokenizer.add_special_tokens({"pad_token": "[PAD]"})
    value_model = AutoModelForSequenceClassification.from_pretrained("my-rm", num_labels=1)
    reward_model = AutoModelForSequenceClassification.from_pretrained("my-rm", num_labels=1)
    policy = AutoModelForCausalLM.from_pretrained("my-sft")
    trainer = PPOTrainer(args=PPOConfig(output_dir="out"), processing_class=tokenizer, model=policy, ref_model=None,
                         reward_model=reward_model, value_model=value_model, train_dataset=train_dataset)
    trainer.train()
"""),
    # tricky-correct (FastChat fastchat/train/train_yuan2.py at 0e6d3e4): Yuan2's own special tokens,
    # re-registered as IEIT-Yuan's model cards do on every load; they are rows of the checkpoint's table
    textwrap.dedent("""
    import transformers

    model = transformers.AutoModelForCausalLM.from_pretrained(model_path, trust_remote_code=True)
    tokenizer = transformers.AutoTokenizer.from_pretrained(model_path, use_fast=False, trust_remote_code=True)
    tokenizer.pad_token = tokenizer.unk_token
    tokenizer.add_tokens(["<eod>", "<sep>", "<pad>", "<mask>", "<predict>", "<FIM_SUFFIX>", "<FIM_PREFIX>",
                          "<FIM_MIDDLE>", "<commit_before>", "<commit_msg>", "<commit_after>", "<jupyter_start>",
                          "<jupyter_text>", "<jupyter_code>", "<jupyter_output>", "<empty_output>"],
                         special_tokens=True)
    trainer = transformers.Trainer(model=model, tokenizer=tokenizer, args=training_args, train_dataset=ds)
    trainer.train()
"""),
    # the fix: the pad token reuses EOS, an id the table has
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    MODEL = "meta-llama/Llama-2-13b-chat-hf"
    tokenizer = AutoTokenizer.from_pretrained(MODEL, padding_side="left")
    tokenizer.pad_token = tokenizer.eos_token
    model = AutoModelForCausalLM.from_pretrained(MODEL, torch_dtype=torch.float16)
    batch = tokenizer(prompts, return_tensors="pt", padding=True)
    out = model.generate(**batch, max_new_tokens=4, pad_token_id=tokenizer.pad_token_id)
"""),
    # tricky: inference from a local fine-tuned checkpoint, saved after its table was resized
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained("out/llama-sft", padding_side="left")
    tokenizer.add_special_tokens({"pad_token": "[PAD]"})
    model = AutoModelForCausalLM.from_pretrained("out/llama-sft")
    batch = tokenizer(prompts, return_tensors="pt", padding=True)
    out = model.generate(**batch, max_new_tokens=32)
"""),
    # tricky: Llama 3.1's own pad row (`<|finetune_right_pad_id|>`, id 128004) and a reserved row named as
    # special tokens: both are already in the vocabulary and the embedding table (held-out-44's device_map twin)
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer

    tokenizer = AutoTokenizer.from_pretrained("meta-llama/Llama-3.1-8B-Instruct")
    tokenizer.add_special_tokens({"pad_token": "<|finetune_right_pad_id|>"})
    tokenizer.add_special_tokens({"additional_special_tokens": ["<|reserved_special_token_10|>"]})
    model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.1-8B-Instruct", torch_dtype=torch.bfloat16)
    Trainer(model=model, args=args, train_dataset=data).train()
"""),
]
