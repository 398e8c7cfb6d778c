"""Facts of the target GPU the estimate reads (split from :mod:`preflight.estimate.model`):
its generation (Hopper or later, Blackwell: cuBLAS workspace sizes) and its resident threads, which
size what a running job holds outside the allocator with lazy module loading (est30)."""

from __future__ import annotations

import re
from typing import Any, Optional

from preflight.estimate import constants as C


def blackwell(gpu: Any) -> Optional[bool]:
    """Whether a catalog GPU is NVIDIA Blackwell (B100/B200/GB200, RTX 50: 32 MiB cuBLAS
    workspaces only from torch 2.11, see ``constants.BLACKWELL_32MIB_TORCH``); None for no GPU."""
    if gpu is None:
        return None
    name = str(getattr(gpu, "name", "")).lower()
    return str(getattr(gpu, "vendor", "nvidia")) == "nvidia" and re.match(C.BLACKWELL_NAME, name) is not None


def resident_threads(gpu: Any) -> Optional[int]:
    """SMs x the most threads an SM keeps resident, for a catalog NVIDIA GPU whose SM count is in
    ``constants.GPU_SMS``; None otherwise (no GPU, another vendor, an unlisted model)."""
    if gpu is None or str(getattr(gpu, "vendor", "nvidia")) != "nvidia":
        return None
    name = str(getattr(gpu, "name", "")).lower() + "-"
    for pattern, sms, per_sm in C.GPU_SMS:
        if re.match(pattern, name):
            return sms * per_sm
    return None


def lazy_context(threads: Optional[int]) -> tuple[int, tuple[int, int]]:
    """(point, (low, high)) of what a running job holds outside the allocator with lazy loading
    (est30): ``CONTEXT_LAZY_BASE + CONTEXT_LAZY_PER_THREAD x threads``, the interval
    ``CONTEXT_LAZY_REL`` around it. Unknown GPU: the flat figure and range of before est30."""
    if not threads:
        return int(C.CUDA_CONTEXT_BYTES), (int(C.CUDA_CONTEXT_RANGE[0]), int(C.CUDA_CONTEXT_RANGE[1]))
    point = int(C.CONTEXT_LAZY_BASE + C.CONTEXT_LAZY_PER_THREAD * threads)
    return point, (int(point * C.CONTEXT_LAZY_REL[0]), int(point * C.CONTEXT_LAZY_REL[1]))


def hopper_or_later(gpu: Any) -> Optional[bool]:
    """Whether a catalog GPU is NVIDIA Hopper or later (its cuBLAS workspaces are 32 MiB);
    None for no GPU."""
    if gpu is None:
        return None
    name = str(getattr(gpu, "name", "")).lower()
    return str(getattr(gpu, "vendor", "nvidia")) == "nvidia" and re.match(C.HOPPER_NAME, name) is not None


def cuda_build_before_lazy(torch_version: Optional[str]) -> bool:
    """Whether a torch version's local tag names a CUDA runtime that has no lazy module loading
    (est71): ``1.13.1+cu116`` is a CUDA 11.6 build, and "Lazy Loading ... was introduced in CUDA
    11.7" (CUDA C Programming Guide, "Lazy Loading"; ``constants.LAZY_MIN_CUDA``), so every kernel
    is loaded at start-up whatever the driver. False without a ``+cuNNN`` tag (``+cpu``, none)."""
    m = re.search(r"\+cu(\d+)(\d)\b", str(torch_version or ""))
    return m is not None and (int(m.group(1)), int(m.group(2))) < C.LAZY_MIN_CUDA
