"""PF100 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # diffusers issue 2466 / 3802: the example scripts passed --checkpoints_total_limit to ProjectConfiguration
    # and saved to checkpoint-{global_step}: every checkpoint was kept
    textwrap.dedent("""
    import os

    from accelerate import Accelerator
    from accelerate.utils import ProjectConfiguration


    def main(args, unet, optimizer, loader):
        config = ProjectConfiguration(total_limit=args.checkpoints_total_limit)  # warning: PF100
        accelerator = Accelerator(project_dir=args.output_dir, project_config=config)
        unet, optimizer, loader = accelerator.prepare(unet, optimizer, loader)
        global_step = 0
        for batch in loader:
            loss = unet(batch).mean()
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
            global_step += 1
            if global_step % args.checkpointing_steps == 0 and accelerator.is_main_process:
                accelerator.save_state(os.path.join(args.output_dir, f"checkpoint-{global_step}"))
"""),
    # a literal limit inline in the Accelerator call, saved with output_dir=
    textwrap.dedent("""
    from accelerate import Accelerator
    from accelerate.utils import ProjectConfiguration

    accelerator = Accelerator(
        project_dir="runs/exp1",
        project_config=ProjectConfiguration(project_dir="runs/exp1", total_limit=20),  # warning: PF100
    )


    def save(step):
        accelerator.save_state(output_dir=f"runs/exp1/step_{step}")
"""),
]

GOOD_EXAMPLES = [
    # the fix of diffusers issue 2466: automatic naming on, save_state() without a path
    textwrap.dedent("""
    from accelerate import Accelerator
    from accelerate.utils import ProjectConfiguration


    def main(args, unet, optimizer, loader):
        config = ProjectConfiguration(total_limit=args.checkpoints_total_limit, automatic_checkpoint_naming=True)
        accelerator = Accelerator(project_dir=args.output_dir, project_config=config)
        unet, optimizer, loader = accelerator.prepare(unet, optimizer, loader)
        for step, batch in enumerate(loader):
            accelerator.backward(unet(batch).mean())
            optimizer.step()
            optimizer.zero_grad()
            if step % args.checkpointing_steps == 0:
                accelerator.save_state()
"""),
    # tricky: the diffusers examples after issue 3802 keep total_limit in the config and prune by hand
    textwrap.dedent("""
    import os
    import shutil

    from accelerate import Accelerator
    from accelerate.utils import ProjectConfiguration


    def main(args, unet, optimizer, loader):
        config = ProjectConfiguration(project_dir=args.output_dir, total_limit=args.checkpoints_total_limit)
        accelerator = Accelerator(project_config=config)
        for global_step, batch in enumerate(loader):
            if global_step % args.checkpointing_steps == 0 and accelerator.is_main_process:
                if args.checkpoints_total_limit is not None:
                    checkpoints = sorted(d for d in os.listdir(args.output_dir) if d.startswith("checkpoint"))
                    for old in checkpoints[: max(0, len(checkpoints) - args.checkpoints_total_limit + 1)]:
                        shutil.rmtree(os.path.join(args.output_dir, old))
                accelerator.save_state(os.path.join(args.output_dir, f"checkpoint-{global_step}"))
"""),
    # tricky: automatic naming switched on through the attribute after the Accelerator is built
    textwrap.dedent("""
    from accelerate import Accelerator
    from accelerate.utils import ProjectConfiguration

    accelerator = Accelerator(project_dir="out", project_config=ProjectConfiguration(total_limit=3))
    accelerator.project_configuration.automatic_checkpoint_naming = True


    def save():
        accelerator.save_state()
"""),
    # tricky: a limit with no explicit save path anywhere (the state is only loaded here)
    textwrap.dedent("""
    from accelerate import Accelerator
    from accelerate.utils import ProjectConfiguration

    accelerator = Accelerator(project_config=ProjectConfiguration(project_dir="out", total_limit=None))
    accelerator.save_state("out/final")
    accelerator.load_state("out/final")
"""),
]
