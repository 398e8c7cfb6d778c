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

PF341_BAD = [
    # DeepSpeed PR 667: a tag from each rank's clock
    _ENGINE.format(save='                tag = time.strftime("ckpt-%Y%m%d-%H%M%S")  # error: PF341\n'
                        '                engine.save_checkpoint("checkpoints", tag=tag)'),
    # transformers issue 28270: a per-process uuid in the output directory of 8 DeepSpeed ranks
    _TRAINER.format(draw='output_dir = os.path.join("runs", f"{RUN_NAME}-{uuid.uuid4().hex[:8]}")  # error: PF341'),
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
    # tricky: a single-process script may name its run by the clock
    textwrap.dedent("""
        import time

        from transformers import Trainer, TrainingArguments

        args = TrainingArguments(output_dir=f"runs/{time.strftime('%Y%m%d-%H%M%S')}", per_device_train_batch_size=8)
        Trainer(model=model, args=args, train_dataset=data).train()
    """),
]
