"""What the reference Swin Transformer saves for backward under apex O1, per image (est85).

held-out-17's Swin training logs and held-out-38's MS-AMP Swin-giant row are under (Swin-T -18.2%, Swin-S -8.2%, in
``max_memory_allocated``), and est83 left "the autocast vision deficit" open: is it in the saved activations? This
script runs the reference model itself -- microsoft/Swin-Transformer ``models/swin_transformer.py`` at b05e621, the
code of both logs (read from a local clone with ``git show``; nothing of it is stored here) -- on the CPU, and counts
with ``torch.autograd.graph.saved_tensors_hooks`` the distinct storages autograd keeps for backward after the forward
of one 224 x 224 image, leaving out the parameters and their cached half casts.

apex O1 (the logs' ``--amp-opt-level O1``, main.py line 61 at b05e621) is emulated as apex's lists patch the calls
(NVIDIA/apex 59978d5e ``apex/amp/lists/functional_overrides.py`` lines 18-26 ``FP16_FUNCS`` ``conv2d`` / ``linear``,
lines 29-43 ``FP32_FUNCS`` ``softmax`` / ``gelu`` / ``layer_norm``; ``tensor_overrides.py`` line 15 ``__matmul__``):
the arguments of ``F.linear``, ``F.conv2d`` and ``Tensor.__matmul__`` cast to fp16 (a leaf weight's cast cached, as
``apex/amp/utils.py`` ``cached_cast`` does), those of ``F.softmax``, ``F.gelu`` and ``F.layer_norm`` to fp32. The
same run with the softmax keeping its input too is torch before 1.11 (``_softmax_backward_data`` read the input; the
estimator's est20 term, ``softmax_input``).

timm 0.4.12's ``DropPath`` (stochastic depth; the configs' ``DROP_PATH_RATE`` 0.2 / 0.3) is replaced by a stand-in
that does the same arithmetic: the branch times a per-sample (B, 1, 1) 0/1 tensor that needs no gradient, so autograd
keeps only that tensor (``mul`` saves ``self`` only when ``other`` requires grad).

Second, the same model through two whole training steps at the logs' batches on fake tensors (no memory), under
``torch.distributed._tools.mem_tracker.MemTracker`` (``preflight.guard.tracking``, as ``calibration/reference.py``):
the peak of the tensors that exist, by category (what ``torch.cuda.max_memory_allocated`` reads, less the CUDA
kernels' workspaces and the allocator's rounding).

    python -m calibration.est85_swin_saved --swin-repo PATH   # writes calibration/data/est85_swin_saved.json
"""

from __future__ import annotations

import argparse
import collections.abc
import contextlib
import json
import subprocess
import sys
import types
from pathlib import Path
from typing import Any, Dict, Iterator

import torch
import torch.nn.functional as F
from torch import nn

OUT = Path(__file__).resolve().parent / "data" / "est85_swin_saved.json"
COMMIT = "b05e621"
MODELS = {
    # configs/swin_tiny_patch4_window7_224.yaml and swin_small_patch4_window7_224.yaml at b05e621
    "Swin-T": dict(embed_dim=96, depths=[2, 2, 6, 2], num_heads=[3, 6, 12, 24], drop_path_rate=0.2),
    "Swin-S": dict(embed_dim=96, depths=[2, 2, 18, 2], num_heads=[3, 6, 12, 24], drop_path_rate=0.3),
}


class _DropPath(nn.Module):
    """Stochastic depth: the branch times a per-sample 0/1 mask scaled by 1 / keep (timm 0.4.12's arithmetic)."""

    def __init__(self, drop_prob: float = 0.0) -> None:
        super().__init__()
        self.drop_prob = drop_prob

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not self.drop_prob or not self.training:
            return x
        keep = 1.0 - self.drop_prob
        mask = (keep + torch.rand((x.shape[0],) + (1,) * (x.ndim - 1), dtype=x.dtype)).floor_()
        return x.div(keep) * mask


def _timm_stand_in() -> None:
    layers = types.ModuleType("timm.models.layers")
    layers.DropPath = _DropPath  # type: ignore[attr-defined]
    layers.to_2tuple = lambda x: tuple(x) if isinstance(x, collections.abc.Iterable) else (x, x)  # type: ignore
    layers.trunc_normal_ = lambda t, std=1.0: nn.init.normal_(t, std=std)  # type: ignore[attr-defined]
    for name, mod in (("timm", types.ModuleType("timm")), ("timm.models", types.ModuleType("timm.models")),
                      ("timm.models.layers", layers)):
        sys.modules[name] = mod


def git_show(repo: str, commit: str, path: str) -> bytes:
    """The bytes of ``path`` at ``commit`` in a local clone (nothing of it is stored here)."""
    return subprocess.run(["git", "-C", repo, "show", f"{commit}:{path}"], check=True, capture_output=True).stdout


def exec_module(name: str, repo: str, commit: str, path: str, package: str = "") -> types.ModuleType:
    """Runs ``path`` at ``commit`` as module ``name`` (registered in ``sys.modules``; ``package`` lets its
    relative imports find modules registered before it): the pinned reference code, run as it is."""
    mod = types.ModuleType(name)
    mod.__package__ = package
    sys.modules[name] = mod
    exec(compile(git_show(repo, commit, path).decode(), f"{path}@{commit}", "exec"), mod.__dict__)
    return mod


def _reference(repo: str) -> Any:
    _timm_stand_in()
    return exec_module("swin_transformer", repo, COMMIT, "models/swin_transformer.py")


class _SoftmaxKeepsInput(torch.autograd.Function):
    """softmax whose backward reads its input as well as its output (torch before 1.11)."""

    @staticmethod
    def forward(ctx: Any, x: torch.Tensor, dim: int) -> torch.Tensor:  # type: ignore[override]
        y = torch.softmax(x, dim)
        ctx.save_for_backward(x, y)
        ctx.dim = dim
        return y

    @staticmethod
    def backward(ctx: Any, g: torch.Tensor) -> Any:  # type: ignore[override]
        _, y = ctx.saved_tensors
        return y * (g - (g * y).sum(ctx.dim, keepdim=True)), None


@contextlib.contextmanager
def apex_o1(model: nn.Module) -> Iterator[Dict[int, torch.Tensor]]:
    """apex O1's casts while the block runs; yields the cache of the parameters' fp16 casts (by id)."""
    params = {id(p) for p in model.parameters()}
    cache: Dict[int, torch.Tensor] = {}

    def half(x: Any) -> Any:
        if not (torch.is_tensor(x) and x.is_floating_point()) or x.dtype == torch.half:
            return x
        if id(x) in params:
            if id(x) not in cache:
                cache[id(x)] = x.half()
            return cache[id(x)]
        return x.half()

    def full(x: Any) -> Any:
        return x.float() if torch.is_tensor(x) and x.is_floating_point() else x

    orig = F.linear, F.conv2d, torch.Tensor.__matmul__, F.softmax, F.layer_norm, F.gelu
    lin, conv, matmul, softmax, layer_norm, gelu = orig
    keeps_input = getattr(model, "_softmax_keeps_input", False)
    F.linear = lambda x, w, b=None: lin(half(x), half(w), half(b))
    F.conv2d = lambda x, w, b=None, *a, **k: conv(half(x), half(w), half(b), *a, **k)
    torch.Tensor.__matmul__ = lambda a, b: matmul(half(a), half(b))  # type: ignore[method-assign]
    F.softmax = lambda x, dim=None, _stacklevel=3, dtype=None: (  # type: ignore[assignment]
        _SoftmaxKeepsInput.apply(full(x), dim) if keeps_input else softmax(full(x), dim))
    F.layer_norm = lambda x, shape, w=None, b=None, eps=1e-5: layer_norm(full(x), shape, full(w), full(b), eps)
    F.gelu = lambda x, approximate="none": gelu(full(x))  # type: ignore[assignment]
    try:
        yield cache
    finally:
        F.linear, F.conv2d, torch.Tensor.__matmul__, F.softmax, F.layer_norm, F.gelu = orig  # type: ignore


def saved_bytes(ref: Any, cfg: Dict[str, Any], softmax_keeps_input: bool, batch: int = 1) -> int:
    """Bytes of the distinct storages saved for backward by one forward, parameters and their casts left out."""
    torch.manual_seed(0)
    model = ref.SwinTransformer(img_size=224, **cfg).train()
    model._softmax_keeps_input = softmax_keeps_input
    params = {p.data_ptr() for p in model.parameters()}
    kept: Dict[int, int] = {}
    with apex_o1(model) as cache:
        def pack(t: torch.Tensor) -> torch.Tensor:
            s = t.untyped_storage()
            if s.data_ptr() not in params and all(s.data_ptr() != c.data_ptr() for c in cache.values()):
                kept[s.data_ptr()] = s.nbytes()
            return t

        with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            model(torch.randn(batch, 3, 224, 224))
    return sum(kept.values())


def step_peak(ref: Any, cfg: Dict[str, Any], softmax_keeps_input: bool, batch: int) -> Dict[str, int]:
    """Tensor bytes at the peak of a whole step at ``batch`` (main.py's order: forward and the mixup loss, zero_grad,
    backward, AdamW's step; two steps, the second's peak kept), by MemTracker category, on fake tensors."""
    from torch._subclasses.fake_tensor import FakeTensorMode

    from preflight.guard.tracking import FakeSwap, FrozenAwareMemTracker, reset_peak, split

    torch.manual_seed(0)
    model = ref.SwinTransformer(img_size=224, **cfg).train()
    model._softmax_keeps_input = softmax_keeps_input
    fake = FakeTensorMode()
    best: Dict[str, int] = {"total": -1}
    with FakeSwap(model, fake, torch.device("cpu")), fake:
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, foreach=False)
        images, targets = torch.randn(batch, 3, 224, 224), torch.randn(batch, 1000).softmax(-1)
        mt = FrozenAwareMemTracker()
        mt.track_external(model, optimizer, images, targets)
        with mt:
            for _ in range(2):
                mt.reset_mod_stats()
                reset_peak(mt)
                with apex_o1(model):
                    out = model(images)
                    # timm's SoftTargetCrossEntropy (mixup targets), the loss in fp32
                    loss = torch.sum(-targets * F.log_softmax(out.float(), dim=-1), dim=-1).mean()
                optimizer.zero_grad(set_to_none=False)
                loss.backward()
                optimizer.step()
                peak = split(mt.get_tracker_snapshot("peak"))
                best = peak if peak["total"] > best["total"] else best
    return best


def write_json(result: Dict[str, Any], out: Path = OUT) -> None:
    """Write a measurement's result to ``out`` (and print it), as the calibration data files are kept."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result, indent=1), flush=True)


def main(argv: Any = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--swin-repo", required=True, help="a clone of microsoft/Swin-Transformer holding b05e621")
    args = ap.parse_args(argv)
    ref = _reference(args.swin_repo)
    result: Dict[str, Any] = {"torch": torch.__version__, "reference": f"microsoft/Swin-Transformer {COMMIT}",
                              "image": 224, "amp": "apex O1 emulated (NVIDIA/apex 59978d5e lists)",
                              "bytes_per_image": {}}
    for name, cfg in MODELS.items():
        result["bytes_per_image"][name] = {
            "torch>=1.11": saved_bytes(ref, cfg, False),
            "torch<1.11": saved_bytes(ref, cfg, True),
            "torch>=1.11, batch 2 / 2": saved_bytes(ref, cfg, False, batch=2) / 2,
        }
        write_json(result)
    # the logs' runs: Swin-T at 128 images per GPU on torch 1.10, Swin-S at 48 on torch 1.11 (the rows' inputs)
    result["step_peak_bytes"] = {}
    for key, cfg, keeps, batch in (("Swin-T, batch 128, torch<1.11", MODELS["Swin-T"], True, 128),
                                   ("Swin-S, batch 48, torch>=1.11", MODELS["Swin-S"], False, 48)):
        result["step_peak_bytes"][key] = step_peak(ref, cfg, keeps, batch)
        write_json(result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
