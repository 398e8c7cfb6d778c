"""``num_workers`` given to a data-loader builder of a local module (adapters/loader_helper.py). Fixtures of our
own copying yl4579/StyleTTS2 @ 5cedc71c333f train_finetune_accelerate.py:18,97-113 and meldataset.py:233-253;
the must-fill test has silent twins."""

from __future__ import annotations

from plan_helpers import plan_of, write

from preflight.plan import TrainingPlan

STYLETTS2_LOADERS = {
    "train.py": """\
        import torch
        from meldataset import build_dataloader


        def main():
            train_dataloader = build_dataloader([], batch_size=8,
                                                num_workers=2,
                                                device="cuda")
            val_dataloader = build_dataloader([], batch_size=8, validation=True,
                                              num_workers=0,
                                              device="cuda")
            model = torch.nn.Linear(2, 2)
            for batch in train_dataloader:
                model(batch).sum().backward()


        if __name__ == "__main__":
            main()
    """,
    "meldataset.py": """\
        from torch.utils.data import DataLoader


        def build_dataloader(path_list, validation=False, batch_size=4, num_workers=1, device='cpu'):
            return DataLoader(path_list, batch_size=batch_size, shuffle=(not validation),
                              num_workers=num_workers, pin_memory=(device != 'cpu'))
    """,
}


def _helper_fact(plan: dict):
    return next((f for f in TrainingPlan.from_dict(plan).facts("data.num_workers") if f.adapter == "loader_helper"),
                None)


def test_workers_given_to_a_local_loader_builder(cli, tmp_path):
    write(tmp_path, STYLETTS2_LOADERS)
    fact = _helper_fact(plan_of(cli, "train.py", cwd=tmp_path))
    assert fact is not None and fact.value == 2 and fact.confidence == "medium"
    assert fact.source.path == "train.py" and fact.source.line == 6  # the train loader, not val's 0


def test_a_builder_that_rebinds_or_a_train_loader_left_to_the_default(cli, tmp_path):
    """The builder's default when the script gives none; silent twin: a builder that rebinds num_workers
    (``num_workers = min(num_workers, 4)``) is not followed."""
    files = dict(STYLETTS2_LOADERS)
    files["train.py"] = files["train.py"].replace("                                                num_workers=2,\n", "")
    write(tmp_path, files)
    fact = _helper_fact(plan_of(cli, "train.py", cwd=tmp_path))
    assert fact is not None and fact.value == 1
    files = dict(STYLETTS2_LOADERS)
    files["meldataset.py"] = files["meldataset.py"].replace(
        "    return DataLoader(", "    num_workers = min(num_workers, 4)\n            return DataLoader(")
    write(tmp_path, files)
    assert _helper_fact(plan_of(cli, "train.py", cwd=tmp_path)) is None
