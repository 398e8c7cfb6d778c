"""General fixes of the thirteenth round (issue 15): shapes the twelfth held-out jobs set showed,
reproduced in minimal fixtures of our own, each citing the repository, path and commit it copies
the shape of, each with silent twins."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from plan_helpers import fact, plan_of, write

from preflight.audit import build_plan

# --------------------------------------------------------------------------- Hydra --config-dir

# real-stanford/diffusion_policy @ 5ba07ac6661db573af695b419a7947ecb704690f: train.py:20-24
# (@hydra.main(config_path=str(pathlib.Path(__file__).parent.joinpath('diffusion_policy','config')))),
# README.md:136 (python train.py --config-dir=. --config-name=image_pusht_diffusion_policy_cnn.yaml ...):
# the primary config is at the repository root, not in the decorator's config_path.
DP_TRAIN = """\
    import pathlib
    import hydra
    from omegaconf import OmegaConf

    @hydra.main(
        version_base=None,
        config_path=str(pathlib.Path(__file__).parent.joinpath('policy', 'config')))
    def main(cfg: OmegaConf):
        workspace = hydra.utils.instantiate(cfg)
        workspace.run()

    if __name__ == "__main__":
        main()
"""
DP_CONFIG = """\
    _target_: policy.workspace.TrainWorkspace
    dataloader:
      batch_size: 64
      num_workers: 8
    optimizer:
      _target_: torch.optim.{opt}
      lr: 1.0e-4
    training:
      seed: 42
"""


def _dp(tmp_path: Path, *, root_opt: str = "AdamW", packaged_opt: str = "") -> None:
    files = {"train.py": DP_TRAIN, "run_pusht.yaml": DP_CONFIG.format(opt=root_opt),
             "policy/config/other.yaml": DP_CONFIG.format(opt="Adam")}
    if packaged_opt:
        files["policy/config/run_pusht.yaml"] = DP_CONFIG.format(opt=packaged_opt)
    write(tmp_path, files)


@pytest.mark.parametrize("flags", [("--config-dir=.", "--config-name=run_pusht.yaml"),
                                   ("--config-dir", ".", "--config-name", "run_pusht"),
                                   ("-cd", ".", "-cn", "run_pusht.yaml")])
def test_config_dir_on_the_launch_line_finds_the_primary_config(cli, tmp_path, flags):
    _dp(tmp_path)
    plan = plan_of(cli, "train.py", "--", *flags, "training.seed=42", cwd=tmp_path)
    opt = fact(plan, "optimizer.name")
    assert opt.value == "AdamW" and opt.source.path == "run_pusht.yaml"
    assert any("--config-dir" in n and "read from ." in n for n in plan["notes"])


def test_config_dir_in_a_subfolder(cli, tmp_path):
    _dp(tmp_path)
    (tmp_path / "exp").mkdir()
    (tmp_path / "run_pusht.yaml").rename(tmp_path / "exp" / "run_pusht.yaml")
    plan = plan_of(cli, "train.py", "--", "--config-dir", "exp", "--config-name", "run_pusht", cwd=tmp_path)
    assert fact(plan, "optimizer.name").source.path == "exp/run_pusht.yaml"


def test_the_apps_config_path_is_searched_before_the_config_dir(cli, tmp_path):
    # hydra/_internal/utils.py: the --config-dir entry is prepended before the `schema` provider,
    # i.e. after the app's own config_path (`main`)
    _dp(tmp_path, root_opt="AdamW", packaged_opt="SGD")
    plan = plan_of(cli, "train.py", "--", "--config-dir=.", "--config-name=run_pusht.yaml", cwd=tmp_path)
    opt = fact(plan, "optimizer.name")
    assert opt.value == "SGD" and opt.source.path == "policy/config/run_pusht.yaml"


def test_without_config_dir_the_root_config_is_not_used(cli, tmp_path):
    _dp(tmp_path)
    res = cli("audit", "train.py", "--emit-plan", "json", "--", "--config-name=run_pusht.yaml", cwd=tmp_path)
    assert res.code == 3 and "run_pusht" in res.err


def test_config_dir_that_does_not_hold_the_config_changes_nothing(cli, tmp_path):
    _dp(tmp_path)
    (tmp_path / "empty").mkdir()
    res = cli("audit", "train.py", "--emit-plan", "json", "--", "--config-dir=empty",
              "--config-name=run_pusht.yaml", cwd=tmp_path)
    assert res.code == 3


# --------------------------------------------------------------------------- Lightning 1.x gpus=

# lllyasviel/ControlNet @ ed85cd1e25a5ed592f7d8178495b4483de0331bf: tutorial_train.py:31
# (trainer = pl.Trainer(gpus=1, precision=32, callbacks=[logger])), pytorch_lightning 1.5.0 pinned
# (environment.yaml). pytorch_lightning 1.6-1.9 accelerator_connector.py
# _map_deprecated_devices_specfic_info_to_accelerator_and_device_flag: a truthy `gpus` (not in
# ([], 0, "0")) is the devices flag, and `devices=` is ignored with a warning.
LIT = """\
    import pytorch_lightning as pl
    from torch.utils.data import DataLoader

    dataset = [1, 2, 3]
    dataloader = DataLoader(dataset, num_workers=0, batch_size=4, shuffle=True)
    model = object()
    trainer = pl.Trainer(ARGS)
    trainer.fit(model, dataloader)
"""


def lit_plan(tmp_path: Path, args: str, argv: tuple[str, ...] = ()):
    (tmp_path / "train.py").write_text(textwrap.dedent(LIT.replace("ARGS", args)), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path, argv=list(argv), strict=True)
    return plan


def lit(plan, field):
    facts = [f for f in plan.facts(field) if f.adapter == "lightning"]
    return facts[0] if facts else None


@pytest.mark.parametrize("args, count", [("gpus=1, precision=32", 1), ("gpus=4", 4), ("gpus=[0, 1]", 2),
                                         ('gpus="0,1,2"', 3), ('gpus="2"', 2),
                                         ("gpus=2, devices=8", 2)])
def test_lightning_1x_gpus_is_the_device_count(tmp_path, args, count):
    plan = lit_plan(tmp_path, args)
    dev = lit(plan, "dist.devices_per_node")
    assert dev.value == count and "gpus=" in dev.source.detail and dev.source.line == 7
    assert lit(plan, "dist.world_size").value == count
    assert lit(plan, "dist.sharding").value == ("none" if count == 1 else "ddp")


def test_lightning_1x_gpus_with_num_nodes(tmp_path):
    plan = lit_plan(tmp_path, 'gpus=8, num_nodes=4, accelerator="ddp"')
    assert lit(plan, "dist.world_size").value == 32
    assert lit(plan, "dist.nodes").value == 4
    sharding = lit(plan, "dist.sharding")
    assert sharding.value == "ddp" and "accelerator='ddp'" in sharding.source.detail


def test_lightning_1x_accelerator_names_a_sharded_strategy(tmp_path):
    plan = lit_plan(tmp_path, 'gpus=2, accelerator="deepspeed_stage_3"')
    assert lit(plan, "dist.sharding").value == "zero3"


def test_lightning_1x_gpus_from_argparse(tmp_path):
    code = LIT.replace("dataset = [1, 2, 3]", "import argparse\n    p = argparse.ArgumentParser()\n"
                       "    p.add_argument('--gpus', type=int, default=1)\n    args = p.parse_args()\n"
                       "    dataset = [1, 2, 3]").replace("ARGS", "gpus=args.gpus")
    (tmp_path / "train.py").write_text(textwrap.dedent(code), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path, argv=["--gpus", "4"], strict=True)
    assert lit(plan, "dist.devices_per_node").value == 4
    assert lit(plan, "dist.world_size").value == 4


@pytest.mark.parametrize("args", ["gpus=-1", 'gpus="-1"'])
def test_lightning_1x_all_gpus_is_a_note_not_a_count(tmp_path, args):
    plan = lit_plan(tmp_path, args)
    assert lit(plan, "dist.devices_per_node") is None and lit(plan, "dist.world_size") is None
    assert any("all visible devices" in str(n) for n in plan.notes)


@pytest.mark.parametrize("args", ["gpus=0", "gpus=None", 'accelerator="gpu"', "precision=32"])
def test_no_gpus_flag_leaves_the_devices_unknown(tmp_path, args):
    plan = lit_plan(tmp_path, args)
    assert lit(plan, "dist.devices_per_node") is None and lit(plan, "dist.world_size") is None


def test_gpus_zero_falls_back_to_devices(tmp_path):
    plan = lit_plan(tmp_path, 'gpus=0, devices=2, accelerator="cpu"')
    assert lit(plan, "dist.devices_per_node").value == 2


def test_accelerator_gpu_is_not_a_strategy(tmp_path):
    plan = lit_plan(tmp_path, 'accelerator="gpu", devices=1')
    assert lit(plan, "dist.sharding").value == "none"
    assert "accelerator" not in (lit(plan, "dist.sharding").source.detail or "")


# --------------------------------------------------------------------------- knowable absences

# lllyasviel/ControlNet @ ed85cd1e25a5ed592f7d8178495b4483de0331bf: tutorial_train.py:20-35 builds the
# model from models/cldm_v15.yaml (`target: cldm.cldm.ControlLDM`, never imported by the script) and
# runs pl.Trainer(gpus=1).fit(model, dataloader); the LightningModule's training_step is in
# ldm/models/diffusion/ddpm.py; no file of the repository names torch.compile.
CN_TRAIN = """\
    import pytorch_lightning as pl
    from torch.utils.data import DataLoader
    from cldm.model import create_model

    model = create_model('./models/cldm_v15.yaml').cpu()
    dataloader = DataLoader([1, 2], num_workers=0, batch_size=4, shuffle=True)
    trainer = pl.Trainer(gpus=1, precision=32)
    trainer.fit(model, dataloader)
"""
CN_MODEL = """\
    from omegaconf import OmegaConf
    import importlib

    def create_model(config_path):
        config = OmegaConf.load(config_path)
        module, cls = config.model.target.rsplit(".", 1)
        return getattr(importlib.import_module(module), cls)(**config.model.get("params", {}))
"""
CN_LDM = """\
    import pytorch_lightning as pl
    import torch

    class ControlLDM(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            return self(batch).mean()

        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters(), lr=1e-5)
"""


def _cn(tmp_path: Path, extra: dict[str, str] | None = None) -> None:
    write(tmp_path, {"tutorial_train.py": CN_TRAIN, "cldm/__init__.py": "", "cldm/model.py": CN_MODEL,
                     "cldm/cldm.py": CN_LDM, "models/cldm_v15.yaml": "model:\n  target: cldm.cldm.ControlLDM\n",
                     **(extra or {})})


def test_no_compile_anywhere_in_the_project_is_compile_false(cli, tmp_path):
    _cn(tmp_path)
    plan = plan_of(cli, "tutorial_train.py", cwd=tmp_path)
    comp = fact(plan, "compile.enabled")
    assert comp.value is False and comp.confidence == "medium" and comp.source.path == "tutorial_train.py"
    assert "no Python file of the project" in comp.source.detail


@pytest.mark.parametrize("where, text", [
    ("ldm/util.py", "import torch\n\ndef speed(m):\n    return torch.compile(m)\n"),
    ("ldm/attn.py", "import torch\nfast = torch._dynamo.optimize('inductor')\n"),
    ("cldm/flags.py", "def opts(p):\n    p.add_argument('--torch_compile', action='store_true')\n"),
])
def test_compile_named_in_any_project_file_is_not_absent(cli, tmp_path, where, text):
    _cn(tmp_path, {where: text})
    plan = plan_of(cli, "tutorial_train.py", cwd=tmp_path)
    assert fact(plan, "compile.enabled") is None


def test_compile_named_on_the_launch_line_is_not_absent(cli, tmp_path):
    _cn(tmp_path)
    plan = plan_of(cli, "tutorial_train.py", "--", "--compile=true", cwd=tmp_path)
    assert fact(plan, "compile.enabled") is None


def test_no_training_code_anywhere_claims_nothing(cli, tmp_path):
    _cn(tmp_path, {"cldm/cldm.py": "class ControlLDM:\n    pass\n",
                   "tutorial_train.py": CN_TRAIN.replace("trainer.fit(model, dataloader)", "print(trainer)")})
    plan = plan_of(cli, "tutorial_train.py", cwd=tmp_path)
    assert fact(plan, "compile.enabled") is None


# simplescaling/s1 @ the labelled commit: train/sft.py parses HfArgumentParser((TrainingConfig,
# trl.SFTConfig)) and requirements.txt pins trl==0.12.0 and transformers==4.46.1; the launch line
# (train/sft.sh) gives no --dataloader_num_workers and no --gradient_checkpointing.
S1 = """\
    from dataclasses import dataclass, field
    import transformers
    import trl

    @dataclass
    class TrainingConfig:
        model_name: str = field(default="Qwen/Qwen2.5-32B-Instruct")
        block_size: int = field(default=32768)

    def train():
        parser = transformers.HfArgumentParser((TrainingConfig, trl.SFTConfig))
        config, args = parser.parse_args_into_dataclasses()
        model = transformers.AutoModelForCausalLM.from_pretrained(config.model_name)
        trainer = trl.SFTTrainer(model, train_dataset=None, args=args)
        trainer.train()

    if __name__ == "__main__":
        train()
"""


def _s1(tmp_path: Path, trl: str = "trl==0.12.0") -> None:
    write(tmp_path, {"train/sft.py": S1, "requirements.txt": f"transformers==4.46.1\n{trl}\ntorch==2.5.1\n"})


def test_trainer_default_workers_is_zero(cli, tmp_path):
    _s1(tmp_path)
    plan = plan_of(cli, "train/sft.py", "--", "--per_device_train_batch_size=1", cwd=tmp_path)
    workers = fact(plan, "data.num_workers")
    assert workers.value == 0 and workers.source.kind == "default"
    assert "dataloader_num_workers=0" in workers.source.detail


def test_trainer_workers_given_on_the_line_win(cli, tmp_path):
    _s1(tmp_path)
    plan = plan_of(cli, "train/sft.py", "--", "--dataloader_num_workers=4", cwd=tmp_path)
    assert fact(plan, "data.num_workers").value == 4


def test_pinned_old_trl_sftconfig_inherits_checkpointing_off(cli, tmp_path):
    _s1(tmp_path)
    plan = plan_of(cli, "train/sft.py", "--", "--bf16=True", cwd=tmp_path)
    ckpt = fact(plan, "memory.gradient_checkpointing")
    assert ckpt.value is False  # before: True, trl's newer SFTConfig default
    assert fact(plan, "precision.mode").value == "amp_bf16"


@pytest.mark.parametrize("trl", ["trl==0.22.0", "trl>=0.12.0", ""])
def test_new_or_unpinned_trl_keeps_the_sftconfig_default(cli, tmp_path, trl):
    _s1(tmp_path, trl)
    plan = plan_of(cli, "train/sft.py", cwd=tmp_path)
    assert fact(plan, "memory.gradient_checkpointing").value is True


def test_pinned_old_trl_with_checkpointing_on_the_line(cli, tmp_path):
    _s1(tmp_path)
    plan = plan_of(cli, "train/sft.py", "--", "--gradient_checkpointing=True", cwd=tmp_path)
    assert fact(plan, "memory.gradient_checkpointing").value is True


# --------------------------------------------------------------------------- typed-argument-parser Tap

# FoundationVision/VAR @ 78b95394fc5896192e3a003e4b295f8ea743c48f: utils/arg_util.py:25-76
# (class Args(Tap) whose comments are the options' help: `bs: int = 768  # global batch size`,
# `glb_batch_size: int = 0 # [automatically set; don't specify this] global batch size = ...`),
# parsed by Args(explicit_bool=True).parse_args(known_only=True); README.md:134 torchrun ... --bs=768.
VAR = """\
    import torch
    from torch.utils.data import DataLoader
    from tap import Tap


    class Args(BASE):
        data_path: str = '/path/to/imagenet'
        bs: int = 768           # global batch size
        batch_size: int = 0     # [automatically set] batch size per GPU = round(args.bs / args.ac / world)
        glb_batch_size: int = 0 # [automatically set; don't specify this] global batch size = args.batch_size * world
        workers: int = 0        # num workers; 0: auto


    args = Args(explicit_bool=True).parse_args(known_only=True)
    model = torch.nn.Linear(2, 2)
    opt = torch.optim.AdamW(model.parameters())
    for x in DataLoader([1, 2], batch_size=4):
        model(x).sum().backward()
        opt.step()
"""


def test_tap_comment_documents_the_global_batch(cli, tmp_path):
    write(tmp_path, {"train.py": VAR.replace("BASE", "Tap")})
    plan = plan_of(cli, "train.py", "--", "--bs=512", "--data_path=/data", cwd=tmp_path)
    glob = fact(plan, "batch.global")
    assert glob.value == 512 and glob.source.key == "--bs" and "global batch size" in glob.source.detail


def test_tap_two_global_options_none_given_claims_nothing(cli, tmp_path):
    write(tmp_path, {"train.py": VAR.replace("BASE", "Tap")})
    plan = plan_of(cli, "train.py", "--", "--data_path=/data", cwd=tmp_path)
    glob = fact(plan, "batch.global")
    # neither Tap option is claimed; since jobs27 the loop's own product (the DataLoader's 4 x one
    # step per batch x one process) may be derived, which is this program's global batch
    assert glob is None or (glob.source.kind == "derived" and glob.value == 4), glob


def test_comments_of_a_class_that_is_not_tap_are_not_help(cli, tmp_path):
    write(tmp_path, {"train.py": VAR.replace("BASE", "object")})
    plan = plan_of(cli, "train.py", "--", "--bs=512", cwd=tmp_path)
    glob = fact(plan, "batch.global")
    assert glob is None or (glob.source.kind == "derived" and glob.value == 4), glob  # the loop's own (jobs27)


def test_tap_comment_not_about_the_global_batch(cli, tmp_path):
    write(tmp_path, {"train.py": VAR.replace("BASE", "Tap").replace("# global batch size", "# images per step")
                     .replace("global batch size = ", "total = ")})
    plan = plan_of(cli, "train.py", "--", "--bs=512", cwd=tmp_path)
    glob = fact(plan, "batch.global")
    assert glob is None or (glob.source.kind == "derived" and glob.value == 4), glob  # the loop's own (jobs27)


# --------------------------------------------------------------------------- Hydra: the workspace _target_

# real-stanford/diffusion_policy @ 5ba07ac6661db573af695b419a7947ecb704690f: train.py:27-31
# (cls = hydra.utils.get_class(cfg._target_); workspace = cls(cfg); workspace.run()), the config's
# top-level `_target_: diffusion_policy.workspace.train_diffusion_unet_hybrid_workspace.X`, and that
# module's run(): DataLoader(dataset, **cfg.dataloader) (:75), DataLoader(val, **cfg.val_dataloader)
# (:80), loss = raw_loss / cfg.training.gradient_accumulate_every (:167).
WS_TRAIN = """\
    import hydra
    from omegaconf import OmegaConf

    @hydra.main(version_base=None, config_path="conf", config_name="run")
    def main(cfg: OmegaConf):
        cls = hydra.utils.get_class(cfg._target_)
        workspace = cls(cfg)
        workspace.run()

    if __name__ == "__main__":
        main()
"""
WS_MODULE = """\
    import copy
    import torch
    from torch.utils.data import DataLoader

    class TrainWorkspace:
        def __init__(self, cfg):
            self.cfg = cfg
            self.model = torch.nn.Linear(2, 2)

        def run(self):
            cfg = copy.deepcopy(self.cfg)
            train_dataloader = LOADER(dataset, **cfg.dataloader)
            val_dataloader = DataLoader(val_dataset, **cfg.val_dataloader)
            for batch in train_dataloader:
                loss = self.model(batch).mean() / cfg.training.gradient_accumulate_every
                loss.backward()
"""
WS_CONFIG = """\
    _target_: TARGET
    dataloader:
      batch_size: 64
      num_workers: 8
      pin_memory: true
    val_dataloader:
      batch_size: 16
      num_workers: 1
      pin_memory: false
    training:
      gradient_accumulate_every: 2
"""


@pytest.fixture
def ws(cli, tmp_path):
    def run(target: str = "policy.workspace.train_workspace.TrainWorkspace", loader: str = "DataLoader") -> dict:
        write(tmp_path, {"train.py": WS_TRAIN, "conf/run.yaml": WS_CONFIG.replace("TARGET", target),
                         "policy/__init__.py": "", "policy/workspace/__init__.py": "",
                         "policy/workspace/train_workspace.py": WS_MODULE.replace("LOADER", loader)})
        return plan_of(cli, "train.py", cwd=tmp_path)
    return run


def test_loader_section_of_the_workspace_target(ws):
    plan = ws()
    micro, workers, pin = fact(plan, "batch.micro"), fact(plan, "data.num_workers"), fact(plan, "data.pin_memory")
    assert (micro.value, workers.value, pin.value) == (64, 8, True)
    assert micro.source.path == "conf/run.yaml" and micro.source.line == 3
    assert "given to a data loader as num_workers" in workers.source.detail
    assert fact(plan, "batch.grad_accum").value == 2


def test_a_library_target_is_not_read(ws):
    plan = ws(target="torch.nn.Identity")
    assert fact(plan, "data.num_workers") is None and fact(plan, "batch.grad_accum") is None


def test_a_section_given_to_something_else_is_not_the_loader(ws):
    plan = ws(loader="make_sampler")
    assert fact(plan, "data.num_workers") is None and fact(plan, "data.pin_memory") is None
    assert fact(plan, "batch.micro") is None or fact(plan, "batch.micro").value != 16  # never the val loader


# --------------------------------------------------------------------------- prefigure's defaults.ini

# Stability-AI/stable-audio-tools @ 50049e379e2f: train.py:7,26 (from prefigure.prefigure import
# get_all_args; args = get_all_args()), :148-156 (pl.Trainer(num_nodes=args.num_nodes,
# precision=args.precision, accumulate_grad_batches=args.accum_batches, **val_args)) and
# defaults.ini ([DEFAULTS] batch_size = 4, num_nodes = 1, precision = "16-mixed", accum_batches = 1).
# drscotthawley/prefigure prefigure/prefigure.py: read_defaults reads defaults.ini (or --config-file),
# setup_args adds --key-name per key with literal_eval(value) as default.
PF_TRAIN = """\
    import pytorch_lightning as pl
    from prefigure.prefigure import get_all_args

    def main():
        args = GET()
        model = object()
        val_args = {}
        trainer = pl.Trainer(devices="auto", num_nodes=args.num_nodes, precision=args.precision,
                             accumulate_grad_batches=args.accum_batches, **val_args)
        trainer.fit(model)

    if __name__ == "__main__":
        main()
"""
PF_INI = """\
    [DEFAULTS]

    # number of nodes to use for training
    num_nodes = 1

    # Precision to use for training
    precision = "16-mixed"

    # Batches for gradient accumulation
    accum_batches = 1
"""


def _pf(tmp_path: Path, get: str = "get_all_args", ini: str = "defaults.ini") -> None:
    write(tmp_path, {"train.py": PF_TRAIN.replace("GET", get), ini: PF_INI})


def test_prefigure_defaults_ini_declares_the_options(cli, tmp_path):
    _pf(tmp_path)
    plan = plan_of(cli, "train.py", "--", "--name", "run1", cwd=tmp_path)
    assert fact(plan, "precision.mode").value == "amp_fp16"
    assert fact(plan, "dist.nodes").value == 1
    assert fact(plan, "batch.grad_accum").value == 1


def test_prefigure_launch_line_overrides_the_ini(cli, tmp_path):
    _pf(tmp_path)
    plan = plan_of(cli, "train.py", "--", "--precision", "bf16-mixed", "--accum-batches", "4", cwd=tmp_path)
    assert fact(plan, "precision.mode").value == "amp_bf16"
    assert fact(plan, "batch.grad_accum").value == 4


def test_prefigure_config_file_on_the_launch_line(cli, tmp_path):
    _pf(tmp_path, ini="cfg/mine.ini")
    plan = plan_of(cli, "train.py", "--", "--config-file", "cfg/mine.ini", cwd=tmp_path)
    assert fact(plan, "batch.grad_accum").value == 1


def test_without_the_ini_nothing_is_declared(cli, tmp_path):
    _pf(tmp_path, ini="elsewhere/defaults.ini")
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "batch.grad_accum") is None and fact(plan, "precision.mode") is None


def test_a_project_function_of_the_same_name_is_not_prefigure(cli, tmp_path):
    _pf(tmp_path)
    code = (tmp_path / "train.py").read_text().replace("from prefigure.prefigure import get_all_args",
                                                       "from myargs import get_all_args")
    (tmp_path / "train.py").write_text(code)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "batch.grad_accum") is None


# --------------------------------------------------------------------------- compile after the Trainer took the model

# AI4Finance-Foundation/FinGPT @ ec315843886d: fingpt/FinGPT_Forecaster/train_lora.py:169-191 (the
# tloen/alpaca-lora finetune.py shape): trainer = Trainer(model=model, ...); then
# `model = torch.compile(model)` rebinds the local name; trainer.train() runs the module it holds.
FG = """\
    import sys
    import torch
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    def main():
        model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-chat-hf")
        training_args = TrainingArguments(output_dir="out", per_device_train_batch_size=1)
        BEFORE
        trainer = Trainer(model=model, args=training_args, train_dataset=None)
        AFTER
        trainer.train()
        model.save_pretrained("out")

    if __name__ == "__main__":
        main()
"""
COMPILE = 'if torch.__version__ >= "2" and sys.platform != "win32":\n            model = torch.compile(model)'


def _fg(tmp_path: Path, before: str = "pass", after: str = "pass") -> dict:
    return {"train.py": FG.replace("BEFORE", before).replace("AFTER", after)}


def test_compile_after_the_trainer_took_the_model_is_not_compile(cli, tmp_path):
    write(tmp_path, _fg(tmp_path, after=COMPILE))
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    comp = fact(plan, "compile.enabled")
    assert comp.value is False and comp.source.kind == "default"  # the Trainer's torch_compile=False
    assert any("rebinds model after Trainer(model=model)" in n for n in plan["notes"])


def test_compile_before_the_trainer_is_compile(cli, tmp_path):
    write(tmp_path, _fg(tmp_path, before=COMPILE))
    assert fact(plan_of(cli, "train.py", cwd=tmp_path), "compile.enabled").value is True


def test_compiled_module_handed_to_the_trainer_is_compile(cli, tmp_path):
    write(tmp_path, _fg(tmp_path, after=COMPILE + "\n        trainer.model = model"))
    assert fact(plan_of(cli, "train.py", cwd=tmp_path), "compile.enabled").value is True


def test_compile_of_another_module_after_the_trainer_is_compile(cli, tmp_path):
    write(tmp_path, _fg(tmp_path, after="head = torch.compile(model.lm_head)"))
    assert fact(plan_of(cli, "train.py", cwd=tmp_path), "compile.enabled").value is True


def test_a_script_that_runs_no_training_gets_no_compile_absence(cli, tmp_path):
    # the project trains elsewhere (cldm/cldm.py's training_step), but this script neither fits a
    # Lightning trainer nor builds a class its config names: nothing is said about its compile
    _cn(tmp_path, {"tutorial_train.py": "from cldm.model import create_model\n\n"
                                        "model = create_model('./models/cldm_v15.yaml')\nprint(model)\n"})
    plan = plan_of(cli, "tutorial_train.py", cwd=tmp_path)
    assert fact(plan, "compile.enabled") is None
