"""est46 device check: which gradient buffers live at an FSDP1 full fine-tune's peak.

A Llama-2-7B layout written in plain torch (torchtune's llama2_7b at 0217d44: 32 layers, hidden 4096,
MLP 11008, vocab 32000, bf16 weights, no mixed-precision policy, SDPA causal, fp32 logits via
``.float()``, the recipe's shift/contiguous/transpose CrossEntropyLoss), wrapped as torchtune's
full_finetune_distributed wraps it: FSDP1 FULL_SHARD, one unit per decoder layer, activation
checkpointing per layer (apply_activation_checkpointing), torch.optim.AdamW (defaults), batch 4 x 2048,
optimizer.step(); zero_grad(set_to_none=True).

One process stands for rank 0 of ``WORLD`` ranks: a fake process group (torch.testing's FakeStore,
backend "fake") whose collectives do nothing, so every buffer FSDP allocates (gathered units,
reduce-scatter inputs and outputs, sharded gradients) is allocated as on a real rank; only the
values are garbage. Per phase of three steps: torch.cuda.max_memory_allocated (peak reset before
each phase) and memory_allocated after it; writes $OUT/fsdp_full_peaks.json. Run by est46 on one NVIDIA
H200 (torch 2.11.0+cu130) at world sizes 4 and 8 (``WORLD=4``, ``WORLD=8``):
``calibration/data/est46_fsdp_full_peaks_h200.json``, pinned by ``tests/test_torchtune_loop.py``. Unlike
torchtune's loop this script deletes ``logits`` after backward (it holds them through backward only, not
into the next forward). ``DEV=cpu ... --small``: a dry run of the logic on CPU (no memory figures).
"""

from __future__ import annotations

import json
import os
import sys
import time

GB = 1e9


def build(torch, nn, cfg):
    F = nn.functional

    class RMSNorm(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.scale = nn.Parameter(torch.ones(d))

        def forward(self, x):
            xf = x.float()
            return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6)).type_as(x) * self.scale

    class Layer(nn.Module):
        def __init__(self, d, h, f):
            super().__init__()
            self.h = h
            self.sa_norm = RMSNorm(d)
            self.q = nn.Linear(d, d, bias=False)
            self.k = nn.Linear(d, d, bias=False)
            self.v = nn.Linear(d, d, bias=False)
            self.o = nn.Linear(d, d, bias=False)
            self.mlp_norm = RMSNorm(d)
            self.w1 = nn.Linear(d, f, bias=False)
            self.w3 = nn.Linear(d, f, bias=False)
            self.w2 = nn.Linear(f, d, bias=False)

        def forward(self, x):
            b, s, d = x.shape
            y = self.sa_norm(x)
            q = self.q(y).view(b, s, self.h, -1).transpose(1, 2)
            k = self.k(y).view(b, s, self.h, -1).transpose(1, 2)
            v = self.v(y).view(b, s, self.h, -1).transpose(1, 2)
            a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + self.o(a.transpose(1, 2).reshape(b, s, d))
            y = self.mlp_norm(x)
            return x + self.w2(F.silu(self.w1(y)) * self.w3(y))

    class Decoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.tok = nn.Embedding(cfg["vocab"], cfg["d"])
            self.layers = nn.ModuleList(Layer(cfg["d"], cfg["heads"], cfg["ffn"]) for _ in range(cfg["layers"]))
            self.norm = RMSNorm(cfg["d"])
            self.output = nn.Linear(cfg["d"], cfg["vocab"], bias=False)

        def forward(self, tokens):
            h = self.tok(tokens)
            for layer in self.layers:
                h = layer(h)
            return self.output(self.norm(h)).float()

    return Decoder, Layer


def main() -> None:
    import torch
    import torch.distributed as dist
    from torch import nn
    from torch.distributed.algorithms._checkpoint.checkpoint_wrapper import (
        apply_activation_checkpointing,
    )
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
    from torch.distributed.fsdp import ShardingStrategy
    from torch.distributed.fsdp.wrap import ModuleWrapPolicy
    from torch.testing._internal.distributed.fake_pg import FakeStore

    small = "--small" in sys.argv
    cfg = (dict(vocab=512, d=256, heads=4, ffn=688, layers=4, batch=2, seq=128) if small else
           dict(vocab=32000, d=4096, heads=32, ffn=11008, layers=32, batch=4, seq=2048))
    world = int(os.environ.get("WORLD", "4"))
    dev = torch.device("cuda", 0) if os.environ.get("DEV", "cuda") == "cuda" else torch.device("cpu")
    if dev.type == "cuda":
        torch.cuda.set_device(dev)
    else:  # a CPU dry run of the script's logic (no memory figures)
        for name in ("synchronize", "reset_peak_memory_stats"):
            setattr(torch.cuda, name, lambda *a: None)
        for name in ("max_memory_allocated", "memory_allocated", "memory_reserved", "max_memory_reserved"):
            setattr(torch.cuda, name, lambda *a: 0)
        torch.cuda.get_device_name = lambda *a: "cpu"
        torch.cuda.memory_stats = lambda *a: {}
    dist.init_process_group("fake", store=FakeStore(), rank=0, world_size=world)
    Decoder, Layer = build(torch, nn, cfg)
    torch.set_default_dtype(torch.bfloat16)
    with torch.device("meta"):
        model = Decoder()
    torch.set_default_dtype(torch.float32)
    n_params = sum(p.numel() for p in model.parameters())

    def init(module):
        module.to_empty(device=dev, recurse=False)
        with torch.no_grad():
            for p in module.parameters(recurse=False):
                p.normal_(0.0, 0.02)

    out = {"torch": torch.__version__, "gpu": torch.cuda.get_device_name(0), "world_size": world,
           "config": cfg, "params": n_params, "steps": []}
    model = FSDP(model, auto_wrap_policy=ModuleWrapPolicy({Layer}),
                 sharding_strategy=ShardingStrategy.FULL_SHARD, device_id=dev,
                 mixed_precision=None, sync_module_states=False, param_init_fn=init)
    apply_activation_checkpointing(model, auto_wrap_policy=ModuleWrapPolicy({Layer}))
    out["after_wrap_allocated"] = torch.cuda.memory_allocated()
    out["flat_shard_bytes"] = sum(p.numel() * p.element_size() for p in model.parameters())
    opt = torch.optim.AdamW(model.parameters(), lr=2e-5)
    loss_fn = nn.CrossEntropyLoss()
    g = torch.Generator(device="cpu").manual_seed(0)
    for step in range(3):
        rec = {}
        tokens = torch.randint(0, cfg["vocab"], (cfg["batch"], cfg["seq"]), generator=g).to(dev)
        labels = tokens.clone()
        t0 = time.perf_counter()
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        logits = model(tokens)
        logits = logits[..., :-1, :].contiguous()
        lab = labels[..., 1:].contiguous()
        logits = logits.transpose(1, 2)
        loss = loss_fn(logits, lab)
        torch.cuda.synchronize()
        rec["forward_peak"] = torch.cuda.max_memory_allocated()
        rec["forward_end"] = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        loss.backward()
        torch.cuda.synchronize()
        rec["backward_peak"] = torch.cuda.max_memory_allocated()
        rec["backward_end"] = torch.cuda.memory_allocated()
        del logits, loss
        rec["grad_bytes"] = sum(p.grad.numel() * p.grad.element_size() for p in model.parameters()
                                if p.grad is not None)
        rec["after_del_logits"] = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        opt.step()
        torch.cuda.synchronize()
        rec["step_peak"] = torch.cuda.max_memory_allocated()
        rec["step_end"] = torch.cuda.memory_allocated()
        rec["state_bytes"] = sum(t.numel() * t.element_size() for s in opt.state.values()
                                 for t in s.values() if torch.is_tensor(t) and t.dim() > 0)
        opt.zero_grad(set_to_none=True)
        rec["zero_grad_end"] = torch.cuda.memory_allocated()
        rec["reserved_end"] = torch.cuda.memory_reserved()
        rec["max_reserved"] = torch.cuda.max_memory_reserved()
        rec["seconds"] = round(time.perf_counter() - t0, 2)
        out["steps"].append(rec)
        print(step, {k: (round(v / GB, 3) if isinstance(v, int) else v) for k, v in rec.items()}, flush=True)
    stats = torch.cuda.memory_stats()
    out["active_bytes_peak"] = stats.get("active_bytes.all.peak", 0)
    path = os.path.join(os.environ.get("OUT", "."), "fsdp_full_peaks.json")
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(out, indent=1))
    print(json.dumps({k: v for k, v in out.items() if k != "steps"}))
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
