"""`pin_memory`/`num_workers` of the DataLoaders a job's local modules build (issue 15,
preflight/adapters/module_loaders.py): small rewrites of our own with the shapes of
PixArt-alpha/PixArt-sigma @ 1ce521a diffusion/data/builder.py:47-55 (two arms, both `pin_memory=True`, one
beside a `**kwargs`), openai/improved-diffusion @ 1bc7bbb improved_diffusion/image_datasets.py:45-51
(`num_workers=1` in both arms) and mit-han-lab/efficientvit @ de7d773
efficientvit/diffusioncore/data_provider/base.py:56-61 (a method of a class the script builds), with
their twins that must stay silent."""

from __future__ import annotations

from plan_helpers import fact, plan_of, winner, write

BUILDER = """\
    from torch.utils.data import DataLoader


    def build_dataloader(dataset, batch_size=256, num_workers=4, shuffle=True, **kwargs):
        if "batch_sampler" in kwargs:
            dataloader = DataLoader(dataset, batch_sampler=kwargs["batch_sampler"], num_workers=num_workers,
                                    pin_memory=True)
        else:
            dataloader = DataLoader(dataset, batch_size=batch_size, shuffle=shuffle, num_workers=num_workers,
                                    pin_memory=True, **kwargs)
        return dataloader
    """

TRAIN = """\
    import argparse

    import torch
    from data.builder import build_dataloader

    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    model = torch.nn.Linear(2, 2)
    opt = torch.optim.AdamW(model.parameters())
    loader = build_dataloader(torch.zeros(8, 2), batch_size=4, num_workers=args.workers)
    for x in loader:
        loss = model(x).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
    """

PROVIDER = """\
    import torch


    class DataProvider:
        def __init__(self, batch_size):
            self.loader = torch.utils.data.DataLoader(torch.zeros(8, 2), batch_size=batch_size, num_workers=1,
                                                      pin_memory=True)

        def build_valid_loader(self):
            return torch.utils.data.DataLoader(torch.zeros(8, 2), batch_size=1, num_workers=0)

        def unused_helper(self):
            return torch.utils.data.DataLoader(torch.zeros(8, 2), num_workers=7)
    """

TRAIN_PROVIDER = """\
    import torch
    from data.provider import DataProvider

    model = torch.nn.Linear(2, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    provider = DataProvider(4)
    for x in provider.loader:
        model(x).sum().backward()
        opt.step()
        opt.zero_grad()
    """


def _files(builder: str = BUILDER, train: str = TRAIN) -> dict[str, str]:
    return {"data/__init__.py": "", "data/builder.py": builder, "train.py": train}


def test_every_arm_of_a_local_builder_pins_memory(cli, tmp_path):
    write(tmp_path, _files())
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "data.pin_memory") is True
    got = fact(plan, "data.pin_memory")
    assert got.confidence == "medium" and got.source.path == "data/builder.py" and got.source.line == 6
    # the workers come from a parameter: not a literal, this reading says nothing of them (the value the
    # script hands on is another reader's)
    workers = fact(plan, "data.num_workers")
    assert workers is None or workers.adapter != "visible_loaders"


def test_arms_that_disagree_or_a_value_not_literal_say_nothing(cli, tmp_path):
    write(tmp_path, _files(BUILDER.replace("num_workers=num_workers,\n                                    pin_memory=True)",
                                           "num_workers=num_workers)")))
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "data.pin_memory") is None  # one arm True, the other the default False
    write(tmp_path, _files(BUILDER.replace("pin_memory=True, **kwargs", "pin_memory=shuffle, **kwargs")))
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "data.pin_memory") is None
    left_out = BUILDER.replace("pin_memory=True, **kwargs", "**kwargs")
    write(tmp_path, _files(left_out))
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "data.pin_memory") is None  # the **kwargs may carry it


def test_a_loader_of_a_class_the_script_builds_and_its_twins(cli, tmp_path):
    write(tmp_path, {"data/__init__.py": "", "data/provider.py": PROVIDER, "train.py": TRAIN_PROVIDER})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    # the valid loader (named for evaluation) and the helper no file calls are not the job's
    assert winner(plan, "data.pin_memory") is True
    assert winner(plan, "data.num_workers") == 1
    # the class never built: its __init__ never runs, nothing is said
    write(tmp_path, {"train.py": TRAIN_PROVIDER.replace("provider = DataProvider(4)", "provider = None")})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "data.pin_memory") is None
    # the helper is called after all: its 7 workers disagree with the 1 of __init__
    write(tmp_path, {"train.py": TRAIN_PROVIDER + "    provider.unused_helper()\n"})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "data.num_workers") is None
    assert winner(plan, "data.pin_memory") is None  # the helper leaves it out: the default False


def test_the_script_s_own_loader_or_a_library_trainer_wins(cli, tmp_path):
    own = TRAIN.replace("loader = build_dataloader(torch.zeros(8, 2), batch_size=4, num_workers=args.workers)",
                        "loader = torch.utils.data.DataLoader(torch.zeros(8, 2), batch_size=4, **{})")
    write(tmp_path, _files(train=own))
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "data.pin_memory") is None  # the script's own DataLoader(**...) is not known
    hf = TRAIN.replace("import argparse", "import argparse\n    from transformers import Trainer")
    write(tmp_path, _files(train=hf))
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    got = fact(plan, "data.pin_memory")
    assert got is None or got.adapter != "visible_loaders"
