"""PF181 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # pytorch/xla issue 1623: optim.SGD(model.parameters()) and only then model.to(xla_device)
    textwrap.dedent("""
    import torch.nn.functional as F
    import torch_xla.core.xla_model as xm
    from torch import optim


    def main(args, loader):
        device = xm.xla_device()
        model = MNISTNet()
        optimizer = optim.SGD(model.parameters(), lr=args.lr, momentum=0.5)  # warning: PF181
        model.to(device)
        for data, target in loader:
            data, target = data.to(device), target.to(device)
            optimizer.zero_grad()
            F.nll_loss(model(data), target).backward()
            xm.optimizer_step(optimizer)
"""),
    # a rebinding move straight to the device call, parameter groups, module level
    textwrap.dedent("""
    import torch
    import torch_xla

    model = Net()
    optimizer = torch.optim.AdamW([{"params": model.parameters(), "lr": 1e-4}])  # warning: PF181
    model = model.to(torch_xla.device())
"""),
    # pytorch/xla issue 1764 ("Single XLA device: Model does not train"): a pretrained model, Adam, then the move
    textwrap.dedent("""
    import torch
    import torch_xla.core.xla_model as xm
    from torch.optim import Adam

    device = xm.xla_device()
    cnn_model = EfficientNet.from_pretrained("efficientnet-b3", num_classes=2)
    cnn_model.load_state_dict(torch.load(weights_path, map_location="cpu"))
    optimizer = Adam(cnn_model.parameters(), lr=lr, betas=(beta1, 0.999))  # warning: PF181
    cnn_model = cnn_model.to(device)
"""),
]

GOOD_EXAMPLES = [
    # the fix: move first, then build the optimizer
    textwrap.dedent("""
    import torch_xla.core.xla_model as xm
    from torch import optim


    def main(args):
        device = xm.xla_device()
        model = MNISTNet()
        model.to(device)
        optimizer = optim.SGD(model.parameters(), lr=args.lr, momentum=0.5)
        return model, optimizer
"""),
    # tricky-correct: moved to CUDA after the optimizer (parameters kept in place) in a file that also knows XLA
    textwrap.dedent("""
    import torch
    from torch import optim


    def main(args, use_tpu):
        model = Net()
        optimizer = optim.SGD(model.parameters(), lr=args.lr)
        if use_tpu:
            return None
        model.to(torch.device("cuda"))
        return optimizer
"""),
    # tricky-correct: the optimizer is built again after the move; another model is moved
    textwrap.dedent("""
    import torch
    import torch_xla.core.xla_model as xm


    def main(args):
        device = xm.xla_device()
        model = Net()
        teacher = Net()
        optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
        teacher.to(device)
        model.to(device)
        optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
        return optimizer
"""),
]
