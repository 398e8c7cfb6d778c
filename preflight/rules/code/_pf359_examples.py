"""PF359 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_NLP = textwrap.dedent("""
    import os

    import torch
    from accelerate import Accelerator{imports}
    from torch.utils.data import DataLoader


    def main(args, train_set, model):
        accelerator = Accelerator({config})
        train_dataloader = DataLoader(train_set, shuffle={shuffle}, batch_size=32)
        optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
        model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
        starting_epoch, resume_step = 0, None
        if args.resume_from_checkpoint:
            accelerator.load_state(args.resume_from_checkpoint)
            step = int(os.path.basename(args.resume_from_checkpoint).replace("step_", ""))
            starting_epoch, resume_step = divmod(step, len(train_dataloader))
        for epoch in range(starting_epoch, args.epochs):
            model.train()
            if epoch == starting_epoch and resume_step is not None:
                active = accelerator.skip_first_batches(train_dataloader, resume_step){pin}
            else:
                active = train_dataloader
            for batch in active:
                accelerator.backward(model(**batch).loss)
                optimizer.step()
                optimizer.zero_grad()
""")

BAD_EXAMPLES = [
    # accelerate issue 2823 / complete_nlp_example.py's shape: load_state, then skip_first_batches on the
    # shuffled loader; the resumed epoch is shuffled like the next one
    _NLP.format(imports="", config="", shuffle="True", pin="  # warning: PF359"),
    # wyim-pgl/transgenic issue 59: the skip written as a `continue` in the enumerate loop
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from torch.utils.data import DataLoader

    torch.manual_seed(0)
    accelerator = Accelerator(mixed_precision="bf16")
    loader = DataLoader(dataset, batch_size=8, shuffle=True, num_workers=4)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    start_epoch, resume_step = 0, 0
    if resume:
        accelerator.load_state("ckpt")
        start_epoch, resume_step = state["epoch"], state["step"]
    for epoch in range(start_epoch, 10):
        for step, batch in enumerate(loader):
            if epoch == start_epoch and step < resume_step:  # warning: PF359
                continue
            accelerator.backward(model(batch))
            optimizer.step()
            optimizer.zero_grad()
"""),
]

GOOD_EXAMPLES = [
    # the fix: a seedable sampler (the permutation follows seed and epoch; its state is checkpointed)
    _NLP.format(imports="\nfrom accelerate.utils import DataLoaderConfiguration",
                config="dataloader_config=DataLoaderConfiguration(use_seedable_sampler=True)", shuffle="True",
                pin=""),
    # tricky-correct: a loader that does not shuffle resumes exactly where it stopped
    _NLP.format(imports="", config="", shuffle="False", pin=""),
    # tricky-correct: the checkpoint is taken at epoch boundaries and the run resumes at the next epoch;
    # a skip of a shuffled loader in a script that restores no RNG state (no load_state)
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from torch.utils.data import DataLoader

    accelerator = Accelerator()
    loader = DataLoader(dataset, batch_size=8, shuffle=True)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    start = 0
    if resume:
        accelerator.load_state("ckpt")
        start = torch.load("ckpt/progress.pt")["next_epoch"]
    for epoch in range(start, 10):
        for batch in loader:
            accelerator.backward(model(batch))
            optimizer.step()
            optimizer.zero_grad()
        accelerator.save_state("ckpt")
"""),
    textwrap.dedent("""
    from accelerate import Accelerator
    from torch.utils.data import DataLoader

    accelerator = Accelerator()
    loader = accelerator.prepare(DataLoader(dataset, batch_size=8, shuffle=True))
    for batch in accelerator.skip_first_batches(loader, 100):
        print(batch)
"""),
]
