"""PF313 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # omegaconf issue 1079 shape: a structured field filled by a resolver, then set from the command line
    textwrap.dedent("""
    from dataclasses import dataclass

    from omegaconf import OmegaConf


    @dataclass
    class Optim:
        lr: float = 3e-4


    @dataclass
    class Train:
        epochs: int = 10
        optim: Optim = "${optim_defaults:}"


    OmegaConf.register_new_resolver("optim_defaults", lambda: OmegaConf.create(Optim()))
    cfg = OmegaConf.structured(Train)
    OmegaConf.resolve(cfg)
    cfg.optim.lr = args.lr  # warning: PF313
"""),
    # a dict config, subscript assignment, use_cache=False spelled out
    textwrap.dedent("""
    from omegaconf import OmegaConf

    OmegaConf.register_new_resolver("aug", make_aug_node, use_cache=False)
    cfg = OmegaConf.create({"data": {"root": "data/"}, "augment": "${aug:strong}"})
    cfg["augment"]["p"] = 0.5  # warning: PF313
"""),
]

GOOD_EXAMPLES = [
    # the fix
    textwrap.dedent("""
    from dataclasses import dataclass

    from omegaconf import OmegaConf


    @dataclass
    class Train:
        epochs: int = 10
        optim: dict = "${optim_defaults:}"


    OmegaConf.register_new_resolver("optim_defaults", lambda: OmegaConf.create({"lr": 3e-4}), use_cache=True)
    cfg = OmegaConf.structured(Train)
    cfg.optim.lr = args.lr
"""),
    # tricky: an uncached resolver whose key is replaced whole, and a mutation below a plain key
    textwrap.dedent("""
    from omegaconf import OmegaConf

    OmegaConf.register_new_resolver("now_dir", lambda: make_dir())
    cfg = OmegaConf.create({"out": "${now_dir:}", "optim": {"lr": 1e-3}})
    cfg.out = "runs/fixed"
    cfg.optim.lr = 3e-4
"""),
]
