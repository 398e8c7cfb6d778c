"""PF223 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# error: PF223`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

import textwrap

PF223_BAD = [
    # mrpro issue 984's shape: predictions copied back asynchronously and read at once
    textwrap.dedent("""
    import numpy as np
    import torch


    @torch.no_grad()
    def evaluate(model, loader):
        masks = []
        for images, targets in loader:
            logits = model(images.cuda(non_blocking=True))
            pred = logits.argmax(dim=1).to("cpu", non_blocking=True)  # error: PF223
            masks.append(pred.numpy().astype(np.uint8))
        return np.concatenate(masks)
"""),
    # a scalar read through float()
    textwrap.dedent("""
    import torch


    def log_loss(loss, history):
        value = loss.detach().to(device="cpu", non_blocking=True)  # error: PF223
        history.append(float(value))
"""),
    # hunt46: two non-blocking host copies read together: nothing waits
    textwrap.dedent("""
    import torch


    def dispatch(num_tokens_per_expert, num_tokens_per_expert_group, ep_degree):
        # both copies non-blocking: nothing waits before the reads
        input_splits = (
            num_tokens_per_expert.view(ep_degree, -1)  # error: PF223
            .sum(dim=1)
            .to(torch.device("cpu"), non_blocking=True)
        )
        output_splits = (
            num_tokens_per_expert_group.view(ep_degree, -1)  # error: PF223
            .sum(dim=1)
            .to(torch.device("cpu"), non_blocking=True)
        )
        return input_splits.tolist(), output_splits.tolist()
"""),
]

PF223_GOOD = [
    # the fix: a synchronous copy; the host-to-device copies stay non-blocking
    textwrap.dedent("""
    import numpy as np
    import torch


    @torch.no_grad()
    def evaluate(model, loader):
        masks = []
        for images, targets in loader:
            logits = model(images.cuda(non_blocking=True))
            pred = logits.argmax(dim=1).to("cpu")
            masks.append(pred.numpy().astype(np.uint8))
        return np.concatenate(masks)
"""),
    # tricky-correct: the copies are started early and the stream is synchronised before any read
    textwrap.dedent("""
    import torch


    def gather_to_host(tensors):
        host = [t.to("cpu", non_blocking=True) for t in tensors]
        first = tensors[0].to("cpu", non_blocking=True)
        torch.cuda.synchronize()
        return first.numpy(), [h.numpy() for h in host]
"""),
    # tricky-correct: an event waited on between the copy and the read
    textwrap.dedent("""
    import torch


    def fetch(x):
        out = x.to(torch.device("cpu"), non_blocking=True)
        done = torch.cuda.Event()
        done.record()
        done.synchronize()
        return out.tolist()
"""),
    # hunt46, torchao/torchtitan MoE all-to-all: a blocking host copy between the copy and the read
    textwrap.dedent("""
    import torch


    def dispatch(num_tokens_per_expert, num_tokens_per_expert_group, ep_degree):
        # torchao/torchtitan MoE expert parallel (shape): the blocking copy of output_splits waits for the
        # stream, so the non-blocking copy of input_splits queued before it has landed when it is read
        input_splits = (
            num_tokens_per_expert.view(ep_degree, -1)
            .sum(dim=1)
            .to(torch.device("cpu"), non_blocking=True)
        )
        output_splits = (
            num_tokens_per_expert_group.view(ep_degree, -1)
            .sum(dim=1)
            .to(torch.device("cpu"), non_blocking=False)
        )
        return input_splits.tolist(), output_splits.tolist()
"""),
]
