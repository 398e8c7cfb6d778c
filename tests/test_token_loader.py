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


def _loader_fact(plan: dict, field: str):
    """The token_loader adapter's fact for ``field`` (None when it wrote none)."""
    return next((f for f in plan["fields"].get(field, []) if f["adapter"] == "token_loader"), None)


# akibjawad/train_gpt @ 8aeb3a1 train_gpt2.py:22-24,73-76,246-248,266 (a build-nanogpt copy with keyword
# parameters ``DataLoaderLite(batch_size=B, block_size=T, ...)``, ``T = 1024``, and a sampling helper with
# ``max_length = 32`` that an older reading took for the sequence length).
SAMPLER = LITE.replace("def __init__(self, B, T, split):\n            self.B = B\n            self.T = T",
                       "def __init__(self, batch_size, block_size, split):\n            self.B = batch_size\n"
                       "            self.T = block_size") \
    .replace('DataLoaderLite(B=B, T=T, split="train")', 'DataLoaderLite(batch_size=B, block_size=T, split="train")') \
    .replace('DataLoaderLite(B=4, T=T, split="val")', 'DataLoaderLite(batch_size=4, block_size=T, split="val")') \
    + """\

    def do_sampling(model):
        max_length = 32
        x = torch.zeros(4, 8, dtype=torch.long)
        while x.size(1) < max_length:
            x = torch.cat([x, x[:, -1:]], dim=1)
    """


def test_the_second_view_dimension_is_the_sequence_length(cli, tmp_path):
    write(tmp_path, {"train_gpt2.py": LITE})
    plan = plan_of(cli, "train_gpt2.py", "--", "--x", "1", cwd=tmp_path)
    assert winner(plan, "data.seq_len") == 1024
    fact = _loader_fact(plan, "data.seq_len")
    assert fact is not None and fact["source"]["line"] == 20 and fact["confidence"] == "medium"
    write(tmp_path, {"train_gpt2.py": SAMPLER})
    plan = plan_of(cli, "train_gpt2.py", "--", "--x", "1", cwd=tmp_path)
    assert winner(plan, "data.seq_len") == 1024  # not the sampler's max_length = 32
    assert winner(plan, "batch.micro") == 16


def test_positional_sequence_length_from_the_launch_line(cli, tmp_path):
    write(tmp_path, {"train_gpt2.py": POSITIONAL})
    plan = plan_of(cli, "train_gpt2.py", "--", "--sequence_length", "256", cwd=tmp_path)
    assert winner(plan, "data.seq_len") == 256


def test_a_sequence_length_not_decided_stays_unknown(cli, tmp_path):
    # a flattened second dimension (``view(B, -1)``) names no parameter
    write(tmp_path, {"train_gpt2.py": LITE.replace(".view(B, T)", ".view(B, -1)")})
    plan = plan_of(cli, "train_gpt2.py", "--", "--x", "1", cwd=tmp_path)
    assert _loader_fact(plan, "data.seq_len") is None
    assert winner(plan, "batch.micro") == 16
    # T read from the environment: not a value
    write(tmp_path, {"train_gpt2.py": LITE.replace("    T = 1024\n", "    import os\n    T = int(os.environ['SEQ'])\n")})
    plan = plan_of(cli, "train_gpt2.py", "--", "--x", "1", cwd=tmp_path)
    assert _loader_fact(plan, "data.seq_len") is None
    # two training loaders with different lengths: no single value
    write(tmp_path, {"train_gpt2.py": LITE.replace('val_loader = DataLoaderLite(B=4, T=T, split="val")',
                                                  'aux_loader = DataLoaderLite(B=16, T=512, split="train2")')})
    plan = plan_of(cli, "train_gpt2.py", "--", "--x", "1", cwd=tmp_path)
    assert _loader_fact(plan, "data.seq_len") is None
