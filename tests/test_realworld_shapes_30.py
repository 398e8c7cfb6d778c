"""Shapes of the thirtieth held-out set's real jobs (issue 15), reproduced in minimal fixtures of
our own, each citing the repository, path and commit it copies the shape of."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, winner, write

# dandelionsllm/pandallm trainer_base_ds_mul.py:156-173,290 @ 4a47ecd4a033a8df86a88b7e71132cbfdc7f0823 and
# conf/llama/zh/llama_7b_zh_instruct_v1_0_ds.yaml: a hand-written DeepSpeed loop whose config is a section
# of the Hydra config, with ${} interpolations of top-level keys (and a top-level `fp16: True` that is the
# project's own key, not TrainingArguments')
PANDA_SCRIPT = """\
    import hydra
    import deepspeed
    import torch
    from omegaconf import DictConfig, OmegaConf


    def train(cfg, model):
        ds_config = cfg.ds_cfg
        ds_config.scheduler.params.warmup_num_steps = 10
        ds_config = OmegaConf.to_container(ds_config, resolve=True)
        model, optimizer, _, scheduler = deepspeed.initialize(model=model,
                                                              model_parameters=model.parameters(),
                                                              config=ds_config)
        return model


    @hydra.main(config_path="conf", config_name="config", version_base="1.2")
    def main(cfg: DictConfig):
        model = torch.nn.Linear(2, 2)
        train(cfg, model)


    if __name__ == "__main__":
        main()
"""

PANDA_YAML = """\
    per_gpu_train_batch_size: 4
    learning_rate: 1e-5
    gradient_accumulation_steps: 128
    num_train_epochs: 1
    output_dir: experiments/x
    fp16: True
    fp16_opt_level: O1

    ds_cfg:
      train_micro_batch_size_per_gpu: ${per_gpu_train_batch_size}
      gradient_accumulation_steps: ${gradient_accumulation_steps}
      optimizer:
        type: AdamW
        params:
          lr: ${learning_rate}
      scheduler:
        type: WarmupDecayLR
        params:
          total_num_steps:
          warmup_num_steps:
      bf16:
        enabled: ${fp16}
      zero_optimization:
        stage: 1
        contiguous_gradients: True
        overlap_comm: True
        reduce_bucket_size: 5e8
        allgather_bucket_size: 5e8
      steps_per_print: 1024
"""


def test_hydra_section_handed_to_deepspeed_initialize_is_the_deepspeed_config(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": PANDA_SCRIPT, "conf/config.yaml": PANDA_YAML})
    plan = plan_of(cli, "--", "deepspeed", "--include", "localhost:0,1,2,3", "train.py", cwd=tmp_path)
    assert winner(plan, "precision.mode") == "bf16"
    precision = fact(plan, "precision.mode")
    assert precision.source.path == "conf/config.yaml" and precision.source.line == 22
    assert winner(plan, "dist.sharding") == "zero1"
    assert winner(plan, "batch.micro") == 4
    assert winner(plan, "batch.grad_accum") == 128
    assert winner(plan, "optimizer.name") == "AdamW"
    assert winner(plan, "dist.reduce_bucket_size") == 500_000_000
    assert winner(plan, "dist.allgather_bucket_size") == 500_000_000
    assert winner(plan, "dist.overlap_comm") is True
    assert winner(plan, "dist.contiguous_gradients") is True
    assert winner(plan, "dist.offload_optimizer") == "none"
    # the project's own top-level `fp16: True` is not a TrainingArguments setting
    assert not any(f["value"] == "amp_fp16" for f in plan["fields"].get("precision.mode", []))


def test_hydra_section_not_handed_to_deepspeed_stays_silent(cli, tmp_path: Path) -> None:
    # the same config, but the script builds its engine from a JSON file: the section is not the config
    script = PANDA_SCRIPT.replace("config=ds_config)", 'config="ds.json")')
    write(tmp_path, {"train.py": script, "conf/config.yaml": PANDA_YAML.replace("stage: 1", "stage: 3")})
    plan = plan_of(cli, "--", "deepspeed", "--include", "localhost:0,1,2,3", "train.py", cwd=tmp_path)
    assert winner(plan, "dist.sharding") != "zero3"
    assert winner(plan, "dist.reduce_bucket_size") is None


def test_hydra_section_with_unresolvable_precision_is_not_fp32(cli, tmp_path: Path) -> None:
    # bf16.enabled from an environment variable: present but unknown, so not DeepSpeed's fp32 default
    yaml = PANDA_YAML.replace("enabled: ${fp16}", "enabled: ${oc.env:USE_BF16}")
    write(tmp_path, {"train.py": PANDA_SCRIPT, "conf/config.yaml": yaml})
    plan = plan_of(cli, "--", "deepspeed", "--include", "localhost:0,1,2,3", "train.py", cwd=tmp_path)
    facts = plan["fields"].get("precision.mode", [])
    assert not any(f["adapter"] == "deepspeed" or f["value"] == "amp_fp16" for f in facts)
    assert winner(plan, "dist.sharding") == "zero1"


# AGI-Edgerunners/LLM-Adapters finetune.py:29-43,196 @ 816657208af4db747803f87ba40a4c71383fed7a:
# `prepare_model_for_int8_training(model, use_gradient_checkpointing=use_gradient_checkpointing)` with the
# fire parameter's default False: the library's keyword default (True) does not apply
ADAPTERS = """\
    import fire
    import transformers
    from peft import LoraConfig, get_peft_model, prepare_model_for_int8_training
    from transformers import AutoModelForCausalLM


    def train(base_model: str = "", micro_batch_size: int = 4, use_gradient_checkpointing: bool = False):
        model = AutoModelForCausalLM.from_pretrained(base_model, load_in_8bit=False)
        model = prepare_model_for_int8_training(model, use_gradient_checkpointing=use_gradient_checkpointing)
        model = get_peft_model(model, LoraConfig(r=8))
        trainer = transformers.Trainer(
            model=model,
            args=transformers.TrainingArguments(per_device_train_batch_size=micro_batch_size, output_dir="out"),
        )
        trainer.train()


    if __name__ == "__main__":
        fire.Fire(train)
"""


def test_kbit_prepare_given_the_parameter_default_false_is_no_checkpointing(cli, tmp_path: Path) -> None:
    write(tmp_path, {"finetune.py": ADAPTERS})
    plan = plan_of(cli, "--", "python", "finetune.py", "--base_model", "yahma/llama-7b-hf", cwd=tmp_path)
    assert winner(plan, "memory.gradient_checkpointing") is not True
    assert not any(f["value"] is True and f["confidence"] == "high"
                   for f in plan["fields"].get("memory.gradient_checkpointing", []))


def test_kbit_prepare_given_the_parameter_on_the_line_is_checkpointing(cli, tmp_path: Path) -> None:
    # the twin: the launch line turns the parameter on, so checkpointing is on
    write(tmp_path, {"finetune.py": ADAPTERS})
    plan = plan_of(cli, "--", "python", "finetune.py", "--base_model", "yahma/llama-7b-hf",
                   "--use_gradient_checkpointing", "True", cwd=tmp_path)
    assert winner(plan, "memory.gradient_checkpointing") is True


def test_kbit_prepare_without_the_keyword_is_checkpointing(cli, tmp_path: Path) -> None:
    # the library default applies when the keyword is not passed
    write(tmp_path, {"finetune.py": ADAPTERS.replace(
        "prepare_model_for_int8_training(model, use_gradient_checkpointing=use_gradient_checkpointing)",
        "prepare_model_for_int8_training(model)")})
    plan = plan_of(cli, "--", "python", "finetune.py", "--base_model", "yahma/llama-7b-hf", cwd=tmp_path)
    assert winner(plan, "memory.gradient_checkpointing") is True


# michael-wzhu/PromptCBLUE src/ft_chatglm_lora/main.py:129-132 @ b0753a61a7c1f4e1ae171109f8a59037ff0a5543: a load
# without a dtype chained with `.half().cuda()`: 16-bit weights, not transformers 4.x's fp32 default
CHATGLM = """\
    import torch
    from transformers import AutoModel, Seq2SeqTrainer, Seq2SeqTrainingArguments

    model = AutoModel.from_pretrained("THUDM/chatglm-6b", trust_remote_code=True).half().cuda()
    helper = torch.nn.Linear(2, 2).half()
    args = Seq2SeqTrainingArguments(output_dir="out", per_device_train_batch_size=8)
    trainer = Seq2SeqTrainer(model=model, args=args)
    trainer.train()
"""


def test_load_chained_with_half_is_16_bit_weights(cli, tmp_path: Path) -> None:
    write(tmp_path, {"main.py": CHATGLM, "requirements.txt": "transformers==4.28.1\n"})
    plan = plan_of(cli, "--", "python", "main.py", cwd=tmp_path)
    assert winner(plan, "precision.weights_bits") == 16
    assert fact(plan, "precision.weights_bits").source.line == 4


def test_load_chained_with_cuda_only_keeps_the_fp32_default(cli, tmp_path: Path) -> None:
    # the twin: no cast on the loaded model (the helper's `.half()` is another module's)
    write(tmp_path, {"main.py": CHATGLM.replace(".half().cuda()", ".cuda()"), "requirements.txt": "transformers==4.28.1\n"})
    plan = plan_of(cli, "--", "python", "main.py", cwd=tmp_path)
    assert winner(plan, "precision.weights_bits") == 32


# michuanhaohao/reid-strong-baseline @ 3da7e6f03164a81ff0a8fa7e9e0a1e5d5da4e2c8 (tools/train.py:119-137,
# config/__init__.py, config/defaults.py, data/build.py:15-45, solver/build.py:28-44): a yacs config imported
# through a package, merged from `--config_file` under `if args.config_file != "":` and from a positional
# argparse.REMAINDER list of KEY VALUE pairs; the optimizer class picked by name, the centre loss's SGD beside it
REID = {
    "config/__init__.py": "from .defaults import _C as cfg\n",
    "config/defaults.py": """\
        from yacs.config import CfgNode as CN

        _C = CN()
        _C.DATALOADER = CN()
        _C.DATALOADER.NUM_WORKERS = 8
        _C.SOLVER = CN()
        _C.SOLVER.OPTIMIZER_NAME = "SGD"
        _C.SOLVER.IMS_PER_BATCH = 64
        _C.SOLVER.CENTER_LR = 0.5
        _C.TEST = CN()
        _C.TEST.IMS_PER_BATCH = 128
    """,
    "configs/triplet.yml": """\
        DATALOADER:
          NUM_WORKERS: 4
        SOLVER:
          OPTIMIZER_NAME: 'Adam'
          IMS_PER_BATCH: 32
    """,
    "solver/__init__.py": "from .build import make_optimizer_with_center\n",
    "solver/build.py": """\
        import torch


        def make_optimizer_with_center(cfg, model, center_criterion):
            params = [{"params": [p]} for p in model.parameters()]
            optimizer = getattr(torch.optim, cfg.SOLVER.OPTIMIZER_NAME)(params)
            optimizer_center = torch.optim.SGD(center_criterion.parameters(), lr=cfg.SOLVER.CENTER_LR)
            return optimizer, optimizer_center
    """,
    "data/__init__.py": "from .build import make_data_loader\n",
    "data/build.py": """\
        from torch.utils.data import DataLoader


        def make_data_loader(cfg):
            train_loader = DataLoader(range(100), batch_size=cfg.SOLVER.IMS_PER_BATCH,
                                      num_workers=cfg.DATALOADER.NUM_WORKERS)
            val_loader = DataLoader(range(10), batch_size=cfg.TEST.IMS_PER_BATCH, shuffle=False)
            return train_loader, val_loader
    """,
    "tools/train.py": """\
        import argparse
        import sys

        import torch

        sys.path.append('.')
        from config import cfg
        from data import make_data_loader
        from solver import make_optimizer_with_center


        def train(cfg):
            train_loader, val_loader = make_data_loader(cfg)
            model = torch.nn.Linear(2, 2)
            center = torch.nn.Linear(2, 2)
            optimizer, optimizer_center = make_optimizer_with_center(cfg, model, center)
            for x in train_loader:
                loss = model(x).sum()
                loss.backward()
                optimizer.step()
                optimizer_center.step()
                optimizer.zero_grad()


        def main():
            parser = argparse.ArgumentParser(description="ReID Baseline Training")
            parser.add_argument("--config_file", default="", help="path to config file", type=str)
            parser.add_argument("opts", help="Modify config options", default=None, nargs=argparse.REMAINDER)
            args = parser.parse_args()
            if args.config_file != "":
                cfg.merge_from_file(args.config_file)
            cfg.merge_from_list(args.opts)
            cfg.freeze()
            train(cfg)


        if __name__ == '__main__':
            main()
    """,
}


def test_yacs_file_and_remainder_overrides_reach_the_loader_and_optimizer(cli, tmp_path: Path) -> None:
    write(tmp_path, REID)
    plan = plan_of(cli, "--", "python3", "tools/train.py", "--config_file=configs/triplet.yml",
                   "MODEL.DEVICE_ID", "('2')", "SOLVER.IMS_PER_BATCH", "16", cwd=tmp_path)
    assert winner(plan, "optimizer.name") == "Adam"  # the file's name, not the centre loss's SGD
    assert winner(plan, "batch.micro") == 16  # the launch line's KEY VALUE pair, not the evaluation loader's 128
    assert winner(plan, "data.num_workers") == 4


def test_yacs_without_the_file_keeps_the_defaults(cli, tmp_path: Path) -> None:
    # the twin: no --config_file, so `if args.config_file != "":` merges nothing; the defaults hold
    write(tmp_path, REID)
    plan = plan_of(cli, "--", "python3", "tools/train.py", cwd=tmp_path)
    assert winner(plan, "optimizer.name") == "SGD"
    assert fact(plan, "optimizer.name").source.path == "config/defaults.py"
    assert winner(plan, "batch.micro") == 64
    assert winner(plan, "data.num_workers") == 8


def test_optimizer_picked_at_run_time_is_not_the_helpers_literal_one(cli, tmp_path: Path) -> None:
    # the class name comes from the environment: unknown; the centre loss's SGD is not the model's optimizer
    files = dict(REID)
    files["solver/build.py"] = REID["solver/build.py"].replace("import torch", "import os\n        import torch") \
        .replace("cfg.SOLVER.OPTIMIZER_NAME", 'os.environ["OPTIMIZER"]')
    write(tmp_path, files)
    plan = plan_of(cli, "--", "python3", "tools/train.py", "--config_file=configs/triplet.yml", cwd=tmp_path)
    assert winner(plan, "optimizer.name") is None


# BeyonderXX/InstructUIE scripts/train_flan-t5.sh:16 and michael-wzhu/PromptCBLUE src/ft_chatglm_lora/train.sh:12
# (commits in bench/realworld/jobs/truth/held_out_30.py): CUDA_VISIBLE_DEVICES on the launch line
TRAINER = """\
    from transformers import AutoModelForSeq2SeqLM, HfArgumentParser, Seq2SeqTrainer, Seq2SeqTrainingArguments

    parser = HfArgumentParser(Seq2SeqTrainingArguments)
    (training_args,) = parser.parse_args_into_dataclasses()
    model = AutoModelForSeq2SeqLM.from_pretrained("google/flan-t5-large")
    trainer = Seq2SeqTrainer(model=model, args=training_args)
    trainer.train()
"""


def _visible(cli, tmp_path: Path, launch: str) -> dict:
    write(tmp_path, {"run_uie.py": TRAINER, "train.sh": f"port=29500\n{launch}\n"})
    return plan_of(cli, "train.sh", cwd=tmp_path)


def test_deepspeed_counts_the_visible_devices(cli, tmp_path: Path) -> None:
    plan = _visible(cli, tmp_path, "CUDA_VISIBLE_DEVICES=0,1,2,3 deepspeed --master_port $port run_uie.py "
                                   "--output_dir out --per_device_train_batch_size 8")
    assert winner(plan, "dist.world_size") == 4
    assert winner(plan, "dist.devices_per_node") == 4
    assert fact(plan, "dist.world_size").confidence == "low"  # a /job/hostfile would change it


def test_deepspeed_with_num_gpus_ignores_the_visible_devices(cli, tmp_path: Path) -> None:
    # the twin: --num_gpus given, so the runner ignores CUDA_VISIBLE_DEVICES
    plan = _visible(cli, tmp_path, "CUDA_VISIBLE_DEVICES=0,1,2,3 deepspeed --num_gpus 2 run_uie.py "
                                   "--output_dir out --per_device_train_batch_size 8")
    assert winner(plan, "dist.devices_per_node") == 2
    assert winner(plan, "dist.world_size") != 4


def test_python_with_one_visible_device_is_one_process(cli, tmp_path: Path) -> None:
    plan = _visible(cli, tmp_path, "CUDA_VISIBLE_DEVICES=1 python run_uie.py --output_dir out "
                                   "--per_device_train_batch_size 8 --gradient_accumulation_steps 2")
    assert winner(plan, "dist.world_size") == 1
    assert winner(plan, "dist.nodes") == 1
    assert winner(plan, "batch.global") == 16


def test_visible_devices_from_a_variable_say_nothing(cli, tmp_path: Path) -> None:
    # the twin: the devices come from a variable set when the job starts; the count is not known
    plan = _visible(cli, tmp_path, "CUDA_VISIBLE_DEVICES=$GPUS deepspeed --master_port $port run_uie.py "
                                   "--output_dir out --per_device_train_batch_size 8")
    assert winner(plan, "dist.world_size") is None


# rui-ye/OpenFedLLM @ 14c6af2 main_sft.py:12,16 and config.py:65-66,84-101: the TrainingArguments are built by a
# helper of a local module from the options its HfArgumentParser parsed at import time
FED_CONFIG = """\
    from dataclasses import dataclass, field

    from transformers import HfArgumentParser, TrainingArguments


    @dataclass
    class ScriptArguments:
        model_name_or_path: str = field(default="meta-llama/Llama-2-7b-hf")
        batch_size: int = field(default=64)
        gradient_accumulation_steps: int = field(default=1)
        output_dir: str = field(default="out")


    parser = HfArgumentParser(ScriptArguments)
    (script_args,) = parser.parse_args_into_dataclasses()


    def get_config():
        return script_args


    def get_training_args(script_args, new_lr):
        return TrainingArguments(
            output_dir=script_args.output_dir,
            per_device_train_batch_size=script_args.batch_size,
            gradient_accumulation_steps=script_args.gradient_accumulation_steps,
            learning_rate=new_lr,
        )


    def get_eval_args(script_args):
        return TrainingArguments(output_dir="eval", per_device_train_batch_size=128)
"""
FED_MAIN = """\
    from transformers import AutoModelForCausalLM, Trainer

    from config import get_config, get_training_args

    script_args = get_config()
    training_args = get_training_args(script_args, 5e-5)
    model = AutoModelForCausalLM.from_pretrained(script_args.model_name_or_path)
    trainer = Trainer(model=model, args=training_args)
    trainer.train()
"""


def test_training_arguments_built_by_a_local_helper_are_read(cli, tmp_path: Path) -> None:
    write(tmp_path, {"config.py": FED_CONFIG, "main_sft.py": FED_MAIN, "requirements.txt": "transformers==4.31.0\n"})
    plan = plan_of(cli, "--", "python", "main_sft.py", "--batch_size", "16", "--gradient_accumulation_steps", "2",
                   cwd=tmp_path)
    assert winner(plan, "batch.micro") == 16
    assert winner(plan, "batch.grad_accum") == 2
    assert winner(plan, "data.num_workers") == 0  # the TrainingArguments default
    assert "per_device_train_batch_size" in (fact(plan, "batch.micro").source.detail or "")


def test_helper_not_called_by_the_entry_is_not_read(cli, tmp_path: Path) -> None:
    # the twin: the entry imports only get_config; the helper building the arguments is another job's
    main = FED_MAIN.replace("from config import get_config, get_training_args",
                            "from config import get_config\n    from transformers import TrainingArguments") \
        .replace("get_training_args(script_args, 5e-5)", "TrainingArguments(output_dir='o', per_device_train_batch_size=4)")
    write(tmp_path, {"config.py": FED_CONFIG, "main_sft.py": main})
    plan = plan_of(cli, "--", "python", "main_sft.py", "--batch_size", "16", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 4
    assert not any(f["value"] == 16 for f in plan["fields"].get("batch.micro", []))


# dandelionsllm/pandallm trainer_base_ds_mul.py:169-170 @ 4a47ecd4a033a8df86a88b7e71132cbfdc7f0823: torch.compile under
# a test of getattr defaults (the config has no `compile` key; os.environ has no attribute TORCH_COMPILE)
PANDA_COMPILE = PANDA_SCRIPT.replace(
    "        ds_config = cfg.ds_cfg\n",
    "        if torch.__version__ >= \"2\" and (getattr(os.environ, \"TORCH_COMPILE\", False) or "
    "getattr(cfg, \"compile\", False)):\n"
    "            model = torch.compile(model, mode=\"max-autotune\")\n"
    "        ds_config = cfg.ds_cfg\n").replace("import hydra\n", "import os\n\n    import hydra\n")


def test_compile_under_a_getattr_default_the_config_lacks_is_off(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": PANDA_COMPILE, "conf/config.yaml": PANDA_YAML})
    plan = plan_of(cli, "--", "deepspeed", "--include", "localhost:0,1,2,3", "train.py", cwd=tmp_path)
    assert winner(plan, "compile.enabled") is False


def test_compile_under_a_getattr_of_a_key_the_config_sets_is_on(cli, tmp_path: Path) -> None:
    # the twin: the config sets `compile: true`, so the guard may run (torch's version is unknown): not False
    write(tmp_path, {"train.py": PANDA_COMPILE, "conf/config.yaml": PANDA_YAML + "    compile: true\n"})
    plan = plan_of(cli, "--", "deepspeed", "--include", "localhost:0,1,2,3", "train.py", cwd=tmp_path)
    assert winner(plan, "compile.enabled") is True


# rui-ye/OpenFedLLM @ 14c6af2 config.py:103-112, main_sft.py:29-35: the 8-bit BitsAndBytesConfig is built by a helper
# under a test of the options; its weights are bitsandbytes' LLM.int8
FED_QUANT = FED_CONFIG.replace(
    "from transformers import HfArgumentParser, TrainingArguments",
    "from transformers import BitsAndBytesConfig, HfArgumentParser, TrainingArguments").replace(
    "        output_dir: str = field(default=\"out\")\n",
    "        output_dir: str = field(default=\"out\")\n        load_in_8bit: bool = field(default=False)\n") + """
    def get_model_config(script_args):
        if script_args.load_in_8bit:
            quantization_config = BitsAndBytesConfig(load_in_8bit=script_args.load_in_8bit)
        else:
            quantization_config = None
        return quantization_config
"""
FED_QUANT_MAIN = FED_MAIN.replace("from config import get_config, get_training_args",
                                  "from config import get_config, get_model_config, get_training_args").replace(
    "model = AutoModelForCausalLM.from_pretrained(script_args.model_name_or_path)",
    "model = AutoModelForCausalLM.from_pretrained(script_args.model_name_or_path,\n"
    "                                                 quantization_config=get_model_config(script_args))")


def test_8_bit_config_built_by_a_helper_is_int8(cli, tmp_path: Path) -> None:
    write(tmp_path, {"config.py": FED_QUANT, "main_sft.py": FED_QUANT_MAIN})
    plan = plan_of(cli, "--", "python", "main_sft.py", "--load_in_8bit", "True", cwd=tmp_path)
    assert winner(plan, "precision.weights_bits") == 8
    assert winner(plan, "precision.quant_type") == "int8"


def test_8_bit_config_not_taken_says_no_quant_type(cli, tmp_path: Path) -> None:
    # the twin: --load_in_8bit not given, the helper's 8-bit branch never runs
    write(tmp_path, {"config.py": FED_QUANT, "main_sft.py": FED_QUANT_MAIN})
    plan = plan_of(cli, "--", "python", "main_sft.py", cwd=tmp_path)
    assert winner(plan, "precision.quant_type") != "int8"
