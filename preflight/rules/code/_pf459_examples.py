"""PF459 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # pytorch-meta-optimizer issue 11: imported cells appended to a list, called in forward
    textwrap.dedent("""
    import torch.nn as nn

    from layer_norm_lstm import LayerNormLSTMCell


    class MetaOptimizer(nn.Module):
        def __init__(self, num_layers, hidden_size):
            super().__init__()
            self.linear1 = nn.Linear(3, hidden_size)
            self.lstms = []  # error: PF459
            for i in range(num_layers):
                self.lstms.append(LayerNormLSTMCell(hidden_size, hidden_size))

        def forward(self, x, hx, cx):
            x = self.linear1(x)
            for i in range(len(self.lstms)):
                hx[i], cx[i] = self.lstms[i](x, (hx[i], cx[i]))
                x = hx[i]
            return x
"""),
    # torch.nn layers in a list comprehension
    textwrap.dedent("""
    import torch
    from torch import nn


    class MLP(nn.Module):
        def __init__(self, width, depth):
            super().__init__()
            self.blocks = [nn.Linear(width, width) for _ in range(depth)]  # error: PF459
            self.head = nn.Linear(width, 1)

        def forward(self, x):
            for block in self.blocks:
                x = torch.relu(block(x))
            return self.head(x)
"""),
    # Lightning issue 17624: torchmetrics kept in a plain dict stay on the CPU
    textwrap.dedent("""
    import lightning as L
    from torchmetrics.classification import MulticlassAccuracy, MulticlassF1Score


    class SegModule(L.LightningModule):
        def __init__(self, net, num_classes=21):
            super().__init__()
            self.net = net
            self.val_metrics = {  # error: PF459
                "acc": MulticlassAccuracy(num_classes=num_classes),
                "f1": MulticlassF1Score(num_classes=num_classes, average="macro"),
            }

        def validation_step(self, batch, batch_idx):
            x, y = batch
            preds = self.net(x).argmax(dim=1)
            for metric in self.val_metrics.values():
                metric.update(preds, y)
"""),
]

GOOD_EXAMPLES = [
    # the fix, and a list wrapped after it is filled
    textwrap.dedent("""
    import torch.nn as nn

    from layer_norm_lstm import LayerNormLSTMCell


    class MetaOptimizer(nn.Module):
        def __init__(self, num_layers, hidden_size):
            super().__init__()
            self.lstms = nn.ModuleList()
            for i in range(num_layers):
                self.lstms.append(LayerNormLSTMCell(hidden_size, hidden_size))
            layers = []
            self.convs = [nn.Conv2d(3, 3, 3) for _ in range(num_layers)]
            self.convs = nn.ModuleList(self.convs)
            self.body = [nn.Linear(4, 4), nn.ReLU()]
            self.net = nn.Sequential(*self.body)
"""),
    # a model kept out of parameters() on purpose; tensors and hook handles in lists; a list whose
    # elements are registered with add_module
    textwrap.dedent("""
    import torch
    import torch.nn as nn

    from blocks import Block


    class Student(nn.Module):
        def __init__(self, teacher, n):
            super().__init__()
            self._teacher = [teacher]
            self.buffers_ = [torch.zeros(4) for _ in range(n)]
            self.handles = []
            self.handles.append(self.register_forward_hook(lambda *a: None))
            self.stages = []
            for i in range(n):
                stage = nn.Linear(4, 4)
                self.add_module(f"stage{i}", stage)
                self.stages.append(stage)
            self.specs = [Block.Spec(4) for _ in range(n)]
"""),
    # MLX registers the modules of a list attribute (MiniCPM's mlx_finetune.py): not torch's nn
    """
import mlx.nn as nn


class LlamaModel(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.layers = [TransformerBlock(args=args) for _ in range(args.num_hidden_layers)]

    def __call__(self, h):
        for layer in self.layers:
            h = layer(h)
        return h
""",
    # the fix of Lightning issue 17624, and a dict of loss modules (no state to move)
    textwrap.dedent("""
    import lightning as L
    import torch.nn as nn
    from torchmetrics import MetricCollection
    from torchmetrics.classification import MulticlassAccuracy, MulticlassF1Score


    class SegModule(L.LightningModule):
        def __init__(self, net, num_classes=21):
            super().__init__()
            self.net = net
            self.val_metrics = nn.ModuleDict({
                "acc": MulticlassAccuracy(num_classes=num_classes),
                "f1": MulticlassF1Score(num_classes=num_classes, average="macro"),
            })
            self.test_metrics = MetricCollection({"acc": MulticlassAccuracy(num_classes=num_classes)})
            self.losses = {"ce": nn.CrossEntropyLoss(), "nll": nn.NLLLoss()}
"""),
    # tricky-correct: the dict is built first and registered afterwards
    textwrap.dedent("""
    import lightning as L
    from torchmetrics import MetricCollection
    from torchmetrics.classification import BinaryAccuracy, BinaryAUROC


    class Classifier(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.metrics = {"acc": BinaryAccuracy(), "auroc": BinaryAUROC()}
            self.metrics = MetricCollection(self.metrics)
"""),
]
