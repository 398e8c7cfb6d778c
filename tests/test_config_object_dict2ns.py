"""A YAML config found under a folder the code joins (``os.path.join("configs", args.config)``),
turned into a namespace by a project ``dict2namespace`` and returned from a helper to its caller
(adapters/config_object_files.py, config_object_dict2ns.py, config_object_returns.py). Fixtures of our
own copying the real shape, each with silent twins."""

from __future__ import annotations

import ast
import textwrap

from plan_helpers import plan_of, write

from tests.test_config_object import ours

# ermongroup/ddim @ e8df66cf02e457719930748b5c26e37e3126dfdd: main.py:17-22,93-96,197-218
# (parse_args_and_config: open(os.path.join("configs", args.config)); yaml.safe_load; new_config =
# dict2namespace(config); return args, new_config; main: args, config = parse_args_and_config();
# Diffusion(args, config).train()), runners/diffusion.py:62-64,99-113 (self.config; args, config =
# self.args, self.config; data.DataLoader(batch_size=config.training.batch_size,
# num_workers=config.data.num_workers); get_optimizer(self.config, ...)), configs/cifar10.yml.
DDIM = {
    "main.py": """\
        import argparse
        import os
        import yaml
        from runners.diffusion import Diffusion


        def parse_args_and_config():
            parser = argparse.ArgumentParser()
            parser.add_argument("--config", type=str, required=True, help="Path to the config file")
            args = parser.parse_args()
            with open(os.path.join("configs", args.config), "r") as f:
                config = yaml.safe_load(f)
            new_config = dict2namespace(config)
            return args, new_config


        def dict2namespace(config):
            namespace = argparse.Namespace()
            for key, value in config.items():
                if isinstance(value, dict):
                    new_value = dict2namespace(value)
                else:
                    new_value = value
                setattr(namespace, key, new_value)
            return namespace


        def main():
            args, config = parse_args_and_config()
            runner = Diffusion(args, config)
            runner.train()


        if __name__ == "__main__":
            main()
    """,
    "runners/__init__.py": "",
    "runners/diffusion.py": """\
        import torch
        from torch.utils import data


        class Diffusion(object):
            def __init__(self, args, config):
                self.args = args
                self.config = config

            def train(self):
                args, config = self.args, self.config
                train_loader = data.DataLoader(range(8), batch_size=config.training.batch_size, shuffle=True,
                                               num_workers=config.data.num_workers)
                model = torch.nn.Linear(2, 2)
                optimizer = torch.optim.Adam(model.parameters(), lr=config.optim.lr)
                for x in train_loader:
                    loss = model(x).sum()
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()
    """,
    "configs/cifar10.yml": """\
        data:
            dataset: "CIFAR10"
            num_workers: 4
        training:
            batch_size: 128
        optim:
            lr: 0.0002
    """,
    "configs/celeba.yml": """\
        data:
            dataset: "CELEBA"
            num_workers: 2
        training:
            batch_size: 64
        optim:
            lr: 0.0002
    """,
}


def test_ddim_config_joined_converted_and_returned(cli, tmp_path):
    write(tmp_path, DDIM)
    plan = plan_of(cli, "main.py", "--", "--config", "cifar10.yml", cwd=tmp_path)
    micro = ours(plan, "batch.micro")
    assert micro is not None and micro.value == 128
    assert (micro.source.path, micro.source.line) == ("configs/cifar10.yml", 5)
    assert ours(plan, "data.num_workers").value == 4
    plan = plan_of(cli, "main.py", "--", "--config", "celeba.yml", cwd=tmp_path)
    assert ours(plan, "batch.micro").value == 64
    assert ours(plan, "data.num_workers").value == 2


def test_one_line_converter_with_simple_namespace(cli, tmp_path):
    files = dict(DDIM)
    files["main.py"] = files["main.py"].replace("""\
            namespace = argparse.Namespace()
            for key, value in config.items():
                if isinstance(value, dict):
                    new_value = dict2namespace(value)
                else:
                    new_value = value
                setattr(namespace, key, new_value)
            return namespace""", """\
            ns = SimpleNamespace()
            for k, v in config.items():
                setattr(ns, k, dict2namespace(v) if isinstance(v, dict) else v)
            return ns""").replace("import yaml\n", "import yaml\n        from types import SimpleNamespace\n")
    assert "SimpleNamespace()" in files["main.py"]
    write(tmp_path, files)
    plan = plan_of(cli, "main.py", "--", "--config", "cifar10.yml", cwd=tmp_path)
    assert ours(plan, "batch.micro").value == 128


def test_converter_that_changes_keys_stays_unknown(cli, tmp_path):
    files = dict(DDIM)
    files["main.py"] = files["main.py"].replace(
        "setattr(namespace, key, new_value)", "setattr(namespace, key.lower() + '_', new_value)")
    write(tmp_path, files)
    plan = plan_of(cli, "main.py", "--", "--config", "cifar10.yml", cwd=tmp_path)
    assert ours(plan, "batch.micro") is None
    assert ours(plan, "data.num_workers") is None


def test_joined_path_with_unknown_part_stays_unknown(cli, tmp_path):
    files = dict(DDIM)
    files["main.py"] = files["main.py"].replace('os.path.join("configs", args.config)',
                                                'os.path.join(os.environ["CFG_DIR"], args.config)')
    write(tmp_path, files)
    plan = plan_of(cli, "main.py", "--", "--config", "cifar10.yml", cwd=tmp_path)
    assert ours(plan, "batch.micro") is None


def test_helper_returning_a_rebuilt_object_stays_unknown(cli, tmp_path):
    files = dict(DDIM)
    files["main.py"] = files["main.py"].replace(
        "            return args, new_config\n",
        "            if args.config:\n                return args, None\n            return args, new_config\n")
    write(tmp_path, files)
    plan = plan_of(cli, "main.py", "--", "--config", "cifar10.yml", cwd=tmp_path)
    assert ours(plan, "batch.micro") is None


def test_converter_shape_recognised_only_when_exact():
    from preflight.adapters.config_object_dict2ns import is_dict_to_namespace

    def fn(src: str) -> ast.FunctionDef:
        node = ast.parse(textwrap.dedent(src)).body[0]
        assert isinstance(node, ast.FunctionDef)
        return node

    assert is_dict_to_namespace(fn("""\
        def to_ns(d):
            out = argparse.Namespace()
            for k, v in d.items():
                setattr(out, k, v)
            return out
    """))
    # a default added, another parameter, or a value changed: not the same keys and values
    assert not is_dict_to_namespace(fn("""\
        def to_ns(d):
            out = argparse.Namespace()
            for k, v in d.items():
                setattr(out, k, v)
            out.batch_size = 8
            return out
    """))
    assert not is_dict_to_namespace(fn("""\
        def to_ns(d, extra):
            out = argparse.Namespace()
            for k, v in d.items():
                setattr(out, k, v)
            return out
    """))
    assert not is_dict_to_namespace(fn("""\
        def to_ns(d):
            out = argparse.Namespace()
            for k, v in d.items():
                setattr(out, k, v * 2)
            return out
    """))


# The wrapper applied to the load in one expression: ``config = dict2namespace(yaml.safe_load(f))``
# (the spelling of many ddim-derived projects, e.g. the DiffPure/SDEdit family) and
# ``cfg = EasyDict(yaml.safe_load(f))``.
def _one_expression(wrapper: str, imports: str = "") -> dict[str, str]:
    files = dict(DDIM)
    files["main.py"] = files["main.py"].replace(
        "                config = yaml.safe_load(f)\n            new_config = dict2namespace(config)\n",
        f"                new_config = {wrapper}(yaml.safe_load(f))\n").replace(
        "import yaml\n", "import yaml\n" + imports)
    assert f"{wrapper}(yaml.safe_load(f))" in files["main.py"]
    return files


def test_converter_applied_to_the_load_in_one_expression(cli, tmp_path):
    write(tmp_path, _one_expression("dict2namespace"))
    plan = plan_of(cli, "main.py", "--", "--config", "celeba.yml", cwd=tmp_path)
    micro = ours(plan, "batch.micro")
    assert micro is not None and micro.value == 64
    assert (micro.source.path, micro.source.line) == ("configs/celeba.yml", 5)


def test_easydict_applied_to_the_load_in_one_expression(cli, tmp_path):
    write(tmp_path, _one_expression("EasyDict", "        from easydict import EasyDict\n"))
    plan = plan_of(cli, "main.py", "--", "--config", "cifar10.yml", cwd=tmp_path)
    assert ours(plan, "batch.micro").value == 128
    assert ours(plan, "data.num_workers").value == 4


def test_unknown_function_applied_to_the_load_stays_unknown(cli, tmp_path):
    # ``normalize`` is no known wrapper (a project function that may rename or drop keys)
    files = _one_expression("normalize")
    files["main.py"] = files["main.py"].replace(
        "        def main():", "        def normalize(d):\n            return {k.upper(): v for k, v in d.items()}\n\n\n"
        "        def main():")
    write(tmp_path, files)
    plan = plan_of(cli, "main.py", "--", "--config", "cifar10.yml", cwd=tmp_path)
    assert ours(plan, "batch.micro") is None
    assert ours(plan, "data.num_workers") is None


def test_config_path_in_an_f_string(cli, tmp_path):
    files = dict(DDIM)
    files["main.py"] = files["main.py"].replace('os.path.join("configs", args.config)', 'f"configs/{args.config}"')
    write(tmp_path, files)
    plan = plan_of(cli, "main.py", "--", "--config", "celeba.yml", cwd=tmp_path)
    assert ours(plan, "batch.micro").value == 64
    # a formatted part that is not a plain value (``{args.config!r}``) leaves the path unknown
    files["main.py"] = files["main.py"].replace('f"configs/{args.config}"', 'f"configs/{args.config!r}"')
    write(tmp_path, files)
    plan = plan_of(cli, "main.py", "--", "--config", "celeba.yml", cwd=tmp_path)
    assert ours(plan, "batch.micro") is None
