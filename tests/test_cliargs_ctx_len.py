"""`--ctx_len` is the training context of RWKV trainers (BlinkDL/RWKV-LM @ 524481d
RWKV-v7/train_temp/train.py, demo-training-run.sh:19,57 CTX_LEN=512 -> --ctx_len): a small script
of our own with that option."""

from __future__ import annotations

from plan_helpers import plan_of, winner, write

SCRIPT = """\
    import argparse
    import torch

    parser = argparse.ArgumentParser()
    parser.add_argument("--ctx_len", default=1024, type=int)
    parser.add_argument("--ctx", default=7, type=int)
    args = parser.parse_args()
    x = torch.zeros(4, args.ctx_len, dtype=torch.long)
    """


def test_ctx_len_is_the_sequence_length(cli, tmp_path):
    write(tmp_path, {"train.py": SCRIPT})
    plan = plan_of(cli, "train.py", "--", "--ctx_len", "512", cwd=tmp_path)
    assert winner(plan, "data.seq_len") == 512


def test_other_context_words_are_not(cli, tmp_path):
    write(tmp_path, {"train.py": SCRIPT.replace('"--ctx_len", default=1024', '"--ctx_window", default=1024')
                     .replace("args.ctx_len", "args.ctx_window")})
    plan = plan_of(cli, "train.py", "--", "--ctx", "512", cwd=tmp_path)
    assert winner(plan, "data.seq_len") != 512
