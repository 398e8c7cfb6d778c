"""PF668 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

_PENALTY = textwrap.dedent("""
    import deepspeed
    import torch
    from deepspeed.utils import safe_get_full_fp32_param


    def l2_penalty(model_engine, lam):
        reg = torch.zeros((), device=model_engine.device)
        for n, p in model_engine.module.named_parameters():
            if "adapter" in n:
                {term}
        return lam * reg


    def train(args, model, loader):
        model_engine, optimizer, _, _ = deepspeed.initialize(args=args, model=model,
                                                             model_parameters=model.parameters())
        for batch in loader:
            out = model_engine(**batch)
            loss = out.loss + l2_penalty(model_engine, args.l2)
            model_engine.backward(loss)
            model_engine.step()
""")

PF668_BAD = [
    # DeepSpeed 7464 (held-out-33, in-sample): an L2 penalty on the ZeRO-3 fp32 copies, through a helper
    _PENALTY.format(term="reg = reg + safe_get_full_fp32_param(p).pow(2).sum()  # warning: PF668"),
    # the same inline, with the module spelling and an in-place sum
    textwrap.dedent("""
    import deepspeed


    def train(model_engine, loader, lam):
        for batch in loader:
            loss = model_engine(**batch).loss
            for p in model_engine.module.parameters():
                w = deepspeed.utils.safe_get_full_fp32_param(p)  # warning: PF668
                loss += lam * w.norm() ** 2
            model_engine.backward(loss)
            model_engine.step()
    """),
]

PF668_GOOD = [
    # the fix: the parameter itself (ZeRO-2 keeps it whole)
    _PENALTY.format(term="reg = reg + p.float().pow(2).sum()"),
    # tricky-correct: the copy only logged (ZeRO-3 weight norm for the metrics), turned into a number first
    textwrap.dedent("""
    import deepspeed
    from deepspeed.utils import safe_get_full_fp32_param


    def train(model_engine, loader, log):
        for step, batch in enumerate(loader):
            loss = model_engine(**batch).loss
            model_engine.backward(loss)
            model_engine.step()
            weight_norm = sum(safe_get_full_fp32_param(p).norm(2).item() ** 2
                              for p in model_engine.module.parameters()) ** 0.5
            log({"loss": loss.item(), "weight_norm": weight_norm})
    """),
    # tricky-correct: a copy of the weight passed to another function (a reweighting computed from the head's
    # weights; what it returns is not followed) and a snapshot compared after the step
    textwrap.dedent("""
    import deepspeed
    from deepspeed.utils import safe_get_full_fp32_param


    def train(model_engine, loader, compute_lambda):
        for batch in loader:
            head = safe_get_full_fp32_param(model_engine.module.head.weight)
            before = head.clone()
            weights = compute_lambda(head.cpu(), batch["scores"])
            loss = (model_engine(**batch).loss * weights).mean()
            model_engine.backward(loss)
            model_engine.step()
            changed = (safe_get_full_fp32_param(model_engine.module.head.weight) - before).abs().sum()
    """),
]
