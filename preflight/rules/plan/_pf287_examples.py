"""PF287 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import torch
    from omegaconf import OmegaConf

    data_cfg = OmegaConf.load("conf/data/wmt.yaml")
    model_cfg = OmegaConf.load("conf/model/small.yaml")
    {resolve}configs = OmegaConf.create()
    configs.update(data=data_cfg, model=model_cfg)

    model = torch.nn.Linear(configs.model.d_model, configs.model.d_model)
    optimizer = torch.optim.Adam(model.parameters(), lr=configs.model.lr)
    print(configs.data.paths.train)
    # --- conf/data/wmt.yaml
    name: wmt14
    lang: en
    paths:
      train: data/{train}
      valid: data/{valid}
    # --- conf/model/small.yaml
    d_model: 512
    lr: 0.0007
""")

_CREATE = textwrap.dedent("""
    # --- train.py
    from omegaconf import OmegaConf

    base = OmegaConf.load("base.yaml")
    optim = OmegaConf.load("optim.yaml")
    cfg = OmegaConf.create({{"base": base, "optim": optim}})
    print(cfg.optim.scheduler.warmup)
    # --- base.yaml
    steps: 1000
    # --- optim.yaml
    lr: 0.001
    scheduler:
      warmup: {warmup}
""")

BAD_EXAMPLES = [
    # omegaconf issue 369: the dataset file's paths interpolate ${name} and ${lang}, nested under `data`
    _APP.format(resolve="", train="${name}.train.${lang}  # error: PF287", valid="${name}.valid.${lang}"),
    # a dict literal nests the file: ${lr} is `optim.lr` now
    _CREATE.format(warmup="${lr}  # error: PF287"),
]

GOOD_EXAMPLES = [
    # the fix: relative interpolations
    _APP.format(resolve="", train="${..name}.train.${..lang}", valid="${..name}.valid.${..lang}"),
    # resolved while the file is still its own root
    _APP.format(resolve="OmegaConf.resolve(data_cfg)\n", train="${name}.train.${lang}",
                valid="${name}.valid.${lang}"),
    # tricky: the interpolation names a key the combined root holds (`base` is set beside `optim`)
    _CREATE.format(warmup="${base.steps}"),
    # tricky: an environment resolver, not a key of the file
    _CREATE.format(warmup="${oc.env:WARMUP,100}"),
]
