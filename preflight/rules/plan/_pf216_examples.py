"""PF216 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_WEATHER = textwrap.dedent("""
    # --- train.py
    import hydra
    from omegaconf import DictConfig


    @hydra.main(version_base=None, config_path="config", config_name="config")
    def main(config: DictConfig) -> None:
        print(config.training.max_epochs, config.training.variable_groups)


    if __name__ == "__main__":
        main()
    # --- config/config.yaml
    defaults:
      - data: zarr
      - training: default
      - _self_

    training:
      max_epochs: 10
      variable_groups:
        default: sfc
    {pl}
    # --- config/training/default.yaml
    max_epochs: 200
    variable_groups:
      default: sfc
      pl:
        param: [q, t, u, v, w, z]
    # --- config/data/zarr.yaml
    resolution: o96
    # --- launch
    python train.py
""")

_PREDICTOR = textwrap.dedent("""
    # --- my_app.py
    import hydra
    from hydra.utils import instantiate
    from omegaconf import DictConfig


    @hydra.main(version_base="1.1", config_path="configs", config_name="default_preds"){pin}
    def main(cfg: DictConfig) -> None:
        instantiate(cfg.predictor).fit()


    if __name__ == "__main__":
        main()
    # --- configs/default_preds.yaml
    defaults:
      - predictor: pred_1
    # --- configs/predictor/pred_1.yaml
    _target_: src.predictor.Pred1

    defaults:
      - _self_
      - /module/model@model: ???
    # --- configs/module/model/model_1.yaml
    _target_: src.models.Model1
    hidden_size: 256
    # --- configs/module/model/model_2.yaml
    _target_: src.models.Model2
    hidden_size: 512
    # --- launch
    python my_app.py {override}
""")

_SPLATTER = textwrap.dedent("""
    # --- train_network.py
    import hydra
    from omegaconf import DictConfig


    @hydra.main(version_base=None, config_path="configs", config_name="default_config")
    def main(cfg: DictConfig) -> None:
        print(cfg.opt.base_lr, cfg.general.device)


    if __name__ == "__main__":
        main()
    # --- configs/default_config.yaml
    defaults:
    {hydra_entry}
      - opt: {opt}
      - _self_

    general:
      device: 0
    # --- configs/opt/base.yaml
    base_lr: 0.00005
    # --- configs/opt/large.yaml
    base_lr: 0.0001
    {extra}
    # --- launch
    python train_network.py
""")

_EXPERIMENT = textwrap.dedent("""
    # --- train.py
    import hydra
    from omegaconf import DictConfig


    @hydra.main(version_base="1.3", config_path="configs", config_name="config")
    def main(cfg: DictConfig) -> None:
        print(cfg.dataset.name, cfg.trainer.max_steps, cfg.seed)


    if __name__ == "__main__":
        main()
    # --- configs/config.yaml
    defaults:
      - dataset: all
      - trainer: gpu
      - _self_
    seed: 1234
    # --- configs/experiment/ci_small.yaml
    # @package _global_
    defaults:
      - {entry}
    seed: 0
    # --- configs/dataset/all.yaml
    name: all
    # --- configs/dataset/small.yaml
    name: small
    # --- configs/trainer/gpu.yaml
    max_steps: 200000
    # --- configs/trainer/cpu.yaml
    max_steps: 50
    # --- launch
    python train.py {launch}
""")

BAD_EXAMPLES = [
    # anemoi-core issue 435: the top-level config gives as a list what training/default.yaml gives as a mapping
    _WEATHER.format(pl="    pl: [u, v, w]  # error: PF216"),
    # splatter-image issue 3: `hydra: defaults` selected, configs/hydra/defaults.yaml never committed
    _SPLATTER.format(hydra_entry="  - hydra: defaults  # error: PF216", opt="base", extra=""),
    # an option of the project's own group that the folder does not have
    _SPLATTER.format(hydra_entry="", opt="small  # error: PF216", extra=""),
    # hydra issue 1858: the override names the group without the package of the relocated entry
    _PREDICTOR.format(pin="  # error: PF216", override="module/model=model_1"),
    # hydra issue 2680: the experiment selects the dataset group again without `override`
    _EXPERIMENT.format(entry="/dataset: small  # error: PF216", launch="+experiment=ci_small"),
]

GOOD_EXAMPLES = [
    # the fix: the same shape in both configs
    _WEATHER.format(pl="    pl:\n      param: [u, v, w]").replace(
        "config.training.variable_groups)", "config.training.variable_groups, config.data.resolution)"),
    # the fix: the override key with the entry's package
    _PREDICTOR.format(pin="", override="module/model@predictor.model=model_1"),
    # the fix: Hydra's options set inline, no hydra: entry in the defaults list
    _SPLATTER.format(hydra_entry="", opt="base", extra=""),
    # tricky-correct: configs/hydra/defaults.yaml is there
    _SPLATTER.format(hydra_entry="  - hydra: defaults", opt="base",
                     extra="# --- configs/hydra/defaults.yaml\nrun:\n  dir: out/${now:%H-%M-%S}"),
    # the fix: `override` replaces the option the primary config chose
    _EXPERIMENT.format(entry="override /dataset: small", launch="+experiment=ci_small"),
    # tricky-correct: a group the primary config does not select yet needs no `override`
    _EXPERIMENT.format(entry="/dataset: small", launch="+experiment=ci_small").replace("  - dataset: all\n", ""),
    # tricky-correct: the experiment config is not selected by this launch
    _EXPERIMENT.format(entry="/dataset: small", launch="trainer=cpu"),
    # tricky-correct: a launcher plugin's option (installed with the plugin, not a file of the project)
    _SPLATTER.format(hydra_entry="  - override hydra/launcher: joblib", opt="base", extra=""),
]


# hydra issue 1668: a resolver picks the launcher in the defaults list (worked in Hydra 1.0, fails from 1.1)
_ENV_LAUNCHER = textwrap.dedent("""
    # --- main.py
    import hydra


    @hydra.main(config_path="config", config_name="train")
    def main(cfg):
        print(cfg.model.name, cfg.trainer.max_epochs)


    if __name__ == "__main__":
        main()
    # --- config/train.yaml
    defaults:
      - model: resnet18
      - _self_
    {entry}
    trainer:
      max_epochs: 90
    # --- config/model/resnet18.yaml
    name: resnet18
    # --- launch
    python main.py {launch}
""")
BAD_EXAMPLES.append(_ENV_LAUNCHER.format(entry="  - override hydra/launcher: ${oc.env:HYDRA_LAUNCHER}  # error: PF216",
                                         launch="trainer.max_epochs=50"))
GOOD_EXAMPLES += [
    # the fix: the launcher is chosen on the launch line
    _ENV_LAUNCHER.format(entry="", launch="hydra/launcher=basic trainer.max_epochs=50"),
    # tricky-correct: the launcher named in the entry, the environment read elsewhere in the config
    _ENV_LAUNCHER.format(entry="  - override hydra/launcher: basic\nrun_name: ${oc.env:RUN_NAME,local}",
                         launch="trainer.max_epochs=50"),
]
