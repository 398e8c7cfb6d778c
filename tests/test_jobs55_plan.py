"""The TrainingPlan of real jobs (issue 15, branch jobs55). Small projects of our own in the shapes of the
real-jobs benchmark, each citing the repository, path and commit it follows, with twins that must stay
as they were."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, write

# thuml/Time-Series-Library @ 4e938a1 run.py:21-22 (``--model_id`` "model id", ``--model`` "model name"),
# :206-208 (the run's name ``'{}_{}_...'.format(args.task_name, args.model_id, args.model, ...)``), :228
# (``args.model == 'MambaSingleLayer'``), exp/exp_long_term_forecasting.py:23 (``self.model_dict[self.args.model]``),
# utils/print_args.py:4 (an f-string); the launch line ``--model_id ETTh1_96_96 --model TimesNet``
TSLIB_RUN = """\
    import argparse

    import torch
    from exp.exp_forecast import Exp_Forecast

    p = argparse.ArgumentParser()
    p.add_argument("--model_id", type=str, required=True, default="test", help="model id")
    p.add_argument("--model", type=str, required=True, default="Autoformer", help="model name")
    p.add_argument("--batch_size", type=int, default=32)
    args = p.parse_args()
    print(f"Model ID: {args.model_id:<20} Model: {args.model:<20}")
    exp = Exp_Forecast(args)
    setting = "{}_{}_bs{}".format(args.model_id, args.model, args.batch_size)
    {special}
    exp.train(setting)
"""

TSLIB_EXP = """\
    import torch
    from models import TimesNet, DLinear


    class Exp_Forecast:
        def __init__(self, args):
            self.args = args
            self.model_dict = {"TimesNet": TimesNet, "DLinear": DLinear}
            self.model = self.model_dict[self.args.model].Model(self.args)

        def train(self, setting):
            name = self.args.model_id
            print(name, setting)
"""


def _tslib(cli, tmp_path: Path, *, special: str = "", model_id: str = "ETTh1_96_96") -> dict:
    write(tmp_path, {"run.py": TSLIB_RUN.replace("{special}", special), "exp/__init__.py": "",
                     "exp/exp_forecast.py": TSLIB_EXP, "models/__init__.py": ""})
    return plan_of(cli, "run.py", "--", "--model_id", model_id, "--model", "TimesNet", cwd=tmp_path)


def test_a_run_tag_named_model_id_is_not_the_model_the_option_that_chooses_it_is(cli, tmp_path: Path) -> None:
    plan = _tslib(cli, tmp_path)
    got = fact(plan, "model.ref")
    assert got is not None and got.value == "TimesNet"
    assert got.source.key == "--model"
    assert any("ETTh1_96_96 is only formatted into strings" in n for n in plan["notes"])


def test_twin_a_model_id_the_code_chooses_with_stays_the_model(cli, tmp_path: Path) -> None:
    # the tag is also compared with a name: it may choose something, so the order of the names stands
    plan = _tslib(cli, tmp_path, special='if args.model_id == "gpt2":\n        pass')
    assert fact(plan, "model.ref").value == "ETTh1_96_96"
    # a Hub id is a model whatever the code does with it
    plan = _tslib(cli, tmp_path, model_id="EleutherAI/pythia-70m")
    assert fact(plan, "model.ref").value == "EleutherAI/pythia-70m"
