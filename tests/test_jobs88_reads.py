"""Readings added by jobs88 for held-out-40 misses, each with a silent twin. Fixtures of our own in the shapes of
OpenGVLab/VideoMAEv2 (``optim_factory.py:103-148``: timm's ``create_optimizer`` copied with its signature
wrapped after ``args,``), xinyu1205/recognize-anything (``finetune.py:191`` ``create_loader(datasets, samplers,
batch_size=[config['batch_size']], num_workers=[4], is_trains=[True], collate_fns=[None])[0]`` over BLIP's
``ram/data/__init__.py:50-68`` zip loop) and Rudrabha/Wav2Lip (``hparams.py:15-82`` a module-level
``hparams = HParams(batch_size=16, num_workers=16, ...)``, ``hq_wav2lip_train.py:19,404-406``)."""

from __future__ import annotations

from plan_helpers import plan_of, write

from preflight.plan import TrainingPlan


def _facts(plan: dict, field: str, adapter: str = "") -> list:
    return [f for f in TrainingPlan.from_dict(plan).facts(field) if not adapter or f.adapter == adapter]


def _values(plan: dict, field: str) -> list:
    return [f.value for f in _facts(plan, field)]


TIMM_WRAPPED = {
    "main.py": """\
        import argparse

        import torch

        from optim_factory import create_optimizer

        parser = argparse.ArgumentParser()
        parser.add_argument("--opt", default="adamw", type=str)
        args = parser.parse_args()
        model = torch.nn.Linear(4, 4)
        optimizer = create_optimizer(args, model)
        for x in range(3):
            loss = model(torch.randn(2, 4)).sum()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
    """,
    "optim_factory.py": """\
        import torch.optim as optim


        def create_optimizer(args,
                             model,
                             get_num_layer=None,
                             filter_bias_and_bn=True):
            opt_lower = args.opt.lower()
            parameters = model.parameters()
            opt_split = opt_lower.split('_')
            opt_lower = opt_split[-1]
            if opt_lower == 'sgd':
                optimizer = optim.SGD(parameters, lr=0.1)
            elif opt_lower == 'adamw':
                optimizer = optim.AdamW(parameters, lr=1e-3)
            return optimizer
    """,
}


def test_timm_copy_with_a_wrapped_signature(cli, tmp_path):
    write(tmp_path, TIMM_WRAPPED)
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    assert _values(plan, "optimizer.name")[:1] == ["adamw"]
    plan = plan_of(cli, "main.py", "--", "--opt", "sgd", cwd=tmp_path)
    assert _values(plan, "optimizer.name")[:1] == ["sgd"]


def test_wrapped_factory_that_reads_another_option_is_not_timms(cli, tmp_path):
    """Silent twin: the factory reads ``args.optimizer``, not ``args.opt``: no name from ``--opt``."""
    factory = TIMM_WRAPPED["optim_factory.py"].replace("args.opt.lower()", "args.optimizer.lower()")
    write(tmp_path, {**TIMM_WRAPPED, "optim_factory.py": factory})
    plan = plan_of(cli, "main.py", "--", "--opt", "sgd", cwd=tmp_path)
    assert "sgd" not in _values(plan, "optimizer.name")


BLIP_LOADER = {
    "finetune.py": """\
        import argparse

        import torch
        import yaml

        from data import create_dataset, create_loader


        def main(args, config):
            datasets = [create_dataset(config)]
            samplers = [None]
            data_loader = create_loader(datasets, samplers, batch_size=[config['batch_size']], num_workers=[4],
                                        is_trains=[True], collate_fns=[None])[0]
            model = torch.nn.Linear(4, 4)
            optimizer = torch.optim.AdamW(model.parameters(), lr=config['lr'])
            for image in data_loader:
                loss = model(image).sum()
                loss.backward()
                optimizer.step()


        if __name__ == '__main__':
            parser = argparse.ArgumentParser()
            parser.add_argument('--config', default='configs/finetune.yaml')
            args = parser.parse_args()
            config = yaml.load(open(args.config, 'r'), Loader=yaml.Loader)
            main(args, config)
    """,
    "data/__init__.py": """\
        from torch.utils.data import DataLoader


        def create_dataset(config):
            return []


        def create_loader(datasets, samplers, batch_size, num_workers, is_trains, collate_fns):
            loaders = []
            for dataset, sampler, bs, n_worker, is_train, collate_fn in zip(datasets, samplers, batch_size,
                                                                              num_workers, is_trains, collate_fns):
                if is_train:
                    shuffle = (sampler is None)
                    drop_last = True
                else:
                    shuffle = False
                    drop_last = False
                loader = DataLoader(dataset, batch_size=bs, num_workers=n_worker, pin_memory=True,
                                    sampler=sampler, shuffle=shuffle, collate_fn=collate_fn, drop_last=drop_last)
                loaders.append(loader)
            return loaders
    """,
    "configs/finetune.yaml": "batch_size: 26\nlr: 0.0001\n",
}


def test_blip_create_loader_zips_the_training_batch_and_workers(cli, tmp_path):
    write(tmp_path, BLIP_LOADER)
    plan = plan_of(cli, "finetune.py", cwd=tmp_path)
    assert _values(plan, "batch.micro")[:1] == [26]
    assert _values(plan, "data.num_workers")[:1] == [4]


def test_blip_create_loader_picks_the_training_position(cli, tmp_path):
    """BLIP's own call: ``batch_size=[config['batch_size_train']] + [config['batch_size_test']] * 2`` with
    ``is_trains=[True, False, False]``: the training element, not the test one."""
    script = BLIP_LOADER["finetune.py"].replace(
        "batch_size=[config['batch_size']], num_workers=[4],\n                                        is_trains=[True], "
        "collate_fns=[None])[0]",
        "batch_size=[config['batch_size']] + [config['batch_size_test']] * 2,\n"
        "                                        num_workers=[4, 2, 2], is_trains=[True, False, False], "
        "collate_fns=[None, None, None])[0]")
    assert script != BLIP_LOADER["finetune.py"]
    write(tmp_path, {**BLIP_LOADER, "finetune.py": script, "configs/finetune.yaml": "batch_size: 26\nbatch_size_test: 64\n"})
    plan = plan_of(cli, "finetune.py", cwd=tmp_path)
    assert _values(plan, "batch.micro")[:1] == [26]
    assert 64 not in _values(plan, "batch.micro")
    assert _values(plan, "data.num_workers")[:1] == [4]


def test_zipped_lists_without_one_training_position_stay_unknown(cli, tmp_path):
    """Silent twin: two positions flagged for training (which loader trains is not one): no batch, no workers
    from the lists."""
    script = BLIP_LOADER["finetune.py"].replace(
        "batch_size=[config['batch_size']], num_workers=[4],\n                                        is_trains=[True], "
        "collate_fns=[None])[0]",
        "batch_size=[config['batch_size'], config['batch_size_test']],\n"
        "                                        num_workers=[4, 2], is_trains=[True, True], "
        "collate_fns=[None, None])[0]")
    assert script != BLIP_LOADER["finetune.py"]
    write(tmp_path, {**BLIP_LOADER, "finetune.py": script, "configs/finetune.yaml": "batch_size: 26\nbatch_size_test: 64\n"})
    plan = plan_of(cli, "finetune.py", cwd=tmp_path)
    assert 26 not in _values(plan, "batch.micro") and 64 not in _values(plan, "batch.micro")
    assert 4 not in _values(plan, "data.num_workers")


WAV2LIP = {
    "train.py": """\
        import argparse

        import torch
        from torch.utils import data as data_utils

        from hparams import hparams


        class Dataset(object):
            def __len__(self):
                return 10


        def train(model, loader, optimizer):
            for x in loader:
                loss = model(x).sum()
                loss.backward()
                optimizer.step()


        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--data_root", required=True)
            args = parser.parse_args()
            train_data_loader = data_utils.DataLoader(
                Dataset(), batch_size=hparams.batch_size, shuffle=True,
                num_workers=hparams.num_workers)
            model = torch.nn.Linear(4, 4).cuda()
            optimizer = torch.optim.Adam(model.parameters(), lr=hparams.initial_learning_rate)
            train(model, train_data_loader, optimizer)
    """,
    "hparams.py": """\
        class HParams:
            def __init__(self, **kwargs):
                self.data = {}

                for key, value in kwargs.items():
                    self.data[key] = value

            def __getattr__(self, key):
                if key not in self.data:
                    raise AttributeError("'HParams' object has no attribute %s" % key)
                return self.data[key]


        hparams = HParams(
            num_mels=80,
            img_size=96,
            batch_size=16,
            initial_learning_rate=1e-4,
            num_workers=12,
        )
    """,
}


def test_module_level_hparams_object_imported_by_the_entry(cli, tmp_path):
    write(tmp_path, WAV2LIP)
    plan = plan_of(cli, "train.py", "--", "--data_root", "d", cwd=tmp_path)
    micro = _facts(plan, "batch.micro")
    assert [f.value for f in micro][:1] == [16]
    assert micro[0].source.path == "hparams.py"
    assert _values(plan, "data.num_workers")[:1] == [12]


def test_hparams_class_with_named_parameters_or_rebound_stays_unknown(cli, tmp_path):
    """Silent twins: a class that does not keep its keywords as keys (named parameters), and an object bound
    twice in its module: no batch from it."""
    named = WAV2LIP["hparams.py"].replace("def __init__(self, **kwargs):", "def __init__(self, batch_size=1, **kwargs):")
    write(tmp_path, {**WAV2LIP, "hparams.py": named})
    plan = plan_of(cli, "train.py", "--", "--data_root", "d", cwd=tmp_path)
    assert 16 not in _values(plan, "batch.micro")
    twice = WAV2LIP["hparams.py"] + "\n\nhparams = HParams(batch_size=32)\n"
    write(tmp_path, {**WAV2LIP, "hparams.py": twice})
    plan = plan_of(cli, "train.py", "--", "--data_root", "d", cwd=tmp_path)
    assert 16 not in _values(plan, "batch.micro") and 32 not in _values(plan, "batch.micro")


SCRIPT_OPTIM = {
    "train_rm.py": """\
        from dataclasses import dataclass, field
        from typing import Optional

        from transformers import AutoModelForSequenceClassification, HfArgumentParser, Trainer, TrainingArguments


        @dataclass
        class ScriptArguments:
            per_device_train_batch_size: Optional[int] = field(default=1)
            model_name: Optional[str] = field(default="gpt2")
            optim: Optional[str] = field(default="paged_adamw_32bit", metadata={"help": "The optimizer to use."})


        parser = HfArgumentParser(ScriptArguments)
        script_args = parser.parse_args_into_dataclasses()[0]
        training_args = TrainingArguments(
            output_dir="out",
            per_device_train_batch_size=script_args.per_device_train_batch_size,
            optim=script_args.optim,
            report_to="none",
        )
        model = AutoModelForSequenceClassification.from_pretrained(script_args.model_name, num_labels=1)
        trainer = Trainer(model=model, args=training_args)
        trainer.train()
    """,
}


def test_script_dataclass_optim_handed_to_training_arguments(cli, tmp_path):
    write(tmp_path, SCRIPT_OPTIM)
    plan = plan_of(cli, "train_rm.py", cwd=tmp_path)
    assert _values(plan, "optimizer.name")[:1] == ["paged_adamw_32bit"]


def test_script_dataclass_optim_not_handed_on_stays_unknown(cli, tmp_path):
    """Silent twin: the dataclass declares ``optim`` but the TrainingArguments never take it (the Trainer's own
    default applies, not the field's)."""
    script = SCRIPT_OPTIM["train_rm.py"].replace("            optim=script_args.optim,\n", "")
    write(tmp_path, {"train_rm.py": script})
    plan = plan_of(cli, "train_rm.py", cwd=tmp_path)
    assert "paged_adamw_32bit" not in _values(plan, "optimizer.name")
