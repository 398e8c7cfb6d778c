"""Issue 15, branch jobs63: a plain ``batch_size`` key of a job's own config, read as the micro or the global
batch from how the project's code uses it (adapters/config_key_batch.py, through config_key_families.py).
Fixtures of our own copying real shapes (named at each), with twins that must stay unknown (the bare name is
per process in one project and global in the next: only its use says which).
"""

from __future__ import annotations

from plan_helpers import plan_of, write
from test_config_key_families import VJEPA, ours

# facebookresearch/ijepa @ 52c1ae9 src/train.py:93,192-194 ``batch_size = args['data']['batch_size']`` ->
# ``make_imagenet1k(batch_size=batch_size, ...)`` imported from src/datasets/imagenet1k.py, whose :52-56
# ``torch.utils.data.DataLoader(..., batch_size=batch_size)``; the same in vjepa2 through two functions
# (app/vjepa/train.py:109,249-252 ``init_data(batch_size=batch_size)`` -> src/datasets/data_manager.py:47
# ``make_videodataset(batch_size=batch_size)`` -> a DataLoader).
_TRAIN = """\
    import torch
    from src.datasets.data import init_data


    def main(args):
        cfgs_data = args.get("data")
        batch_size = cfgs_data.get("batch_size")
        crop_size = cfgs_data.get("crop_size", 224)
        loader = init_data(batch_size=batch_size, crop_size=crop_size)
        for x in loader:
            loss = x.sum()
            loss.backward()
"""
_DATA = """\
    import torch


    def make_dataset(batch_size, crop_size):
        data = list(range(crop_size))
        return torch.utils.data.DataLoader(data, batch_size=batch_size, shuffle=True)


    def init_data(batch_size, crop_size=224):
        return make_dataset(batch_size=batch_size, crop_size=crop_size)
"""


def _vjepa(cli, tmp_path, train: str = _TRAIN, data: str = _DATA, more: dict | None = None) -> dict:
    files = dict(VJEPA)
    files.update({"app/vjepa/train.py": train, "src/__init__.py": "", "src/datasets/__init__.py": "",
                  "src/datasets/data.py": data, **(more or {})})
    write(tmp_path, files)
    return plan_of(cli, "app/main.py", "--", "--fname", "cfg.yaml", cwd=tmp_path)


def test_plain_batch_key_handed_to_a_loader_through_project_functions_is_the_micro_batch(cli, tmp_path):
    micro = ours(_vjepa(cli, tmp_path), "batch.micro")
    assert micro is not None and (micro.value, micro.source.path, micro.source.line, micro.source.key) == (
        24, "cfg.yaml", 7, "data.batch_size"), micro
    assert micro.confidence == "medium" and "app/vjepa/train.py:" in micro.source.detail, micro.source.detail


def test_twin_loader_function_defined_twice_and_not_imported_stays_unknown(cli, tmp_path):
    # the call names a function two project files define, and the calling file imports neither by name
    train = _TRAIN.replace("from src.datasets.data import init_data", "import src.datasets.data as d") \
        .replace("loader = init_data(", "loader = d.init_data(")
    plan = _vjepa(cli, tmp_path, train=train, more={"src/datasets/other.py": _DATA})
    assert ours(plan, "batch.micro") is None


def test_twin_helper_that_builds_no_loader_stays_unknown(cli, tmp_path):
    data = _DATA.replace("torch.utils.data.DataLoader(data, batch_size=batch_size, shuffle=True)",
                         "[data[i:i + batch_size] for i in range(0, len(data), batch_size)]")
    plan = _vjepa(cli, tmp_path, data=data)
    assert ours(plan, "batch.micro") is None and ours(plan, "batch.global") is None


def test_twin_key_of_another_section_stays_unknown(cli, tmp_path):
    # the code reads the batch of its ``model`` section; the config's key is under ``data``
    plan = _vjepa(cli, tmp_path, train=_TRAIN.replace('args.get("data")', 'args.get("model")'))
    assert ours(plan, "batch.micro") is None


# huggingface/open-muse @ 64e1afe training/train_maskgit_imagenet.py:268 ``config.training.batch_size *
# accelerator.num_processes`` (the total without accumulation) and :283 ``per_gpu_batch_size=
# config.training.batch_size``; configs/imagenet.yaml:84 ``training.batch_size: 192``
_MUSE = {
    "train.py": """\
        import sys
        import torch
        from accelerate import Accelerator
        from omegaconf import OmegaConf

        config = OmegaConf.load(sys.argv[1])
        accelerator = Accelerator()
        total_batch_size_without_accum = config.training.batch_size * accelerator.num_processes
        model = torch.nn.Linear(4, 4)
        opt = torch.optim.AdamW(model.parameters())
        for x in range(10):
            loss = model(x).sum()
            accelerator.backward(loss)
            opt.step()
    """,
    "cfg.yaml": """\
        training:
          batch_size: 192
          max_train_steps: 100
    """,
}


def test_plain_batch_key_times_the_process_count_is_the_micro_batch(cli, tmp_path):
    write(tmp_path, _MUSE)
    micro = ours(plan_of(cli, "train.py", "--", "cfg.yaml", cwd=tmp_path), "batch.micro")
    assert micro is not None and (micro.value, micro.source.line, micro.source.key) == (
        192, 2, "training.batch_size"), micro
    assert "train.py:8" in micro.source.detail, micro.source.detail


# facebookresearch/SlowFast slowfast/datasets/loader.py:98 ``batch_size = int(cfg.TRAIN.BATCH_SIZE / max(1,
# cfg.NUM_GPUS))`` (TRAIN.BATCH_SIZE is the batch over all GPUs); Pointcept defaults.py:138
# ``cfg.batch_size_per_gpu = cfg.batch_size // world_size``
def test_plain_batch_key_divided_by_the_process_count_is_the_global_batch(cli, tmp_path):
    files = dict(_MUSE)
    files["train.py"] = files["train.py"].replace(
        "total_batch_size_without_accum = config.training.batch_size * accelerator.num_processes",
        "per_gpu = int(config.training.batch_size / max(1, accelerator.num_processes))")
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", "--", "cfg.yaml", cwd=tmp_path)
    glob = ours(plan, "batch.global")
    assert glob is not None and (glob.value, glob.source.line, glob.source.key) == (192, 2, "training.batch_size"), glob
    assert ours(plan, "batch.micro") is None


def test_twin_uses_that_disagree_stay_unknown(cli, tmp_path):
    files = dict(_MUSE)
    files["train.py"] = files["train.py"].replace(
        "total_batch_size_without_accum = config.training.batch_size * accelerator.num_processes",
        "total = config.training.batch_size * accelerator.num_processes\n"
        "        per_gpu = config.training.batch_size // accelerator.num_processes")
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", "--", "cfg.yaml", cwd=tmp_path)
    assert ours(plan, "batch.micro") is None and ours(plan, "batch.global") is None


def test_twin_argparse_option_of_the_same_name_is_not_the_key(cli, tmp_path):
    # a top-level ``batch_size`` key, and ``args.batch_size // world_size`` of the script's own argparse option
    files = {
        "train.py": """\
            import argparse
            import sys
            import torch
            import yaml

            parser = argparse.ArgumentParser()
            parser.add_argument("--batch_size", type=int, default=64)
            args, _ = parser.parse_known_args()
            cfg = yaml.safe_load(open(sys.argv[-1]))
            world_size = torch.distributed.get_world_size()
            per_rank = args.batch_size // world_size
            lr = cfg["lr"]
            model = torch.nn.Linear(4, 4)
            opt = torch.optim.AdamW(model.parameters(), lr=lr)
            for x in range(10):
                loss = model(x).sum()
                loss.backward()
                opt.step()
        """,
        "cfg.yaml": "batch_size: 256\nlr: 0.001\n",
    }
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", "--", "cfg.yaml", cwd=tmp_path)
    assert ours(plan, "batch.micro") is None and ours(plan, "batch.global") is None


# ming024/FastSpeech2 @ d4e79ee train.py:30-35 ``batch_size = train_config["optimizer"]["batch_size"]`` and the
# training loader's ``batch_size=batch_size * group_size``; dataset.py:225-230 a validation loader given the key
# (here in vjepa2's scaffolding, whose hand-off by importlib the value-flow readers do not follow)
_FS2 = """\
    import torch
    from torch.utils.data import DataLoader


    def main(args):
        cfgs_opt = args.get("data")
        batch_size = cfgs_opt.get("batch_size")
        train_dataset = list(range(100))
        val_dataset = list(range(10))
        loader = DataLoader(train_dataset, batch_size={train})
        val_loader = DataLoader(val_dataset, batch_size=cfgs_opt.get("batch_size"))
        for x in loader:
            loss = x.sum()
            loss.backward()
"""


def test_plain_batch_key_bound_to_a_name_given_to_the_training_loader(cli, tmp_path):
    micro = ours(_vjepa(cli, tmp_path, train=_FS2.replace("{train}", "batch_size")), "batch.micro")
    assert micro is not None and (micro.value, micro.source.key) == (24, "data.batch_size"), micro


def test_twin_only_the_validation_loader_takes_the_key_stays_unknown(cli, tmp_path):
    plan = _vjepa(cli, tmp_path, train=_FS2.replace("{train}", "batch_size * 4"))
    assert ours(plan, "batch.micro") is None and ours(plan, "batch.global") is None
    assert all(f["value"] != 24 for f in plan["fields"].get("batch.micro", [])), plan["fields"].get("batch.micro")
