"""The arm of an ``if`` over the config path's suffix that loads the YAML (issue 15, set 32:
MooreThreads/Moore-AnimateAnyone ``train_stage_1.py:466-471``: ``if args.config[-5:] == ".yaml": config =
OmegaConf.load(args.config)``, ``elif args.config[-3:] == ".py": config = import_filename(args.config).cfg``,
then ``main(config)`` with ``DataLoader(batch_size=cfg.data.train_bs)`` and ``Accelerator(
gradient_accumulation_steps=cfg.solver.gradient_accumulation_steps, mixed_precision=cfg.solver.mixed_precision)``).
Twins: a ``.py`` config takes the other arm; ``endswith``."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

SCRIPT = """\
    import argparse
    import torch
    from accelerate import Accelerator
    from omegaconf import OmegaConf


    def main(cfg):
        accelerator = Accelerator(gradient_accumulation_steps=cfg.solver.gradient_accumulation_steps,
                                  mixed_precision=cfg.solver.mixed_precision)
        model = torch.nn.Linear(4, 4)
        opt = torch.optim.AdamW(model.parameters())
        loader = torch.utils.data.DataLoader(list(range(64)), batch_size=cfg.data.train_bs, num_workers=4)
        model, opt, loader = accelerator.prepare(model, opt, loader)
        for x in loader:
            with accelerator.accumulate(model):
                loss = model(x).sum()
                accelerator.backward(loss)
                opt.step()
                opt.zero_grad()


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--config", type=str, default="./configs/stage1.yaml")
        args = parser.parse_args()
        if TEST_YAML:
            config = OmegaConf.load(args.config)
        elif args.config[-3:] == ".py":
            config = import_filename(args.config).cfg
        else:
            raise ValueError("Do not support this format config file")
        main(config)
"""

YAML = "data:\n  train_bs: 4\nsolver:\n  gradient_accumulation_steps: 2\n  mixed_precision: fp16\n"


def _plan(cli, tmp_path, test: str, config: str) -> dict:
    write(tmp_path, {"train.py": SCRIPT.replace("TEST_YAML", test), "configs/stage1.yaml": YAML,
                     "configs/stage1.py": "cfg = dict(data=dict(train_bs=16))\n"})
    return plan_of(cli, "train.py", "--", "--config", config, cwd=tmp_path)


def test_the_yaml_arm_of_a_suffix_slice_is_taken(cli, tmp_path):
    plan = _plan(cli, tmp_path, 'args.config[-5:] == ".yaml"', "configs/stage1.yaml")
    assert fact(plan, "batch.micro").value == 4
    assert fact(plan, "batch.grad_accum").value == 2
    assert fact(plan, "precision.mode").value == "amp_fp16"


def test_twin_endswith_is_decided_too(cli, tmp_path):
    plan = _plan(cli, tmp_path, 'args.config.endswith((".yaml", ".yml"))', "configs/stage1.yaml")
    assert fact(plan, "batch.micro").value == 4


def test_twin_a_python_config_does_not_take_the_yaml_arm(cli, tmp_path):
    plan = _plan(cli, tmp_path, 'args.config[-5:] == ".yaml"', "configs/stage1.py")
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 4
