"""PF447 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # accelerate PR 4201: a rank-sharded sampler, then prepare
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from torch.utils.data import DataLoader
    from torch.utils.data.distributed import DistributedSampler


    def train(model, dataset, args):
        accelerator = Accelerator()
        optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
        sampler = DistributedSampler(dataset, num_replicas=accelerator.num_processes,
                                     rank=accelerator.process_index, shuffle=True)
        train_dataloader = DataLoader(dataset, batch_size=args.batch_size, sampler=sampler)  # warning: PF447
        model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
        for batch in train_dataloader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
"""),
    # the sampler inline, a torchrun script ported to Accelerate
    textwrap.dedent("""
    from accelerate import Accelerator
    from torch.utils.data import DataLoader, DistributedSampler


    def main(model, optimizer, train_set):
        accelerator = Accelerator(mixed_precision="bf16")
        loader = DataLoader(train_set, batch_size=32, sampler=DistributedSampler(train_set))  # warning: PF447
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        return model, optimizer, loader
"""),
    # accelerate issue 3336's shape: evaluation data sliced by process_index, then prepared
    textwrap.dedent("""
    from accelerate import Accelerator
    from torch.utils.data import DataLoader


    def run(model, eval_data):
        accelerator = Accelerator()
        per = len(eval_data) // accelerator.num_processes
        start_idx = per * accelerator.process_index
        end_idx = start_idx + per
        local_data = eval_data[start_idx:end_idx]
        dataloader = DataLoader(local_data, batch_size=1)  # warning: PF447
        model, dataloader = accelerator.prepare(model, dataloader)
        return model, dataloader
"""),
]

GOOD_EXAMPLES = [
    # the fix: prepare shards a plain shuffled loader
    textwrap.dedent("""
    from accelerate import Accelerator
    from torch.utils.data import DataLoader


    def main(model, optimizer, train_set):
        accelerator = Accelerator()
        loader = DataLoader(train_set, batch_size=32, shuffle=True)
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        return model, optimizer, loader
"""),
    # the sampler kept, the loader not prepared (only the model and optimizer)
    textwrap.dedent("""
    from accelerate import Accelerator
    from torch.utils.data import DataLoader, DistributedSampler


    def main(model, optimizer, train_set):
        accelerator = Accelerator()
        loader = DataLoader(train_set, batch_size=32, sampler=DistributedSampler(train_set))
        model, optimizer = accelerator.prepare(model, optimizer)
        return model, optimizer, loader
"""),
    # tricky-correct: sliced by rank but not prepared; a slice that does not depend on the rank, prepared
    textwrap.dedent("""
    from accelerate import Accelerator
    from torch.utils.data import DataLoader


    def run(model, eval_data, limit):
        accelerator = Accelerator()
        start = len(eval_data) // accelerator.num_processes * accelerator.process_index
        mine = DataLoader(eval_data[start:start + 8], batch_size=1)
        head = DataLoader(eval_data[:limit], batch_size=1)
        model, head = accelerator.prepare(model, head)
        return model, head, mine
"""),
]

# accelerate issue 3547: a streaming dataset split per process with split_dataset_by_node, mapped,
# and its loader prepared (sharded a second time)
_STREAM = textwrap.dedent("""
    from accelerate import Accelerator
    from datasets import load_dataset
    from datasets.distributed import split_dataset_by_node
    from torch.utils.data import DataLoader


    def train(model, optimizer, tokenize):
        accelerator = Accelerator(gradient_accumulation_steps=4)
        stream = load_dataset("HuggingFaceFW/fineweb-edu", split="train", streaming=True)
        stream = stream.shuffle(seed=42, buffer_size=10_000)
    {split}
        stream = stream.map(tokenize, remove_columns=["text"])
        loader = DataLoader(stream, batch_size=8)
    {prepare}
        for batch in loader:
            with accelerator.accumulate(model):
                accelerator.backward(model(**batch).loss)
                optimizer.step()
                optimizer.zero_grad()
""")
_SPLIT = ("    stream = split_dataset_by_node(stream, rank=accelerator.process_index, "
          "world_size=accelerator.num_processes)")
_PREPARE = "    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)"
_MOVE = "    model, optimizer = accelerator.prepare(model, optimizer)"
BAD_EXAMPLES.append(_STREAM.format(split=_SPLIT + "  # warning: PF447", prepare=_PREPARE))
GOOD_EXAMPLES += [
    # the fix: one split only, the one prepare makes
    _STREAM.format(split="", prepare=_PREPARE),
    # tricky-correct: split per process, and the loader kept out of prepare (the report's workaround)
    _STREAM.format(split=_SPLIT, prepare=_MOVE),
]
