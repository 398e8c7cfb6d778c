"""PF527-PF528 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the
launch command); findings on JSON lines are pinned in a ``# --- expect`` section."""

import textwrap

BAD_EXAMPLES = [
    # DeepSpeed issue 5726: a cosine schedule passed to initialize and a WarmupLR block in the config
    textwrap.dedent("""
    # --- train.py
    import deepspeed
    import torch
    from transformers import get_cosine_schedule_with_warmup


    def train(model, total_steps):
        optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
        lr_scheduler = get_cosine_schedule_with_warmup(optimizer, 2000, total_steps)
        engine, optimizer, _, lr_scheduler = deepspeed.initialize(
            model=model, optimizer=optimizer, lr_scheduler=lr_scheduler, config="ds_config.json")
        return engine
    # --- ds_config.json
    {
      "train_micro_batch_size_per_gpu": 8,
      "zero_optimization": {"stage": 2},
      "scheduler": {
        "type": "WarmupLR",
        "params": {"warmup_min_lr": 0, "warmup_max_lr": 3e-4, "warmup_num_steps": 2000}
      }
    }
    # --- expect
    ds_config.json:4: warning: PF527
"""),
    # transformers issue 15508: WarmupLR with "auto" values under the HF Trainer (no decay)
    textwrap.dedent("""
    # --- run.py
    from transformers import HfArgumentParser, Seq2SeqTrainer, Seq2SeqTrainingArguments


    def main(model, train_dataset):
        (training_args,) = HfArgumentParser(Seq2SeqTrainingArguments).parse_args_into_dataclasses()
        trainer = Seq2SeqTrainer(model=model, args=training_args, train_dataset=train_dataset)
        trainer.train()
    # --- ds_config.json
    {
      "optimizer": {"type": "AdamW", "params": {"lr": "auto"}},
      "scheduler": {
        "type": "WarmupLR",
        "params": {"warmup_min_lr": "auto", "warmup_max_lr": "auto", "warmup_num_steps": "auto"}
      },
      "train_micro_batch_size_per_gpu": "auto"
    }
    # --- launch
    deepspeed --num_gpus 4 run.py --deepspeed ds_config.json --learning_rate 5e-5 --warmup_steps 500
    # --- expect
    ds_config.json:3: warning: PF527
"""),
]

GOOD_EXAMPLES = [
    # the 5726 fix: the client's schedule only
    textwrap.dedent("""
    # --- train.py
    import deepspeed
    import torch
    from transformers import get_cosine_schedule_with_warmup


    def train(model, total_steps):
        optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
        lr_scheduler = get_cosine_schedule_with_warmup(optimizer, 2000, total_steps)
        engine, optimizer, _, lr_scheduler = deepspeed.initialize(
            model=model, optimizer=optimizer, lr_scheduler=lr_scheduler, config="ds_config.json")
        return engine
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 8, "zero_optimization": {"stage": 2}}
"""),
    # the config's schedule only (no lr_scheduler given, or None)
    textwrap.dedent("""
    # --- train.py
    import deepspeed


    def train(model):
        engine, optimizer, _, lr_scheduler = deepspeed.initialize(
            model=model, model_parameters=model.parameters(), lr_scheduler=None, config="ds_config.json")
        return engine, lr_scheduler
    # --- ds_config.json
    {
      "train_micro_batch_size_per_gpu": 8,
      "optimizer": {"type": "AdamW", "params": {"lr": 3e-4}},
      "scheduler": {"type": "WarmupDecayLR",
                    "params": {"warmup_max_lr": 3e-4, "warmup_num_steps": 100, "total_num_steps": 10000}}
    }
"""),
    # the 15508 fix: a decaying DeepSpeed schedule under the Trainer
    textwrap.dedent("""
    # --- run.py
    from transformers import HfArgumentParser, Seq2SeqTrainer, Seq2SeqTrainingArguments


    def main(model, train_dataset):
        (training_args,) = HfArgumentParser(Seq2SeqTrainingArguments).parse_args_into_dataclasses()
        Seq2SeqTrainer(model=model, args=training_args, train_dataset=train_dataset).train()
    # --- ds_config.json
    {
      "scheduler": {
        "type": "WarmupDecayLR",
        "params": {"warmup_min_lr": "auto", "warmup_max_lr": "auto", "warmup_num_steps": "auto",
                   "total_num_steps": "auto"}
      },
      "train_micro_batch_size_per_gpu": "auto"
    }
    # --- launch
    deepspeed --num_gpus 4 run.py --deepspeed ds_config.json
"""),
    # a constant schedule asked for on the launch line: WarmupLR is what the user wants
    textwrap.dedent("""
    # --- run.py
    from transformers import HfArgumentParser, Trainer, TrainingArguments


    def main(model, train_dataset):
        (training_args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
        Trainer(model=model, args=training_args, train_dataset=train_dataset).train()
    # --- ds_config.json
    {
      "scheduler": {"type": "WarmupLR", "params": {"warmup_max_lr": "auto", "warmup_num_steps": "auto"}},
      "train_micro_batch_size_per_gpu": "auto"
    }
    # --- launch
    deepspeed run.py --deepspeed ds_config.json --lr_scheduler_type constant_with_warmup
"""),
    # BELLE's layout: a DeepSpeed-Chat script with its own dict config and scheduler, next to the
    # project's JSON configs (with scheduler blocks) that its HF Trainer scripts use
    textwrap.dedent("""
    # --- dschat/main.py
    import deepspeed
    from utils.ds_utils import get_train_ds_config


    def main(args, model, optimizer, lr_scheduler):
        ds_config = get_train_ds_config(offload=args.offload, stage=args.zero_stage)
        model, optimizer, _, lr_scheduler = deepspeed.initialize(
            model=model, optimizer=optimizer, args=args, config=ds_config, lr_scheduler=lr_scheduler)
        return model
    # --- configs/deepspeed_config.json
    {
      "train_micro_batch_size_per_gpu": 4,
      "optimizer": {"type": "AdamW", "params": {"lr": 2e-5}},
      "scheduler": {"type": "WarmupDecayLR", "params": {"warmup_max_lr": 2e-5, "total_num_steps": 10000}}
    }
"""),
]

PF528_BAD = [
    # DeepSpeed issue 7303: WarmupLR without warmup_max_lr over an AdamW lr of 5e-7
    textwrap.dedent("""
    # --- train.py
    import deepspeed


    def train(model, train_dataset):
        engine, optimizer, loader, scheduler = deepspeed.initialize(
            model=model, model_parameters=model.parameters(), training_data=train_dataset, config="ds_config.json")
        return engine
    # --- ds_config.json
    {
      "bf16": {"enabled": true},
      "optimizer": {"type": "AdamW", "params": {"lr": 5e-7, "weight_decay": 3e-7}},
      "scheduler": {
        "type": "WarmupLR",
        "params": {"warmup_num_steps": 1}
      },
      "train_micro_batch_size_per_gpu": 1
    }
    # --- expect
    ds_config.json:6: warning: PF528
"""),
    # WarmupDecayLR keeps the 0.001 default in every release
    textwrap.dedent("""
    # --- train.py
    import deepspeed

    engine, *_ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds.json")
    # --- requirements.txt
    deepspeed==0.18.0
    # --- ds.json
    {
      "optimizer": {"type": "Adam", "params": {"lr": 2e-5}},
      "scheduler": {"type": "WarmupDecayLR", "params": {"warmup_num_steps": 100, "total_num_steps": 5000}},
      "train_micro_batch_size_per_gpu": 4
    }
    # --- expect
    ds.json:3: warning: PF528
"""),
]

PF528_GOOD = [
    # the 7303 fix
    textwrap.dedent("""
    # --- train.py
    import deepspeed

    engine, *_ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds_config.json")
    # --- ds_config.json
    {
      "optimizer": {"type": "AdamW", "params": {"lr": 5e-7}},
      "scheduler": {"type": "WarmupLR", "params": {"warmup_min_lr": 0, "warmup_max_lr": 5e-7, "warmup_num_steps": 1}},
      "train_micro_batch_size_per_gpu": 1
    }
"""),
    # WarmupLR inherits the optimizer's lr from DeepSpeed 0.17.2, declared by the project
    textwrap.dedent("""
    # --- train.py
    import deepspeed

    engine, *_ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds.json")
    # --- requirements.txt
    deepspeed>=0.17.2
    # --- ds.json
    {
      "optimizer": {"type": "AdamW", "params": {"lr": 1e-5}},
      "scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": 100}},
      "train_micro_batch_size_per_gpu": 1
    }
"""),
    # the HF integration fills "auto" values; the optimizer's lr is "auto" too
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", deepspeed="ds.json", learning_rate=2e-5,
                             lr_scheduler_type="constant_with_warmup")
    # --- ds.json
    {
      "optimizer": {"type": "AdamW", "params": {"lr": "auto"}},
      "scheduler": {"type": "WarmupLR", "params": {"warmup_max_lr": "auto", "warmup_num_steps": "auto"}},
      "train_micro_batch_size_per_gpu": "auto"
    }
"""),
]

_HYDRA_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    import torchvision
    from torch.utils.data import DataLoader


    @hydra.main(config_path="recipes", config_name="cifar10", {version})
    def main(cfg):
        train_set = torchvision.datasets.CIFAR10(root={root}, train=True, download=True){pin}
        loader = DataLoader(train_set, batch_size=cfg.training.batch_size, shuffle=True)
        return loader


    if __name__ == "__main__":
        main()
    # --- recipes/cifar10.yaml
    dataset:
      root: {value}
    training:
      batch_size: 128
    {extra}""")

_LISTDIR_APP = textwrap.dedent("""
    # --- train.py
    import os

    import hydra
    {imp}

    @hydra.main(config_name="test_config.yaml")
    def run(cfg):
        print(os.getcwd())
        files = sorted(os.listdir({arg})){pin}
        with open(cfg.TRAIN.LOG, "w") as log:
            log.write(str(len(files)))


    if __name__ == "__main__":
        run()
    # --- test_config.yaml
    DATA:
      DATA_DIR: ../datasets/train
    TRAIN:
      LOG: train.log
""")

_INSTANTIATED_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    from hydra.utils import instantiate


    @hydra.main(config_path="configs", config_name="train", version_base="1.1")
    def main(cfg):
        dataset = instantiate(cfg.datamodule)
        return len(dataset)


    if __name__ == "__main__":
        main()
    # --- configs/train.yaml
    defaults:
      - datamodule: mnist
      - _self_
    # --- configs/datamodule/mnist.yaml
    _target_: torchvision.datasets.mnist.MNIST
    root: {root}{pin}
    train: true
""")

_RESUME_APP = textwrap.dedent("""
    # --- search.py
    import os

    import hydra
    import torch
    from torch.utils.data import DataLoader
    from torchvision import datasets


    @hydra.main(config_path="conf", config_name="search")
    def main(cfg):
        loader = DataLoader(datasets.CIFAR10(hydra.utils.to_absolute_path(cfg.data_dir), train=True), batch_size=64)
        model = torch.nn.Linear(10, 10)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    {prepare}    if cfg.resume and os.path.exists({resume}):{pin}
            ckpt = torch.load({resume})
            model.load_state_dict(ckpt["model"])
            optimizer.load_state_dict(ckpt["optimizer"])
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()
        torch.save({{"model": model.state_dict(), "optimizer": optimizer.state_dict()}}, "last.pt")


    if __name__ == "__main__":
        main()
    # --- conf/search.yaml
    data_dir: data/cifar10
    resume: checkpoints/last.pt
""")

_LITERAL_RESUME_APP = textwrap.dedent("""
    # --- train.py
    import os

    import hydra
    import torch


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg):
        model = torch.nn.Linear(10, 10).cuda()
        optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
        step = 0
        ckpt_path = "checkpoints/last.pt"
        if cfg.resume and os.path.exists(ckpt_path):{pin}
            state = torch.load(ckpt_path)
            model.load_state_dict(state["model"])
            optimizer.load_state_dict(state["optimizer"])
            step = state["step"]
        os.makedirs("checkpoints", exist_ok=True)
        while step < cfg.total_steps:
            optimizer.zero_grad()
            model(torch.randn(8, 10, device="cuda")).sum().backward()
            optimizer.step()
            step += 1
            torch.save({{"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step}}, ckpt_path)


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    resume: true
    total_steps: 1000
    lr: 0.001
    hydra:
      job:
        chdir: true
      run:
        dir: {run_dir}
""")

PF529_BAD = [
    # held-out-23's report: a relaunch after a crash looks for the checkpoint in a new timestamped folder
    _LITERAL_RESUME_APP.format(run_dir="outputs/${now:%Y-%m-%d}/${now:%H-%M-%S}", pin="  # warning: PF529"),
    # nnabla-nas PR 57 (held-out-28): the data folder is made absolute, the resume path is not; the
    # existence test looks in the fresh run folder and the "resumed" run starts from scratch
    _RESUME_APP.format(prepare="", resume="cfg.resume", pin="  # warning: PF529"),
    # super-gradients PR 321: "./data" under Hydra 1.1 semantics, downloaded again on every run
    _HYDRA_APP.format(version='version_base="1.1"', root="cfg.dataset.root", pin="  # warning: PF529",
                      value="./data", extra=""),
    # version_base not given (Hydra >= 1.2 then behaves as 1.1), a bare relative folder
    _HYDRA_APP.format(version="", root="cfg.dataset.root", pin="  # warning: PF529", value="datasets/cifar10",
                      extra=""),
    # hydra issue 922: no config_path and no version_base (config_path "." and the 1.1 chdir), a path read
    # positionally by os.listdir
    _LISTDIR_APP.format(imp="", arg="cfg.DATA.DATA_DIR", pin="  # warning: PF529"),
    # hydra issue 1680: a dataset node built by instantiate with a root relative to the run folder
    _INSTANTIATED_APP.format(root="../../../data/MNIST", pin="  # warning: PF529"),
]

PF529_GOOD = [
    # the fix: the path made absolute against the launch directory
    _HYDRA_APP.format(version='version_base="1.1"', root="hydra.utils.to_absolute_path(cfg.dataset.root)",
                      value="./data", extra="", pin=""),
    # Hydra 1.2 semantics keep the launch directory
    _HYDRA_APP.format(version='version_base="1.3"', root="cfg.dataset.root", value="./data", extra="", pin=""),
    _HYDRA_APP.format(version="version_base=None", root="cfg.dataset.root", value="./data", extra="", pin=""),
    # chdir switched off in the config
    _HYDRA_APP.format(version='version_base="1.1"', root="cfg.dataset.root", value="./data",
                      extra="hydra:\n  job:\n    chdir: false\n", pin=""),
    # an absolute path, or one built from an interpolation (lightning-hydra-template's paths.data_dir)
    _HYDRA_APP.format(version='version_base="1.1"', root="cfg.dataset.root", value="/datasets/cifar10",
                      extra="", pin=""),
    _HYDRA_APP.format(version='version_base="1.1"', root="cfg.dataset.root", value="${oc.env:DATA_ROOT}/cifar",
                      extra="", pin=""),
    # the fixes of hydra issues 922 and 1680 (a file written in the run folder stays silent)
    _LISTDIR_APP.format(imp="from hydra.utils import to_absolute_path\n", arg="to_absolute_path(cfg.DATA.DATA_DIR)",
                        pin=""),
    _INSTANTIATED_APP.format(root="${hydra:runtime.cwd}/data/MNIST", pin=""),
    # nnabla-nas's fix: the resume path made absolute too (wrapped where it is read, or assigned back)
    _RESUME_APP.format(prepare="", resume="hydra.utils.to_absolute_path(cfg.resume)", pin=""),
    _RESUME_APP.format(prepare="    cfg.resume = hydra.utils.to_absolute_path(cfg.resume)\n", resume="cfg.resume",
                       pin=""),
    # its fix: one fixed folder per experiment, so the relaunch finds the checkpoint it wrote
    _LITERAL_RESUME_APP.format(run_dir="outputs/${experiment_name}", pin="").replace(
        "resume: true", "experiment_name: vit\nresume: true"),
    # tricky: the timestamped folder, but relaunched into the earlier run's folder on the launch line
    _LITERAL_RESUME_APP.format(run_dir="outputs/${now:%Y-%m-%d}/${now:%H-%M-%S}", pin="") +
    "# --- launch\npython train.py hydra.run.dir=outputs/2024-01-01/10-00-00\n",
    # the launch directory restored for every path at once
    _RESUME_APP.format(prepare="    os.chdir(hydra.utils.get_original_cwd())\n", resume="cfg.resume", pin=""),
]

_CONTAINER_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    from omegaconf import OmegaConf
    from transformers import Trainer, TrainingArguments


    @hydra.main(config_path="conf", config_name="config", version_base="1.3")
    def main(cfg):
    {before}    training_kwargs = OmegaConf.to_container({args}){pin}
        args = TrainingArguments(**training_kwargs)
        Trainer(model=None, args=args).train()


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    experiment: bert-base-sst2
    paths:
      root: /scratch/runs
    training:
      output_dir: {output_dir}
      run_name: bert
      learning_rate: 2.0e-5
""")

PF544_BAD = [
    # omegaconf issue 1145: the node holds interpolations, copied unresolved into TrainingArguments
    _CONTAINER_APP.format(before="", args="cfg.training", pin="  # warning: PF544",
                          output_dir="${paths.root}/checkpoints"),
]

PF544_GOOD = [
    # the fix
    _CONTAINER_APP.format(before="", args="cfg.training, resolve=True", pin="",
                          output_dir="${paths.root}/checkpoints"),
    # resolved in place first (held-out-8's tricky-correct shape)
    _CONTAINER_APP.format(before="    OmegaConf.resolve(cfg)\n", args="cfg.training", pin="",
                          output_dir="${paths.root}/checkpoints"),
    # no interpolation in the node: nothing to resolve
    _CONTAINER_APP.format(before="", args="cfg.training", pin="", output_dir="/scratch/runs/checkpoints"),
]
