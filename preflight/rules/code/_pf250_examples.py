"""PF250 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # the shape found in public code: a torchvision model loaded pretrained, then apply(init) over all of it
    textwrap.dedent("""
    import torch.nn as nn
    from torchvision import models


    def custom_weights_init(m):
        if isinstance(m, (nn.Conv2d, nn.Linear)):
            nn.init.kaiming_normal_(m.weight)


    model = models.resnet50(pretrained=True)
    model.apply(custom_weights_init)  # warning: PF250
    model.fc = nn.Linear(model.fc.in_features, 2)
    """),
    # AdaInt PR 12: a pretrained backbone built in __init__, then the whole module initialised
    textwrap.dedent("""
    import torch.nn as nn
    import torchvision


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.backbone = torchvision.models.resnet18(pretrained=True)
            self.head = nn.Linear(1000, 3)
            self.apply(self._init_weights)  # warning: PF250

        def _init_weights(self, m):
            if isinstance(m, nn.Conv2d):
                nn.init.xavier_normal_(m.weight)
            elif isinstance(m, nn.Linear):
                m.weight.data.normal_(0.0, 0.02)
    """),
    # picotron issue 32: a checkpoint loaded, then an initialisation loop over all modules
    textwrap.dedent("""
    import torch
    import torch.nn as nn


    def build(path):
        model = Transformer(config)
        model.load_state_dict(torch.load(path, map_location="cpu"))
        for m in model.modules():  # warning: PF250
            if isinstance(m, nn.Linear):
                nn.init.normal_(m.weight, std=0.02)
        return model
    """),
    # a Hugging Face model and an initialiser imported from elsewhere
    textwrap.dedent("""
    from transformers import AutoModel
    from utils import init_weights

    encoder = AutoModel.from_pretrained("bert-base-uncased")
    encoder.apply(init_weights)  # warning: PF250
    """),
]

GOOD_EXAMPLES = [
    # only the new head is initialised
    textwrap.dedent("""
    import torch.nn as nn
    from torchvision import models


    def init_fn(m):
        if isinstance(m, nn.Linear):
            nn.init.xavier_uniform_(m.weight)


    model = models.resnet50(weights=models.ResNet50_Weights.DEFAULT)
    model.fc = nn.Linear(model.fc.in_features, 10)
    model.fc.apply(init_fn)
    """),
    # tricky: initialised first, then the checkpoint is loaded over it
    textwrap.dedent("""
    import torch
    import torch.nn as nn


    def weights_init(m):
        if isinstance(m, nn.Conv2d):
            nn.init.normal_(m.weight, 0.0, 0.02)


    netG = Generator()
    netG.apply(weights_init)
    if args.resume:
        netG.load_state_dict(torch.load(args.resume))
    """),
    # tricky: apply() with a function that does not initialise (freezes batch norm)
    textwrap.dedent("""
    import torch.nn as nn
    from torchvision import models


    def set_bn_eval(m):
        if isinstance(m, nn.BatchNorm2d):
            m.eval()
            m.weight.requires_grad_(False)


    model = models.resnet50(pretrained=True)
    model.apply(set_bn_eval)
    """),
    # tricky: built without pretrained weights
    textwrap.dedent("""
    import torch.nn as nn
    from torchvision import models


    def init_weights(m):
        if isinstance(m, nn.Conv2d):
            nn.init.kaiming_normal_(m.weight)


    model = models.resnet50(weights=None)
    model.apply(init_weights)
    """),
    # tricky: the initialiser skips the pretrained backbone itself
    textwrap.dedent("""
    import torch.nn as nn
    import timm


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.backbone = timm.create_model("resnet50", pretrained=True)
            self.neck = nn.Conv2d(2048, 256, 1)
            self.apply(self._init_weights)

        def _init_weights(self, m):
            if m in self.backbone.modules() and self.use_pretrained:
                return
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight)
    """),
]
