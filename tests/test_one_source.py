"""One owner for DeepSpeed stage semantics and one sharding spelling (issue 15, part 3)."""

from __future__ import annotations

import pytest

from preflight.plan import FIELDS, FSDP_MODES, SHARDING_VALUES, sharding_value


def test_every_adapter_uses_the_one_stage_map():
    from preflight.adapters import accelerate, deepspeed, hydra, launchers, lightning

    owner = deepspeed.ZERO_STAGE_SHARDING
    assert accelerate._STAGE is owner and hydra._STAGE is owner and lightning._STAGE is owner
    assert launchers._ZERO is owner


@pytest.mark.parametrize("zero,fsdp,world", [(0, None, 1), (0, None, 8), (1, None, 8), (3, None, 8),
                                             (0, "full", 8), (0, "hybrid", 16), (0, "grad-op", 4)])
def test_estimator_speaks_the_plan_spelling(zero, fsdp, world):
    from preflight.estimate.inputs import EstimateInput

    inp = EstimateInput(zero_stage=zero, fsdp=fsdp, world_size=world)
    assert inp.sharding in SHARDING_VALUES
    assert inp.sharding in FIELDS["dist.sharding"].enum


def test_plan_to_estimate_and_back():
    for value, mode in FSDP_MODES.items():
        assert sharding_value(fsdp=mode) == value
    with pytest.raises(ValueError):
        sharding_value(fsdp="fsdp-full")
