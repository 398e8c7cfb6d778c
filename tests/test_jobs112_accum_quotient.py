"""Gradient accumulation the script computes as ``total // (per_process * world)`` (issue 15, branch jobs112;
adapters/accum_quotient.py). Shapes: Guitaricet/relora @ 176f376 ``torchrun_main.py:345-360,796-799`` (``world_size =
int(os.environ["WORLD_SIZE"])``; ``if args.gradient_accumulation is None: args.gradient_accumulation =
args.total_batch_size // (args.batch_size * world_size)``; ``scaled_loss = loss / args.gradient_accumulation``), the
same lines in other ReLoRA-derived trainers (find_string, ten files), and the accelerate form ``args.gradient_
accumulation_steps = args.total_batch_size // (args.per_device_train_batch_size * accelerator.num_processes)``
(two files found). The fixtures are our own, written to those shapes, beside twins that must stay unknown."""

from __future__ import annotations

from plan_helpers import fact, plan_of, winner, write

TRAIN = """\
    import argparse
    import os

    import torch
    import torch.distributed as dist
    from torch.utils.data import DataLoader, TensorDataset


    def parse():
        p = argparse.ArgumentParser()
        p.add_argument("--batch_size", type=int, default=8)
        p.add_argument("--total_batch_size", type=int, default=1024)
        p.add_argument("--gradient_accumulation", type=int, default=None)
        return p.parse_args()


    def main(args):
        local_rank = int(os.environ["LOCAL_RANK"])
        world_size = int(os.environ["WORLD_SIZE"])
        dist.init_process_group(backend="nccl")
        if args.total_batch_size is not None:
            if args.gradient_accumulation is None:
                args.gradient_accumulation = args.total_batch_size // (args.batch_size * world_size)
        model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(4, 4).cuda(), device_ids=[local_rank])
        optimizer = torch.optim.AdamW(model.parameters())
        loader = DataLoader(TensorDataset(torch.zeros(64, 4)), batch_size=args.batch_size)
        for step, (x,) in enumerate(loader, 1):
            loss = model(x).mean()
            (loss / args.gradient_accumulation).backward()
            if step % args.gradient_accumulation != 0:
                continue
            optimizer.step()
            optimizer.zero_grad()


    if __name__ == "__main__":
        main(parse())
"""

LAUNCH = ("torchrun", "--nproc_per_node", "8", "train.py")


def _plan(cli, tmp_path, text: str, *extra: str) -> dict:
    write(tmp_path, {"train.py": text})
    return plan_of(cli, "train.py", "--", *LAUNCH, *extra, cwd=tmp_path)


def test_the_quotient_of_global_micro_and_world(cli, tmp_path) -> None:
    plan = _plan(cli, tmp_path, TRAIN)
    assert winner(plan, "batch.global") == 1024 and winner(plan, "batch.micro") == 8
    got = fact(plan, "batch.grad_accum")
    assert got is not None and got.value == 16 and got.confidence in ("medium", "low")
    assert got.source.line == 23 and "1024 // (8 per process x 8 processes)" in (got.source.detail or "")


def test_options_on_the_launch_line_change_the_quotient(cli, tmp_path) -> None:
    plan = _plan(cli, tmp_path, TRAIN, "--batch_size", "4", "--total_batch_size", "256")
    assert winner(plan, "batch.grad_accum") == 8


def test_a_count_given_on_the_launch_line_wins(cli, tmp_path) -> None:
    # ``--gradient_accumulation 2``: the guarded division never runs
    plan = _plan(cli, tmp_path, TRAIN, "--gradient_accumulation", "2")
    got = fact(plan, "batch.grad_accum")
    assert got is None or (got.value == 2 and got.source.kind != "code")


def test_the_process_group_size_as_the_divisor(cli, tmp_path) -> None:
    text = TRAIN.replace("(args.batch_size * world_size)", "(dist.get_world_size() * args.batch_size)")
    plan = _plan(cli, tmp_path, text)
    assert winner(plan, "batch.grad_accum") == 16


def test_one_process_form(cli, tmp_path) -> None:
    # ``total // per_device`` with no process count: right for one process
    text = TRAIN.replace("(args.batch_size * world_size)", "args.batch_size")
    write(tmp_path, {"train.py": text})
    plan = plan_of(cli, "train.py", "--", "python", "train.py", "--total_batch_size", "64", cwd=tmp_path)
    assert winner(plan, "batch.grad_accum") == 8


def test_a_divisor_of_another_count_stays_unknown(cli, tmp_path) -> None:
    # ``args.n_gpu`` set by nothing that counts processes: not the world size
    text = TRAIN.replace("(args.batch_size * world_size)", "(args.batch_size * args.n_gpu)")
    plan = _plan(cli, tmp_path, text)
    assert winner(plan, "batch.grad_accum") is None


def test_a_token_count_divisor_stays_unknown(cli, tmp_path) -> None:
    # ``total // (micro * seq_len * world)`` counts tokens, not samples: not this reading
    text = TRAIN.replace("(args.batch_size * world_size)", "(args.batch_size * 2048 * world_size)")
    plan = _plan(cli, tmp_path, text)
    assert winner(plan, "batch.grad_accum") is None


def test_a_world_size_parameter_is_not_followed(cli, tmp_path) -> None:
    # ``world_size`` handed in by a caller: what it holds is not read here
    text = TRAIN.replace("    def main(args):\n", "    def main(args, world_size=1):\n") \
        .replace("        world_size = int(os.environ[\"WORLD_SIZE\"])\n", "")
    plan = _plan(cli, tmp_path, text)
    assert winner(plan, "batch.grad_accum") is None


def test_a_second_binding_leaves_it_unknown(cli, tmp_path) -> None:
    # the count divided again for DDP (``GRADIENT_ACCUMULATION_STEPS //= world_size``): not one reading
    text = TRAIN.replace("(args.batch_size * world_size)\n",
                         "(args.batch_size * world_size)\n        args.gradient_accumulation //= 2\n")
    plan = _plan(cli, tmp_path, text)
    assert winner(plan, "batch.grad_accum") is None


def test_a_count_never_read_back_stays_unknown(cli, tmp_path) -> None:
    # computed and logged, but the loop steps every batch: the quotient is not the accumulation
    text = TRAIN.replace("(loss / args.gradient_accumulation).backward()", "loss.backward()") \
        .replace("if step % args.gradient_accumulation != 0:", "if step < 0:")
    plan = _plan(cli, tmp_path, text)
    got = fact(plan, "batch.grad_accum")
    assert got is None or got.value != 16


def test_an_uneven_quotient_stays_unknown(cli, tmp_path) -> None:
    plan = _plan(cli, tmp_path, TRAIN, "--total_batch_size", "1000", "--batch_size", "3")
    got = fact(plan, "batch.grad_accum")
    assert got is None or got.source.kind != "code" or "//" not in (got.source.detail or "")


def test_a_continue_before_backward_still_steps_every_batch(cli, tmp_path) -> None:
    # ``if x is None: continue`` skips the backward and the step together: one step per backward
    text = """\
        import torch
        from torch.utils.data import DataLoader, TensorDataset

        model = torch.nn.Linear(4, 4)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        loader = DataLoader(TensorDataset(torch.zeros(64, 4)), batch_size=8)
        for (x,) in loader:
            if x is None:
                continue
            loss = model(x).mean()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
    """
    write(tmp_path, {"train.py": text})
    plan = plan_of(cli, "train.py", "--", "python", "train.py", cwd=tmp_path)
    assert winner(plan, "batch.grad_accum") == 1


def test_a_continue_between_backward_and_step_is_no_every_batch_step(cli, tmp_path) -> None:
    # ``if micro_step % accum != 0: continue`` before ``scaler.step(opt)``: the step is gated, not every batch
    text = """\
        import torch
        from torch.utils.data import DataLoader, TensorDataset

        accum = int(input())
        model = torch.nn.Linear(4, 4)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        loader = DataLoader(TensorDataset(torch.zeros(64, 4)), batch_size=8)
        for i, (x,) in enumerate(loader, 1):
            loss = model(x).mean()
            loss.backward()
            if i % accum != 0:
                continue
            optimizer.step()
            optimizer.zero_grad()
    """
    write(tmp_path, {"train.py": text})
    plan = plan_of(cli, "train.py", "--", "python", "train.py", cwd=tmp_path)
    assert winner(plan, "batch.grad_accum") is None


def test_a_continue_gate_the_launch_decides_never_skips(cli, tmp_path) -> None:
    # facebookresearch/SLIP @ c6faf5d main.py:306-307: ``if (data_iter + 1) % args.update_freq != 0: continue``
    # with the option's default 1 never skips the step: one step per batch (the gate read as decided). The
    # option is renamed here so that the accumulation key family (update_freq) does not answer first
    text = """\
        import argparse

        import torch
        from torch.utils.data import DataLoader, TensorDataset

        p = argparse.ArgumentParser()
        p.add_argument("--sync-every", default=1, type=int)
        args = p.parse_args()
        model = torch.nn.Linear(4, 4)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        loader = DataLoader(TensorDataset(torch.zeros(64, 4)), batch_size=8)
        for data_iter, (x,) in enumerate(loader):
            loss = model(x).mean()
            loss.backward()
            if (data_iter + 1) % args.sync_every != 0:
                continue
            optimizer.step()
            optimizer.zero_grad()
    """
    write(tmp_path, {"train.py": text})
    plan = plan_of(cli, "train.py", "--", "python", "train.py", cwd=tmp_path)
    assert winner(plan, "batch.grad_accum") == 1
    write(tmp_path, {"train.py": text})
    plan = plan_of(cli, "train.py", "--", "python", "train.py", "--sync-every", "4", cwd=tmp_path)
    assert winner(plan, "batch.grad_accum") != 1
