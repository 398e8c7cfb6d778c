"""PF329 examples (executable documentation, see tests/test_rules_meta.py)."""

from __future__ import annotations

from textwrap import dedent

# TRL issue 7010's shape: a reward model's pairwise accuracy averaged per rank, then gathered
_EVAL = dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()


    def evaluate(model, eval_dl):
        model, eval_dl = accelerator.prepare(model, eval_dl)
        values = []
        for batch in eval_dl:
            with torch.no_grad():
                chosen, rejected = model(batch)
            {body}
        return values
    """)

BAD = [
    _EVAL.format(body="accuracy = (chosen > rejected).float().mean()\n"
                      "        values.append(accelerator.gather_for_metrics(accuracy))  # warning: PF329"),
    _EVAL.format(body="values.append(accelerator.gather_for_metrics((chosen > rejected).sum()))  # warning: PF329"),
    _EVAL.format(body="margin = torch.mean(chosen - rejected)\n"
                      "        values.append(accelerator.gather_for_metrics(margin).mean().item())"
                      "  # warning: PF329"),
    _EVAL.format(body="accuracy = (chosen > rejected).sum() / torch.numel(chosen)\n"
                      "        values.append(accelerator.gather_for_metrics(accuracy))  # warning: PF329"),
    # accelerate issue 1674: per-batch counts gathered together as a tuple
    _EVAL.format(body="hits = (chosen > rejected).sum()\n"
                      "        count = torch.tensor(chosen.numel(), device=chosen.device)\n"
                      "        hits, count = accelerator.gather_for_metrics((hits, count))  # warning: PF329\n"
                      "        values.append(hits.sum() / count.sum())"),
    _EVAL.format(body="values.append(accelerator.gather_for_metrics([chosen, torch.tensor(len(chosen))]))"
                      "  # warning: PF329"),
]

GOOD = [
    # the fix: per-example values gathered, reduced afterwards
    _EVAL.format(body="per_example = (chosen > rejected).float()\n"
                      "        values.append(accelerator.gather_for_metrics(per_example))"),
    # tricky-correct: a reduction that keeps the batch dimension; the mean taken after gathering
    _EVAL.format(body="per_example = (chosen - rejected).mean(dim=-1)\n"
                      "        values.append(accelerator.gather_for_metrics(per_example))"),
    _EVAL.format(body="values.append(accelerator.gather_for_metrics(chosen > rejected).float().mean())"),
    # a loss repeated per sample (the transformers no_trainer examples), a model output of unknown shape
    _EVAL.format(body="loss = (chosen - rejected).mean()\n"
                      "        values.append(accelerator.gather_for_metrics(loss.repeat(len(chosen))))"),
    _EVAL.format(body="values.append(accelerator.gather_for_metrics(chosen.loss))"),
    # a per-example value scaled by a count keeps its batch dimension
    _EVAL.format(body="scores = (chosen - rejected) / len(chosen)\n"
                      "        values.append(accelerator.gather_for_metrics(scores))"),
    # the fix of accelerate issue 1674: per-sample flags in the tuple, counted after gathering
    _EVAL.format(body="flags, margins = accelerator.gather_for_metrics((chosen > rejected, chosen - rejected))\n"
                      "        values.append(flags.sum() / flags.numel())"),
    # tricky-correct: a tensor built from a per-sample list keeps its batch dimension
    _EVAL.format(body="lengths = torch.tensor([len(c) for c in chosen])\n"
                      "        values.append(accelerator.gather_for_metrics((lengths, chosen)))"),
]
