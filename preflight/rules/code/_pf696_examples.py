"""PF696 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # swarmapytorch/book_DeepLearning_in_PyTorch_Source issue 8: a MNIST convnet, log_softmax over the batch
    textwrap.dedent("""
    import torch.nn as nn
    import torch.nn.functional as F


    class ConvNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 10, kernel_size=5)
            self.conv2 = nn.Conv2d(10, 20, kernel_size=5)
            self.fc1 = nn.Linear(320, 50)
            self.fc2 = nn.Linear(50, 10)

        def forward(self, x):
            x = F.relu(F.max_pool2d(self.conv1(x), 2))
            x = F.relu(F.max_pool2d(self.conv2(x), 2))
            x = x.view(-1, 320)
            x = F.relu(self.fc1(x))
            x = F.dropout(x, training=self.training)
            x = self.fc2(x)
            return F.log_softmax(x, dim=0)  # warning: PF696
"""),
    # torch.flatten(x, 1), the classifier applied inside the softmax call, positional dim
    textwrap.dedent("""
    import torch
    from torch import nn


    class Classifier(nn.Module):
        def __init__(self, num_classes=5):
            super().__init__()
            self.features = nn.Sequential(nn.Conv2d(3, 16, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
            self.head = nn.Linear(16 * 16, num_classes)

        def forward(self, images):
            feats = self.features(images)
            feats = torch.flatten(feats, 1)
            return torch.softmax(self.head(feats), 0)  # warning: PF696
"""),
    # MicrosoftDocs/pytorchfundamentals issue 4: an nn.LogSoftmax(dim=0) layer built in __init__
    textwrap.dedent("""
    import torch.nn as nn


    class DenseNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.hidden = nn.Linear(784, 100)
            self.out = nn.Linear(100, 10)
            self.log_softmax = nn.LogSoftmax(dim=0)

        def forward(self, x):
            x = x.view(x.size(0), -1)
            x = nn.functional.relu(self.hidden(x))
            x = self.out(x)
            return self.log_softmax(x)  # warning: PF696
"""),
    # the flatten inside the first layer's call
    textwrap.dedent("""
    import torch.nn as nn
    import torch.nn.functional as F


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(784, 128)
            self.fc2 = nn.Linear(128, 10)

        def forward(self, x):
            x = F.relu(self.fc1(x.view(x.size(0), -1)))
            return F.log_softmax(self.fc2(x), dim=0)  # warning: PF696
"""),
    # fxia22/pointnet.pytorch issue 27: no reshape in forward, but nn.BatchNorm1d shows x is (batch, features)
    textwrap.dedent("""
    import torch.nn as nn
    import torch.nn.functional as F


    class PointNetCls(nn.Module):
        def __init__(self, feat, k=2):
            super().__init__()
            self.feat = feat
            self.fc1 = nn.Linear(1024, 512)
            self.fc2 = nn.Linear(512, 256)
            self.fc3 = nn.Linear(256, k)
            self.bn1 = nn.BatchNorm1d(512)
            self.bn2 = nn.BatchNorm1d(256)

        def forward(self, x):
            x, trans = self.feat(x)
            x = F.relu(self.bn1(self.fc1(x)))
            x = F.relu(self.bn2(self.fc2(x)))
            x = self.fc3(x)
            return F.log_softmax(x, dim=0), trans  # warning: PF696
"""),
    # MicrosoftDocs/pytorchfundamentals issue 4: a dense network as an nn.Sequential
    textwrap.dedent("""
    import torch
    from torch import nn

    net = nn.Sequential(
        nn.Flatten(),
        nn.Linear(784, 100),
        nn.ReLU(),
        nn.Linear(100, 10),
        nn.LogSoftmax(dim=0))  # warning: PF696
    optimizer = torch.optim.Adam(net.parameters(), lr=0.01)
    loss_fn = nn.NLLLoss()
"""),
    # ctallec/world-models issue 10: (seq_len, bs, gaussians), the mixture log-softmax over dim -2, the batch
    textwrap.dedent("""
    import torch
    import torch.nn as nn
    import torch.nn.functional as f


    class MDRNN(nn.Module):
        def __init__(self, latents, actions, hiddens, gaussians):
            super().__init__()
            self.gaussians = gaussians
            self.rnn = nn.LSTM(latents + actions, hiddens)
            self.gmm_linear = nn.Linear(hiddens, (2 * latents + 1) * gaussians + 2)

        def forward(self, actions, latents):
            seq_len, bs = actions.size(0), actions.size(1)
            outs, _ = self.rnn(torch.cat([actions, latents], dim=-1))
            gmm_outs = self.gmm_linear(outs)
            pi = gmm_outs[:, :, :self.gaussians]
            pi = pi.view(seq_len, bs, self.gaussians)
            logpi = f.log_softmax(pi, dim=-2)  # warning: PF696
            return logpi
"""),
]

GOOD_EXAMPLES = [
    # the fix of issue 8: over the classes
    textwrap.dedent("""
    import torch.nn as nn
    import torch.nn.functional as F


    class ConvNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 10, kernel_size=5)
            self.fc1 = nn.Linear(1440, 10)

        def forward(self, x):
            x = F.relu(F.max_pool2d(self.conv1(x), 2))
            x = x.view(-1, 1440)
            return F.log_softmax(self.fc1(x), dim=1)
"""),
    # tricky: a policy network over one unbatched state: dim 0 is the action dimension
    textwrap.dedent("""
    import torch.nn as nn
    import torch.nn.functional as F


    class Policy(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(4, 128)
            self.fc2 = nn.Linear(128, 2)

        def forward(self, state):
            x = F.relu(self.fc1(state))
            return F.softmax(self.fc2(x), dim=0)
"""),
    # tricky: a CBOW model sums the context embeddings over dim 0 after the reshape: 1-D again
    textwrap.dedent("""
    import torch
    import torch.nn as nn
    import torch.nn.functional as F


    class CBOW(nn.Module):
        def __init__(self, vocab, dim):
            super().__init__()
            self.emb = nn.Embedding(vocab, dim)
            self.out = nn.Linear(dim, vocab)

        def forward(self, context):
            x = self.emb(context)
            x = x.view(-1, 64)
            x = torch.sum(x, dim=0)
            return F.log_softmax(self.out(x), dim=0)
"""),
    # tricky: the forward handles unbatched and batched inputs by rank
    textwrap.dedent("""
    import torch.nn as nn
    import torch.nn.functional as F


    class PointHead(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(256, 40)

        def forward(self, x):
            x = x.reshape(-1, 256)
            x = self.fc(x)
            if x.shape[0] == 1:
                return F.log_softmax(x.squeeze(0), dim=0)
            return F.log_softmax(x, dim=1)
"""),
    # tricky: attention over the time axis of a sequence-first tensor, reshaped back to (T, B)
    textwrap.dedent("""
    import torch.nn as nn
    import torch.nn.functional as F


    class AttnPool(nn.Module):
        def __init__(self, hidden):
            super().__init__()
            self.score = nn.Linear(hidden, 1)

        def forward(self, h):
            T, B, H = h.shape
            flat = h.view(-1, H)
            scores = self.score(flat).view(T, B)
            weights = F.softmax(scores, dim=0)
            return (weights.unsqueeze(-1) * h).sum(0)
"""),
    # tricky: softmax over dim 0 of learned mixture weights, not of the batch
    textwrap.dedent("""
    import torch
    import torch.nn as nn
    import torch.nn.functional as F


    class Mixture(nn.Module):
        def __init__(self, experts):
            super().__init__()
            self.experts = nn.ModuleList(experts)
            self.logits = nn.Parameter(torch.zeros(len(experts)))

        def forward(self, x):
            x = x.flatten(1)
            w = F.softmax(self.logits, dim=0)
            return sum(wi * e(x) for wi, e in zip(w, self.experts))
"""),
    # tricky: the Sequential flattens everything (start_dim=0): a single vector, softmax over its only dim
    textwrap.dedent("""
    from torch import nn

    scorer = nn.Sequential(nn.Flatten(0), nn.Linear(64, 8), nn.LogSoftmax(dim=0))
    batched = nn.Sequential(nn.Flatten(), nn.Linear(64, 8), nn.LogSoftmax(dim=1))
"""),
    # tricky: BatchNorm1d on a sequence-first tensor is not what dim 0 is normalised over here
    textwrap.dedent("""
    import torch.nn as nn
    import torch.nn.functional as F


    class Attn(nn.Module):
        def __init__(self, h):
            super().__init__()
            self.bn = nn.BatchNorm1d(h)
            self.score = nn.Linear(h, 1)

        def forward(self, feats):
            x = self.bn(feats)
            w = self.score(feats).squeeze(-1)
            return F.softmax(w, dim=0)
"""),
    # the fix of world-models issue 10, and a softmax over the time axis of a (seq_len, bs, k) view
    textwrap.dedent("""
    import torch.nn as nn
    import torch.nn.functional as f


    class MDRNNHead(nn.Module):
        def __init__(self, hiddens, gaussians):
            super().__init__()
            self.gaussians = gaussians
            self.fc = nn.Linear(hiddens, gaussians)

        def forward(self, outs):
            seq_len, bs = outs.size(0), outs.size(1)
            pi = self.fc(outs)
            pi = pi.view(seq_len, bs, self.gaussians)
            logpi = f.log_softmax(pi, dim=-1)
            attn = pi.view(seq_len, bs, self.gaussians)
            over_time = f.softmax(attn, dim=0)
            return logpi, over_time
"""),
]
