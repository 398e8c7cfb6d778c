"""PF124 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF124_BAD = [
    # facebookresearch/BalancingGroups#6 shape: the filtered lists bound first, the groups swapped
    textwrap.dedent("""
    import torch
    from transformers import BertForSequenceClassification


    def bert_and_optimizer(n_classes, lr=1e-5, weight_decay=1e-4):
        model = BertForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=n_classes)
        no_decay = ["bias", "LayerNorm.weight"]
        decay_params = [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)]  # warning: PF124
        other_params = [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)]
        optimizer = torch.optim.AdamW(
            [
                {"params": decay_params, "weight_decay": weight_decay},
                {"params": other_params, "weight_decay": 0.0},
            ],
            lr=lr,
        )
        return model, optimizer
"""),
    # the comprehensions inline, the negation on the zero-decay group; a single-name test
    textwrap.dedent("""
    import torch


    def build(model, args):
        no_decay = ("bias", "LayerNorm.bias", "LayerNorm.weight")
        grouped = [
            {
                "params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)],  # warning: PF124
                "weight_decay": args.weight_decay,
            },
            {
                "params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)],
                "weight_decay": 0.0,
            },
        ]
        head = [
            dict(params=[p for n, p in model.head.named_parameters() if "bias" in n], weight_decay=0.05),  # warning: PF124
            dict(params=[p for n, p in model.head.named_parameters() if "bias" not in n], weight_decay=0),
        ]
        return torch.optim.AdamW(grouped + head, lr=args.lr)
"""),
]

PF124_BAD.append(
    # the BalancingGroups#6 code itself: the two lists filled in one loop over named_parameters
    textwrap.dedent("""
    import torch


    def get_bert_optim(network, lr, weight_decay):
        no_decay = ["bias", "LayerNorm.weight"]
        decay_params = []
        nodecay_params = []
        for n, p in network.named_parameters():
            if any(nd in n for nd in no_decay):
                decay_params.append(p)  # warning: PF124
            else:
                nodecay_params.append(p)
        groups = [
            {"params": decay_params, "weight_decay": weight_decay},
            {"params": nodecay_params, "weight_decay": 0.0},
        ]
        return torch.optim.AdamW(groups, lr=lr, eps=1e-8)
"""))

PF124_GOOD = [
    # the fix
    textwrap.dedent("""
    import torch
    from transformers import BertForSequenceClassification


    def bert_and_optimizer(n_classes, lr=1e-5, weight_decay=1e-4):
        model = BertForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=n_classes)
        no_decay = ["bias", "LayerNorm.weight"]
        decay_params = [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)]
        other_params = [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)]
        optimizer = torch.optim.AdamW(
            [
                {"params": decay_params, "weight_decay": weight_decay},
                {"params": other_params, "weight_decay": 0.0},
            ],
            lr=lr,
        )
        return model, optimizer
"""),
    # tricky-correct: a list of names to decay (not a no-decay list); a larger decay on the head
    # with no zero group; groups by learning rate only
    textwrap.dedent("""
    import torch


    def build(model, wd):
        decay = ["weight"]
        groups = [
            {"params": [p for n, p in model.named_parameters() if any(d in n for d in decay)], "weight_decay": wd},
            {"params": [p for n, p in model.named_parameters() if not any(d in n for d in decay)], "weight_decay": 0.0},
        ]
        no_decay = ["bias", "norm"]
        by_lr = [
            {"params": [p for n, p in model.backbone.named_parameters() if any(k in n for k in no_decay)], "lr": 1e-5},
            {"params": [p for n, p in model.head.named_parameters() if any(k in n for k in no_decay)],
             "weight_decay": 1e-2},
        ]
        return torch.optim.AdamW(groups, lr=1e-4), torch.optim.AdamW(by_lr, lr=1e-4)
"""),
    # tricky-correct: the loop shape the right way round, a `p.ndim` test beside it
    textwrap.dedent("""
    import torch


    def get_optim(network, lr, weight_decay):
        decay, no_decay = [], []
        for name, param in network.named_parameters():
            if not param.requires_grad:
                continue
            if param.ndim < 2 or "bias" in name:
                no_decay.append(param)
            else:
                decay.append(param)
        return torch.optim.AdamW([{"params": decay, "weight_decay": weight_decay},
                                  {"params": no_decay, "weight_decay": 0.0}], lr=lr)
"""),
]
