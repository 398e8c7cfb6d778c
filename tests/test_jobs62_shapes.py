"""Issue 15, branch jobs62: shapes of set 31 (fixtures of our own that copy the real code's shape; each with a
twin that must stay unknown).

- an option rewritten inside a function that receives the parsed options (jeonsworld/ViT-pytorch @ 460a162
  ``train.py:147``: ``args.train_batch_size = args.train_batch_size // args.gradient_accumulation_steps`` in
  ``train(args, model)`` before ``get_loader(args)`` builds the loaders in ``utils/data_utils.py:51-60``);
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

# ViT-pytorch's shape: argparse in main(), train(args) rewrites the per-step batch, a helper module builds the
# training loader from the rewritten option (and, in the real code, a test loader from eval_batch_size)
_VIT_TRAIN = """\
    import argparse

    import torch
    from utils.data_utils import get_loader


    def train(args, model):
        {rewrite}
        train_loader = get_loader(args)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for step, batch in enumerate(train_loader):
            x, y = batch
            loss = model(x).sum()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--train_batch_size", default=512, type=int)
        parser.add_argument("--gradient_accumulation_steps", type=int, default=1)
        args = parser.parse_args()
        model = torch.nn.Linear(4, 4)
        train(args, model)


    if __name__ == "__main__":
        main()
"""
_VIT_DATA = """\
    from torch.utils.data import DataLoader, RandomSampler


    def get_loader(args):
        trainset = list(range(100))
        return DataLoader(trainset, sampler=RandomSampler(trainset), batch_size=args.train_batch_size,
                          num_workers=4, pin_memory=True)
"""


def _vit(cli, tmp_path, rewrite: str, *launch: str) -> dict:
    write(tmp_path, {"train.py": _VIT_TRAIN.replace("{rewrite}", rewrite), "utils/__init__.py": "",
                     "utils/data_utils.py": _VIT_DATA})
    return plan_of(cli, "train.py", "--", *launch, cwd=tmp_path)


_DIVIDE = "args.train_batch_size = args.train_batch_size // args.gradient_accumulation_steps"


def test_option_rewritten_in_a_function_given_the_options_is_the_quotient(cli, tmp_path):
    plan = _vit(cli, tmp_path, _DIVIDE, "--gradient_accumulation_steps", "4")
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == 128 and micro.confidence == "medium", micro
    assert micro.source.path == "train.py" and micro.source.line == 8, micro.source


def test_option_rewritten_from_the_launch_line_value(cli, tmp_path):
    plan = _vit(cli, tmp_path, _DIVIDE, "--train_batch_size", "96", "--gradient_accumulation_steps", "3")
    assert fact(plan, "batch.micro").value == 32


def test_twin_option_also_set_on_another_line_stays_unknown(cli, tmp_path):
    # a second store of the option elsewhere: which value the rewrite reads is not known
    plan = _vit(cli, tmp_path, _DIVIDE + "\n        if args.gradient_accumulation_steps > 2:\n"
                               "            args.train_batch_size = 7", "--gradient_accumulation_steps", "4")
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value not in (128, 512), micro


def test_twin_rewrite_by_true_division_stays_unknown(cli, tmp_path):
    plan = _vit(cli, tmp_path, "args.train_batch_size = args.train_batch_size / args.gradient_accumulation_steps",
                "--gradient_accumulation_steps", "4")
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 512, micro


def test_twin_rewrite_from_a_run_time_value_stays_unknown(cli, tmp_path):
    plan = _vit(cli, tmp_path, "args.train_batch_size = args.train_batch_size // torch.cuda.device_count()")
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 512, micro
