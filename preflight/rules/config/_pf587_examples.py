"""PF587 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- main.py
    import hydra
    from hydra.utils import instantiate


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg):
        loop = instantiate(cfg.loop)
        loop.run()


    if __name__ == "__main__":
        main()
    # --- loops.py
    from dataclasses import dataclass


    @dataclass
    class StepDecay:
        base_lr: float
        every: int

        def lr_at(self, step):
            return self.base_lr * 0.5 ** (step // self.every)


    class Loop:
        def __init__(self, steps, schedules):
            self.steps = steps
            self.schedule = schedules[0]

        def run(self):
            return [self.schedule.lr_at(s) for s in range(self.steps)]
    # --- conf/config.yaml
    defaults:
      - _self_
      - loop: default
    # --- conf/loop/default.yaml
    _target_: loops.Loop{pin}
    {convert}steps: 100
    schedules:
      - _target_: loops.StepDecay
        base_lr: 0.1
        every: 30
""")

BAD_EXAMPLES = [
    # Hydra issue 2208: a dataclass built inside a plain list of a node instantiated with _convert_ none
    _APP.format(pin="  # error: PF587", convert=""),
]

GOOD_EXAMPLES = [
    # the fix: the parent keeps the built objects
    _APP.format(pin="", convert="_convert_: object\n"),
    # tricky: the nested target builds a plain class (no dataclass): kept as the object
    _APP.format(pin="", convert="").replace("@dataclass\nclass StepDecay:\n    base_lr: float\n    every: int\n",
                                            "class StepDecay:\n    def __init__(self, base_lr, every):\n"
                                            "        self.base_lr, self.every = base_lr, every\n"),
]
