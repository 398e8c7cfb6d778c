"""PF493 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # torch-points3d PR 630: the optimizer state restored, then the LambdaLR built
    textwrap.dedent("""
    import torch


    def build_training(model, base_lr, resume=None):
        optimizer = torch.optim.Adam(model.parameters(), lr=base_lr)
        checkpoint = None
        if resume:
            checkpoint = torch.load(resume, map_location="cpu")
            model.load_state_dict(checkpoint["model"])
            optimizer.load_state_dict(checkpoint["optimizer"])
        scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda e: 0.7 ** (e // 10))  # warning: PF493
        if checkpoint is not None:
            scheduler.load_state_dict(checkpoint["scheduler"])
        return optimizer, scheduler
"""),
    # a transformers schedule built after the restore
    textwrap.dedent("""
    import torch
    from transformers import get_linear_schedule_with_warmup


    def setup(model, ckpt):
        opt = torch.optim.AdamW(model.parameters(), lr=3e-5)
        opt.load_state_dict(torch.load(ckpt)["optimizer"])
        sched = get_linear_schedule_with_warmup(opt, 500, 100000)  # warning: PF493
        return opt, sched
"""),
]

GOOD_EXAMPLES = [
    # the fix: the scheduler first, then both states
    textwrap.dedent("""
    import torch


    def build_training(model, base_lr, resume=None):
        optimizer = torch.optim.Adam(model.parameters(), lr=base_lr)
        scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda e: 0.7 ** (e // 10))
        if resume:
            checkpoint = torch.load(resume, map_location="cpu")
            model.load_state_dict(checkpoint["model"])
            optimizer.load_state_dict(checkpoint["optimizer"])
            scheduler.load_state_dict(checkpoint["scheduler"])
        return optimizer, scheduler
"""),
    # tricky: last_epoch resumes the schedule
    textwrap.dedent("""
    import torch


    def build(model, ckpt):
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        state = torch.load(ckpt)
        opt.load_state_dict(state["optimizer"])
        sched = torch.optim.lr_scheduler.StepLR(opt, step_size=30, last_epoch=state["epoch"])
        return opt, sched
"""),
    # tricky: ReduceLROnPlateau does not write the learning rate when built
    textwrap.dedent("""
    import torch


    def build(model, ckpt):
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        opt.load_state_dict(torch.load(ckpt)["optimizer"])
        sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=3)
        return opt, sched
"""),
    # tricky: the optimizer state loaded again after the scheduler is built
    textwrap.dedent("""
    import torch


    def build(model, ckpt):
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        state = torch.load(ckpt)
        opt.load_state_dict(state["optimizer"])
        sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=100)
        opt.load_state_dict(state["optimizer"])
        sched.load_state_dict(state["scheduler"])
        return opt, sched
"""),
    # tricky: a new optimizer built after the load (DeepSpeedExamples' vit_finetuning)
    textwrap.dedent("""
    import torch


    def build(model, ckpt):
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        optimizer.load_state_dict(torch.load(ckpt)["optimizer"])
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        sched = torch.optim.lr_scheduler.StepLR(optimizer, step_size=30)
        return optimizer, sched
"""),
    # tricky: restore in one branch, fresh scheduler in the other
    textwrap.dedent("""
    import torch


    def build(model, ckpt=None):
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        if ckpt:
            opt.load_state_dict(torch.load(ckpt)["optimizer"])
        else:
            sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=100)
            return opt, sched
        return opt, None
"""),
]
