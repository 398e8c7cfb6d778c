"""A rebinding of the parsed options through a function that hands its argument back (issue 15,
preflight/script_passthrough.py): a small rewrite of our own with the shape of epfml/llm-baselines @ c8a5105
src/main.py:51-52 (`args = distributed_backend.get_adjusted_args_for_process(args)`, every backend class
returning the namespace it was given, the DDP one after dividing the batch), with twins that must stay
silent."""

from __future__ import annotations

from plan_helpers import plan_of, winner, write

BACKENDS = """\
    class Backend:
        def adjust(self, args):
            raise NotImplementedError


    class Single(Backend):
        def adjust(self, args):
            return args


    class Parallel(Backend):
        def adjust(self, args):
            args.seed = args.seed + 1
            return args
    """

TRAIN = """\
    import argparse

    import torch
    from torch.utils.data import DataLoader

    import backends


    def main(args):
        backend = backends.Single() if args.seed == 0 else backends.Parallel()
        args = backend.adjust(args)
        model = torch.nn.Linear(4, 4)
        opt = getattr(torch.optim, args.opt)(model.parameters(), lr=1e-3)
        loader = DataLoader(list(range(100)), batch_size=args.batch_size, num_workers=args.workers, pin_memory=True)
        for x in loader:
            model(x).sum().backward()
            opt.step()
            opt.zero_grad()


    if __name__ == "__main__":
        p = argparse.ArgumentParser()
        p.add_argument("--batch_size", type=int, default=8)
        p.add_argument("--workers", type=int, default=2)
        p.add_argument("--seed", type=int, default=0)
        p.add_argument("--opt", default="AdamW")
        main(p.parse_args())
    """


def test_options_through_a_method_that_hands_the_namespace_back(cli, tmp_path):
    write(tmp_path, {"backends.py": BACKENDS, "train.py": TRAIN})
    plan = plan_of(cli, "train.py", "--", "--batch_size", "16", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 16
    assert winner(plan, "data.num_workers") == 2


def test_an_option_a_definition_assigns_or_a_new_namespace_is_not_followed(cli, tmp_path):
    divides = BACKENDS.replace("args.seed = args.seed + 1", "args.batch_size = args.batch_size // 2")
    write(tmp_path, {"backends.py": divides, "train.py": TRAIN})
    plan = plan_of(cli, "train.py", "--", "--batch_size", "16", cwd=tmp_path)
    assert winner(plan, "batch.micro") is None  # the Parallel backend may halve it
    assert winner(plan, "data.num_workers") == 2
    fresh = BACKENDS.replace("            return args\n\n\n    class Parallel",
                             "            return argparse.Namespace(batch_size=1)\n\n\n    class Parallel")
    write(tmp_path, {"backends.py": "import argparse\n" + fresh.replace("\n    ", "\n").lstrip(" ")})
    plan = plan_of(cli, "train.py", "--", "--batch_size", "16", cwd=tmp_path)
    assert winner(plan, "batch.micro") is None
    assert winner(plan, "data.num_workers") is None
