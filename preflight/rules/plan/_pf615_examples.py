"""PF615 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

import textwrap

_MAIN = textwrap.dedent("""
    # --- {env}
    {pin}
    # --- src/main.py
    import pytorch_lightning as pl

    from nanowm.model import WorldModel


    def main(dm):
        model = WorldModel()
        trainer = pl.Trainer(
            accelerator="gpu",
            devices=1,
            precision={precision},{mark}
            max_epochs=100,
        )
        trainer.fit(model, datamodule=dm)
""")

_ENV = """name: nanowm
dependencies:
  - python=3.10
  - pip
  - pip:
      - pytorch-lightning=={version}"""

PF615_BAD = [
    # nano-world-model PR 17: "bf16-mixed" with pytorch-lightning 1.9.5 pinned in environment.yml
    _MAIN.format(env="environment.yml", pin=_ENV.format(version="1.9.5"), precision='"bf16-mixed"',
                 mark="  # error: PF615"),
    # requirements.txt pin, "16-mixed"
    _MAIN.format(env="requirements.txt", pin="pytorch-lightning==1.8.6\ntorch==1.13.1", precision='"16-mixed"',
                 mark="  # error: PF615"),
]

PF615_GOOD = [
    # the fix of the PR: the 1.x spelling
    _MAIN.format(env="environment.yml", pin=_ENV.format(version="1.9.5"), precision='"bf16"', mark=""),
    # tricky-correct: the same string on a Lightning 2 pin
    _MAIN.format(env="environment.yml", pin=_ENV.format(version="2.1.3"), precision='"bf16-mixed"', mark=""),
    # only a lower bound: 2.x may be installed
    _MAIN.format(env="requirements.txt", pin="pytorch-lightning>=1.9", precision='"bf16-mixed"', mark=""),
]
