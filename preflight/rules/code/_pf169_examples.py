"""PF169 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # numpy inverse-frequency class weights reach F.cross_entropy through a helper's parameter
    textwrap.dedent("""
    import numpy as np
    import torch.nn.functional as F


    def loss_function(logits, labels, class_weights):
        return F.cross_entropy(logits, labels, weight=class_weights)  # error: PF169


    def train(model, features, labels, counts):
        class_weights = len(labels) / np.maximum(counts, 1)
        return loss_function(model(features), labels, class_weights)
"""),
    # sklearn's balanced class weights (a numpy array) handed straight to CrossEntropyLoss
    textwrap.dedent("""
    import numpy as np
    from sklearn.utils.class_weight import compute_class_weight
    from torch import nn


    def build_loss(train_labels):
        weights = compute_class_weight("balanced", classes=np.unique(train_labels), y=train_labels)
        return nn.CrossEntropyLoss(weight=weights)  # error: PF169
"""),
    # a list as the positional weight; a numpy per-label weight for BCEWithLogitsLoss
    textwrap.dedent("""
    import numpy as np
    import torch


    class Losses:
        def __init__(self, num_labels):
            self.ce = torch.nn.CrossEntropyLoss([1.0, 3.0, 3.0])  # error: PF169
            self.bce = torch.nn.BCEWithLogitsLoss(weight=np.ones(num_labels))  # error: PF169
"""),
]

GOOD_EXAMPLES = [
    # the fix: the numpy weights become a float tensor before the loss
    textwrap.dedent("""
    import numpy as np
    import torch
    import torch.nn.functional as F


    def loss_function(logits, labels, class_weights):
        return F.cross_entropy(logits, labels, weight=class_weights)


    def train(model, features, labels, counts):
        class_weights = torch.tensor(counts.sum() / np.maximum(counts, 1), dtype=torch.float32)
        return loss_function(model(features), labels, class_weights)
"""),
    # tricky-correct: tensor arithmetic (a 0-d tensor) and a numpy array converted before the loss
    textwrap.dedent("""
    import numpy as np
    import torch
    from torch import nn


    def disc_loss(logits, target, mask):
        weight = mask / (mask.sum() + 1e-5)
        return nn.BCEWithLogitsLoss(weight=weight, pos_weight=torch.tensor([2.0]))(logits, target)


    def build_loss(counts, device):
        weights = 1.0 / np.maximum(counts, 1)
        weights = torch.tensor(weights, dtype=torch.float32, device=device)
        return nn.CrossEntropyLoss(weight=weights)
"""),
    # tricky-correct: a helper's return value (may be a tensor), weight=None, and a parameter whose caller
    # passes a tensor
    textwrap.dedent("""
    import torch
    from torch import nn


    def make(class_weights=None):
        return nn.CrossEntropyLoss(weight=class_weights)


    def main(dataset):
        a = nn.NLLLoss(weight=dataset.class_weights())
        b = make(torch.ones(10))
        return a, b, nn.BCELoss(weight=None)
"""),
]
