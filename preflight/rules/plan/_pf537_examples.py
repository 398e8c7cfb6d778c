"""PF537 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF537_BAD = [
    # generate on the prepared model in the evaluation of the same function
    textwrap.dedent("""
        # --- train.py
        import torch
        from accelerate import Accelerator

        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for batch in loader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
        model.eval()
        with torch.no_grad():
            out = model.generate(**prompt, max_new_tokens=64)  # error: PF537
        # --- launch
        accelerate launch --multi_gpu --num_processes 4 train.py
        """),
    # accelerate issue 109's shape: the prepared model handed to a validation function
    textwrap.dedent("""
        # --- train.py
        import torch
        from accelerate import Accelerator


        def fit(model, optimizer, loader, val_loader):
            accelerator = Accelerator()
            model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
            for batch in loader:
                accelerator.backward(model(**batch).loss)
                optimizer.step()
                optimizer.zero_grad()
            return validate(model, val_loader)


        def validate(net, val_loader):
            with torch.no_grad():
                return [net.generate(b["input_ids"], num_beams=4) for b in val_loader]  # error: PF537
        # --- launch
        torchrun --nproc_per_node 2 train.py
        """),
]

PF537_GOOD = [
    # the fix: generate through the unwrapped model
    textwrap.dedent("""
        # --- train.py
        import torch
        from accelerate import Accelerator

        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for batch in loader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
        with torch.no_grad():
            out = accelerator.unwrap_model(model).generate(**prompt, max_new_tokens=64)
        # --- launch
        accelerate launch --multi_gpu --num_processes 4 train.py
        """),
    # tricky-correct: a single process is not wrapped
    textwrap.dedent("""
        # --- train.py
        from accelerate import Accelerator

        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for batch in loader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
        out = model.generate(**prompt, max_new_tokens=64)
        # --- launch
        accelerate launch --num_processes 1 train.py
        """),
    # tricky-correct: the DeepSpeed engine forwards generate to the module
    textwrap.dedent("""
        # --- train.py
        from accelerate import Accelerator, DeepSpeedPlugin

        accelerator = Accelerator(deepspeed_plugin=DeepSpeedPlugin(zero_stage=2))
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for batch in loader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
        out = model.generate(**prompt, max_new_tokens=64)
        # --- launch
        accelerate launch --num_processes 8 train.py
        """),
    # tricky-correct: the name is bound again to the unwrapped model first
    textwrap.dedent("""
        # --- train.py
        from accelerate import Accelerator

        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for batch in loader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
        model = accelerator.unwrap_model(model)
        out = model.generate(**prompt, max_new_tokens=64)
        # --- launch
        accelerate launch --multi_gpu --num_processes 2 train.py
        """),
]
