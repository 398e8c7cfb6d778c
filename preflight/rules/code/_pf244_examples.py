"""PF244 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# warning: PF244`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

from textwrap import dedent

_CLASSIFIER = dedent("""\
    import torch.nn as nn


    class TextClassifier(nn.Module):
        def __init__(self, vocab_size, num_classes, d_model=256, nhead=8, num_layers=4):
            super().__init__()
            self.embed = nn.Embedding(vocab_size, d_model, padding_idx=0)
            layer = nn.TransformerEncoderLayer(d_model, nhead, 1024, 0.1{extra}){pin}
            self.encoder = nn.TransformerEncoder(layer, num_layers)
            self.head = nn.Linear(d_model, num_classes)

        def forward(self, tokens):
            x = self.embed(tokens){move}
            x = self.encoder(x)
            return self.head({pool})
    """)

PF244_BAD = [
    # TorchLeet issue 5's shape: (batch, seq) tokens, default batch_first, mean over dimension 1
    _CLASSIFIER.format(extra="", pin="  # warning: PF244", move="", pool="x.mean(dim=1)"),
    # the layer assigned directly, a [CLS]-style read of position 0 of every example
    dedent("""\
        import torch.nn as nn


        class SetEncoder(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.block = nn.TransformerEncoderLayer(d_model=dim, nhead=4, batch_first=False)  # warning: PF244
                self.out = nn.Linear(dim, 1)

            def forward(self, x, padding_mask):
                h = self.block(x, src_key_padding_mask=padding_mask)
                return self.out(h[:, 0])
        """),
]

PF244_GOOD = [
    # the fix
    _CLASSIFIER.format(extra=", batch_first=True", pin="", move="", pool="x.mean(dim=1)"),
    # tricky: sequence-first all the way, pooled over dimension 0
    _CLASSIFIER.format(extra="", pin="", move=".transpose(0, 1)", pool="x.mean(dim=0)"),
    # tricky: default layout, pooled over dimension 0 with no transpose in the method
    _CLASSIFIER.format(extra="", pin="", move="", pool="x.mean(0)"),
    # tricky: the output is transposed back to batch-major before pooling over dimension 1
    _CLASSIFIER.format(extra="", pin="", move=".permute(1, 0, 2)", pool="x.permute(1, 0, 2).mean(dim=1)"),
    # tricky: batch_first comes from the config
    _CLASSIFIER.format(extra=", batch_first=cfg_batch_first", pin="", move="", pool="x.mean(dim=1)"),
]

# tricky: a project's own encoder layer of the same name (batch-major by construction)
PF244_GOOD.append(dedent("""\
    import torch.nn as nn


    class TransformerEncoderLayer(nn.Module):
        def __init__(self, dim):
            super().__init__()
            self.attn = nn.MultiheadAttention(dim, 4, batch_first=True)

        def forward(self, x):
            return x + self.attn(x, x, x)[0]


    class Classifier(nn.Module):
        def __init__(self, dim, classes):
            super().__init__()
            self.block = TransformerEncoderLayer(dim)
            self.head = nn.Linear(dim, classes)

        def forward(self, x):
            return self.head(self.block(x)[:, 0])
    """))
