"""PF540 examples: small DeepSpeed jobs (``# --- <path>`` sections); bad ones must fire at the
pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_CONFIG = """
# --- ds_config.json
{
  "train_micro_batch_size_per_gpu": 4,
  "zero_optimization": {
    "stage": 3,
    "offload_optimizer": {"device": "cpu", "pin_memory": true}
  }{extra}
}
"""

_SCRIPT = textwrap.dedent("""
    # --- finetune.py
    import json

    import deepspeed
    import torch
    {imports}

    ds_config = json.load(open("ds_config.json"))
    model = build_model()
    optimizer = {optimizer}
    engine, optimizer, _, _ = deepspeed.initialize(model=model, optimizer=optimizer, config=ds_config)
""")

PF540_BAD = [
    # LMFlow issue 470: a client torch AdamW with the optimizer offloaded to CPU
    _SCRIPT.replace("{imports}", "").replace(
        "{optimizer}", "torch.optim.AdamW(model.parameters(), lr=2e-5)  # error: PF540")
    + _CONFIG.replace("{extra}", ""),
]

PF540_GOOD = [
    # the fix: DeepSpeed's CPU Adam
    _SCRIPT.replace("{imports}", "from deepspeed.ops.adam import DeepSpeedCPUAdam").replace(
        "{optimizer}", "DeepSpeedCPUAdam(model.parameters(), lr=2e-5)")
    + _CONFIG.replace("{extra}", ""),
    # or an optimizer section: DeepSpeed builds a compatible optimizer
    _SCRIPT.replace("{imports}", "").replace("{optimizer}", "None")
    + _CONFIG.replace("{extra}", ',\n  "optimizer": {"type": "AdamW", "params": {"lr": 2e-5}}'),
    # no offload: any client optimizer is fine
    _SCRIPT.replace("{imports}", "").replace("{optimizer}", "torch.optim.AdamW(model.parameters(), lr=2e-5)")
    + _CONFIG.replace('"offload_optimizer": {"device": "cpu", "pin_memory": true}', '"overlap_comm": true')
    .replace("{extra}", ""),
]

_HF = textwrap.dedent("""
    # --- finetune.py
    import transformers


    def train(args, data):
        model = transformers.AutoModelForCausalLM.from_pretrained("bigscience/bloomz-7b1-mt")
        trainer = transformers.Trainer(
            model=model,
            train_dataset=data,
            args=transformers.TrainingArguments(
                output_dir="out",
                per_device_train_batch_size=2,
                fp16={fp16},
                deepspeed="ds_config.json",
            ),
        )
        trainer.train()
    # --- ds_config.json
    {
      "train_micro_batch_size_per_gpu": "auto",
      "fp16": {
        "enabled": {enabled}
      },
      "zero_optimization": {"stage": 2}
    }
""")

PF540_GOOD.append(
    # Accelerate maps the torch AdamW to DeepSpeedCPUAdam itself (held-out-1's ZeRO-3 twin)
    textwrap.dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    model = build_model()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
""") + _CONFIG.replace("{extra}", "") + """\
# --- launch
accelerate launch --use_deepspeed --deepspeed_config_file ds_config.json --num_processes 4 train.py
""")

PF541_BAD = [
    # BELLE issue 154: fp16 switched off in the arguments, hard-coded on in the DeepSpeed config
    _HF.replace("{fp16}", "False").replace("{enabled}", "true") + """\
# --- expect
ds_config.json:4: error: PF541
ds_config.json:4: warning: PF514
""",
]

PF541_GOOD = [
    # the fix: "auto" follows the arguments
    _HF.replace("{fp16}", "False").replace("{enabled}", '"auto"'),
    # both on
    _HF.replace("{fp16}", "True").replace("{enabled}", "true"),
]

_SECTION = ',\n  "optimizer": {"type": "Adam", "params": {"lr": 3e-4}}'

_MEGATRON = textwrap.dedent("""
    # --- pretrain_llama.py
    import json

    import deepspeed
    from megatron.optimizer import get_megatron_optimizer

    ds_config = json.load(open("ds_config.json"))
    model = build_model()
    {build}
    model, optimizer, _, _ = deepspeed.initialize(model=model, {passed}config=ds_config)
""")

PF540_BAD.append(
    # Megatron-DeepSpeed issue 298 (held-out-43): Megatron's own optimizer passed to deepspeed.initialize under
    # ZeRO-3 CPU offload; the config's optimizer section does not replace the client optimizer
    _MEGATRON.replace("{build}", "optimizer = get_megatron_optimizer([model])  # error: PF540")
    .replace("{passed}", "optimizer=optimizer, ") + _CONFIG.replace("{extra}", _SECTION))

PF540_GOOD.extend([
    # the fix: no client optimizer, the config's section builds DeepSpeedCPUAdam
    _MEGATRON.replace("{build}", "").replace("{passed}", "model_parameters=model.parameters(), ")
    + _CONFIG.replace("{extra}", _SECTION),
    # tricky-correct: the same client optimizer without the offload
    _MEGATRON.replace("{build}", "optimizer = get_megatron_optimizer([model])").replace("{passed}", "optimizer=optimizer, ")
    + _CONFIG.replace('"offload_optimizer": {"device": "cpu", "pin_memory": true}', '"overlap_comm": true')
    .replace("{extra}", _SECTION),
    # tricky-correct: the variable holds DeepSpeed's CPU Adam on the offload branch
    _MEGATRON.replace("{build}", "optimizer = DeepSpeedCPUAdam(model.parameters()) if offload else "
                      "get_megatron_optimizer([model])").replace("{passed}", "optimizer=optimizer, ")
    + _CONFIG.replace("{extra}", _SECTION),
])
