"""The model in real jobs (issue 15, branch jobs42): a project model class handed a whole section of the
job's configuration, counted (adapters/config_object_whole.py). Small projects of our own in the shapes of
the real-jobs benchmark, each citing the repository it follows, with twins that must state nothing:

- huggingface/open-muse @ the benchmark's commit ``training/train_maskgit_imagenet.py:222``
  ``model = MaskGitTransformer(**config.model.transformer)`` (the sizes in ``configs/imagenet.yaml``);
- bytedance/1d-tokenizer ``utils/train_utils.py:101-130`` ``create_model_and_loss_module(config, ...,
  model_type="rar")``: ``if model_type == "rar": model_cls = RAR`` ... ``model = model_cls(config)``, the
  class reading ``config.model.generator.hidden_size`` (``modeling/rar.py:186-200``).
"""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, write

SCRIPT = """\
    import argparse

    import torch
    import yaml

    from nets import {imports}

    p = argparse.ArgumentParser()
    p.add_argument("--config", default="conf.yaml")
    args = p.parse_args()
    with open(args.config) as f:
        cfg = yaml.safe_load(f)
    {build}
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
"""

CONF = """\
    model:
      vocab: 100
      width: 64
      depth: 3
    train:
      batch_size: 8
"""

NETS = """\
    import torch
    import torch.nn as nn


    class Net(nn.Module):
        def __init__(self, vocab, width=32, depth=2, **kwargs):
            super().__init__()
            self.emb = nn.Embedding(vocab, width)
            self.blocks = nn.ModuleList([nn.Linear(width, width) for _ in range(depth)])
            self.head = nn.Linear(width, vocab, bias=False)


    class CfgNet(nn.Module):
        def __init__(self, cfg):
            super().__init__()
            width = cfg["width"]
            self.emb = nn.Embedding(cfg["vocab"], width)
            self.blocks = nn.ModuleList([nn.Linear(width, width) for _ in range(cfg.get("depth", 2))])
            self.head = nn.Linear(width, cfg["vocab"], bias=False)


    class WholeNet(nn.Module):
        def __init__(self, config):
            super().__init__()
            width = config["model"]["width"]
            self.emb = nn.Embedding(config["model"]["vocab"], width)
            self.blocks = nn.ModuleList([nn.Linear(width, width) for _ in range(config["model"]["depth"])])
            self.head = nn.Linear(width, config["model"]["vocab"], bias=False)


    class HeadsNet(nn.Module):
        def __init__(self, cfg):
            super().__init__()
            self.attn = nn.MultiheadAttention(cfg["width"], cfg["heads"])


    class Critic(nn.Module):
        def __init__(self, cfg):
            super().__init__()
            self.fc = nn.Linear(cfg["width"], 1)


    class Outer(nn.Module):
        def __init__(self, cfg):
            super().__init__()
            self.inner = CfgNet(cfg)
            self.out = nn.Linear(cfg["width"], 2)
"""

# 100 x 64 embedding + 3 x (64 x 64 + 64) blocks + 64 x 100 head without bias
EXPECTED = 100 * 64 + 3 * (64 * 64 + 64) + 64 * 100


def _count(cli, tmp_path: Path, build: str, imports: str = "Net", nets: str = NETS,
           extra: dict | None = None):
    files = {"train.py": SCRIPT.replace("{imports}", imports).replace("{build}", build),
             "conf.yaml": CONF, "nets.py": nets, **(extra or {})}
    write(tmp_path, files)
    return fact(plan_of(cli, "train.py", cwd=tmp_path), "model.num_parameters")


def test_a_section_spread_into_the_model_class_is_counted(cli, tmp_path: Path) -> None:
    got = _count(cli, tmp_path, 'model = Net(**cfg["model"])')
    assert got is not None and got.value == EXPECTED
    assert got.confidence == "medium" and "Net(...)" in got.source.detail and "model" in got.source.detail


def test_a_section_handed_whole_is_read_by_the_class(cli, tmp_path: Path) -> None:
    got = _count(cli, tmp_path, 'model = CfgNet(cfg["model"])', imports="CfgNet")
    assert got is not None and got.value == EXPECTED


def test_the_whole_configuration_handed_to_the_class(cli, tmp_path: Path) -> None:
    got = _count(cli, tmp_path, "model = WholeNet(cfg)", imports="WholeNet")
    assert got is not None and got.value == EXPECTED


def test_a_part_built_inside_the_model_does_not_compete_with_it(cli, tmp_path: Path) -> None:
    # Outer builds CfgNet(cfg) in its __init__: a part, not a second model
    got = _count(cli, tmp_path, 'model = Outer(cfg["model"])', imports="Outer")
    assert got is not None and got.value == EXPECTED + 64 * 2 + 2


def test_a_size_the_section_lacks_states_nothing(cli, tmp_path: Path) -> None:
    # HeadsNet reads cfg["heads"]: not in conf.yaml
    assert _count(cli, tmp_path, 'model = HeadsNet(cfg["model"])', imports="HeadsNet") is None


def test_two_models_of_different_sizes_from_the_configuration_state_nothing(cli, tmp_path: Path) -> None:
    # a generator and a critic, both built from the section: which one is "the model" is not decided here
    got = _count(cli, tmp_path, 'model = CfgNet(cfg["model"])\n    critic = Critic(cfg["model"])',
                 imports="CfgNet, Critic")
    assert got is None


def test_a_plain_value_of_the_configuration_is_not_a_section(cli, tmp_path: Path) -> None:
    # ``Net(cfg["model"]["vocab"])``: a number handed positionally, no section: nothing read as one
    assert _count(cli, tmp_path, 'model = Net(cfg["model"]["vocab"])') is None


FACTORY = """\
    from nets import CfgNet, Critic


    def create_model(config, logger=None, model_type="critic"):
        if model_type == "critic":
            model_cls = Critic
        elif model_type == "net":
            model_cls = CfgNet
        else:
            raise ValueError(model_type)
        model = model_cls(config["model"])
        return model
"""


def test_a_factory_picked_by_a_literal_is_counted(cli, tmp_path: Path) -> None:
    write(tmp_path, {"factory.py": FACTORY})
    script = SCRIPT.replace("from nets import {imports}", "from factory import create_model").replace(
        "{build}", 'model = create_model(cfg, model_type="net")')
    write(tmp_path, {"train.py": script, "conf.yaml": CONF, "nets.py": NETS})
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "model.num_parameters")
    assert got is not None and got.value == EXPECTED and "CfgNet" in got.source.detail


def test_a_factory_whose_pick_is_not_decided_states_nothing(cli, tmp_path: Path) -> None:
    # two callers pass different literals: the class is not known
    write(tmp_path, {"factory.py": FACTORY})
    script = SCRIPT.replace("from nets import {imports}", "from factory import create_model").replace(
        "{build}", 'model = create_model(cfg, model_type="net")\n    probe = create_model(cfg, model_type="critic")')
    write(tmp_path, {"train.py": script, "conf.yaml": CONF, "nets.py": NETS})
    assert fact(plan_of(cli, "train.py", cwd=tmp_path), "model.num_parameters") is None


def test_a_size_the_code_writes_after_loading_states_nothing(cli, tmp_path: Path) -> None:
    got = _count(cli, tmp_path, 'cfg["model"]["depth"] = 24\n    model = Net(**cfg["model"])')
    assert got is None


def test_a_key_the_code_writes_that_no_size_reads_changes_nothing(cli, tmp_path: Path) -> None:
    # open-muse ``config.experiment.logging_dir = ...`` on its OmegaConf object before building the model
    script = SCRIPT.replace("import yaml", "from omegaconf import OmegaConf").replace(
        "    with open(args.config) as f:\n        cfg = yaml.safe_load(f)", "    cfg = OmegaConf.load(args.config)").replace(
        "{imports}", "Net").replace("{build}", 'cfg.train.log_dir = "logs"\n    cfg.model.tag = "x"\n'
                                                '    model = Net(**cfg.model)')
    write(tmp_path, {"train.py": script, "conf.yaml": CONF, "nets.py": NETS})
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "model.num_parameters")
    assert got is not None and got.value == EXPECTED
    # the same write into a size the class reads: not known
    write(tmp_path, {"train.py": script.replace('cfg.model.tag = "x"', "cfg.model.depth = len(args.config)")})
    assert fact(plan_of(cli, "train.py", cwd=tmp_path), "model.num_parameters") is None


def test_a_section_updated_by_a_call_states_nothing(cli, tmp_path: Path) -> None:
    got = _count(cli, tmp_path, 'cfg["model"].update({"depth": 24})\n    model = Net(**cfg["model"])')
    assert got is None


def test_a_file_with_interpolations_states_nothing(cli, tmp_path: Path) -> None:
    # ``width: ${train.width}`` is left out of the tree (not resolved): Net would see its default 32
    conf = CONF.replace("width: 64", "width: ${train.width}").replace("batch_size: 8", "batch_size: 8\n      width: 64")
    got = _count(cli, tmp_path, 'model = Net(**cfg["model"])', extra={"conf.yaml": conf})
    assert got is None


def test_a_dict_written_in_the_code_is_left_to_the_module_counter(cli, tmp_path: Path) -> None:
    # a literal dict updated before the call: the configuration reading does not follow ``update``
    got = _count(cli, tmp_path, 'spec = {"vocab": 100, "width": 64, "depth": 3}\n'
                                '    spec.update({"depth": 24})\n    model = Net(**spec)')
    assert got is None or got.value == 100 * 64 + 24 * (64 * 64 + 64) + 64 * 100
