"""PF673 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

_JOB = dedent("""
    # --- train.py
    import deepspeed
    import torch


    def main(args, model, dataset):
        engine, _, loader, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters(),
                                                    training_data=dataset)
        for batch in loader:
            loss = engine(**batch).loss
            engine.backward(loss)
            engine.step()
    # --- ds_z3_qw.json
    {{
      "train_micro_batch_size_per_gpu": 8,
      "bf16": {{"enabled": {bf16}}},
      "zero_optimization": {{
        "stage": {stage},
        "zero_quantized_weights": {qw},
        "overlap_comm": true
      }}
    }}
    # --- requirements.txt
    deepspeed{version}
    # --- launch
    deepspeed --num_gpus 2 train.py --deepspeed --deepspeed_config ds_z3_qw.json
    """)

PF673_BAD = [
    # DeepSpeed issue 7775: bf16 + ZeRO-3 quantized weights on 0.18.x
    _JOB.format(bf16="true", stage=3, qw="true", version="==0.18.4")
    + "# --- expect\nds_z3_qw.json:6: error: PF673\n",
    # the latest release without the fix
    _JOB.format(bf16="true", stage=3, qw="true", version="==0.19.5")
    + "# --- expect\nds_z3_qw.json:6: error: PF673\n",
]

PF673_GOOD = [
    # the fix of 7775: no quantized weights under bf16
    _JOB.format(bf16="true", stage=3, qw="false", version="==0.18.4"),
    # fp16 is what the quantizer handles
    _JOB.format(bf16="false", stage=3, qw="true", version="==0.18.4"),
    # tricky: DeepSpeed not pinned (the installed release is unknown)
    _JOB.format(bf16="true", stage=3, qw="true", version=""),
    # tricky: a release after v0.19.5, the last release checked to lack the fix (PR 8215)
    _JOB.format(bf16="true", stage=3, qw="true", version="==0.20.0"),
]
