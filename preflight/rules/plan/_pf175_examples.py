"""PF175 examples: small DeepSpeed jobs (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

import textwrap

_PIPE = textwrap.dedent("""
    # --- train_pipe.py
    import deepspeed
    from deepspeed.pipe import PipelineModule


    def main(args, layers, loss_fn, dataset):
        deepspeed.init_distributed()
        model = PipelineModule(layers=layers, loss_fn=loss_fn, num_stages=4)
        engine, _, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters(),
                                               training_data=dataset, config="ds_config.json")
        for _ in range(args.steps):
            engine.train_batch()
""")

_PLAIN = textwrap.dedent("""
    # --- train.py
    import deepspeed


    def main(args, model, loader):
        engine, optimizer, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters(),
                                                       config="ds_config.json")
        for x, y in loader:
            loss = engine(x, y)
            engine.backward(loss)
            engine.step()
""")

PF175_BAD = [
    # DeepSpeed issue 3866: a PipelineModule, bf16, ZeRO-1 with the optimizer offloaded to the CPU
    _PIPE + textwrap.dedent("""
    # --- ds_config.json
    {
      "train_micro_batch_size_per_gpu": 4,
      "gradient_accumulation_steps": 32,
      "bf16": {"enabled": true},
      "optimizer": {"type": "AdamW", "params": {"lr": 1e-5}},
      "zero_optimization": {
        "stage": 1,
        "offload_optimizer": {"device": "cpu", "pin_memory": true}
      }
    }
    # --- expect
    ds_config.json:8: error: PF175
"""),
    # DeepSpeed issue 4083: fp32 gradient accumulation with bf16, ZeRO-1 and DeepSpeedCPUAdam on the CPU
    _PLAIN + textwrap.dedent("""
    # --- ds_config.json
    {
      "train_micro_batch_size_per_gpu": 8,
      "data_types": {"grad_accum_dtype": "fp32"},
      "bf16": {"enabled": true},
      "optimizer": {"type": "DeepSpeedCPUAdam", "params": {"lr": 0.001}},
      "zero_optimization": {
        "stage": 1,
        "offload_optimizer": {"device": "cpu", "pin_memory": true}
      }
    }
    # --- expect
    ds_config.json:3: error: PF175
"""),
]

PF175_GOOD = [
    # the 3866 workaround: the same pipeline job without the offload
    _PIPE + textwrap.dedent("""
    # --- ds_config.json
    {
      "train_micro_batch_size_per_gpu": 4,
      "bf16": {"enabled": true},
      "zero_optimization": {"stage": 1}
    }
"""),
    # tricky-correct: bf16 + ZeRO-1 + CPU offload without a pipeline or an fp32 grad-accumulation dtype is
    # ZeRO-Offload's ordinary path
    _PLAIN + textwrap.dedent("""
    # --- ds_config.json
    {
      "train_micro_batch_size_per_gpu": 8,
      "bf16": {"enabled": true},
      "optimizer": {"type": "DeepSpeedCPUAdam", "params": {"lr": 0.001}},
      "zero_optimization": {"stage": 1, "offload_optimizer": {"device": "cpu"}}
    }
"""),
    # tricky-correct: the fp32 grad-accumulation form on a declared DeepSpeed release (past PR 4084; a pin before
    # it is PF385's)
    # and an fp16 pipeline job
    _PLAIN + textwrap.dedent("""
    # --- requirements.txt
    deepspeed>=0.14
    # --- ds_config.json
    {
      "train_micro_batch_size_per_gpu": 8,
      "data_types": {"grad_accum_dtype": "fp32"},
      "bf16": {"enabled": true},
      "zero_optimization": {"stage": 1, "offload_optimizer": {"device": "cpu"}}
    }
"""),
    _PIPE + textwrap.dedent("""
    # --- ds_config.json
    {
      "train_micro_batch_size_per_gpu": 4,
      "fp16": {"enabled": true},
      "zero_optimization": {"stage": 1, "offload_optimizer": {"device": "cpu"}}
    }
"""),
]
