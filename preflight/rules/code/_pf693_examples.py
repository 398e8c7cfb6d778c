"""PF693 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_LOOP = textwrap.dedent("""
    import torch

    model = build_model().cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(10):
        for x, y in loader:
            x, y = x.cuda(), y.cuda()
            loss = torch.nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            {inside}
        {after}
""")

BAD_EXAMPLES = [
    # the reports' shape (visdial PR 34): emptied after every batch
    _LOOP.format(inside="torch.cuda.empty_cache()  # warning: PF693", after="pass"),
    # transformers issue 31372 / axolotl PR 1858: a Trainer subclass empties the cache in training_step
    textwrap.dedent("""
    import gc
    import torch
    from transformers import Trainer


    class LeakFreeTrainer(Trainer):
        def training_step(self, model, inputs, num_items_in_batch=None):
            loss = super().training_step(model, inputs, num_items_in_batch)
            gc.collect()
            torch.cuda.empty_cache()  # warning: PF693
            return loss
    """),
]

GOOD_EXAMPLES = [
    # once per epoch, after the batch loop
    _LOOP.format(inside="pass", after="torch.cuda.empty_cache()"),
    # every N steps
    _LOOP.format(inside="if step % 500 == 0:\n                torch.cuda.empty_cache()", after="pass"),
    # tricky: after an out-of-memory error only
    textwrap.dedent("""
    import torch

    for batch in loader:
        try:
            loss = model(**batch).loss
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        except torch.cuda.OutOfMemoryError:
            optimizer.zero_grad()
            torch.cuda.empty_cache()
    """),
    # tricky: an evaluation loop (nothing trains in it)
    textwrap.dedent("""
    import torch

    model.eval()
    with torch.no_grad():
        for batch in loader:
            preds.append(model(batch.cuda()).argmax(-1).cpu())
            torch.cuda.empty_cache()
    """),
]
