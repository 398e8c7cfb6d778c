"""PF456 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF456_BAD = [
    # Hydra issue 1715: weight-decay groups passed to instantiate
    textwrap.dedent("""
    import hydra


    def build_optimizer(optcfg, model):
        decay, no_decay = split_params(model)
        optim_params = [
            {"params": no_decay, "weight_decay": 0.0},
            {"params": decay, "weight_decay": optcfg.weight_decay},
        ]
        return hydra.utils.instantiate(optcfg, params=optim_params)  # error: PF456
"""),
]

PF456_GOOD = [
    # the fix
    textwrap.dedent("""
    import hydra


    def build_optimizer(optcfg, model):
        decay, no_decay = split_params(model)
        optim_params = [
            {"params": no_decay, "weight_decay": 0.0},
            {"params": decay, "weight_decay": optcfg.weight_decay},
        ]
        return hydra.utils.instantiate(optcfg, params=optim_params, _convert_="partial")
"""),
    # a plain parameter iterator is no dict
    textwrap.dedent("""
    from hydra.utils import instantiate

    optimizer = instantiate(cfg.optimizer, params=model.parameters())
"""),
    # tricky-correct (lightning-transformers' instantiator): the groups passed positionally are handed
    # to the optimizer untouched; only keyword arguments are merged into the config
    textwrap.dedent("""
    import hydra


    def build_optimizer(cfg, model):
        no_decay = ["bias", "LayerNorm.weight"]
        grouped_parameters = [
            {"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)],
             "weight_decay": cfg.weight_decay},
            {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)],
             "weight_decay": 0.0},
        ]
        return hydra.utils.instantiate(cfg, grouped_parameters)
"""),
]
