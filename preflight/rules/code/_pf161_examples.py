"""PF161 examples: executable documentation (bad ones must fire, good ones stay silent)."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    from detectron2.config import LazyConfig, instantiate

    from ape.solver import build_param_groups


    def do_train(cfg):
        model = instantiate(cfg.model)
        param_groups = build_param_groups(model, base_lr=cfg.optimizer.lr, weight_decay=cfg.optimizer.weight_decay)
    {body}
        return model, optim


    def main(path):
        return do_train(LazyConfig.load(path))
""")

PF161_BAD = [
    # held-out-43, APE issue 7 (tools/train_net.py:19): the groups stored in the config, then instantiated
    _TRAIN.format(body="    cfg.optimizer.params = param_groups  # error: PF161\n    optim = instantiate(cfg.optimizer)"),
    # a list display of group dicts
    textwrap.dedent("""
    from detectron2.config import LazyConfig, instantiate


    def build(cfg, model):
        cfg.optimizer.params = [{"params": model.backbone.parameters(), "lr": 1e-5}, {"params": model.head.parameters()}]  # error: PF161
        return instantiate(cfg.optimizer)


    build(LazyConfig.load("cfg.py"), None)
"""),
]

PF161_GOOD = [
    # the fix: the groups passed at call time
    _TRAIN.format(body="    optim = instantiate(cfg.optimizer, params=param_groups)"),
    # detectron2's recipe: the model stored, the lazy get_default_optimizer_params builds the groups
    textwrap.dedent("""
    from detectron2.config import LazyConfig, instantiate


    def build(cfg, model):
        cfg.optimizer.params.model = model
        return instantiate(cfg.optimizer)


    build(LazyConfig.load("cfg.py"), None)
"""),
    # tricky-correct (a detrex-style train_net.py found by det114): model.parameters() is a generator, not a
    # container, so OmegaConf keeps it as an object
    textwrap.dedent("""
    from detectron2.config import LazyConfig, instantiate


    def build(cfg, model):
        if hasattr(cfg.optimizer, "params"):
            cfg.optimizer.params.model = model
        else:
            cfg.optimizer.params = model.parameters()
        return instantiate(cfg.optimizer)


    build(LazyConfig.load("cfg.py"), None)
"""),
]
