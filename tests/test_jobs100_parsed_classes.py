"""Real jobs (issue 15, branch jobs100): facts are taken only from what the job's entry point parses. Small
projects of our own in the shapes of the real-jobs benchmark, each citing the repository, path and commit it
follows, with twins that must state nothing (or state the other thing)."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, write


def named(plan: dict) -> list:
    return [(f["value"], f["confidence"]) for f in plan["fields"].get("model.num_parameters", [])
            if f["adapter"] == "model_size_named"]


# sahsaeedi/TPO @ 71a4425 run_tpo.py:27 parses (ModelArguments, DataArguments, TPOConfig); utils/utils.py:892-923,
# imported for its helpers, also declares TRL's OnPolicyConfig with sft_model_path = "EleutherAI/pythia-160m"
# (the same class is vendored from trl/trainer/utils.py by many projects)
CONFIGS = """\
    from dataclasses import dataclass, field
    from typing import Optional

    from transformers import TrainingArguments


    @dataclass
    class ModelArguments:
        model_name_or_path: Optional[str] = field(default=None)


    @dataclass
    class {base}:
        sft_model_path: str = "EleutherAI/pythia-160m"


    @dataclass
    class TPOConfig({parent}):
        beta: float = 0.1
"""
TRAIN = """\
    from transformers import HfArgumentParser

    from utils import helper
    from configs import ModelArguments, TPOConfig


    def main():
        parser = HfArgumentParser((ModelArguments, TPOConfig))
        model_args, training_args = parser.parse_args_into_dataclasses()
        helper(training_args)


    if __name__ == "__main__":
        main()
"""
UTILS = """\
    def helper(args):
        return args
"""


def test_a_model_default_of_a_class_the_parser_is_handed_sizes_the_model(cli, tmp_path: Path) -> None:
    # the handed TPOConfig inherits the field from the project's own base class: still the job's
    write(tmp_path, {"train.py": TRAIN, "utils.py": UTILS,
                     "configs.py": CONFIGS.format(base="OnPolicyConfig", parent="OnPolicyConfig")})
    plan = plan_of(cli, "train.py", "--", "python", "train.py", "--model_name_or_path", "x", cwd=tmp_path)
    assert named(plan) == [(160_000_000, "low")]


def test_twin_a_model_default_of_a_class_no_parser_is_handed_states_nothing(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": TRAIN, "utils.py": UTILS,
                     "configs.py": CONFIGS.format(base="OnPolicyConfig", parent="TrainingArguments")})
    plan = plan_of(cli, "train.py", "--", "python", "train.py", "--model_name_or_path", "x", cwd=tmp_path)
    assert named(plan) == []


# facebookresearch/mae_st @ c5dec1b run_pretrain.py:9-19: ``invoke_main()`` parses main_pretrain's
# get_args_parser(), makes the output folder and calls its ``main(args)``; main_pretrain.py wraps the model in
# DistributedDataParallel when ``--distributed`` is given
ENTRY = """\
    from pathlib import Path

    from main_pretrain import get_args_parser, main


    def invoke_main() -> None:
        args = get_args_parser()
        args = args.parse_args()
        if args.output_dir:
            Path(args.output_dir).mkdir(parents=True, exist_ok=True)
        {work}


    if __name__ == "__main__":
        invoke_main()
"""
MAIN_PRETRAIN = """\
    import argparse

    import torch


    def get_args_parser():
        parser = argparse.ArgumentParser()
        parser.add_argument("--batch_size", default=4, type=int)
        parser.add_argument("--output_dir", default="")
        parser.add_argument("--distributed", action="store_true")
        return parser


    def main(args):
        model = torch.nn.Linear(8, 8)
        if args.distributed:
            model = torch.nn.parallel.DistributedDataParallel(model)
        loader = torch.utils.data.DataLoader(range(8), batch_size=args.batch_size)
        opt = torch.optim.AdamW(model.parameters())
        for x in loader:
            model(x).sum().backward()
            opt.step()
"""


def test_a_wrapper_function_calling_an_imported_main_audits_that_module(cli, tmp_path: Path) -> None:
    write(tmp_path, {"run_pretrain.py": ENTRY.format(work="main(args)"), "main_pretrain.py": MAIN_PRETRAIN})
    plan = plan_of(cli, "run_pretrain.py", "--", "--batch_size", "2", "--distributed", cwd=tmp_path)
    assert fact(plan, "dist.sharding").value == "ddp"
    assert fact(plan, "batch.micro").value == 2


def test_twin_a_wrapper_with_its_own_loop_does_its_own_work(cli, tmp_path: Path) -> None:
    write(tmp_path, {"run_pretrain.py": ENTRY.format(work="for seed in range(3):\n            main(args)"),
                     "main_pretrain.py": MAIN_PRETRAIN})
    plan = plan_of(cli, "run_pretrain.py", "--", "--batch_size", "2", "--distributed", cwd=tmp_path)
    sharding = fact(plan, "dist.sharding")
    assert sharding is None or sharding.value != "ddp"
    assert not any("only calls main_pretrain.py" in n for n in plan.get("notes", []))


# facebookresearch/omnivore @ 1d55abd omnivision/train_app_submitit.py:55 ``@hydra.main(config_path="config",
# config_name=None)`` launched with ``+experiments=omnimae/omnimae_vitbase_ft_in1k``; that file is
# ``# @package _global_`` with ``defaults: [/experiments/base.yaml, _self_]``
HYDRA_APP = """\
    import hydra
    from hydra.utils import instantiate


    @hydra.main(config_path="config", config_name=None)
    def main(cfg) -> None:
        trainer = instantiate(cfg.trainer, _recursive_=False)
        trainer.run()


    if __name__ == "__main__":
        main()
"""
EXPERIMENT = """\
    {header}
    defaults:
      - /experiments/base.yaml
      - _self_

    trainer:
      optim:
        optimizer:
          _target_: torch.optim.AdamW
"""
BASE = """\
    # @package _global_
    trainer:
      _target_: trainer.Trainer
"""


def test_no_primary_config_and_a_global_experiment_appended_is_the_jobs_config(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train_app.py": HYDRA_APP, "config/experiments/base.yaml": BASE,
                     "config/experiments/mae/ft.yaml": EXPERIMENT.format(header="# @package _global_")})
    plan = plan_of(cli, "train_app.py", "--", "+experiments=mae/ft", cwd=tmp_path)
    assert fact(plan, "optimizer.name").value == "AdamW"
    assert any("no primary config (config_name=None)" in n for n in plan.get("notes", []))


def test_twin_an_appended_config_in_its_own_package_is_not_taken_as_the_whole(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train_app.py": HYDRA_APP, "config/experiments/base.yaml": BASE,
                     "config/experiments/mae/ft.yaml": EXPERIMENT.format(header="# an experiment")})
    # composed under `experiments`, not at the top: still no config the job's code reads is known
    res = cli("audit", "train_app.py", "--emit-plan", "json", "--", "+experiments=mae/ft", cwd=tmp_path)
    assert "Hydra config not composed" in res.err
    assert "AdamW" not in res.out
