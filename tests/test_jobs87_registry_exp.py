"""The model in real jobs (issue 15, branch jobs87): a project model picked by name from a table of model
modules inside an experiment class (adapters/model_registry_exp.py). Small projects of our own in the
shape of thuml/iTransformer @ c2426e6 (``experiments/exp_basic.py:3-21`` ``self.model_dict = {...}`` in
``Exp_Basic.__init__``; ``experiments/exp_long_term_forecasting.py:20-21`` ``model =
self.model_dict[self.args.model].Model(self.args).float()``) and yuqinie98/PatchTST @ 204c21e (the table
local to ``_build_model``), with twins that must state nothing: a name not in the table, a name not
known, an experiment class that writes a size taken from the data into the options.
"""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, write

RUN = """\
    import argparse

    import torch

    from experiments.exp_forecast import Exp_Forecast

    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=str, {model_default})
    parser.add_argument("--enc_in", type=int, default=7)
    parser.add_argument("--d_model", type=int, default=32)
    parser.add_argument("--e_layers", type=int, default=2)
    parser.add_argument("--batch_size", type=int, default=16)
    args = parser.parse_args()

    exp = Exp_Forecast(args)
    exp.train()
"""

BASIC = """\
    import torch
    from models import Linear, Mixer


    class Exp_Basic(object):
        def __init__(self, args):
            self.args = args
            self.model_dict = {
                'Linear': Linear,
                'Mixer': Mixer,
            }
            self.model = self._build_model()

        def _build_model(self):
            raise NotImplementedError
"""

FORECAST = """\
    import torch
    import torch.nn as nn
    from torch.utils.data import DataLoader

    from experiments.exp_basic import Exp_Basic
    from models import Linear, Mixer


    class Exp_Forecast(Exp_Basic):
        def __init__(self, args):
            super(Exp_Forecast, self).__init__(args)

        def _build_model(self):
            {before}model = {table}[self.args.model].Model(self.args).float()
            return model

        def train(self):
            loader = DataLoader(list(range(100)), batch_size=self.args.batch_size)
            opt = torch.optim.Adam(self.model.parameters(), lr=1e-3)
            for x in loader:
                opt.zero_grad()
                loss = self.model(x).sum()
                loss.backward()
                opt.step()
"""

LINEAR = """\
    import torch.nn as nn


    class Model(nn.Module):
        def __init__(self, configs):
            super().__init__()
            self.proj = nn.Linear(configs.enc_in, configs.d_model)
"""

MIXER = """\
    import torch.nn as nn


    class Model(nn.Module):
        def __init__(self, configs):
            super().__init__()
            self.embed = nn.Linear(configs.enc_in, configs.d_model)
            self.blocks = nn.ModuleList([nn.Linear(configs.d_model, configs.d_model)
                                         for _ in range(configs.e_layers)])
"""

LOCAL = "model_dict = {'Linear': Linear, 'Mixer': Mixer}\n            "


def _plan(cli, tmp_path: Path, *line: str, model_default: str = "default='Linear'", before: str = "",
          table: str = "self.model_dict") -> dict:
    write(tmp_path, {"run.py": RUN.replace("{model_default}", model_default),
                     "experiments/__init__.py": "", "experiments/exp_basic.py": BASIC,
                     "experiments/exp_forecast.py": FORECAST.replace("{before}", before).replace("{table}", table),
                     "models/__init__.py": "", "models/Linear.py": LINEAR, "models/Mixer.py": MIXER})
    return plan_of(cli, "run.py", "--", *line, cwd=tmp_path)


def test_the_model_named_on_the_line_is_counted_from_its_module(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, "--model", "Mixer", "--d_model", "64", "--e_layers", "3")
    got = fact(plan, "model.num_parameters")
    assert got is not None and got.value == (7 * 64 + 64) + 3 * (64 * 64 + 64) and got.confidence == "medium"
    assert "Mixer" in got.source.detail and "exp_basic.py" in got.source.detail
    assert fact(plan, "model.ref").value == "Mixer"


def test_the_other_name_picks_the_other_module(cli, tmp_path: Path) -> None:
    # the declared default 'Linear': one projection, not the Mixer's blocks
    got = fact(_plan(cli, tmp_path), "model.num_parameters")
    assert got is not None and got.value == 7 * 32 + 32


def test_a_table_local_to_the_building_method_is_read(cli, tmp_path: Path) -> None:
    got = fact(_plan(cli, tmp_path, "--model", "Mixer", before=LOCAL, table="model_dict"), "model.num_parameters")
    assert got is not None and got.value == (7 * 32 + 32) + 2 * (32 * 32 + 32)


def test_a_name_not_in_the_table_states_nothing(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, "--model", "Autoformer")
    assert fact(plan, "model.num_parameters") is None


def test_a_name_not_known_states_nothing(cli, tmp_path: Path) -> None:
    # no default and not on the line: the experiment class cannot be followed
    assert fact(_plan(cli, tmp_path, model_default="required=True"), "model.num_parameters") is None


def test_options_written_from_the_data_state_nothing(cli, tmp_path: Path) -> None:
    # a classification experiment sets the input width from the data before building: the line's
    # --enc_in is not the size the model gets
    before = "self.args.enc_in = len(self.train_data.columns)\n            "
    assert fact(_plan(cli, tmp_path, "--model", "Mixer", before=before), "model.num_parameters") is None
