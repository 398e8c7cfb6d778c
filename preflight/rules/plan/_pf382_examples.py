"""PF382 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line, good
ones stay silent."""

from __future__ import annotations

import textwrap

_JOB = textwrap.dedent("""
    # --- requirements.txt
    deepspeed{spec}
    # --- train_mp.py
    import deepspeed
    import torch.distributed as dist

    import mpu
    from mp_model import ParallelGPT, TokenBlocks

    dist.init_process_group(backend="nccl")
    mpu.initialize_model_parallel(2)
    model = ParallelGPT(vocab=50304, hidden=2048, layers=24)
    train_set = TokenBlocks("data/train.bin", seq=1024)
    engine, optimizer, train_loader, _ = deepspeed.initialize(args=args, model=model,{mark}
                                                              model_parameters=model.parameters(),
                                                              training_data=train_set, mpu={mpu})
    for tokens in train_loader:
        loss = engine(tokens[:, :-1].cuda(), tokens[:, 1:].cuda())
        engine.backward(loss)
        engine.step()
""")

BAD_EXAMPLES = [
    # DeepSpeed issue 99: the loader built from training_data ignores the mpu on 0.1.0
    _JOB.format(spec="==0.1.0", mpu="mpu", mark="  # error: PF382"),
]

GOOD_EXAMPLES = [
    # the fixed release (PR 216)
    _JOB.format(spec="==0.2.0", mpu="mpu", mark=""),
    # tricky-correct: no model parallelism on the old release
    _JOB.format(spec="==0.1.0", mpu="None", mark=""),
    # tricky-correct: a lower bound may install a fixed release
    _JOB.format(spec=">=0.1.0", mpu="mpu", mark=""),
]
