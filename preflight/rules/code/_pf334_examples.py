"""PF334 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

_ANI = textwrap.dedent("""
    import os

    import torch
    from torch.utils.data import DataLoader, random_split
    {seed}
    dataset = load_conformations("dataset/ani_gdb_s01.h5")
    n_train = int(0.8 * len(dataset))
    training, validation = random_split(dataset, [n_train, len(dataset) - n_train]{gen}){pin}
    train_loader = DataLoader(training, batch_size=2560, shuffle=True)
    val_loader = DataLoader(validation, batch_size=2560)
    model = build_model().cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    start_epoch = 0
    if os.path.isfile("latest.pt"):
        ckpt = torch.load("latest.pt")
        model.load_state_dict(ckpt["model"])
        {restore}
        start_epoch = ckpt["epoch"]
    for epoch in range(start_epoch, 200):
        train_one_epoch(model, optimizer, train_loader)
        evaluate(model, val_loader)
        torch.save({{"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch + 1}},
                   "latest.pt")
""")

BAD_EXAMPLES = [
    # TorchANI issue 443: the split is redrawn on every start of a script that resumes from latest.pt
    _ANI.format(seed="", gen="", pin="  # warning: PF334", restore='optimizer.load_state_dict(ckpt["optimizer"])'),
    # a Lightning script resuming with ckpt_path
    textwrap.dedent("""
    import lightning as L
    from torch.utils.data import DataLoader, random_split

    full = ImageFolderDataset("data/train")
    train_set, val_set = random_split(full, [0.9, 0.1])  # warning: PF334
    trainer = L.Trainer(max_epochs=50)
    trainer.fit(Classifier(), DataLoader(train_set, batch_size=64, shuffle=True), DataLoader(val_set, batch_size=64),
                ckpt_path="checkpoints/last.ckpt")
    """),
]

GOOD_EXAMPLES = [
    # the fix: the split drawn from a fixed generator
    _ANI.format(seed="", gen=", generator=torch.Generator().manual_seed(42)", pin="",
                restore='optimizer.load_state_dict(ckpt["optimizer"])'),
    # tricky-correct: the global generator is seeded before the split
    _ANI.format(seed="torch.manual_seed(0)\n", gen="", pin="", restore='optimizer.load_state_dict(ckpt["optimizer"])'),
    # tricky-correct: pretrained weights only are loaded (a fine-tune, not a resume of training state)
    textwrap.dedent("""
    import torch
    from torch.utils.data import DataLoader, random_split

    model = build_model()
    model.load_state_dict(torch.load("pretrained.pt"))
    train_set, val_set = random_split(load_dataset(), [0.9, 0.1])
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for epoch in range(10):
        train_one_epoch(model, optimizer, DataLoader(train_set, batch_size=32, shuffle=True))
    torch.save(model.state_dict(), "finetuned.pt")
    """),
    # tricky-correct: a Lightning fit without a checkpoint path
    textwrap.dedent("""
    import lightning as L
    from torch.utils.data import DataLoader, random_split

    full = ImageFolderDataset("data/train")
    train_set, val_set = random_split(full, [0.9, 0.1])
    L.Trainer(max_epochs=50).fit(Classifier(), DataLoader(train_set, batch_size=64, shuffle=True),
                                 DataLoader(val_set, batch_size=64), ckpt_path=None)
    """),
]
