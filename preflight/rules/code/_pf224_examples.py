"""PF224 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# warning: PF224`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

import textwrap

PF224_BAD = [
    # PrimeIntellect DiLoCo shape: FULL_SHARD model, gradients clipped with the plain helper
    textwrap.dedent("""
    import torch
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, ShardingStrategy


    def train(model, loader, max_norm):
        model = FSDP(model, sharding_strategy=ShardingStrategy.FULL_SHARD, use_orig_params=True)
        opt = torch.optim.AdamW(model.parameters(), lr=4e-4)
        for batch in loader:
            loss = model(**batch).loss
            loss.backward()
            norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)  # warning: PF224
            opt.step()
            opt.zero_grad()
"""),
    # the default strategy (FULL_SHARD) on a wrapper kept as an attribute, clipped in another method
    textwrap.dedent("""
    from torch.distributed import fsdp
    from torch.nn.utils import clip_grad_norm_


    class Runner:
        def __init__(self, net, device):
            self.model = fsdp.FullyShardedDataParallel(net, device_id=device)

        def step(self, loss, opt):
            loss.backward()
            clip_grad_norm_(self.model.parameters(), 1.0)  # warning: PF224
            opt.step()
"""),
]

PF224_GOOD = [
    # the fix: the wrapper's own clip_grad_norm_ reduces the norm across ranks
    textwrap.dedent("""
    import torch
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, ShardingStrategy


    def train(model, loader, max_norm):
        model = FSDP(model, sharding_strategy=ShardingStrategy.FULL_SHARD)
        opt = torch.optim.AdamW(model.parameters(), lr=4e-4)
        for batch in loader:
            model(**batch).loss.backward()
            norm = model.clip_grad_norm_(max_norm)
            opt.step()
            opt.zero_grad()
"""),
    # tricky-correct: FSDP2 fully_shard (DTensor norms are global, torchtune issue 2169)
    textwrap.dedent("""
    import torch
    from torch.distributed.fsdp import fully_shard


    def train(model, loader):
        for layer in model.layers:
            fully_shard(layer)
        fully_shard(model)
        opt = torch.optim.AdamW(model.parameters(), lr=2e-5)
        for batch in loader:
            model(**batch).loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
            opt.step()
            opt.zero_grad()
"""),
    # tricky-correct: NO_SHARD keeps whole gradients on every rank; the plain helper is documented as fine
    textwrap.dedent("""
    import torch
    from torch.distributed.fsdp import FullyShardedDataParallel, ShardingStrategy


    def train(net, batches):
        model = FullyShardedDataParallel(net, sharding_strategy=ShardingStrategy.NO_SHARD)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for x, y in batches:
            torch.nn.functional.mse_loss(model(x), y).backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            opt.zero_grad()
"""),
    # tricky-correct: the plain module clipped before it is wrapped (single-process warm-up), then the wrapper's method
    textwrap.dedent("""
    import torch
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


    def warmup_then_shard(model, batch, loader):
        model(batch).sum().backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        model = FSDP(model)
        for b in loader:
            model(b).sum().backward()
            model.clip_grad_norm_(1.0)
"""),
]
