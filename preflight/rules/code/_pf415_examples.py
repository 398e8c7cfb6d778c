"""PF415 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF415_BAD = [
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    train(model, optimizer, loader)
    accelerator.wait_for_everyone()
    torch.save(model.state_dict(), "model.pt")  # warning: PF415
    model.save_pretrained("out")  # warning: PF415
"""),
    # a save helper handed the prepared model (a shape found by searching public training
    # code: `def save_model(save_name, model, accelerator, mode="last")` + `accelerator.save(model.state_dict(), ...)`)
    textwrap.dedent("""
    import os
    from accelerate import Accelerator


    def save_model(save_name, model, accelerator, mode="last"):
        path = os.path.join(os.environ["CHECKPOINT_DIR"], save_name, f"{mode}.pth")
        accelerator.save(model.state_dict(), path)  # warning: PF415


    def train(accelerator, model, optimizer, loader):
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for batch in loader:
            accelerator.backward(model(batch))
            optimizer.step()
            optimizer.zero_grad()
        save_model("run", model, accelerator)
"""),
]

PF415_GOOD = [
    textwrap.dedent("""
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    train(model, optimizer, loader)
    unwrapped = accelerator.unwrap_model(model)
    unwrapped.save_pretrained("out", state_dict=accelerator.get_state_dict(model))
    accelerator.save(unwrapped.state_dict(), "model.pt")
"""),
    # FSDP2 keeps the class and every rank's save_pretrained gathers the shards (shape of
    # huggingface/accelerate examples/torch_native_parallelism/nd_parallel.py:94-158 at
    # 16cb6eb80dd9aa8b4df1a63ef57863e455d53b83)
    textwrap.dedent("""
    from accelerate import Accelerator
    from accelerate.utils import FullyShardedDataParallelPlugin

    plugin = FullyShardedDataParallelPlugin(fsdp_version=2, auto_wrap_policy="transformer_based_wrap")
    accelerator = Accelerator(mixed_precision="bf16", fsdp_plugin=plugin)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    train(model, optimizer, loader)
    model.save_pretrained("out/model")
"""),
    # the helper is handed the unwrapped model
    textwrap.dedent("""
    import os
    from accelerate import Accelerator


    def save_model(save_name, model, accelerator):
        accelerator.save(model.state_dict(), os.path.join("ckpt", save_name))


    def train(accelerator, model, optimizer, loader):
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for batch in loader:
            accelerator.backward(model(batch))
            optimizer.step()
            optimizer.zero_grad()
        save_model("run", accelerator.unwrap_model(model), accelerator)
"""),
    # the name is re-bound to the unwrapped model before it is saved
    textwrap.dedent("""
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, optimizer = accelerator.prepare(model, optimizer)
    train(model, optimizer)
    model = accelerator.unwrap_model(model)
    model.save_pretrained("out")
"""),
    # tricky: the prepared optimizer's state saved beside the unwrapped model's weights (a checkpoint
    # folder written by hand instead of accelerator.save_state)
    textwrap.dedent("""
    import os

    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=4)
    dit, optimizer, loader, lr_scheduler = accelerator.prepare(dit, optimizer, loader, lr_scheduler)
    for step, batch in enumerate(loader):
        with accelerator.accumulate(dit):
            loss = dit(**batch).loss
            accelerator.backward(loss)
            optimizer.step()
            lr_scheduler.step()
            optimizer.zero_grad()
        if accelerator.is_main_process and step % 1000 == 0:
            path = os.path.join("out", f"checkpoint-{step}")
            os.makedirs(path, exist_ok=True)
            torch.save(accelerator.unwrap_model(dit).state_dict(), os.path.join(path, "dit.bin"))
            torch.save(optimizer.state_dict(), os.path.join(path, "optimizer.bin"))
"""),
]
