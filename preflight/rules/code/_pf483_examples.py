"""PF483 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_TEMPLATE = textwrap.dedent("""
    import torch
    from torch import nn, optim


    def main(args, model, loader):
    {early}    optimizer = optim.Adam(model.parameters(), lr=args.lr)
        step = 0
        if args.checkpoint_path is not None:
            checkpoint = torch.load(args.checkpoint_path)
            model.load_state_dict(checkpoint["state_dict"])
            optimizer.load_state_dict(checkpoint["optimizer"])
            step = checkpoint["global_step"]
    {extra}{late}    for x, y in loader:
            optimizer.zero_grad()
            nn.functional.l1_loss(model(x.cuda()), y.cuda()).backward()
            optimizer.step()
""")


def _case(early: str = "", late: str = "", extra: str = "") -> str:
    return _TEMPLATE.format(early=early, late=late, extra=extra)


BAD_EXAMPLES = [
    # tacotron_pytorch issue 18
    _case(late="    model = model.cuda()  # warning: PF483\n"),
    _case(late='    model.to("cuda")  # warning: PF483\n'),
]

GOOD_EXAMPLES = [
    # the fix: the model first
    _case(early="    model = model.cuda()\n"),
    # tricky: the optimizer state moved by hand after the model
    _case(late="    model = model.cuda()\n", extra="    for state in optimizer.state.values():\n"
                                                 "        for k, v in state.items():\n"
                                                 "            if torch.is_tensor(v):\n"
                                                 "                state[k] = v.cuda()\n"),
    # tricky: a dtype-only cast is no move
    _case(early="    model = model.cuda()\n", late="    model.to(dtype=torch.float32)\n"),
]
