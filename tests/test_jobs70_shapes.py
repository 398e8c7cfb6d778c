"""Set 34 (issue 15) shapes read wrong or not at all, rebuilt from the real code (jobs70 round).

- A saved adapter loaded to train: ``PeftModel.from_pretrained(model, path, is_trainable=True)``
  in the ``else`` arms of ``if lora_init: get_peft_model(...)`` (yxli2123/LoftQ @ ae33fd4
  ``train_gsm8k.py:221-255``; the same arms in LoftQ-derived and PiSSA training scripts). The guard
  decided false was read as "no PEFT" and ``task.mode`` as full fine-tuning at high confidence.
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

LOFTQ = """\
    from dataclasses import dataclass, field
    from typing import Optional
    import torch
    import transformers
    from peft import LoraConfig, PeftModel, TaskType, get_peft_model


    @dataclass
    class ModelArguments:
        model_name_or_path: Optional[str] = field(default="LoftQ/Mistral-7B-v0.1-4bit-64rank")
        adapter_name_or_path: Optional[str] = field(default=None)
        lora_init: bool = field(default=False)
        rank: int = field(default=64)


    def train():
        parser = transformers.HfArgumentParser((ModelArguments, transformers.TrainingArguments))
        model_args, training_args = parser.parse_args_into_dataclasses()
        model = transformers.AutoModelForCausalLM.from_pretrained(
            model_args.model_name_or_path,
            torch_dtype=torch.bfloat16,
            quantization_config=transformers.BitsAndBytesConfig(
                load_in_4bit=True, bnb_4bit_compute_dtype=torch.bfloat16, bnb_4bit_quant_type="nf4"),
        )
        if model_args.lora_init:
            lora_config = LoraConfig(task_type=TaskType.CAUSAL_LM, r=model_args.rank, target_modules=["q_proj"])
            model = get_peft_model(model, lora_config)
        elif model_args.adapter_name_or_path is not None:
            model = PeftModel.from_pretrained(model, model_args.adapter_name_or_path, {trainable})
        else:
            model = PeftModel.from_pretrained(model, model_args.model_name_or_path, subfolder="loftq_init",
                                              {trainable})
        trainer = transformers.Trainer(model=model, args=training_args)
        trainer.train()


    if __name__ == "__main__":
        train()
"""

LINE = ("--model_name_or_path", "LoftQ/Llama-2-7b-hf-4bit-64rank", "--output_dir", "out",
        "--per_device_train_batch_size", "2")


def _loftq(cli, tmp_path, trainable: str = "is_trainable=True", *extra: str) -> dict:
    write(tmp_path, {"train_gsm8k.py": LOFTQ.replace("{trainable}", trainable)})
    return plan_of(cli, "train_gsm8k.py", "--", *LINE, *extra, cwd=tmp_path)


def test_loftq_trainable_adapter_load_is_peft_on_a_4bit_base(cli, tmp_path) -> None:
    plan = _loftq(cli, tmp_path)
    method = fact(plan, "peft.method")
    assert method.value == "lora" and method.confidence == "low"  # the adapter's kind is in its own files
    assert method.source.path == "train_gsm8k.py" and method.source.line == 29
    mode = fact(plan, "task.mode")
    assert mode.value == "qlora" and mode.confidence == "medium"  # never high: no LoraConfig runs here
    assert fact(plan, "precision.weights_bits").value == 4


def test_twin_adapter_loaded_frozen_is_not_peft_training(cli, tmp_path) -> None:
    # without is_trainable the adapter is loaded for inference (PF306's shape): not read as PEFT
    plan = _loftq(cli, tmp_path, "token=None")
    method = fact(plan, "peft.method")
    assert method is None or method.value != "lora"
    mode = fact(plan, "task.mode")
    assert mode is None or mode.value not in ("lora", "qlora")


def test_twin_lora_init_on_the_line_builds_the_config(cli, tmp_path) -> None:
    plan = _loftq(cli, tmp_path, "is_trainable=True", "--lora_init", "True")
    assert fact(plan, "peft.method").value == "lora"
    assert fact(plan, "peft.rank").value == 64
    assert fact(plan, "task.mode").value == "qlora"


# --- PLLaVA: a Python config module on the launch line followed by KEY VALUE overrides
# (magic-research/PLLaVA @ 6f49fd2 scripts/train_pllava_7b.sh:11-44, utils/config.py Config.get_config,
# tasks/train/config_pllava_nframe.py, tasks/train/train_pllava_nframe_accel.py:85-150,310) ---

PL_CONFIG_READER = """\
    import argparse
    import ast


    class Config:
        @classmethod
        def get_config(cls):
            parser = argparse.ArgumentParser()
            parser.add_argument("config_file", help="the configuration file to load")
            parser.add_argument("opts", default=None, nargs="*", help="overrided configs: key1 name1 key2 name2")
            args = parser.parse_args()
            cfg = cls.from_file(args.config_file)
            return cls.merge_list(cfg, args.opts)
"""

PL_CONFIG = """\
    num_workers = 6
    batch_size = 1
    gradient_accumulation_steps = 1
    gradient_checkpointing = False
    inputs = dict(batch_size=dict(image="${batch_size}", video="${batch_size}"))
    model = dict(
        repo_id="llava-hf/llava-v1.6-vicuna-7b-hf",
        torch_dtype='bfloat16',
        use_lora=True,
        lora_r=128,
    )
"""

PL_TRAIN = """\
    import torch
    from accelerate import Accelerator
    from peft import LoraConfig, TaskType, get_peft_model
    from torch.utils.data import DataLoader
    from transformers import LlavaForConditionalGeneration
    from utils.config import Config


    def setup_model(config):
        if config.model.torch_dtype in ('bfloat16', 'float16', 'float32'):
            torch_dtype = eval(f'torch.{config.model.torch_dtype}')
        else:
            torch_dtype = config.model.torch_dtype
        model = LlavaForConditionalGeneration.from_pretrained(config.model.repo_id, torch_dtype=torch_dtype)
        if config.model.use_lora:
            peft_config = LoraConfig(task_type=TaskType.CAUSAL_LM, r=config.model.lora_r)
            model.language_model = get_peft_model(model.language_model, peft_config)
        return model


    def main(config):
        accelerator = Accelerator(gradient_accumulation_steps=config.gradient_accumulation_steps)
        model = setup_model(config)
        loader = DataLoader(range(100), batch_size=config.batch_size, num_workers=config.num_workers)
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for batch in loader:
            with accelerator.accumulate(model):
                loss = model(**batch).loss
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad()


    if __name__ == "__main__":
        main(Config.get_config())
"""

PL_ACCEL = """\
    compute_environment: LOCAL_MACHINE
    distributed_type: MULTI_GPU
    mixed_precision: bf16
    num_machines: 1
    num_processes: 4
"""

PL_LAUNCH = """\
    #!/bin/bash
    num_gpus=8
    full_batch_size=128
    batch_size=8
    gradient_accumulation_steps=$[$full_batch_size/($batch_size*$num_gpus)]
    accelerate launch --config_file accel.yaml train.py \\
        config_nframe.py \\
        num_workers 8 \\
        gradient_accumulation_steps $gradient_accumulation_steps \\
        batch_size $batch_size \\
        model.repo_id llava-hf/llava-v1.6-vicuna-7b-hf \\
        gradient_checkpointing True
"""


def _pllava(cli, tmp_path, reader: str = PL_CONFIG_READER, peft: str = "peft==0.10.0\n") -> dict:
    write(tmp_path, {"utils/__init__.py": "", "utils/config.py": reader, "config_nframe.py": PL_CONFIG,
                     "train.py": PL_TRAIN, "accel.yaml": PL_ACCEL, "run.sh": PL_LAUNCH,
                     "requirements.txt": "accelerate==0.26.1\n" + peft + "transformers==4.37.1\n"})
    return plan_of(cli, "run.sh", cwd=tmp_path)


def test_old_bash_arithmetic_is_evaluated() -> None:
    from preflight.adapters.shell import read_shell

    text = "g=8\nb=8\nfull=128\npython t.py --acc $[$full/($b*$g)] --c $[$[80000/($b*$g)]/10] --u $[$nope/2]\n"
    (line,) = read_shell(text, "run.sh").launches
    assert line.info.script_args[:4] == ["--acc", "2", "--c", "125"]
    assert line.info.script_args[5].startswith("$[")  # a name not known: kept as written, not guessed


def test_pllava_key_value_overrides_after_the_config_module_win(cli, tmp_path) -> None:
    plan = _pllava(cli, tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro.value == 8 and micro.source.kind == "cli" and micro.source.key == "batch_size"
    accum = fact(plan, "batch.grad_accum")
    assert accum.value == 2 and accum.source.key == "gradient_accumulation_steps"
    assert fact(plan, "batch.global").value == 64  # 8 x 2 x 4 processes of the accelerate config
    assert fact(plan, "data.num_workers").value == 8
    ref = fact(plan, "model.ref")
    assert ref.value == "llava-hf/llava-v1.6-vicuna-7b-hf" and ref.confidence == "medium"
    assert fact(plan, "peft.rank").value == 128


def test_pllava_bf16_weights_with_lora_under_peft_0_10_are_bf16(cli, tmp_path) -> None:
    plan = _pllava(cli, tmp_path)
    mode = fact(plan, "precision.mode")
    assert mode.value == "bf16" and mode.confidence == "medium"
    assert mode.source.path == "config_nframe.py" and mode.source.line == 8  # torch_dtype='bfloat16'


def test_twin_peft_0_12_keeps_lora_adapters_fp32_under_autocast(cli, tmp_path) -> None:
    # from peft 0.12 the adapters are upcast to fp32 (autocast_adapter_dtype): autocast over them
    plan = _pllava(cli, tmp_path, peft="peft==0.12.0\n")
    assert fact(plan, "precision.mode").value == "amp_bf16"


def test_twin_no_declared_pairs_leaves_the_file_values(cli, tmp_path) -> None:
    # without a positional nargs list in the code, the words after the file are not read as overrides
    reader = PL_CONFIG_READER.replace(', default=None, nargs="*"', "")
    plan = _pllava(cli, tmp_path, reader=reader)
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.source.kind != "cli"
    assert [f for f in plan["fields"].get("batch.micro", []) if f["value"] == 8] == []


# --- minimal-diffusion: a batch documented "per gpu" divided by the GPU count in the code
# (VSehwag/minimal-diffusion @ ea0321e main.py:326-327,399-402,433-440) ---

MD_MAIN = """\
    import argparse
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data import DataLoader, DistributedSampler


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--batch-size", type=int, default=128, help="batch-size per gpu")
        parser.add_argument("--local_rank", default=0, type=int)
        args = parser.parse_args()
        model = torch.nn.Linear(4, 4).to("cuda")
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
        ngpus = torch.cuda.device_count()
        if ngpus > 1:
            {split}
            torch.distributed.init_process_group(backend="nccl", init_method="env://")
            model = DDP(model, device_ids=[args.local_rank])
        train_set = torch.randn(1000, 4)
        sampler = DistributedSampler(train_set) if ngpus > 1 else None
        loader = DataLoader(train_set, batch_size=args.batch_size, sampler=sampler, num_workers=4)
        for x in loader:
            loss = model(x.cuda()).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


    if __name__ == "__main__":
        main()
"""


def _md(cli, tmp_path, split: str) -> dict:
    write(tmp_path, {"main.py": MD_MAIN.replace("{split}", split)})
    return plan_of(cli, "--", "python", "-m", "torch.distributed.launch", "--nproc_per_node=4", "main.py", cwd=tmp_path)


def test_minimal_diffusion_batch_divided_by_the_gpu_count_is_the_global_batch(cli, tmp_path) -> None:
    plan = _md(cli, tmp_path, "args.batch_size = args.batch_size // ngpus")
    glob = fact(plan, "batch.global")
    assert glob.value == 128 and glob.confidence == "low"  # the visible GPUs taken as the 4 processes
    assert "divided in the code by ngpus = torch.cuda.device_count()" in glob.source.detail
    micro = fact(plan, "batch.micro")
    assert micro.value == 32 and micro.confidence == "low"


def test_twin_batch_per_gpu_not_divided_stays_per_process(cli, tmp_path) -> None:
    plan = _md(cli, tmp_path, "pass")
    assert fact(plan, "batch.micro").value == 128
    assert fact(plan, "batch.global").value == 512


def test_twin_division_by_another_option_is_not_a_gpu_split(cli, tmp_path) -> None:
    plan = _md(cli, tmp_path, "args.batch_size = args.batch_size // args.local_rank")
    assert [f for f in plan["fields"].get("batch.global", []) if f["value"] == 128] == []


# --- Time-LLM: --model names the project's wrapper module, which loads a Hub LLM by a literal id
# (KimMeen/Time-LLM @ 0045cde run_main.py:28,130-135, models/TimeLLM.py:43-57) ---

TL_RUN = """\
    import argparse
    import torch
    from models import DLinear, TimeLLM

    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=str, required=True, default="Autoformer")
    parser.add_argument("--llm_model", type=str, default="LLAMA")
    parser.add_argument("--batch_size", type=int, default=32)
    args = parser.parse_args()
    if args.model == "DLinear":
        model = DLinear.Model(args).float()
    else:
        model = TimeLLM.Model(args).float()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = torch.utils.data.DataLoader(range(10), batch_size=args.batch_size)
    for x in loader:
        loss = model(x).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""

TL_MODEL = """\
    import torch.nn as nn
    from transformers import GPT2Model, LlamaConfig, LlamaModel, LlamaTokenizer


    class Model(nn.Module):
        def __init__(self, configs):
            super().__init__()
            if configs.llm_model == 'LLAMA':
                self.llama_config = LlamaConfig.from_pretrained('huggyllama/llama-7b')
                try:
                    self.llm_model = LlamaModel.from_pretrained('huggyllama/llama-7b', local_files_only=True,
                                                                config=self.llama_config)
                except EnvironmentError:
                    self.llm_model = LlamaModel.from_pretrained('huggyllama/llama-7b', config=self.llama_config)
                self.tokenizer = LlamaTokenizer.from_pretrained('huggyllama/llama-7b')
            elif configs.llm_model == 'GPT2':
                self.llm_model = GPT2Model.from_pretrained('openai-community/gpt2')
            {extra}
            self.head = nn.Linear(16, 1)
"""


def _timellm(cli, tmp_path, *line: str, extra: str = "pass") -> dict:
    write(tmp_path, {"run_main.py": TL_RUN, "models/__init__.py": "", "models/DLinear.py": "class Model: pass\n",
                     "models/TimeLLM.py": TL_MODEL.replace("{extra}", extra)})
    return plan_of(cli, "run_main.py", "--", "--model", "TimeLLM", *line, cwd=tmp_path)


def test_timellm_wrapper_module_names_its_hub_llm(cli, tmp_path) -> None:
    ref = fact(_timellm(cli, tmp_path), "model.ref")
    assert ref.value == "huggyllama/llama-7b" and ref.confidence == "medium"
    assert ref.source.path == "models/TimeLLM.py" and ref.source.line == 11


def test_twin_the_llm_option_picks_the_other_arm(cli, tmp_path) -> None:
    ref = fact(_timellm(cli, tmp_path, "--llm_model", "GPT2"), "model.ref")
    assert ref.value == "openai-community/gpt2"


def test_twin_a_load_under_an_undecided_test_keeps_the_option_name(cli, tmp_path) -> None:
    extra = "if configs.use_big:\n                self.llm_model = LlamaModel.from_pretrained('huggyllama/llama-13b')"
    ref = fact(_timellm(cli, tmp_path, extra=extra), "model.ref")
    assert ref.value == "TimeLLM"


# --- Time-LLM: accelerate's DeepSpeedPlugin(hf_ds_config=...) built in the script
# (KimMeen/Time-LLM @ 0045cde run_main.py:103-104, ds_config_zero2.json, scripts/TimeLLM_ETTh1.sh:14) ---

TL_DS_RUN = """\
    import torch
    from accelerate import Accelerator, DeepSpeedPlugin

    deepspeed_plugin = DeepSpeedPlugin(hf_ds_config={path})
    accelerator = Accelerator(deepspeed_plugin=deepspeed_plugin)
    model = torch.nn.Linear(4, 4)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = torch.utils.data.DataLoader(range(96), batch_size=24)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for x in loader:
        loss = model(x).sum()
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
"""

TL_DS = """\
    {
      "bf16": {"enabled": true, "auto_cast": true},
      "zero_optimization": {
        "stage": 2,
        "allgather_partitions": true,
        "allgather_bucket_size": 2e8,
        "overlap_comm": true,
        "reduce_scatter": true,
        "reduce_bucket_size": 2e8,
        "contiguous_gradients": true
      },
      "gradient_accumulation_steps": "auto",
      "train_batch_size": "auto",
      "train_micro_batch_size_per_gpu": "auto"
    }
"""


def _tl_ds(cli, tmp_path, path: str = "'./ds_config_zero2.json'", *machines: str) -> dict:
    write(tmp_path, {"run_main.py": TL_DS_RUN.replace("{path}", path), "ds_config_zero2.json": TL_DS})
    return plan_of(cli, "--", "accelerate", "launch", "--multi_gpu", "--mixed_precision", "bf16", *machines,
                   "--num_processes", "8", "run_main.py", cwd=tmp_path)


def test_timellm_deepspeed_plugin_json_is_the_deepspeed_config(cli, tmp_path) -> None:
    plan = _tl_ds(cli, tmp_path)
    sharding = fact(plan, "dist.sharding")
    assert sharding.value == "zero2" and sharding.source.path == "ds_config_zero2.json"
    assert fact(plan, "dist.reduce_bucket_size").value == 200000000
    assert fact(plan, "dist.overlap_comm").value is True
    nodes = fact(plan, "dist.nodes")
    assert nodes.value == 1 and nodes.source.kind == "default"


def test_twin_plugin_path_not_known_reads_no_json(cli, tmp_path) -> None:
    plan = _tl_ds(cli, tmp_path, "args.ds_config")
    sharding = fact(plan, "dist.sharding")
    assert sharding is None or sharding.value != "zero2"


def test_twin_num_machines_on_the_line_wins(cli, tmp_path) -> None:
    plan = _tl_ds(cli, tmp_path, "'./ds_config_zero2.json'", "--num_machines", "2")
    assert fact(plan, "dist.nodes").value == 2


# --- PyTorch_CIFAR10: the script sets CUDA_VISIBLE_DEVICES itself before Trainer(gpus=-1)
# (huyvnphan/PyTorch_CIFAR10 @ 641cac2 train.py:19,28-38,76) ---

PC_TRAIN = """\
    import os
    from argparse import ArgumentParser
    import torch
    from pytorch_lightning import LightningModule, Trainer


    class Module(LightningModule):
        def __init__(self):
            super().__init__()
            self.net = torch.nn.Linear(4, 2)

        def training_step(self, batch, batch_idx):
            return self.net(batch).sum()

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)

        def train_dataloader(self):
            return torch.utils.data.DataLoader(torch.randn(64, 4), batch_size=256)


    def main(args):
        {env}
        trainer = Trainer(gpus=-1, max_epochs=1, precision=32)
        trainer.fit(Module())


    if __name__ == "__main__":
        parser = ArgumentParser()
        parser.add_argument("--gpu_id", type=str, default="3")
        main(parser.parse_args())
"""


def _pc(cli, tmp_path, env: str, *line: str) -> dict:
    write(tmp_path, {"train.py": PC_TRAIN.replace("{env}", env), "requirements.txt": "pytorch-lightning==1.1.0\n"})
    return plan_of(cli, "train.py", "--", *line, cwd=tmp_path)


def test_cifar10_script_set_visible_devices_count_for_all_gpus(cli, tmp_path) -> None:
    plan = _pc(cli, tmp_path, 'os.environ["CUDA_VISIBLE_DEVICES"] = args.gpu_id')
    devices = fact(plan, "dist.devices_per_node")
    assert devices.value == 1 and "CUDA_VISIBLE_DEVICES='3'" in devices.source.detail
    assert fact(plan, "dist.world_size").value == 1
    plan = _pc(cli, tmp_path, 'os.environ["CUDA_VISIBLE_DEVICES"] = args.gpu_id', "--gpu_id", "0,1")
    assert fact(plan, "dist.devices_per_node").value == 2


def test_twin_visible_devices_under_a_guard_or_unknown_say_nothing(cli, tmp_path) -> None:
    guarded = 'if args.gpu_id != "3":\n            os.environ["CUDA_VISIBLE_DEVICES"] = args.gpu_id'
    assert fact(_pc(cli, tmp_path, guarded), "dist.devices_per_node") is None
    unknown = 'os.environ["CUDA_VISIBLE_DEVICES"] = os.environ.get("GPUS", "")'
    assert fact(_pc(cli, tmp_path, unknown), "dist.devices_per_node") is None


def test_cifar10_module_level_visible_devices_before_main(cli, tmp_path) -> None:
    text = PC_TRAIN.replace("{env}", "pass").replace(
        "        main(parser.parse_args())",
        "        args = parser.parse_args()\n        os.environ[\"CUDA_VISIBLE_DEVICES\"] = args.gpu_id\n        main(args)")
    write(tmp_path, {"train.py": text, "requirements.txt": "pytorch-lightning==1.1.0\n"})
    plan = plan_of(cli, "train.py", "--", "--gpu_id", "0,1,2,3", cwd=tmp_path)
    assert fact(plan, "dist.devices_per_node").value == 4


# --- GraphGPS: PyG GraphGym's --cfg YAML, its KEY VALUE options and the project's register_config defaults
# (rampasek/GraphGPS @ 2801570 main.py:112-142, configs/GPS/zinc-GPS+RWSE.yaml:27-31,
# graphgps/config/optimizers_config.py:5-12, graphgps/train/custom_train.py:34-39) ---

GG_MAIN = """\
    import torch
    from torch_geometric.graphgym.cmd_args import parse_args
    from torch_geometric.graphgym.config import cfg, load_cfg, set_cfg
    from torch_geometric.graphgym.loader import create_loader
    from torch_geometric.graphgym.model_builder import create_model
    import graphgps  # noqa, register custom modules
    from graphgps.train import custom_train

    if __name__ == "__main__":
        args = parse_args()
        set_cfg(cfg)
        load_cfg(cfg, args)
        loaders = create_loader()
        model = create_model()
        optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.optim.base_lr)
        custom_train(loaders, model, optimizer)
"""

GG_REGISTER = """\
    from torch_geometric.graphgym.register import register_config


    @register_config('extended_optim')
    def extended_optim_cfg(cfg):
        cfg.optim.batch_accumulation = 1
        cfg.optim.reduce_factor = 0.1
"""

GG_TRAIN = """\
    from torch_geometric.graphgym.config import cfg


    def custom_train(loaders, model, optimizer):
        for i, batch in enumerate(loaders[0]):
            loss = model(batch).sum()
            loss.backward()
            if (i + 1) % cfg.optim.{key} == 0:
                optimizer.step()
                optimizer.zero_grad()
"""

GG_YAML = """\
    out_dir: results
    wandb:
      use: True
    train:
      mode: custom
      {batch}eval_period: 1
    optim:
      optimizer: adamW
"""


def _gg(cli, tmp_path, *extra: str, batch: str = "batch_size: 32\n      ", key: str = "batch_accumulation") -> dict:
    write(tmp_path, {"main.py": GG_MAIN, "graphgps/__init__.py": "from .train import custom_train\n",
                     "graphgps/config/__init__.py": "", "graphgps/config/optimizers_config.py": GG_REGISTER,
                     "graphgps/train/__init__.py": GG_TRAIN.replace("{key}", key),
                     "configs/zinc.yaml": GG_YAML.replace("{batch}", batch)})
    return plan_of(cli, "main.py", "--", "--cfg", "configs/zinc.yaml", "wandb.use", "False", *extra, cwd=tmp_path)


def test_graphgps_graphgym_loader_batch_workers_and_accumulation(cli, tmp_path) -> None:
    plan = _gg(cli, tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro.value == 32 and micro.source.path == "configs/zinc.yaml" and micro.source.line == 6
    accum = fact(plan, "batch.grad_accum")
    assert accum.value == 1 and accum.source.path == "graphgps/config/optimizers_config.py"
    assert accum.source.line == 6
    workers = fact(plan, "data.num_workers")
    assert workers.value == 0 and workers.confidence == "low"  # GraphGym's own default, outside the project


def test_graphgps_key_value_options_after_the_yaml_win(cli, tmp_path) -> None:
    plan = _gg(cli, tmp_path, "train.batch_size", "64", "optim.batch_accumulation", "4")
    assert fact(plan, "batch.micro").value == 64 and fact(plan, "batch.micro").source.kind == "cli"
    assert fact(plan, "batch.grad_accum").value == 4


def test_twin_graphgym_library_default_batch_is_low(cli, tmp_path) -> None:
    micro = fact(_gg(cli, tmp_path, batch=""), "batch.micro")
    assert micro.value == 16 and micro.confidence == "low"


def test_twin_registered_accumulation_key_the_code_never_reads(cli, tmp_path) -> None:
    plan = _gg(cli, tmp_path, key="reduce_factor")
    accum = fact(plan, "batch.grad_accum")
    assert accum is None or accum.source.path != "graphgps/config/optimizers_config.py"


def test_a_name_assigned_mappings_in_two_arms_is_no_dtype() -> None:
    # the two-arm dtype reading must not fail on config sections (dicts are unhashable): it says nothing
    import ast

    from preflight.adapters.hydra_reader import _Reader, _Torch

    values = {("model",): {"a": 1}, ("other",): {"b": 2}, ("dtype",): "bfloat16"}
    reader = _Reader(("cfg",), lambda p: values.get(tuple(p)), lambda *a: None, "x.py", lambda p: False)
    reader.assigns["section"] = [ast.parse("cfg.model", mode="eval").body, ast.parse("cfg.other", mode="eval").body]
    assert reader.ev(ast.Name("section", ast.Load())) is None
    reader.assigns["dt"] = [ast.parse("eval(f'torch.{cfg.dtype}')", mode="eval").body,
                            ast.parse("cfg.dtype", mode="eval").body]
    got = reader.ev(ast.Name("dt", ast.Load()))
    assert isinstance(got.value, _Torch) and got.value.name == "bfloat16" and got.path == ("dtype",)
