"""PF473 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # diffusers PR 4929: the ControlNet hook writes on every process, save_state is called by all of them
    textwrap.dedent("""
    import os

    from accelerate import Accelerator


    def main(controlnet, train_dataloader, optimizer, compute_loss, output_dir="out"):
        accelerator = Accelerator(mixed_precision="fp16")

        def save_model_hook(models, weights, output_dir):
            for model in models:
                model.save_pretrained(os.path.join(output_dir, "controlnet"))  # warning: PF473
                weights.pop()

        accelerator.register_save_state_pre_hook(save_model_hook)
        controlnet, optimizer, train_dataloader = accelerator.prepare(controlnet, optimizer, train_dataloader)
        for step, batch in enumerate(train_dataloader):
            accelerator.backward(compute_loss(controlnet, batch))
            optimizer.step()
            optimizer.zero_grad()
            if step % 500 == 0:
                accelerator.save_state(os.path.join(output_dir, f"checkpoint-{step}"))
"""),
    # the diffusers DeepSpeed shape: save_state on the main process OR on every DeepSpeed rank, the
    # hook unguarded (an EMA copy written by torch.save too)
    textwrap.dedent("""
    import os

    import torch
    from accelerate import Accelerator, DistributedType


    def main(unet, ema_unet, loader, optimizer, output_dir):
        accelerator = Accelerator()

        def save_model_hook(models, weights, output_dir):
            torch.save(ema_unet.state_dict(), os.path.join(output_dir, "ema.pt"))  # warning: PF473
            for model in models:
                model.save_pretrained(os.path.join(output_dir, "unet"))  # warning: PF473
                weights.pop()

        accelerator.register_save_state_pre_hook(save_model_hook)
        unet, optimizer, loader = accelerator.prepare(unet, optimizer, loader)
        for step, batch in enumerate(loader):
            accelerator.backward(unet(batch).loss)
            optimizer.step()
            optimizer.zero_grad()
            if accelerator.is_main_process or accelerator.distributed_type == DistributedType.DEEPSPEED:
                accelerator.save_state(os.path.join(output_dir, f"checkpoint-{step}"))
"""),
]

GOOD_EXAMPLES = [
    # the fix of PR 4929: the hook's writes under is_main_process
    textwrap.dedent("""
    import os

    from accelerate import Accelerator


    def main(controlnet, train_dataloader, optimizer, compute_loss, output_dir="out"):
        accelerator = Accelerator(mixed_precision="fp16")

        def save_model_hook(models, weights, output_dir):
            if accelerator.is_main_process:
                for model in models:
                    model.save_pretrained(os.path.join(output_dir, "controlnet"))
                    weights.pop()

        accelerator.register_save_state_pre_hook(save_model_hook)
        controlnet, optimizer, train_dataloader = accelerator.prepare(controlnet, optimizer, train_dataloader)
        for step, batch in enumerate(train_dataloader):
            accelerator.backward(compute_loss(controlnet, batch))
            optimizer.step()
            optimizer.zero_grad()
            if step % 500 == 0:
                accelerator.save_state(os.path.join(output_dir, f"checkpoint-{step}"))
"""),
    # tricky: the hook is unguarded but save_state itself runs on the main process only (the
    # kandinsky/t2i-adapter diffusers scripts): the hook runs on one process
    textwrap.dedent("""
    import os

    from accelerate import Accelerator


    def main(unet, loader, optimizer, output_dir):
        accelerator = Accelerator()

        def save_model_hook(models, weights, output_dir):
            for model in models:
                model.save_pretrained(os.path.join(output_dir, "unet"))
                weights.pop()

        accelerator.register_save_state_pre_hook(save_model_hook)
        unet, optimizer, loader = accelerator.prepare(unet, optimizer, loader)
        for step, batch in enumerate(loader):
            accelerator.backward(unet(batch).loss)
            optimizer.step()
            optimizer.zero_grad()
            if accelerator.is_main_process:
                if step % 500 == 0:
                    accelerator.save_state(os.path.join(output_dir, f"checkpoint-{step}"))
"""),
    # tricky: the hook returns early on the other ranks; another writes through save_pretrained's
    # own is_main_process switch
    textwrap.dedent("""
    import os

    from accelerate import Accelerator


    def main(unet, text_encoder, loader, optimizer, output_dir):
        accelerator = Accelerator()

        def save_model_hook(models, weights, output_dir):
            if not accelerator.is_main_process:
                return
            for model in models:
                model.save_pretrained(os.path.join(output_dir, "unet"))
                weights.pop()

        def save_text_encoder(models, weights, output_dir):
            text_encoder.save_pretrained(os.path.join(output_dir, "te"), is_main_process=accelerator.is_main_process)

        accelerator.register_save_state_pre_hook(save_model_hook)
        accelerator.register_save_state_pre_hook(save_text_encoder)
        unet, optimizer, loader = accelerator.prepare(unet, optimizer, loader)
        for step, batch in enumerate(loader):
            accelerator.backward(unet(batch).loss)
            optimizer.step()
            optimizer.zero_grad()
            accelerator.save_state(os.path.join(output_dir, f"checkpoint-{step}"))
"""),
    # a hook that only records state (no file written by it)
    textwrap.dedent("""
    from accelerate import Accelerator


    def main(model, loader, optimizer, output_dir):
        accelerator = Accelerator()
        saved = []

        def remember(models, weights, output_dir):
            saved.append(output_dir)

        accelerator.register_save_state_pre_hook(remember)
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for batch in loader:
            accelerator.backward(model(batch).loss)
            optimizer.step()
            optimizer.zero_grad()
        accelerator.save_state(output_dir)
"""),
]
