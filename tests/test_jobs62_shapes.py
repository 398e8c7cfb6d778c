"""Issue 15, branch jobs62: shapes of set 31 (fixtures of our own that copy the real code's shape; each with a
twin that must stay unknown).

- an option rewritten inside a function that receives the parsed options (jeonsworld/ViT-pytorch @ 460a162
  ``train.py:147``: ``args.train_batch_size = args.train_batch_size // args.gradient_accumulation_steps`` in
  ``train(args, model)`` before ``get_loader(args)`` builds the loaders in ``utils/data_utils.py:51-60``), the
  evaluation loader beside the training one, ``--local_rank`` left at -1 under plain python;
- YAML documents read as one mapping and a config class loading through a helper (melgan), a Hydra 0.11 app
  (pytorch_sac), a loader builder split by ``is_train`` (Chinese-CLIP), a replay buffer's batch (CURL).
The console-script and LightningCLI shapes are in ``test_jobs62_launch_cli.py``.
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


# ViT-pytorch's process setup (train.py:281,299-307): ``--local_rank`` default -1, a process group only on the
# other side of ``if args.local_rank == -1``; started with plain python
_RANK = """\
    import argparse

    import torch
    from torch.utils.data import DataLoader


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--local_rank", type=int, default={default})
        parser.add_argument("--batch", type=int, default=32)
        args = parser.parse_args()
        {setup}
        model = torch.nn.Linear(4, 4)
        if args.local_rank != -1:
            model = torch.nn.parallel.DistributedDataParallel(model)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for x in DataLoader(list(range(64)), batch_size=args.batch):
            optimizer.zero_grad()
            model(x).sum().backward()
            optimizer.step()


    if __name__ == "__main__":
        main()
"""
_RANK_SETUP = """if args.local_rank == -1:
            device = torch.device("cuda")
        else:
            torch.cuda.set_device(args.local_rank)
            torch.distributed.init_process_group(backend="nccl")"""


def _rank(cli, tmp_path, *launch: str, default: str = "-1", setup: str = _RANK_SETUP) -> dict:
    write(tmp_path, {"train.py": _RANK.replace("{default}", default).replace("{setup}", setup)})
    return plan_of(cli, "train.py", "--", "python", "train.py", *launch, cwd=tmp_path)


def test_local_rank_left_at_minus_one_is_one_process(cli, tmp_path):
    plan = _rank(cli, tmp_path, "--batch", "16")
    world = fact(plan, "dist.world_size")
    assert world is not None and world.value == 1 and world.confidence == "medium", world
    assert "--local_rank" in world.source.detail, world.source
    assert fact(plan, "dist.nodes").value == 1
    assert fact(plan, "batch.global").value == 16


def test_local_rank_guard_written_as_not_equal(cli, tmp_path):
    setup = ('if args.local_rank != -1:\n            torch.distributed.init_process_group(backend="nccl")')
    plan = _rank(cli, tmp_path, setup=setup)
    assert fact(plan, "dist.world_size").value == 1


def test_twin_local_rank_given_on_the_line_is_not_concluded(cli, tmp_path):
    plan = _rank(cli, tmp_path, "--local_rank", "0")
    world = fact(plan, "dist.world_size")
    assert world is None or world.value != 1, world


def test_twin_process_group_outside_the_guard_is_not_concluded(cli, tmp_path):
    plan = _rank(cli, tmp_path, setup='torch.distributed.init_process_group(backend="nccl")')
    world = fact(plan, "dist.world_size")
    assert world is None or world.value != 1, world


def test_twin_local_rank_default_not_minus_one_is_not_concluded(cli, tmp_path):
    plan = _rank(cli, tmp_path, default="0")
    world = fact(plan, "dist.world_size")
    assert world is None or world.value != 1, world


# ViT-pytorch utils/data_utils.py:51-60: the test loader (``args.eval_batch_size``) beside the training loader
_VIT_DATA_TWO = """\
    from torch.utils.data import DataLoader, RandomSampler, SequentialSampler


    def get_loader(args):
        trainset = list(range(100))
        testset = list(range(10))
        train_loader = DataLoader(trainset, sampler=RandomSampler(trainset), batch_size=args.train_batch_size,
                                  num_workers=4, pin_memory=True)
        test_loader = DataLoader(testset, sampler=SequentialSampler(testset), batch_size=args.{other},
                                 num_workers=4, pin_memory=True)
        return train_loader
"""


def _vit_two(cli, tmp_path, other: str, *launch: str) -> dict:
    train = _VIT_TRAIN.replace("{rewrite}", _DIVIDE).replace(
        '    parser.add_argument("--gradient_accumulation_steps"',
        f'    parser.add_argument("--{other}", default=64, type=int)\n'
        '        parser.add_argument("--gradient_accumulation_steps"')
    write(tmp_path, {"train.py": train, "utils/__init__.py": "",
                     "utils/data_utils.py": _VIT_DATA_TWO.replace("{other}", other)})
    return plan_of(cli, "train.py", "--", *launch, cwd=tmp_path)


def test_training_loader_wins_over_the_evaluation_loader(cli, tmp_path):
    plan = _vit_two(cli, tmp_path, "eval_batch_size")
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == 512 and micro.source.key == "args.train_batch_size", micro


def test_twin_two_training_shaped_loaders_that_disagree_stay_unknown(cli, tmp_path):
    plan = _vit_two(cli, tmp_path, "aux_batch_size")
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value not in (512, 64), micro


# melgan's config/default.yaml (seungwonpark/melgan @ aca5990): five documents with disjoint top-level keys, read by
# utils/hparams.py:16-23 with ``yaml.load_all`` into one dict
_MELGAN_YAML = """\
data:
  train: ''
---
train:
  num_workers: 32
  batch_size: 16
  optimizer: 'adam'
---
audio:
  n_mel_channels: 80
"""


def test_yaml_documents_with_disjoint_keys_read_as_one_mapping():
    from preflight.loaders import LoadedConfig, load_config_text

    cfg = load_config_text(_MELGAN_YAML, "yaml", "default.yaml")
    assert isinstance(cfg, LoadedConfig)
    assert cfg.data == {"data": {"train": ""}, "train": {"num_workers": 32, "batch_size": 16, "optimizer": "adam"},
                        "audio": {"n_mel_channels": 80}}
    assert cfg.line_of(("train", "batch_size")) == 6 and cfg.line_of(("audio", "n_mel_channels")) == 10
    assert any("3 YAML documents" in n and "one mapping" in n for n in cfg.notes), cfg.notes


def test_twin_yaml_documents_sharing_keys_read_the_first_only():
    # Kubernetes manifests: every document has kind/metadata; merging them would mix resources
    from preflight.loaders import LoadedConfig, load_config_text

    text = "kind: ConfigMap\nmetadata: {name: a}\n---\nkind: Job\nmetadata: {name: b}\n"
    cfg = load_config_text(text, "yaml", "m.yaml")
    assert isinstance(cfg, LoadedConfig) and cfg.data == {"kind": "ConfigMap", "metadata": {"name": "a"}}
    assert any("reads the first" in n for n in cfg.notes), cfg.notes
    listed = load_config_text("- 1\n---\nb: 2\n", "yaml", "l.yaml")
    assert isinstance(listed, LoadedConfig) and listed.data == [1]


_MELGAN_HPARAMS = """\
    import yaml


    def load_hparam(filename):
        stream = open(filename, 'r')
        docs = yaml.load_all(stream, Loader=yaml.Loader)
        hparam_dict = dict()
        for doc in docs:
            for k, v in doc.items():
                hparam_dict[k] = v
        return hparam_dict


    class Dotdict(dict):
        __getattr__ = dict.__getitem__
        __setattr__ = dict.__setitem__

        def __init__(self, dct=None):
            dct = dict() if not dct else dct
            for key, value in dct.items():
                if hasattr(value, 'keys'):
                    value = Dotdict(value)
                self[key] = value


    class HParam(Dotdict):

        def __init__(self, file):
            super(Dotdict, self).__init__()
            hp_dict = {loader}
            hp_dotdict = Dotdict(hp_dict)
            for k, v in hp_dotdict.items():
                setattr(self, k, v)

        __getattr__ = Dotdict.__getitem__
        __setattr__ = Dotdict.__setitem__
"""
_MELGAN_TRAINER = """\
    import argparse

    import torch
    from torch.utils.data import DataLoader

    from utils.hparams import HParam

    if __name__ == '__main__':
        parser = argparse.ArgumentParser()
        parser.add_argument('-c', '--config', type=str, required=True)
        args = parser.parse_args()
        hp = HParam(args.config)
        loader = DataLoader(list(range(64)), batch_size=hp.train.batch_size, shuffle=True,
                            num_workers=hp.train.num_workers, pin_memory=True)
        model = torch.nn.Linear(4, 4)
        optim = torch.optim.Adam(model.parameters())
        for x in loader:
            optim.zero_grad()
            model(x).sum().backward()
            optim.step()
"""


def _melgan(cli, tmp_path, loader: str = "load_hparam(file)") -> dict:
    write(tmp_path, {"utils/__init__.py": "", "utils/hparams.py": _MELGAN_HPARAMS.replace("{loader}", loader),
                     "trainer.py": _MELGAN_TRAINER})
    (tmp_path / "config").mkdir()
    (tmp_path / "config/default.yaml").write_text(_MELGAN_YAML)
    return plan_of(cli, "trainer.py", "--", "-c", "config/default.yaml", cwd=tmp_path)


def test_config_class_loading_through_a_helper_over_yaml_documents(cli, tmp_path):
    plan = _melgan(cli, tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == 16, micro
    assert micro.source.path == "config/default.yaml" and micro.source.line == 6, micro.source
    assert fact(plan, "data.num_workers").value == 32


def test_twin_helper_that_reads_no_file_is_not_the_config(cli, tmp_path):
    plan = _melgan(cli, tmp_path, loader="dict(train=dict(batch_size=3))")
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 16, micro


# pytorch_sac's Hydra 0.11 app (denisyarats/pytorch_sac @ 81c5b53 train.py:152, config/train.yaml,
# config/agent/sac.yaml): config_path names the primary file, the group file's ``agent:`` merges at the top level,
# and the primary config's ``hydra: name:`` is a key hydra-core 1.x no longer has
_SAC_TRAIN_YAML = """\
defaults:
    - agent: sac

env: cheetah_run
device: cuda

hydra:
    name: ${env}
"""
_SAC_AGENT_YAML = """\
agent:
  name: sac
  params:
    batch_size: 1024
    num_workers: 2
"""
_SAC_SCRIPT = """\
    import hydra
    import torch
    from torch.utils.data import DataLoader


    @hydra.main({main})
    def main(cfg):
        loader = DataLoader(list(range(64)), batch_size=cfg.agent.params.batch_size,
                            num_workers=cfg.agent.params.num_workers)
        model = torch.nn.Linear(4, 4)
        optimizer = torch.optim.Adam(model.parameters())
        for x in loader:
            optimizer.zero_grad()
            model(x).sum().backward()
            optimizer.step()


    if __name__ == '__main__':
        main()
"""


def _sac(cli, tmp_path, main: str, *launch: str) -> dict:
    write(tmp_path, {"train.py": _SAC_SCRIPT.replace("{main}", main)})
    (tmp_path / "config/agent").mkdir(parents=True)
    (tmp_path / "config/train.yaml").write_text(_SAC_TRAIN_YAML)
    (tmp_path / "config/agent/sac.yaml").write_text(_SAC_AGENT_YAML)
    return plan_of(cli, "train.py", "--", *launch, cwd=tmp_path)


def test_hydra_0_11_app_composes_group_files_at_the_top_level(cli, tmp_path):
    plan = _sac(cli, tmp_path, "config_path='config/train.yaml', strict=True", "env=cheetah_run")
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == 1024, micro
    assert micro.source.path == "config/agent/sac.yaml" and micro.source.line == 4, micro.source
    assert any("before 1.0" in n for n in plan["notes"]), plan["notes"]


def test_twin_hydra_1_app_keeps_the_group_package(cli, tmp_path):
    # Hydra >= 1.1: ``agent/sac.yaml`` sits under ``agent``, so cfg.agent.params does not exist (agent.agent.params);
    # the primary config's stale ``hydra.name`` no longer stops the audit (exit 3)
    plan = _sac(cli, tmp_path, "config_path='config', config_name='train', version_base='1.1'", "env=cheetah_run")
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 1024, micro


# Chinese-CLIP's loader builder (OFA-Sys/Chinese-CLIP @ 31863c7 cn_clip/training/data.py:140-200): one function
# builds the training and the validation loader, the split chosen by a boolean parameter
_CLIP_DATA = """\
    from torch.utils.data import DataLoader


    def get_dataset(args, {param}, epoch_id=0):
        dataset = list(range(100))
        batch_size = args.batch_size if {param} else args.valid_batch_size
        return DataLoader(dataset, batch_size=batch_size, pin_memory=False,
                          num_workers=args.num_workers if {param} else args.valid_num_workers)


    def get_data(args, epoch_id=0):
        data = {}
        data["train"] = get_dataset(args, {param}={first}, epoch_id=epoch_id)
        data["val"] = get_dataset(args, {param}=False, epoch_id=epoch_id)
        return data
"""
_CLIP_MAIN = """\
    import argparse

    import torch
    from data import get_data


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--batch-size", type=int, default=64)
        parser.add_argument("--valid-batch-size", type=int, default=64)
        parser.add_argument("--num-workers", type=int, default=4)
        parser.add_argument("--valid-num-workers", type=int, default=1)
        args = parser.parse_args()
        data = get_data(args)
        model = torch.nn.Linear(4, 4)
        optimizer = torch.optim.AdamW(model.parameters())
        for x in data["train"]:
            optimizer.zero_grad()
            model(x).sum().backward()
            optimizer.step()


    if __name__ == "__main__":
        main()
"""


def _clip(cli, tmp_path, param: str = "is_train", first: str = "True") -> dict:
    write(tmp_path, {"data.py": _CLIP_DATA.replace("{param}", param).replace("{first}", first),
                     "main.py": _CLIP_MAIN})
    return plan_of(cli, "main.py", "--", "--batch-size=96", "--valid-batch-size=8", cwd=tmp_path)


def test_loader_builder_split_by_a_boolean_takes_the_training_arm(cli, tmp_path):
    plan = _clip(cli, tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == 96 and micro.source.key == "--batch-size", micro
    workers = fact(plan, "data.num_workers")
    assert workers is not None and workers.value == 4, workers


def test_twin_split_parameter_not_named_for_training_stays_unknown(cli, tmp_path):
    plan = _clip(cli, tmp_path, param="flag")
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value not in (96, 8), micro


def test_twin_split_passed_a_run_time_value_stays_unknown(cli, tmp_path):
    plan = _clip(cli, tmp_path, first="args.batch_size > 0")
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value not in (96, 8), micro


# CURL's replay buffer (MishaLaskin/curl @ 8416d6e train.py:204-211, utils.py:70-128): the buffer is built with
# the batch it samples per update
_CURL = """\
    import argparse

    import numpy as np
    import torch


    class {cls}:
        def __init__(self, capacity, batch_size, device):
            self.capacity = capacity
            self.batch_size = batch_size
            self.obses = np.zeros((capacity, 4), dtype=np.float32)

        def sample(self):
            idxs = np.random.randint(0, self.capacity, size=self.batch_size)
            return torch.as_tensor(self.obses[idxs])


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--batch_size", type=int, default=32)
        args = parser.parse_args()
        buffer = {cls}(capacity=1000, batch_size=args.batch_size, device="cuda")
        model = torch.nn.Linear(4, 4)
        optimizer = torch.optim.Adam(model.parameters())
        for step in range(100):
            obs = buffer.sample()
            optimizer.zero_grad()
            model(obs).sum().backward()
            optimizer.step()


    if __name__ == "__main__":
        main()
"""


def test_replay_buffer_batch_is_the_micro_batch(cli, tmp_path):
    write(tmp_path, {"train.py": _CURL.replace("{cls}", "ReplayBuffer")})
    plan = plan_of(cli, "train.py", "--", "python", "train.py", "--batch_size", "128", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == 128 and micro.source.key == "--batch_size", micro


def test_twin_other_class_with_a_batch_keyword_is_not_read(cli, tmp_path):
    write(tmp_path, {"train.py": _CURL.replace("{cls}", "Prefetcher")})
    plan = plan_of(cli, "train.py", "--", "python", "train.py", "--batch_size", "128", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 128, micro
