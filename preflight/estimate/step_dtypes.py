"""The training step's storage dtypes and shard count (split from
:mod:`preflight.estimate.train_phase`, which re-exports them): bytes per stored base weight and
per non-quantized part under the job's precision and quantization, and how many ranks shard."""

from __future__ import annotations

from preflight.estimate import activations as A
from preflight.estimate import constants as C
from preflight.estimate import quant_autocast as QA
from preflight.estimate.inputs import EstimateInput


def _dtypes(inp: EstimateInput) -> tuple[A.Dtypes, float, float]:
    """(activation dtypes, bytes per stored base weight, bytes of non-quantized parts)."""
    comp = 4 if inp.precision == "fp32" else 2
    weights_16 = inp.precision in ("bf16", "fp16") or inp.weights_bits == 16
    base = 2.0 if weights_16 else 4.0
    if inp.quant:
        # (lit-gpt's mixed precision keeps them fp32 as well: quant_autocast.fp32_parts)
        other = 4.0 if inp.kbit_prepared or QA.fp32_parts(inp) else float(comp)
        base = (C.INT8_BYTES_PER_PARAM if inp.quant == "8bit"
                else C.NF4_DQ_BYTES_PER_PARAM if inp.double_quant else C.NF4_BYTES_PER_PARAM)
        res = 4 if inp.kbit_prepared or comp == 4 else 2
        if QA.kbit_fp32_compute(inp):
            comp = 4   # the block computes in fp32 (quant_autocast.kbit_fp32_compute)
        return A.Dtypes(res=res, comp=comp, weights=base, autocast=False,
                        mask=comp if inp.device == "cpu" else 1, bf16="bf16" in inp.precision), base, other
    res = 4 if base == 4 else 2
    autocast = inp.precision.startswith("amp")
    mask = comp if inp.device == "cpu" else 1
    return A.Dtypes(res=res, comp=comp, weights=base, autocast=autocast, mask=mask,
                    bf16="bf16" in inp.precision), base, base


def _shard_count(inp: EstimateInput) -> int:
    if inp.fsdp == "hybrid":
        return max(1, min(inp.world_size, inp.devices_per_node or 8))
    return max(inp.world_size, 1)
