"""PF341 examples: executable documentation (bad ones must fire, good ones stay silent)."""

from __future__ import annotations

import textwrap

_ENGINE = textwrap.dedent("""
    import time

    import deepspeed
    import torch


    def train(args, model, loader):
        engine, _, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
        for x, y in loader:
            loss = torch.nn.functional.cross_entropy(engine(x.to(engine.device)), y.to(engine.device))
            engine.backward(loss)
            engine.step()
            if engine.global_steps % 2000 == 0:
    {save}
""")

_TRAINER = textwrap.dedent("""
    import os
    import uuid

    from transformers import Trainer, TrainingArguments

    RUN_NAME = os.environ.get("RUN_NAME", "mistral-code")
    {draw}
    args = TrainingArguments(output_dir=output_dir, per_device_train_batch_size=1, deepspeed="ds_zero3.json")
    Trainer(model=model, args=args, train_dataset=data).train()
""")

_RUN_DIR = textwrap.dedent("""
    import datetime
    from pathlib import Path

    import deepspeed
    import torch.distributed as dist


    def main(args, model, dataset):
        deepspeed.init_distributed()
        engine, _, loader, _ = deepspeed.initialize(args=args, model=model, training_data=dataset)
    {run_dir}
        for step, batch in enumerate(loader, 1):
            engine.backward(engine(batch))
            engine.step()
            if step % args.save_every == 0:
                engine.save_checkpoint(str(run_dir / "checkpoints"), tag=f"step_{{step:06d}}")
""")

PF341_BAD = [
    # DeepSpeed PR 667: a tag from each rank's clock
    _ENGINE.format(save='                tag = time.strftime("ckpt-%Y%m%d-%H%M%S")  # error: PF341\n'
                        '                engine.save_checkpoint("checkpoints", tag=tag)'),
    # transformers issue 28270: a per-process uuid in the output directory of 8 DeepSpeed ranks
    _TRAINER.format(draw='output_dir = os.path.join("runs", f"{RUN_NAME}-{uuid.uuid4().hex[:8]}")  # error: PF341'),
    # OpenTau PR 396: the tag is the step, but the DIRECTORY the tag goes under is each rank's own clock
    _RUN_DIR.format(run_dir='    now = datetime.datetime.now()  # error: PF341\n'
                            '    run_dir = Path("outputs/train") / f"{now:%Y-%m-%d}/{now:%H-%M-%S}_{args.job_name}"'),
]

PF341_GOOD = [
    # the fixes: the step counter; a uuid5 of the run name (or the launcher's RUN_ID)
    _ENGINE.format(save='                tag = f"global_step{engine.global_steps}"\n'
                        '                engine.save_checkpoint("checkpoints", tag=tag)'),
    _TRAINER.format(draw='run_id = os.environ.get("RUN_ID") or uuid.uuid5(uuid.NAMESPACE_DNS, RUN_NAME).hex[:8]\n'
                         'output_dir = os.path.join("runs", f"{RUN_NAME}-{run_id}")'),
    # tricky: the clock only times the save; the tag is the step
    _ENGINE.format(save='                start = time.time()\n'
                        '                engine.save_checkpoint("checkpoints", tag=f"step{engine.global_steps}")\n'
                        '                print("saved in", time.time() - start)'),
    # the OpenTau fix: rank 0's clock broadcast to every rank
    _RUN_DIR.format(run_dir='    now = datetime.datetime.now()\n'
                            '    shared = [str(Path("outputs/train") / f"{now:%Y-%m-%d}/{now:%H-%M-%S}")]\n'
                            '    dist.broadcast_object_list(shared, src=0)\n'
                            '    run_dir = Path(shared[0])'),
    # tricky: the clock names only the log file; the checkpoint directory and tag are fixed
    _RUN_DIR.format(run_dir='    log_name = f"train-{datetime.datetime.now():%H%M%S}.log"\n'
                            '    run_dir = Path("outputs") / args.job_name\n'
                            '    print("logging to", log_name)'),
    # tricky: a single-process script may name its run by the clock
    textwrap.dedent("""
        import time

        from transformers import Trainer, TrainingArguments

        args = TrainingArguments(output_dir=f"runs/{time.strftime('%Y%m%d-%H%M%S')}", per_device_train_batch_size=8)
        Trainer(model=model, args=args, train_dataset=data).train()
    """),
]
