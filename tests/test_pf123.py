"""PF123 module-replaced-after-optimizer: a layer or the model replaced by a new module after the optimizer
took its parameter list (pytorch/pytorch#54765, spro/practical-pytorch#9); what it reports and where it
stays silent."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from preflight.diagnostics import Finding
from preflight.engine import Selection, analyse_parsed
from preflight.sources import FileError, SourceText, parse_python


def check(src: str) -> list[Finding]:
    text = textwrap.dedent(src)
    parsed = parse_python(SourceText(path=Path("t.py"), display="t.py", kind="python", raw=text.encode(),
                                     text=text))
    assert not isinstance(parsed, FileError), parsed
    return analyse_parsed(parsed, Selection(codes=("PF123",)))


def lines(src: str) -> list[int]:
    return [f.span.line for f in check(src)]


FINETUNE = """\
import torch
import torchvision
from torch import nn

model = torchvision.models.resnet18(weights="IMAGENET1K_V1")
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
model.fc = nn.Linear(512, 10)
loader = torch.utils.data.DataLoader(torchvision.datasets.FakeData(transform=torchvision.transforms.ToTensor()))
for x, y in loader:
    optimizer.zero_grad()
    nn.functional.cross_entropy(model(x), y).backward()
    optimizer.step()
"""


def test_the_replaced_head_through_the_cli(cli, tmp_path):
    (tmp_path / "train.py").write_text(FINETUNE)
    res = cli("check", "train.py", "--select", "PF123", "--format", "json", "--no-cache")
    assert res.code == 1, res.err
    found = json.loads(res.out)["findings"]
    assert [(f["code"], f["line"], f["severity"]) for f in found] == [("PF123", 7, "warning")]
    msg = found[0]["message"]
    assert "`model.fc` is replaced by a new `nn.Linear(...)`" in msg
    assert "`model.parameters()` (line 6)" in msg and "`optimizer.add_param_group(...)`" in msg


def test_the_fixed_order_is_silent(cli, tmp_path):
    fixed = FINETUNE.replace("optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)\nmodel.fc = nn.Linear(512, 10)",
                             "model.fc = nn.Linear(512, 10)\noptimizer = torch.optim.Adam(model.parameters(), lr=1e-3)")
    assert fixed != FINETUNE
    (tmp_path / "train.py").write_text(fixed)
    res = cli("check", "train.py", "--select", "PF123", "--format", "json", "--no-cache")
    assert json.loads(res.out)["findings"] == []


def test_the_model_built_again_is_reported():
    # pytorch/pytorch#54765: a second network, the first network's optimizer kept
    src = """
        import torch
        from torch import nn


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 2)


        class Net2(Net):
            pass


        def main(loader):
            net = Net()
            optimizer = torch.optim.Adam(net.parameters(), lr=3e-2)
            net = Net2()
            for x, y in loader:
                optimizer.zero_grad()
                nn.functional.mse_loss(net(x), y).backward()
                optimizer.step()
    """
    found = check(src)
    assert [f.span.line for f in found] == [19]
    assert "`net` is built again (`Net2(...)`)" in found[0].message


def test_a_layer_swapped_mid_training_is_reported():
    # the optimizer's step runs again in the next epoch, after the swap
    src = """
        import torch
        from torch import nn


        def train(model, loader, epochs):
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            for epoch in range(epochs):
                for x, y in loader:
                    opt.zero_grad()
                    nn.functional.cross_entropy(model(x), y).backward()
                    opt.step()
                if epoch == 5:
                    model.head = nn.Linear(128, 10)
    """
    assert lines(src) == [14]


def test_the_optimizer_handed_to_a_helper_after_the_swap_is_reported():
    src = """
        import torch
        import timm


        def main(fit, loader):
            model = timm.create_model("resnet50", pretrained=True)
            opt = torch.optim.AdamW(model.parameters())
            model.fc = torch.nn.Linear(2048, 5)
            fit(model, loader, opt)
    """
    assert lines(src) == [9]


def test_silent_when_the_optimizer_is_rebuilt_or_the_swap_is_in_the_other_branch():
    src = """
        import torch
        from torch import nn


        def main(model, loader, head_only):
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            model.fc = nn.Linear(512, 10)
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            for x, y in loader:
                opt.zero_grad()
                nn.functional.cross_entropy(model(x), y).backward()
                opt.step()


        def other(model, loader, head_only):
            if head_only:
                opt = torch.optim.SGD(model.fc.parameters(), lr=0.1)
            else:
                model.fc = nn.Linear(512, 10)
                opt = torch.optim.SGD(model.parameters(), lr=0.1)
            for x, y in loader:
                opt.step()
    """
    assert lines(src) == []


def test_silent_for_wrappers_of_the_old_layer_or_model_and_parameter_free_modules():
    # LoRA-style wrappers keep the old tensors; Identity drops the layer on purpose; DDP/compile wrap
    src = """
        import torch
        from torch import nn


        class LoRALinear(nn.Module):
            def __init__(self, base, r=8):
                super().__init__()
                self.base = base
                self.a = nn.Linear(base.in_features, r)


        class Scaled(nn.Module):
            def __init__(self, inner):
                super().__init__()
                self.inner = inner

            def forward(self, x):
                return self.inner(x) * 0.5


        def main(model, loader, rank):
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            model.fc = LoRALinear(model.fc, r=4)
            model = Scaled(model)
            model.avgpool = nn.Identity()
            model.drop = nn.Dropout(0.1)
            model = nn.parallel.DistributedDataParallel(model, device_ids=[rank])
            model = torch.compile(model)
            for x, y in loader:
                opt.zero_grad()
                nn.functional.cross_entropy(model(x), y).backward()
                opt.step()
    """
    assert lines(src) == []


def test_silent_when_the_optimizer_is_not_used_after_the_rebuild():
    # the model rebuilt to load the best checkpoint for testing; the optimizer only saved before
    src = """
        import torch
        from torch import nn


        def main(loader, path):
            model = nn.Linear(4, 2)
            opt = torch.optim.Adam(model.parameters())
            for x, y in loader:
                opt.zero_grad()
                nn.functional.mse_loss(model(x), y).backward()
                opt.step()
            torch.save({"model": model.state_dict(), "opt": opt.state_dict()}, path)
            model = nn.Linear(4, 2)
            model.load_state_dict(torch.load(path)["model"])
            return model
    """
    assert lines(src) == []


QAT_INIT = """\
import torch
from torch import nn


def init_quantizer_ranges(model, stats):
    for name, q in model.named_modules():
        if name in stats:
            q.scale = nn.Parameter(torch.tensor(stats[name] / 127.0))


optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
init_quantizer_ranges(model, collect(model))
for x, y in loader:
    optimizer.zero_grad()
    nn.functional.cross_entropy(model(x), y).backward()
    optimizer.step()
"""


def test_a_parameter_replaced_in_a_helper_called_after_the_optimizer():
    # NNCF PR 327: the range initialiser assigns a new nn.Parameter to each quantizer's scale after the
    # optimizer took model.parameters(); the finding sits on the assignment in the helper
    found = check(QAT_INIT)
    assert [(f.code, f.span.line) for f in found] == [("PF123", 8)]
    assert "`q.scale` is replaced by a new `nn.Parameter(...)` in `init_quantizer_ranges`" in found[0].message
    assert "line 12 calls on `model`" in found[0].message and "(line 11)" in found[0].message


def test_the_in_place_copy_and_the_early_call_are_silent():
    copied = QAT_INIT.replace("q.scale = nn.Parameter(torch.tensor(stats[name] / 127.0))",
                              "q.scale.data.copy_(torch.tensor(stats[name] / 127.0))")
    assert copied != QAT_INIT and check(copied) == []
    early = QAT_INIT.replace("optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)\n"
                             "init_quantizer_ranges(model, collect(model))\n",
                             "init_quantizer_ranges(model, collect(model))\n"
                             "optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)\n")
    assert early != QAT_INIT and check(early) == []
    other = QAT_INIT.replace("init_quantizer_ranges(model, collect(model))", "init_quantizer_ranges(teacher, {})")
    assert check(other) == []
