"""PF499 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF499_BAD = [
    # microsoft/LoRA#120 shape
    textwrap.dedent("""
    import loralib as lora
    import torch
    from torch.utils.checkpoint import checkpoint


    class Net(torch.nn.Module):
        def __init__(self, n=12, d=768, vocab=32000):
            super().__init__()
            self.emb = torch.nn.Embedding(vocab, d)
            self.blocks = torch.nn.ModuleList(lora.Linear(d, d, r=16) for _ in range(n))

        def forward(self, ids):
            h = self.emb(ids)
            for block in self.blocks:
                h = checkpoint(block, h)  # warning: PF499
            return h


    model = Net()
    lora.mark_only_lora_as_trainable(model)
"""),
]

PF499_GOOD = [
    # the fix: non-reentrant checkpointing
    textwrap.dedent("""
    import loralib as lora
    import torch
    import torch.utils.checkpoint


    class Net(torch.nn.Module):
        def __init__(self, d=768):
            super().__init__()
            self.emb = torch.nn.Embedding(100, d)
            self.block = lora.Linear(d, d, r=16)

        def forward(self, ids):
            return torch.utils.checkpoint.checkpoint(self.block, self.emb(ids), use_reentrant=False)


    model = Net()
    lora.mark_only_lora_as_trainable(model)
"""),
    # tricky-correct: the input is made to require grad; and a model that is not frozen by loralib
    textwrap.dedent("""
    import loralib as lora
    import torch
    from torch.utils.checkpoint import checkpoint


    def forward(model, ids):
        h = model.emb(ids)
        h.requires_grad_(True)
        return checkpoint(model.block, h)


    lora.mark_only_lora_as_trainable(model)
"""),
    textwrap.dedent("""
    import torch
    from torch.utils.checkpoint import checkpoint


    def forward(blocks, h):
        for block in blocks:
            h = checkpoint(block, h)
        return h
"""),
]
