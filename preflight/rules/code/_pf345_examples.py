"""PF345 examples: executable documentation (bad ones must fire, good ones stay silent)."""

from __future__ import annotations

import textwrap

_EVAL = textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()


    def token_accuracy(model, eval_dl):
        correct = total = 0
        for batch in eval_dl:
            with torch.no_grad():
                preds = model(**batch).logits.argmax(dim=-1)
            labels = batch["labels"]
    {pad}
            preds, labels = accelerator.gather_for_metrics((preds, labels))
            keep = labels != -100
            correct += (preds[keep] == labels[keep]).sum().item()
            total += keep.sum().item()
        return correct / total
""")

PF345_BAD = [
    # accelerate issue 235: labels padded with 0 (the "O" tag) survive the -100 mask
    _EVAL.format(pad="        preds = accelerator.pad_across_processes(preds, dim=1)\n"
                     "        labels = accelerator.pad_across_processes(labels, dim=1)  # warning: PF345"),
]

PF345_GOOD = [
    # the fix
    _EVAL.format(pad="        preds = accelerator.pad_across_processes(preds, dim=1, pad_index=-100)\n"
                     "        labels = accelerator.pad_across_processes(labels, dim=1, pad_index=-100)"),
    # tricky: only the predictions padded with 0; the mask tests the labels, padded with -100
    _EVAL.format(pad="        preds = accelerator.pad_across_processes(preds, dim=1)\n"
                     "        labels = accelerator.pad_across_processes(labels, dim=1, pad_index=-100)"),
]
