"""Set 13's remaining general shapes (branch jobs16): fixtures of our own copying the real code's shape,
each with a must-read test and silent (must-stay-unknown) twins.

- a launched wrapper that applies a monkey patch, then calls ``train()`` of another local module
  (mbzuai-oryx/Video-ChatGPT @ 659e04b ``video_chatgpt/train/train_mem.py:1-8``), and the
  flash-attention patch itself (``llama_flash_attn_monkey_patch.py:8-9,97-99``);
- the global batch as micro x accumulation x processes under a data-parallel sharding;
- an argparse option a local helper rewrites (facebookresearch/deit @ 7e160fe ``main.py:184,192,344``,
  ``utils.py:217-229`` ``init_distributed_mode(args)``);
- the optimizer step done by timm's ``NativeScaler`` in a local module (deit ``main.py:353``,
  ``engine.py:46,63-64``).
"""

from __future__ import annotations

from plan_helpers import plan_of, write

from preflight.plan import TrainingPlan

VIDEO_CHATGPT = {
    "pkg/__init__.py": "",
    "pkg/train/__init__.py": "",
    "pkg/train/train_mem.py": """\
        # Need to call this before importing transformers.
        from pkg.train.llama_flash_attn_monkey_patch import replace_llama_attn_with_flash_attn

        replace_llama_attn_with_flash_attn()

        from pkg.train.train import train

        if __name__ == "__main__":
            train()
    """,
    "pkg/train/llama_flash_attn_monkey_patch.py": """\
        import torch
        import transformers
        from flash_attn.flash_attn_interface import flash_attn_unpadded_qkvpacked_func


        def forward(self, hidden_states, attention_mask=None):
            return flash_attn_unpadded_qkvpacked_func(hidden_states, None, 0, 0.0)


        def replace_llama_attn_with_flash_attn():
            transformers.models.llama.modeling_llama.LlamaAttention.forward = forward
    """,
    "pkg/train/train.py": """\
        from dataclasses import dataclass, field
        from typing import Optional

        import transformers


        @dataclass
        class ModelArguments:
            model_name_or_path: Optional[str] = field(default="facebook/opt-125m")


        @dataclass
        class TrainingArguments(transformers.TrainingArguments):
            optim: str = field(default="adamw_torch")
            model_max_length: int = field(default=512)


        def train():
            parser = transformers.HfArgumentParser((ModelArguments, TrainingArguments))
            model_args, training_args = parser.parse_args_into_dataclasses()
            model = transformers.LlamaForCausalLM.from_pretrained(model_args.model_name_or_path)
            trainer = transformers.Trainer(model=model, args=training_args)
            trainer.train()


        if __name__ == "__main__":
            train()
    """,
}

_LAUNCH = ["--", "torchrun", "--nproc_per_node=8", "pkg/train/train_mem.py", "--model_name_or_path", "m/llama-7b",
           "--per_device_train_batch_size", "4", "--gradient_accumulation_steps", "2", "--bf16", "True",
           "--output_dir", "out"]


def _fact(plan: dict, field: str):
    return TrainingPlan.from_dict(plan).resolve(field)


def test_wrapper_audits_the_module_it_calls_last_and_reads_the_flash_patch(cli, tmp_path):
    write(tmp_path, VIDEO_CHATGPT)
    plan = plan_of(cli, "pkg/train/train_mem.py", *_LAUNCH, cwd=tmp_path)
    assert any("only calls pkg/train/train.py's code" in n for n in plan["notes"])
    assert _fact(plan, "dist.sharding").value == "ddp"  # the Trainer of train.py under torchrun
    attn = _fact(plan, "model.attn_implementation")
    assert attn.value == "flash_attention_2" and attn.confidence == "medium"
    assert attn.source.path == "pkg/train/train_mem.py" and attn.source.line == 4
    glob = _fact(plan, "batch.global")
    assert glob.value == 4 * 2 * 8 and glob.confidence == "medium" and glob.source.kind == "derived"


def test_a_patch_under_an_undecided_test_or_without_flash_attn_is_not_read(cli, tmp_path):
    """Silent twins: the patch call under ``if`` a test the reader cannot decide; a patch module that
    imports no flash_attn (an xformers or a plain rewrite); neither is flash attention."""
    files = dict(VIDEO_CHATGPT)
    files["pkg/train/train_mem.py"] = files["pkg/train/train_mem.py"].replace(
        "replace_llama_attn_with_flash_attn()\n", "import os\n        if os.environ.get('FLASH'):\n"
        "            replace_llama_attn_with_flash_attn()\n", 1)
    write(tmp_path, files)
    attn = _fact(plan_of(cli, "pkg/train/train_mem.py", *_LAUNCH, cwd=tmp_path), "model.attn_implementation")
    assert attn is None or attn.value != "flash_attention_2"
    files = dict(VIDEO_CHATGPT)
    files["pkg/train/llama_flash_attn_monkey_patch.py"] = files["pkg/train/llama_flash_attn_monkey_patch.py"].replace(
        "from flash_attn.flash_attn_interface import", "from xformers.ops import")
    write(tmp_path, files)
    attn = _fact(plan_of(cli, "pkg/train/train_mem.py", *_LAUNCH, cwd=tmp_path), "model.attn_implementation")
    assert attn is None or attn.value != "flash_attention_2"


def test_no_global_batch_without_a_sharding_or_with_a_given_one(cli, tmp_path):
    """Silent twins of the product: one process and no wrapper is ``none`` with world size 1 (derived 4 x 2 x 1);
    a plain ``python`` launch of the Trainer script with no process count known derives nothing."""
    write(tmp_path, VIDEO_CHATGPT)
    plan = plan_of(cli, "pkg/train/train_mem.py", "--", "python", "pkg/train/train_mem.py", "--output_dir", "o",
                   "--per_device_train_batch_size", "4", cwd=tmp_path)
    glob = _fact(plan, "batch.global")
    world = _fact(plan, "dist.world_size")
    if world is None:
        assert glob is None
    else:
        assert glob is None or glob.value == 4 * world.value


DEIT = {
    "main.py": """\
        import argparse
        import torch
        from timm.utils import NativeScaler
        from timm.models import create_model
        from engine import train_one_epoch
        import utils


        def get_args_parser():
            parser = argparse.ArgumentParser('DeiT', add_help=False)
            parser.add_argument('--batch-size', default=64, type=int)
            parser.add_argument('--num_workers', default=10, type=int)
            parser.add_argument('--distributed', action='store_true', default=False)
            return parser


        def main(args):
            utils.init_distributed_mode(args)
            model = create_model('deit_small_patch16_224', pretrained=False)
            model.cuda()
            if args.distributed:
                model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[args.gpu])
            loader = torch.utils.data.DataLoader([], batch_size=args.batch_size, num_workers=args.num_workers)
            optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
            loss_scaler = NativeScaler()
            for epoch in range(10):
                train_one_epoch(model, loader, optimizer, loss_scaler)


        if __name__ == '__main__':
            parser = argparse.ArgumentParser('DeiT', parents=[get_args_parser()])
            args = parser.parse_args()
            main(args)
    """,
    "utils.py": """\
        import os


        def init_distributed_mode(args):
            if 'RANK' in os.environ and 'WORLD_SIZE' in os.environ:
                args.rank = int(os.environ["RANK"])
                args.gpu = int(os.environ['LOCAL_RANK'])
            else:
                args.distributed = False
                return
            args.distributed = True
    """,
    "engine.py": """\
        import torch


        def train_one_epoch(model, data_loader, optimizer, loss_scaler, max_norm=0):
            model.train()
            for samples, targets in data_loader:
                with torch.cuda.amp.autocast():
                    loss = model(samples).sum()
                optimizer.zero_grad()
                loss_scaler(loss, optimizer, clip_grad=max_norm, parameters=model.parameters())
    """,
}
_DEIT_LAUNCH = ["--", "python", "-m", "torch.distributed.launch", "--nproc_per_node=4", "--use_env", "main.py",
                "--batch-size", "256"]


def test_deit_shape_scaler_step_and_a_flag_a_helper_sets(cli, tmp_path):
    write(tmp_path, DEIT)
    plan = plan_of(cli, "main.py", *_DEIT_LAUNCH, cwd=tmp_path)
    sharding = _fact(plan, "dist.sharding")
    assert sharding.value == "ddp"  # args.distributed is the helper's, not argparse's False
    accum = _fact(plan, "batch.grad_accum")
    assert accum.value == 1 and accum.confidence == "medium" and accum.adapter == "scaler_step"
    assert accum.source.path == "main.py" and accum.source.line == 25
    precision = _fact(plan, "precision.mode")
    assert precision.value == "amp_fp16" and precision.confidence == "medium"
    assert _fact(plan, "batch.global").value == 1024
    for field, value in (("peft.method", "none"), ("memory.gradient_checkpointing", False),
                         ("compile.enabled", False)):
        assert _fact(plan, field).value == value, field


def test_deit_twins_stay_unknown(cli, tmp_path):
    """Silent twins: the scaler called with ``update_grad=`` (MAE's accumulation) takes no accumulation;
    autocast with a dtype from a variable takes no precision; a helper that only reads ``args.distributed``
    leaves argparse's False (no DDP)."""
    files = dict(DEIT)
    files["engine.py"] = files["engine.py"].replace(
        "parameters=model.parameters())", "parameters=model.parameters(), update_grad=step % 4 == 0)").replace(
        "autocast()", "autocast(dtype=amp_dtype)").replace("max_norm=0)", "max_norm=0, step=0, amp_dtype=None)")
    write(tmp_path, files)
    plan = plan_of(cli, "main.py", *_DEIT_LAUNCH, cwd=tmp_path)
    assert _fact(plan, "batch.grad_accum") is None
    precision = _fact(plan, "precision.mode")
    assert precision is None or precision.adapter != "scaler_step"
    files = dict(DEIT)
    files["utils.py"] = """\
        def init_distributed_mode(args):
            print(args.distributed)
    """
    write(tmp_path, files)
    sharding = _fact(plan_of(cli, "main.py", *_DEIT_LAUNCH, cwd=tmp_path), "dist.sharding")
    assert sharding is None or sharding.value != "ddp"


def test_a_scaler_not_from_timm_is_no_step(cli, tmp_path):
    """Silent twin: a project class named NativeScaler that the script defines is not timm's."""
    files = dict(DEIT)
    files["main.py"] = files["main.py"].replace("        from timm.utils import NativeScaler\n", "").replace(
        "def get_args_parser", "class NativeScaler:\n            def __call__(self, loss, optimizer, **kw):\n"
        "                pass\n\n\n        def get_args_parser")
    write(tmp_path, files)
    plan = plan_of(cli, "main.py", *_DEIT_LAUNCH, cwd=tmp_path)
    accum = _fact(plan, "batch.grad_accum")
    assert accum is None or accum.adapter != "scaler_step"


HIFIGAN = {
    "env.py": """\
        class AttrDict(dict):
            def __init__(self, *args, **kwargs):
                super(AttrDict, self).__init__(*args, **kwargs)
                self.__dict__ = self
    """,
    "config_v1.json": """\
        {
            "batch_size": 16,
            "num_workers": 4
        }
    """,
    "train.py": """\
        import argparse
        import json
        import torch
        from torch.utils.data import DataLoader
        from env import AttrDict


        def train(rank, a, h):
            model = torch.nn.Linear(2, 2)
            optim = torch.optim.AdamW(model.parameters(), 1e-3)
            loader = DataLoader([], num_workers=h.num_workers, shuffle=False, batch_size=h.batch_size,
                                pin_memory=True)
            for x in loader:
                optim.zero_grad()
                model(x).sum().backward()
                optim.step()


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument('--config', default='')
            a = parser.parse_args()

            with open(a.config) as f:
                data = f.read()

            json_config = json.loads(data)
            h = AttrDict(json_config)
            train(0, a, h)


        if __name__ == '__main__':
            main()
    """,
}


def _flow(plan: dict, field: str):
    return next((f for f in TrainingPlan.from_dict(plan).facts(field) if f.adapter == "value_flow"), None)


def test_a_json_read_as_text_into_an_attrdict_feeds_the_loader(cli, tmp_path):
    write(tmp_path, HIFIGAN)
    plan = plan_of(cli, "train.py", "--", "--config", "config_v1.json", cwd=tmp_path)
    workers = _flow(plan, "data.num_workers")
    assert workers is not None and workers.value == 4 and workers.confidence == "medium"
    assert workers.source.path == "config_v1.json" and workers.source.line == 3 and "train.py:11" in workers.source.detail
    micro = _flow(plan, "batch.micro")
    assert micro is not None and micro.value == 16


def test_attrdict_twins_stay_unknown(cli, tmp_path):
    """Silent twins: a wrapper class that is not a plain ``dict`` subclass (it defines ``__getattr__``, so
    its attributes need not be the keys); the batch rewritten from the device count
    (hifi-gan ``train.py:255-259``: ``h.batch_size = int(h.batch_size / h.num_gpus)``) is no longer 16."""
    files = dict(HIFIGAN)
    files["env.py"] = files["env.py"].replace("self.__dict__ = self", "pass\n\n            def __getattr__(self, k):\n"
                                              "                return 1")
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", "--", "--config", "config_v1.json", cwd=tmp_path)
    assert _flow(plan, "data.num_workers") is None
    files = dict(HIFIGAN)
    files["train.py"] = files["train.py"].replace(
        "            train(0, a, h)", "            if torch.cuda.is_available():\n"
        "                h.num_gpus = torch.cuda.device_count()\n"
        "                h.batch_size = int(h.batch_size / h.num_gpus)\n            train(0, a, h)")
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", "--", "--config", "config_v1.json", cwd=tmp_path)
    assert _flow(plan, "batch.micro") is None
    assert _flow(plan, "data.num_workers").value == 4


def test_simple_namespace_of_a_yaml_dict(cli, tmp_path):
    """``cfg = SimpleNamespace(**yaml.safe_load(f))`` in two steps; twin: a SimpleNamespace that is not the
    standard library's is not followed."""
    files = {
        "cfg.yaml": "num_workers: 6\n",
        "train.py": """\
            import yaml
            import torch
            from types import SimpleNamespace


            def main():
                with open("cfg.yaml") as f:
                    raw = yaml.safe_load(f)
                cfg = SimpleNamespace(**raw)
                model = torch.nn.Linear(2, 2)
                loader = torch.utils.data.DataLoader([], num_workers=cfg.num_workers)
                for x in loader:
                    model(x).sum().backward()


            main()
        """,
    }
    write(tmp_path, files)
    workers = _flow(plan_of(cli, "train.py", cwd=tmp_path), "data.num_workers")
    assert workers is not None and workers.value == 6
    files["train.py"] = files["train.py"].replace("from types import SimpleNamespace", "from mylib import SimpleNamespace")
    write(tmp_path, files)
    assert _flow(plan_of(cli, "train.py", cwd=tmp_path), "data.num_workers") is None


TDMPC2 = {
    "config.yaml": """\
        defaults:
          - override hydra/launcher: submitit_local

        batch_size: 256
        lr: 3e-4
    """,
    "train.py": """\
        import torch
        import hydra
        from agent import Agent
        from trainer import OnlineTrainer


        @hydra.main(config_name='config', config_path='.')
        def train(cfg: dict):
            trainer = OnlineTrainer(cfg=cfg, agent=Agent(cfg))
            trainer.train()


        if __name__ == '__main__':
            train()
    """,
    "trainer.py": """\
        class OnlineTrainer:
            def __init__(self, cfg, agent):
                self.cfg = cfg
                self.agent = agent

            def train(self):
                for step in range(100):
                    self.agent.update()
    """,
    "agent.py": """\
        import torch


        class Agent:
            def __init__(self, cfg):
                self.model = torch.nn.Linear(4, 4)
                self.optim = torch.optim.Adam(self.model.parameters(), lr=cfg.lr)

            def update(self):
                loss = self.model(torch.zeros(4)).sum()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), 10)
                self.optim.step()
                self.optim.zero_grad(set_to_none=True)
    """,
}


def test_update_method_of_a_local_class_and_a_single_hydra_run(cli, tmp_path):
    write(tmp_path, TDMPC2)
    plan = plan_of(cli, "train.py", "--", "python", "train.py", "lr=1e-3", cwd=tmp_path)
    accum = _fact(plan, "batch.grad_accum")
    assert accum.value == 1 and accum.confidence == "medium" and accum.adapter == "loop_update"
    assert accum.source.path == "agent.py" and accum.source.line == 11
    assert _fact(plan, "dist.world_size").value == 1
    assert _fact(plan, "dist.sharding").value == "none"


def test_update_method_twins_stay_unknown(cli, tmp_path):
    """Silent twins: the step under an accumulation test; a hydra multirun (``-m``) or a config in
    MULTIRUN mode (the launcher plugin may start several processes)."""
    files = dict(TDMPC2)
    files["agent.py"] = files["agent.py"].replace(
        "            self.optim.step()\n", "            if self.count % 4 == 0:\n                self.optim.step()\n")
    write(tmp_path, files)
    assert _fact(plan_of(cli, "train.py", "--", "python", "train.py", cwd=tmp_path), "batch.grad_accum") is None
    write(tmp_path, TDMPC2)
    plan = plan_of(cli, "train.py", "--", "python", "train.py", "-m", "lr=1e-3,1e-4", cwd=tmp_path)
    assert _fact(plan, "dist.world_size") is None
    files = dict(TDMPC2)
    files["config.yaml"] = files["config.yaml"].rstrip(" ") + "        hydra:\n          mode: MULTIRUN\n"
    write(tmp_path, files)
    assert _fact(plan_of(cli, "train.py", "--", "python", "train.py", cwd=tmp_path), "dist.world_size") is None
    # the app starts its processes itself, through a variable (facebookresearch/sam2 training/train.py:55-60)
    files = dict(TDMPC2)
    files["train.py"] = files["train.py"].replace(
        "            trainer.train()\n",
        "            mp_runner = torch.multiprocessing.start_processes\n"
        "            mp_runner(lambda i: trainer.train(), nprocs=8, start_method='spawn')\n")
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", "--", "python", "train.py", cwd=tmp_path)
    assert _fact(plan, "dist.world_size") is None and _fact(plan, "dist.sharding") is None


PYTORCH_VAE = {
    "configs/vae.yaml": """\
        exp_params:
          LR: 0.005
        data_params:
          train_batch_size: 64
          num_workers: 4
        trainer_params:
          gpus: [1]
          max_epochs: 100
    """,
    "run.py": """\
        import argparse
        import yaml
        from pytorch_lightning import Trainer
        from experiment import VAEXperiment
        from dataset import VAEDataset

        parser = argparse.ArgumentParser()
        parser.add_argument('--config', '-c', dest="filename", default='configs/vae.yaml')
        args = parser.parse_args()
        with open(args.filename, 'r') as file:
            config = yaml.safe_load(file)

        experiment = VAEXperiment(None, config['exp_params'])
        data = VAEDataset(**config["data_params"], pin_memory=True)
        runner = Trainer(**config['trainer_params'])
        runner.fit(experiment, datamodule=data)
    """,
    "experiment.py": """\
        import pytorch_lightning as pl
        from torch import optim


        class VAEXperiment(pl.LightningModule):
            def __init__(self, model, params):
                super().__init__()
                self.model = model
                self.params = params

            def training_step(self, batch, batch_idx):
                return self.model(batch).sum()

            def configure_optimizers(self):
                optimizer = optim.Adam(self.model.parameters(), lr=self.params['LR'])
                return optimizer
    """,
    "dataset.py": """\
        from pytorch_lightning import LightningDataModule
        from torch.utils.data import DataLoader


        class VAEDataset(LightningDataModule):
            def __init__(self, data_path='', train_batch_size=8, val_batch_size=8, patch_size=256,
                         num_workers=0, pin_memory=False, **kwargs):
                super().__init__()
                self.train_batch_size = train_batch_size
                self.num_workers = num_workers
                self.pin_memory = pin_memory

            def train_dataloader(self):
                return DataLoader([], batch_size=self.train_batch_size, num_workers=self.num_workers,
                                  shuffle=True, pin_memory=self.pin_memory)
    """,
}


def _lightning(plan: dict, field: str):
    return next((f for f in TrainingPlan.from_dict(plan).facts(field) if f.adapter == "lightning"), None)


def test_lightning_module_and_data_module_of_imported_modules(cli, tmp_path):
    write(tmp_path, PYTORCH_VAE)
    plan = plan_of(cli, "run.py", "--", "-c", "configs/vae.yaml", cwd=tmp_path)
    micro = _lightning(plan, "batch.micro")
    assert micro.value == 64 and micro.confidence == "medium"
    assert micro.source.kind == "config" and micro.source.line == 4
    assert _lightning(plan, "data.num_workers").value == 4
    pin = _lightning(plan, "data.pin_memory")
    assert pin.value is True and pin.source.path == "run.py" and pin.source.line == 14
    opt = _lightning(plan, "optimizer.name")
    assert opt.value == "Adam" and opt.source.path == "experiment.py" and opt.source.line == 15


def test_lightning_local_twins_stay_unknown(cli, tmp_path):
    """Silent twins: a data module that sets its batch size again outside ``__init__``; a class that is not
    a Lightning module; a section no config given holds (the loader values stay unknown, not the defaults)."""
    files = dict(PYTORCH_VAE)
    files["dataset.py"] = files["dataset.py"].replace(
        "            def train_dataloader(self):\n",
        "            def setup(self, stage=None):\n                self.train_batch_size = 2\n\n"
        "            def train_dataloader(self):\n")
    write(tmp_path, files)
    plan = plan_of(cli, "run.py", "--", "-c", "configs/vae.yaml", cwd=tmp_path)
    assert _lightning(plan, "batch.micro") is None
    assert _lightning(plan, "data.num_workers").value == 4
    files = dict(PYTORCH_VAE)
    files["dataset.py"] = files["dataset.py"].replace("(LightningDataModule)", "(object)")
    files["experiment.py"] = files["experiment.py"].replace("(pl.LightningModule)", "(object)")
    write(tmp_path, files)
    plan = plan_of(cli, "run.py", "--", "-c", "configs/vae.yaml", cwd=tmp_path)
    assert _lightning(plan, "batch.micro") is None and _lightning(plan, "optimizer.name") is None
    files = dict(PYTORCH_VAE)
    files["run.py"] = files["run.py"].replace('config["data_params"]', 'config["missing_section"]')
    write(tmp_path, files)
    plan = plan_of(cli, "run.py", "--", "-c", "configs/vae.yaml", cwd=tmp_path)
    assert _lightning(plan, "batch.micro") is None and _lightning(plan, "data.num_workers") is None


LORA_PKG = {
    "setup.py": "from setuptools import setup\nsetup(name='lora_diffusion', packages=['lora_diffusion'])\n",
    "lora_diffusion/__init__.py": "from .lora import *\n",
    "lora_diffusion/lora.py": """\
        import torch.nn as nn


        class LoraInjectedLinear(nn.Module):
            def __init__(self, in_features, out_features, bias=False, r=4, dropout_p=0.1, scale=1.0):
                super().__init__()
                self.linear = nn.Linear(in_features, out_features, bias)
                self.lora_down = nn.Linear(in_features, r, bias=False)
                self.lora_up = nn.Linear(r, out_features, bias=False)

            def forward(self, x):
                return self.linear(x) + self.lora_up(self.lora_down(x))


        def inject_trainable_lora(model, target_replace_module=None, r: int = 4, loras=None):
            params = []
            for name, child in model.named_children():
                _tmp = LoraInjectedLinear(child.in_features, child.out_features, child.bias is not None, r=r)
                params.append(_tmp.lora_up.parameters())
            return params, []
    """,
    "training_scripts/train_lora_dreambooth.py": """\
        import argparse
        import torch
        from lora_diffusion import inject_trainable_lora

        parser = argparse.ArgumentParser()
        parser.add_argument("--lora_rank", type=int, default=4)
        parser.add_argument("--train_text_encoder", action="store_true")
        args = parser.parse_args()

        unet = torch.nn.Linear(8, 8)
        unet.requires_grad_(False)
        unet_lora_params, _ = inject_trainable_lora(unet, r=args.lora_rank)
        optimizer = torch.optim.AdamW(unet.parameters(), lr=1e-4)
        for step in range(10):
            loss = unet(torch.zeros(8)).sum()
            loss.backward()
            optimizer.step()
    """,
}


def test_project_lora_injector_one_folder_above(cli, tmp_path):
    write(tmp_path, LORA_PKG)
    cwd = tmp_path / "training_scripts"
    plan = plan_of(cli, "train_lora_dreambooth.py", "--", "--lora_rank", "8", cwd=cwd)
    method = _fact(plan, "peft.method")
    assert method.value == "lora" and method.confidence == "medium"
    assert method.source.path == "train_lora_dreambooth.py" and method.source.line == 12
    assert _fact(plan, "peft.rank").value == 8
    assert _fact(plan, "task.mode").value == "lora"
    assert _fact(plan_of(cli, "train_lora_dreambooth.py", cwd=cwd), "peft.rank").value == 4  # --lora_rank default


def test_project_lora_injector_twins_stay_unknown(cli, tmp_path):
    """Silent twins: a layer class with no bottleneck (one plain Linear); the injector under a test the
    launch line leaves undecided; the same-named function defined in the script itself."""
    files = dict(LORA_PKG)
    files["lora_diffusion/lora.py"] = files["lora_diffusion/lora.py"].replace(
        "self.lora_down = nn.Linear(in_features, r, bias=False)", "self.lora_down = nn.Identity()").replace(
        "self.lora_up = nn.Linear(r, out_features, bias=False)", "self.lora_up = nn.Identity()")
    write(tmp_path, files)
    method = _fact(plan_of(cli, "train_lora_dreambooth.py", cwd=tmp_path / "training_scripts"), "peft.method")
    assert method is None or method.value != "lora" or method.adapter != "guarded"
    files = dict(LORA_PKG)
    files["training_scripts/train_lora_dreambooth.py"] = files["training_scripts/train_lora_dreambooth.py"].replace(
        "        unet_lora_params, _ = inject_trainable_lora(unet, r=args.lora_rank)\n",
        "        import os\n        if os.environ.get('LORA'):\n"
        "            unet_lora_params, _ = inject_trainable_lora(unet, r=args.lora_rank)\n")
    write(tmp_path, files)
    method = _fact(plan_of(cli, "train_lora_dreambooth.py", cwd=tmp_path / "training_scripts"), "peft.method")
    assert method is None or method.adapter != "guarded"


OPTIMIZER_CLASS = """\
    import argparse
    import torch

    parser = argparse.ArgumentParser()
    parser.add_argument("--use_8bit_adam", action="store_true")
    args = parser.parse_args()

    model = torch.nn.Linear(4, 4)
    if args.use_8bit_adam:
        import bitsandbytes as bnb
        optimizer_class = bnb.optim.AdamW8bit
    else:
        optimizer_class = torch.optim.AdamW
    optimizer = optimizer_class(model.parameters(), lr=1e-4)
    for step in range(10):
        model(torch.zeros(4)).sum().backward()
        optimizer.step()
"""


def test_optimizer_class_chosen_into_a_variable(cli, tmp_path):
    write(tmp_path, {"train.py": OPTIMIZER_CLASS})
    opt = _fact(plan_of(cli, "train.py", cwd=tmp_path), "optimizer.name")
    assert opt.value == "AdamW" and opt.confidence == "medium" and opt.source.line == 14
    opt = _fact(plan_of(cli, "train.py", "--", "--use_8bit_adam", cwd=tmp_path), "optimizer.name")
    assert opt.value == "AdamW8bit"


def test_optimizer_class_twins_stay_unknown(cli, tmp_path):
    """Silent twins: the arm decided by a test the reader cannot decide; a variable bound to a class in one arm
    only (no ``else``: the name may be unbound or set elsewhere)."""
    write(tmp_path, {"train.py": OPTIMIZER_CLASS.replace("if args.use_8bit_adam:", "if torch.rand(1) > 0.5:")})
    assert _fact(plan_of(cli, "train.py", cwd=tmp_path), "optimizer.name") is None
    write(tmp_path, {"train.py": OPTIMIZER_CLASS.replace("    else:\n        optimizer_class = torch.optim.AdamW\n",
                                                         "    optimizer_class = get_optimizer_class()\n")})
    assert _fact(plan_of(cli, "train.py", cwd=tmp_path), "optimizer.name") is None


def test_timm_optimizer_factory(cli, tmp_path):
    """``create_optimizer(args, model)`` reads ``args.opt`` (DeiT ``main.py:56,352``); ``create_optimizer_v2(model,
    **optimizer_kwargs(cfg=args))`` too (timm ``train.py:972-974``); ``lookahead_adamw`` is adamw. Twin: an ``opt``
    the reader cannot resolve (no such option declared) leaves the optimizer unknown."""
    files = dict(DEIT)
    files["main.py"] = files["main.py"].replace(
        "from timm.models import create_model", "from timm.models import create_model\n        from timm.optim import "
        "create_optimizer, create_optimizer_v2, optimizer_kwargs").replace(
        "parser.add_argument('--distributed'", "parser.add_argument('--opt', default='adamw', type=str)\n"
        "            parser.add_argument('--distributed'").replace(
        "optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)", "optimizer = create_optimizer(args, model)")
    write(tmp_path, files)
    opt = _fact(plan_of(cli, "main.py", *_DEIT_LAUNCH, cwd=tmp_path), "optimizer.name")
    assert opt.value == "adamw" and opt.confidence == "medium"
    opt = _fact(plan_of(cli, "main.py", *_DEIT_LAUNCH, "--opt", "lookahead_rmsproptf", cwd=tmp_path), "optimizer.name")
    assert opt.value == "rmsproptf" and opt.source.kind == "cli"
    v2 = dict(files)
    v2["main.py"] = files["main.py"].replace("create_optimizer(args, model)",
                                             "create_optimizer_v2(model, **optimizer_kwargs(cfg=args))")
    write(tmp_path, v2)
    assert _fact(plan_of(cli, "main.py", *_DEIT_LAUNCH, cwd=tmp_path), "optimizer.name").value == "adamw"
    files["main.py"] = files["main.py"].replace("parser.add_argument('--opt', default='adamw', type=str)\n            ", "")
    write(tmp_path, files)
    opt = _fact(plan_of(cli, "main.py", *_DEIT_LAUNCH, cwd=tmp_path), "optimizer.name")
    assert opt is None or opt.adapter != "pytorch"


PROLONG = {
    "training/__init__.py": "",
    "training/trainer.py": """\
        from dataclasses import dataclass, field
        from transformers import TrainingArguments as HfTrainingArguments


        @dataclass
        class TrainingArguments(HfTrainingArguments):
            min_lr_ratio: float = field(default=0.0)
            optim: str = field(default="adafactor")
    """,
    "training/train_language_model.py": """\
        from dataclasses import dataclass, field
        from transformers import HfArgumentParser, AutoModelForCausalLM, Trainer
        from training.trainer import TrainingArguments


        @dataclass
        class ScriptArguments:
            model_name: str = field(default="gpt2")


        def main():
            parser = HfArgumentParser((ScriptArguments, TrainingArguments))
            script_args, training_args = parser.parse_args_into_dataclasses()
            model = AutoModelForCausalLM.from_pretrained(script_args.model_name)
            Trainer(model=model, args=training_args).train()


        if __name__ == "__main__":
            main()
    """,
}
_PROLONG_LAUNCH = ["--", "torchrun", "--nproc-per-node=8", "-m", "training.train_language_model", "--output_dir",
                   "o", "--bf16", "--dataloader_num_workers", "3", "--per_device_train_batch_size", "2"]


def test_training_arguments_subclass_of_a_local_module(cli, tmp_path):
    write(tmp_path, PROLONG)
    plan = plan_of(cli, "training/train_language_model.py", *_PROLONG_LAUNCH, cwd=tmp_path)
    assert _fact(plan, "data.num_workers").value == 3
    assert _fact(plan, "precision.mode").value == "amp_bf16"
    opt = _fact(plan, "optimizer.name")
    assert opt.value == "adafactor" and opt.source.path == "trainer.py" and opt.source.line == 8
    assert _fact(plan, "batch.global").value == 16


def test_training_arguments_subclass_twin(cli, tmp_path):
    """Silent twin: a local class named TrainingArguments that derives from no transformers class is not read
    as one (no TrainingArguments flags or defaults)."""
    files = dict(PROLONG)
    files["training/trainer.py"] = files["training/trainer.py"].replace(
        "from transformers import TrainingArguments as HfTrainingArguments", "HfTrainingArguments = object")
    write(tmp_path, files)
    plan = plan_of(cli, "training/train_language_model.py", *_PROLONG_LAUNCH, cwd=tmp_path)
    workers = _fact(plan, "data.num_workers")
    assert workers is None or workers.value != 3
    opt = _fact(plan, "optimizer.name")
    assert opt is None or opt.value != "adafactor"
