"""PF481 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_TEMPLATE = textwrap.dedent("""
    import deepspeed
    import torch
    from transformers import get_cosine_schedule_with_warmup


    def main(args, model, loader):
        optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
        scheduler = get_cosine_schedule_with_warmup(optimizer, num_warmup_steps=1000, num_training_steps=30000)
        engine, optimizer, _, _ = deepspeed.initialize(args=args, model=model, optimizer=optimizer{extra}){pin}
        step = 0
        if args.resume:
            _, client_state = engine.load_checkpoint(args.resume)
            step = client_state["step"]
    {restore}    for batch in loader:
            engine.backward(engine(**batch).loss)
            engine.step()
            scheduler.step()
            step += 1
            if step % 1000 == 0:
                engine.save_checkpoint("ckpt", client_state={{"step": step{saved}}})
""")


def _case(extra: str = "", pin: str = "", restore: str = "", saved: str = "") -> str:
    return _TEMPLATE.format(extra=extra, pin=pin, restore=restore, saved=saved)


BAD_EXAMPLES = [
    # DeepSpeed issue 3875
    _case(pin="  # warning: PF481"),
]

GOOD_EXAMPLES = [
    # the fix: the engine owns the scheduler
    _case(extra=", lr_scheduler=scheduler"),
    # tricky: the scheduler's state travels in client_state
    _case(saved=', "scheduler": scheduler.state_dict()',
          restore='    if args.resume:\n        scheduler.load_state_dict(client_state["scheduler"])\n'),
    # tricky: no resume, nothing to restore
    _case().replace('        _, client_state = engine.load_checkpoint(args.resume)\n', '        client_state = {}\n'),
]
