"""The improved-diffusion ``TrainLoop`` (``adapters/microbatch_loop.py``): a batch split into microbatches whose
gradients add up before one step, and its ``use_fp16`` switch.

openai/improved-diffusion @ 1bc7bbb ``improved_diffusion/train_util.py`` / ``scripts/image_train.py`` and
sail-sg/MDT @ 7d26c21 ``masked_diffusion/train_util.py:51,227-238`` (``self.microbatch = microbatch if
microbatch > 0 else batch_size``; ``for i in range(0, batch.shape[0], self.microbatch)``), with the options
declared from a dict by ``add_dict_to_argparser`` (``microbatch=-1``, ``use_fp16=False``). The fixture is our
own small rewrite of that shape."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

FILES = {
    "scripts/image_train.py": """\
        import argparse

        from diff.train_util import TrainLoop
        from diff.script_util import add_dict_to_argparser
        from diff import models


        def main():
            args = create_argparser().parse_args()
            model = models.Net()
            TrainLoop(
                model=model,
                batch_size=args.batch_size,
                microbatch=args.microbatch,
                lr=args.lr,
                use_fp16=args.use_fp16,
            ).run_loop()


        def create_argparser():
            defaults = dict(
                lr=1e-4,
                batch_size=1,
                microbatch=-1,  # -1 disables microbatches
                use_fp16=False,
            )
            parser = argparse.ArgumentParser()
            add_dict_to_argparser(parser, defaults)
            return parser


        if __name__ == "__main__":
            main()
    """,
    "diff/__init__.py": "",
    "diff/script_util.py": """\
        def str2bool(v):
            return str(v).lower() in ("yes", "true", "t", "y", "1")


        def add_dict_to_argparser(parser, default_dict):
            for k, v in default_dict.items():
                v_type = type(v)
                if v is None:
                    v_type = str
                elif isinstance(v, bool):
                    v_type = str2bool
                parser.add_argument(f"--{k}", default=v, type=v_type)
    """,
    "diff/models.py": """\
        from torch import nn


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.layer = nn.Linear(4, 4)

            def forward(self, x):
                return self.layer(x)
    """,
    "diff/fp16_util.py": """\
        class MixedPrecisionTrainer:
            def __init__(self, *, model, use_fp16=False):
                self.model = model
                self.use_fp16 = use_fp16
                self.master_params = list(model.parameters())

            def backward(self, loss):
                loss.backward()
    """,
    "diff/train_util.py": """\
        import torch
        from torch.optim import AdamW

        from .fp16_util import MixedPrecisionTrainer


        class TrainLoop:
            def __init__(self, *, model, batch_size, microbatch, lr, use_fp16=False):
                self.model = model
                self.batch_size = batch_size
                self.microbatch = microbatch if microbatch > 0 else batch_size
                self.use_fp16 = use_fp16
                self.mp_trainer = MixedPrecisionTrainer(model=self.model, use_fp16=self.use_fp16)
                self.opt = AdamW(self.mp_trainer.master_params, lr=lr)

            def run_loop(self):
                for batch in [torch.zeros(self.batch_size, 4)]:
                    self.forward_backward(batch)
                    self.opt.step()

            def forward_backward(self, batch):
                self.opt.zero_grad()
                for i in range(0, batch.shape[0], self.microbatch):
                    micro = batch[i : i + self.microbatch]
                    loss = self.model(micro).sum()
                    self.mp_trainer.backward(loss)
    """,
}


def _plan(cli, tmp_path, files, *args):
    write(tmp_path, files)
    return plan_of(cli, "scripts/image_train.py", "--", *args, cwd=tmp_path)


def test_default_microbatch_is_one_step_per_batch_in_fp32(cli, tmp_path):
    plan = _plan(cli, tmp_path, FILES, "--batch_size", "32")
    accum = fact(plan, "batch.grad_accum")
    assert accum is not None and accum.value == 1 and accum.confidence == "medium", accum
    assert accum.adapter == "microbatch_loop" and "microbatch=-1" in accum.source.detail
    precision = fact(plan, "precision.mode")
    assert precision is not None and precision.value == "fp32", precision


def test_microbatches_of_a_batch_accumulate(cli, tmp_path):
    plan = _plan(cli, tmp_path, FILES, "--batch_size", "32", "--microbatch", "8")
    assert fact(plan, "batch.grad_accum").value == 4
    assert fact(plan, "batch.micro").value == 8


def test_twin_fp16_on_the_launch_line_is_not_read_as_fp32(cli, tmp_path):
    plan = _plan(cli, tmp_path, FILES, "--batch_size", "32", "--use_fp16", "True")
    precision = fact(plan, "precision.mode")
    assert precision is None or precision.value != "fp32", precision


def test_twin_autocast_in_the_loop_keeps_precision_unknown_here(cli, tmp_path):
    files = dict(FILES)
    files["diff/train_util.py"] = files["diff/train_util.py"].replace(
        "loss = self.model(micro).sum()",
        "with torch.autocast('cuda', dtype=torch.bfloat16):\n                        loss = self.model(micro).sum()")
    plan = _plan(cli, tmp_path, files, "--batch_size", "32")
    precision = fact(plan, "precision.mode")
    assert precision is None or precision.adapter != "microbatch_loop", precision
    assert fact(plan, "batch.grad_accum").value == 1


def test_twin_microbatch_not_dividing_the_batch_says_nothing(cli, tmp_path):
    plan = _plan(cli, tmp_path, FILES, "--batch_size", "30", "--microbatch", "8")
    accum = fact(plan, "batch.grad_accum")
    assert accum is None or accum.adapter != "microbatch_loop", accum
