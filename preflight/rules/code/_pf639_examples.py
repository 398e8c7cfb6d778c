"""PF639 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

_PIPE = textwrap.dedent("""
    import random

    import deepspeed
    import torch
    from deepspeed.pipe import LayerSpec, PipelineModule


    class RandomTokens(torch.utils.data.Dataset):
        def __len__(self):
            return 100

        def __getitem__(self, idx):
    {draw}
            x = torch.randint(1, 100, (n,){gen})
            return x, x.roll(-1)


    model = PipelineModule(layers=[LayerSpec(Embed)] + [LayerSpec(Block) for _ in range(8)], num_stages=2,
                           loss_fn=loss_fn)
    engine, _, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters(),
                                           training_data=RandomTokens())
    for step in range(10000):
        loss = engine.train_batch()
""")

PF639_BAD = [
    # held-out-30 (DeepSpeed issue 3131): a random length and random tokens, index ignored
    _PIPE.format(draw="        n = random.randint(100, 200)  # error: PF639", gen=""),
]

PF639_GOOD = [
    # the fix: per-index generators
    _PIPE.format(draw="        rng = random.Random(idx)\n        n = rng.randint(100, 200)\n"
                      "        g = torch.Generator().manual_seed(idx)", gen=", generator=g"),
    # tricky-correct: the same dataset for a plain (non-pipeline) engine is not this rule's concern
    _PIPE.format(draw="        n = random.randint(100, 200)", gen="").replace(
        "model = PipelineModule(", "model = Sequential(").replace(", num_stages=2,\n", ",\n"),
]
