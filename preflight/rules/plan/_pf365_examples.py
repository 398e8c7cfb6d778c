"""PF365 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

import textwrap

_JOB = textwrap.dedent("""
    # --- train.py
    import argparse

    import deepspeed
    import torch.nn.functional as F

    p = argparse.ArgumentParser()
    p.add_argument("--local_rank", type=int, default=-1)
    p = deepspeed.add_config_arguments(p)
    args = p.parse_args()
    net = Net()
    engine, optimizer, loader, _ = deepspeed.initialize(args=args, model=net, model_parameters=net.parameters(),
                                                        training_data=trainset)
    for step, (x, y) in enumerate(loader):
        loss = F.cross_entropy(engine(x.to(engine.device)), y.to(engine.device))
        engine.backward(loss)
        if step % 100 == 0:
            for name, p in engine.module.named_parameters():
    {read}
        engine.step()
    # --- run.sh
    deepspeed --num_gpus 4 train.py --deepspeed --deepspeed_config ds_config.json
    # --- ds_config.json
    {{"train_micro_batch_size_per_gpu": 16, "bf16": {{"enabled": true}}, "zero_optimization": {{"stage": {stage}}}}}
""")

_NONE = ('            if p.grad is None:  # warning: PF365\n'
         '                print(f"[warn] {name}: vanishing gradient (no grad)")\n'
         '                continue\n'
         '            print(name, p.grad.norm().item())')

BAD_EXAMPLES = [
    # DeepSpeedExamples issue 318: a per-layer gradient-norm monitor under ZeRO-2 sees no gradients
    _JOB.format(read=_NONE, stage=2),
]

GOOD_EXAMPLES = [
    # the fix: DeepSpeed's accessor for the partitioned gradient
    _JOB.format(read='            g = deepspeed.utils.safe_get_full_grad(p)\n'
                     '            print(name, None if g is None else g.norm().item())', stage=2),
    # tricky: ZeRO stage 1 and stage 0 (the runs this monitor was written for) are not reported
    _JOB.format(read=_NONE.replace("  # warning: PF365", ""), stage=1),
    # tricky: a .grad read before any backward of the loop (a stale-gradient assertion at the top)
    _JOB.format(read="            pass", stage=2).replace(
        "        loss = F.cross_entropy", "        assert all(q.grad is None for q in net.parameters())\n"
        "        loss = F.cross_entropy"),
]
