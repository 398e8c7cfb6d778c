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


# thuml/Time-Series-Library @ 4e938a1 run.py:180-200 (one experiment module imported per --task_name arm) and
# exp/exp_long_term_forecasting.py:33-34 ``optim.Adam`` beside exp/exp_classification.py:40 ``optim.RAdam``
ARMS_RUN = """\
    import argparse

    import torch

    p = argparse.ArgumentParser()
    p.add_argument("--task_name", type=str, {task})
    args = p.parse_args()

    if __name__ == "__main__":
        if args.task_name == "forecast":
            from exp.exp_forecast import Exp_Forecast
            Exp = Exp_Forecast
        elif args.task_name == "classification":
            from exp.exp_classification import Exp_Classification
            Exp = Exp_Classification
        exp = Exp(args)
        exp.train()
"""

ARMS_EXP = """\
    import torch
    from torch import optim


    class {cls}:
        def __init__(self, args):
            self.args = args
            self.model = torch.nn.Linear(4, 4)

        def _select_optimizer(self):
            return optim.{opt}(self.model.parameters(), lr=1e-3)

        def train(self):
            opt = self._select_optimizer()
            for x in range(3):
                loss = self.model(torch.ones(4)).sum()
                opt.zero_grad()
                loss.backward()
                opt.step()
"""


def _arms(cli, tmp_path: Path, task: str, *line: str) -> dict:
    write(tmp_path, {"run.py": ARMS_RUN.replace("{task}", task), "exp/__init__.py": "",
                     "exp/exp_forecast.py": ARMS_EXP.replace("{cls}", "Exp_Forecast").replace("{opt}", "Adam"),
                     "exp/exp_classification.py": ARMS_EXP.replace("{cls}", "Exp_Classification")
                     .replace("{opt}", "RAdam")})
    return plan_of(cli, "run.py", "--", *line, cwd=tmp_path)


def test_the_optimizer_of_the_module_the_launch_lines_arm_imports(cli, tmp_path: Path) -> None:
    plan = _arms(cli, tmp_path, "required=True", "--task_name", "forecast")
    got = fact(plan, "optimizer.name")
    assert got is not None and got.value == "Adam" and got.source.path == "exp/exp_forecast.py"
    # the other arm, from the option's default
    plan = _arms(cli, tmp_path, 'default="classification"')
    assert fact(plan, "optimizer.name").value == "RAdam"


def test_twin_an_arm_the_line_does_not_decide_leaves_the_optimizer_unknown(cli, tmp_path: Path) -> None:
    # no value and no default: both modules may be imported, two optimizer classes, none is named
    plan = _arms(cli, tmp_path, "required=False")
    assert fact(plan, "optimizer.name") is None


# sfujim/TD3 main.py:45,137 (``--batch_size`` default 256; ``policy.train(replay_buffer, args.batch_size)`` in the
# loop), TD3.py:104-131 (``replay_buffer.sample(batch_size)``; the critic's zero_grad/backward/step on every call),
# utils.py:31-32 (``np.random.randint(0, self.size, size=batch_size)``)
TD3_MAIN = """\
    import argparse

    import numpy as np
    import torch
    import agent
    import utils

    p = argparse.ArgumentParser()
    p.add_argument("--batch_size", default=256, type=int)
    args = p.parse_args()
    policy = agent.Agent()
    replay_buffer = utils.ReplayBuffer()
    for t in range(1000):
        replay_buffer.add(np.zeros(3))
        if t > 10:
            policy.train(replay_buffer, args.batch_size)
"""

TD3_AGENT = """\
    import torch


    class Agent:
        def __init__(self):
            self.critic = torch.nn.Linear(3, 1)
            self.critic_optimizer = torch.optim.Adam(self.critic.parameters(), lr=3e-4)

        def train(self, replay_buffer, batch_size=64):
            state = replay_buffer.sample(batch_size)
            loss = self.critic(state).pow(2).mean()
            self.critic_optimizer.zero_grad()
            loss.backward()
            self.critic_optimizer.step()
"""

TD3_UTILS = """\
    import numpy as np
    import torch


    class ReplayBuffer:
        def __init__(self, max_size=1000):
            self.storage = np.zeros((max_size, 3))
            self.size = 0

        def add(self, x):
            self.storage[self.size] = x
            self.size += 1

        def sample(self, batch_size):
            {draw}
            return torch.FloatTensor(self.storage[ind])
"""


def _td3(cli, tmp_path: Path, draw: str = "ind = np.random.randint(0, self.size, size=batch_size)",
         extra: str = "") -> dict:
    write(tmp_path, {"main.py": TD3_MAIN + extra, "agent.py": TD3_AGENT,
                     "utils.py": TD3_UTILS.replace("{draw}", draw)})
    return plan_of(cli, "main.py", "--", "--batch_size", "100", cwd=tmp_path)


def test_a_batch_size_handed_to_the_projects_replay_buffer_draw(cli, tmp_path: Path) -> None:
    plan = _td3(cli, tmp_path)
    got = fact(plan, "batch.micro")
    assert got is not None and got.value == 100 and got.adapter == "handed_batch"
    assert got.source.path == "main.py" and got.source.line == 16
    assert fact(plan, "batch.grad_accum").value == 1
    assert fact(plan, "batch.global").value == 100
    # a slice of that size is a draw too
    plan = _td3(cli, tmp_path, draw="i = np.random.randint(0, self.size); ind = np.arange(self.size)[i:i + batch_size]")
    assert fact(plan, "batch.micro").value == 100


def test_twin_a_size_that_draws_nothing_or_a_dataloader_leaves_the_batch_unknown(cli, tmp_path: Path) -> None:
    # the argument only bounds a range: not the number of samples a step takes
    plan = _td3(cli, tmp_path, draw="ind = [i for i in range(min(batch_size, self.size))][:1]")
    assert fact(plan, "batch.micro") is None
    # the job also builds a DataLoader: the batch may be that loader's
    plan = _td3(cli, tmp_path, extra="    loader = torch.utils.data.DataLoader([1, 2], batch_size=8)\n")
    assert fact(plan, "batch.micro") is None or fact(plan, "batch.micro").adapter != "handed_batch"


def test_twin_a_size_that_cuts_the_forward_into_pieces_is_not_the_batch(cli, tmp_path: Path) -> None:
    # nerf-pytorch run_nerf.py's batchify_rays shape: `for i in range(0, N, chunk): render(x[i:i + chunk])` with no
    # backward inside the loop runs one input through in pieces (a memory bound), it draws no batch
    draw = ("parts = [self.storage[i:i + batch_size] for i in range(0, self.size, batch_size)]\n"
            "            ind = list(range(self.size))")
    plan = _td3(cli, tmp_path, draw=draw)
    got = fact(plan, "batch.micro")
    assert got is None or got.adapter != "handed_batch"
    loop = ("parts = []\n"
            "            for i in range(0, self.size, batch_size):\n"
            "                parts.append(self.storage[i:i + batch_size])\n"
            "            ind = list(range(self.size))")
    plan = _td3(cli, tmp_path, draw=loop)
    got = fact(plan, "batch.micro")
    assert got is None or got.adapter != "handed_batch"
