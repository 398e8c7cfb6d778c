"""Token loader classes of the nanoGPT family (issue 15): small rewrites of our own with the shapes
of karpathy/build-nanogpt @ 6104ab1 train_gpt2.py:214-244,325-334 (DataLoaderLite(B=B, T=T), `B, T =
self.B, self.T` then `.view(B, T)`) and karpathy/llm.c @ f1e2ace train_gpt2.py:329-372,581,676
(positional `DistributedDataLoader(args.input_bin, B, T, ...)` with `B, T = args.batch_size, ...`)."""

from __future__ import annotations

from plan_helpers import plan_of, winner, write

LITE = """\
    import torch

    class DataLoaderLite:
        def __init__(self, B, T, split):
            self.B = B
            self.T = T
            self.tokens = torch.zeros(10_000, dtype=torch.long)
            self.pos = 0

        def next_batch(self):
            B, T = self.B, self.T
            buf = self.tokens[self.pos : self.pos + B * T + 1]
            x = (buf[:-1]).view(B, T)
            y = (buf[1:]).view(B, T)
            self.pos += B * T
            return x, y

    B = 16
    T = 1024
    train_loader = DataLoaderLite(B=B, T=T, split="train")
    val_loader = DataLoaderLite(B=4, T=T, split="val")
    model = torch.nn.Linear(4, 4)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for step in range(10):
        x, y = train_loader.next_batch()
    """

POSITIONAL = """\
    import argparse
    import torch

    class DistributedDataLoader:
        def __init__(self, filename_pattern, B, T, process_rank, num_processes):
            self.B = B
            self.T = T

        def next_batch(self):
            B = self.B
            T = self.T
            buf = torch.zeros(B * T + 1, dtype=torch.long)
            return buf[:-1].view(B, T), buf[1:].view(B, T)

    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--input_bin", type=str, default="data.bin")
        parser.add_argument("--batch_size", type=int, default=4)
        parser.add_argument("--sequence_length", type=int, default=64)
        args = parser.parse_args()
        B, T = args.batch_size, args.sequence_length
        train_loader = DistributedDataLoader(args.input_bin, B, T, 0, 1)
    """


def test_keyword_batch_of_the_train_loader(cli, tmp_path):
    write(tmp_path, {"train_gpt2.py": LITE})
    plan = plan_of(cli, "train_gpt2.py", "--", "--x", "1", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 16  # the val loader's 4 is not the training batch


def test_positional_batch_from_the_launch_line(cli, tmp_path):
    write(tmp_path, {"train_gpt2.py": POSITIONAL})
    plan = plan_of(cli, "train_gpt2.py", "--", "--batch_size", "32", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 32


def test_view_over_the_sequence_first_or_only_an_eval_loader_says_nothing(cli, tmp_path):
    # the first dimension is not a stored parameter (a constant number of rows): no reading
    write(tmp_path, {"train_gpt2.py": LITE.replace(".view(B, T)", ".view(1, -1)")})
    plan = plan_of(cli, "train_gpt2.py", "--", "--x", "1", cwd=tmp_path)
    assert winner(plan, "batch.micro") != 16
    write(tmp_path, {"train_gpt2.py": LITE.replace('    train_loader = DataLoaderLite(B=B, T=T, split="train")\n', "")
                     .replace("train_loader.next_batch()", "val_loader.next_batch()")})
    plan = plan_of(cli, "train_gpt2.py", "--", "--x", "1", cwd=tmp_path)
    assert winner(plan, "batch.micro") != 4
