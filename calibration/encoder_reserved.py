"""Allocated and reserved peaks of encoder training steps without a GPU (est17): BERT-large
sequence classification with eager attention and ViT-L/16, the shapes of the public rows that
the estimator under-estimates in reserved memory (the transformers single-GPU guide's BERT-large
rows on a V100, measured with nvidia-smi; pytorch-memory-optim's ViT-L/16 rows, measured with
``max_memory_reserved``).

Each job's step is recorded on fake tensors (``calibration/alloc_trace.py``'s recorder:
parameters and batch, two micro-steps, the optimizer step) and replayed through the simulator
of the CUDA caching allocator (``calibration/caching_allocator.py``, via
``calibration/fixed_length.replay``). ``F.dropout`` is routed to ``torch.native_dropout`` for
the recording, which is what CUDA runs (a bool mask saved for backward); the CPU kernel would
save a float noise tensor instead. The estimator's tensor peak and reserved figure
(``peak_bytes`` less the CUDA context) for the same job are printed beside the simulated ones.

What it shows: whether a row's shortfall is in the tensors the modelling code saves, in the
caching allocator's reserve for this step, or in neither (then in what the recording does not
see: the 2022 stack of the BERT rows, torch 1.11 CUDA kernels and transformers 4.x, the
kernels' own workspaces, or the measurement). No public row is read.

Usage (imports torch and transformers; calibration only)::

    python -m calibration.encoder_reserved --out calibration/data/encoder_reserved.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Dict, List, Tuple

GIB = 1 << 30
BERT_LARGE = dict(hidden_size=1024, num_hidden_layers=24, num_attention_heads=16, intermediate_size=4096,
                  num_labels=2)
VIT_L16 = dict(hidden_size=1024, num_hidden_layers=24, num_attention_heads=16, intermediate_size=4096,
               image_size=224, patch_size=16, num_labels=10, hidden_dropout_prob=0.0,
               attention_probs_dropout_prob=0.0, qkv_bias=True)
#: (name, model, batch, precision, AdamW foreach, zero_grad set_to_none)
JOBS: List[Tuple[str, str, int, str, bool, bool]] = [
    ("bert-large-seqcls-eager-fp32-b4-s512", "bert", 4, "fp32", False, False),
    ("bert-large-seqcls-eager-fp32-b1-s512", "bert", 1, "fp32", False, False),
    ("vit-l16-sdpa-fp32-b64", "vit", 64, "fp32", True, True),
    ("vit-l16-sdpa-bf16-b64", "vit", 64, "bf16", True, True),
]


def _cuda_dropout(input: Any, p: float = 0.5, training: bool = True, inplace: bool = False) -> Any:
    """CUDA's dropout (``at::native_dropout``: a bool mask saved for backward); p 0 returns
    the input (``at::native::dropout``'s shortcut)."""
    import torch

    if not training or p == 0:
        return input
    return torch.native_dropout(input, p, True)[0]


def _model(kind: str, batch: int, precision: str) -> Tuple[Any, Dict[str, Any]]:
    import torch
    import transformers

    if kind == "bert":
        cfg = transformers.AutoConfig.for_model("bert", **BERT_LARGE)
        cfg._attn_implementation = "eager"
        with torch.device("meta"):
            model = transformers.BertForSequenceClassification(cfg)
        ids = torch.randint(0, cfg.vocab_size, (batch, 512))
        batch_t = {"input_ids": ids, "attention_mask": torch.ones_like(ids),
                   "labels": torch.zeros(batch, dtype=torch.long)}
    else:
        cfg = transformers.AutoConfig.for_model("vit", **VIT_L16)
        cfg._attn_implementation = "sdpa"
        with torch.device("meta"):
            model = transformers.ViTForImageClassification(cfg)
        dt = torch.bfloat16 if precision == "bf16" else torch.float32
        batch_t = {"pixel_values": torch.randn(batch, 3, 224, 224, dtype=dt),
                   "labels": torch.zeros(batch, dtype=torch.long)}
    if precision == "bf16":
        model = model.to(torch.bfloat16)
    model.train()
    return model, batch_t


def record(kind: str, batch: int, precision: str, foreach: bool, set_to_none: bool) -> Dict[str, Any]:
    import torch
    import torch.nn.functional as F
    from torch._subclasses.fake_tensor import FakeTensorMode

    from calibration.alloc_trace import _recorder_cls
    from preflight.guard.tracking import FakeSwap, ScalarStub

    device = torch.device("cpu")
    torch.manual_seed(0)
    model, real_batch = _model(kind, batch, precision)
    fake_mode = FakeTensorMode()
    rec = _recorder_cls()()
    out: Dict[str, Any] = {"steps": []}
    saved = F.dropout
    F.dropout = _cuda_dropout
    try:
        with FakeSwap(model, fake_mode, device), fake_mode, ScalarStub():
            optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, foreach=foreach)
            fake_batch = {k: fake_mode.from_tensor(v) for k, v in real_batch.items()}
            with rec:
                for p in model.parameters():
                    rec.see(p)
                for b in model.buffers():
                    rec.see(b)
                for t in fake_batch.values():
                    rec.see(t)
                out["setup"] = rec.events
                for _ in range(2):
                    rec.events = []
                    loss = model(**fake_batch).loss
                    loss.backward()
                    del loss
                    out["steps"].append(rec.events)
                rec.events = []
                optimizer.step()
                optimizer.zero_grad(set_to_none=set_to_none)
                out["optim"] = rec.events
            rec.enabled = False
    finally:
        F.dropout = saved
    return out


def estimator_view(kind: str, batch: int, precision: str, foreach: bool,
                   set_to_none: bool) -> Tuple[float, float, str]:
    """(tensor peak, reserved = peak less the CUDA context) in GiB and the tensor peak's phase,
    the job as the estimator sees it (A100: the kernels torch 2.x picks there)."""
    from preflight import hardware
    from preflight.estimate import EstimateInput, estimate
    from preflight.estimate.arch import from_hf_config

    if kind == "bert":
        config = dict(BERT_LARGE, model_type="bert", architectures=["BertForSequenceClassification"],
                      vocab_size=30522, max_position_embeddings=512)
        kw: Dict[str, Any] = dict(seq_len=512, attention="eager", dropout=0.1, torch_version="2.13")
    else:
        config = dict(VIT_L16, model_type="vit", architectures=["ViTForImageClassification"],
                      num_channels=3)
        kw = dict(image_size=224, attention="sdpa", dropout=0.0, torch_version="2.13")
    inp = EstimateInput(arch=from_hf_config(config, name=kind), mode="train", precision=precision,
                        optimizer="adamw", foreach=foreach, micro_batch=batch,
                        zero_grad_keeps=not set_to_none, **kw)
    gpu = hardware.find("A100-SXM-80GB")
    inp.gpu_bf16 = bool(gpu.bf16)
    est = estimate(inp)
    peak, where = est.tensor_peak()
    assert est.peak_bytes is not None
    reserved = est.peak_bytes - est.phases[est.phase].get("cuda_context", 0)
    return peak / GIB, reserved / GIB, where


def run() -> List[Dict[str, Any]]:
    from calibration.fixed_length import replay

    out = []
    for name, kind, batch, precision, foreach, set_to_none in JOBS:
        sim = replay(record(kind, batch, precision, foreach, set_to_none))
        peak, reserved, where = estimator_view(kind, batch, precision, foreach, set_to_none)
        row = {"name": name, "simulated_allocated_gib": round(sim["peak_allocated"] / GIB, 3),
               "simulated_reserved_gib": round(sim["peak_reserved"] / GIB, 3),
               "estimator_tensor_peak_gib": round(peak, 3), "estimator_peak_phase": where,
               "estimator_reserved_gib": round(reserved, 3)}
        print(json.dumps(row), flush=True)
        out.append(row)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    runs = run()
    if args.out:
        import torch
        import transformers

        data = {"about": __doc__.split("\n\n")[0], "torch": torch.__version__,
                "transformers": transformers.__version__, "runs": runs}
        args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
