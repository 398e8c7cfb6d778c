"""A sacred ``Experiment``'s configuration read without running it (adapters/config_object_sacred.py): the
``@ex.config`` scope, the named configs and the ``with key=value`` updates of the launch line, in sacred's
order, reaching the plan through ``_config`` of ``@ex.automain`` (the value flow, and the Lightning
``Trainer`` keywords). Fixtures of our own copying real shapes, each citing repository, path and commit;
each must-read has silent twins (a value computed at run time, a named config or a config file not read,
a key the main function rewrites)."""

from __future__ import annotations

from plan_helpers import plan_of, write

from tests.test_config_object import ours

# dandelin/ViLT @ 762fd3975c18cb8b9d8b7e7e9a2f5fd3a3ffbd85 (the shape, cut down): vilt/config.py:1-88
# (``ex = Experiment("ViLT")``; ``@ex.config def config(): ... batch_size = 4096 ... num_gpus = 1;
# num_nodes = 1; precision = 16``), :93-101 (``@ex.named_config def task_mlm_itm(): batch_size = 4096``),
# run.py:1-62 (``@ex.automain def main(_config): _config = copy.deepcopy(_config)``, then
# ``pl.Trainer(gpus=_config["num_gpus"], num_nodes=_config["num_nodes"], precision=_config["precision"],
# accelerator="ddp")``); README/PRETRAIN.md: ``python run.py with data_root=... num_gpus=8 num_nodes=1
# task_mlm_itm whole_word_masking=True step200k per_gpu_batchsize=64``.
VILT = {
    "vilt/__init__.py": "",
    "vilt/config.py": """\
        from sacred import Experiment

        ex = Experiment("ViLT")


        def _loss_names(d):
            ret = {"itm": 0, "mlm": 0}
            ret.update(d)
            return ret


        @ex.config
        def config():
            exp_name = "vilt"
            seed = 0
            loss_names = _loss_names({"itm": 1, "mlm": 1})
            batch_size = 4096  # the desired batch size
            image_size = 384
            per_gpu_batchsize = 0
            num_gpus = 1
            num_nodes = 1
            num_workers = 8
            precision = 16


        @ex.named_config
        def task_mlm_itm():
            exp_name = "mlm_itm"
            batch_size = 4096
            max_epoch = 10


        @ex.named_config
        def step200k():
            max_steps = 200000
    """,
    "run.py": """\
        import copy
        import pytorch_lightning as pl

        from vilt.config import ex


        @ex.automain
        def main(_config):
            _config = copy.deepcopy(_config)
            pl.seed_everything(_config["seed"])
            trainer = pl.Trainer(
                gpus=_config["num_gpus"],
                num_nodes=_config["num_nodes"],
                precision=_config["precision"],
                accelerator="ddp",
            )
            trainer.fit(None)
    """,
}
LINE = ["--", "with", "data_root=/data", "num_gpus=8", "num_nodes=1", "task_mlm_itm", "step200k", "per_gpu_batchsize=64"]


def _facts(plan: dict, field: str) -> list:
    from preflight.plan import TrainingPlan

    return list(TrainingPlan.from_dict(plan).facts(field))


def _lightning(plan: dict, field: str):
    return next((f for f in _facts(plan, field) if f.adapter == "lightning"), None)


def test_vilt_sacred_config_reaches_the_lightning_trainer(cli, tmp_path):
    write(tmp_path, VILT)
    plan = plan_of(cli, "run.py", *LINE, cwd=tmp_path)
    mode = _lightning(plan, "precision.mode")
    assert mode is not None and mode.value == "amp_fp16"
    # the @ex.config scope's literal, where it is written (not the entry's line)
    assert (mode.source.kind, mode.source.path, mode.source.line) == ("config", "vilt/config.py", 23)
    assert mode.source.key == "ex.config.precision" and "sacred config" in mode.source.detail
    devices = _lightning(plan, "dist.devices_per_node")
    assert devices.value == 8 and devices.source.kind == "cli" and devices.source.key == "with num_gpus=8"
    world = _lightning(plan, "dist.world_size")
    assert world is not None and world.value == 8
    assert _lightning(plan, "dist.nodes").value == 1


def test_vilt_launch_update_wins_over_the_config_scope(cli, tmp_path):
    """``with precision=32`` on the line: the update, not the scope's 16."""
    write(tmp_path, VILT)
    plan = plan_of(cli, "run.py", *LINE, "precision=32", cwd=tmp_path)
    mode = _lightning(plan, "precision.mode")
    assert mode.value == "fp32" and mode.source.kind == "cli" and mode.source.key == "with precision=32"


def test_sacred_value_computed_at_run_time_stays_unknown(cli, tmp_path):
    """Twin: ``precision = 16 if amp else 32`` is not a literal: no precision from the config (and no guess)."""
    files = dict(VILT)
    files["vilt/config.py"] = files["vilt/config.py"].replace(
        "    precision = 16\n", "    amp = True\n            precision = 16 if amp else 32\n")
    write(tmp_path, files)
    plan = plan_of(cli, "run.py", *LINE, cwd=tmp_path)
    assert _lightning(plan, "precision.mode") is None
    assert _lightning(plan, "dist.devices_per_node").value == 8  # the other keys are still read


def test_sacred_value_set_under_if_stays_unknown(cli, tmp_path):
    """Twin: a scope assignment under an ``if`` makes the key unknown."""
    files = dict(VILT)
    files["vilt/config.py"] = files["vilt/config.py"].replace(
        "    precision = 16\n", "    precision = 16\n            if seed > 0:\n                precision = 32\n")
    write(tmp_path, files)
    plan = plan_of(cli, "run.py", *LINE, cwd=tmp_path)
    assert _lightning(plan, "precision.mode") is None


def test_sacred_named_config_missing_leaves_everything_unknown(cli, tmp_path):
    """Twin: a named config the line gives and the experiment does not define (``ex.add_named_config`` from a
    file, say): any key may be set there, so none is read; one note says why."""
    write(tmp_path, VILT)
    plan = plan_of(cli, "run.py", *LINE, "env_cluster", cwd=tmp_path)
    assert _lightning(plan, "precision.mode") is None
    assert _lightning(plan, "dist.devices_per_node") is None
    assert [n for n in plan["notes"] if "env_cluster" in n] == [
        "value_flow: sacred: the named config 'env_cluster' of the launch line is not a @ex.named_config of "
        "vilt/config.py: the configuration is not known"]


def test_sacred_config_file_on_the_line_leaves_everything_unknown(cli, tmp_path):
    """Twin: ``with cfg.yaml`` merges a file sacred reads at run time: not read, nothing claimed."""
    write(tmp_path, VILT)
    plan = plan_of(cli, "run.py", *LINE, "overrides.yaml", cwd=tmp_path)
    assert _lightning(plan, "precision.mode") is None
    assert _lightning(plan, "dist.devices_per_node") is None


def test_sacred_key_rewritten_in_main_is_not_read(cli, tmp_path):
    """Twin: ``_config["precision"] = 32`` in the main function: the scope's 16 no longer holds there."""
    files = dict(VILT)
    files["run.py"] = files["run.py"].replace('    pl.seed_everything(_config["seed"])\n',
                                              '    pl.seed_everything(_config["seed"])\n'
                                              '            _config["precision"] = 32 if _config["seed"] else 16\n')
    write(tmp_path, files)
    plan = plan_of(cli, "run.py", *LINE, cwd=tmp_path)
    assert _lightning(plan, "precision.mode") is None
    assert _lightning(plan, "dist.devices_per_node").value == 8  # a key not rewritten is still read


# The same layout with the project's own loop (ViLT-family repositories: ``@ex.automain def main(_config)``
# then a loader built from ``_config[...]``; our own program): the value flow reads the keys.
LOOP = {
    "config.py": """\
        from sacred import Experiment

        ex = Experiment("demo")


        @ex.config
        def config():
            batch_size = 32
            num_workers = 4
            lr = 1e-4
            warmup = lr * 10


        @ex.named_config
        def big():
            batch_size = 128


        @ex.named_config
        def small():
            batch_size = 8
    """,
    "train.py": """\
        import copy
        import torch
        from torch.utils.data import DataLoader
        from config import ex


        @ex.automain
        def main(_config):
            _config = copy.deepcopy(_config)
            model = torch.nn.Linear(4, 4)
            opt = torch.optim.AdamW(model.parameters(), lr=_config["lr"])
            loader = DataLoader(range(10), batch_size=_config["batch_size"], num_workers=_config["num_workers"])
            for x in loader:
                loss = model(x).sum()
                loss.backward()
                opt.step()
                opt.zero_grad()
    """,
}


def test_sacred_named_configs_apply_in_line_order_and_updates_win(cli, tmp_path):
    write(tmp_path, LOOP)
    plan = plan_of(cli, "train.py", "--", "with", "small", "big", "num_workers=2", cwd=tmp_path)
    micro = ours(plan, "batch.micro")
    assert micro.value == 128 and (micro.source.path, micro.source.line) == ("config.py", 16)
    assert "sacred named config big" in micro.source.detail
    workers = ours(plan, "data.num_workers")
    assert workers.value == 2 and workers.source.kind == "cli" and workers.source.key == "with num_workers=2"


def test_sacred_defaults_without_with(cli, tmp_path):
    """No ``with`` on the line: the ``@ex.config`` scope's values."""
    write(tmp_path, LOOP)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    micro = ours(plan, "batch.micro")
    assert micro.value == 32 and (micro.source.path, micro.source.line) == ("config.py", 8)


def test_sacred_two_experiments_of_one_name_stay_unknown(cli, tmp_path):
    """Twin: two modules binding ``ex = Experiment(...)``: which one the entry means is not decided here."""
    files = dict(LOOP)
    files["other.py"] = files["config.py"].replace("batch_size = 32", "batch_size = 64")
    files["train.py"] = files["train.py"].replace("from config import ex\n", "from config import ex\n        import other\n")
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert ours(plan, "batch.micro") is None


def test_sacred_add_config_in_a_loop_leaves_everything_unknown(cli, tmp_path):
    """Twin: ``for f in Path("config").glob("config*.yaml"): ex.add_config(str(f))`` (a real shape: each YAML
    merged at run time may set any key), so no key is claimed."""
    files = dict(LOOP)
    files["config.py"] = files["config.py"].replace(
        'ex = Experiment("demo")\n',
        'ex = Experiment("demo")\n        for f in Path("config").glob("config*.yaml"):\n'
        '            ex.add_config(str(f))\n').replace("from sacred import Experiment\n",
                                                 "from pathlib import Path\n        from sacred import Experiment\n")
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert ours(plan, "batch.micro") is None


def test_sacred_add_config_literal_dict_is_read(cli, tmp_path):
    """``ex.add_config({"batch_size": 48})`` at module level after the scope: a literal, read in order."""
    files = dict(LOOP)
    files["config.py"] = files["config.py"] + '\n\n        ex.add_config({"batch_size": 48})\n'
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    micro = ours(plan, "batch.micro")
    assert micro.value == 48 and micro.source.path == "config.py"


def test_sacred_key_written_by_a_helper_is_not_read(cli, tmp_path):
    """Twin: a project helper the config is handed to writes ``config["precision"]``: not claimed (the
    other keys still are)."""
    files = dict(VILT)
    files["vilt/helpers.py"] = """\
        def adjust(config):
            config["precision"] = 32
    """
    files["run.py"] = files["run.py"].replace("from vilt.config import ex\n",
                                              "from vilt.config import ex\n        from vilt.helpers import adjust\n")
    files["run.py"] = files["run.py"].replace('    pl.seed_everything(_config["seed"])\n',
                                              '    pl.seed_everything(_config["seed"])\n            adjust(_config)\n')
    write(tmp_path, files)
    plan = plan_of(cli, "run.py", *LINE, cwd=tmp_path)
    assert _lightning(plan, "precision.mode") is None
    assert _lightning(plan, "dist.devices_per_node").value == 8


def test_sacred_config_file_note_in_a_plain_loop(cli, tmp_path):
    """Twin without Lightning: ``with overrides.yaml`` leaves the loop's keys unknown, with one note."""
    write(tmp_path, LOOP)
    plan = plan_of(cli, "train.py", "--", "with", "overrides.yaml", cwd=tmp_path)
    assert ours(plan, "batch.micro") is None
    assert [n for n in plan["notes"] if n.startswith("value_flow: sacred")] == [
        "value_flow: sacred: a config file on the launch line (with overrides.yaml) is not read: the configuration "
        "is not known"]
