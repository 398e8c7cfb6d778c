"""The checks an estimate input passes before the cost model reads it: every named choice is
one the model knows (mode, precision, optimizer, attention, sharding, loss, quantization, ...)
and every count is at least one; :class:`~preflight.estimate.inputs.InputError` otherwise,
with the accepted values. Called by :func:`preflight.estimate.inputs.input_from_plan` after
the plan's facts and the overrides are in."""

from __future__ import annotations

from preflight.estimate.fsdp_wrap import FSDP_WRAPS
from preflight.estimate.inputs import (
    AMP_IMPLS,
    ATTENTIONS,
    FSDP_MODES,
    LOAD_PLACEMENTS,
    LOSSES,
    MODEL_IMPLS,
    MODES,
    OPTIMIZERS,
    PRECISIONS,
    QUANTS,
    EstimateInput,
    InputError,
    normalise_optimizer,
)
from preflight.estimate.position_tables import POSITION_TABLES


def check_values(inp: EstimateInput) -> None:
    """Raise :class:`InputError` for a value of ``inp`` the cost model cannot use; a known
    alias of an optimizer name is normalised in place."""
    if inp.mode not in MODES:
        raise InputError(f"unknown mode {inp.mode!r} (expected {', '.join(MODES)})")
    if inp.precision not in PRECISIONS:
        raise InputError(f"unknown precision {inp.precision!r} (expected {', '.join(PRECISIONS)})")
    if inp.optimizer not in OPTIMIZERS:
        norm = normalise_optimizer(str(inp.optimizer))
        if norm is None:
            raise InputError(f"unknown optimizer {inp.optimizer!r} (expected {', '.join(OPTIMIZERS)})")
        inp.optimizer = norm
    if inp.attention not in ATTENTIONS:
        raise InputError(f"unknown attention {inp.attention!r} (expected {', '.join(ATTENTIONS)})")
    if inp.zero_stage not in (0, 1, 2, 3):
        raise InputError(f"ZeRO stage must be 0, 1, 2 or 3, got {inp.zero_stage!r}")
    if inp.fsdp_version is not None and inp.fsdp_version not in (1, 2):
        raise InputError(f"unknown FSDP version {inp.fsdp_version!r} (expected 1 or 2)")
    if inp.fsdp_wrap is not None and inp.fsdp_wrap not in FSDP_WRAPS:
        raise InputError(f"unknown FSDP wrap policy {inp.fsdp_wrap!r} (expected {', '.join(FSDP_WRAPS)})")
    if inp.fsdp is not None and inp.fsdp not in FSDP_MODES:
        raise InputError(f"unknown FSDP mode {inp.fsdp!r} (expected {', '.join(FSDP_MODES)})")
    if inp.loss not in LOSSES:
        raise InputError(f"unknown loss implementation {inp.loss!r} (expected {', '.join(LOSSES)})")
    if inp.model_impl not in MODEL_IMPLS:
        raise InputError(f"unknown model implementation {inp.model_impl!r} (expected "
                         f"{', '.join(MODEL_IMPLS)})")
    if inp.position_table is not None and inp.position_table not in POSITION_TABLES:
        raise InputError(f"unknown position table {inp.position_table!r} (expected {', '.join(POSITION_TABLES)})")
    if inp.amp_impl not in AMP_IMPLS:
        raise InputError(f"unknown AMP implementation {inp.amp_impl!r} (expected {', '.join(AMP_IMPLS)})")
    if inp.load_placement is not None and inp.load_placement not in LOAD_PLACEMENTS:
        raise InputError(f"unknown load placement {inp.load_placement!r} (expected "
                         f"{', '.join(LOAD_PLACEMENTS)})")
    if inp.quant is not None and inp.quant not in QUANTS:
        raise InputError(f"unknown quantization {inp.quant!r} (expected {', '.join(QUANTS)})")
    from preflight.estimate.vae_encode import check_vae_dtype

    check_vae_dtype(inp)
    from preflight.estimate.frozen_models import check_frozen

    check_frozen(inp)
    from preflight.estimate.frozen_tables import check_frozen_embeddings

    check_frozen_embeddings(inp)
    from preflight.estimate.trained_embeddings import MODES as TABLE_MODES

    if inp.trained_embeddings is not None and inp.trained_embeddings not in TABLE_MODES:
        raise InputError(f"unknown trained embeddings {inp.trained_embeddings!r} (expected "
                         f"{', '.join(TABLE_MODES)})")
    if inp.truncation is not None and inp.truncation not in ("truncate", "delete"):
        raise InputError(f"unknown truncation {inp.truncation!r} (expected truncate, delete)")
    if inp.longest_sample is not None and int(inp.longest_sample) < 1:
        raise InputError(f"longest sample must be at least 1 token, got {inp.longest_sample!r}")
    for name in ("micro_batch", "world_size", "num_beams", "grad_accum"):
        if getattr(inp, name) < 1:
            raise InputError(f"{name.replace('_', ' ')} must be at least 1, got {getattr(inp, name)!r}")
