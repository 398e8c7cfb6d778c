"""PF285 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

# accelerate issue 2951's shape: a per-element clip between accelerator.backward and optimizer.step
_TRAIN = textwrap.dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator


    def train(model, optimizer, loader, epochs):
        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for epoch in range(epochs):
            for batch in loader:
                loss = model(**batch).loss
                accelerator.backward(loss)
    {clip}
                optimizer.step()
                optimizer.zero_grad()
    # --- accelerate_config.yaml
    compute_environment: LOCAL_MACHINE
    distributed_type: {kind}
    {extra}num_machines: 1
    num_processes: 8
    # --- ds_zero2.json
    {{"train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 1, "gradient_clipping": 1.0,
     "zero_optimization": {{"stage": 2}}}}
    # --- launch
    accelerate launch --config_file accelerate_config.yaml train.py
""")
_DS = "deepspeed_config:\n  deepspeed_config_file: ds_zero2.json\n"

BAD_EXAMPLES = [
    _TRAIN.format(clip="            torch.nn.utils.clip_grad_value_(model.parameters(), clip_value=0.5)  "
                       "# warning: PF285", kind="DEEPSPEED", extra=_DS),
    _TRAIN.format(clip="            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)  # warning: PF285",
                  kind="DEEPSPEED", extra=_DS),
]

GOOD_EXAMPLES = [
    # the fix: the config's gradient_clipping, no hand-written clip
    _TRAIN.format(clip="", kind="DEEPSPEED", extra=_DS),
    # tricky-correct: the same clip under plain multi-GPU DDP clips before the update
    _TRAIN.format(clip="            torch.nn.utils.clip_grad_value_(model.parameters(), clip_value=0.5)",
                  kind="MULTI_GPU", extra="").replace(
        '# --- ds_zero2.json\n{"train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 1, '
        '"gradient_clipping": 1.0,\n "zero_optimization": {"stage": 2}}\n', ""),
]
