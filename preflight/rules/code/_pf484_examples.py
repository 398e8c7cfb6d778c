"""PF484 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

PF484_BAD = [
    # R-BERT#5 shape: entity markers added in a helper, the model loaded and trained in a loop
    """
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
""",
    # a new pad token on GPT-2, trained by the Trainer
    """
from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments

tokenizer = AutoTokenizer.from_pretrained("gpt2")
tokenizer.add_special_tokens({"pad_token": "[PAD]"})
tokenizer.add_tokens(["<user>", "<bot>"])
model = AutoModelForCausalLM.from_pretrained("gpt2")  # warning: PF484
Trainer(model=model, args=TrainingArguments("out"), train_dataset=ds).train()
""",
]

PF484_GOOD = [
    # the fix: the embeddings are resized after loading
    """
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
""",
    # tricky-correct: the pad token reuses a token the tokenizer has; add_special_tokens=False is a keyword
    """
from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments

tokenizer = AutoTokenizer.from_pretrained("meta-llama/Llama-2-7b-hf")
tokenizer.add_special_tokens({"pad_token": tokenizer.unk_token})
tokenizer.add_special_tokens({"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<unk>"})
enc = tokenizer("hello", add_special_tokens=False)
model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf")
Trainer(model=model, args=TrainingArguments("out"), train_dataset=ds).train()
""",
    # tricky-correct: alpaca's helper resizes inside (any *resize* call), and a model built with vocab_size
    """
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer, GPT2Config, GPT2LMHeadModel

tokenizer = AutoTokenizer.from_pretrained("huggyllama/llama-7b")
model = AutoModelForCausalLM.from_pretrained("huggyllama/llama-7b")
smart_tokenizer_and_embedding_resize({"pad_token": "[PAD]"}, tokenizer, model)
tokenizer.add_tokens(["<x>"])
model(**batch).loss.backward()
""",
    """
from transformers import AutoTokenizer, GPT2Config, GPT2LMHeadModel, Trainer

tokenizer = AutoTokenizer.from_pretrained("gpt2")
tokenizer.add_tokens(["<x>", "<y>"])
config = GPT2Config(vocab_size=len(tokenizer))
model = GPT2LMHeadModel.from_pretrained("gpt2", config=config, ignore_mismatched_sizes=True)
Trainer(model=model).train()
""",
    # tricky-correct: a preprocessing script (no model trained here)
    """
from transformers import AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
tokenizer.add_tokens(["<e1>", "</e1>"])
tokenizer.save_pretrained("tok")
""",
]
