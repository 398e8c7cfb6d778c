"""PF282 examples: executable documentation. A bad example marks each line it must be reported on
(a trailing ``# error: PF282`` comment, or a ``# --- expect`` line for JSON); the meta-test asserts
exactly those findings. Good examples must stay silent."""

from __future__ import annotations

BAD_EXAMPLES = [
    # DeepSpeed issue 610: the legacy cpu_offload flag switched on in a stage-0 config
    """
# --- ds_config.json
{
  "train_batch_size": 20,
  "fp16": {"enabled": true},
  "optimizer": {"type": "Adam", "params": {"lr": 3e-5}},
  "zero_optimization": {
    "stage": 0,
    "contiguous_gradients": true,
    "cpu_offload": true
  }
}
# --- expect
ds_config.json:8: error: PF282
""",
    # the current key, with no stage written (DeepSpeed's default is 0)
    """
# --- ds_config.json
{
  "train_micro_batch_size_per_gpu": 4,
  "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}},
  "zero_optimization": {
    "offload_optimizer": {"device": "cpu", "pin_memory": true}
  }
}
# --- expect
ds_config.json:5: error: PF282
""",
    # an accelerate config at zero_stage 0 with the optimizer offloaded
    """
# --- accelerate.yaml
compute_environment: LOCAL_MACHINE
distributed_type: DEEPSPEED
num_processes: 4
deepspeed_config:
  zero_stage: 0
  offload_optimizer_device: cpu  # error: PF282
""",
]

GOOD_EXAMPLES = [
    # the fix: ZeRO-Offload with stage 2
    """
# --- ds_config.json
{
  "train_batch_size": 20,
  "fp16": {"enabled": true},
  "optimizer": {"type": "Adam", "params": {"lr": 3e-5}},
  "zero_optimization": {"stage": 2, "contiguous_gradients": true, "cpu_offload": true}
}
""",
    # tricky-correct: stage 0 with the offload block present but switched off
    """
# --- ds_config.json
{
  "train_micro_batch_size_per_gpu": 4,
  "zero_optimization": {"stage": 0, "offload_optimizer": {"device": "none"}, "cpu_offload": false}
}
""",
    # stage 1 offloads the optimizer (ZeRO-Offload works from stage 1)
    """
# --- ds_z1.json
{
  "train_micro_batch_size_per_gpu": 4,
  "zero_optimization": {"stage": 1, "offload_optimizer": {"device": "cpu"}}
}
""",
    # a stage preflight cannot read: "auto" filled in by the integration
    """
# --- ds_config.json
{
  "train_micro_batch_size_per_gpu": "auto",
  "zero_optimization": {"stage": "auto", "offload_optimizer": {"device": "cpu"}}
}
""",
]

# det125: fp16 with ZeRO stage 0 on an unpinned DeepSpeed is also PF198's (since 0.18.3 engine.backward never
# multiplies the loss by the scale the FP16 optimizer divides by)
BAD_EXAMPLES[0] = BAD_EXAMPLES[0].rstrip("\n") + "\nds_config.json:3: warning: PF198\n"
