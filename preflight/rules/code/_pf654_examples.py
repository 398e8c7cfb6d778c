"""PF654 examples: executable documentation (bad ones must fire, good ones stay silent)."""

from __future__ import annotations

import textwrap

# the RIN trainer (rin-pytorch) before "small bugfix regarding saving the step"
_TRAINER = textwrap.dedent("""
    import torch
    from torch.optim import Adam


    class Trainer:
        def __init__(self, model, dl, accelerator, train_num_steps=100000, save_every=1000):
            self.model = model
            self.dl = dl
            self.accelerator = accelerator
            self.opt = Adam(model.parameters(), lr=1e-4)
            self.train_num_steps = train_num_steps
            self.save_every = save_every
            self.step = 0

        def save(self, milestone):
            data = {{
                'step': {saved}
                'model': self.accelerator.get_state_dict(self.model),
                'opt': self.opt.state_dict(),
            }}
            torch.save(data, f'model-{{milestone}}.pt')

        def load(self, milestone):
            data = torch.load(f'model-{{milestone}}.pt')
            self.model.load_state_dict(data['model'])
            self.step = data['step']
            self.opt.load_state_dict(data['opt'])

        def train(self):
            while self.step < self.train_num_steps:
    {body}
""")

_SAVE_THEN_INCREMENT = """\
            loss = self.model(next(self.dl))
            self.accelerator.backward(loss)
            self.opt.step()
            self.opt.zero_grad()
            if self.step != 0 and self.step % self.save_every == 0:
                self.save(self.step // self.save_every)
            self.step += 1"""

PF654_BAD = [
    _TRAINER.format(saved="self.step,  # warning: PF654", body=_SAVE_THEN_INCREMENT),
    # the save under the main-process test, the update through accelerate's prepared optimizer
    _TRAINER.format(saved="self.step,  # warning: PF654", body="""\
            loss = self.model(next(self.dl))
            self.accelerator.backward(loss)
            self.accelerator.wait_for_everyone()
            self.opt.step()
            self.opt.zero_grad()
            if self.accelerator.is_main_process:
                if self.step % self.save_every == 0:
                    self.save(self.step // self.save_every)
            self.step += 1"""),
]

PF654_GOOD = [
    # the fix: the next step's index is saved
    _TRAINER.format(saved="self.step + 1,", body=_SAVE_THEN_INCREMENT),
    # tricky-correct (denoising-diffusion-pytorch): the counter is incremented before the save
    _TRAINER.format(saved="self.step,", body="""\
            loss = self.model(next(self.dl))
            self.accelerator.backward(loss)
            self.opt.step()
            self.opt.zero_grad()
            self.step += 1
            if self.step != 0 and self.step % self.save_every == 0:
                self.save(self.step // self.save_every)"""),
    # tricky-correct: the save comes before this iteration's update (the state of `self.step` steps done)
    _TRAINER.format(saved="self.step,", body="""\
            if self.step % self.save_every == 0:
                self.save(self.step // self.save_every)
            loss = self.model(next(self.dl))
            self.accelerator.backward(loss)
            self.opt.step()
            self.opt.zero_grad()
            self.step += 1"""),
    # the counter is saved but never restored from the checkpoint (a log of progress, not a resume point)
    _TRAINER.replace("        self.step = data['step']\n", "").format(saved="self.step,",
                                                                           body=_SAVE_THEN_INCREMENT),
]
