"""PF1112 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_LAUNCH = """\
# --- launch
accelerate launch --multi_gpu --num_processes {n} train.py
"""

_SCRIPT = textwrap.dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator


    def main(model, optimizer, loader, path):
        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for tokens, labels in loader:
            loss = torch.nn.functional.cross_entropy(model(tokens), labels)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        accelerator.wait_for_everyone()
        unwrapped = accelerator.unwrap_model(model)
    {save}


    if __name__ == "__main__":
        main(None, None, None, "ckpt/model.pt")
""")

PF1112_BAD = [
    # accelerate issue 2209: torch.save after wait_for_everyone, on both processes
    _SCRIPT.format(save="    torch.save(unwrapped.state_dict(), path)  # warning: PF1112") + _LAUNCH.format(n=2),
    # a helper called from the training loop on every process
    textwrap.dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator


    def checkpoint(model, step):
        torch.save(model.state_dict(), f"ckpt/step{step}.pt")


    def train(model, optimizer, loader):
        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for step, batch in enumerate(loader):
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
            if step % 1000 == 0:
                checkpoint(accelerator.unwrap_model(model), step)  # warning: PF1112
    """) + _LAUNCH.format(n=4),
]

PF1112_GOOD = [
    # the fix: accelerator.save writes from the main process only
    _SCRIPT.format(save="    accelerator.save(unwrapped.state_dict(), path)") + _LAUNCH.format(n=2),
    # the fix: under the main-process test
    _SCRIPT.format(save="    if accelerator.is_main_process:\n        torch.save(unwrapped.state_dict(), path)")
    + _LAUNCH.format(n=2),
    # tricky-correct: one process (plain `accelerate launch` without a multi-process config)
    _SCRIPT.format(save="    torch.save(unwrapped.state_dict(), path)") + _LAUNCH.format(n=1),
    # tricky-correct: one file per process (the path names the process index)
    _SCRIPT.format(save="    torch.save(unwrapped.state_dict(), f\"{path}.rank{accelerator.process_index}\")")
    + _LAUNCH.format(n=2),
    # tricky-correct: an early return on every process but the main one
    _SCRIPT.format(save="    if not accelerator.is_main_process:\n        return\n"
                        "    torch.save(unwrapped.state_dict(), path)") + _LAUNCH.format(n=2),
]
