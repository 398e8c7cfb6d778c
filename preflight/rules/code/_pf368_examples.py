"""PF368 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # poppinace/indexnet_matting issue 35: a freeze_bn() helper called once, net.train() at every epoch
    textwrap.dedent("""
    import torch
    from torch import nn


    def freeze_bn(net):
        for m in net.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.eval()


    def train(net, train_loader, optimizer, epochs):
        freeze_bn(net)
        for epoch in range(epochs):
            net.train()  # warning: PF368
            for image, target in train_loader:
                loss = nn.functional.l1_loss(net(image), target)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
"""),
    # jfzhang95/pytorch-deeplab-xception issue 140: a freeze_bn() method, a trainer that calls model.train()
    textwrap.dedent("""
    import torch
    from torch import nn


    class DeepLab(nn.Module):
        def __init__(self, backbone):
            super().__init__()
            self.backbone = backbone
            self.head = nn.Conv2d(2048, 21, 1)

        def forward(self, x):
            return self.head(self.backbone(x))

        def freeze_bn(self):
            for m in self.modules():
                if isinstance(m, nn.BatchNorm2d):
                    m.eval()


    class Trainer:
        def __init__(self, model, loader, args):
            self.model = model
            self.loader = loader
            self.optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
            if args.freeze_bn:
                model.freeze_bn()

        def training(self, epoch):
            self.model.train()  # warning: PF368
            for image, target in self.loader:
                loss = nn.functional.cross_entropy(self.model(image), target)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
"""),
    # pgniewko/gt-pyg issue 112: freeze() sets requires_grad and BatchNorm eval once; the epoch loop's train()
    textwrap.dedent("""
    import torch
    from torch import nn


    class Encoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(nn.Linear(16, 32), nn.BatchNorm1d(32), nn.ReLU())
            self.head = nn.Linear(32, 1)

        def forward(self, x):
            return self.head(self.body(x))

        def freeze(self, requires_grad=False):
            for param in self.body.parameters():
                param.requires_grad = requires_grad
            for m in self.body.modules():
                if isinstance(m, (nn.BatchNorm1d, nn.BatchNorm2d)):
                    if requires_grad:
                        m.train()
                    else:
                        m.eval()


    model = Encoder()
    model.freeze()
    optimizer = torch.optim.Adam(model.head.parameters(), lr=1e-3)
    loader = torch.utils.data.DataLoader(torch.randn(64, 17), batch_size=8)
    for epoch in range(5):
        model.train()  # warning: PF368
        for batch in loader:
            loss = (model(batch[:, :16]).squeeze(1) - batch[:, 16]).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
"""),
    # det78: a set_bn_eval function handed to model.apply once, before the loop
    textwrap.dedent("""
    import torch
    import torchvision
    from torch import nn


    def set_bn_eval(module):
        if module.__class__.__name__.find("BatchNorm") != -1:
            module.eval()


    model = torchvision.models.resnet18(weights="IMAGENET1K_V1")
    model.fc = nn.Linear(512, 5)
    model.apply(set_bn_eval)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    loader = torch.utils.data.DataLoader(torch.randn(16, 3, 64, 64), batch_size=4)
    for epoch in range(3):
        model.train()  # warning: PF368
        for images in loader:
            loss = model(images).logsumexp(1).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
"""),
]

GOOD_EXAMPLES = [
    # filipradenovic/cnnimageretrieval-pytorch: train() then the BatchNorm freeze, every epoch
    textwrap.dedent("""
    import torch
    from torch import nn


    def set_batchnorm_eval(m):
        classname = m.__class__.__name__
        if classname.find("BatchNorm") != -1:
            m.eval()


    def train(model, loader, optimizer, epochs):
        for epoch in range(epochs):
            model.train()
            model.apply(set_batchnorm_eval)
            for x, y in loader:
                loss = nn.functional.mse_loss(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
"""),
    # TRI-ML/sdflabel PR 8: the model overrides train() to keep its BatchNorm frozen
    textwrap.dedent("""
    import torch
    from torch import nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 8, 3)
            self.bn = nn.BatchNorm2d(8)
            self.fc = nn.Linear(8, 2)

        def forward(self, x):
            return self.fc(self.bn(self.conv(x)).mean((2, 3)))

        def freeze_bn(self):
            for m in self.modules():
                if isinstance(m, nn.BatchNorm2d):
                    m.eval()

        def train(self, mode=True):
            super().train(mode)
            if mode:
                self.freeze_bn()
            return self


    net = Net()
    net.freeze_bn()
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for epoch in range(3):
        net.train()
        for x, y in [(torch.randn(2, 3, 8, 8), torch.tensor([0, 1]))]:
            loss = nn.functional.cross_entropy(net(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
"""),
    # tricky-correct: the frozen BatchNorm belongs to a teacher; train() is called on the student only
    textwrap.dedent("""
    import torch
    from torch import nn


    def freeze_bn(model):
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.eval()


    def distill(student, teacher, loader, optimizer, epochs):
        freeze_bn(teacher)
        for epoch in range(epochs):
            student.train()
            for x in loader:
                with torch.no_grad():
                    target = teacher(x)
                loss = nn.functional.mse_loss(student(x), target)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
"""),
    # tricky-correct: the helper puts BatchNorm back in train mode (an unfreeze), the loop's train() agrees
    textwrap.dedent("""
    import torch
    from torch import nn


    def unfreeze_bn(model):
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.train()


    def train(model, loader, optimizer, epochs):
        unfreeze_bn(model)
        for epoch in range(epochs):
            model.train()
            for x, y in loader:
                loss = nn.functional.mse_loss(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
"""),
    # tricky-correct: freeze_bn() inside the loop, after train(), on every epoch (deeplab fixed shape)
    textwrap.dedent("""
    import torch
    from torch import nn


    def freeze_bn(net):
        for m in net.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.eval()


    def train(net, loader, optimizer, epochs, freeze):
        for epoch in range(epochs):
            net.train()
            if freeze:
                freeze_bn(net)
            for x, y in loader:
                loss = nn.functional.l1_loss(net(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
"""),
]
