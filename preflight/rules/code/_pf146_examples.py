"""PF146 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_GAE = textwrap.dedent("""
    import numpy as np
    import torch
    import torch.nn.functional as F


    def loss_function(preds, labels, norm, pos_weight):
        return norm * F.binary_cross_entropy_with_logits(preds, labels, pos_weight=pos_weight){mark}


    def train(model, features, adj_label, n_pos, n_all, epochs):
        pos_weight = {weight}
        optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
        for epoch in range(epochs):
            optimizer.zero_grad()
            loss = loss_function(model(features), adj_label, 0.5, pos_weight)
            loss.backward()
            optimizer.step()
""")

_CRITERION = textwrap.dedent("""
    import numpy as np
    import torch
    from torch import nn


    def build_criterion(labels, device):
        ratio = {ratio}
        return nn.BCEWithLogitsLoss(pos_weight={weight}){mark}
""")

PF146_BAD = [
    # gae-pytorch issue 4: a float passed through a helper's parameter to the functional loss
    _GAE.format(weight="float(n_all - n_pos) / float(n_pos)", mark="  # error: PF146"),
    # ludwig PR 1737: a number given to the criterion's pos_weight buffer
    _CRITERION.format(ratio="3", weight="ratio", mark="  # error: PF146"),
    # a numpy value computed from the labels
    _CRITERION.format(ratio="np.sum(labels == 0) / np.sum(labels == 1)", weight="ratio",
                      mark="  # error: PF146"),
    # a list of per-class weights
    _CRITERION.format(ratio="labels.mean(0)", weight="[2.0, 1.0, 4.0]", mark="  # error: PF146"),
]

PF146_GOOD = [
    # the fixes: a tensor
    _GAE.format(weight="torch.tensor([float(n_all - n_pos) / float(n_pos)])", mark=""),
    _CRITERION.format(ratio="3", weight="torch.tensor([ratio], device=device)", mark=""),
    _CRITERION.format(ratio="np.sum(labels == 0) / np.sum(labels == 1)",
                      weight="torch.from_numpy(np.atleast_1d(ratio)).float().to(device)", mark=""),
    # tricky-correct: a Python number divided by a value preflight cannot type (a tensor sum is a tensor)
    _GAE.format(weight="float(n_all) / adj_label.sum()", mark=""),
    # tricky-correct: per-class weights computed with tensor arithmetic
    _CRITERION.format(ratio="(len(labels) - labels.sum(0)) / labels.sum(0).clamp(min=1)", weight="ratio.to(device)",
                      mark=""),
    # tricky-correct: the helper is also called with a tensor
    textwrap.dedent("""
    import torch
    import torch.nn.functional as F


    def weighted(logits, y, pos_weight):
        return F.binary_cross_entropy_with_logits(logits, y, pos_weight=pos_weight)


    def step(logits, y, per_class):
        a = weighted(logits, y, 2.0)
        b = weighted(logits, y, per_class)
        return a + b
    """),
]
