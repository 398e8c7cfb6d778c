"""est46 device check: torchtune's LoRA rows under FSDP1 (held-out-22), one process as rank 0.

The Llama-2 layouts torchtune's lora_finetune_distributed ran at 0217d44, in plain torch: bf16 frozen
base, LoRA (rank, alpha 2 x rank, dropout 0.05) on the named projections in bf16, FSDP1 FULL_SHARD with
the LoRA Linears wrapped apart from the decoder layers (lora_fsdp_wrap_policy), no mixed precision,
activation checkpointing per layer by torch's wrapper when CKPT=1, AdamW, fp32 logits, the shifted
CrossEntropyLoss, the loop's logits held through backward. A fake process group of WORLD ranks (the
collectives do nothing). Env: MODEL (7b|70b), WORLD, CKPT, SEQ, BATCH. Per phase of three steps:
max_memory_allocated (reset before each phase); writes $OUT/fsdp_lora_peaks.json. Run by est46 on one
NVIDIA H200 (torch 2.11.0+cu130): ``calibration/data/est46_fsdp_lora_peaks_h200.json``, pinned by
``tests/test_torchtune_loop.py``.
``DEV=cpu ... --small``: a CPU dry run of the logic.
"""

from __future__ import annotations

import json
import os
import sys
import time

GB = 1e9
LAYOUTS = {
    "7b": dict(vocab=32000, d=4096, heads=32, kv=32, ffn=11008, layers=32, rank=8, targets=("q", "v")),
    "70b": dict(vocab=32000, d=8192, heads=64, kv=8, ffn=28672, layers=80, rank=16, targets=("q", "k", "v")),
    "small": dict(vocab=512, d=256, heads=4, kv=2, ffn=688, layers=4, rank=8, targets=("q", "k", "v")),
}


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

    F = nn.functional
    name = "small" if "--small" in sys.argv else os.environ.get("MODEL", "7b")
    cfg = dict(LAYOUTS[name])
    cfg.update(batch=int(os.environ.get("BATCH", "4")), seq=int(os.environ.get("SEQ", "2048")),
               ckpt=os.environ.get("CKPT", "1") == "1", model=name)
    if name == "small":
        cfg.update(batch=2, seq=128)
    world = int(os.environ.get("WORLD", "2"))
    cuda = os.environ.get("DEV", "cuda") == "cuda"
    dev = torch.device("cuda", 0) if cuda else torch.device("cpu")
    if cuda:
        torch.cuda.set_device(dev)
    dist.init_process_group("fake", store=FakeStore(), rank=0, world_size=world)

    def mem(fn: str) -> int:
        return int(getattr(torch.cuda, fn)()) if cuda else 0

    def sync_reset() -> None:
        if cuda:
            torch.cuda.synchronize()
            torch.cuda.reset_peak_memory_stats()

    class RMSNorm(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.scale = nn.Parameter(torch.ones(d), requires_grad=False)

        def forward(self, x):
            xf = x.float()
            return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6)).type_as(x) * self.scale

    class LoRALinear(nn.Module):
        def __init__(self, i, o, r):
            super().__init__()
            self.weight = nn.Parameter(torch.empty(o, i), requires_grad=False)
            self.dropout = nn.Dropout(0.05)
            self.lora_a = nn.Linear(i, r, bias=False)
            self.lora_b = nn.Linear(r, o, bias=False)
            self.scaling = 2.0

        def forward(self, x):
            return F.linear(x, self.weight) + self.lora_b(self.lora_a(self.dropout(x))) * self.scaling

    def proj(i, o, lora):
        if lora:
            return LoRALinear(i, o, cfg["rank"])
        m = nn.Linear(i, o, bias=False)
        m.weight.requires_grad_(False)
        return m

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            d, h, kv = cfg["d"], cfg["heads"], cfg["kv"]
            hd = d // h
            t = cfg["targets"]
            self.h, self.kv, self.hd = h, kv, hd
            self.sa_norm = RMSNorm(d)
            self.q = proj(d, d, "q" in t)
            self.k = proj(d, kv * hd, "k" in t)
            self.v = proj(d, kv * hd, "v" in t)
            self.o = proj(d, d, "o" in t)
            self.mlp_norm = RMSNorm(d)
            self.w1 = proj(d, cfg["ffn"], False)
            self.w3 = proj(d, cfg["ffn"], False)
            self.w2 = proj(cfg["ffn"], d, False)

        def forward(self, x):
            b, s, d = x.shape
            y = self.sa_norm(x)
            q = self.q(y).view(b, s, self.h, self.hd)
            k = self.k(y).view(b, s, self.kv, 1, self.hd).expand(b, s, self.kv, self.h // self.kv, self.hd)
            v = self.v(y).view(b, s, self.kv, 1, self.hd).expand(b, s, self.kv, self.h // self.kv, self.hd)
            k = k.reshape(b, s, self.h, self.hd)
            v = v.reshape(b, s, self.h, self.hd)
            a = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2),
                                               is_causal=True)
            x = x + self.o(a.transpose(1, 2).reshape(b, s, d))
            y = self.mlp_norm(x)
            return x + self.w2(F.silu(self.w1(y)) * self.w3(y))

    class Decoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.tok = nn.Embedding(cfg["vocab"], cfg["d"])
            self.tok.weight.requires_grad_(False)
            self.layers = nn.ModuleList(Layer() for _ in range(cfg["layers"]))
            self.norm = RMSNorm(cfg["d"])
            self.output = proj(cfg["d"], cfg["vocab"], False)

        def forward(self, tokens):
            h = self.tok(tokens)
            for layer in self.layers:
                h = layer(h)
            return self.output(self.norm(h)).float()

    torch.set_default_dtype(torch.bfloat16)
    with torch.device("meta"):
        model = Decoder()
    torch.set_default_dtype(torch.float32)
    n_params = sum(p.numel() for p in model.parameters())
    n_train = sum(p.numel() for p in model.parameters() if p.requires_grad)

    def init(module):
        module.to_empty(device=dev, recurse=False)
        with torch.no_grad():
            for p in module.parameters(recurse=False):
                p.normal_(0.0, 0.02)

    def lora_policy(module, recurse, nonwrapped_numel):
        if recurse:
            return True
        return isinstance(module, Layer) or (isinstance(module, nn.Linear) and module.weight.requires_grad)

    out = {"torch": torch.__version__, "gpu": torch.cuda.get_device_name(0) if cuda else "cpu",
           "world_size": world, "config": cfg, "params": n_params, "trainable": n_train, "steps": []}
    model = FSDP(model, auto_wrap_policy=lora_policy, sharding_strategy=ShardingStrategy.FULL_SHARD,
                 device_id=dev, mixed_precision=None, sync_module_states=False, param_init_fn=init)
    if cfg["ckpt"]:
        apply_activation_checkpointing(model, auto_wrap_policy=ModuleWrapPolicy({Layer}))
    out["after_wrap_allocated"] = mem("memory_allocated")
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=3e-4)
    loss_fn = nn.CrossEntropyLoss()
    g = torch.Generator(device="cpu").manual_seed(0)
    path = os.path.join(os.environ.get("OUT", "."), "fsdp_lora_peaks.json")
    for step in range(3):
        rec = {}
        tokens = torch.randint(0, cfg["vocab"], (cfg["batch"], cfg["seq"]), generator=g).to(dev)
        t0 = time.perf_counter()
        sync_reset()
        logits = model(tokens)
        logits = logits[..., :-1, :].contiguous()
        lab = tokens[..., 1:].contiguous()
        logits = logits.transpose(1, 2)
        loss = loss_fn(logits, lab)
        rec["forward_peak"] = mem("max_memory_allocated")
        sync_reset()
        loss.backward()
        rec["backward_peak"] = mem("max_memory_allocated")
        rec["backward_end"] = mem("memory_allocated")
        del logits, loss
        sync_reset()
        opt.step()
        opt.zero_grad(set_to_none=True)
        rec["step_peak"] = mem("max_memory_allocated")
        rec["step_end"] = mem("memory_allocated")
        rec["max_reserved"] = mem("max_memory_reserved")
        rec["seconds"] = round(time.perf_counter() - t0, 2)
        out["steps"].append(rec)
        print(name, world, cfg["seq"], cfg["ckpt"], step,
              {k: (round(v / GB, 3) if isinstance(v, int) else v) for k, v in rec.items()}, flush=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps(out, indent=1))
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
