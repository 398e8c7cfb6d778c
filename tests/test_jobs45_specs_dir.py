"""A spec file found through the experiment directory option, and a get-with-default helper over it
(issue 15, set 45: facebookresearch/DeepSDF @ 48c19b8 ``deep_sdf/workspace.py:15,24-35``
``os.path.join(experiment_directory, specifications_filename)`` with ``specifications_filename =
"specs.json"``, ``train_deep_sdf.py:231-235,255,318,346-353`` ``specs["ScenesPerBatch"]`` and
``get_spec_with_default(specs, "DataLoaderThreads", 1)``). Twins: a file name computed otherwise, a
helper that is not a plain getter, and a key the file lacks stay unknown."""

from __future__ import annotations

import json

from plan_helpers import fact, plan_of, write

WORKSPACE = """\
    import json
    import os

    specifications_filename = "specs.json"


    def load_experiment_specifications(experiment_directory):
        filename = os.path.join(experiment_directory, specifications_filename)
        if not os.path.isfile(filename):
            raise Exception("no specs.json in " + experiment_directory)
        return json.load(open(filename))
"""

COMPUTED = WORKSPACE.replace("specifications_filename)", "specifications_filename.upper())")

TRAIN = """\
    import argparse

    import torch
    import torch.utils.data as data_utils

    import pkg.workspace as ws


    def get_spec_with_default(specs, key, default):
        try:
            return specs[key]
        except KeyError:
            return default


    def main_function(experiment_directory, batch_split):
        specs = ws.load_experiment_specifications(experiment_directory)
        scene_per_batch = specs["ScenesPerBatch"]
        model = torch.nn.Linear(3, 1).cuda()
        threads = get_spec_with_default(specs, "DataLoaderThreads", 1)
        loader = data_utils.DataLoader(list(range(100)), batch_size=scene_per_batch, shuffle=True,
                                       num_workers=threads, drop_last=True)
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        for batch in loader:
            loss = model(batch).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--experiment", "-e", dest="experiment_directory", required=True)
        parser.add_argument("--batch_split", dest="batch_split", default=1)
        args = parser.parse_args()
        main_function(args.experiment_directory, int(args.batch_split))
"""

SPECS = {"ScenesPerBatch": 64, "DataLoaderThreads": 16, "SamplesPerScene": 16384}


def _plan(cli, tmp_path, workspace: str = WORKSPACE, train: str = TRAIN, specs: dict = SPECS) -> dict:
    write(tmp_path, {"pkg/__init__.py": "", "pkg/workspace.py": workspace, "train_deep_sdf.py": train})
    (tmp_path / "examples/sofas").mkdir(parents=True)
    (tmp_path / "examples/sofas/specs.json").write_text(json.dumps(specs))
    return plan_of(cli, "--", "python", "train_deep_sdf.py", "-e", "examples/sofas", cwd=tmp_path)


def _value(plan: dict, field: str):
    got = fact(plan, field)
    return None if got is None else got.value


def test_specs_json_of_the_experiment_directory_is_read(cli, tmp_path):
    plan = _plan(cli, tmp_path)
    assert _value(plan, "batch.micro") == 64
    assert _value(plan, "data.num_workers") == 16


def test_twin_a_file_name_computed_otherwise_stays_unknown(cli, tmp_path):
    plan = _plan(cli, tmp_path, workspace=COMPUTED)
    assert _value(plan, "batch.micro") != 64
    assert _value(plan, "data.num_workers") != 16


def test_twin_a_helper_that_is_not_a_plain_getter_stays_unknown(cli, tmp_path):
    train = TRAIN.replace("            return specs[key]\n", "            return specs[key] * 2\n")
    plan = _plan(cli, tmp_path, train=train)
    assert _value(plan, "batch.micro") == 64
    assert _value(plan, "data.num_workers") not in (16, 32)


def test_twin_a_key_the_file_lacks_is_no_fact_of_the_file(cli, tmp_path):
    plan = _plan(cli, tmp_path, specs={"ScenesPerBatch": 64})
    assert _value(plan, "batch.micro") == 64
    assert _value(plan, "data.num_workers") != 16
