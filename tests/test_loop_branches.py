"""One optimizer step per backward whichever way an ``if``/``else`` goes (adapters/loop_branches.py, used by
adapters/loop_shapes.py). Fixtures are our own small rewrites of real shapes citing repository, path and commit;
each must-read test has a twin where one way accumulates, and nothing is claimed."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

# facebookresearch/ijepa @ 52c1ae95d05f743e000e8f10a1f3a79b10cff048 src/train.py:322-328: ``if use_bfloat16:
# scaler.scale(loss).backward(); scaler.step(optimizer); scaler.update()`` else ``loss.backward();
# optimizer.step()``, in a loop over the loader (here in the script; there in a nested ``train_step`` function of
# a module main.py imports).
BRANCHES = {
    "train.py": """\
        import argparse

        import torch

        parser = argparse.ArgumentParser()
        parser.add_argument("--amp", action="store_true")
        args = parser.parse_args()

        model = torch.nn.Linear(4, 4).cuda()
        optimizer = torch.optim.AdamW(model.parameters())
        scaler = torch.cuda.amp.GradScaler() if args.amp else None
        loader = torch.utils.data.DataLoader(torch.zeros(64, 4), batch_size=8)
        for itr, x in enumerate(loader):
            with torch.cuda.amp.autocast(enabled=args.amp):
                loss = model(x.cuda()).sum()
            if args.amp:
                scaler.scale(loss).backward()
                scaler.step(optimizer)
                scaler.update()
            else:
                loss.backward()
                optimizer.step()
            optimizer.zero_grad()
    """,
}


def test_both_ways_step_every_batch(cli, tmp_path):
    write(tmp_path, BRANCHES)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    got = fact(plan, "batch.grad_accum")
    assert got is not None and got.value == 1 and got.confidence == "medium"


def test_the_same_branches_in_a_step_function_of_an_imported_module(cli, tmp_path):
    """ijepa's own shape: main.py starts one process per device whose function calls src/train.py's
    ``main``, whose loop calls a nested ``train_step`` holding the two ways."""
    write(tmp_path, {"engine.py": """\
        import torch


        def main(args):
            model = torch.nn.Linear(4, 4).cuda()
            optimizer = torch.optim.AdamW(model.parameters())
            scaler = torch.cuda.amp.GradScaler() if args.amp else None
            loader = torch.utils.data.DataLoader(torch.zeros(64, 4), batch_size=8)
            for itr, x in enumerate(loader):
                def train_step():
                    with torch.cuda.amp.autocast(enabled=args.amp):
                        loss = model(x.cuda()).sum()
                    if args.amp:
                        scaler.scale(loss).backward()
                        scaler.step(optimizer)
                        scaler.update()
                    else:
                        loss.backward()
                        optimizer.step()
                    optimizer.zero_grad()
                    return float(loss)
                train_step()
    """, "main.py": """\
        import argparse
        import multiprocessing as mp

        from engine import main as app_main

        parser = argparse.ArgumentParser()
        parser.add_argument("--amp", action="store_true")


        def process_main(rank, amp):
            app_main(argparse.Namespace(amp=amp))


        if __name__ == "__main__":
            args = parser.parse_args()
            for rank in range(2):
                mp.Process(target=process_main, args=(rank, args.amp)).start()
    """})
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    got = fact(plan, "batch.grad_accum")
    assert got is not None and got.value == 1 and got.adapter == "loop_update"


def test_one_way_accumulating_says_nothing(cli, tmp_path):
    """Twin: without AMP the loop back-propagates every batch but steps every fourth one."""
    text = BRANCHES["train.py"].replace(
        "                loss.backward()\n                optimizer.step()\n",
        "                loss.backward()\n                if (itr + 1) % 4 == 0:\n                    optimizer.step()\n")
    write(tmp_path, {"train.py": text})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    got = fact(plan, "batch.grad_accum")
    assert got is None or got.value != 1


def test_a_scheduler_stepped_after_the_optimizer_keeps_the_reading(cli, tmp_path):
    """corl-team/CORL @ eeeeef2671235fcce3a3eb255576a207d78840e6 algorithms/offline/dt.py:506-511 (``optim.zero_grad(); loss.backward(); if config.clip_grad
    is not None: clip...; optim.step(); scheduler.step()`` with ``scheduler = torch.optim.lr_scheduler.LambdaLR``):
    one optimizer step per batch; the scheduler's step after it changes nothing."""
    write(tmp_path, {"train.py": """\
        import torch

        model = torch.nn.Linear(4, 4)
        optim = torch.optim.AdamW(model.parameters())
        scheduler = torch.optim.lr_scheduler.LambdaLR(optim, lambda steps: 1.0)
        clip_grad = None
        for step in range(100):
            loss = model(torch.zeros(2, 4)).sum()
            optim.zero_grad()
            loss.backward()
            if clip_grad is not None:
                torch.nn.utils.clip_grad_norm_(model.parameters(), clip_grad)
            optim.step()
            scheduler.step()
    """})
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "batch.grad_accum")
    assert got is not None and got.value == 1
