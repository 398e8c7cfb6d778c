"""PF293 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # zjunlp/HVPNeT#5's shape: the third group (CRF and classifier) is built, never appended
    textwrap.dedent("""
    import torch

    parameters = []
    params = {"lr": 3e-5, "weight_decay": 1e-2}
    params["params"] = [p for n, p in model.named_parameters() if "bert" in n]
    parameters.append(params)
    params = {"lr": 5e-2, "weight_decay": 1e-2}  # warning: PF293
    params["params"] = [p for n, p in model.named_parameters() if "crf" in n or n.startswith("fc")]
    optimizer = torch.optim.AdamW(parameters, lr=3e-5)
"""),
    # a group rebound before it was appended, inside a function
    textwrap.dedent("""
    from torch.optim import SGD

    def build(model, lr):
        groups = []
        g = {"params": model.backbone.parameters(), "lr": lr * 0.1}  # warning: PF293
        g = {"params": model.head.parameters(), "lr": lr}
        groups.append(g)
        return SGD(groups, lr=lr, momentum=0.9)
"""),
    # weight-decay groups built, the optimizer given model.parameters()
    textwrap.dedent("""
    from transformers import AdamW

    no_decay = ["bias", "LayerNorm.weight"]
    grouped = [  # warning: PF293
        {"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)],
         "weight_decay": 0.01},
        {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)],
         "weight_decay": 0.0},
    ]
    optimizer = AdamW(model.parameters(), lr=5e-5)
"""),
]

GOOD_EXAMPLES = [
    # the fix: every group appended before the name is reused
    textwrap.dedent("""
    import torch

    parameters = []
    params = {"lr": 3e-5}
    params["params"] = [p for n, p in model.named_parameters() if "bert" in n]
    parameters.append(params)
    params = {"lr": 5e-2}
    params["params"] = [p for n, p in model.named_parameters() if "crf" in n]
    parameters.append(params)
    optimizer = torch.optim.AdamW(parameters, lr=3e-5)
"""),
    # tricky: groups built in a loop and appended on the next line; a group added later; a group
    # derived from the previous one
    textwrap.dedent("""
    import torch

    groups = []
    for name, lr in (("encoder", 1e-5), ("head", 1e-3)):
        g = {"params": getattr(model, name).parameters(), "lr": lr}
        groups.append(g)
    optimizer = torch.optim.Adam(groups)
    extra = {"params": model.adapter.parameters(), "lr": 1e-4}
    if args.adapter:
        optimizer.add_param_group(extra)
    base = {"params": model.parameters(), "lr": 1e-3}
    base = dict(base, weight_decay=0.0)
    torch.optim.SGD([base])
"""),
    # tricky: the group is returned, or bound in both branches and used after them
    textwrap.dedent("""
    import torch

    def head_group(model):
        group = {"params": model.head.parameters(), "lr": 1e-3}
        return group

    if args.freeze:
        g = {"params": model.head.parameters()}
    else:
        g = {"params": model.parameters()}
    opt = torch.optim.AdamW([g, head_group(model)])
"""),
    # tricky: a dict without "params" (optimizer kwargs) rebound unused is no parameter group
    textwrap.dedent("""
    import torch

    kwargs = {"lr": 1e-3, "betas": (0.9, 0.99)}
    kwargs = {"lr": 3e-4}
    optimizer = torch.optim.Adam(model.parameters(), **kwargs)
"""),
]
