"""PF488 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_HAND_PADDED = textwrap.dedent("""
    import torch


    class ChatCollator:
        def __init__(self, tokenizer):
            self.tokenizer = tokenizer

        def __call__(self, features):
            max_length = max(len(f["input_ids"]) for f in features)
            user = self.tokenizer.encode("<|im_start|>user", add_special_tokens=False)
            batch_ids, batch_labels = [], []
            for f in features:
                ids = f["input_ids"]
                padding_length = max_length - len(ids)
                padded_ids = ids + [self.tokenizer.pad_token_id] * padding_length
                {label_line}
                for j in range(len(ids) - len(user) + 1):
                    if ids[j:j + len(user)] == user:
                        for k in range(j):
                            label[k] = -100
                        break
                {extra}
                batch_ids.append(padded_ids)
                batch_labels.append(label)
            return {{"input_ids": torch.tensor(batch_ids), "labels": torch.tensor(batch_labels)}}
""")


_T5_TARGETS = textwrap.dedent("""
    from torch.utils.data import Dataset


    class SummaryDataset(Dataset):
        def __init__(self, rows, tokenizer, source_len=512, target_len=150):
            self.rows, self.tokenizer, self.source_len, self.target_len = rows, tokenizer, source_len, target_len

        def __getitem__(self, idx):
            source = self.tokenizer(self.rows[idx]["text"], max_length=self.source_len, padding="max_length",
                                    truncation=True, return_tensors="pt")
            target = self.tokenizer(self.rows[idx]["summary"], max_length=self.target_len, padding="max_length",
                                    truncation=True, return_tensors="pt")
            y = target["input_ids"].squeeze(0).clone()
            item = {{"input_ids": source["input_ids"].squeeze(0), "attention_mask": source["attention_mask"].squeeze(0)}}
            {mask}
            item["labels"] = y  # {pin}
            return item
""")


PF488_BAD = [
    # TRL PR 1625 (ORPO's NLL term): a Trainer subclass's compute_loss copies the max_length-padded
    # input_ids as the labels of its own cross-entropy; pad = EOS, nothing set to -100
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments

    tokenizer = AutoTokenizer.from_pretrained("mistralai/Mistral-7B-v0.1")
    tokenizer.pad_token = tokenizer.eos_token


    class NLLTrainer(Trainer):
        def compute_loss(self, model, inputs, return_outputs=False):
            input_ids = inputs["input_ids"]
            labels = input_ids.clone()  # warning: PF488
            outputs = model(input_ids=input_ids, attention_mask=inputs["attention_mask"])
            logits = outputs.logits[:, :-1, :].contiguous()
            targets = labels[:, 1:].contiguous()
            loss = torch.nn.functional.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1),
                                                     ignore_index=-100)
            return (loss, outputs) if return_outputs else loss


    def tokenize(ex):
        return tokenizer(ex["prompt"] + ex["chosen"], truncation=True, max_length=1024, padding="max_length")


    train = load_chat_dataset().map(tokenize)
    model = AutoModelForCausalLM.from_pretrained("mistralai/Mistral-7B-v0.1")
    NLLTrainer(model=model, args=TrainingArguments("out"), train_dataset=train).train()
"""),
    # OneRec-Think issue 8 shape: a collator pads by hand, copies the row into the labels, masks only the prompt
    _HAND_PADDED.format(label_line="label = padded_ids.copy()  # warning: PF488", extra=""),
    # learn-llm#2 shape: a pretraining Dataset pads to max_length and clones input_ids as labels
    textwrap.dedent("""
    from torch.utils.data import Dataset


    class PretrainDataset(Dataset):
        def __init__(self, texts, tokenizer, max_length=512):
            self.texts, self.tokenizer, self.max_length = texts, tokenizer, max_length

        def __getitem__(self, idx):
            enc = self.tokenizer(self.texts[idx], max_length=self.max_length, padding="max_length", truncation=True,
                                 return_tensors="pt")
            input_ids = enc["input_ids"][0]
            labels = input_ids.clone()  # warning: PF488
            return {"input_ids": input_ids, "attention_mask": enc["attention_mask"][0], "labels": labels}

        def __len__(self):
            return len(self.texts)
"""),
    # OpenJarvis#521 shape: the model called with labels=input_ids on max-length padded rows
    """
def train_step(model, tokenizer, optimizer, texts):
    enc = tokenizer(texts, padding="max_length", truncation=True, max_length=512, return_tensors="pt")
    input_ids = enc["input_ids"].cuda()
    out = model(input_ids=input_ids, attention_mask=enc["attention_mask"].cuda(), labels=input_ids)  # warning: PF488
    out.loss.backward()
    optimizer.step()
    optimizer.zero_grad()
""",
    # a datasets.map tokenize function
    """
def tokenize(batch, tokenizer):
    out = tokenizer(batch["text"], truncation=True, max_length=1024, padding="max_length")
    out["labels"] = out["input_ids"].copy()  # warning: PF488
    return out
""",
    # bert-squeeze#80 shape: a seq2seq collator pads the batch's targets to the longest and uses them as labels
    """
class Seq2SeqCollator:
    def __init__(self, tokenizer, max_target_length=128):
        self.tokenizer, self.max_target_length = tokenizer, max_target_length

    def __call__(self, examples):
        batch = self.tokenizer([e["document"] for e in examples], truncation=True, padding=True,
                               return_tensors="pt")
        targets = [e["summary"] for e in examples]
        target_enc = self.tokenizer(text_target=targets, max_length=self.max_target_length, truncation=True,
                                    padding="longest", return_tensors="pt")
        batch["labels"] = target_enc["input_ids"]  # warning: PF488
        return batch
""",
    # abhimishra91/transformers-tutorials#15 shape: a T5 summary Dataset fed to the Trainer returns the padded
    # target ids, through a local name, as the labels
    _T5_TARGETS.format(mask="", pin="warning: PF488"),
]

PF488_GOOD = [
    # the fix of TRL PR 1625: the pad positions masked with the attention mask
    textwrap.dedent("""
    import torch
    from transformers import Trainer


    class NLLTrainer(Trainer):
        def compute_loss(self, model, inputs, return_outputs=False):
            input_ids, attention_mask = inputs["input_ids"], inputs["attention_mask"]
            labels = torch.where(attention_mask == 1, input_ids, -100)
            outputs = model(input_ids=input_ids, attention_mask=attention_mask)
            targets = labels[:, 1:].contiguous()
            loss = torch.nn.functional.cross_entropy(outputs.logits[:, :-1].flatten(0, 1), targets.view(-1))
            return (loss, outputs) if return_outputs else loss


    def tokenize(ex):
        return tokenizer(ex["text"], truncation=True, max_length=1024, padding="max_length")
"""),
    # tricky: the copy is ignored through the pad id itself (`ignore_index=tokenizer.pad_token_id`)
    textwrap.dedent("""
    import torch.nn.functional as F
    from transformers import Trainer


    class PadAwareTrainer(Trainer):
        def compute_loss(self, model, inputs, return_outputs=False):
            labels = inputs["input_ids"].clone()
            logits = model(**inputs).logits
            loss = F.cross_entropy(logits[:, :-1].flatten(0, 1), labels[:, 1:].flatten(),
                                   ignore_index=self.tokenizer.pad_token_id)
            return loss


    def tokenize(ex):
        return tokenizer(ex["text"], truncation=True, max_length=512, padding="max_length")
"""),
    # the fix of the T5 Dataset: the pad positions of the labels set to -100
    _T5_TARGETS.format(mask="y[y == tokenizer.pad_token_id] = -100", pin="the pads are -100"),
    # the fix: the labels padded with -100
    _HAND_PADDED.format(label_line="label = list(ids) + [-100] * padding_length", extra=""),
    # tricky: the copy's pad positions are masked afterwards from a lower bound on
    _HAND_PADDED.format(label_line="label = padded_ids.copy()",
                        extra="label[len(ids):] = [-100] * padding_length"),
    # the fix: pads masked to -100
    """
def train_step(model, tokenizer, optimizer, texts):
    enc = tokenizer(texts, padding="max_length", truncation=True, max_length=512, return_tensors="pt")
    input_ids = enc["input_ids"].cuda()
    labels = input_ids.clone()
    labels[enc["attention_mask"] == 0] = -100
    out = model(input_ids=input_ids, attention_mask=enc["attention_mask"].cuda(), labels=labels)
    out.loss.backward()
    optimizer.step()
    optimizer.zero_grad()
""",
    # tricky-correct (run_clm.py): texts grouped into full blocks, no padding; labels copied as they are
    """
def group_texts(examples, block_size=1024):
    concatenated = {k: sum(examples[k], []) for k in examples.keys()}
    total = (len(concatenated["input_ids"]) // block_size) * block_size
    result = {k: [t[i:i + block_size] for i in range(0, total, block_size)] for k, t in concatenated.items()}
    result["labels"] = result["input_ids"].copy()
    return result


def tokenize(batch, tokenizer):
    return tokenizer(batch["text"], truncation=True, max_length=1024)
""",
    # tricky-correct: dynamic padding of one example (no pad), and a collator that rebuilds labels
    textwrap.dedent("""
    from transformers import DataCollatorForLanguageModeling


    def tokenize(example, tokenizer):
        out = tokenizer(example["text"], truncation=True, max_length=512, padding="max_length")
        out["labels"] = out["input_ids"].copy()
        return out


    collator = DataCollatorForLanguageModeling(tokenizer, mlm=False)
"""),
    """
def encode(tokenizer, text):
    enc = tokenizer(text, padding=True, truncation=True, max_length=512)
    enc["labels"] = enc["input_ids"].copy()
    return enc
""",
    # the collator's fix: the batch's target padding masked to -100
    """
class Seq2SeqCollator:
    def __init__(self, tokenizer):
        self.tokenizer = tokenizer

    def __call__(self, examples):
        batch = self.tokenizer([e["document"] for e in examples], truncation=True, padding=True,
                               return_tensors="pt")
        target_enc = self.tokenizer(text_target=[e["summary"] for e in examples], truncation=True, padding=True,
                                    return_tensors="pt")
        batch["labels"] = target_enc["input_ids"].masked_fill(target_enc["attention_mask"] == 0, -100)
        return batch
""",
    # tricky-correct: the list is padded dynamically, but the labels come from each example's own
    # unpadded ids in another function
    """
def collate(examples, tokenizer):
    texts = [e["text"] for e in examples]
    return tokenizer(texts, padding=True, return_tensors="pt")


def add_labels(example):
    example["labels"] = list(example["input_ids"])
    return example
""",
    # tricky-correct: pad_sequence pads the ids with the pad token and the labels with an ignore value
    textwrap.dedent("""
    import torch
    from torch.nn.utils.rnn import pad_sequence


    def collate(batch, pad_id):
        input_ids = pad_sequence([torch.tensor(x) for x in batch], batch_first=True, padding_value=pad_id)
        labels = pad_sequence([torch.tensor(x) for x in batch], batch_first=True, padding_value=-100)
        return {"input_ids": input_ids, "labels": labels}
"""),
    # tricky-correct: fixed-length rows stacked (nothing padded) and copied as labels
    textwrap.dedent("""
    import torch


    class Collator:
        def __call__(self, batch):
            input_ids = torch.stack([torch.tensor(x) for x in batch])
            return {"input_ids": input_ids, "labels": input_ids.clone()}
"""),
]
