"""Executable documentation of PF301-PF304 (PF305's: _pf305_examples.py): programs that must (and must not) fire."""

from __future__ import annotations

import textwrap

_SETUP = textwrap.dedent("""\
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    from torch.utils.data import DataLoader

    device = torch.device("cuda")
    model = nn.Linear(10, 3).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(dataset, batch_size=32, shuffle=True, num_workers=4, pin_memory=True)
""")

# -- PF301 host-sync-in-loop ----------------------------------------------------

PF301_BAD = (
    # a full device synchronisation on every step
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(8, 1).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x.cuda()), y.cuda())
        loss.backward()
        opt.step()
        torch.cuda.synchronize()  # warning: PF301
"""),
    # per-element .item() in an inner loop over the batch
    _SETUP + """
for x, y in loader:
    x, y = x.to(device), y.to(device)
    out = model(x)
    loss = F.cross_entropy(out, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    preds = out.argmax(dim=1)
    correct = 0
    for i in range(len(preds)):
        if preds[i].item() == y[i].item():  # warning: PF301
            correct += 1
""",
    # a comprehension over the batch, every step
    _SETUP + """
for x, y in loader:
    x, y = x.to(device), y.to(device)
    out = model(x)
    loss = F.cross_entropy(out, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    probs = out.softmax(dim=1)
    history = [p.max().item() for p in probs]  # warning: PF301
""",
    # three unguarded syncs per step (note)
    _SETUP + """
for x, y in loader:
    x, y = x.to(device), y.to(device)
    out = model(x)
    loss = F.cross_entropy(out, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    running = loss.item()  # note: PF301
    acc = (out.argmax(1) == y).float().mean().item()
    print(loss)
""",
)

PF301_GOOD = (
    # tricky: the synchronisation closes the step for a stopwatch kept in a meter object, whose
    # tic/toc methods read the clock (no clock call in the loop itself)
    _SETUP + """
meter = StepMeter()
for step, (x, y) in enumerate(loader):
    loss = F.cross_entropy(model(x.to(device)), y.to(device))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    meter.iter_toc()
    meter.log(step, loss.item())
    torch.cuda.synchronize()
    meter.iter_tic()
""",
    # synchronising to time the step
    textwrap.dedent("""
    import time
    import torch

    model = torch.nn.Linear(8, 1).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        t0 = time.perf_counter()
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x.cuda()), y.cuda())
        loss.backward()
        opt.step()
        torch.cuda.synchronize()
        step_time = time.perf_counter() - t0
"""),
    # the idiom: one loss.item() per step and an accuracy count
    _SETUP + """
total, correct = 0.0, 0
for x, y in loader:
    x, y = x.to(device), y.to(device)
    out = model(x)
    loss = F.cross_entropy(out, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    total += loss.item()
    correct += (out.argmax(1) == y).sum().item()
""",
    # per-element loop, but only every N steps
    _SETUP + """
for step, (x, y) in enumerate(loader):
    x, y = x.to(device), y.to(device)
    out = model(x)
    loss = F.cross_entropy(out, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 100 == 0:
        print(loss.item(), [p.item() for p in out[0]], float(loss))
""",
    # once per epoch, after the batch loop
    _SETUP + """
for epoch in range(10):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(loss.item(), float(loss), loss.cpu().numpy())
""",
    # evaluation loop (no training): per-element reads are not in a training step
    _SETUP + """
with torch.no_grad():
    for x, y in loader:
        out = model(x.to(device))
        for i in range(len(out)):
            print(out[i].argmax().item())
""",
    # CPU-only script: .item() does not synchronise anything
    textwrap.dedent("""\
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    model = nn.Linear(10, 3)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        out = model(x)
        loss = F.cross_entropy(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        for i in range(len(out)):
            print(out[i].argmax().item())
"""),
    # per-element loop over Python numbers (not tensors)
    _SETUP + """
for x, y in loader:
    x, y = x.to(device), y.to(device)
    loss = F.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    stats = {"loss": 1.0, "lr": 0.1}
    for k, v in stats.items():
        print(k, float(v))
""",
)

# -- PF302 loop-invariant-transfer ---------------------------------------------

PF302_BAD = (
    # a constant built on the host inside the step and moved there
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(8, 3).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        opt.zero_grad()
        w = torch.tensor([1.0, 2.0, 4.0]).cuda()  # warning: PF302
        loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda(), weight=w)
        loss.backward()
        opt.step()
"""),
    _SETUP + """
class_weights = torch.tensor([1.0, 2.0, 0.5])
for x, y in loader:
    x, y = x.to(device), y.to(device)
    loss = F.cross_entropy(model(x), y, weight=class_weights.to(device))  # warning: PF302
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
""",
    _SETUP + """
def train(model, loader, optimizer):
    mask = torch.ones(10)
    for epoch in range(3):
        for x, y in loader:
            x = x.cuda() * mask.cuda()  # warning: PF302
            loss = F.cross_entropy(model(x), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

train(model, loader, optimizer)
""",
)

PF302_GOOD = (
    # the constant built once, on the device; a batch-sized tensor built per step
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(8, 3).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    w = torch.tensor([1.0, 2.0, 4.0], device="cuda")
    for x, y in loader:
        opt.zero_grad()
        ones = torch.ones(x.size(0), 1).cuda()
        loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda(), weight=w) + ones.mean()
        loss.backward()
        opt.step()
"""),
    # moved once before the loop
    _SETUP + """
class_weights = torch.tensor([1.0, 2.0, 0.5]).to(device)
for x, y in loader:
    x, y = x.to(device), y.to(device)
    loss = F.cross_entropy(model(x), y, weight=class_weights.to(device))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
""",
    # rebinding a fresh batch every step
    _SETUP + """
for x, y in loader:
    x = x.to(device)
    y = y.to(device)
    loss = F.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
""",
    # deliberate offload: EMA weights live on the CPU between uses
    _SETUP + """
ema_w = torch.zeros(10, 3).cpu()
for x, y in loader:
    x, y = x.to(device), y.to(device)
    loss = F.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    w = ema_w.to(device)
    ema_w = w.to("cpu")
""",
    # a module: .to is in place and a no-op once moved
    _SETUP + """
ema = nn.Linear(10, 3)
for x, y in loader:
    x, y = x.to(device), y.to(device)
    loss = F.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    ema.to("cuda")
    ema.to("cpu")
""",
    # refilled in place every step: not invariant
    _SETUP + """
noise = torch.empty(32, 10)
for x, y in loader:
    noise.normal_()
    x = x.to(device) + noise.to(device)
    loss = F.cross_entropy(model(x), y.to(device))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
""",
    # a dtype cast, not a transfer; and a tensor created on the device
    _SETUP + """
scale = torch.ones(3, device=device)
half = torch.ones(3)
for x, y in loader:
    out = model(x.to(device)) * scale.to(device) + half.to(torch.float16)
    loss = F.cross_entropy(out, y.to(device))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
""",
    # tricky: per-epoch validation accumulators, built fresh after each epoch's batch loop (they
    # are summed into in place, so each epoch needs new zeros): once per epoch, not per step
    _SETUP + """
for epoch in range(40):
    model.train()
    for x, y in loader:
        loss = F.cross_entropy(model(x.to(device)), y.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    sums = {"nll": torch.tensor([0.0]).cuda(), "hits": torch.tensor([0.0]).cuda()}
    count = torch.tensor([0.0]).cuda()
    with torch.no_grad():
        for x, y in val_loader:
            out = model(x.to(device))
            sums["nll"] += F.cross_entropy(out, y.to(device), reduction="sum")
            sums["hits"] += (out.argmax(1) == y.to(device)).sum()
            count += len(y)
    print({k: (v / count).item() for k, v in sums.items()})
""",
)

# -- PF303 discarded-tensor-to ---------------------------------------------------

PF303_BAD = (
    _SETUP + """
for x, y in loader:
    x.to(device)  # warning: PF303
    y.to(device)  # warning: PF303
    loss = F.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
""",
    _SETUP + """
def train():
    weights = torch.tensor([1.0, 2.0, 0.5])
    weights.cuda()  # warning: PF303
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = F.cross_entropy(model(x), y, weight=weights)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

train()
""",
)

PF303_GOOD = (
    # a module: .to() is in place
    _SETUP + """
model.to(device)
model.half()
for x, y in loader:
    x, y = x.to(device), y.to(device)
    loss = F.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
""",
    # the result is used
    _SETUP + """
for x, y in loader:
    x = x.to(device)
    loss = F.cross_entropy(model(x), y.to(device))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
""",
    # a Hugging Face BatchEncoding moves in place; a custom collate_fn may build one
    _SETUP + """
hf_loader = DataLoader(dataset, batch_size=8, collate_fn=collate)
for batch in hf_loader:
    batch.to(device)
    loss = model(**batch).loss
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
""",
    # an unknown object (metrics, PyG Data): cannot tell it is a tensor
    _SETUP + """
def train(metric, graph):
    metric.to(device)
    graph.cuda()
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

train(metric, graph)
""",
    # a custom nn.Module subclass moved as a statement
    _SETUP + """
class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)

head = Head()
head.cuda()
for x, y in loader:
    x, y = x.to(device), y.to(device)
    loss = F.cross_entropy(head(model(x)), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
""",
)

# -- PF304 loader-starvation ------------------------------------------------------

_PF304_MODEL = textwrap.dedent("""\
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    from torch.utils.data import DataLoader

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Linear(10, 3).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
""")

_PF304_LOOP = """
for x, y in train_loader:
    x, y = x.to(device), y.to(device)
    loss = F.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
"""

PF304_BAD = (
    _PF304_MODEL + "train_loader = DataLoader(dataset, batch_size=64, shuffle=True)  # note: PF304\n"
    + _PF304_LOOP,
    _PF304_MODEL + "train_loader = DataLoader(dataset, batch_size=64, num_workers=0, "
                   "pin_memory=True)  # note: PF304\n" + _PF304_LOOP,
)

PF304_GOOD = (
    _PF304_MODEL + "train_loader = DataLoader(dataset, batch_size=64, shuffle=True, "
                   "num_workers=8, pin_memory=True)\n" + _PF304_LOOP,
    # chosen from the command line
    _PF304_MODEL + "train_loader = DataLoader(dataset, batch_size=64, num_workers=args.workers, "
                   "pin_memory=args.pin)\n" + _PF304_LOOP,
    # CPU only: "cuda" appears only in a comment
    textwrap.dedent("""\
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    from torch.utils.data import DataLoader

    # TODO: run this on cuda later
    device = torch.device("cpu")
    model = nn.Linear(10, 3).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    train_loader = DataLoader(dataset, batch_size=64, shuffle=True)
""") + _PF304_LOOP,
    # an in-memory TensorDataset
    _PF304_MODEL + "ds = torch.utils.data.TensorDataset(xs, ys)\n"
                   "train_loader = DataLoader(ds, batch_size=64, shuffle=True)\n" + _PF304_LOOP,
    # Accelerate owns the prepared loader
    textwrap.dedent("""\
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    from accelerate import Accelerator
    from torch.utils.data import DataLoader

    accelerator = Accelerator()
    model = nn.Linear(10, 3).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(dataset, batch_size=64, shuffle=True)
    model, optimizer, train_loader = accelerator.prepare(model, optimizer, loader)
    for x, y in train_loader:
        loss = F.cross_entropy(model(x.to(accelerator.device)), y)
        optimizer.zero_grad()
        accelerator.backward(loss)
        optimizer.step()
"""),
    # options forwarded as **kwargs
    _PF304_MODEL + "train_loader = DataLoader(dataset, batch_size=64, **loader_kwargs)\n"
    + _PF304_LOOP,
)
