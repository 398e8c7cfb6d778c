"""Executable documentation of PF305: programs that must (and must not) fire."""

from __future__ import annotations

import textwrap

_PF305_MAIN = textwrap.dedent("""\
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    from torch.utils.data import DataLoader


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(10, 3)
            self.drop = nn.Dropout(0.1)

        def forward(self, x):
            return self.fc(self.drop(x))


    def main():
    {seed}    model = Net()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        loader = DataLoader(dataset, batch_size=32, shuffle=True)
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


    if __name__ == "__main__":
        main()
""")


PF305_BAD = (
    # torch is seeded, Python's random (which also draws) is not
    textwrap.dedent("""
    import random
    import torch

    torch.manual_seed(0)
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:  # note: PF305
        if random.random() < 0.5:
            x = x.flip(-1)
        opt.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        opt.step()
"""),
    _PF305_MAIN.format(seed="").replace("    main()\n", "    main()  # note: PF305\n"),
    # a module-level loop with torch.randn data
    textwrap.dedent("""\
    import torch
    import torch.nn as nn

    model = nn.Linear(4, 1)
    opt = torch.optim.Adam(model.parameters())
    for step in range(100):  # note: PF305
        x = torch.randn(16, 4)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
"""),
)


PF305_GOOD = (
    # every generator that draws is seeded
    textwrap.dedent("""
    import random
    import torch

    torch.manual_seed(0)
    random.seed(0)
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        if random.random() < 0.5:
            x = x.flip(-1)
        opt.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        opt.step()
"""),
    _PF305_MAIN.format(seed="    torch.manual_seed(0)\n"),
    _PF305_MAIN.format(seed="    transformers.set_seed(42)\n"),
    _PF305_MAIN.format(seed="    L.seed_everything(42)\n"),
    _PF305_MAIN.format(seed="    accelerate.utils.set_seed(1)\n"),
    _PF305_MAIN.format(seed="    rng = np.random.default_rng(1234)\n"),
    # a library module: the training function is not started here
    _PF305_MAIN.format(seed="").split("\n\nif __name__")[0] + "\n",
    # the word "seed" in a comment does not count, but HF Trainer seeds itself
    textwrap.dedent("""\
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    # seed: default
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    trainer = Trainer(model=model, args=TrainingArguments("out"), train_dataset=ds)
    trainer.train()
"""),
    # fine-tuning a pretrained model on an unshuffled loader: no random draw is visible
    textwrap.dedent("""\
    import torch
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("gpt2")
    opt = torch.optim.AdamW(model.parameters(), lr=2e-5)
    for batch in loader:
        loss = model(**batch).loss
        opt.zero_grad()
        loss.backward()
        opt.step()
"""),
)
