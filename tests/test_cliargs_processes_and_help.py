"""Launch-line readings of ``adapters/cliargs.py``. ``python script.py`` is one training process even when
the script starts data-producing worker
processes (``adapters/cliargs.py``: ``_data_workers_only``). Shape of pmixer/SASRec.pytorch @
fde8a9c08febc2c898dc269b1d98ab762c50d2be ``python/utils.py:50-82`` and ``python/main.py:56-116``."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import plan_of, winner, write

UTILS = """\
    from multiprocessing import Process, Queue

    import numpy as np


    def sample_function(user_train, batch_size, result_queue, seed):
        def sample(uid):
            return user_train[uid]

        np.random.seed(seed)
        while True:
            result_queue.put([sample(i) for i in range(batch_size)])


    class WarpSampler(object):
        def __init__(self, user_train, batch_size=64, n_workers=1):
            self.result_queue = Queue(maxsize=n_workers * 10)
            self.processors = []
            for i in range(n_workers):
                self.processors.append(Process(target={target}, args=(user_train, batch_size,
                                                                     self.result_queue, i)))
                self.processors[-1].daemon = True
                self.processors[-1].start()

        def next_batch(self):
            return self.result_queue.get()
    """

TRAIN_FN = """\


    def train_worker(user_train, batch_size, result_queue, seed):
        import torch
        model = torch.nn.Linear(4, 4)
        opt = torch.optim.Adam(model.parameters())
        loss = model(torch.zeros(4)).sum()
        loss.backward()
        opt.step()
    """

MAIN = """\
    import argparse

    import torch

    from utils import WarpSampler

    parser = argparse.ArgumentParser()
    parser.add_argument('--batch_size', default=128, type=int)
    args = parser.parse_args()
    sampler = WarpSampler({{}}, batch_size=args.batch_size, n_workers=3)
    model = torch.nn.Linear(4, 4).cuda()
    adam_optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
    for step in range(100):
        batch = sampler.next_batch()
        loss = model(torch.tensor(batch)).sum()
        adam_optimizer.zero_grad()
        loss.backward()
        adam_optimizer.step()
    """


def test_data_producer_processes_leave_one_training_process(cli, tmp_path: Path) -> None:
    write(tmp_path, {"main.py": MAIN, "utils.py": UTILS.format(target="sample_function")})
    plan = plan_of(cli, "main.py", "--", "--batch_size", "64", cwd=tmp_path)
    assert winner(plan, "dist.world_size") == 1
    assert winner(plan, "dist.sharding") == "none"


def test_processes_that_train_or_targets_not_read_are_not_one_process(cli, tmp_path: Path) -> None:
    write(tmp_path, {"main.py": MAIN, "utils.py": UTILS.format(target="train_worker") + TRAIN_FN})
    assert winner(plan_of(cli, "main.py", "--", "--batch_size", "64", cwd=tmp_path), "dist.world_size") != 1
    write(tmp_path, {"main.py": MAIN, "utils.py": UTILS.format(target="self.run")})
    assert winner(plan_of(cli, "main.py", "--", "--batch_size", "64", cwd=tmp_path), "dist.world_size") != 1


# facebookresearch/mae @ efb2a80 main_pretrain.py:40-44: the accumulation option's help names the
# effective batch size; it is not the global batch.
MAE = """\
    import argparse

    import torch

    parser = argparse.ArgumentParser()
    parser.add_argument('--batch_size', default=64, type=int,
                        help='Batch size per GPU (effective batch size is batch_size * accum_iter * # gpus')
    parser.add_argument('--accum_iter', default=1, type=int,
                        help='Accumulate gradient iterations (for increasing the effective batch size under memory '
                             'constraints)')
    parser.add_argument('--{name}', default=1024, type=int, help='{help}')
    args = parser.parse_args()
    model = torch.nn.Linear(4, 4).cuda()
    loader = torch.utils.data.DataLoader(range(10), batch_size=args.batch_size)
    """


def test_an_accumulation_option_documented_with_the_effective_batch_is_not_the_global_batch(cli, tmp_path):
    write(tmp_path, {"main.py": MAE.format(name="unused", help="unused")})
    plan = plan_of(cli, "main.py", "--", "--batch_size", "64", "--accum_iter", "4", cwd=tmp_path)
    assert winner(plan, "batch.global") != 4
    write(tmp_path, {"main.py": MAE.format(name="global_batch", help="total batch size over all GPUs")})
    plan = plan_of(cli, "main.py", "--", "--global_batch", "512", "--accum_iter", "4", cwd=tmp_path)
    assert winner(plan, "batch.global") == 512
