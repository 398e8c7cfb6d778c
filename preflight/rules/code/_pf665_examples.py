"""PF665 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

_MAG_BERT = textwrap.dedent("""
    import argparse

    from transformers import AdamW, get_linear_schedule_with_warmup

    parser = argparse.ArgumentParser()
    parser.add_argument("--learning_rate", type=float, default=1e-5)
    parser.add_argument("--warmup_proportion", type=float, default=0.1)
    args = parser.parse_args()


    def prep_for_training(model, num_train_optimization_steps):
        optimizer = AdamW(model.parameters(), lr=args.learning_rate)
        scheduler = get_linear_schedule_with_warmup(
            optimizer,
            num_warmup_steps={warmup},{pin}
            num_training_steps={total},
        )
        return optimizer, scheduler
""")

PF665_BAD = [
    # BERT_multimodal_transformer PR 22 (MAG-BERT, held-out-32): the total steps as the warmup, 10% of them as the total
    _MAG_BERT.format(warmup="num_train_optimization_steps", pin="  # warning: PF665",
                     total="args.warmup_proportion * num_train_optimization_steps"),
    # positional arguments, the share a float literal, the total wrapped in int()
    textwrap.dedent("""
    import torch
    from transformers import get_cosine_schedule_with_warmup


    def build(model, total_steps):
        optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
        scheduler = get_cosine_schedule_with_warmup(optimizer, total_steps, int(0.06 * total_steps))  # warning: PF665
        return optimizer, scheduler
    """),
    # literal step counts with the warmup longer than the run
    textwrap.dedent("""
    import torch
    from transformers import get_scheduler


    def build(model):
        optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
        return get_scheduler("linear", optimizer, num_warmup_steps=2000, num_training_steps=1000)  # warning: PF665
    """),
]

PF665_GOOD = [
    # the PR's fix: the share goes to the warmup
    _MAG_BERT.format(warmup="args.warmup_proportion * num_train_optimization_steps", pin="",
                     total="num_train_optimization_steps"),
    # tricky-correct: a total that is a multiple (not a share) of the warmup: warmup is a tenth of the run
    _MAG_BERT.format(warmup="num_warmup", pin="", total="10 * num_warmup"),
    # tricky-correct: get_scheduler's "constant" schedule ignores both numbers
    textwrap.dedent("""
    import torch
    from transformers import get_scheduler


    def build(model, steps):
        optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
        return get_scheduler("constant", optimizer, num_warmup_steps=steps, num_training_steps=steps)
    """),
    # different names preflight cannot compare: silent
    textwrap.dedent("""
    import torch
    from transformers import get_linear_schedule_with_warmup


    def build(model, args, t_total):
        optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
        return get_linear_schedule_with_warmup(optimizer, num_warmup_steps=args.warmup_steps, num_training_steps=t_total)
    """),
]
