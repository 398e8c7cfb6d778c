"""PF414 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF414_BAD = [
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, loader = accelerator.prepare(model, loader)
    model.eval()
    preds, labels = [], []
    for x, y in loader:
        with torch.no_grad():
            p = model(x).argmax(-1)
        preds.append(accelerator.gather(p))  # warning: PF414
        labels.append(accelerator.gather(y))  # warning: PF414
"""),
]

PF414_BAD.append(
    # a slice that keeps the first k predictions is not the last-batch truncation
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    preds = []
    for batch in eval_dataloader:
        with torch.no_grad():
            logits = model(**batch).logits
        preds.append(accelerator.gather(logits.argmax(-1)))  # warning: PF414
    preds = torch.cat(preds)
    shown = preds[: len(examples_to_show)]
"""))

# accelerate issue 684: per-image detection dicts collected with gather_object from a prepared loader
PF414_BAD.append(textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from accelerate.utils import gather_object

    accelerator = Accelerator()
    model, loader = accelerator.prepare(model, loader)
    model.eval()
    preds = []
    for images, targets in loader:
        with torch.no_grad():
            out = model(images)
        preds.extend(gather_object([{k: v.cpu() for k, v in o.items()} for o in out]))  # warning: PF414
"""))

PF414_GOOD = [
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, loader = accelerator.prepare(model, loader)
    for x, y in loader:
        with torch.no_grad():
            p = model(x).argmax(-1)
        p, y = accelerator.gather_for_metrics((p, y))
        metric.add_batch(predictions=p, references=y)
"""),
    # the manual truncation of the last batch (the recipe before gather_for_metrics)
    textwrap.dedent("""
    from accelerate import Accelerator

    accelerator = Accelerator()
    samples_seen = 0
    for step, batch in enumerate(eval_dataloader):
        preds, refs = accelerator.gather((model(**batch).logits.argmax(-1), batch["labels"]))
        if step == len(eval_dataloader) - 1:
            preds = preds[: len(eval_dataloader.dataset) - samples_seen]
            refs = refs[: len(eval_dataloader.dataset) - samples_seen]
        else:
            samples_seen += refs.shape[0]
        metric.add_batch(predictions=preds, references=refs)
"""),
    # the gathered losses truncated to the evaluation set's length after the loop (the
    # run_mlm_no_trainer recipe of transformers 4.9: `losses[: len(eval_dataset)]`)
    textwrap.dedent("""
    import math
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    model.eval()
    losses = []
    for step, batch in enumerate(eval_dataloader):
        with torch.no_grad():
            loss = model(**batch).loss
        losses.append(accelerator.gather(loss.repeat(per_device_eval_batch_size)))
    losses = torch.cat(losses)
    losses = losses[: len(eval_dataset)]
    perplexity = math.exp(torch.mean(losses))
"""),
    # gather in the training loop (a logged loss), not an evaluation
    textwrap.dedent("""
    from accelerate import Accelerator

    accelerator = Accelerator()
    for batch in loader:
        loss = model(**batch).loss
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
        logged = accelerator.gather(loss.detach()).mean()
"""),
    # the fix for objects, and gather_object of prompts split across processes (no padded loader)
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from accelerate.utils import gather_object

    accelerator = Accelerator()
    model, loader = accelerator.prepare(model, loader)
    preds = []
    for images, targets in loader:
        with torch.no_grad():
            out = model(images)
        preds.extend(accelerator.gather_for_metrics([o for o in out], use_gather_object=True))
    texts = []
    with accelerator.split_between_processes(prompts) as mine:
        for prompt in mine:
            texts.append(generate(prompt))
    for chunk in [texts]:
        everything = gather_object(chunk)
"""),
    # tricky-correct, after StyleTTS2's validation loop: the lengths of every process gathered to crop
    # all of them to the shortest (a repeated sample changes no minimum); the metric itself uses
    # gather_for_metrics
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, val_loader = accelerator.prepare(model, val_loader)
    total = 0.0
    with torch.no_grad():
        for mels, lengths in val_loader:
            all_lengths = accelerator.gather(lengths)
            crop = min(int(all_lengths.min().item()), 400)
            loss = model(mels[..., :crop])
            total += accelerator.gather_for_metrics(loss).mean().item()
"""),
]
