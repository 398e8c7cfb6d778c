"""PF1000 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF1000_BAD = [
    # Hydra issue 2078: the EMA callback in a list gets `model: ${model}`; instantiate(cfg.callbacks)
    # builds a second ViT for it while the loop trains the script's own
    textwrap.dedent("""
    # --- train.py
    import hydra
    import torch
    from hydra.utils import instantiate


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg):
        model = instantiate(cfg.model).cuda()
        callbacks = instantiate(cfg.callbacks)
        opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    # --- conf/config.yaml
    model:
      _target_: vit.VisionTransformer
      depth: 12
    callbacks:
      - _target_: callbacks.EMACallback
        decay: 0.9999
        model: ${model}  # warning: PF1000
    lr: 0.001
"""),
    # a teacher/student node (dict, not list) and a Lightning fit of the script's own model
    textwrap.dedent("""
    # --- train.py
    import hydra
    import lightning as L
    from hydra.utils import instantiate


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg):
        net = instantiate(cfg.net)
        evaluator = instantiate(cfg.evaluator)
        L.Trainer(max_epochs=3).fit(net)
        evaluator.run()
    # --- conf/config.yaml
    net:
      _target_: models.ResNet
      depth: 50
    evaluator:
      _target_: evals.LinearProbe
      backbone: ${net}  # warning: PF1000
      epochs: 10
"""),
    # the model comes from a config group file (conf/model/vit.yaml), the callback from another
    textwrap.dedent("""
    # --- train.py
    import hydra
    from hydra.utils import instantiate


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg):
        model = instantiate(cfg.model)
        model.to("cuda")
        ema = instantiate(cfg.ema)
    # --- conf/config.yaml
    defaults:
      - model: vit
      - _self_
    ema:
      _target_: callbacks.EMA
      model: ${model}  # warning: PF1000
    # --- conf/model/vit.yaml
    _target_: vit.VisionTransformer
    depth: 12
"""),
]

PF1000_GOOD = [
    # the fix: the live model is passed in
    textwrap.dedent("""
    # --- train.py
    import hydra
    from hydra.utils import instantiate


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg):
        model = instantiate(cfg.model).cuda()
        ema = instantiate(cfg.ema, model=model)
    # --- conf/config.yaml
    model:
      _target_: vit.VisionTransformer
    ema:
      _target_: callbacks.EMA
      decay: 0.999
"""),
    # tricky: the interpolation is there, but the call passes the live object over it
    textwrap.dedent("""
    # --- train.py
    import hydra
    from hydra.utils import instantiate


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg):
        model = instantiate(cfg.model).cuda()
        ema = instantiate(cfg.ema, model=model)
    # --- conf/config.yaml
    model:
      _target_: vit.VisionTransformer
    ema:
      _target_: callbacks.EMA
      model: ${model}
"""),
    # tricky: the script never builds the model node itself: the interpolated copy is the only one
    textwrap.dedent("""
    # --- train.py
    import hydra
    from hydra.utils import instantiate


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg):
        task = instantiate(cfg.task)
        task.run()
    # --- conf/config.yaml
    model:
      _target_: vit.VisionTransformer
    task:
      _target_: tasks.Classification
      model: ${model}
"""),
    # tricky: a part of a node (a number) is interpolated, and a node without _target_
    textwrap.dedent("""
    # --- train.py
    import hydra
    from hydra.utils import instantiate


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg):
        model = instantiate(cfg.model).cuda()
        head = instantiate(cfg.head)
        opt = instantiate(cfg.optim, params=model.parameters())
    # --- conf/config.yaml
    model:
      _target_: vit.VisionTransformer
      dim: 768
    data:
      root: /data
    head:
      _target_: heads.Linear
      in_features: ${model.dim}
      data: ${data}
    optim:
      _target_: torch.optim.AdamW
      _partial_: true
"""),
    # tricky: the model instance is built but not trained in this script (an export tool);
    # two encoders from one config on purpose
    textwrap.dedent("""
    # --- export.py
    import hydra
    from hydra.utils import instantiate


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg):
        encoder = instantiate(cfg.encoder)
        siamese = instantiate(cfg.siamese)
        print(encoder, siamese)
    # --- conf/config.yaml
    encoder:
      _target_: models.Encoder
    siamese:
      _target_: models.Siamese
      left: ${encoder}
      right: ${encoder}
"""),
]
