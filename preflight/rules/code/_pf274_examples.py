"""PF274 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF274_BAD = [
    # accelerate issue 133's shape: results sampled on the main process, written by every process
    textwrap.dedent("""
    import json
    from accelerate import Accelerator


    def main(model, optimizer, train_loader, test_loader, sample, path="results.json"):
        accelerator = Accelerator()
        model, optimizer, train_loader = accelerator.prepare(model, optimizer, train_loader)
        for epoch in range(10):
            for batch in train_loader:
                loss = model(**batch)
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad()
            if accelerator.is_main_process:
                results = sample(accelerator.unwrap_model(model), test_loader)
            with open(path, "w") as w:
                json.dump(results, w)  # warning: PF274
"""),
    # a rank flag at module level
    textwrap.dedent("""
    import torch.distributed as dist

    dist.init_process_group("nccl")
    is_master = dist.get_rank() == 0
    if is_master:
        best_metric = evaluate(model)
    print(f"best so far: {best_metric}")  # warning: PF274
"""),
    # hunt46: the conditional expression's test is not a main-process test
    textwrap.dedent("""
    import os
    from contextlib import nullcontext

    import torch
    from accelerate import Accelerator


    def main(args, model, loader, optimizer):
        # the conditional expression tests a flag every process may hold: the others read prof_dir
        accelerator = Accelerator()
        if accelerator.is_main_process and args.profile_dir:
            prof_dir = f"{args.profile_dir}/run"
            os.makedirs(prof_dir, exist_ok=True)
        accelerator.wait_for_everyone()
        do_profile = args.profile
        prof_context = torch.profiler.profile(
            on_trace_ready=torch.profiler.tensorboard_trace_handler(prof_dir),  # warning: PF274
        ) if do_profile else nullcontext()
        with prof_context:
            for batch in loader:
                loss = model(**batch).loss
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad()
"""),
]

PF274_GOOD = [
    # the fix: every read inside the block, the others wait
    textwrap.dedent("""
    import json
    from accelerate import Accelerator


    def main(model, test_loader, sample, path="results.json"):
        accelerator = Accelerator()
        accelerator.wait_for_everyone()
        if accelerator.is_main_process:
            results = sample(accelerator.unwrap_model(model), test_loader)
            with open(path, "w") as w:
                json.dump(results, w)
        accelerator.wait_for_everyone()
"""),
    # tricky-correct: bound on every process first, read under a second main-process test,
    # an else branch, an early return on the other processes, a nested function
    textwrap.dedent("""
    def evaluate(accelerator, model, loader, writer):
        score = None
        if accelerator.is_main_process:
            score = model.score(loader)
            table = model.table(loader)
        if accelerator.is_main_process:
            writer.add_table(table)
        if accelerator.process_index == 0:
            tag = "main"
        else:
            tag = "worker"
        return score, tag


    def save(accelerator, model, path):
        if accelerator.is_main_process:
            os.environ["WANDB_DIR"] = path
            state = accelerator.unwrap_model(model).state_dict()
        if not accelerator.is_main_process:
            return
        torch.save(state, os.path.join(path, "model.pt"))


    def report(trainer, model):
        if trainer.is_global_zero:
            summary = model.summary()

        def show():
            print(summary)
        return show
"""),
    # tricky-correct, after the YOLO training scripts: the logger built on the main process(es) of
    # `RANK in {-1, 0}` and read only under `RANK == -1` (no distribution: the one process built it)
    textwrap.dedent("""
    import os

    RANK = int(os.getenv("RANK", -1))


    def train(opt, model, batch_size):
        if RANK in {-1, 0}:
            tracker = Tracker(opt.save_dir)
        if RANK == -1 and batch_size == -1:
            batch_size = autobatch(model)
            tracker.log_params({"batch_size": batch_size})
        return batch_size
"""),
    # tricky-correct, after a classifier's training script: the last-epoch flag bound while the main
    # process saves, read after the loop only behind the same main-process test in an `and` (the
    # other processes stop at the test and never evaluate the flag)
    textwrap.dedent("""
    import os

    RANK = int(os.getenv("RANK", -1))


    def fit(model, loader, epochs, save):
        for epoch in range(epochs):
            loss = model.step(loader)
            if RANK in {-1, 0}:
                last = epoch + 1 == epochs
                save(model, last)
        if RANK in {-1, 0} and last:
            print(f"finished at loss {loss:.3f}")
"""),
    # hunt46, DeepSpeedExamples run_bench_lm.py: read in the branch a main-process flag picks
    textwrap.dedent("""
    import os
    from contextlib import nullcontext

    import torch
    from accelerate import Accelerator


    def main(args, model, loader, optimizer):
        # DeepSpeedExamples benchmarks/deepcompile/run_bench_lm.py (shape): prof_dir is read only in the
        # branch a conditional expression picks on the main process
        accelerator = Accelerator()
        if accelerator.is_main_process and args.profile_dir:
            prof_dir = f"{args.profile_dir}/run"
            os.makedirs(prof_dir, exist_ok=True)
        accelerator.wait_for_everyone()
        do_profile = args.profile and accelerator.is_main_process
        prof_context = torch.profiler.profile(
            on_trace_ready=torch.profiler.tensorboard_trace_handler(prof_dir),
        ) if do_profile else nullcontext()
        with prof_context:
            for batch in loader:
                loss = model(**batch).loss
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad()
"""),
]

PF274_BAD.append(
    # held-out-30 (accelerate issue 496): loaders, model and optimizer built on the main process, then prepared
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from torch.utils.data import DataLoader

    accelerator = Accelerator()
    if accelerator.is_main_process:
        download_data("s3://bucket/reviews", "/data")
        train_dataloader = DataLoader(ReviewsDataset("/data/train.jsonl"), batch_size=32, shuffle=True)
        model = AutoModelForSequenceClassification.from_pretrained("roberta-base", num_labels=5)
        optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    accelerator.wait_for_everyone()
    train_dataloader, model, optimizer = accelerator.prepare(train_dataloader, model, optimizer)  # warning: PF274  # warning: PF274  # warning: PF274
    model.train()
    for batch in train_dataloader:
        accelerator.backward(model(**batch).loss)
        optimizer.step()
        optimizer.zero_grad()
""")
)
