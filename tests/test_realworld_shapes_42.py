"""Shapes from set 42's real jobs (issue 15, jobs93), each with a twin that must stay silent."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import plan_of, winner, write

# ai4co/rl4co @ 7a153967 rl4co/tasks/train.py:19-100 and configs/main.yaml:45-46 (the lightning-hydra-template shape):
# `if cfg.get("compile", False): model = torch.compile(model)` in a task function the @hydra.main entry calls
TEMPLATE_TRAIN = """\
    import hydra
    import lightning as L
    import torch
    from omegaconf import DictConfig


    def run(cfg: DictConfig):
        model = hydra.utils.instantiate(cfg.model)
        trainer = L.Trainer(max_epochs=cfg.max_epochs)
        if cfg.get("compile", False):
            model = torch.compile(model)
        if cfg.get("train"):
            trainer.fit(model=model)


    @hydra.main(version_base="1.3", config_path="configs", config_name="main.yaml")
    def train(cfg: DictConfig) -> None:
        run(cfg)


    if __name__ == "__main__":
        train()
"""

TEMPLATE_YAML = """\
    model:
      _target_: torch.nn.Linear
      in_features: 2
      out_features: 2
    max_epochs: 3
    train: True
    # compile model for faster training with pytorch 2.0
    compile: {compile}
"""


def test_compile_under_a_cfg_get_the_config_sets_false_is_off(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": TEMPLATE_TRAIN, "configs/main.yaml": TEMPLATE_YAML.format(compile="False")})
    plan = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    assert winner(plan, "compile.enabled") is False


def test_compile_under_a_cfg_get_turned_on_from_the_line_is_not_off(cli, tmp_path: Path) -> None:
    # the twin: `compile=True` on the launch line, so the guard holds: never False
    write(tmp_path, {"train.py": TEMPLATE_TRAIN, "configs/main.yaml": TEMPLATE_YAML.format(compile="False")})
    plan = plan_of(cli, "--", "python", "train.py", "compile=True", cwd=tmp_path)
    assert winner(plan, "compile.enabled") is not False


def test_compile_under_a_cfg_get_of_an_absent_key_uses_the_default(cli, tmp_path: Path) -> None:
    yaml = TEMPLATE_YAML.format(compile="False").replace("    compile: False\n", "")
    write(tmp_path, {"train.py": TEMPLATE_TRAIN, "configs/main.yaml": yaml})
    plan = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    assert winner(plan, "compile.enabled") is False
    # the twin: a default of True for the absent key leaves the call in place
    write(tmp_path, {"train.py": TEMPLATE_TRAIN.replace('cfg.get("compile", False)', 'cfg.get("compile", True)')})
    plan = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    assert winner(plan, "compile.enabled") is not False


# jondurbin/qlora train.py:585-624 @ its pinned commit: source and target tokenized with the same max_length, then cut
# together so that the pair fits model_max_len
JOINT_CUT = """\
    from dataclasses import dataclass

    import torch


    @dataclass
    class DataCollatorForCausalLM:
        tokenizer: object
        model_max_len: int

        def __call__(self, instances):
            sources = [example["input"] for example in instances]
            targets = [example["output"] for example in instances]
            tokenized_sources_with_prompt = self.tokenizer(sources, max_length=self.model_max_len, truncation=True)
            tokenized_targets = self.tokenizer(targets, max_length=self.model_max_len, truncation=True)
            input_ids = []
            for tokenized_source, tokenized_target in zip(
                tokenized_sources_with_prompt["input_ids"], tokenized_targets["input_ids"]
            ):
                if len(tokenized_source) + len(tokenized_target) >= self.model_max_len:
                    tokenized_target = tokenized_target[0 : self.model_max_len - len(tokenized_source)]
                input_ids.append(torch.tensor(tokenized_source + tokenized_target))
            return input_ids


    def train():
        collator = DataCollatorForCausalLM(tokenizer=None, model_max_len=4096)
        return collator


    if __name__ == "__main__":
        train()
"""


def test_two_tokenizer_calls_cut_together_are_the_joint_bound(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": JOINT_CUT})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "data.seq_len") == 4096


def test_two_tokenizer_calls_cut_by_a_bound_not_read_say_nothing(cli, tmp_path: Path) -> None:
    # the twin: the joint cut's bound is not known, so neither the sum 8192 nor a guess
    write(tmp_path, {"train.py": JOINT_CUT.replace(">= self.model_max_len:", ">= self.limit:")})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "data.seq_len") != 8192


# PKU-YuanGroup/Video-LLaVA videollava/train/train.py:921-962 @ its pinned commit (haotian-liu/LLaVA's train.py shape):
# a load without dtype (fp32 in transformers 4), then `model.to(torch.bfloat16)` under the LoRA and bf16 options
LLAVA_CAST = """\
    from dataclasses import dataclass, field

    import torch
    import transformers


    @dataclass
    class ModelArguments:
        model_name_or_path: str = field(default="lmsys/vicuna-7b-v1.5")


    @dataclass
    class TrainingArguments(transformers.TrainingArguments):
        lora_enable: bool = False
        bits: int = field(default=16)


    def train():
        parser = transformers.HfArgumentParser((ModelArguments, TrainingArguments))
        model_args, training_args = parser.parse_args_into_dataclasses()
        model = transformers.LlamaForCausalLM.from_pretrained(model_args.model_name_or_path,
                                                              cache_dir=training_args.cache_dir)
        if training_args.lora_enable:
            from peft import LoraConfig, get_peft_model
            lora_config = LoraConfig(r=8, task_type="CAUSAL_LM")
            if training_args.bits == 16:
                if training_args.bf16:
                    model.to(torch.bfloat16)
                if training_args.fp16:
                    model.to(torch.float16)
            model = get_peft_model(model, lora_config)
        trainer = transformers.Trainer(model=model, args=training_args)
        trainer.train()


    if __name__ == "__main__":
        train()
"""


def test_load_without_dtype_then_cast_to_bf16_is_16_bit(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": LLAVA_CAST, "requirements.txt": "transformers==4.31.0\n"})
    plan = plan_of(cli, "train.py", "--", "--lora_enable", "True", "--bf16", "True", "--output_dir", "o",
                   cwd=tmp_path)
    assert winner(plan, "precision.weights_bits") == 16


def test_load_without_dtype_and_a_cast_that_never_runs_stays_fp32(cli, tmp_path: Path) -> None:
    # the twin: no --lora_enable, so the bf16 cast under it never runs: transformers 4 loads fp32
    write(tmp_path, {"train.py": LLAVA_CAST, "requirements.txt": "transformers==4.31.0\n"})
    plan = plan_of(cli, "train.py", "--", "--bf16", "True", "--output_dir", "o", cwd=tmp_path)
    assert winner(plan, "precision.weights_bits") == 32


# microsoft/ClimaX @ its pinned commit src/climax/global_forecast/train.py:13-21 and datamodule.py:46,57,169-177:
# the data module class is fixed by LightningCLI(datamodule_class=...); the YAML's data: section (no class_path) and
# --data.batch_size are its __init__ arguments, read by train_dataloader through self.hparams
CLIMAX_TRAIN = """\
    from pytorch_lightning.cli import LightningCLI

    from forecast.datamodule import ForecastDataModule
    from forecast.module import ForecastModule


    def main():
        cli = LightningCLI(
            model_class=ForecastModule,
            datamodule_class=ForecastDataModule,
            seed_everything_default=42,
            run=False,
            parser_kwargs={"parser_mode": "omegaconf", "error_handler": None},
        )
        cli.trainer.fit(cli.model, datamodule=cli.datamodule)


    if __name__ == "__main__":
        main()
"""

CLIMAX_DATA = """\
    from pytorch_lightning import LightningDataModule
    from torch.utils.data import DataLoader


    class ForecastDataModule(LightningDataModule):
        def __init__(self, root_dir, batch_size: int = 64, num_workers: int = 0, pin_memory: bool = False):
            super().__init__()
            self.save_hyperparameters(logger=False)
            self.data_train = None

        def train_dataloader(self):
            return DataLoader(self.data_train, batch_size=self.hparams.batch_size, drop_last=False,
                              num_workers=self.hparams.num_workers, pin_memory=self.hparams.pin_memory)
"""

CLIMAX_MODULE = """\
    import torch
    from pytorch_lightning import LightningModule


    class ForecastModule(LightningModule):
        def __init__(self, lr: float = 5e-4):
            super().__init__()
            self.net = torch.nn.Linear(4, 4)

        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters(), lr=self.hparams.lr)
"""

CLIMAX_YAML = """\
    trainer:
      accelerator: gpu
      devices: 8
      precision: 16
    data:
      root_dir: /data
      batch_size: 128
      num_workers: 1
      pin_memory: False
"""


def _climax(tmp_path: Path, train: str = CLIMAX_TRAIN) -> None:
    write(tmp_path, {"train.py": train, "forecast/__init__.py": "", "forecast/datamodule.py": CLIMAX_DATA,
                     "forecast/module.py": CLIMAX_MODULE, "configs/forecast.yaml": CLIMAX_YAML})


def test_lightningcli_fixed_datamodule_takes_the_data_flag(cli, tmp_path: Path) -> None:
    _climax(tmp_path)
    plan = plan_of(cli, "train.py", "--", "--config", "configs/forecast.yaml", "--trainer.devices=8",
                   "--data.batch_size=16", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 16


def test_lightningcli_subclass_mode_data_is_not_the_fixed_class(cli, tmp_path: Path) -> None:
    # the twin: subclass_mode_data=True, the class comes from the config or flags (none here): not read
    _climax(tmp_path, CLIMAX_TRAIN.replace("run=False,", "run=False,\n        subclass_mode_data=True,"))
    plan = plan_of(cli, "train.py", "--", "--config", "configs/forecast.yaml", "--trainer.devices=8",
                   "--data.batch_size=16", cwd=tmp_path)
    assert winner(plan, "batch.micro") != 16


# keyu-tian/SparK @ its pinned commit pretrain/utils/arg_util.py:16-50,96-124 and pretrain/main.py:24,39-52: a
# typed-argument-parser `class Args(Tap)` parsed in a local module's function, called as a module attribute (`utils/`
# has no __init__.py there, as here)
SPARK_ARGS = """\
    from tap import Tap


    class Args(Tap):
        bs: int = 4096
        dataloader_workers: int = 8
        batch_size_per_gpu: int = 0


    def init_dist_and_get_args():
        args = Args(explicit_bool=True).parse_args()
        args.batch_size_per_gpu = args.bs // 8
        return args
"""

SPARK_MAIN = """\
    import torch
    from torch.utils.data import DataLoader

    from utils import arg_util


    def main_pt():
        args: arg_util.Args = arg_util.init_dist_and_get_args()
        loader = DataLoader(dataset=list(range(10)), num_workers=args.dataloader_workers, pin_memory=True,
                            batch_size=args.batch_size_per_gpu)
        model = torch.nn.Linear(2, 2)
        opt = torch.optim.AdamW(model.parameters())
        for _ in loader:
            opt.step()


    if __name__ == "__main__":
        main_pt()
"""


def test_tap_options_of_a_module_attribute_parser_function_are_read(cli, tmp_path: Path) -> None:
    write(tmp_path, {"main.py": SPARK_MAIN, "utils/arg_util.py": SPARK_ARGS})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node=8", "main.py", "--bs=512", cwd=tmp_path)
    assert winner(plan, "data.num_workers") == 8
    # batch_size_per_gpu is computed by the parser function itself: not its declared default 0
    assert winner(plan, "batch.micro") is None


def test_an_option_the_parser_function_rewrites_is_not_its_default(cli, tmp_path: Path) -> None:
    # the twin: the function rewrites dataloader_workers before returning the namespace
    args = SPARK_ARGS.replace("        return args\n",
                              "        args.dataloader_workers = min(args.dataloader_workers, 2)\n        return args\n")
    write(tmp_path, {"main.py": SPARK_MAIN, "utils/arg_util.py": args})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node=8", "main.py", "--bs=512", cwd=tmp_path)
    assert winner(plan, "data.num_workers") != 8
