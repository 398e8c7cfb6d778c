"""Issue 15, branch jobs62: shapes of set 31 (fixtures of our own that copy the real code's shape; each with a
twin that must stay unknown).

- an option rewritten inside a function that receives the parsed options (jeonsworld/ViT-pytorch @ 460a162
  ``train.py:147``: ``args.train_batch_size = args.train_batch_size // args.gradient_accumulation_steps`` in
  ``train(args, model)`` before ``get_loader(args)`` builds the loaders in ``utils/data_utils.py:51-60``);
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

# ViT-pytorch's shape: argparse in main(), train(args) rewrites the per-step batch, a helper module builds the
# training loader from the rewritten option (and, in the real code, a test loader from eval_batch_size)
_VIT_TRAIN = """\
    import argparse

    import torch
    from utils.data_utils import get_loader


    def train(args, model):
        {rewrite}
        train_loader = get_loader(args)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for step, batch in enumerate(train_loader):
            x, y = batch
            loss = model(x).sum()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--train_batch_size", default=512, type=int)
        parser.add_argument("--gradient_accumulation_steps", type=int, default=1)
        args = parser.parse_args()
        model = torch.nn.Linear(4, 4)
        train(args, model)


    if __name__ == "__main__":
        main()
"""
_VIT_DATA = """\
    from torch.utils.data import DataLoader, RandomSampler


    def get_loader(args):
        trainset = list(range(100))
        return DataLoader(trainset, sampler=RandomSampler(trainset), batch_size=args.train_batch_size,
                          num_workers=4, pin_memory=True)
"""


def _vit(cli, tmp_path, rewrite: str, *launch: str) -> dict:
    write(tmp_path, {"train.py": _VIT_TRAIN.replace("{rewrite}", rewrite), "utils/__init__.py": "",
                     "utils/data_utils.py": _VIT_DATA})
    return plan_of(cli, "train.py", "--", *launch, cwd=tmp_path)


_DIVIDE = "args.train_batch_size = args.train_batch_size // args.gradient_accumulation_steps"


def test_option_rewritten_in_a_function_given_the_options_is_the_quotient(cli, tmp_path):
    plan = _vit(cli, tmp_path, _DIVIDE, "--gradient_accumulation_steps", "4")
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == 128 and micro.confidence == "medium", micro
    assert micro.source.path == "train.py" and micro.source.line == 8, micro.source


def test_option_rewritten_from_the_launch_line_value(cli, tmp_path):
    plan = _vit(cli, tmp_path, _DIVIDE, "--train_batch_size", "96", "--gradient_accumulation_steps", "3")
    assert fact(plan, "batch.micro").value == 32


def test_twin_option_also_set_on_another_line_stays_unknown(cli, tmp_path):
    # a second store of the option elsewhere: which value the rewrite reads is not known
    plan = _vit(cli, tmp_path, _DIVIDE + "\n        if args.gradient_accumulation_steps > 2:\n"
                               "            args.train_batch_size = 7", "--gradient_accumulation_steps", "4")
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value not in (128, 512), micro


def test_twin_rewrite_by_true_division_stays_unknown(cli, tmp_path):
    plan = _vit(cli, tmp_path, "args.train_batch_size = args.train_batch_size / args.gradient_accumulation_steps",
                "--gradient_accumulation_steps", "4")
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 512, micro


def test_twin_rewrite_from_a_run_time_value_stays_unknown(cli, tmp_path):
    plan = _vit(cli, tmp_path, "args.train_batch_size = args.train_batch_size // torch.cuda.device_count()")
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 512, micro


# PyTorch-YOLOv3's shape (eriklindernoren/PyTorch-YOLOv3 @ 1d621c8 README.md:88 ``poetry run yolo-train ...``,
# pyproject.toml:38-41 ``[tool.poetry.scripts] yolo-train = "pytorchyolo.train:run"``): the console script's
# module is the job's script
_YOLO_TRAIN = """\
    import argparse

    import torch
    from torch.utils.data import DataLoader


    def run():
        parser = argparse.ArgumentParser()
        parser.add_argument("--batch", type=int, default=16)
        parser.add_argument("--n_cpu", type=int, default=8)
        args = parser.parse_args()
        model = torch.nn.Linear(4, 4)
        loader = DataLoader(list(range(64)), batch_size=args.batch, shuffle=True, num_workers=args.n_cpu,
                            pin_memory=True)
        optimizer = torch.optim.Adam(model.parameters())
        for x in loader:
            optimizer.zero_grad()
            model(x).sum().backward()
            optimizer.step()


    if __name__ == "__main__":
        run()
"""
_POETRY = """\
    [tool.poetry]
    name = "PyTorchYolo"
    version = "1.8.0"

    [tool.poetry.scripts]
    yolo-detect = "pytorchyolo.detect:run"
    yolo-train = "pytorchyolo.train:run"
"""


def _console(cli, tmp_path, packaging: dict[str, str], *launch: str) -> dict:
    write(tmp_path, {"pytorchyolo/__init__.py": "", "pytorchyolo/train.py": _YOLO_TRAIN, **packaging})
    return plan_of(cli, "--", *launch, cwd=tmp_path)


def _assert_yolo_job(plan: dict, batch: int) -> None:
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == batch, micro
    assert fact(plan, "data.num_workers").value == 8
    assert fact(plan, "optimizer.name").value == "Adam"
    world = fact(plan, "dist.world_size")
    assert world is not None and world.value == 1, world
    assert any(i["path"] == "pytorchyolo/train.py" for i in plan["inputs"]), plan["inputs"]
    assert any("console script declared in" in n and "pytorchyolo.train" in n for n in plan["notes"]), plan["notes"]


def test_poetry_run_console_script_audits_its_module(cli, tmp_path):
    plan = _console(cli, tmp_path, {"pyproject.toml": _POETRY}, "poetry", "run", "yolo-train", "--batch", "4")
    _assert_yolo_job(plan, 4)


def test_console_script_on_the_path_from_project_scripts(cli, tmp_path):
    # PEP 621 ``[project.scripts]``; the name typed bare (installed with ``pip install -e .``)
    packaging = {"pyproject.toml": '[project]\nname = "yolo"\n[project.scripts]\nyolo-train = "pytorchyolo.train:run"\n'}
    plan = _console(cli, tmp_path, packaging, "CUDA_VISIBLE_DEVICES=0", "yolo-train", "--batch", "2")
    _assert_yolo_job(plan, 2)


def test_console_script_from_setup_py_entry_points(cli, tmp_path):
    # SolipsisAI/research setup.py: ``entry_points={"console_scripts": ["trainer=src.run:main", ...]}``
    setup = ('from setuptools import setup\nsetup(name="y", entry_points={"console_scripts": '
             '["yolo-train=pytorchyolo.train:run", "chat-test=pytorchyolo.chat:main"]})\n')
    plan = _console(cli, tmp_path, {"setup.py": setup}, "yolo-train")
    _assert_yolo_job(plan, 16)


def test_console_script_from_setup_cfg(cli, tmp_path):
    cfg = "[metadata]\nname = y\n\n[options.entry_points]\nconsole_scripts =\n    yolo-train = pytorchyolo.train:run\n"
    plan = _console(cli, tmp_path, {"setup.cfg": cfg}, "uv", "run", "yolo-train", "--batch", "8")
    _assert_yolo_job(plan, 8)


def test_runner_prefix_before_python(cli, tmp_path):
    write(tmp_path, {"train.py": _YOLO_TRAIN})
    plan = plan_of(cli, "--", "poetry", "run", "python", "train.py", "--batch", "6", cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 6
    assert fact(plan, "dist.world_size").value == 1


def test_runner_prefix_in_a_launch_script(cli, tmp_path):
    write(tmp_path, {"train.py": _YOLO_TRAIN, "run.sh": "#!/bin/bash\nuv run python train.py --batch 12\n"})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 12


def test_twin_undeclared_name_is_not_a_job(cli, tmp_path):
    # the name is declared nowhere in the project: nothing is audited as its script
    plan = _console(cli, tmp_path, {"pyproject.toml": _POETRY}, "poetry", "run", "yolo-test", "--batch", "4")
    assert not any(i["path"].endswith(".py") for i in plan["inputs"]), plan["inputs"]
    assert fact(plan, "batch.micro") is None


def test_twin_runner_with_its_own_options_is_left_alone(cli, tmp_path):
    # ``uv run --with X NAME``: the runner's options are not read, so the line is not rewritten
    plan = _console(cli, tmp_path, {"pyproject.toml": _POETRY}, "uv", "run", "--with", "rich", "yolo-train")
    assert not any(i["path"].endswith(".py") for i in plan["inputs"]), plan["inputs"]


def test_twin_console_script_whose_module_is_missing(cli, tmp_path):
    packaging = {"pyproject.toml": '[project]\nname = "y"\n[project.scripts]\nyolo-train = "elsewhere.train:run"\n'}
    plan = _console(cli, tmp_path, packaging, "yolo-train", "--batch", "4")
    assert fact(plan, "batch.micro") is None
