"""PF525 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra


    @hydra.main(config_path="conf", config_name="recipe", version_base="1.2")
    def main(cfg):
        print(cfg.training_hyperparams.lr_reference_batch_size)


    if __name__ == "__main__":
        main()
    # --- conf/recipe.yaml
    dataset_params:
      train_dataloader_params:
        batch_size: 256
    training_hyperparams:
      initial_lr: 0.1
      lr_reference_batch_size: {value}
      log_dir: ${{oc.env:HOME}}/logs
""")

PF525_BAD = [
    # super-gradients PR 616: the path written as if from inside dataset_params
    _APP.format(value="${train_dataloader_params.batch_size}") + """\
# --- expect
conf/recipe.yaml:6: error: PF525
""",
    # `${d_model}` next to `d_model` in a group file placed under `model`: the app instantiates
    # cfg.model.head from the composed config, where OmegaConf resolves it from the root
    textwrap.dedent("""
    # --- train.py
    import hydra
    from hydra.utils import instantiate


    @hydra.main(config_path="conf", config_name="train", version_base="1.3")
    def main(cfg):
        head = instantiate(cfg.model.head)
        print(head, cfg.data.path)


    if __name__ == "__main__":
        main()
    # --- conf/train.yaml
    defaults:
      - _self_
      - model: transformer
    data:
      path: data/sst5
      num_classes: 5
    # --- conf/model/transformer.yaml
    d_model: 512
    head:
      _target_: torch.nn.Linear
      in_features: ${d_model}
      out_features: ${data.num_classes}
    # --- expect
    conf/model/transformer.yaml:4: error: PF525
"""),
]

PF525_GOOD = [
    # the fix: the full path
    _APP.format(value="${dataset_params.train_dataloader_params.batch_size}"),
    # a relative interpolation, and a key the app adds at run time (below no node)
    _APP.format(value="${..initial_lr}"),
    _APP.format(value="${runtime.world_size}"),
    # NeMo megatron_t0_config.yaml: relative to the `model:` subtree, which NeMo detaches as the model's config
    textwrap.dedent("""
    # --- train.py
    import hydra


    @hydra.main(config_path="conf", config_name="t0", version_base="1.2")
    def main(cfg):
        build_model(cfg.model)


    if __name__ == "__main__":
        main()
    # --- conf/t0.yaml
    model:
      data:
        train_ds:
          add_bos_to_input: true
        validation_ds:
          add_bos_to_input: ${data.train_ds.add_bos_to_input}
"""),
    # tricky-correct: the app reads below the subtree but gives it a root of its own first
    textwrap.dedent("""
    # --- train.py
    import hydra
    from omegaconf import OmegaConf


    @hydra.main(config_path="conf", config_name="train", version_base="1.3")
    def main(cfg):
        model_cfg = OmegaConf.create(cfg.model)
        build_head(model_cfg.head, cfg.model.head._target_)


    if __name__ == "__main__":
        main()
    # --- conf/train.yaml
    model:
      d_model: 512
      head:
        _target_: torch.nn.Linear
        in_features: ${d_model}
"""),
]
