"""PF455 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF455_BAD = [
    # transformers issue 31532: evaluation (gather_for_metrics) gated on the main process's bar
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from tqdm.auto import tqdm


    def evaluate_model(model, loader, accelerator, metric):
        for batch in loader:
            with torch.no_grad():
                preds = model(**batch).logits.argmax(-1)
            metric.add_batch(*accelerator.gather_for_metrics((preds, batch["labels"])))
        return metric.compute()


    accelerator = Accelerator()
    progress_bar = tqdm(range(num_steps), disable=not accelerator.is_main_process)
    for batch in train_dataloader:
        accelerator.backward(model(**batch).loss)
        optimizer.step()
        optimizer.zero_grad()
        progress_bar.update(1)
        if progress_bar.n % eval_steps == 0:  # error: PF455
            print(evaluate_model(model, eval_dataloader, accelerator, metric))
"""),
]

PF455_GOOD = [
    # the fix: a counter every process updates
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from tqdm.auto import tqdm


    def evaluate_model(model, loader, accelerator, metric):
        for batch in loader:
            with torch.no_grad():
                preds = model(**batch).logits.argmax(-1)
            metric.add_batch(*accelerator.gather_for_metrics((preds, batch["labels"])))
        return metric.compute()


    accelerator = Accelerator()
    progress_bar = tqdm(range(num_steps), disable=not accelerator.is_main_process)
    completed_steps = 0
    for batch in train_dataloader:
        accelerator.backward(model(**batch).loss)
        optimizer.step()
        optimizer.zero_grad()
        progress_bar.update(1)
        completed_steps += 1
        if completed_steps % eval_steps == 0:
            print(evaluate_model(model, eval_dataloader, accelerator, metric))
"""),
    # a bar gate around main-process logging only
    textwrap.dedent("""
    from accelerate import Accelerator
    from tqdm import tqdm

    accelerator = Accelerator()
    bar = tqdm(total=steps, disable=not accelerator.is_local_main_process)
    for batch in loader:
        bar.update(1)
        if bar.n % 100 == 0:
            bar.set_postfix(loss=loss.item())
"""),
]
