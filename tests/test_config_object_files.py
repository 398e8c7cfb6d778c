"""A YAML/JSON config loaded into a plain dict or an OmegaConf object and handed on
(adapters/config_object_files.py, read by adapters/config_object_reads.py). Fixtures of our own
copying real shapes, each citing repository, path and commit; each with a silent twin."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

from tests.test_config_object import ours

# salesforce/BLIP @ 056a169437371659074aa2732649d5de3bffb4a8: train_caption.py:95-122,184-206
# (config = yaml.load(open(args.config, 'r'), Loader=yaml.Loader); main(args, config);
# create_loader(..., batch_size=[config['batch_size']]*3); blip_decoder(vit_grad_ckpt=...);
# model.generate(..., max_length=config['max_length'])), data/__init__.py:82-98,
# configs/caption_coco.yaml:9-24.
BLIP = {
    "train_caption.py": """\
        import argparse
        import ruamel_yaml as yaml
        import torch
        from data import create_loader
        from models.blip import blip_decoder

        def evaluate(model, loader, config):
            for image in loader:
                captions = model.generate(image, max_length=config['max_length'])

        def main(args, config):
            train_loader, val_loader = create_loader([1, 2], [None, None],
                                                     batch_size=[config['batch_size']]*2, num_workers=[4, 4])
            model = blip_decoder(image_size=config['image_size'], vit_grad_ckpt=config['vit_grad_ckpt'])
            optimizer = torch.optim.AdamW(params=model.parameters(), lr=config['init_lr'])
            for image, caption in train_loader:
                loss = model(image, caption)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            evaluate(model, val_loader, config)

        if __name__ == '__main__':
            parser = argparse.ArgumentParser()
            parser.add_argument('--config', default='./configs/caption_coco.yaml')
            args = parser.parse_args()
            config = yaml.load(open(args.config, 'r'), Loader=yaml.Loader)
            main(args, config)
    """,
    "data/__init__.py": """\
        from torch.utils.data import DataLoader

        def create_loader(datasets, samplers, batch_size, num_workers):
            loaders = []
            for dataset, sampler, bs, n_worker in zip(datasets, samplers, batch_size, num_workers):
                loaders.append(DataLoader(dataset, batch_size=bs, num_workers=n_worker, pin_memory=True))
            return loaders
    """,
    "models/__init__.py": "",
    "models/blip.py": """\
        def blip_decoder(image_size=224, vit_grad_ckpt=False, **kwargs):
            return None
    """,
    "configs/caption_coco.yaml": """\
        vit: 'base'
        vit_grad_ckpt: False
        batch_size: 32
        init_lr: 1e-5
        image_size: 384
        max_length: 20
    """,
    "configs/large.yaml": """\
        vit: 'large'
        vit_grad_ckpt: True
        batch_size: 16
        image_size: 384
    """,
}


def test_blip_yaml_dict_read_where_the_code_uses_it(cli, tmp_path):
    write(tmp_path, BLIP)
    plan = plan_of(cli, "train_caption.py", cwd=tmp_path)
    micro = ours(plan, "batch.micro")
    assert micro is not None and micro.value == 32
    assert (micro.source.path, micro.source.line) == ("configs/caption_coco.yaml", 3)
    assert ours(plan, "memory.gradient_checkpointing").value is False
    size = ours(plan, "data.image_size")
    assert size.value == 384 and size.source.line == 5
    # the caption length given to generate() at evaluation is no training sequence length
    assert ours(plan, "data.seq_len") is None


def test_blip_config_named_on_the_launch_line(cli, tmp_path):
    write(tmp_path, BLIP)
    plan = plan_of(cli, "train_caption.py", "--", "--config", "configs/large.yaml", cwd=tmp_path)
    assert ours(plan, "batch.micro").value == 16
    assert ours(plan, "memory.gradient_checkpointing").value is True


def test_config_path_not_known_stays_unknown(cli, tmp_path):
    files = dict(BLIP)
    files["train_caption.py"] = files["train_caption.py"].replace(
        "yaml.load(open(args.config, 'r')", "yaml.load(open(os.environ['CFG'], 'r')")
    write(tmp_path, files)
    plan = plan_of(cli, "train_caption.py", cwd=tmp_path)
    assert ours(plan, "batch.micro") is None
    assert ours(plan, "data.image_size") is None


def test_missing_config_file_stays_unknown(cli, tmp_path):
    files = {k: v for k, v in BLIP.items() if k != "configs/caption_coco.yaml"}
    write(tmp_path, files)
    plan = plan_of(cli, "train_caption.py", cwd=tmp_path)
    assert ours(plan, "batch.micro") is None


# Vchitect/Latte @ b27c24a17487e3c33ae4e92364521303d0f14845: train.py:47-150,280-285
# (main(OmegaConf.load(args.config)); if args.use_compile: model = torch.compile(model);
# AutoencoderKL.from_pretrained(args.pretrained_model_path, subfolder="vae");
# DataLoader(batch_size=int(args.local_batch_size), num_workers=args.num_workers)),
# models/__init__.py:36-45 (if 'LatteT2V' in args.model: LatteT2V.from_pretrained(...)),
# datasets/video_transforms.py (a transform that stores self.size = (size, size)),
# configs/ffs/ffs_train.yaml.
LATTE = {
    "train.py": """\
        import argparse
        import torch
        from omegaconf import OmegaConf
        from torch.utils.data import DataLoader
        from diffusers.models import AutoencoderKL
        from models import get_models
        from transforms import CenterCrop

        def main(args):
            assert args.image_size % 8 == 0
            vae = AutoencoderKL.from_pretrained(args.pretrained_model_path, subfolder="vae")
            model = get_models(args)
            if args.use_compile:
                model = torch.compile(model)
            crop = CenterCrop(args.image_size)
            opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
            loader = DataLoader([], batch_size=int(args.local_batch_size), num_workers=args.num_workers)
            for step, x in enumerate(loader):
                loss = model(x).mean() / args.gradient_accumulation_steps
                loss.backward()
                if step % args.gradient_accumulation_steps == 0:
                    opt.step()
                    opt.zero_grad()

        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--config", type=str, default="./configs/train.yaml")
            args = parser.parse_args()
            main(OmegaConf.load(args.config))
    """,
    "models/__init__.py": """\
        from .latte_t2v import LatteT2V

        def get_models(args):
            if 'LatteT2V' in args.model:
                return LatteT2V.from_pretrained(args.pretrained_model_path, subfolder="transformer")
            return None
    """,
    "models/latte_t2v.py": """\
        class LatteT2V:
            pass
    """,
    "transforms.py": """\
        class CenterCrop:
            def __init__(self, size):
                if isinstance(size, int):
                    self.size = (size, size)
                else:
                    self.size = size
    """,
    "configs/ffs/ffs_train.yaml": """\
        pretrained_model_path: "/path/to/pretrained/Latte/"
        model: Latte-XL/2
        image_size: 256
        local_batch_size: 5
        num_workers: 8
        gradient_accumulation_steps: 1
        use_compile: False
    """,
}


def test_latte_omegaconf_handed_to_main(cli, tmp_path):
    write(tmp_path, LATTE)
    plan = plan_of(cli, "train.py", "--", "--config", "./configs/ffs/ffs_train.yaml", cwd=tmp_path)
    assert ours(plan, "batch.micro").value == 5
    assert ours(plan, "data.num_workers").value == 8
    assert ours(plan, "batch.grad_accum").value == 1
    # a transform storing self.size = (size, size) does not unset the key it was given
    assert ours(plan, "data.image_size").value == 256
    compiled = fact(plan, "compile.enabled")
    assert compiled.value is False and compiled.adapter == "value_flow"
    assert (compiled.source.path, compiled.source.line) == ("configs/ffs/ffs_train.yaml", 7)
    # the VAE's path and a from_pretrained under a guard the model name decides false are no model
    assert ours(plan, "model.ref") is None


def test_latte_compile_on_in_the_yaml(cli, tmp_path):
    files = dict(LATTE)
    files["configs/ffs/ffs_train.yaml"] = files["configs/ffs/ffs_train.yaml"].replace(
        "use_compile: False", "use_compile: True")
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", "--", "--config", "./configs/ffs/ffs_train.yaml", cwd=tmp_path)
    assert fact(plan, "compile.enabled").value is True


def test_latte_the_t2v_model_is_read_when_the_yaml_names_it(cli, tmp_path):
    files = dict(LATTE)
    files["configs/ffs/ffs_train.yaml"] = files["configs/ffs/ffs_train.yaml"].replace(
        "model: Latte-XL/2", "model: LatteT2V")
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", "--", "--config", "./configs/ffs/ffs_train.yaml", cwd=tmp_path)
    assert ours(plan, "model.ref").value == "/path/to/pretrained/Latte/"


def test_compile_guard_on_an_undeclared_key_stays_unknown(cli, tmp_path):
    files = dict(LATTE)
    files["configs/ffs/ffs_train.yaml"] = files["configs/ffs/ffs_train.yaml"].replace("use_compile: False\n", "")
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", "--", "--config", "./configs/ffs/ffs_train.yaml", cwd=tmp_path)
    assert ours(plan, "compile.enabled") is None


# the common spelling: with open(args.config) as f: config = yaml.safe_load(f)
WITH_OPEN = {
    "train.py": """\
        import argparse
        import yaml
        import torch
        from torch.utils.data import DataLoader

        parser = argparse.ArgumentParser()
        parser.add_argument("--config", default="config.yaml")
        args = parser.parse_args()
        with open(args.config) as f:
            config = yaml.safe_load(f)
        model = torch.nn.Linear(4, 4)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        loader = DataLoader([], batch_size=config["train"]["batch_size"], num_workers=config["train"]["workers"])
        for x in loader:
            model(x).sum().backward()
            opt.step()
    """,
    "config.yaml": "train:\n  batch_size: 64\n  workers: 3\n",
}


def test_with_open_safe_load(cli, tmp_path):
    write(tmp_path, WITH_OPEN)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert ours(plan, "batch.micro").value == 64
    assert ours(plan, "data.num_workers").value == 3


def test_with_open_interpolated_value_stays_unknown(cli, tmp_path):
    files = dict(WITH_OPEN)
    files["config.yaml"] = "train:\n  batch_size: ${oc.env:BS}\n  workers: 3\n"
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert ours(plan, "batch.micro") is None
    assert ours(plan, "data.num_workers").value == 3




# allenai/OLMo @ 59a53e3f68e546330ca5a99ec626e58f9ab96494: scripts/train.py:54,140-150,163-225,419-437
# (try: yaml_path, args_list = sys.argv[1], sys.argv[2:]; cfg = TrainConfig.load(yaml_path, [...]);
# device-guarded cfg.distributed_strategy = "single"; if/elif on cfg.distributed_strategy ==
# DistributedStrategy.ddp / .fsdp; FSDP(sharding_strategy=cfg.fsdp.sharding_strategy);
# olmo_model.set_activation_checkpointing(cfg.activation_checkpointing); if cfg.compile is not None),
# olmo/config.py:741-750,844-850,948,1219-1229,1294 (StrEnum members, dataclass defaults).
OLMO = {
    "scripts/train.py": """\
        import sys
        import torch
        from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
        from torch.nn.parallel import DistributedDataParallel as DDP
        from olmo.config import DistributedStrategy, TrainConfig
        from olmo.model import OLMo

        def main(cfg: TrainConfig) -> None:
            olmo_model = OLMo(cfg.model)
            if cfg.compile is not None:
                for block in olmo_model.blocks:
                    block.compile(**cfg.compile.asdict())
            olmo_model.set_activation_checkpointing(cfg.activation_checkpointing)
            if cfg.distributed_strategy == DistributedStrategy.ddp:
                dist_model = DDP(olmo_model)
            elif cfg.distributed_strategy == DistributedStrategy.fsdp:
                dist_model = FSDP(olmo_model, sharding_strategy=cfg.fsdp.sharding_strategy)
            opt = torch.optim.AdamW(dist_model.parameters())
            for batch in range(10):
                loss = dist_model(batch, max_len=cfg.model.max_sequence_length)
                loss.backward()
                opt.step()

        if __name__ == "__main__":
            try:
                yaml_path, args_list = sys.argv[1], sys.argv[2:]
            except IndexError:
                raise SystemExit(1)
            cfg = TrainConfig.load(yaml_path, [s for s in args_list])
            if torch.backends.mps.is_available():
                cfg.distributed_strategy = "single"
            if not torch.cuda.is_available() and not torch.backends.mps.is_available():
                cfg.distributed_strategy = "single"
            main(cfg)
    """,
    "olmo/__init__.py": "",
    "olmo/model.py": """\
        class OLMo:
            def set_activation_checkpointing(self, strategy):
                pass
    """,
    "olmo/config.py": """\
        from dataclasses import dataclass, field
        from enum import Enum
        from typing import Optional
        from torch.distributed.fsdp import ShardingStrategy

        class StrEnum(str, Enum):
            pass

        class DistributedStrategy(StrEnum):
            ddp = "ddp"
            fsdp = "fsdp"
            single = "single"

        @dataclass
        class ModelConfig:
            d_model: int = 768
            max_sequence_length: int = 1024

        @dataclass
        class FSDPConfig:
            use_orig_params: bool = True
            sharding_strategy: ShardingStrategy = ShardingStrategy.FULL_SHARD

        @dataclass
        class TrainConfig:
            model: ModelConfig = field(default_factory=ModelConfig)
            compile: Optional[dict] = None
            distributed_strategy: Optional[DistributedStrategy] = DistributedStrategy.fsdp
            fsdp: Optional[FSDPConfig] = field(default_factory=FSDPConfig)
            activation_checkpointing: Optional[str] = None

            @classmethod
            def load(cls, path, overrides=None):
                raise NotImplementedError
    """,
    "configs/OLMo-1B.yaml": """\
        model:
          d_model: 2048
          max_sequence_length: 2048
        compile: null
        fsdp:
          precision: mixed
    """,
}


def test_olmo_class_loaded_from_yaml_decides_the_strategy_by_its_default(cli, tmp_path):
    write(tmp_path, OLMO)
    plan = plan_of(cli, "scripts/train.py", "--", "configs/OLMo-1B.yaml", cwd=tmp_path)
    sharding = fact(plan, "dist.sharding")
    assert sharding.value == "fsdp_full" and sharding.adapter == "value_flow"
    assert (sharding.source.path, sharding.source.line) == ("olmo/config.py", 22)
    seq = ours(plan, "data.seq_len")
    assert (seq.value, seq.source.path, seq.source.line) == (2048, "configs/OLMo-1B.yaml", 3)
    assert ours(plan, "memory.gradient_checkpointing").value is False
    assert fact(plan, "compile.enabled").value is False


def test_olmo_strategy_set_in_the_yaml(cli, tmp_path):
    files = dict(OLMO)
    files["configs/OLMo-1B.yaml"] = files["configs/OLMo-1B.yaml"].replace(
        "compile: null", "compile: null\n        distributed_strategy: ddp")
    write(tmp_path, files)
    plan = plan_of(cli, "scripts/train.py", "--", "configs/OLMo-1B.yaml", cwd=tmp_path)
    assert fact(plan, "dist.sharding").value == "ddp"


def test_olmo_undecided_strategy_takes_no_arm(cli, tmp_path):
    # the YAML is not given: no value decides the if/elif, and its first arm (DDP) is not taken
    write(tmp_path, OLMO)
    plan = plan_of(cli, "scripts/train.py", cwd=tmp_path)
    assert fact(plan, "dist.sharding") is None


def test_olmo_overrides_on_the_launch_line_leave_the_object_unknown(cli, tmp_path):
    write(tmp_path, OLMO)
    plan = plan_of(cli, "scripts/train.py", "--", "configs/OLMo-1B.yaml", "--model.max_sequence_length=4096",
                   cwd=tmp_path)
    assert ours(plan, "data.seq_len") is None


def test_a_compile_switch_read_false_is_compile_off(cli, tmp_path):
    # the switch guards something other than torch.compile (parler-tts run_parler_tts_training.py:419
    # ``if training_args.torch_compile: audio_decoder = accelerator.prepare_model(...)``)
    files = dict(WITH_OPEN)
    files["train.py"] = files["train.py"].replace(
        "        model = torch.nn.Linear(4, 4)\n",
        "        model = torch.nn.Linear(4, 4)\n        if config['use_compile']:\n"
        "            model = accelerator.prepare_model(model)\n")
    files["config.yaml"] += "use_compile: false\n"
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    got = ours(plan, "compile.enabled")
    assert got is not None and got.value is False and got.source.line == 4


def test_a_compile_switch_read_true_claims_nothing(cli, tmp_path):
    files = dict(WITH_OPEN)
    files["train.py"] = files["train.py"].replace(
        "        model = torch.nn.Linear(4, 4)\n",
        "        model = torch.nn.Linear(4, 4)\n        if config['use_compile']:\n"
        "            model = accelerator.prepare_model(model)\n")
    files["config.yaml"] += "use_compile: true\n"
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert ours(plan, "compile.enabled") is None


def test_a_config_updated_by_computed_keys_is_unknown(cli, tmp_path):
    # ALBEF/BLIP-style ``apply_config_overrides(config, args)``: keys set by a loop over the options
    files = dict(BLIP)
    files["train_caption.py"] = files["train_caption.py"].replace(
        "            main(args, config)",
        "            apply_config_overrides(config, args)\n            main(args, config)").replace(
        "def main(args, config):",
        "def apply_config_overrides(config, args):\n            for key, value in vars(args).items():\n"
        "                config[key] = value\n\n        def main(args, config):")
    write(tmp_path, files)
    plan = plan_of(cli, "train_caption.py", cwd=tmp_path)
    assert ours(plan, "batch.micro") is None


# nomic-ai/gpt4all @ cd70db29edaf0f02a567f5eea94f5e52240be3e9: gpt4all-training/read.py:4-9 (a helper of
# another module: ``with open(path, 'r') as file: try: return yaml.safe_load(file)``), train.py:7,58,229
# (``config = read_config(args.config)``, ``from_pretrained(config["model_name"], ...)``), data.py:110-114
# (``DataLoader(..., batch_size=config["batch_size"])``). The same helper is common under other names
# (``load_config``, ``load_yaml``; docs/corpus.md).
HELPER = {
    "read.py": """\
        import yaml


        def read_config(path):
            # read yaml and return contents
            with open(path, 'r') as file:
                try:
                    return yaml.safe_load(file)
                except yaml.YAMLError as exc:
                    print(exc)
    """,
    "train.py": """\
        from argparse import ArgumentParser
        import torch
        from torch.utils.data import DataLoader
        from transformers import AutoModelForCausalLM
        from read import read_config


        def train(config):
            model = AutoModelForCausalLM.from_pretrained(config["model_name"])
            loader = DataLoader([], batch_size=config["batch_size"], shuffle=True)
            opt = torch.optim.AdamW(model.parameters(), lr=config["lr"])
            for batch in loader:
                model(**batch).loss.backward()
                opt.step()


        if __name__ == "__main__":
            parser = ArgumentParser()
            parser.add_argument("--config", type=str, default="configs/train.yaml")
            args = parser.parse_args()
            config = read_config(args.config)
            train(config)
    """,
    "configs/train.yaml": "model_name: \"EleutherAI/gpt-j-6B\"\nbatch_size: 32\nlr: 2.0e-5\n",
}


def test_a_project_helper_that_loads_the_named_file(cli, tmp_path):
    write(tmp_path, HELPER)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    micro = ours(plan, "batch.micro")
    assert micro is not None and micro.value == 32
    assert (micro.source.path, micro.source.line) == ("configs/train.yaml", 2)
    assert ours(plan, "model.ref").value == "EleutherAI/gpt-j-6B"
    # a helper written without ``with``: the same
    files = dict(HELPER, **{"read.py": "import yaml\n\n\ndef read_config(p):\n    return yaml.safe_load(open(p))\n"})
    write(tmp_path, files)
    assert ours(plan_of(cli, "train.py", cwd=tmp_path), "batch.micro").value == 32


def test_a_helper_that_changes_what_it_loaded_is_not_read(cli, tmp_path):
    changed = """\
        import yaml


        def read_config(path):
            with open(path) as f:
                cfg = yaml.safe_load(f)
            cfg["batch_size"] = cfg["batch_size"] // 2
            return cfg
    """
    write(tmp_path, dict(HELPER, **{"read.py": changed}))
    assert ours(plan_of(cli, "train.py", cwd=tmp_path), "batch.micro") is None
    # a helper that loads a file of its own, not the one it is given, is not read either
    fixed = "import yaml\n\n\ndef read_config(path):\n    return yaml.safe_load(open('defaults.yaml'))\n"
    write(tmp_path, dict(HELPER, **{"read.py": fixed, "defaults.yaml": "batch_size: 4\n"}))
    assert ours(plan_of(cli, "train.py", cwd=tmp_path), "batch.micro") is None
    # nor one of two parameters (what the second does is not known)
    two = "import yaml\n\n\ndef read_config(path, overrides):\n    return yaml.safe_load(open(path))\n"
    files = dict(HELPER, **{"read.py": two})
    files["train.py"] = files["train.py"].replace("read_config(args.config)", "read_config(args.config, None)")
    write(tmp_path, files)
    assert ours(plan_of(cli, "train.py", cwd=tmp_path), "batch.micro") is None


# the loaders in another module (gpt4all data.py:110-121: ``DataLoader(train_dataset,
# collate_fn=DefaultDataCollator(), batch_size=config["batch_size"], shuffle=True)``, no num_workers,
# no pin_memory): torch's defaults, where the config's batch size is given
LOADERS = dict(HELPER)
LOADERS["data.py"] = """\
    from torch.utils.data import DataLoader


    def load_data(config, train_dataset):
        return DataLoader(train_dataset, batch_size=config["batch_size"], shuffle=True)
"""
LOADERS["train.py"] = HELPER["train.py"].replace(
    "from read import read_config", "from read import read_config\n        from data import load_data").replace(
    '            loader = DataLoader([], batch_size=config["batch_size"], shuffle=True)',
    '            loader = load_data(config, [])')


def _loader_facts(cli, tmp_path, files):
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    return ours(plan, "batch.micro"), ours(plan, "data.num_workers"), ours(plan, "data.pin_memory")


def test_loader_defaults_in_the_module_the_config_reaches(cli, tmp_path):
    micro, workers, pin = _loader_facts(cli, tmp_path, LOADERS)
    assert micro.value == 32
    assert workers.value == 0 and pin.value is False
    assert (workers.source.path, workers.source.line) == ("data.py", 5)
    assert "torch's default" in workers.source.detail


def test_loader_defaults_not_claimed_for_kwargs_or_an_evaluation_loader(cli, tmp_path):
    spread = dict(LOADERS, **{"data.py": LOADERS["data.py"].replace("shuffle=True)", "**config['loader'])")})
    _, workers, pin = _loader_facts(cli, tmp_path, spread)
    assert workers is None and pin is None
    val = dict(LOADERS, **{"data.py": LOADERS["data.py"].replace("train_dataset", "val_dataset")})
    _, workers, pin = _loader_facts(cli, tmp_path, val)
    assert workers is None and pin is None
    # given: the config's own value, not a default
    given = dict(LOADERS, **{"data.py": LOADERS["data.py"].replace(
        "shuffle=True)", "shuffle=True, num_workers=config['workers'])"),
        "configs/train.yaml": HELPER["configs/train.yaml"] + "workers: 6\n"})
    _, workers, pin = _loader_facts(cli, tmp_path, given)
    assert workers.value == 6 and pin.value is False


# yl4579/StyleTTS2 @ 5cedc71c333f: train_finetune_accelerate.py:54-57,71,97-104 (a click command:
# ``@click.option('-p', '--config_path', default='Configs/config_ft.yml')``, ``config =
# yaml.safe_load(open(config_path))``, ``batch_size = config.get('batch_size', 10)`` handed to the
# project's ``build_dataloader(..., batch_size=batch_size, ...)`` of meldataset.py:236-252)
CLICK = {
    "train.py": """\
        import click
        import torch
        import yaml
        from loaders import build_dataloader


        @click.command()
        @click.option('-p', '--config_path', default='Configs/config_ft.yml', type=str)
        def main(config_path):
            config = yaml.safe_load(open(config_path))
            batch_size = config.get('batch_size', 10)
            train_dataloader = build_dataloader([], batch_size=batch_size, num_workers=2)
            model = torch.nn.Linear(2, 2)
            opt = torch.optim.AdamW(model.parameters())
            for x in train_dataloader:
                model(x).sum().backward()
                opt.step()


        if __name__ == "__main__":
            main()
    """,
    "loaders.py": """\
        from torch.utils.data import DataLoader


        def build_dataloader(path_list, batch_size=4, num_workers=1):
            return DataLoader(list(path_list), batch_size=batch_size, shuffle=True, num_workers=num_workers)
    """,
    "Configs/config_ft.yml": "log_dir: out\nbatch_size: 8\nepochs: 3\n",
    "Configs/other.yml": "batch_size: 2\n",
}


def test_a_click_option_names_the_config_and_get_reads_its_key(cli, tmp_path):
    write(tmp_path, CLICK)
    micro = ours(plan_of(cli, "train.py", cwd=tmp_path), "batch.micro")
    assert micro is not None and micro.value == 8
    assert (micro.source.path, micro.source.line) == ("Configs/config_ft.yml", 2)
    # the launch line's value of the option
    assert ours(plan_of(cli, "train.py", "--", "--config_path", "Configs/other.yml", cwd=tmp_path), "batch.micro").value == 2
    # the short flag declared first (``'-p', '--config_path'``) names the same option
    assert ours(plan_of(cli, "train.py", "--", "-p", "Configs/other.yml", cwd=tmp_path), "batch.micro").value == 2


def test_get_of_a_key_the_config_lacks_is_not_a_fact(cli, tmp_path):
    files = dict(CLICK, **{"Configs/config_ft.yml": "log_dir: out\nepochs: 3\n"})
    write(tmp_path, files)
    assert ours(plan_of(cli, "train.py", cwd=tmp_path), "batch.micro") is None
    # a plain function (not a click command) whose parameter names the path: not an option
    plain = dict(CLICK)
    plain["train.py"] = CLICK["train.py"].replace("        @click.command()\n", "").replace(
        "        @click.option('-p', '--config_path', default='Configs/config_ft.yml', type=str)\n", "")
    write(tmp_path, plain)
    assert ours(plan_of(cli, "train.py", cwd=tmp_path), "batch.micro") is None
