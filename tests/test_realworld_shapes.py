"""Shapes of real jobs (issue 15) reproduced in minimal fixtures of our own: a Lightning+Hydra
template whose model is a small local nn.Module sized by the config, whose DataModule divides
the batch by the world size and whose LightningModule compiles under a ``compile`` key; and a
nanoGPT-style character-level dataset whose vocabulary comes from meta.pkl."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import plan_of, write


def winner(plan: dict, field: str):
    facts = plan["fields"].get(field) or []
    return facts[0] if facts else None


NET = """\
    import torch
    from torch import nn


    class DenseNet(nn.Module):
        def __init__(self, input_size: int = 784, hidden: int = 256, output_size: int = 10) -> None:
            super().__init__()
            self.model = nn.Sequential(
                nn.Linear(input_size, hidden),
                nn.BatchNorm1d(hidden),
                nn.ReLU(),
                nn.Linear(hidden, output_size),
            )
    """
LIT = """\
    import torch
    from lightning import LightningModule


    class LitModule(LightningModule):
        def __init__(self, net, compile: bool) -> None:
            super().__init__()
            self.save_hyperparameters(logger=False)
            self.net = net

        def setup(self, stage):
            if self.hparams.compile and stage == "fit":
                self.net = torch.compile(self.net)
    """
DATA = """\
    from lightning import LightningDataModule


    class DataModule(LightningDataModule):
        def __init__(self, batch_size: int = 64) -> None:
            super().__init__()
            self.save_hyperparameters(logger=False)

        def setup(self, stage=None):
            self.batch_size_per_device = self.hparams.batch_size // self.trainer.world_size
    """
TRAIN = """\
    import hydra
    from omegaconf import DictConfig


    @hydra.main(version_base="1.3", config_path="../configs", config_name="train.yaml")
    def main(cfg: DictConfig) -> None:
        datamodule = hydra.utils.instantiate(cfg.data)
        model = hydra.utils.instantiate(cfg.model)
        trainer = hydra.utils.instantiate(cfg.trainer)
        trainer.fit(model=model, datamodule=datamodule)


    if __name__ == "__main__":
        main()
    """


def template(root: Path, compile_: str = "false", layer: str = "nn.Linear(hidden, output_size)") -> None:
    write(root, {
        "src/__init__.py": "", "src/models/__init__.py": "",
        "src/models/net.py": NET.replace("nn.Linear(hidden, output_size)", layer),
        "src/models/lit.py": LIT, "src/data.py": DATA, "src/train.py": TRAIN,
        "configs/train.yaml": "defaults:\n  - data: default\n  - model: default\n  - trainer: default\n  - _self_\n",
        "configs/data/default.yaml": "_target_: src.data.DataModule\nbatch_size: 128\n",
        "configs/model/default.yaml": ("_target_: src.models.lit.LitModule\nnet:\n  _target_: src.models.net.DenseNet\n"
                                       f"  input_size: 784\n  hidden: 64\n  output_size: 10\ncompile: {compile_}\n"),
        "configs/trainer/default.yaml": "_target_: lightning.pytorch.trainer.Trainer\naccelerator: gpu\ndevices: 1\n",
        "configs/trainer/ddp.yaml": "defaults:\n  - default\nstrategy: ddp\ndevices: 4\nnum_nodes: 1\n",
    })


def test_local_module_sized_by_the_config_is_counted(cli, tmp_path):
    template(tmp_path)
    plan = plan_of(cli, "src/train.py", cwd=tmp_path)
    fact = winner(plan, "model.num_parameters")
    assert fact is not None
    # 784*64+64 + 2*64 + 64*10+10, the config's sizes over the constructor defaults
    assert fact["value"] == 784 * 64 + 64 + 128 + 650
    assert fact["confidence"] == "medium"
    assert fact["source"]["path"].endswith("configs/model/default.yaml")
    assert "src/models/net.py" in fact["source"]["detail"]


def test_local_module_with_an_unknown_layer_is_not_counted(cli, tmp_path):
    template(tmp_path, layer="Mystery(hidden, output_size)")
    plan = plan_of(cli, "src/train.py", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") is None


def test_compile_key_read_by_the_module_and_batch_divided_by_world(cli, tmp_path):
    template(tmp_path, compile_="true")
    plan = plan_of(cli, "src/train.py", "--", "trainer=ddp", cwd=tmp_path)
    assert winner(plan, "compile.enabled")["value"] is True
    micro = winner(plan, "batch.micro")
    assert micro["value"] == 32, micro
    assert "src/data.py:10" in micro["source"]["detail"]
    single = plan_of(cli, "src/train.py", cwd=tmp_path)
    assert winner(single, "batch.micro")["value"] == 128


# -- nanoGPT: a character-level dataset whose prepare.py writes meta.pkl ----------------------
NANO = """\
    import os, pickle
    import torch
    batch_size = 12
    block_size = 1024
    n_layer = 12
    n_embd = 768
    init_from = 'scratch'
    dataset = 'openwebtext'
    exec(open('configurator.py').read())
    meta_vocab_size = None
    meta_path = os.path.join('data', dataset, 'meta.pkl')
    if os.path.exists(meta_path):
        with open(meta_path, 'rb') as f:
            meta_vocab_size = pickle.load(f)['vocab_size']
    vocab_size = meta_vocab_size if meta_vocab_size is not None else 50304
    """
PREPARE = """\
    import pickle
    data = open('input.txt').read()
    chars = sorted(list(set(data)))
    meta = {'vocab_size': len(chars)}
    with open('meta.pkl', 'wb') as f:
        pickle.dump(meta, f)
    """


def test_vocabulary_from_meta_pkl_is_left_out_of_the_count_and_said(cli, tmp_path):
    write(tmp_path, {"train.py": NANO, "configurator.py": "", "data/chars/prepare.py": PREPARE,
                     "config/char.py": "dataset = 'chars'\nn_layer = 6\nn_embd = 384\nblock_size = 256\n"})
    plan = plan_of(cli, "train.py", "--", "config/char.py", cwd=tmp_path)
    fact = winner(plan, "model.num_parameters")
    assert fact["value"] == 12 * 6 * 384 ** 2 + 256 * 384  # no 50304-token embedding
    assert fact["confidence"] == "low"
    assert "meta.pkl" in fact["source"]["detail"] and "not counted" in fact["source"]["detail"]


def test_without_meta_pkl_the_script_default_vocabulary_counts(cli, tmp_path):
    write(tmp_path, {"train.py": NANO, "configurator.py": "",
                     "config/char.py": "dataset = 'chars'\nn_layer = 6\nn_embd = 384\nblock_size = 256\n"})
    plan = plan_of(cli, "train.py", "--", "config/char.py", cwd=tmp_path)
    assert winner(plan, "model.num_parameters")["value"] == 12 * 6 * 384 ** 2 + 50304 * 384 + 256 * 384


# -- minGPT-DDP: Hydra sections handed to the script's dataclasses, DDP in a local module ------
MIN_MAIN = """\
    import hydra
    import torch
    from omegaconf import DictConfig
    from trainer import DataConfig, Trainer, TrainerConfig
    from model import GPT, GPTConfig


    @hydra.main(version_base=None, config_path=".", config_name="cfg")
    def main(cfg: DictConfig):
        gpt_cfg = GPTConfig(**cfg['gpt_config'])
        trainer_cfg = TrainerConfig(**cfg['trainer_config'])
        data_cfg = DataConfig(**cfg['data_config'])
        Trainer(trainer_cfg, GPT(gpt_cfg)).train()


    if __name__ == "__main__":
        main()
    """
MIN_TRAINER = """\
    from dataclasses import dataclass
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP


    @dataclass
    class TrainerConfig:
        batch_size: int = None
        data_loader_workers: int = None
        use_amp: bool = None


    class Trainer:
        def __init__(self, config, model):
            self.config = config
            self.model = DDP(model, device_ids=[0])

        def step(self, x):
            with torch.amp.autocast(device_type="cuda", dtype=torch.float16, enabled=(self.config.use_amp)):
                return self.model(x)
    """
MIN_CFG = """\
    data_config:
      block_size: 128
    gpt_config:
      n_layer: 8
      n_head: 8
      n_embd: 512
    trainer_config:
      batch_size: 216
      data_loader_workers: 4
      use_amp: True
    """


def test_hydra_sections_handed_to_dataclasses_and_ddp_in_a_local_module(cli, tmp_path):
    write(tmp_path, {"main.py": MIN_MAIN, "trainer.py": MIN_TRAINER, "model.py": "import torch\n",
                     "cfg.yaml": MIN_CFG})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "2", "main.py", cwd=tmp_path)
    assert winner(plan, "batch.micro")["value"] == 216
    assert "TrainerConfig(**cfg['trainer_config'])" in winner(plan, "batch.micro")["source"]["detail"]
    assert winner(plan, "data.num_workers")["value"] == 4
    assert winner(plan, "data.seq_len")["value"] == 128
    prec = winner(plan, "precision.mode")
    assert prec["value"] == "amp_fp16" and "trainer.py:19" in prec["source"]["detail"]
    ddp = winner(plan, "dist.sharding")
    assert ddp["value"] == "ddp" and ddp["source"]["path"] == "trainer.py" and ddp["source"]["line"] == 16
    params = winner(plan, "model.num_parameters")
    assert params["value"] == 12 * 8 * 512 ** 2 + 128 * 512 and params["confidence"] == "low"


def test_sections_not_handed_to_a_class_say_nothing(cli, tmp_path):
    write(tmp_path, {"main.py": MIN_MAIN.replace("GPTConfig(**cfg['gpt_config'])", "GPTConfig()")
                     .replace("TrainerConfig(**cfg['trainer_config'])", "TrainerConfig()"),
                     "trainer.py": MIN_TRAINER.replace("DDP(model, device_ids=[0])", "model"),
                     "model.py": "import torch\n", "cfg.yaml": MIN_CFG.replace("block_size", "window")})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "2", "main.py", cwd=tmp_path)
    assert winner(plan, "batch.micro") is None
    assert winner(plan, "model.num_parameters") is None
    assert (winner(plan, "dist.sharding") or {}).get("value") != "ddp"


# -- nanoGPT under plain python: DDP only when a launcher sets RANK ----------------------------
DDP_BY_ENV = """\
    import os
    import argparse
    import torch
    from torch.distributed import init_process_group
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch_size", type=int, default=8)
    args = parser.parse_args()
    ddp = int(os.environ.get('RANK', -1)) != -1
    if ddp:
        init_process_group(backend='nccl')
    """


def test_plain_python_with_env_guarded_process_group_is_one_process(cli, tmp_path):
    write(tmp_path, {"train.py": DDP_BY_ENV})
    plan = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    fact = winner(plan, "dist.world_size")
    assert fact["value"] == 1 and "RANK" in fact["source"]["detail"]


def test_process_group_without_launcher_variables_claims_no_world_size(cli, tmp_path):
    write(tmp_path, {"train.py": DDP_BY_ENV.replace("int(os.environ.get('RANK', -1)) != -1", "True")})
    plan = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    assert winner(plan, "dist.world_size") is None
