"""PF312 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # pyyaml issue 442 shape: mixed precision switched by a flag that BaseLoader made a string
    textwrap.dedent("""
    import torch
    import yaml

    with open("conf/train.yaml") as f:
        cfg = yaml.load(f, Loader=yaml.BaseLoader)
    use_amp = cfg["train"]["use_amp"]
    scaler = torch.cuda.amp.GradScaler(enabled=bool(use_amp))  # warning: PF312
    if cfg["train"].get("compile"):  # warning: PF312
        model = torch.compile(model)
"""),
    # the loader imported by name, positional
    textwrap.dedent("""
    from yaml import BaseLoader, load

    settings = load(open("settings.yaml"), BaseLoader)
    if not settings["shuffle"]:  # warning: PF312
        print("sequential order")
"""),
]

GOOD_EXAMPLES = [
    # the fix
    textwrap.dedent("""
    import torch
    import yaml

    with open("conf/train.yaml") as f:
        cfg = yaml.load(f, Loader=yaml.SafeLoader)
    use_amp = cfg["train"]["use_amp"]
    scaler = torch.cuda.amp.GradScaler(enabled=bool(use_amp))
"""),
    # tricky: BaseLoader on purpose, every value compared or converted explicitly; an unrelated truth test
    textwrap.dedent("""
    import yaml

    with open("conf/train.yaml") as f:
        raw = yaml.load(f, Loader=yaml.BaseLoader)
    use_amp = raw["use_amp"].lower() == "true"
    epochs = int(raw["epochs"])
    if use_amp and epochs > 1:
        print("amp")
    if raw:
        print(sorted(raw))
"""),
]
