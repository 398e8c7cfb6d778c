"""PF179 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # DeepSpeed-Chat's reward-model evaluation: the division inside the evaluation loop
    textwrap.dedent("""
    import torch


    def evaluation_reward(model, eval_dataloader):
        model.eval()
        scores = 0
        for step, batch in enumerate(eval_dataloader):
            with torch.no_grad():
                outputs = model(**batch)
            scores += outputs["chosen_mean_scores"].mean().float()
            if step == 99:
                break
            scores = scores / (step + 1)  # warning: PF179
        model.train()
        return scores
"""),
    # an in-place division over a range loop
    textwrap.dedent("""
    def validate(model, loader, n):
        total_loss = 0.0
        it = iter(loader)
        for i in range(n):
            total_loss += model(next(it)).item()
            total_loss /= (i + 1)  # warning: PF179
        return total_loss
"""),
]

GOOD_EXAMPLES = [
    # the fix: divide once after the loop
    textwrap.dedent("""
    def evaluation_reward(model, eval_dataloader):
        scores = 0
        for step, batch in enumerate(eval_dataloader):
            scores += model(**batch)["chosen_mean_scores"].mean().float()
            if step == 99:
                break
        scores = scores / (step + 1)
        return scores
"""),
    # tricky-correct: a true running mean, a division in the last-iteration branch, a reset accumulator,
    # another name divided
    textwrap.dedent("""
    def stats(loader, n):
        mean = 0.0
        for i, x in enumerate(loader):
            mean += (x - mean) / (i + 1)
        total = 0.0
        for i, x in enumerate(loader):
            total += x
            if i == n - 1:
                total = total / (i + 1)
        window = 0.0
        for i, x in enumerate(loader):
            window += x
            avg = window / (i + 1)
            print(avg)
        chunk = 0.0
        for i, x in enumerate(loader):
            chunk += x
            chunk = chunk / (i + 1)
            report(chunk)
            chunk = 0.0
        return mean, total
"""),
]
