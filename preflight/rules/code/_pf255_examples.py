"""PF255 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_SWA = textwrap.dedent("""
    import torch
    import torch.nn.functional as F
    from torch.optim.swa_utils import SWALR, AveragedModel
    from torchvision.models import resnet18

    model = resnet18(num_classes=10).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    swa_model = AveragedModel(model)
    swa_scheduler = SWALR(optimizer, swa_lr=0.05)
    for epoch in range(200):
        for x, y in train_loader:
            optimizer.zero_grad()
            F.cross_entropy(model(x), y).backward()
            optimizer.step()
        if epoch >= 160:
            swa_model.update_parameters(model)
            swa_scheduler.step()
    {update}
    swa_model.eval(){pin}
    torch.save(swa_model.module.state_dict(), "swa.pt")
""")

BAD_EXAMPLES = [
    # composer issue 624's shape: the SWA model evaluated and saved as it is
    _SWA.replace("{update}\n", "").replace("{pin}", "  # warning: PF255"),
    # an EMA through AveragedModel over a model with BatchNorm built in the file, evaluated each epoch
    textwrap.dedent("""
    import torch
    import torch.nn as nn
    from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(nn.Conv2d(3, 32, 3), nn.BatchNorm2d(32), nn.ReLU())


    def run(model, loader, val_loader, optimizer):
        ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.999))
        for x, y in loader:
            optimizer.zero_grad()
            model(x).sum().backward()
            optimizer.step()
            ema.update_parameters(model)
        return evaluate(ema, val_loader)  # warning: PF255
"""),
]

GOOD_EXAMPLES = [
    # the fix
    _SWA.replace("{update}", "torch.optim.swa_utils.update_bn(train_loader, swa_model)").replace("{pin}", ""),
    # tricky: the buffers are averaged too
    _SWA.replace("AveragedModel(model)", "AveragedModel(model, use_buffers=True)").replace("{update}\n", "")
        .replace("{pin}", ""),
    # tricky: a transformer (LayerNorm, no BatchNorm) averaged, and an average only handed back to the caller
    textwrap.dedent("""
    from torch.optim.swa_utils import AveragedModel
    from transformers import AutoModel

    model = AutoModel.from_pretrained("bert-base-uncased")
    swa = AveragedModel(model)
    swa.update_parameters(model)
    swa.eval()


    def make_average(net):
        avg = AveragedModel(net)
        return avg
"""),
]
