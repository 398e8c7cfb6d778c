"""PF125 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_HAND_PADDED = textwrap.dedent("""
    import torch
    from torch import nn
    from torch.utils.data import DataLoader

    from lm import load_model, load_tokenizer

    tokenizer = load_tokenizer("aquila-7b")
    model = load_model("aquila-7b").cuda()
    max_length = 2048
    loss_func = nn.CrossEntropyLoss({ignore})


    def padding(indice, max_length, pad_idx=tokenizer.token_end_id):
        return [ids + [pad_idx] * (max_length - len(ids)) for ids in indice]


    def collate_fn(batch):
        ids = [tokenizer.encode(x["text"])[:max_length] for x in batch]
        input_ids = torch.tensor(padding(ids, max_length), dtype=torch.long)
        labels = torch.tensor(padding(ids, max_length{label_pad}), dtype=torch.long)
        return {{"input_ids": input_ids, "labels": labels}}


    dataloader = DataLoader(dataset, batch_size=4, collate_fn=collate_fn)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-5)
    for batch in dataloader:
        input_ids, labels = batch["input_ids"].cuda(), batch["labels"].cuda()
        logits = model(input_ids=input_ids)["logits"]
        shift_logits, shift_labels = logits[:, :-1].contiguous(), labels[:, 1:].contiguous(){mask}
        loss = loss_func(shift_logits.view(-1, shift_logits.size(-1)), shift_labels.view(-1)){mark}
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
""")

_PARTIAL_COLLATE = textwrap.dedent("""
    import functools

    import torch
    from torch.utils.data import DataLoader
    from transformers import AutoModelForCausalLM

    from project import {model_import}


    def collate_tokens(values, pad_idx, max_length=None):
        if max_length is None:
            max_length = max(len(v) for v in values)
        return [v + [pad_idx] * (max_length - len(v)) for v in values]


    def dynamic_collate_fn(samples, pad_id=0, label_pad_id=-100):
        input_ids = [s["input_ids"] for s in samples]
        labels = [s["labels"] for s in samples]
        return {{
            "input_ids": torch.tensor(collate_tokens(input_ids, pad_id)),
            "labels": torch.tensor(collate_tokens(labels, {label_pad})),
        }}


    def main(tokenizer, train_dataset):
        model = {model}
        collator = functools.partial(dynamic_collate_fn, pad_id=tokenizer.pad_token_id)
        train_dataloader = DataLoader(train_dataset, batch_size=8, shuffle=True, collate_fn=collator)
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
        model.train()
        for step, batch in enumerate(train_dataloader):{rewrite}
            outputs = model(**batch){mark}
            outputs.loss.backward()
            optimizer.step()
            optimizer.zero_grad()
""")

PF125_BAD = [
    # det131: an accelerate CLM script's shape, labels hand-padded with the pad id bound by functools.partial and
    # passed to a from_pretrained model through `**batch`
    _PARTIAL_COLLATE.format(model_import="data", model='AutoModelForCausalLM.from_pretrained("gpt2")',
                            label_pad="pad_id", rewrite="", mark="  # warning: PF125"),
    # det131, FlagAI-Open/FlagAI#522: labels padded by hand with the end-token id, the loss ignores only -100
    _HAND_PADDED.format(ignore="ignore_index=-100", label_pad="", mask="", mark="  # warning: PF125"),
    # the same with the default ignore_index and the pad id given at the call
    _HAND_PADDED.format(ignore="", label_pad=", pad_idx=tokenizer.pad_token_id", mask="",
                        mark="  # warning: PF125"),
    # lukas-blecher/LaTeX-OCR#305 shape: token sequences padded with the tokenizer's pad id (0)
    textwrap.dedent("""
    import torch
    import torch.nn.functional as F
    from torch.nn.utils.rnn import pad_sequence
    from torch.utils.data import DataLoader

    from data import LatexDataset, tokenizer
    from model import ImageToLatex

    PAD = tokenizer.pad_token_id


    def collate(batch):
        images = torch.stack([b[0] for b in batch])
        tokens = [torch.tensor(tokenizer.encode(b[1])) for b in batch]
        return images, pad_sequence(tokens, batch_first=True, padding_value=PAD)


    def main():
        model = ImageToLatex(vocab_size=tokenizer.vocab_size).cuda()
        loader = DataLoader(LatexDataset("train.pkl"), batch_size=32, shuffle=True, collate_fn=collate)
        opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
        for epoch in range(20):
            for images, seq in loader:
                images, seq = images.cuda(), seq.cuda()
                inp, target = seq[:, :-1], seq[:, 1:]
                logits = model(images, inp)
                loss = F.cross_entropy(logits.transpose(1, 2), target)  # warning: PF125
                opt.zero_grad()
                loss.backward()
                opt.step()
"""),
    # a seq2seq tutorial: default padding (0) and a criterion built without ignore_index
    textwrap.dedent("""
    import torch
    from torch import nn
    from torch.nn.utils.rnn import pad_sequence
    from torch.utils.data import DataLoader

    from model import Seq2Seq
    from vocab import pairs


    def collate_batch(batch):
        src = [torch.tensor(s) for s, _ in batch]
        tgt = [torch.tensor(t) for _, t in batch]
        src_pad = pad_sequence(src, batch_first=True)
        tgt_pad = pad_sequence(tgt, batch_first=True)
        return src_pad, tgt_pad


    model = Seq2Seq(vocab=10000)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    train_loader = DataLoader(pairs, batch_size=64, collate_fn=collate_batch)
    for i, (src, tgt) in enumerate(train_loader):
        output = model(src, tgt[:, :-1])
        loss = criterion(output.reshape(-1, 10000), tgt[:, 1:].reshape(-1))  # warning: PF125
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""),
    # det74, public reports (meta-llama/llama-cookbook#73, 01-ai/Yi#110, zai-org/ChatGLM-6B#362): the labels
    # a collate function pads with the tokenizer's pad id go to a transformers causal LM as `labels=`, whose
    # loss is cross-entropy with ignore_index=-100
    textwrap.dedent("""
    import torch
    from torch.nn.utils.rnn import pad_sequence
    from torch.utils.data import DataLoader
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained("gpt2")
    tokenizer.pad_token = tokenizer.eos_token


    def collate(batch):
        seqs = [torch.tensor(tokenizer(t)["input_ids"]) for t in batch]
        input_ids = pad_sequence(seqs, batch_first=True, padding_value=tokenizer.pad_token_id)
        labels = pad_sequence(seqs, batch_first=True, padding_value=tokenizer.pad_token_id)
        return input_ids, (input_ids != tokenizer.pad_token_id).long(), labels


    model = AutoModelForCausalLM.from_pretrained("gpt2").to("cuda")
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    loader = DataLoader(["a b", "c d e f"], batch_size=2, collate_fn=collate)
    model.train()
    for input_ids, attention_mask, labels in loader:
        out = model(input_ids=input_ids.cuda(), attention_mask=attention_mask.cuda(), labels=labels.cuda())  # warning: PF125
        out.loss.backward()
        optimizer.step()
        optimizer.zero_grad()
"""),
    # EleutherAI/aria pull request 40: a language-model collate returns the padded token rows alone and the loop
    # takes the shifted slice as the target
    textwrap.dedent("""
    import torch
    import torch.nn.functional as F
    from torch.nn.utils.rnn import pad_sequence
    from torch.utils.data import DataLoader

    PAD_ID = 0


    def collate(seqs):
        return pad_sequence([torch.tensor(s) for s in seqs], batch_first=True, padding_value=PAD_ID)


    def train(model, sequences, epochs=10):
        loader = DataLoader(sequences, batch_size=32, shuffle=True, collate_fn=collate)
        opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
        for epoch in range(epochs):
            for seq in loader:
                src, tgt = seq[:, :-1].cuda(), seq[:, 1:].cuda()
                logits = model(src)
                loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), tgt.reshape(-1))  # warning: PF125
                opt.zero_grad()
                loss.backward()
                opt.step()
"""),
]

PF125_GOOD = [
    # det131: the labels padded with the collate's -100 default; a project model (which may mask the pad id
    # itself); the labels rewritten in the loop before the forward
    _PARTIAL_COLLATE.format(model_import="data", model='AutoModelForCausalLM.from_pretrained("gpt2")',
                            label_pad="label_pad_id", rewrite="", mark=""),
    _PARTIAL_COLLATE.format(model_import="TinyLM", model="TinyLM()", label_pad="pad_id", rewrite="", mark=""),
    _PARTIAL_COLLATE.format(model_import="data", model='AutoModelForCausalLM.from_pretrained("gpt2")',
                            label_pad="pad_id",
                            rewrite='\n        batch["labels"][batch["labels"] == tokenizer.pad_token_id] = -100', mark=""),
    # det131 fixes and tricky-correct ones: labels padded with -100, the loss ignoring the end-token id, the pad
    # positions rewritten to -100 before the loss, labels padded with a value named as a label pad
    _HAND_PADDED.format(ignore="ignore_index=-100", label_pad=", pad_idx=-100", mask="", mark=""),
    _HAND_PADDED.format(ignore="ignore_index=tokenizer.token_end_id", label_pad="", mask="", mark=""),
    _HAND_PADDED.format(ignore="", label_pad="",
                        mask="\n    shift_labels[shift_labels == tokenizer.token_end_id] = -100", mark=""),
    _HAND_PADDED.format(ignore="", label_pad=", pad_idx=label_pad_id", mask="", mark=""),
    # the fix: ignore_index = the pad id
    textwrap.dedent("""
    import torch
    import torch.nn.functional as F
    from torch.nn.utils.rnn import pad_sequence
    from torch.utils.data import DataLoader

    from data import LatexDataset, tokenizer
    from model import ImageToLatex

    PAD = tokenizer.pad_token_id


    def collate(batch):
        images = torch.stack([b[0] for b in batch])
        tokens = [torch.tensor(tokenizer.encode(b[1])) for b in batch]
        return images, pad_sequence(tokens, batch_first=True, padding_value=PAD)


    def main():
        model = ImageToLatex(vocab_size=tokenizer.vocab_size).cuda()
        loader = DataLoader(LatexDataset("train.pkl"), batch_size=32, shuffle=True, collate_fn=collate)
        opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
        for epoch in range(20):
            for images, seq in loader:
                images, seq = images.cuda(), seq.cuda()
                inp, target = seq[:, :-1], seq[:, 1:]
                logits = model(images, inp)
                loss = F.cross_entropy(logits.transpose(1, 2), target, ignore_index=PAD)
                opt.zero_grad()
                loss.backward()
                opt.step()
"""),
    # tricky-correct: labels padded with -100 through a constant; inputs padded with 0 but only fed
    # to the model; a masked loss; pad positions rewritten before the loss
    textwrap.dedent("""
    import torch
    import torch.nn.functional as F
    from torch.nn.utils.rnn import pad_sequence
    from torch.utils.data import DataLoader

    IGNORE = -100


    def collate(batch):
        ids = pad_sequence([b["ids"] for b in batch], batch_first=True)
        labels = pad_sequence([b["labels"] for b in batch], batch_first=True, padding_value=IGNORE)
        return ids, labels


    def collate_tokens(batch):
        return pad_sequence(batch, batch_first=True, padding_value=0), None


    def train(model, data, opt):
        loader = DataLoader(data, batch_size=8, collate_fn=collate)
        for ids, labels in loader:
            logits = model(ids)
            loss = F.cross_entropy(logits.flatten(0, 1), labels.flatten())
            opt.zero_grad()
            loss.backward()
            opt.step()
        lm_loader = DataLoader(data, batch_size=8, collate_fn=collate_tokens)
        for seq, _ in lm_loader:
            opt.zero_grad()
            logits = model(seq[:, :-1])
            target = seq[:, 1:]
            mask = target != 0
            loss = F.cross_entropy(logits[mask], target[mask])
            loss.backward()
            per_token = F.cross_entropy(logits.transpose(1, 2), target, reduction="none")
            (per_token * mask).sum().backward()
            target = target.clone()
            target[target == 0] = -100
            F.cross_entropy(logits.transpose(1, 2), target).backward()
            opt.step()
"""),
    # det74 twins of the transformers shape: labels padded with -100; pad labels rewritten to -100 before
    # the model; a project model (not transformers) that takes `labels=` and masks the pad id itself
    textwrap.dedent("""
    import torch
    from torch.nn.utils.rnn import pad_sequence
    from torch.utils.data import DataLoader
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from mymodel import TinyLM

    tokenizer = AutoTokenizer.from_pretrained("gpt2")
    tokenizer.pad_token = tokenizer.eos_token
    PAD = tokenizer.pad_token_id


    def collate(batch):
        seqs = [torch.tensor(tokenizer(t)["input_ids"]) for t in batch]
        input_ids = pad_sequence(seqs, batch_first=True, padding_value=PAD)
        labels = pad_sequence(seqs, batch_first=True, padding_value=-100)
        return input_ids, labels


    def collate_same(batch):
        seqs = [torch.tensor(tokenizer(t)["input_ids"]) for t in batch]
        padded = pad_sequence(seqs, batch_first=True, padding_value=PAD)
        labels = pad_sequence(seqs, batch_first=True, padding_value=PAD)
        return padded, labels


    def collate_padded(batch):
        seqs = [torch.tensor(tokenizer(t)["input_ids"]) for t in batch]
        return pad_sequence(seqs, batch_first=True, padding_value=PAD), pad_sequence(seqs, batch_first=True,
                                                                                      padding_value=PAD)


    model = AutoModelForCausalLM.from_pretrained("gpt2")
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    minus_100_loader = DataLoader(["a b", "c d e f"], batch_size=2, collate_fn=collate)
    for input_ids, labels in minus_100_loader:
        model(input_ids=input_ids, attention_mask=input_ids != PAD, labels=labels).loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    same_loader = DataLoader(["a b", "c d e f"], batch_size=2, collate_fn=collate_same)
    for input_ids, labels in same_loader:
        labels[labels == PAD] = -100
        model(input_ids=input_ids, labels=labels).loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    tiny = TinyLM(vocab=50257, pad_id=PAD)
    tiny_opt = torch.optim.AdamW(tiny.parameters(), lr=1e-3)
    tiny_loader = DataLoader(["a b", "c d e f"], batch_size=2, collate_fn=collate_padded)
    for input_ids, labels in tiny_loader:
        tiny(input_ids, labels=labels).backward()
        tiny_opt.step()
        tiny_opt.zero_grad()
"""),
    # the fix of aria pull request 40: the pad id is ignored
    textwrap.dedent("""
    import torch
    import torch.nn.functional as F
    from torch.nn.utils.rnn import pad_sequence
    from torch.utils.data import DataLoader

    PAD_ID = 0


    def collate(seqs):
        return pad_sequence([torch.tensor(s) for s in seqs], batch_first=True, padding_value=PAD_ID)


    def train(model, sequences, epochs=10):
        loader = DataLoader(sequences, batch_size=32, shuffle=True, collate_fn=collate)
        opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
        for epoch in range(epochs):
            for seq in loader:
                src, tgt = seq[:, :-1].cuda(), seq[:, 1:].cuda()
                logits = model(src)
                loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), tgt.reshape(-1), ignore_index=PAD_ID)
                opt.zero_grad()
                loss.backward()
                opt.step()
"""),
    # tricky: the collate returns the padded inputs alone, the targets are a separate label tensor
    textwrap.dedent("""
    import torch
    import torch.nn.functional as F
    from torch.nn.utils.rnn import pad_sequence
    from torch.utils.data import DataLoader


    def collate(seqs):
        return pad_sequence([torch.tensor(s) for s in seqs], batch_first=True)


    def train(model, sequences, labels, epochs=3):
        loader = DataLoader(sequences, batch_size=16, collate_fn=collate)
        opt = torch.optim.Adam(model.parameters())
        for epoch in range(epochs):
            for i, seq in enumerate(loader):
                y = labels[i * 16:(i + 1) * 16]
                loss = F.cross_entropy(model(seq), y)
                opt.zero_grad()
                loss.backward()
                opt.step()
"""),
    # tricky: the transformers model gets the padded labels but its own loss is never read; the loop's loss
    # ignores the pad id
    textwrap.dedent("""
    import torch
    from torch.nn.utils.rnn import pad_sequence
    from torch.utils.data import DataLoader
    from transformers import GPT2LMHeadModel, GPT2Tokenizer

    tokenizer = GPT2Tokenizer.from_pretrained("gpt2")
    model = GPT2LMHeadModel.from_pretrained("gpt2")


    def collate_fn(batch):
        return pad_sequence(batch, batch_first=True, padding_value=tokenizer.pad_token_id)


    dataloader = DataLoader(["a", "b"], batch_size=2, shuffle=True, collate_fn=collate_fn)
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5)
    loss_fn = torch.nn.CrossEntropyLoss(ignore_index=tokenizer.pad_token_id)
    model.train()
    for epoch in range(3):
        for batch in dataloader:
            inputs = batch.to("cuda")
            labels = inputs.clone()
            optimizer.zero_grad()
            outputs = model(inputs, labels=labels)
            logits = outputs.logits[:, :-1]
            loss = loss_fn(logits.reshape(-1, logits.size(-1)), labels[:, 1:].reshape(-1))
            loss.backward()
            optimizer.step()
"""),
]
