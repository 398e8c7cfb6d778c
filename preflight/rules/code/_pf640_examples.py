"""PF640 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

_PRETRAIN = textwrap.dedent("""
    import math

    import deepspeed
    import torch
    import torch.nn as nn


    def init_weights(module):
    {body}


    with deepspeed.zero.Init(config_dict_or_path="ds_config.json"):
        model = DecoderLM(config)
    {inside}
    {after}

    engine, _, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
""")

_PLAIN = """\
        if isinstance(module, nn.Linear):
            module.weight.data.normal_(mean=0.0, std=0.02)
            if module.bias is not None:
                module.bias.data.zero_()
        elif isinstance(module, nn.Embedding):
            nn.init.normal_(module.weight, std=0.02)"""

_GATHERED = """\
        params = list(module.parameters(recurse=False))
        with deepspeed.zero.GatheredParameters(params, modifier_rank=0):
            if isinstance(module, nn.Linear):
                module.weight.data.normal_(mean=0.0, std=0.02)"""

PF640_BAD = [
    # held-out-30 (DeepSpeed issue 2650): the init applied after the zero.Init block exits
    _PRETRAIN.format(body=_PLAIN, inside="", after="model.apply(init_weights)  # error: PF640"),
]

PF640_GOOD = [
    # the fix: the init gathers each module's parameters
    _PRETRAIN.format(body=_GATHERED, inside="", after="model.apply(init_weights)"),
    # tricky-correct: apply inside the block, where DeepSpeed's wrapped Module.apply gathers (v0.6.0+)
    _PRETRAIN.format(body=_PLAIN, inside="    model.apply(init_weights)", after=""),
    # tricky-correct: zero.Init switched off
    _PRETRAIN.format(body=_PLAIN, inside="", after="model.apply(init_weights)").replace(
        'zero.Init(config_dict_or_path="ds_config.json")', "zero.Init(enabled=False)"),
]
