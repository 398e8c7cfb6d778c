"""PF504 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

PF504_BAD = [
    """
# --- ds_config.json
{
  "train_micro_batch_size_per_gpu": 4,
  "zero_optimization": {
    "stage": 2,
    "offload_optimizer": {"device": "cpu"},
    "offload_param": {"device": "cpu"}
  }
}
# --- expect
ds_config.json:6: warning: PF504
""",
    """
# --- accelerate.yaml
compute_environment: LOCAL_MACHINE
distributed_type: DEEPSPEED
num_processes: 8
deepspeed_config:
  zero_stage: 2
  offload_optimizer_device: cpu
  offload_param_device: cpu  # warning: PF504
""",
]

PF504_GOOD = [
    """
# --- ds_config.json
{
  "train_micro_batch_size_per_gpu": 4,
  "zero_optimization": {"stage": 3, "offload_param": {"device": "cpu"}}
}
""",
    """
# --- ds_config.json
{
  "train_micro_batch_size_per_gpu": 4,
  "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}, "offload_param": {"device": "none"}}
}
""",
]
