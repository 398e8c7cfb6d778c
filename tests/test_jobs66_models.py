"""jobs66: a model sized by a configuration file the script loads itself, handed to the model whole.

Shapes from real jobs (fixtures of our own that reproduce them):

- mindslab-ai/nuwave @ 88aba86: ``trainer.py:4`` ``from omegaconf import OmegaConf as OC``, ``:62`` ``hparams =
  OC.load('hparameter.yaml')`` inside ``train()``, ``:64`` ``hparams.name = ...``, ``:67`` ``model = NuWave(hparams)``
  with ``NuWave`` a ``pl.LightningModule`` of ``lightning_model.py`` (``:24-28``) that builds ``self.model =
  model(hparams)`` after ``from model import NuWave as model`` (``:13``: the network class has the same name);
  ``model.py:12`` ``Linear = nn.Linear`` and the network's sizes ``hparams.arch.*`` (``:75-93``).
- jaywalnut310/glow-tts @ 13e9976 ``train.py:16,19,66-69``: ``import models`` then ``models.FlowGenerator(n_vocab=
  len(symbols) + getattr(hps.data, "add_blank", False), out_channels=hps.data.n_mel_channels, **hps.model)``, ``hps``
  the attribute dict of the JSON file ``utils.get_hparams()`` loads (``utils.py``).
"""

from __future__ import annotations

import json
import textwrap

from preflight.audit import build_plan

TRAINER = '''
    import argparse

    from lightning_model import NuWave
    from omegaconf import OmegaConf as OC
    from pytorch_lightning import Trainer


    def train(args):
        hparams = OC.load('hparameter.yaml')
        hparams.name = f"{hparams.log.name}_run"
        model = NuWave(hparams)
        trainer = Trainer(gpus=hparams.train.gpus, max_epochs=10)
        trainer.fit(model)


    if __name__ == '__main__':
        parser = argparse.ArgumentParser()
        parser.add_argument('-r', '--resume_from', type=int, required=False)
        args = parser.parse_args()
        train(args)
'''

LIGHTNING_MODEL = '''
    import torch
    import torch.nn as nn
    import pytorch_lightning as pl

    from model import NuWave as model


    class NuWave(pl.LightningModule):
        def __init__(self, hparams, train=True):
            super().__init__()
            self.save_hyperparameters(hparams)
            self.model = model(hparams)
            self.norm = nn.L1Loss()

        def training_step(self, batch, batch_idx):
            wav, wav_l = batch
            return self.norm(self.model(wav, wav_l), wav)

        def configure_optimizers(self):
            return torch.optim.Adam(self.model.parameters(), lr=self.hparams.train.lr)
'''

MODEL = '''
    import torch
    import torch.nn as nn

    Linear = nn.Linear


    def Conv1d(*args, **kwargs):
        layer = nn.Conv1d(*args, **kwargs)
        nn.init.kaiming_normal_(layer.weight)
        return layer


    class Block(nn.Module):
        def __init__(self, channels, emb):
            super().__init__()
            self.conv = Conv1d(channels, 2 * channels, 3, padding=1)
            self.proj = Linear(emb, channels)


    class NuWave(nn.Module):
        def __init__(self, hparams):
            super().__init__()
            self.input_projection = Conv1d(1, hparams.arch.residual_channels, 1)
            self.embedding = Linear(hparams.ddpm.pos_emb_channels, hparams.arch.pos_emb_dim)
            self.blocks = nn.ModuleList([
                Block(hparams.arch.residual_channels, hparams.arch.pos_emb_dim)
                for i in range(hparams.arch.residual_layers)
            ])
'''

HPARAMS = '''
train:
  batch_size: 18
  lr: 0.00003
  gpus: 2

arch:
  residual_layers: 30
  residual_channels: 64
  pos_emb_dim: 512

ddpm:
  pos_emb_channels: 128

log:
  name: 'nuwave_x2'
'''


def _nuwave(layers=30, channels=64, emb=512, pos=128) -> int:
    conv_in = 1 * channels * 1 + channels
    embedding = pos * emb + emb
    block = (channels * 2 * channels * 3 + 2 * channels) + (emb * channels + channels)
    return conv_in + embedding + layers * block


def _plan_nuwave(tmp_path, trainer=TRAINER, lightning=LIGHTNING_MODEL, model=MODEL, hparams=HPARAMS):
    for name, text in (("trainer.py", trainer), ("lightning_model.py", lightning), ("model.py", model)):
        (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")
    (tmp_path / "hparameter.yaml").write_text(hparams, encoding="utf-8")
    plan, _ = build_plan([tmp_path / "trainer.py"], [], root=tmp_path, argv=[])
    return plan


def test_the_fixture_count_by_hand():
    # 64 + 64 (input conv) + 128*512 + 512 (embedding) + 30 x (64*128*3 + 128 + 512*64 + 64)
    assert _nuwave() == 128 + 66_048 + 30 * (24_704 + 32_832)


def test_a_yaml_loaded_by_an_aliased_omegaconf_sizes_the_network_inside_a_lightning_module(tmp_path):
    plan = _plan_nuwave(tmp_path)
    fact = plan.resolve("model.num_parameters")
    assert fact is not None and fact.value == _nuwave()
    assert fact.source.path.endswith("trainer.py") and fact.source.line == 12  # model = NuWave(hparams)
    assert fact.confidence == "medium"
    assert plan.value("model.class_name") == "NuWave"


def test_the_file_s_sizes_decide_the_count(tmp_path):
    plan = _plan_nuwave(tmp_path, hparams=HPARAMS.replace("residual_layers: 30", "residual_layers: 12"))
    assert plan.value("model.num_parameters") == _nuwave(layers=12)


def test_an_alias_bound_to_another_loader_stays_unknown(tmp_path):
    other = TRAINER.replace("from omegaconf import OmegaConf as OC", "from mylib.config import Loader as OC")
    assert other != TRAINER
    assert _plan_nuwave(tmp_path, trainer=other).resolve("model.num_parameters") is None


def test_a_size_the_script_changes_after_loading_stays_unknown(tmp_path):
    changed = TRAINER.replace("        hparams.name = ", "        hparams.arch.residual_layers = args.resume_from\n"
                                                         "        hparams.name = ")
    assert changed != TRAINER
    assert _plan_nuwave(tmp_path, trainer=changed).resolve("model.num_parameters") is None


def test_a_layer_alias_bound_twice_stays_unknown(tmp_path):
    twice = MODEL.replace("Linear = nn.Linear\n", "Linear = nn.Linear\nLinear = nn.Bilinear\n")
    assert twice != MODEL
    assert _plan_nuwave(tmp_path, model=twice).resolve("model.num_parameters") is None


def test_a_layer_alias_of_something_not_a_torch_layer_stays_unknown(tmp_path):
    other = MODEL.replace("Linear = nn.Linear", "Linear = mylayers.Linear").replace(
        "import torch.nn as nn\n", "import torch.nn as nn\nimport mylayers\n")
    assert other != MODEL
    assert _plan_nuwave(tmp_path, model=other).resolve("model.num_parameters") is None


def test_a_lightning_module_holding_a_part_it_cannot_follow_stays_unknown(tmp_path):
    hub = LIGHTNING_MODEL.replace("            self.norm = nn.L1Loss()\n",
                                  "            self.norm = nn.L1Loss()\n"
                                  "            self.critic = torch.hub.load('org/repo', 'critic')\n")
    assert hub != LIGHTNING_MODEL
    assert _plan_nuwave(tmp_path, lightning=hub).resolve("model.num_parameters") is None


def test_the_shadowed_import_is_not_taken_where_the_alias_is_not_imported(tmp_path):
    # the LightningModule builds ``model(hparams)`` but imports no ``model``: a name the counter cannot follow
    unbound = LIGHTNING_MODEL.replace("from model import NuWave as model\n", "from model import Block\n")
    assert unbound != LIGHTNING_MODEL
    assert _plan_nuwave(tmp_path, lightning=unbound).resolve("model.num_parameters") is None


GLOW_TRAIN = '''
    import torch
    from torch.utils.data import DataLoader

    import models
    import utils
    from text.symbols import symbols


    def main():
        hps = utils.get_hparams()
        generator = models.FlowGenerator(
            n_vocab=len(symbols) + getattr(hps.data, "add_blank", False),
            out_channels=hps.data.n_mel_channels,
            **hps.model).cuda(0)
        optimizer = torch.optim.Adam(generator.parameters(), lr=hps.train.learning_rate)
        for x, y in DataLoader(list(range(8)), batch_size=hps.train.batch_size):
            loss = generator(x).mean()
            loss.backward()
            optimizer.step()


    if __name__ == "__main__":
        main()
'''

GLOW_UTILS = '''
    import argparse
    import json


    def get_hparams(init=True):
        parser = argparse.ArgumentParser()
        parser.add_argument('-c', '--config', type=str, default="./configs/base.json")
        parser.add_argument('-m', '--model', type=str, required=True)
        args = parser.parse_args()
        config_path = args.config
        with open(config_path, "r") as f:
            data = f.read()
        config = json.loads(data)
        hparams = HParams(**config)
        hparams.model_dir = args.model
        return hparams


    class HParams():
        def __init__(self, **kwargs):
            for k, v in kwargs.items():
                if type(v) == dict:
                    v = HParams(**v)
                self[k] = v

        def __setitem__(self, key, value):
            return setattr(self, key, value)

        def __getitem__(self, key):
            return getattr(self, key)
'''

GLOW_MODELS = '''
    import torch
    from torch import nn


    class FlowGenerator(nn.Module):
        def __init__(self, n_vocab, hidden_channels, out_channels, n_layers):
            super().__init__()
            self.emb = nn.Embedding(n_vocab, hidden_channels)
            self.layers = nn.ModuleList([nn.Conv1d(hidden_channels, hidden_channels, 3) for _ in range(n_layers)])
            self.proj = nn.Conv1d(hidden_channels, out_channels, 1)
'''

GLOW_SYMBOLS = '''
    _pad = '_'
    _letters = 'ABCDEFGHIJ'
    symbols = [_pad] + list(_letters)
'''


def _glow(vocab=11, hidden=32, out=80, layers=3) -> int:
    return vocab * hidden + layers * (hidden * hidden * 3 + hidden) + hidden * out + out


def _plan_glow(tmp_path, config=None, train=GLOW_TRAIN, models=GLOW_MODELS):
    cfg = config or {"train": {"batch_size": 32, "learning_rate": 1.0},
                     "data": {"n_mel_channels": 80},
                     "model": {"hidden_channels": 32, "n_layers": 3}}
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "base.json").write_text(json.dumps(cfg, indent=2), encoding="utf-8")
    (tmp_path / "text").mkdir()
    (tmp_path / "text" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "text" / "symbols.py").write_text(textwrap.dedent(GLOW_SYMBOLS), encoding="utf-8")
    for name, text in (("train.py", train), ("utils.py", GLOW_UTILS), ("models.py", models)):
        (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path,
                         argv=["-c", "configs/base.json", "-m", "base"])
    return plan


def test_a_class_of_an_imported_module_with_a_getattr_default_and_a_symbol_table(tmp_path):
    plan = _plan_glow(tmp_path)
    fact = plan.resolve("model.num_parameters")
    # n_vocab: 11 symbols + getattr(hps.data, "add_blank", False), the key absent from the file: + 0
    assert fact is not None and fact.value == _glow(vocab=11)
    assert fact.source.path.endswith("train.py") and fact.source.line == 12  # models.FlowGenerator(
    assert fact.confidence == "medium"


def test_the_file_s_key_wins_over_the_getattr_default(tmp_path):
    cfg = {"train": {"batch_size": 32, "learning_rate": 1.0}, "data": {"n_mel_channels": 80, "add_blank": True},
           "model": {"hidden_channels": 32, "n_layers": 3}}
    assert _plan_glow(tmp_path, config=cfg).value("model.num_parameters") == _glow(vocab=12)


def test_a_getattr_default_for_a_key_the_code_sets_stays_unknown(tmp_path):
    sets = GLOW_TRAIN.replace("        hps = utils.get_hparams()\n",
                              "        hps = utils.get_hparams()\n        hps.data.add_blank = torch.cuda.is_available()\n")
    assert sets != GLOW_TRAIN
    assert _plan_glow(tmp_path, train=sets).resolve("model.num_parameters") is None


def test_a_module_name_rebound_in_the_script_stays_unknown(tmp_path):
    rebound = GLOW_TRAIN.replace("        hps = utils.get_hparams()\n",
                                 "        hps = utils.get_hparams()\n        models = load_plugin()\n")
    assert rebound != GLOW_TRAIN
    assert _plan_glow(tmp_path, train=rebound).resolve("model.num_parameters") is None


def test_a_class_the_imported_module_does_not_define_stays_unknown(tmp_path):
    other = GLOW_MODELS.replace("class FlowGenerator(", "class Generator(")
    assert other != GLOW_MODELS
    assert _plan_glow(tmp_path, models=other).resolve("model.num_parameters") is None
