"""A pydantic config class loaded by its own classmethod, ``Cls.from_json_path(path)`` returning ``cls(**json)``,
nested models filled with their class defaults, and a section spread by ``**config.data.model_dump()``
(adapters/config_object_classload.py, adapters/config_object_flow.py ``dumped``). Fixtures of our own copying
the real shape, with silent twins."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

# lucidrains/DALLE2-pytorch @ 680dfc4: dalle2_pytorch/train_configs.py:280-350 (class DecoderDataConfig(BaseModel):
# num_workers: int = 4, batch_size: int = 64 ...; class TrainDecoderConfig(BaseModel): data: DecoderDataConfig ...
# @classmethod def from_json_path(cls, json_path): with open(json_path) as f: config = json.load(f); return
# cls(**config)), train_decoder.py:37-55,581-591,643-648 (create_dataloaders(..., **config.data.model_dump());
# @click.option("--config_file") ... TrainDecoderConfig.from_json_path(str(Path(config_file)))).
DALLE = {
    "proj/__init__.py": "",
    "proj/configs.py": """\
        import json
        from typing import Optional

        from pydantic import BaseModel


        class DataConfig(BaseModel):
            webdataset_base_url: str
            num_workers: int = 4
            batch_size: int = 64
            shuffle_train: bool = True


        class TrainConfig(BaseModel):
            epochs: int = 20
            lr: float = 1e-4
            amp: bool = False


        class TrainDecoderConfig(BaseModel):
            data: DataConfig
            train: TrainConfig
            seed: int = 0

            @classmethod
            def from_json_path(cls, json_path):
                with open(json_path) as f:
                    config = json.load(f)
                return cls(**config)
    """,
    "train_decoder.py": """\
        from pathlib import Path

        import click
        import torch
        from torch.utils.data import DataLoader

        from proj.configs import TrainDecoderConfig


        def create_dataloaders(webdataset_base_url, num_workers=2, batch_size=32, shuffle_train=True, **kwargs):
            return DataLoader(list(range(100)), num_workers=num_workers, batch_size=batch_size, shuffle=shuffle_train)


        def initialize_training(config):
            torch.manual_seed(config.seed)
            loader = create_dataloaders(**config.data.model_dump(), rank=0)
            model = torch.nn.Linear(4, 4)
            opt = torch.optim.AdamW(model.parameters(), lr=config.train.lr)
            for epoch in range(config.train.epochs):
                for batch in loader:
                    loss = model(batch.float()).mean()
                    loss.backward()
                    opt.step()
                    opt.zero_grad()


        @click.command()
        @click.option("--config_file", default="./train_decoder_config.json", help="Path to config file")
        def main(config_file):
            config_file_path = Path(config_file)
            config = TrainDecoderConfig.from_json_path(str(config_file_path))
            initialize_training(config)


        if __name__ == "__main__":
            main()
    """,
    "configs/decoder.json": """\
        {
            "data": {"webdataset_base_url": "pipe:cat {}.tar", "batch_size": 48},
            "train": {"epochs": 2}
        }
    """,
}


def _plan(cli, tmp_path, files=DALLE):
    write(tmp_path, files)
    return plan_of(cli, "train_decoder.py", "--", "--config_file", "configs/decoder.json", cwd=tmp_path)


def test_the_json_over_the_nested_defaults_reaches_the_loader(cli, tmp_path):
    plan = _plan(cli, tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro.value == 48 and micro.confidence != "high"
    workers = fact(plan, "data.num_workers")  # not in the file: DataConfig's default, not the function's 2
    assert workers.value == 4


def test_a_loader_that_changes_what_it_loaded_stays_unknown(cli, tmp_path):
    files = dict(DALLE)
    files["proj/configs.py"] = files["proj/configs.py"].replace(
        "        return cls(**config)", "        config['data']['batch_size'] = 8\n                return cls(**config)")
    plan = _plan(cli, tmp_path, files)
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value not in (48, 64)


def test_a_method_that_is_no_classmethod_is_not_read(cli, tmp_path):
    files = dict(DALLE)
    files["proj/configs.py"] = files["proj/configs.py"].replace("    @classmethod\n", "    @staticmethod\n")
    plan = _plan(cli, tmp_path, files)
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value not in (48, 64)


_DIRECT = "            return DataLoader(list(range(100)), num_workers=num_workers, batch_size=batch_size, shuffle=shuffle_train)\n"
# DALLE2-pytorch train_decoder.py:71-86: the loader is built by a lambda of the function the section is spread into,
# through a project builder (dalle2_pytorch/dataloaders/decoder_loader.py:216-265 create_image_embedding_dataloader)
_LAMBDA = """\
            make = lambda urls, for_sampling=False: build_loader(urls, num_workers=num_workers,
                                                                batch_size=batch_size if not for_sampling else 6)
            return make(list(range(100)))


        def build_loader(urls, num_workers=0, batch_size=1):
            return DataLoader(urls, num_workers=num_workers, batch_size=batch_size, pin_memory=True)
"""


def test_a_lambda_the_function_calls_passes_what_it_closes_over(cli, tmp_path):
    files = dict(DALLE)
    files["train_decoder.py"] = files["train_decoder.py"].replace(_DIRECT, _LAMBDA)
    assert _LAMBDA in files["train_decoder.py"]
    plan = _plan(cli, tmp_path, files)
    assert fact(plan, "data.num_workers").value == 4
    micro = fact(plan, "batch.micro")  # decided by the lambda's own parameter at each call: not read
    assert micro is None or micro.value not in (48, 64)


def test_a_lambda_never_called_passes_nothing(cli, tmp_path):
    files = dict(DALLE)
    files["train_decoder.py"] = files["train_decoder.py"].replace(_DIRECT, _LAMBDA.replace(
        "return make(list(range(100)))", "return DataLoader(list(range(100)))"))
    plan = _plan(cli, tmp_path, files)
    workers = fact(plan, "data.num_workers")
    assert workers is None or workers.value != 4
