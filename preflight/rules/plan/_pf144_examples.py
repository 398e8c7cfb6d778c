"""PF144 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_JOB = textwrap.dedent("""
    # --- train_ema.py
    import torch
    from transformers import AutoModelForCausalLM, Trainer, TrainerCallback, TrainingArguments


    class EMACallback(TrainerCallback):
        def __init__(self, decay=0.999):
            self.decay, self.shadow = decay, None

        def on_train_begin(self, args, state, control, model=None, **kwargs):
            {begin}{mark}

        def on_step_end(self, args, state, control, model=None, **kwargs):
            with torch.no_grad():
                for s, p in zip(self.shadow, model.parameters()):
                    s.mul_(self.decay).add_(p.detach().float(), alpha=1 - self.decay)


    args = TrainingArguments(output_dir="out", deepspeed="ds_config.json", bf16=True)
    model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2-1.5B", torch_dtype=torch.bfloat16)
    Trainer(model=model, args=args, train_dataset=data, callbacks=[EMACallback()]).train()
    # --- ds_config.json
    {{"bf16": {{"enabled": "auto"}}, "zero_optimization": {{"stage": {stage}}}, "train_batch_size": "auto"}}
    # --- launch
    deepspeed --num_gpus 8 train_ema.py
""")

_COPY = "self.shadow = [p.detach().clone().float() for p in model.parameters()]"

PF144_BAD = [
    # DeepSpeed issue 6987: the EMA callback of a Trainer run under ZeRO-3
    _JOB.format(begin=_COPY, mark="  # error: PF144", stage=3),
    # a dict of shadow copies by name
    _JOB.format(begin="self.shadow = {n: p.data.clone() for n, p in model.named_parameters()}",
                mark="  # error: PF144", stage=3),
]

PF144_GOOD = [
    # the fix: ZeRO-2 keeps every parameter whole on every rank
    _JOB.format(begin=_COPY, mark="", stage=2),
    # tricky: the copy is gathered first
    _JOB.format(begin="with deepspeed.zero.GatheredParameters(list(model.parameters())):\n"
                      "                self.shadow = [p.detach().clone().float() for p in model.parameters()]",
                mark="", stage=3),
    # tricky: an EMA of the loss only, no parameter copy
    _JOB.format(begin="self.shadow = [torch.zeros(()) for _ in range(1)]", mark="", stage=3),
]
