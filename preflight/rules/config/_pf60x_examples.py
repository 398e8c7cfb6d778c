"""PF601-PF603 examples: small projects (``# --- <path>`` sections); bad ones must fire,
good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

PF601_BAD = [
    # a typo in a DeepSpeed block validated by pydantic (extra="forbid"): DeepSpeed raises
    dedent("""
    # --- ds_config.json
    {
      "train_micro_batch_size_per_gpu": 4,
      "zero_optimization": {"stage": 3, "overlap_com": true}
    }
    # --- expect
    ds_config.json:3: error: PF601
    """),
    # an unknown top-level key of an accelerate config: ClusterConfig.from_yaml_file raises
    dedent("""
    # --- accelerate.yaml
    compute_environment: LOCAL_MACHINE
    distributed_type: MULTI_GPU
    num_machine: 1  # error: PF601
    num_processes: 8
    mixed_precision: bf16
    """),
    # the lightning-hydra-template layout (seed, ckpt_path, trainer:) in a project that trains with
    # Lightning: Trainer() rejects log_every
    dedent("""
    # --- conf/train.yaml
    defaults:
      - paths: default
      - _self_

    seed: 1234
    trainer:
      max_epochs: 20000
      log_every: 500  # error: PF601
    ckpt_path: ${paths.output_dir}/checkpoints
    # --- conf/paths/default.yaml
    output_dir: outputs
    # --- run.py
    from hydra import compose, initialize
    import lightning as L

    with initialize(version_base="1.3", config_path="conf"):
        cfg = compose(config_name="train")
    L.Trainer(**cfg.trainer).fit(model)
    """),
    # a LightningCLI-shaped file (model: beside trainer:): Trainer() rejects batch_size
    dedent("""
    # --- config.yaml
    model:
      num_classes: 10
    trainer:
      max_epochs: 200
      batch_size: 128  # error: PF601
    """),
]

PF601_GOOD = [
    # tricky-correct (PINNs-TF2's run_colab shape): the same layout in a project whose code never names
    # Lightning; its trainer: node is read by the project's own (TensorFlow) loop
    dedent("""
    # --- conf/train.yaml
    defaults:
      - paths: default
      - _self_

    seed: 1234
    trainer:
      max_epochs: 20000
      log_every: 500
    ckpt_path: ${paths.output_dir}/checkpoints
    # --- conf/paths/default.yaml
    output_dir: outputs
    # --- run.py
    from hydra import compose, initialize
    from pinns.train import train

    with initialize(version_base="1.3", config_path="conf"):
        cfg = compose(config_name="train")
    train(cfg)  # a TensorFlow training loop reads cfg.trainer itself
    """),
    # VISSL PR 368 shape: a Hydra group file (`# @package _global_`) of a plain PyTorch loop; its
    # trainer: node is the project's own settings, not Lightning's Trainer()
    dedent("""
    # --- conf/dataset/cifar10.yaml
    # @package _global_
    model:
      num_classes: 10
    trainer:
      max_epochs: 200
      batch_size: 128
    """),
    dedent("""
    # --- ds_config.json
    {
      "train_micro_batch_size_per_gpu": 4,
      "zero_optimization": {"stage": 3, "overlap_comm": true}
    }
    """),
    # keys of the script's own dataclasses are fine in an HfArgumentParser file
    dedent("""
    # --- train.py
    from dataclasses import dataclass, field
    from transformers import HfArgumentParser, TrainingArguments

    @dataclass
    class ModelArguments:
        model_name_or_path: str = field(default="gpt2")

    parser = HfArgumentParser((ModelArguments, TrainingArguments))
    model_args, training_args = parser.parse_yaml_file("args.yaml")
    # --- args.yaml
    output_dir: out
    per_device_train_batch_size: 4
    gradient_accumulation_steps: 2
    model_name_or_path: gpt2
    """),
]

PF602_BAD = [
    dedent("""
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 4}}
    # --- expect
    ds_config.json:1: error: PF602
    """),
    dedent("""
    # --- args.yaml
    output_dir: out
    per_device_train_batch_size: 4
    optim: adamw_torh  # error: PF602
    """),
]

PF602_GOOD = [
    # "auto" is filled by the HF Trainer / Accelerate
    dedent("""
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {"stage": 2}}
    """),
    dedent("""
    # --- args.yaml
    output_dir: out
    per_device_train_batch_size: 4
    optim: adamw_torch
    """),
]

PF603_BAD = [
    # PyYAML (HfArgumentParser.parse_yaml_file) reads 1e-4 as a string
    dedent("""
    # --- args.yaml
    output_dir: out
    per_device_train_batch_size: 4
    learning_rate: 1e-4  # error: PF603
    """),
    # `no` is the boolean false in YAML 1.1; accelerate expects the string "no"
    dedent("""
    # --- accelerate.yaml
    compute_environment: LOCAL_MACHINE
    distributed_type: MULTI_GPU
    num_processes: 2
    mixed_precision: no  # error: PF603
    """),
    # salesforce/ALBEF issue 128: the project's own YAML (no known kind), read by the script with
    # yaml.load: the flow mappings' dotless floats are strings
    dedent("""
    # --- Pretrain.py
    import argparse

    import yaml

    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="./configs/Pretrain.yaml")
    config = yaml.load(open(parser.parse_args().config), Loader=yaml.Loader)
    optimizer = create_optimizer(argparse.Namespace(**config["optimizer"]), model)
    # --- configs/Pretrain.yaml
    batch_size: 64
    momentum: 0.995
    optimizer: {opt: adamW, lr: 1e-4, weight_decay: 0.02}  # warning: PF603
    """),
    # trl PR 1450: TrainingArguments nested under `training:`, read with yaml.safe_load
    dedent("""
    # --- sft.py
    import yaml
    from transformers import TrainingArguments

    with open("sft_config.yaml") as f:
        cfg = yaml.safe_load(f)
    training_args = TrainingArguments(**cfg["training"])
    # --- sft_config.yaml
    model_name: facebook/opt-350m
    training:
      learning_rate: 1e-4  # warning: PF603
      output_dir: out
    """),    # hydra issue 1135: a Python tuple in a Hydra datamodule config is the string "(0.5, 0.5, 0.781)"
    dedent("""
    # --- configs/datamodule/ct.yaml
    _target_: src.datamodules.CTDataModule
    data_dir: data/ct
    batch_size: 2
    pix_dim: (0.5, 0.5, 0.781)  # warning: PF603
    """),
    # yacs issue 48: a bare `ON:` key is the boolean true; the file holds {True: True} under DCN
    dedent("""
    # --- configs/retinanet.yaml
    MODEL:
      DCN:
        ON: True  # warning: PF603
        STAGES: [3, 4, 5]
      FPN:
        "OFF": false
    """),
    # yacs issue 46: yacs reads the file with yaml.safe_load, so `BASE_LR: 1e-3` is the string "1e-3"
    dedent("""
    # --- train.py
    from yacs.config import CfgNode

    with open("configs/retinanet.yaml") as f:
        cfg = CfgNode.load_cfg(f)
    print(cfg.SOLVER.BASE_LR * 2)
    # --- configs/retinanet.yaml
    SOLVER:
      BASE_LR: 1e-3  # warning: PF603
      MOMENTUM: 0.9
    """),
    # confuse issue 91: confuse loads YAML with a PyYAML SafeLoader subclass, so `lr: 1e-4` is "1e-4"
    dedent("""
    # --- train.py
    import confuse
    import torch

    config = confuse.Configuration("MyMLApp", __name__)
    config.set_file("config_default.yaml")
    params = config["arch"].get()
    optimizer = torch.optim.Adam(model.parameters(), lr=params["lr"])
    # --- config_default.yaml
    arch:
      lr: 1e-4  # warning: PF603
      hidden: 256
    """),
]

PF603_GOOD = [
    dedent("""
    # --- args.yaml
    output_dir: out
    per_device_train_batch_size: 4
    learning_rate: 1.0e-4
    """),
    dedent("""
    # --- accelerate.yaml
    compute_environment: LOCAL_MACHINE
    distributed_type: MULTI_GPU
    num_processes: 2
    mixed_precision: 'no'
    """),
    # the script converts the value itself; a file the PyYAML script does not name; OmegaConf reads it
    dedent("""
    # --- train.py
    import yaml

    with open("train.yaml") as f:
        config = yaml.safe_load(f)
    lr = float(config["optimizer"]["lr"])
    # --- train.yaml
    optimizer: {opt: adamW, lr: 1e-4}
    # --- other.yaml
    schedule: {min_lr: 1e-5}
    """),
    dedent("""
    # --- train.py
    import yaml
    from omegaconf import OmegaConf

    cfg = OmegaConf.load("train.yaml")
    meta = yaml.safe_load(open("meta.yaml"))
    # --- train.yaml
    optimizer: {opt: adamW, lr: 1e-4}
    """),    # the tuple written as a YAML list; a quoted tuple string; a parenthesised word
    dedent("""
    # --- configs/datamodule/ct.yaml
    _target_: src.datamodules.CTDataModule
    data_dir: data/ct
    pix_dim: [0.5, 0.5, 0.781]
    label: "(0.5, 0.5)"
    note: (see README)
    """),
    # tricky: the project parses the string as Python itself
    dedent("""
    # --- train.py
    import ast

    import yaml

    cfg = yaml.safe_load(open("config.yaml"))
    spacing = ast.literal_eval(cfg["pix_dim"])
    # --- config.yaml
    pix_dim: (0.5, 0.5, 0.781)
    """),
    # tricky: quoted keys, the words as values, and `true:` keys of a label map are what they say
    dedent("""
    # --- configs/retinanet.yaml
    MODEL:
      DCN:
        "ON": True
        'OFF': no_stage
      USE_FPN: on
    label_names:
      true: positive
      false: negative
      online: 3
    """),
    # the fix of yacs issue 46: a dot in the mantissa
    dedent("""
    # --- train.py
    from yacs.config import CfgNode

    with open("configs/retinanet.yaml") as f:
        cfg = CfgNode.load_cfg(f)
    print(cfg.SOLVER.BASE_LR * 2)
    # --- configs/retinanet.yaml
    SOLVER:
      BASE_LR: 1.0e-3
      MOMENTUM: 0.9
    """),
    # tricky-correct: merge_from_file (yacs, fvcore, detectron2) passes each value through literal_eval
    # (yacs `_decode_cfg_value`), so "1e-4" becomes 0.0001 (lufficc/SSD issue 170's shape)
    dedent("""
    # --- train_net.py
    from detectron2.config import get_cfg

    cfg = get_cfg()
    cfg.merge_from_file("configs/mask_rcnn.yaml")
    print(cfg.SOLVER.WEIGHT_DECAY)
    # --- configs/mask_rcnn.yaml
    SOLVER:
      BASE_LR: 0.02
      WEIGHT_DECAY: 1e-4
    """),
    # tricky: the project's own Config class has a merge_from_file that reads with OmegaConf (no yacs)
    dedent("""
    # --- train.py
    from myproj.config import Config

    cfg = Config()
    cfg.merge_from_file("configs/base.yaml")
    # --- configs/base.yaml
    optim: {lr: 1e-3}
    """),
    # tricky: the yacs value is cast where it is read
    dedent("""
    # --- train.py
    from yacs.config import CfgNode

    cfg = CfgNode.load_cfg(open("configs/retinanet.yaml"))
    lr = float(cfg.SOLVER.BASE_LR)
    # --- configs/retinanet.yaml
    SOLVER:
      BASE_LR: 1e-3
    """),
    # confuse's fix (a dot in the mantissa), and tricky-correct: a typed read converts the string
    dedent("""
    # --- train.py
    import confuse

    config = confuse.Configuration("MyMLApp", __name__)
    config.set_file("config_default.yaml")
    lr = config["arch"]["lr"].as_number()
    # --- config_default.yaml
    arch:
      lr: 1e-4
    """),
    dedent("""
    # --- train.py
    import confuse

    config = confuse.Configuration("MyMLApp", __name__)
    config.set_file("config_default.yaml")
    params = config["arch"].get()
    # --- config_default.yaml
    arch:
      lr: 1.0e-4
    """),
]
