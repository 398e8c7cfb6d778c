"""PF153 examples: small projects (``# --- <path>`` sections); bad ones must fire at the marked line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import os
    import shutil

    import torch
    from accelerate import Accelerator

    from model import EMA, build_loader, build_model


    def main(resume=None, start_epoch=0, epochs=10):
        accelerator = Accelerator()
        model = build_model()
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
        model, optimizer, loader = accelerator.prepare(model, optimizer, build_loader(32))
        ema = EMA(accelerator.unwrap_model(model))
        accelerator.register_for_checkpointing(ema)
        state_dir = "checkpoints/state"
        if resume:
            accelerator.load_state(resume)
        for epoch in range(start_epoch, epochs):
            for batch in loader:
                accelerator.backward(model(**batch).loss)
                optimizer.step()
                optimizer.zero_grad()
                ema.update(model)
            accelerator.save_state(state_dir)
            if accelerator.is_main_process:
                {backup}


    if __name__ == "__main__":
        main()
    """)

_REQ = """\
# --- requirements.txt
accelerate==0.20.0
torch==2.0.1
"""

_COPY = ('shutil.copy(os.path.join(state_dir, "custom_checkpoint_0.pkl"), '
         'os.path.join(state_dir, "custom_checkpoint_0.pkl.bak"))  # warning: PF153')

BAD = [
    # accelerate issue 1563: a backup of the registered object's file beside it
    _TRAIN.format(backup=_COPY) + _REQ,
    # a torch.save of a second copy under an f-string path into the same folder, accelerate 0.15
    _TRAIN.format(backup='torch.save(ema.state_dict(), f"{state_dir}/custom_checkpoint_ema_prev.pt")'
                         '  # warning: PF153') + _REQ.replace("0.20.0", "0.15.0"),
]

GOOD = [
    # the backup kept in another folder
    _TRAIN.format(backup='shutil.copy(os.path.join(state_dir, "custom_checkpoint_0.pkl"), '
                         'os.path.join("checkpoints/backup", "custom_checkpoint_0.pkl.bak"))') + _REQ,
    # the backup under a name without custom_checkpoint
    _TRAIN.format(backup='shutil.copy(os.path.join(state_dir, "custom_checkpoint_0.pkl"), '
                         'os.path.join(state_dir, "ema_previous.pkl"))') + _REQ,
    # accelerate 0.21 counts only custom_checkpoint_<i>.pkl
    _TRAIN.format(backup=_COPY.replace("  # warning: PF153", "")) + _REQ.replace("0.20.0", "0.21.0"),
    # tricky: reading accelerate's own file from the state folder (and copying it out) writes nothing there
    _TRAIN.format(backup='state = torch.load(os.path.join(state_dir, "custom_checkpoint_0.pkl"))\n'
                         '            shutil.copy(os.path.join(state_dir, "custom_checkpoint_0.pkl"), "ema_latest.pkl")')
    + _REQ,
    # tricky: accelerate's own name written by hand (a converter recreating the state folder) keeps the count
    _TRAIN.format(backup='torch.save(ema.state_dict(), os.path.join(state_dir, "custom_checkpoint_0.pkl"))') + _REQ,
    # accelerate not pinned: the release is unknown
    _TRAIN.format(backup=_COPY.replace("  # warning: PF153", "")) + _REQ.replace("==0.20.0", ">=0.18"),
]
