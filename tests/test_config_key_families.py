"""Plan fields read from the keys of a job's own config file when no adapter found them
(adapters/config_key_families.py, config_key_pyfile.py). Fixtures of our own copying real shapes
(named at each), each with twins that must stay unknown."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write


def ours(plan: dict, field: str):
    """The fact config_key_families wrote for ``field`` (None when it wrote none)."""
    from preflight.plan import TrainingPlan

    return next((f for f in TrainingPlan.from_dict(plan).facts(field) if f.adapter == "config_key_families"), None)


# facebookresearch/vjepa2 @ c2963a47433e: app/main.py:53-73 (yaml.load of --fname, app_main(params["app"],
# args=params)), app/scaffold.py:17 (importlib.import_module(f"app.{app}.train").main(args=args)),
# app/vjepa/train.py:62-115 (cfgs_data.get("crop_size", 224), .get("pin_mem"), .get("num_workers"),
# cfgs_model.get("use_activation_checkpointing"), cfgs_meta.get("use_sdpa")),
# configs/train/vitl16/pretrain-256px-16f.yaml.
VJEPA = {
    "app/__init__.py": "",
    "app/main.py": """\
        import argparse
        import yaml
        from app.scaffold import main as app_main

        parser = argparse.ArgumentParser()
        parser.add_argument("--fname", type=str, default="configs.yaml")

        if __name__ == "__main__":
            args = parser.parse_args()
            with open(args.fname, "r") as y_file:
                params = yaml.load(y_file, Loader=yaml.FullLoader)
            app_main(params["app"], args=params)
    """,
    "app/scaffold.py": """\
        import importlib


        def main(app, args):
            return importlib.import_module(f"app.{app}.train").main(args=args)
    """,
    "app/vjepa/__init__.py": "",
    "app/vjepa/train.py": """\
        import torch


        def main(args):
            cfgs_meta = args.get("meta")
            use_sdpa = cfgs_meta.get("use_sdpa", False)
            cfgs_model = args.get("model")
            use_activation_checkpointing = cfgs_model.get("use_activation_checkpointing", False)
            cfgs_data = args.get("data")
            batch_size = cfgs_data.get("batch_size")
            crop_size = cfgs_data.get("crop_size", 224)
            pin_mem = cfgs_data.get("pin_mem", False)
            num_workers = cfgs_data.get("num_workers", 1)
            cfgs_eval = args.get("evaluation")
            eval_workers = cfgs_eval.get("num_workers")
            loader = make_loader(batch_size, crop_size, pin_mem, num_workers, use_sdpa, use_activation_checkpointing)
            for x in loader:
                loss = x.sum()
                loss.backward()
    """,
    "cfg.yaml": """\
        app: vjepa
        meta:
          use_sdpa: true
        model:
          use_activation_checkpointing: true
        data:
          batch_size: 24
          crop_size: 256
          pin_mem: true
          num_workers: 8
        evaluation:
          num_workers: 2
          crop_size: 384
    """,
}


def test_keys_of_a_yaml_handed_to_a_module_imported_by_name(cli, tmp_path):
    write(tmp_path, VJEPA)
    plan = plan_of(cli, "app/main.py", "--", "--fname", "cfg.yaml", cwd=tmp_path)
    expected = {"data.image_size": (256, 8, "data.crop_size"), "data.num_workers": (8, 10, "data.num_workers"),
                "data.pin_memory": (True, 9, "data.pin_mem"),
                "memory.gradient_checkpointing": (True, 5, "model.use_activation_checkpointing"),
                "model.attn_implementation": ("sdpa", 3, "meta.use_sdpa")}
    for field, (value, line, key) in expected.items():
        got = fact(plan, field)
        assert got is not None, field
        assert (got.value, got.source.path, got.source.line, got.source.key) == (value, "cfg.yaml", line, key), field
        assert got.confidence == "medium" and got.adapter == "config_key_families", field
        assert "app/vjepa/train.py:" in (got.source.detail or ""), field
    # a plain ``batch_size`` is per process in one project and global in the next: not read
    assert fact(plan, "batch.micro") is None


def test_evaluation_section_and_unread_keys_stay_unknown(cli, tmp_path):
    files = dict(VJEPA)
    files["cfg.yaml"] = """\
        app: vjepa
        data:
          batch_size: 24
          device_batch_size: 32
        evaluation:
          num_workers: 2
          crop_size: 384
          micro_batch_size: 4
    """
    write(tmp_path, files)
    plan = plan_of(cli, "app/main.py", "--", "--fname", "cfg.yaml", cwd=tmp_path)
    # the evaluation section's keys are not the training run's; device_batch_size is never read by the code
    for field in ("data.num_workers", "data.image_size", "batch.micro"):
        assert ours(plan, field) is None, field


# huggingface/open-muse @ 64e1afe03371: configs/imagenet.yaml:44 model.gradient_checkpointing True, never read
# by training/train_maskgit_imagenet.py; muse/modeling_transformer.py:506 reads self.gradient_checkpointing
# and muse/modeling_utils.py:253 m.gradient_checkpointing of its modules.
MUSE = {
    "train.py": """\
        import sys
        import torch
        from omegaconf import OmegaConf
        from model import Net

        config = OmegaConf.load(sys.argv[1])
        model = Net()
        opt = torch.optim.AdamW(model.parameters())
        for x in range(10):
            loss = model(x)
            loss.backward()
            opt.step()
    """,
    "model.py": """\
        import torch


        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.gradient_checkpointing = False

            def forward(self, x):
                if self.training and self.gradient_checkpointing:
                    return x
                return any(m.gradient_checkpointing for m in self.modules())
    """,
    "cfg.yaml": """\
        model:
          gradient_checkpointing: True
          use_checkpoint: True
    """,
}


def test_a_switch_that_only_a_model_object_reads_stays_unknown(cli, tmp_path):
    write(tmp_path, MUSE)
    plan = plan_of(cli, "train.py", "--", "cfg.yaml", cwd=tmp_path)
    assert ours(plan, "memory.gradient_checkpointing") is None


def test_the_same_switch_read_from_its_section_is_taken(cli, tmp_path):
    files = dict(MUSE)
    files["train.py"] = MUSE["train.py"].replace(
        "model = Net()", "model = Net()\n        if config.model.gradient_checkpointing:\n            model.enable()")
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", "--", "cfg.yaml", cwd=tmp_path)
    got = ours(plan, "memory.gradient_checkpointing")
    assert got is not None and got.value is True and got.source.line == 2
    assert got.source.key == "model.gradient_checkpointing"


# XPixelGroup/BasicSR @ 8d56e3a045f9: options/train/EDVR/train_EDVR_M_x4_SR_REDS_woTSA.yml:29-30,72-76
# (datasets.train.num_worker_per_gpu 3, batch_size_per_gpu 4; train.optim_g.type Adam),
# basicsr/data/__init__.py:60-61 (dataset_opt['batch_size_per_gpu'], dataset_opt['num_worker_per_gpu']),
# basicsr/models/base_model.py:104-105 (optim_type == 'Adam': torch.optim.Adam).
BASICSR = {
    "train.py": """\
        import argparse
        import torch
        import yaml

        parser = argparse.ArgumentParser()
        parser.add_argument("-opt", type=str, required=True)
        args = parser.parse_args()
        with open(args.opt) as f:
            opt = yaml.safe_load(f)


        def build_loader(dataset_opt):
            return dict(batch_size=dataset_opt["batch_size_per_gpu"], num_workers=dataset_opt["num_worker_per_gpu"])


        model_type = opt["model_type"]
    """,
    # a module the script reaches through a registry (basicsr/models/__init__.py scans the folder)
    "models/base_model.py": """\
        import torch


        class BaseModel:
            def setup_optimizers(self, params):
                train_opt = self.opt["train"]
                optim_type = train_opt["optim_g"].pop("type")
                return self.get_optimizer(optim_type, params, **train_opt["optim_g"])

            def get_optimizer(self, optim_type, params, lr, **kwargs):
                if optim_type == "Adam":
                    return torch.optim.Adam(params, lr, **kwargs)
                raise NotImplementedError(optim_type)
    """,
    "options/train.yml": """\
        model_type: EDVRModel
        datasets:
          train:
            num_worker_per_gpu: 3
            batch_size_per_gpu: 4
          val:
            num_worker_per_gpu: 1
        train:
          optim_g:
            type: Adam
            lr: !!float 4e-4
    """,
}


def test_batch_workers_and_optimizer_class_of_an_options_file(cli, tmp_path):
    write(tmp_path, BASICSR)
    plan = plan_of(cli, "train.py", "--", "-opt", "options/train.yml", cwd=tmp_path)
    micro, workers, name = ours(plan, "batch.micro"), ours(plan, "data.num_workers"), ours(plan, "optimizer.name")
    assert (micro.value, micro.source.line, micro.source.key) == (4, 5, "datasets.train.batch_size_per_gpu")
    assert (workers.value, workers.source.line) == (3, 4)
    assert (name.value, name.source.line, name.source.key) == ("Adam", 10, "train.optim_g.type")
    assert "models/base_model.py:" in name.source.detail


def test_an_optimizer_name_the_code_does_not_build_stays_unknown(cli, tmp_path):
    files = dict(BASICSR)
    # the project maps "Adam" to AdamW: the config's word is not the class
    files["models/base_model.py"] = BASICSR["models/base_model.py"].replace("torch.optim.Adam(", "torch.optim.AdamW(")
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", "--", "-opt", "options/train.yml", cwd=tmp_path)
    assert ours(plan, "optimizer.name") is None


def test_keys_that_disagree_leave_the_field_unknown(cli, tmp_path):
    files = dict(BASICSR)
    files["options/train.yml"] = """\
        datasets:
          train:
            num_worker_per_gpu: 3
        train:
          num_worker_per_gpu: 8
    """
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", "--", "-opt", "options/train.yml", cwd=tmp_path)
    assert ours(plan, "data.num_workers") is None
    assert any("data.num_workers left unknown" in n for n in plan["notes"])


def test_a_field_another_reader_found_is_not_overwritten(cli, tmp_path):
    files = dict(BASICSR)
    files["train.py"] = BASICSR["train.py"] + """
        loader = torch.utils.data.DataLoader(range(10), batch_size=2, num_workers=5)
        model = torch.nn.Linear(2, 2)
        optimizer = torch.optim.Adam(model.parameters())
        for x in loader:
            model(x).sum().backward()
            optimizer.step()
    """
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", "--", "-opt", "options/train.yml", cwd=tmp_path)
    assert fact(plan, "data.num_workers").value == 5
    assert ours(plan, "data.num_workers") is None and ours(plan, "batch.micro") is None


# hpcaitech/Open-Sora @ 7ad6a96a135f: configs/vae/train/video_dc_ae.py:26,32-38,53 (num_workers = 12,
# optim = dict(cls="HybridAdam", ...), grad_checkpoint = False) given positionally to scripts/vae/train.py,
# which reads cfg.get("num_workers"), cfg.get("grad_checkpoint"), cfg.optim; InternLM/InternEvo @ c628a8c87411
# configs/7B_sft.py:4,50-54 (SEQ_LEN = 2048; data = dict(seq_len=SEQ_LEN, micro_num=4, micro_bsz=2)).
OPENSORA = {
    "scripts/train.py": """\
        import sys
        from colossalai.nn.optimizer import HybridAdam
        from mmengine.config import Config

        cfg = Config.fromfile(sys.argv[1])
        workers = cfg.get("num_workers", 4)
        ckpt = cfg.get("grad_checkpoint", False)
        seq_len = gpc.config.data.seq_len
        micro = gpc.config.data.micro_bsz


        def build_optimizer(model, optimizer_config):
            optimizer_name = optimizer_config.pop("cls", "HybridAdam")
            if optimizer_name == "HybridAdam":
                optimizer_cls = HybridAdam
            return optimizer_cls(model.parameters(), **optimizer_config)
    """,
    "configs/train.py": """\
        import os

        SEQ_LEN = 2048
        data = dict(
            seq_len=SEQ_LEN,
            micro_bsz=2,
        )
        num_workers = 12
        optim = dict(
            cls="HybridAdam",
            lr=5e-5,
        )
        grad_checkpoint = False
    """,
}


def test_a_python_config_module_of_literal_assignments(cli, tmp_path):
    write(tmp_path, OPENSORA)
    plan = plan_of(cli, "scripts/train.py", "--", "configs/train.py", cwd=tmp_path)
    expected = {"data.num_workers": (12, 8, "num_workers"), "memory.gradient_checkpointing": (False, 13, "grad_checkpoint"),
                "optimizer.name": ("HybridAdam", 10, "optim.cls"), "data.seq_len": (2048, 5, "data.seq_len"),
                "batch.micro": (2, 6, "data.micro_bsz")}
    for field, (value, line, key) in expected.items():
        got = ours(plan, field)
        assert got is not None, field
        assert (got.value, got.source.path, got.source.line, got.source.key) == (value, "configs/train.py", line, key)


def test_a_python_config_value_that_is_computed_stays_unknown(cli, tmp_path):
    files = dict(OPENSORA)
    files["configs/train.py"] = OPENSORA["configs/train.py"].replace(
        "num_workers = 12", "num_workers = os.cpu_count()").replace("SEQ_LEN = 2048", "SEQ_LEN = int(os.environ['L'])")
    write(tmp_path, files)
    plan = plan_of(cli, "scripts/train.py", "--", "configs/train.py", cwd=tmp_path)
    assert ours(plan, "data.num_workers") is None and ours(plan, "data.seq_len") is None
    assert ours(plan, "batch.micro").value == 2


# bytedance/SALMONN @ a58bba799a2e: configs/config.yaml:38-39,66-69 (model.lora True, lora_rank 8;
# run.accum_grad_iters 1, batch_size_train 8, batch_size_eval 8), models/salmonn.py:460-461
# (config.get("lora", True), config.get("lora_rank", 8)), runner.py:129 (self.config.config.run.accum_grad_iters),
# utils.py:53 (config.batch_size_train if is_train else config.batch_size_eval).
SALMONN = {
    "train.py": """\
        import argparse
        from omegaconf import OmegaConf

        parser = argparse.ArgumentParser()
        parser.add_argument("--cfg-path", required=True)
        args = parser.parse_args()
        cfg = OmegaConf.load(args.cfg_path)


        def build(config):
            lora = config.get("lora", True)
            lora_rank = config.get("lora_rank", 8)
            return lora, lora_rank


        def loader(config, is_train):
            return dict(batch_size=config.batch_size_train if is_train else config.batch_size_eval)


        def step(self, i):
            if (i + 1) % self.config.config.run.accum_grad_iters == 0:
                pass
    """,
    "configs/config.yaml": """\
        model:
          lora: True
          lora_rank: 8
        run:
          accum_grad_iters: 2
          batch_size_train: 8
          batch_size_eval: 16
    """,
}


def test_lavis_style_run_section(cli, tmp_path):
    write(tmp_path, SALMONN)
    plan = plan_of(cli, "train.py", "--", "--cfg-path", "configs/config.yaml", cwd=tmp_path)
    got = {f: ours(plan, f) for f in ("peft.method", "peft.rank", "batch.grad_accum", "batch.micro")}
    assert {f: (g.value, g.source.line) for f, g in got.items() if g} == {
        "peft.method": ("lora", 2), "peft.rank": (8, 3), "batch.grad_accum": (2, 5), "batch.micro": (8, 6)}


def test_lora_switched_off_says_nothing(cli, tmp_path):
    files = dict(SALMONN)
    files["configs/config.yaml"] = SALMONN["configs/config.yaml"].replace("lora: True", "lora: False")
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", "--", "--cfg-path", "configs/config.yaml", cwd=tmp_path)
    assert ours(plan, "peft.method") is None


# HazyResearch/based @ 32c1bd4e09c8: configs/datamodule/wikitext103.yaml:1,7 (_target_:
# train.datamodules.language_modeling_hf.LMDataModule, max_length: 2048), instantiated by Hydra;
# train/datamodules/language_modeling_hf.py:42 ``def __init__(self, dataset_name, ..., max_length=1024, ...)``.
BASED = {
    "run.py": """\
        import hydra


        @hydra.main(config_path="configs", config_name="config")
        def main(config):
            datamodule = hydra.utils.instantiate(config.datamodule)
            model = hydra.utils.instantiate(config.model)
            for batch in datamodule:
                model(batch).backward()


        if __name__ == "__main__":
            main()
    """,
    "datamodules/lm.py": """\
        class LMDataModule:
            def __init__(self, dataset_name, tokenizer_name, max_length=1024,
                         batch_size=32, num_workers=1):
                self.max_length = max_length
    """,
    "configs/config.yaml": """\
        datamodule:
          _target_: datamodules.lm.LMDataModule
          dataset_name: wikitext
          tokenizer_name: gpt2
          max_length: 2048
          num_workers: 4
        model:
          _target_: torch.nn.Linear
          in_features: 2
          out_features: 2
    """,
}


def test_keys_of_a_section_hydra_hands_to_a_project_class(cli, tmp_path):
    write(tmp_path, BASED)
    plan = plan_of(cli, "run.py", cwd=tmp_path)
    seq, workers = ours(plan, "data.seq_len"), ours(plan, "data.num_workers")
    assert (seq.value, seq.source.path, seq.source.line, seq.source.key) == (
        2048, "configs/config.yaml", 5, "datamodule.max_length")
    assert "datamodules/lm.py:2" in seq.source.detail
    # the Hydra reader maps num_workers itself: its fact stays, none of ours beside it
    assert workers is None and fact(plan, "data.num_workers").adapter == "hydra"


def test_a_key_the_built_class_does_not_take_stays_unknown(cli, tmp_path):
    files = dict(BASED)
    files["datamodules/lm.py"] = """\
        class LMDataModule:
            def __init__(self, dataset_name, tokenizer_name, **kwargs):
                self.kwargs = kwargs
    """
    write(tmp_path, files)
    plan = plan_of(cli, "run.py", cwd=tmp_path)
    assert ours(plan, "data.seq_len") is None and ours(plan, "data.num_workers") is None


def test_a_python_config_whose_base_is_missing_is_not_read(cli, tmp_path):
    files = dict(OPENSORA)
    files["configs/train.py"] = OPENSORA["configs/train.py"].replace("import os\n", 'import os\n        _base_ = ["./base.py"]\n')
    write(tmp_path, files)
    # mmengine's Config.fromfile fails on a missing base: the job never gets the values
    plan = plan_of(cli, "scripts/train.py", "--", "configs/train.py", cwd=tmp_path)
    assert ours(plan, "data.num_workers") is None and ours(plan, "batch.micro") is None
    # the base present: the file's own keys win over it (the base's keys are not merged)
    write(tmp_path, {"configs/base.py": "num_workers = 2\n"})
    plan = plan_of(cli, "scripts/train.py", "--", "configs/train.py", cwd=tmp_path)
    assert ours(plan, "data.num_workers").value == 12 and ours(plan, "data.num_workers").source.line == 9
    assert ours(plan, "batch.micro").value == 2
