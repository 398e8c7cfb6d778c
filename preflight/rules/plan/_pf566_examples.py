"""PF566 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_EVAL = textwrap.dedent("""
    # --- run_mlm_no_trainer.py
    import math

    import torch
    from accelerate import Accelerator


    def evaluate(accelerator, model, eval_dataloader, eval_dataset, batch_size):
        model.eval()
        losses = []
        for step, batch in enumerate(eval_dataloader):
            with torch.no_grad():
                outputs = model(**batch)
            loss = outputs.loss
            losses.append({gather}){pin}
        losses = torch.cat(losses)[: len(eval_dataset)]
        return math.exp(torch.mean(losses))
""")

PF566_BAD = [
    # transformers issue 13247: the 0-d eval loss gathered with accelerate 0.4.0
    _EVAL.format(gather="accelerator.gather(loss)", pin="  # error: PF566") + """\
# --- requirements.txt
accelerate==0.4.0
""",
    _EVAL.format(gather="accelerator.gather(outputs.loss)", pin="  # error: PF566") + """\
# --- requirements.txt
accelerate==0.3.0
""",
]

PF566_GOOD = [
    # the fix: one copy per sample
    _EVAL.format(gather="accelerator.gather(loss.repeat(batch_size))", pin="") + """\
# --- requirements.txt
accelerate==0.4.0
""",
    # tricky-correct: the same 0-d gather on a release that adds the dimension itself
    _EVAL.format(gather="accelerator.gather(loss)", pin="") + """\
# --- requirements.txt
accelerate==0.5.1
""",
    # not pinned: current releases handle 0-d tensors
    _EVAL.format(gather="accelerator.gather(loss)", pin=""),
]
