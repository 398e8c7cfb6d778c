"""PF264 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_MOSHI = textwrap.dedent("""
    import torch
    from torch.utils.data import DataLoader

    model = build_model().cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-6)


    def iterate_batches(path, batch_size, infinite):
        loader = DataLoader(Dataset(path), batch_size=batch_size)
        while True:
            for batch in loader:
                yield batch
            if not infinite:
                return


    def evaluate(batches):
        model.eval()
        total, count = 0.0, 0
        with torch.no_grad():
            for batch in batches:
                total += model(**batch).loss.item()
                count += 1
        model.train()
        return total / max(count, 1)


    train_batches = iterate_batches("train.jsonl", 16, infinite=True)
    {eval_line}
    for step in range(1, 2001):
        loss = model(**next(train_batches)).loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 100 == 0:
            print(step, evaluate({eval_arg}))
""")

PF264_BAD = [
    # held-out-23 (kyutai-labs/moshi-finetune issue 13): the evaluation generator is built once
    _MOSHI.format(eval_line='eval_batches = iterate_batches("eval.jsonl", 16, infinite=False)  # warning: PF264',
                  eval_arg="eval_batches"),
    # iter() of a loader made once, drained by a for in every epoch
    textwrap.dedent("""
    import torch


    def train(model, optimizer, train_loader, val_loader, epochs):
        val_iter = iter(val_loader)  # warning: PF264
        for epoch in range(epochs):
            for x, y in train_loader:
                optimizer.zero_grad()
                torch.nn.functional.cross_entropy(model(x), y).backward()
                optimizer.step()
            correct = 0
            with torch.no_grad():
                for x, y in val_iter:
                    correct += (model(x).argmax(1) == y).sum().item()
            print(epoch, correct)
"""),
]

PF264_GOOD = [
    # the fix of the issue: a fresh generator for each evaluation
    _MOSHI.format(eval_line="", eval_arg='iterate_batches("eval.jsonl", 16, infinite=False)'),
    # tricky-correct: the loader itself (re-iterable) is passed to evaluate
    _MOSHI.format(eval_line='eval_loader = DataLoader(Dataset("eval.jsonl"), batch_size=16)',
                  eval_arg="eval_loader"),
    # tricky-correct: an endless generator read a few batches at a time (the for breaks)
    textwrap.dedent("""
    import torch


    def forever(loader):
        while True:
            for batch in loader:
                yield batch


    stream = forever(val_loader)
    for epoch in range(10):
        for i, batch in enumerate(stream):
            if i == 20:
                break
            print(model(batch).loss.item())
"""),
    # tricky-correct: the iterator is rebuilt when it runs out
    textwrap.dedent("""
    data_iter = iter(loader)
    for step in range(10000):
        try:
            batch = next(data_iter)
        except StopIteration:
            data_iter = iter(loader)
            batch = next(data_iter)
        train_step(batch)
"""),
]
