"""PF197 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_TEMPLATE = textwrap.dedent("""
    import argparse
    import os

    import deepspeed
    import torch

    from model import build_model, build_loader

    parser = argparse.ArgumentParser()
    parser.add_argument("--output_dir", default="checkpoints")
    parser.add_argument("--resume_step", type=int, default=0)
    parser.add_argument("--local_rank", type=int, default=-1)
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()

    model = build_model()
    engine, optimizer, loader, _ = deepspeed.initialize(args=args, model=model,
                                                        model_parameters=model.parameters(),
                                                        training_data=build_loader())
    step = 0
    if args.resume_step:
    {resume}
    for batch, target in loader:
        loss = torch.nn.functional.cross_entropy(engine(batch.to(engine.device)), target.to(engine.device))
        engine.backward(loss)
        engine.step()
        step += 1
        if step % 1000 == 0:
            engine.save_checkpoint(args.output_dir{save_args}, client_state={{"step": step}})
""")


def _case(resume: str, save_args: str = "") -> str:
    return _TEMPLATE.replace("{resume}", textwrap.indent(textwrap.dedent(resume).strip("\n"), "    ")) \
        .replace("{save_args}", save_args).replace("{{", "{").replace("}}", "}")


BAD = [
    # transformers issue 22170 / diffusion-pipe issue 73: the tag folder itself passed as load_dir; `latest`
    # lives in its parent, so DeepSpeed warns, returns (None, None) and the run starts from scratch
    _case("""
        engine.load_checkpoint(os.path.join(args.output_dir, f"global_step{args.resume_step}"))  # warning: PF197
        step = args.resume_step
    """),
    # saved with save_latest=False, resumed without a tag: no `latest` file ever exists
    _case("""
        _, client_state = engine.load_checkpoint(args.output_dir)  # warning: PF197
        step = client_state["step"] if client_state else args.resume_step
    """, save_args=", save_latest=False"),
    # held-out-48 (transformers issue 22170): the load path is tested, but only to fall back to epoch 0, so
    # the "resumed" job still trains from its initial weights without a word
    _case("""
        load_path, client_state = engine.load_checkpoint(args.output_dir)  # warning: PF197
        if load_path is not None:
            step = client_state["step"]
    """, save_args=", save_latest=False"),
]

GOOD = [
    # the fix: parent folder plus the tag
    _case("""
        engine.load_checkpoint(args.output_dir, tag=f"global_step{args.resume_step}")
        step = args.resume_step
    """),
    # a plain output folder the default save_checkpoint writes `latest` into
    _case("""
        _, client_state = engine.load_checkpoint(args.output_dir)
        step = client_state["step"]
    """),
    # tricky: the tag folder, but the load path is checked, so a failed load stops the job
    _case("""
        load_path, client_state = engine.load_checkpoint(os.path.join(args.output_dir, f"global_step{args.resume_step}"))
        if load_path is None:
            raise RuntimeError("no checkpoint loaded")
        step = client_state["step"]
    """),
    # tricky: save_latest=False, but every load names its tag positionally
    _case("""
        engine.load_checkpoint(args.output_dir, f"global_step{args.resume_step}")
        step = args.resume_step
    """, save_args=", save_latest=False"),
]

GOOD.extend((
    # tricky: save_latest=False and no tag, but a failed load ends the job with an error instead of a restart
    _case("""
        load_path, client_state = engine.load_checkpoint(args.output_dir)
        if load_path is None:
            sys.exit(f"no checkpoint to resume in {args.output_dir}")
        step = client_state["step"]
    """, save_args=", save_latest=False"),
    # tricky: asserted
    _case("""
        load_path, client_state = engine.load_checkpoint(args.output_dir)
        assert load_path is not None, "nothing to resume"
        step = client_state["step"]
    """, save_args=", save_latest=False"),
    # tricky: a checkpoint FILE named after the step, loaded by a project's own helper in a DeepSpeed file
    _case("""
        state = trainer_utils.load_checkpoint(os.path.join(args.output_dir, f"global_step_{args.resume_step}.pth"))
        step = state["step"]
    """),
    # tricky: an mmcv-style runner's own load_checkpoint in a file that never touches DeepSpeed
    textwrap.dedent("""
    from mmcv.runner import EpochBasedRunner


    def train(model, optimizer, cfg):
        runner = EpochBasedRunner(model, optimizer=optimizer, work_dir=cfg.work_dir)
        runner.load_checkpoint(f"{cfg.work_dir}/global_step_100.pth")
        runner.run(cfg.data_loaders, cfg.workflow)
    """),
))
