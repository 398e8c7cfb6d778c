"""PF467 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

_RUN = textwrap.dedent("""
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel
    from torch.utils.data import DataLoader
    from torch.utils.data.distributed import DistributedSampler


    def run(rank, world_size, dataset, model, epochs=50):
        dist.init_process_group("nccl", rank=rank, world_size=world_size)
        sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank, shuffle=True)
        train_loader = DataLoader(dataset, batch_size=64, sampler=sampler)
        model = DistributedDataParallel(model.to(rank), device_ids=[rank])
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        for epoch in range(1, epochs + 1):
            sampler.set_epoch(epoch)
            total_loss = 0
            for x, y in train_loader:
                optimizer.zero_grad()
                logits = model(x.to(rank))
                loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, y.to(rank).float())
                loss.backward()
                optimizer.step()
                total_loss += float(loss) * logits.size(0)
    {report}
""")

BAD_EXAMPLES = [
    # PyG PR 6913: the shard's sum over the whole dataset's size
    _RUN.format(report="""\
        loss = total_loss / len(train_loader.dataset)  # warning: PF467
        if rank == 0:
            print(f"Epoch: {epoch:03d}, Loss: {loss:.4f}")"""),
]

GOOD_EXAMPLES = [
    # the fix: the total reduced across ranks first
    _RUN.format(report="""\
        total = torch.tensor(total_loss, device=rank)
        dist.all_reduce(total)
        total_loss = total.item()
        loss = total_loss / len(train_loader.dataset)
        if rank == 0:
            print(f"Epoch: {epoch:03d}, Loss: {loss:.4f}")"""),
    # tricky-correct: divided by the examples of this rank's shard
    _RUN.format(report="""\
        loss = total_loss / len(train_loader.sampler)
        print(f"rank {rank} epoch {epoch}: {loss:.4f}")"""),
]
