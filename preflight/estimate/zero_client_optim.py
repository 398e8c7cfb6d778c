"""The step temporaries of a client optimizer that DeepSpeed ZeRO wraps.

Under ZeRO the optimizer DeepSpeed steps is either its own, built from the config's
``optimizer`` block (``FusedAdam``, which updates in place through ``multi_tensor_apply``:
no temporaries), or the *client* optimizer the code passes to ``deepspeed.initialize`` ---
the Hugging Face Trainer's ``create_optimizer()`` (``TrainingArguments.optim``) whenever the
DeepSpeed config has no ``optimizer`` block (transformers ``integrations/deepspeed.py``
``deepspeed_optim_sched``: ``DummyOptim`` only with a block, else ``trainer.create_optimizer()``
and ``zero_allow_untested_optimizer``).

DeepSpeed hands that optimizer flat tensors: ZeRO-1/2 replace each parameter group's
parameters with the rank's flat fp32 partition of the group
(``param_group['params'] = [self.single_partition_of_fp32_groups[i]]``, deepspeed
``runtime/zero/stage_1_and_2.py``, v0.9.5 and later); ZeRO-3 steps one flat fp32 sub-group at a
time (``_optimizer_step(sub_group_id)``, ``sub_group_size`` elements, 1e9 by default). A torch
or transformers AdamW therefore makes its per-tensor temporaries at the size of a whole
partition (or sub-group): the foreach path (torch >= 2.0 on CUDA) materialises
``sqrt(exp_avg_sq)`` for the list, which is that one tensor; the for-loop path the square root
and the bias-corrected denominator of the tensor (``terms.optimizer_temporaries`` counts the
same two cases for unsharded jobs, where the largest *parameter* sets the for-loop's size).

They exist while the fp32 gradient of the partition (or sub-group) is the master's ``.grad``
and after the flat 16-bit copy it was cast from has been freed (``terms.zero12_step_grads`` /
``terms.zero3_step_grads``): the step adds ``max(temporaries - flat copy, 0)`` to what the
optimizer phase already holds.
"""

from __future__ import annotations

from typing import Optional

from preflight.estimate import constants as C
from preflight.estimate.inputs import EstimateInput

#: optimizers whose torch/transformers implementation makes step temporaries (fused and
#: 8-bit ones update in place or block by block)
_WITH_TEMPORARIES = ("adamw", "adafactor")


def _foreach(inp: EstimateInput) -> bool:
    version = inp.torch_before
    if version is not None and version < (2, 0) and "foreach" not in inp.sources:
        return False   # torch.optim's default was the for-loop before 2.0 (foreach=None)
    return bool(inp.foreach)


def foreach_adamw_intermediates(inp: EstimateInput) -> int:
    """How many parameter-list-sized fp32 intermediates torch's foreach AdamW holds at once.

    torch 2.0.x ``_multi_tensor_adamw`` ran ``exp_avg_sq_sqrt = torch._foreach_sqrt(...)``
    then ``denom = torch._foreach_add(exp_avg_sq_sqrt, eps)``: two lists alive through
    ``_foreach_addcdiv_``. pytorch #104898 ("[foreach][AdamW] Minimize intermediates to save
    peak memory", merged 2023-07-10, first in torch 2.1.0) adds ``eps`` in place: one list
    ("a minimum budget of 1 intermediate", pytorch issue #97712). Unknown version: the latest."""
    version = inp.torch_before
    return 2 if (inp.optimizer == "adamw" and version is not None and version < (2, 1)) else 1


def zero_client_step_temporaries(inp: EstimateInput, trainable: float, n: int, largest: float,
                                 flat16: float) -> float:
    """Bytes the client optimizer's step adds under ZeRO (see the module docstring): 0 unless
    the plan says the optimizer is the client's (``inp.zero_client_optimizer``), under optimizer
    offload (the step runs on host tensors) or for optimizers that update in place.
    ``n``: ranks the partition is split over; ``largest``: the largest parameter (a ZeRO-3
    sub-group closes at the parameter that brings it past ``sub_group_size``); ``flat16``: the
    flat 16-bit gradient copy the optimizer phase already counts (freed before the step)."""
    if not inp.zero_client_optimizer or not inp.zero_stage or inp.offload_optimizer or not trainable:
        return 0.0
    if inp.optimizer not in _WITH_TEMPORARIES:
        return 0.0
    part = trainable / max(n, 1)
    if inp.zero_stage >= 3:
        part = min(part, C.DS_SUB_GROUP_SIZE + largest / max(n, 1))
    temps = part * 4.0 * (foreach_adamw_intermediates(inp) if _foreach(inp) else 2)
    return max(temps - flat16, 0.0)


def client_optimizer_from_names(names: list[tuple[str, Optional[str]]]) -> Optional[bool]:
    """Whether ZeRO wraps a client optimizer, from the plan's ``optimizer.name`` facts as
    (value, adapter): an optimizer named in the DeepSpeed config (adapter ``deepspeed``) is
    DeepSpeed's own; a DeepSpeed optimizer class passed by the code (``FusedAdam``,
    ``DeepSpeedCPUAdam``) steps in place too; any other name (``TrainingArguments.optim``, a
    torch optimizer built by the code) is the client's. None when no name is known."""
    if not names:
        return None
    for value, adapter in names:
        key = str(value).lower().replace("_", "").replace("-", "")
        if adapter == "deepspeed" or "deepspeed" in key or "fusedadam" in key or "cpuadam" in key:
            return False
    return True
