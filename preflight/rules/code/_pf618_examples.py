"""PF618 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# warning: PF618`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

import textwrap

PF618_BAD = [
    # denoising-diffusion-pytorch issue 69: the infinite generator is prepared instead of the loader
    textwrap.dedent("""
    from accelerate import Accelerator
    from torch.utils.data import DataLoader


    def cycle(dl):
        while True:
            for data in dl:
                yield data


    class Trainer:
        def __init__(self, model, dataset, opt):
            self.accelerator = Accelerator()
            dl = DataLoader(dataset, batch_size=32, shuffle=True)
            self.dl = cycle(dl)
            self.model, self.opt = self.accelerator.prepare(model, opt)
            self.dl = self.accelerator.prepare(self.dl)  # warning: PF618
"""),
    # itertools.cycle in a script
    textwrap.dedent("""
    import itertools

    from accelerate import Accelerator
    from torch.utils.data import DataLoader

    accelerator = Accelerator()
    loader = itertools.cycle(DataLoader(dataset, batch_size=8, shuffle=True))
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)  # warning: PF618
"""),
]

PF618_GOOD = [
    # the fix: prepare the loader, then cycle the prepared one
    textwrap.dedent("""
    from accelerate import Accelerator
    from torch.utils.data import DataLoader


    def cycle(dl):
        while True:
            for data in dl:
                yield data


    class Trainer:
        def __init__(self, model, dataset, opt):
            self.accelerator = Accelerator()
            dl = DataLoader(dataset, batch_size=32, shuffle=True)
            dl = self.accelerator.prepare(dl)
            self.dl = cycle(dl)
            self.model, self.opt = self.accelerator.prepare(model, opt)
"""),
    # tricky-correct: the name was a generator once, but is re-bound to the DataLoader before prepare
    textwrap.dedent("""
    import itertools

    from accelerate import Accelerator
    from torch.utils.data import DataLoader

    accelerator = Accelerator()
    loader = itertools.cycle([0])
    loader = DataLoader(dataset, batch_size=8, shuffle=True)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
"""),
    # tricky-correct: a loader factory of the file that returns (not yields) the DataLoader
    textwrap.dedent("""
    from accelerate import Accelerator
    from torch.utils.data import DataLoader


    def make_loader(dataset):
        return DataLoader(dataset, batch_size=8, shuffle=True)


    accelerator = Accelerator()
    loader = make_loader(dataset)
    model, loader = accelerator.prepare(model, loader)
"""),
]
