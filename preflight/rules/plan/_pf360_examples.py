"""PF360 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_SEG = textwrap.dedent("""
    # --- main.py
    import torch
    from accelerate import Accelerator
    from torch import nn
    from torch.nn import functional as F

    from data import make_loader
    from nets import SegNet

    accelerator = Accelerator(fp16=True)
    model = SegNet(num_classes=21)
    optimizer = torch.optim.SGD(model.parameters(), lr=2e-3, momentum=0.9)
    model, optimizer, loader = accelerator.prepare(model, optimizer, make_loader(8))
    criterion = nn.CrossEntropyLoss(ignore_index=255)
    for epoch in range(30):
        for images, labels in loader:
            logits = model(images){cast}
            logits = F.interpolate(logits, size=labels.shape[-2:], mode="bilinear")
            loss = criterion(logits, labels){pin}
            optimizer.zero_grad()
            accelerator.backward(loss)
            optimizer.step()
    # --- requirements.txt
    accelerate=={version}
    torch==1.6.0
    # --- launch
    accelerate launch main.py
""")

_GLUE = textwrap.dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator

    from glue import eval_loader, make_model, train_loader

    accelerator = Accelerator()
    model = make_model()
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    model, optimizer, train_dl, eval_dl = accelerator.prepare(model, optimizer, train_loader(), eval_loader())


    def evaluate():
        model.eval()
        correct = 0
        for batch in eval_dl:
            with torch.no_grad():
                preds = model(**batch).logits.argmax(-1)
            preds, refs = accelerator.gather_for_metrics((preds, batch["labels"]))
            correct += (preds == refs).sum().item(){reset}
        model.train()
        return correct


    for epoch in range(3):
        seen = 0
        for step, batch in enumerate(train_dl):
            out = model(**batch)
            accelerator.backward(out.loss)
            optimizer.step()
            optimizer.zero_grad()
            preds = accelerator.gather_for_metrics(out.logits.argmax(-1)){pin}
            seen += len(preds)
            {mid}
        {end}
    # --- requirements.txt
    accelerate=={version}
    # --- launch
    accelerate launch --multi_gpu --num_processes 4 train.py
""")

_MID = 'if step % 500 == 0:\n            print(step, evaluate())'

BAD_EXAMPLES = [
    # accelerate issue 101: the segmentation loss computed on the fp16 output on 0.3.0
    _SEG.format(cast="", pin="  # error: PF360", version="0.3.0"),
    # accelerate issue 960: the evaluation run every 500 steps inside the training epoch on 0.15.0
    _GLUE.format(reset="", pin="  # error: PF360", mid=_MID, end="", version="0.15.0"),
]

GOOD_EXAMPLES = [
    # the fixes on the pinned releases: the output cast to float; the gradient state reset after evaluation
    _SEG.format(cast=".float()", pin="", version="0.3.0"),
    _GLUE.format(reset="\n        accelerator.gradient_state.end_of_dataloader = False", pin="", mid=_MID, end="",
                 version="0.15.0"),
    # releases with the fixes: 0.4.0 returns float32 outputs; 0.17.0 tracks the active loaders
    _SEG.format(cast="", pin="", version="0.4.0"),
    _GLUE.format(reset="", pin="", mid=_MID, end="", version="0.17.0"),
    # tricky-correct: the evaluation at the end of each epoch, after the training loader is exhausted
    _GLUE.format(reset="", pin="", mid="", end="print(epoch, evaluate())", version="0.15.0"),
]
