"""PF638 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

# SVD_Xtend issue 75's shape: a clip dataset that ignores idx, 8 accelerate processes seeded alike
_CLIPS = textwrap.dedent("""
    # --- train.py
    import os
    import random

    import torch
    from accelerate import Accelerator
    from accelerate.utils import set_seed
    from torch.utils.data import DataLoader, Dataset


    class ClipDataset(Dataset):
        def __init__(self, root):
            self.root = root
            self.folders = os.listdir(root)

        def __len__(self):
            return 100000

        def __getitem__(self, idx):
            {pick}
            return load_clip(os.path.join(self.root, folder))


    accelerator = Accelerator()
    {seed}
    loader = DataLoader(ClipDataset("data/frames"), batch_size=1, shuffle=True, num_workers=8)
    unet, optimizer, loader = accelerator.prepare(unet, optimizer, loader)
    for clip in loader:
        loss = unet(clip).mean()
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
    # --- launch
    accelerate launch --multi_gpu --num_processes {procs} train.py
""")

BAD_EXAMPLES = [
    # held-out-30 (pixeli99/SVD_Xtend issue 75): random.choice over the folders, set_seed(123) on 8 processes
    _CLIPS.format(pick="folder = random.choice(self.folders)  # warning: PF638", seed="set_seed(123)", procs=8),
    # NumPy's global stream and torch.manual_seed under torchrun
    textwrap.dedent("""
    # --- train.py
    import numpy as np
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data import DataLoader, Dataset
    from torch.utils.data.distributed import DistributedSampler


    class PatchDataset(Dataset):
        def __init__(self, volume):
            self.volume = volume

        def __len__(self):
            return 10000

        def __getitem__(self, index):
            z = np.random.randint(0, self.volume.shape[0] - 64)  # warning: PF638
            return torch.from_numpy(self.volume[z:z + 64])


    dist.init_process_group("nccl")
    torch.manual_seed(0)
    data = PatchDataset(np.load("volume.npy"))
    loader = DataLoader(data, batch_size=8, sampler=DistributedSampler(data))
    model = DDP(Net().cuda())
    optimizer = torch.optim.Adam(model.parameters())
    for patch in loader:
        optimizer.zero_grad()
        model(patch.cuda()).mean().backward()
        optimizer.step()
    # --- launch
    torchrun --nproc_per_node 4 train.py
"""),
]

GOOD_EXAMPLES = [
    # the fix: the clip comes from the index
    _CLIPS.format(pick="folder = self.folders[idx % len(self.folders)]", seed="set_seed(123)", procs=8),
    # tricky-correct: per-process seeding keeps the index-free draws different on every rank
    _CLIPS.format(pick="folder = random.choice(self.folders)", seed="set_seed(123, device_specific=True)",
                  procs=8),
    # tricky-correct: one process
    _CLIPS.format(pick="folder = random.choice(self.folders)", seed="set_seed(123)", procs=1),
    # tricky-correct: a generator seeded with the index
    _CLIPS.format(pick="folder = random.Random(idx).choice(self.folders)", seed="set_seed(123)", procs=8),
    # tricky-correct: random augmentation of an indexed sample (the index picks the sample)
    _CLIPS.format(pick="folder = self.folders[idx] if random.random() < 0.5 else self.folders[-idx]",
                  seed="set_seed(123)", procs=8),
    # tricky-correct: a synthetic benchmark dataset (random tokens, no data held): alike on every rank by design
    textwrap.dedent("""
    # --- bench.py
    import torch
    from accelerate import Accelerator
    from accelerate.utils import set_seed
    from torch.utils.data import DataLoader, Dataset


    class DummyTokens(Dataset):
        def __init__(self, vocab_size, seq_len):
            self.vocab_size, self.seq_len = vocab_size, seq_len

        def __len__(self):
            return 10000

        def __getitem__(self, idx):
            return torch.randint(0, self.vocab_size, (self.seq_len,))


    accelerator = Accelerator()
    set_seed(0)
    model, optimizer, loader = accelerator.prepare(model, optimizer, DataLoader(DummyTokens(32000, 2048), batch_size=4))
    for tokens in loader:
        accelerator.backward(model(tokens, labels=tokens).loss)
        optimizer.step()
        optimizer.zero_grad()
    # --- launch
    accelerate launch --multi_gpu --num_processes 8 bench.py
"""),
]
